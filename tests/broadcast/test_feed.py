"""The ZeroMQ scoreboard feed over real sockets on 127.0.0.1 (CONTRACTS.md §4)."""

from __future__ import annotations

import json
import threading
import time

import pytest
import zmq

from snooker.broadcast.feed import (
    FEED_ENDED,
    FEED_LIVE,
    FEED_SCHEMA,
    FeedConfig,
    FeedError,
    FeedPublisher,
    FeedSubscriber,
    events_of,
)
from snooker.record.session import Change

ANY_PORT = "tcp://127.0.0.1:*"
SCOREBOARD = {"players": ["A", "B"], "score": [12, 40], "frames": [1, 0], "break": 7, "ball_on": "red"}
RECEIVE_S = 3.0


def _first(subscriber: FeedSubscriber, kind: str, timeout_s: float = RECEIVE_S):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        message = subscriber.receive(0.1)
        if message is not None and message.kind == kind:
            return message
    raise AssertionError(f"no {kind} message within {timeout_s} s")


@pytest.fixture
def publisher():
    with FeedPublisher(ANY_PORT, "club-3", FeedConfig(heartbeat_s=0.2)) as pub:
        yield pub


def test_state_and_events_carry_topic_schema_seq_epoch(publisher: FeedPublisher):
    with FeedSubscriber(publisher.bound_endpoint, "club-3") as sub:
        publisher.publish_state(SCOREBOARD)
        state = _first(sub, "state")  # the heartbeat covers the subscription's slow start
        assert state.topic == "table/club-3/state/"
        assert state.body["schema"] == FEED_SCHEMA and state.body["epoch"] == publisher.epoch
        assert {k: state.body[k] for k in SCOREBOARD} == SCOREBOARD
        ruling = {"announcements": ["FOUL", "FREE BALL"], "score": [16, 40], "break": 0}
        publisher.on_change(Change({**SCOREBOARD, "score": [16, 40]}, ruling, {"type": "stroke"}, 5))
        events, seqs = [], [state.body["seq"]]
        while len(events) < 2:
            message = sub.receive(RECEIVE_S)
            assert message is not None
            seqs.append(message.body["seq"])
            if message.kind == "event":
                events.append(message)
        assert [e.body["event"] for e in events] == ["FOUL", "FREE BALL"]
        assert events[0].topic == "table/club-3/event/"
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        assert _first(sub, "state").body["score"] == [16, 40]


def test_late_subscriber_is_current_from_the_heartbeat(publisher: FeedPublisher):
    publisher.publish_state(SCOREBOARD)
    with FeedSubscriber(publisher.bound_endpoint) as late:
        states = [_first(late, "state"), _first(late, "state")]
    assert all(m.body["score"] == [12, 40] for m in states)
    assert states[1].body["seq"] > states[0].body["seq"]
    assert publisher.stats.heartbeats >= 1  # nothing was published after the subscriber joined


def test_a_restarted_publisher_has_a_new_epoch_and_the_subscriber_notices():
    probe = FeedPublisher(ANY_PORT, "t1").start()
    endpoint = probe.bound_endpoint
    probe.close()
    with FeedSubscriber(endpoint, "t1") as sub:
        epochs = []
        for _ in range(2):
            with FeedPublisher(endpoint, "t1", FeedConfig(heartbeat_s=0.1)) as pub:
                pub.publish_state(SCOREBOARD)
                epochs.append(_first(sub, "state").body["epoch"])
            while (last := _first(sub, "state").body)["feed"] != FEED_ENDED:  # its heartbeats, then its end
                assert last["epoch"] == epochs[-1]
        assert epochs[0] != epochs[1]
        assert sub.stats.restarts == 1


def test_a_subscriber_that_never_reads_does_not_block_the_publisher(publisher: FeedPublisher):
    context = zmq.Context.instance()
    sleeper = context.socket(zmq.SUB)
    sleeper.setsockopt(zmq.RCVHWM, 1)
    sleeper.setsockopt(zmq.LINGER, 0)
    sleeper.setsockopt_string(zmq.SUBSCRIBE, "")
    sleeper.connect(publisher.bound_endpoint)
    big = {**SCOREBOARD, "padding": "x" * 20_000}
    finished = threading.Event()

    def flood() -> None:
        for _ in range(3000):
            publisher.publish_state(big)
        finished.set()

    try:
        worker = threading.Thread(target=flood, daemon=True)
        worker.start()
        assert finished.wait(30.0), "publisher blocked on a subscriber that never reads"
        with FeedSubscriber(publisher.bound_endpoint, "club-3") as reader:
            publisher.publish_state(SCOREBOARD)
            assert _first(reader, "state").body["score"] == [12, 40]
    finally:
        sleeper.close()


