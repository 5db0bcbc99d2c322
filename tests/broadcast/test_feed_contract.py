"""CONTRACTS.md §4 over real sockets: the sample frame's lines go through a match session into the
ZeroMQ feed, and what a subscriber receives carries every named field with its type and meaning;
the overlay and console pages read only fields the scoreboard has."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from snooker.broadcast.feed import FeedConfig, FeedMessage, FeedPublisher, FeedSubscriber
from snooker.record.session import MatchSession
from snooker.referee import Referee

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "demo_frame.jsonl"
STATIC = REPO / "src" / "snooker" / "broadcast" / "static"
TABLE = "club-7"
RECEIVE_S = 3.0


def _pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)


def _last_foul(value: object) -> bool:
    if value is None:
        return True
    return (
        isinstance(value, dict)
        and value.get("offender") in (0, 1)
        and type(value.get("penalty")) is int
        and 4 <= value["penalty"] <= 7
        and isinstance(value.get("fouls"), list)
    )


STATE = [
    ("players", lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(p, str) for p in v)),
    ("frames", _pair),
    ("scores", _pair),
    ("break", lambda v: type(v) is int and v >= 0),
    ("ball_on", lambda v: isinstance(v, str) and v),
    ("reds", lambda v: type(v) is int and 0 <= v <= 15),
    ("points_remaining", lambda v: type(v) is int and v >= 0),
    ("snookers_required", _pair),
    ("last_foul", _last_foul),
    ("status", lambda v: v in ("in_play", "decision", "respotted_black_lot", "frame_over", "match_over")),
]


@pytest.fixture(scope="module")
def received() -> list[FeedMessage]:
    """Every message a subscriber gets while the sample frame is played through a session."""
    session = MatchSession()
    with FeedPublisher("tcp://127.0.0.1:*", TABLE, FeedConfig(heartbeat_s=0.1)) as publisher:
        session.add_listener(publisher.on_change)
        with FeedSubscriber(publisher.bound_endpoint, TABLE) as subscriber:
            publisher.publish_state(session.scoreboard())
            messages = [_next(subscriber, lambda m: m.kind == "state")]  # connected (heartbeat)
            for line in SAMPLE.read_text().splitlines():
                assert "error" not in session.apply(line)
            deadline = time.monotonic() + RECEIVE_S
            while time.monotonic() < deadline:
                message = subscriber.receive(0.1)
                if message is None:
                    continue
                messages.append(message)
                if message.kind == "state" and message.body["status"] == "match_over":
                    break
    return messages


def _next(subscriber: FeedSubscriber, wanted) -> FeedMessage:
    deadline = time.monotonic() + RECEIVE_S
    while time.monotonic() < deadline:
        message = subscriber.receive(0.1)
        if message is not None and wanted(message):
            return message
    raise AssertionError(f"nothing wanted arrived within {RECEIVE_S} s")


def _states(received: list[FeedMessage]) -> list[dict[str, Any]]:
    return [m.body for m in received if m.kind == "state"]


def test_topics_end_with_a_slash_and_name_the_table_and_kind(received):
    assert {m.topic for m in received} == {f"table/{TABLE}/state/", f"table/{TABLE}/event/"}
    assert all(m.error is None for m in received)


def test_every_body_carries_schema_an_increasing_seq_and_one_epoch(received):
    bodies = [m.body for m in received]
    assert all(isinstance(b["schema"], str) and b["schema"] for b in bodies)
    seqs = [b["seq"] for b in bodies]
    assert all(type(s) is int for s in seqs) and seqs == sorted(set(seqs))
    assert len({b["epoch"] for b in bodies}) == 1 and isinstance(bodies[0]["epoch"], str)


@pytest.mark.parametrize(("field", "valid"), STATE, ids=[f for f, _ in STATE])
def test_every_state_body_carries(received, field, valid):
    wrong = [b.get(field, "MISSING") for b in _states(received) if field not in b or not valid(b[field])]
    assert not wrong


def test_a_state_is_published_on_every_change_and_ends_where_the_referee_does(received):
    referee = Referee()
    scores = [referee.apply(line)["score"] for line in SAMPLE.read_text().splitlines()]
    published = [b["scores"] for b in _states(received)]
    at = 0
    for score in scores:  # every score the referee passed through, in order (heartbeats repeat)
        at = published.index(score, at)
    final = _states(received)[-1]
    assert final["scores"] == scores[-1] == [46, 53] and final["frames"] == [0, 1]
    assert final["last_foul"] is None or final["last_foul"]["penalty"] >= 4


def test_events_are_single_announcements_fouls_free_ball_pots_and_the_frame(received):
    events = [m.body for m in received if m.kind == "event"]
    named = [e["event"] for e in events]
    assert all(isinstance(e, str) and e for e in named)
    assert {"FOUL", "FREE BALL", "FOUL AND A MISS", "POT"} <= set(named)
    assert any(e.startswith("FRAME") for e in named)
    assert all(_pair(e["score"]) for e in events)


@pytest.mark.parametrize("page", ["overlay.html", "console.html"])
def test_the_pages_read_only_scoreboard_fields(page):
    text = (STATIC / page).read_text()
    variable = {"overlay.html": "s", "console.html": "state"}[page]
    not_fields = {"onopen", "onmessage", "onclose", "includes"}
    used = set(re.findall(rf"\b{variable}\.([a-z_]+)\b", text)) - not_fields
    assert used, f"no scoreboard field read in {page}"
    board = Referee().scoreboard()
    assert used <= set(board), used - set(board)
