"""SIGKILL a real referee process mid-frame: nothing recorded is lost; --resume gives the same state."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from snooker.record.store import MatchRecord
from snooker.referee import Referee

REPO = Path(__file__).resolve().parents[2]
DEMO_LOG = REPO / "samples" / "demo_frame.jsonl"
WAIT_S = 30.0
LINES_BEFORE_KILL = 15


class Server:
    """`snooker-referee serve --lines -` as a subprocess, with its stdout read on a thread."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "snooker.cli", "serve", "--port", "0", "--lines", "-", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.out: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.url = self.expect("overlay: ").removeprefix("overlay: ").removesuffix("/overlay")

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.out.put(line.rstrip("\n"))

    def expect(self, prefix: str) -> str:
        while True:
            try:
                line = self.out.get(timeout=WAIT_S)
            except queue.Empty:
                raise AssertionError(f"server said nothing starting {prefix!r} within {WAIT_S} s") from None
            self.seen.append(line)
            if line.startswith(prefix):
                return line

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def state(self) -> dict:
        """The scoreboard the server's bridge serves, less whether it is live (checked here)."""
        with urllib.request.urlopen(f"{self.url}/state", timeout=WAIT_S) as answer:
            state = json.load(answer)
        assert state.pop("feed") == "live"
        return state

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=WAIT_S)


def _as_stored(ruling: dict) -> dict:
    return json.loads(json.dumps(ruling))


def _clean_scoreboard(lines: list[str]) -> dict:
    referee = Referee()
    for line in lines:
        referee.apply(line)
    return referee.scoreboard()


@pytest.mark.slow
def test_sigkill_mid_frame_loses_nothing_and_resume_equals_a_clean_replay(tmp_path: Path):
    log = [line for line in DEMO_LOG.read_text().splitlines() if line.strip()]
    record_path = tmp_path / "match.sqlite"

    first = Server("--record", str(record_path))
    try:
        for line in log[:LINES_BEFORE_KILL]:
            first.send(line)
            first.expect("applied: ")
        first.send(log[LINES_BEFORE_KILL])  # in flight when the process dies: may or may not be recorded
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=WAIT_S)
    finally:
        first.stop()
    assert first.process.returncode == -signal.SIGKILL

    with MatchRecord(record_path) as record:
        stored = record.effective_lines()
    recorded = len(stored)
    assert recorded in (LINES_BEFORE_KILL, LINES_BEFORE_KILL + 1)  # every acknowledged line is there
    assert [entry.line for entry in stored] == [json.loads(line) for line in log[:recorded]]
    clean = Referee()
    assert [entry.ruling for entry in stored] == [
        _as_stored(clean.apply(json.loads(line))) for line in log[:recorded]
    ]
    assert not _clean_scoreboard(log[:recorded])["frame_over"]  # the kill really was mid-frame

    resumed = Server("--record", str(record_path), "--resume")
    try:
        (said,) = [line for line in resumed.seen if line.startswith("resumed ")]
        assert f"{recorded} lines replayed" in said
        assert resumed.state() == _clean_scoreboard(log[:recorded])
        for line in log[recorded:]:
            resumed.send(line)
            resumed.expect("applied: ")
        assert resumed.state() == _clean_scoreboard(log)
    finally:
        resumed.stop()
    assert resumed.process.returncode == 0

    with MatchRecord(record_path) as record:
        assert [entry.line for entry in record.effective_lines()] == [json.loads(line) for line in log]


def test_a_used_record_is_not_overwritten_without_resume(tmp_path: Path):
    record_path = tmp_path / "match.sqlite"
    with MatchRecord(record_path) as record:
        record.append_line({"type": "new_frame"}, {"score": [0, 0]}, "test")
    done = subprocess.run(
        [sys.executable, "-m", "snooker.cli", "serve", "--port", "0", "--record", str(record_path)],
        capture_output=True,
        text=True,
        timeout=WAIT_S,
    )
    assert done.returncode == 2
    assert "already holds 1 rows; pass --resume" in done.stderr and "Traceback" not in done.stderr
