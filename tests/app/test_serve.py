"""`snooker-referee serve`: localhost by default, a fresh token, the feed, clear refusals."""

from __future__ import annotations

import json
import queue
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

from snooker.broadcast.feed import FeedSubscriber
from snooker.cli import main

WAIT_S = 30.0
MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["Ann", "Bob"], "best_of": 1, "breaker": 0}


class Serve:
    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "snooker.cli", "serve", "--port", "0", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.said: dict[str, str] = {}
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, key: str) -> str:
        while key not in self.said:
            line = self.lines.get(timeout=WAIT_S)
            name, _, value = line.partition(": ")
            self.said.setdefault(name, value)
        return self.said[key]

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=WAIT_S)


def _post(url: str, token: str, command: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(command).encode(), headers={"X-Console-Token": token}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_serves_on_localhost_only_with_a_fresh_token_and_publishes_the_feed():
    first, second = Serve("--feed", "tcp://127.0.0.1:*", "--table", "t4"), Serve()
    try:
        console = first.wait_for("console")
        token = first.wait_for("token")
        assert console.startswith("http://127.0.0.1:") and console.endswith(f"?token={token}")
        assert len(token) >= 20 and token != second.wait_for("token")
        port = int(console.split(":")[2].split("/")[0])
        with pytest.raises(OSError):  # bound to 127.0.0.1, not to every interface
            socket.create_connection(("127.0.1.1", port), timeout=2.0).close()

        with FeedSubscriber(first.wait_for("feed").split()[0], "t4") as feed:
            base = console.split("/console")[0]
            assert _post(f"{base}/api/command", token, {"command": "line", "line": MATCH})[0] == 200
            code, answer = _post(f"{base}/api/command", token, {"command": "decision", "choice": "maybe"})
            assert code == 400 and "choice 'maybe'" in answer["error"]
            assert _post(f"{base}/api/command", "guess", {"command": "concede"})[0] == 401
            state = None
            while state is None or state["players"] != ["Ann", "Bob"]:
                message = feed.receive(WAIT_S)
                assert message is not None, "no state on the feed"
                state = message.body if message.kind == "state" else state
        assert first.process.poll() is None  # bad commands did not stop it
    finally:
        assert first.stop() == 0
        second.stop()


def test_host_other_than_localhost_is_announced():
    server = Serve("--host", "0.0.0.0")
    try:
        assert "reachable from the network" in server.wait_for("warning")
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--follow", "tcp://127.0.0.1:9", "--record", "x.sqlite"], "--follow only shows a feed"),
        (["--table", "a b"], "table id 'a b'"),
        (["--resume"], "--resume needs --record"),
    ],
    ids=["follow_with_record", "bad_table_id", "resume_without_record"],
)
def test_bad_options_are_refused_clearly(tmp_path, monkeypatch, capsys, args: list[str], message: str):
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", *args]) == 2
    assert message in capsys.readouterr().err
