"""`snooker-referee watch` prints a real feed, human-readable or raw JSON."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time

import pytest
import zmq

from snooker.broadcast.feed import FeedConfig, FeedPublisher
from snooker.cli import main
from snooker.record.session import Change

SCOREBOARD = {
    "players": ["Ann", "Bob"],
    "score": [23, 5],
    "frames": [2, 1],
    "break": 15,
    "ball_on": "colour",
    "reds": 9,
    "points_remaining": 83,
    "striker": 0,
    "status": "playing",
}


@pytest.fixture
def publisher():
    with FeedPublisher("tcp://127.0.0.1:*", "t7", FeedConfig(heartbeat_s=0.1)) as pub:
        pub.publish_state(SCOREBOARD)
        yield pub


def test_watch_prints_a_human_scoreboard_line(publisher: FeedPublisher, capsys):
    assert main(["watch", publisher.bound_endpoint, "--count", "1", "--timeout", "5"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("[table t7 #")
    for text in ("Ann 23 (2)", "5 (1) Bob", "break 15", "on colour", "reds 9", "remaining 83", "Ann to play"):
        assert text in out


def test_watch_json_prints_raw_bodies_and_events(publisher: FeedPublisher, capsys):
    ruling = {"announcements": ["FOUL"], "score": [23, 9]}
    publisher.on_change(Change({**SCOREBOARD, "score": [23, 9]}, ruling, {"type": "stroke"}, 3))
    assert main(["watch", publisher.bound_endpoint, "--json", "--count", "4", "--timeout", "5"]) == 0
    messages = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(messages) == 4
    assert all(
        m["body"]["schema"] == "snooker.feed/1" and m["topic"].startswith("table/t7/") for m in messages
    )
    seqs = [m["body"]["seq"] for m in messages]
    assert seqs == sorted(seqs)


def test_watch_with_nobody_publishing_stops_at_the_timeout(capsys):
    assert main(["watch", "tcp://127.0.0.1:9", "--timeout", "0.3"]) == 0
    assert capsys.readouterr().out == ""


def test_watch_bad_endpoint_is_a_clear_error_not_a_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "snooker.cli", "watch", "nonsense://nowhere", "--timeout", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "cannot subscribe to nonsense://nowhere" in done.stderr
    assert "Traceback" not in done.stderr


def test_watch_says_when_a_feed_it_heard_falls_silent():
    """A publisher that stops without closing (crashed, the network gone) leaves its last state on
    screen; watch says it is no longer live."""
    from snooker.app.watch import SILENT_AFTER_S, watch
    from snooker.broadcast.feed import FeedSubscriber

    shown, notices = io.StringIO(), io.StringIO()
    raw = zmq.Context.instance().socket(zmq.PUB)
    raw.setsockopt(zmq.LINGER, 0)
    port = raw.bind_to_random_port("tcp://127.0.0.1")
    try:
        with FeedSubscriber(f"tcp://127.0.0.1:{port}") as subscriber:

            def publish_then_hang() -> None:
                for seq in range(1, int(PUBLISHING_S / HEARTBEAT_S) + 1):
                    body = {
                        **SCOREBOARD,
                        "schema": "snooker.feed/1",
                        "seq": seq,
                        "epoch": "e1",
                        "table": "t7",
                    }
                    raw.send_multipart([b"table/t7/state/", json.dumps(body).encode()])
                    time.sleep(HEARTBEAT_S)

            sender = threading.Thread(target=publish_then_hang)
            sender.start()
            watch(subscriber, shown, False, None, SILENT_AFTER_S + 1.0, True, notices=notices)
            sender.join()
    finally:
        raw.close()
    assert shown.getvalue().count("Ann 23") >= 2  # heartbeats while it published
    assert "feed silent for 3 s" in notices.getvalue() and "not live" in notices.getvalue()
    assert "ended" not in notices.getvalue()


def test_watch_says_when_the_publisher_ended_the_feed():
    """A publisher that closes (live stopped) says so in its last state; watch says it once, and
    not that the feed then fell silent."""
    from snooker.app.watch import SILENT_AFTER_S, watch
    from snooker.broadcast.feed import FeedSubscriber

    shown, notices = io.StringIO(), io.StringIO()
    with FeedPublisher("tcp://127.0.0.1:*", "t8", FeedConfig(heartbeat_s=HEARTBEAT_S)) as pub:
        pub.publish_state(SCOREBOARD)
        with FeedSubscriber(pub.bound_endpoint) as subscriber:
            threading.Timer(PUBLISHING_S, pub.close).start()
            watch(subscriber, shown, False, None, SILENT_AFTER_S + 1.0, True, notices=notices)
    assert shown.getvalue().splitlines()[-1].endswith("Ann to play") and "feed ended" in shown.getvalue()
    assert notices.getvalue().count("the publisher ended the feed") == 1
    assert "silent" not in notices.getvalue()


PUBLISHING_S = 1.0
"""How long the silenced publisher publishes before it stops."""
HEARTBEAT_S = 0.1
"""How often the test publishers re-send their state (s)."""
