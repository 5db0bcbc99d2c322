"""The HTTP/WebSocket bridge and the console API over real sockets, with a real record file."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest
import zmq

from snooker.broadcast.console import CommandError, to_action
from snooker.broadcast.feed import FeedConfig, FeedPublisher
from snooker.broadcast.web import TOKEN_HEADER, Bridge, BridgeThread, WebConfig
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord

MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["Ann", "Bob"], "best_of": 3, "breaker": 0}
POT_RED = {"type": "stroke", "first_contact": ["red"], "potted": ["red"]}
IN_OFF = {"type": "stroke", "first_contact": ["red"], "cue_ball": "potted"}
TOKEN = "test-token-123"
WAIT_S = 5.0


@pytest.fixture
def served(tmp_path: Path):
    record = MatchRecord(tmp_path / "match.sqlite").open()
    session = MatchSession(record)
    bridge = Bridge(WebConfig(port=0), token=TOKEN)
    bridge.attach_session(session)
    runner = BridgeThread(bridge)
    runner.start()
    yield bridge, session
    runner.stop()
    record.close()


async def _post(url: str, body: bytes | str, token: str | None = TOKEN) -> tuple[int, dict]:
    headers = {} if token is None else {TOKEN_HEADER: token}
    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as answer:
        return answer.status, await answer.json()


def post(bridge: Bridge, command, token: str | None = TOKEN) -> tuple[int, dict]:
    body = command if isinstance(command, str) else json.dumps(command)
    return asyncio.run(_post(bridge.url("/api/command"), body, token))


@pytest.mark.parametrize(
    ("command", "token", "status", "error"),
    [
        ({"command": "concede"}, None, 401, "X-Console-Token"),
        ({"command": "concede"}, "wrong", 401, "X-Console-Token"),
        ("{not json", TOKEN, 400, "not JSON"),
        ("[1, 2]", TOKEN, 400, "JSON object"),
        ({"command": "explode"}, TOKEN, 400, "unknown command"),
        ({"command": "decision", "choice": "replay"}, TOKEN, 400, "choice 'replay' is not one of"),
        ({"command": "decision"}, TOKEN, 400, "needs a 'choice'"),
        ({"command": "nominate", "ball": "purple"}, TOKEN, 400, "ball 'purple'"),
        ({"command": "foul", "reason": "sneezing"}, TOKEN, 400, "reason 'sneezing'"),
        ({"command": "decision", "choice": "replace"}, TOKEN, 409, "no decision is open"),
        ({"command": "line", "line": {"type": "teleport"}}, TOKEN, 409, "unknown line type"),
    ],
    ids=[
        "no_token",
        "wrong_token",
        "malformed_json",
        "not_an_object",
        "unknown_command",
        "unknown_decision",
        "decision_without_choice",
        "unknown_colour",
        "unknown_foul_reason",
        "decision_when_none_open",
        "unknown_line_type",
    ],
)
def test_bad_commands_are_refused_and_the_referee_keeps_running(served, command, token, status, error):
    bridge, session = served
    assert post(bridge, {"command": "line", "line": MATCH})[0] == 200
    before = session.scoreboard()
    code, answer = post(bridge, command, token)
    assert code == status and error in answer["error"]
    assert session.scoreboard() == before
    code, answer = post(bridge, {"command": "line", "line": POT_RED})
    assert code == 200 and answer["scoreboard"]["score"] == [1, 0]


def test_console_decisions_become_recorded_lines(served):
    bridge, session = served
    for line in (MATCH, POT_RED, IN_OFF):
        assert post(bridge, {"command": "line", "line": line})[0] == 200
    after_in_off = session.scoreboard()["score"]
    assert session.scoreboard()["options"]  # a decision is open after the in-off
    code, answer = post(bridge, {"command": "decision", "choice": "play_again"})
    assert code == 200 and answer["scoreboard"]["striker"] == 0  # Ann (the offender) plays again
    code, answer = post(bridge, {"command": "foul", "reason": "touched_ball", "ball": "red"})
    penalty = answer["result"]["penalty"]
    assert code == 200 and answer["result"]["fouls"] == ["touched_ball"] and penalty >= 4
    assert answer["scoreboard"]["score"] == [after_in_off[0], after_in_off[1] + penalty]
    code, answer = post(bridge, {"command": "undo"})
    assert code == 200 and answer["scoreboard"]["score"] == after_in_off
    origins = [(e.origin, e.kind) for e in session.record.entries()]
    assert origins[-1] == ("console", "undo") and origins.count(("console", "line")) == 5


def test_log_endpoint_needs_the_token(served):
    bridge, session = served
    session.apply(MATCH)

    async def fetch(token: str | None) -> tuple[int, dict]:
        headers = {TOKEN_HEADER: token} if token else {}
        async with aiohttp.ClientSession() as http, http.get(bridge.url("/api/log"), headers=headers) as r:
            return r.status, await r.json()

    assert asyncio.run(fetch(None))[0] == 401
    assert asyncio.run(fetch(TOKEN)) == (200, {"lines": [MATCH]})


def test_websocket_is_current_on_connect_and_pushes_changes(served):
    bridge, session = served
    session.apply(MATCH)
    session.apply(POT_RED)
    on_connect = json.loads(json.dumps(session.scoreboard()))

    async def watch() -> list[dict]:
        got = []
        async with aiohttp.ClientSession() as http, http.ws_connect(bridge.url("/ws")) as ws:
            got.append(await ws.receive_json(timeout=WAIT_S))
            await asyncio.get_running_loop().run_in_executor(None, session.apply, IN_OFF)
            while len(got) < 2 or got[-1]["type"] != "state":
                got.append(await ws.receive_json(timeout=WAIT_S))
        return got

    first, feed, *pushed = asyncio.run(watch())
    assert first == {"type": "state", "state": on_connect}
    assert feed == {"type": "feed", "feed": "live"}  # a session in this process: live while it runs
    assert [m["type"] for m in pushed[:-1]] == ["event"] * (len(pushed) - 1)
    assert pushed[0]["event"]["event"] == "FOUL"  # announcements arrive before the state they lead to
    assert pushed[-1]["state"] == json.loads(json.dumps(session.scoreboard()))


@contextmanager
def _following(endpoint: str, table: str, config: WebConfig | None = None) -> Iterator[Bridge]:
    """A bridge serving on a free port, following the feed at ``endpoint`` for ``table``."""
    bridge = Bridge(config or WebConfig(port=0))
    bridge.follow_feed(endpoint, table)
    runner = BridgeThread(bridge)
    runner.start()
    try:
        yield bridge
    finally:
        runner.stop()


def _until(condition: Callable[[], bool], what: str, within_s: float = WAIT_S) -> None:
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_bridge_following_a_feed_serves_what_the_feed_says():
    with FeedPublisher("tcp://127.0.0.1:*", "t2", FeedConfig(heartbeat_s=0.1)) as publisher:
        publisher.publish_state({"players": ["X", "Y"], "score": [33, 44]})
        with _following(publisher.bound_endpoint, "t2") as bridge:
            _until(
                lambda: asyncio.run(_state(bridge)).get("score") == [33, 44],
                "bridge never showed the feed's state",
            )
            code, answer = post(bridge, {"command": "concede"}, token=bridge.token)
            assert code == 503 and "holds no referee" in answer["error"]


def _raw_state(raw: zmq.Socket, seq: int) -> None:
    """One well-formed state body on a bare PUB socket: a publisher that can stop without closing."""
    body = {"players": ["X", "Y"], "score": [seq, 0], "schema": "snooker.feed/1", "seq": seq, "epoch": "e"}
    raw.send_multipart([b"table/t3/state/", json.dumps({**body, "table": "t3"}).encode()])


def test_bridge_following_a_feed_says_when_it_falls_silent_and_speaks_again():
    """Silent for ``feed_silent_after_s`` (a publisher crashed, the network gone): silent, and live
    again when it speaks. Browsers are told each change."""
    raw = zmq.Context.instance().socket(zmq.PUB)
    raw.setsockopt(zmq.LINGER, 0)
    port = raw.bind_to_random_port("tcp://127.0.0.1")
    config = WebConfig(port=0, feed_silent_after_s=SILENT_AFTER_S)
    try:
        with _following(f"tcp://127.0.0.1:{port}", "t3", config) as bridge:

            async def feed_changes() -> list[str]:
                said = []
                async with aiohttp.ClientSession() as http, http.ws_connect(bridge.url("/ws")) as ws:
                    while len(said) < 3:
                        message = await ws.receive_json(timeout=WAIT_S + SILENT_AFTER_S)
                        if message["type"] == "feed":
                            said.append(message["feed"])
                return said

            changes: list[str] = []
            watching = threading.Thread(target=lambda: changes.extend(asyncio.run(feed_changes())))
            watching.start()
            sent = [0]

            def heard() -> bool:  # published until the subscription, slow to start, hears it
                sent[0] += 1
                _raw_state(raw, sent[0])
                return bridge.state is not None

            _until(heard, "bridge never heard the feed")
            time.sleep(SILENT_AFTER_S * 2)
            assert bridge.feed == "silent"
            _raw_state(raw, sent[0] + 1)
            watching.join(WAIT_S)
            assert changes == ["live", "silent", "live"]
            assert asyncio.run(_state(bridge))["feed"] == "live"
    finally:
        raw.close()


def test_bridge_following_a_feed_says_when_its_publisher_ended_it():
    with FeedPublisher("tcp://127.0.0.1:*", "t4", FeedConfig(heartbeat_s=0.1)) as publisher:
        publisher.publish_state({"players": ["X", "Y"], "score": [7, 8]})
        with _following(publisher.bound_endpoint, "t4") as bridge:
            _until(lambda: bridge.state is not None, "bridge never heard the feed")
            publisher.close()
            _until(lambda: bridge.feed == "ended", "bridge never heard the feed end")
            answer = asyncio.run(_state(bridge))
            assert answer["feed"] == "ended" and answer["score"] == [7, 8]  # the last scores, marked


async def _state(bridge: Bridge) -> dict:
    async with aiohttp.ClientSession() as http, http.get(bridge.url("/state")) as r:
        return await r.json()


SILENT_AFTER_S = 0.5
"""A followed feed's silence the bridge takes as not live, in these tests (s)."""


@pytest.mark.parametrize(
    ("command", "line"),
    [
        ({"command": "decision", "choice": "replace"}, {"type": "decision", "choice": "replace"}),
        ({"command": "nominate", "ball": "blue"}, {"type": "nominate", "ball": "blue"}),
        ({"command": "concede"}, {"type": "concede"}),
        ({"command": "foul", "reason": "push_stroke"}, {"type": "foul", "reason": "push_stroke"}),
        ({"command": "respotted_black", "first": 1}, {"type": "respotted_black", "first": 1}),
        ({"command": "new_frame"}, {"type": "new_frame"}),
    ],
    ids=["decision", "nominate", "concede", "foul", "respotted_black", "new_frame"],
)
def test_each_console_command_is_one_frame_log_line(command, line):
    action = to_action(command)
    assert action.kind == "apply" and action.line == line


@pytest.mark.parametrize(
    "command",
    [None, "concede", {"command": "amend"}, {"command": "amend", "line": {"no": "type"}}, {"command": ""}],
    ids=["null", "bare_string", "amend_without_line", "amend_line_without_type", "empty_name"],
)
def test_malformed_commands_raise_a_named_error(command):
    with pytest.raises(CommandError):
        to_action(command)