def test_a_closing_publisher_says_its_feed_ended():
    """Its last state is the scoreboard as it stood, marked ended: an overlay can tell a match no
    longer refereed from a quiet one."""
    publisher = FeedPublisher(ANY_PORT, "club-4", FeedConfig(heartbeat_s=0.1)).start()
    try:
        with FeedSubscriber(publisher.bound_endpoint, "club-4") as sub:
            publisher.publish_state(SCOREBOARD)
            assert _first(sub, "state").body["feed"] == FEED_LIVE
            publisher.close()
            states = []
            while (message := sub.receive(1.0)) is not None:
                states.append(message.body)
    finally:
        publisher.close()
    assert states and states[-1]["feed"] == FEED_ENDED
    assert {k: states[-1][k] for k in SCOREBOARD} == SCOREBOARD
    assert all(s["feed"] == FEED_LIVE for s in states[:-1])


def test_a_publisher_that_never_sent_a_state_ends_without_one():
    with FeedPublisher(ANY_PORT, "club-5") as publisher, FeedSubscriber(publisher.bound_endpoint) as sub:
        time.sleep(0.2)  # the subscription settles
        publisher.close()
        assert sub.receive(0.5) is None and publisher.stats.sent == 0


def test_malformed_messages_are_reported_not_fatal():
    context = zmq.Context.instance()
    raw = context.socket(zmq.PUB)
    raw.setsockopt(zmq.LINGER, 0)
    port = raw.bind_to_random_port("tcp://127.0.0.1")
    try:
        with FeedSubscriber(f"tcp://127.0.0.1:{port}") as sub:
            got = None
            deadline = time.monotonic() + RECEIVE_S
            while got is None and time.monotonic() < deadline:
                raw.send_multipart([b"table/x/state/", b"{not json"])
                got = sub.receive(0.1)
            assert got is not None and "not JSON" in got.error
            raw.send_multipart([b"table/x/state/", json.dumps({"seq": 1}).encode()])
            second = sub.receive(RECEIVE_S)
            assert second is not None and "schema/seq/epoch" in second.error
            for seq in ("three", True, -1, 2.5):  # the subscriber counted on an int and raised
                raw.send_multipart(
                    [b"table/x/state/", json.dumps({"schema": 1, "seq": seq, "epoch": "e"}).encode()]
                )
                bad = sub.receive(RECEIVE_S)
                assert bad is not None and "seq is not a count" in bad.error
            raw.send_multipart(
                [b"table/x/state/", json.dumps({"schema": 1, "seq": 4, "epoch": "e"}).encode()]
            )
            good = sub.receive(RECEIVE_S)
            assert good is not None and good.error is None and good.body["seq"] == 4
            assert sub.stats.malformed >= 6
    finally:
        raw.close()


@pytest.mark.parametrize(
    ("endpoint", "table", "problem"),
    [("tcp://127.0.0.1:*", "a/b", "table id"), ("nonsense://x", "t", "cannot publish")],
    ids=["slash_in_table_id", "bad_endpoint"],
)
def test_bad_setup_is_a_clear_error(endpoint: str, table: str, problem: str):
    with pytest.raises(FeedError, match=problem):
        FeedPublisher(endpoint, table).start()


@pytest.mark.parametrize(
    ("ruling", "line", "expected"),
    [
        ({"announcements": ["FOUL"]}, {"potted": []}, ["FOUL"]),
        ({"announcements": []}, {"potted": ["red"]}, ["POT"]),
        ({"announcements": [], "frame_over": True, "winner": 1}, {}, ["FRAME OVER"]),
        ({"error": "no decision is open"}, {}, []),
        (
            {"announcements": ["MATCH CONCEDED"], "frame_over": True, "frame_ended": False},
            {},
            ["MATCH CONCEDED"],
        ),
        (
            {"announcements": ["SEVEN"], "frame_over": True, "frame_ended": True},
            {"potted": ["black"]},
            ["POT", "SEVEN", "FRAME OVER"],
        ),
        (
            {"announcements": ["BALLS REPLACED", "ONE"], "decision": "replace"},
            {"potted": ["red"]},
            ["DECISION", "BALLS REPLACED", "POT", "ONE"],
        ),
    ],
    ids=[
        "announcement",
        "pot",
        "frame_over",
        "error_is_silent",
        "a_frame_over_before_is_not_announced_again",
        "the_pot_before_its_calls",
        "the_choice_and_its_calls_before_the_stroke",
    ],
)
def test_events_of_a_change(ruling, line, expected):
    assert [e["event"] for e in events_of(Change({}, ruling, line, 1))] == expected


def test_a_scoreboard_keeps_its_own_schema_as_payload_schema(publisher: FeedPublisher):
    body = publisher.publish_state({**SCOREBOARD, "schema": "snooker.scoreboard/1"})
    assert body["schema"] == FEED_SCHEMA and body["payload_schema"] == "snooker.scoreboard/1"


@pytest.mark.parametrize("heartbeat_s", [0.0, 1.5], ids=["zero", "slower_than_the_contract"])
def test_heartbeat_must_be_at_most_a_second(heartbeat_s: float):
    with pytest.raises(ValueError, match="at least once a second"):
        FeedConfig(heartbeat_s=heartbeat_s)
