"""`snooker-referee live`: clear refusals, resume, and a real clip through the whole chain."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.broadcast import feed as feed_module
from snooker.broadcast.feed import FeedPublisher, FeedSubscriber
from snooker.cli import main
from snooker.datasets.shared import bucharest_training
from snooker.record.store import MatchRecord

CLIP = bucharest_training("Task2") / "18.mp4"
WAIT_S = 60.0


def _blank_clip(path: Path, frames: int = 12) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (160, 90))
    for _ in range(frames):
        writer.write(np.full((90, 160, 3), 30, np.uint8))
    writer.release()
    return path


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--source", "no-such-clip.mp4"], "no-such-clip.mp4 is neither a camera index"),
        (["--source", "x.mp4", "--table", "a/b"], "table id 'a/b'"),
        (["--source", "x.mp4", "--queue", "0"], "--queue must be at least 1"),
        (["--source", "x.mp4", "--resume"], "--resume needs --record"),
    ],
    ids=["missing_file", "slash_in_table_id", "empty_queue", "resume_without_record"],
)
def test_bad_arguments_are_refused_with_a_clear_message(tmp_path: Path, capsys, monkeypatch, extra, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.mp4").write_bytes(b"")
    args = ["live", "--table", "t1", *extra] if "--table" not in extra else ["live", *extra]
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_show_without_a_display_says_so(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["live", "--source", str(_blank_clip(tmp_path / "c.avi")), "--table", "t1", "--show"]) == 2
    assert "--show needs a display" in capsys.readouterr().err


NO_TABLE_SHOWN = 1
"""live's exit status when its file ended without a frame showing the table."""


def test_a_record_is_continued_only_with_resume(tmp_path: Path, capsys):
    clip, record = str(_blank_clip(tmp_path / "c.avi")), str(tmp_path / "m.sqlite")
    base = ["live", "--source", clip, "--table", "t1", "--record", record, "--every-frame"]
    assert main([*base, "--players", "Ann", "Bob"]) == NO_TABLE_SHOWN  # a blank clip: the record still holds
    captured = capsys.readouterr()
    assert "12 frames" in captured.out and "showed the table" in captured.err
    assert main(base) == 2
    assert "pass --resume" in capsys.readouterr().err
    assert main([*base, "--resume"]) == NO_TABLE_SHOWN
    assert "resumed" in capsys.readouterr().out
    with MatchRecord(record) as stored:
        lines = [entry.line for entry in stored.effective_lines()]
    assert len(lines) == 1 and lines[0]["players"] == ["Ann", "Bob"]  # one match, not two


@pytest.mark.parametrize("resumed", [False, True], ids=["new_match", "resumed_match"])
def test_the_feed_shows_no_state_before_the_match(tmp_path: Path, monkeypatch, resumed):
    """A subscriber that joins while the source opens must not be sent (and re-sent by the
    heartbeat) a scoreboard without the match's players: the first state published is the match's."""
    published: list[dict] = []

    class Recording(FeedPublisher):
        def publish_state(self, scoreboard):
            published.append(scoreboard)
            return super().publish_state(scoreboard)

    monkeypatch.setattr(feed_module, "FeedPublisher", Recording)
    clip, record = str(_blank_clip(tmp_path / "c.avi")), str(tmp_path / "m.sqlite")
    base = ["live", "--source", clip, "--table", "t1", "--record", record, "--every-frame"]
    feed = ["--feed", "tcp://127.0.0.1:*", "--players", "Ann", "Bob"]
    if resumed:
        assert main([*base, "--players", "Ann", "Bob"]) == NO_TABLE_SHOWN
    assert main([*base, *feed, *(["--resume"] if resumed else [])]) == NO_TABLE_SHOWN
    assert published and all(state["players"] == ["Ann", "Bob"] for state in published)


@pytest.mark.footage
@pytest.mark.slow
def test_a_real_clip_runs_live_with_feed_record_and_overlay(tmp_path: Path):
    if not CLIP.exists():
        pytest.skip(f"footage not found at {CLIP}")
    record = tmp_path / "live.sqlite"
    process = subprocess.Popen(
        [
            sys.executable, "-m", "snooker.cli", "live", "--source", str(CLIP), "--table", "t9",
            "--record", str(record), "--feed", "tcp://127.0.0.1:*", "--http", "0", "--status-every", "1",
            "--players", "Ann", "Bob",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    pump = threading.Thread(target=lambda: [lines.put(line.rstrip()) for line in process.stdout], daemon=True)
    pump.start()
    said = []
    while not (said and said[-1].startswith("feed: ")):
        said.append(lines.get(timeout=WAIT_S))
    endpoint = said[-1].split()[1]
    states = []
    with FeedSubscriber(endpoint, "t9") as subscriber:
        while process.poll() is None and len(states) < 3:
            message = subscriber.receive(0.5)
            if message is not None and message.kind == "state":
                states.append(message.body)
    assert process.wait(timeout=WAIT_S) == 0
    pump.join(timeout=WAIT_S)
    while not lines.empty():
        said.append(lines.get_nowait())
    text = "\n".join(said)
    assert "overlay: http://127.0.0.1:" in text and "token: " in text
    assert "ended;" in text and "dropped to keep up" in text
    processed = int(text.split("ended; live: ")[1].split(" frames")[0])
    dropped = int(text.split("ended; live: ")[1].split("), ")[1].split(" dropped")[0])
    assert processed + dropped == 151 and processed > 0  # every frame either read or knowingly dropped
    assert states and states[0]["players"] == ["Ann", "Bob"] and states[0]["epoch"]
    with MatchRecord(record) as stored:
        assert stored.effective_lines()[0].line["type"] == "match"
