"""The scoreboard feed (CONTRACTS.md §4): a ZeroMQ PUB socket, and a subscriber to read it.

Messages are multipart ``[topic, body]``; topics are ``table/<id>/state/`` and ``table/<id>/event/``;
bodies are JSON objects carrying ``schema``, ``seq`` (increasing per publisher, across both topics),
``epoch`` (new on every publisher start) and ``table`` (a scoreboard's own ``schema`` moves to
``payload_schema``). A ``state`` body is the whole scoreboard; it is
sent on every change and re-sent by a heartbeat thread so a late subscriber is current within
``heartbeat_s``. An ``event`` body is one announcement (``FOUL``, ``FREE BALL``, a pot, frame over,
the choice after a foul), in the order they happen (see :func:`events_of`).

Every ``state`` body also says whether its publisher is still on (``feed``: ``"live"``); the last
one a publisher sends as it closes says ``"ended"``, so an overlay can tell a match that stopped
being refereed from a quiet one. A publisher that dies without closing says nothing: a subscriber
knows it only by the heartbeat's silence.

The publisher never waits for a subscriber: sends are non-blocking with a bounded high-water mark, so
a subscriber that never reads only loses its own messages (counted in ``stats.dropped``).
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self

import zmq

from snooker.record.session import Change
from snooker.referee import announce

FEED_SCHEMA = "snooker.feed/1"
TABLE_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")

Kind = Literal["state", "event"]
DECISION_EVENT = "DECISION"
"""The event of the non-offender's choice after a foul (``choice``: ``play``, ``play_again``,
``replace``), made by a decision line or shown by the line that followed the foul."""
FEED_LIVE = "live"
FEED_ENDED = "ended"
"""The values of a state body's ``feed``: its publisher is on, or has closed (its last message)."""


class FeedError(RuntimeError):
    """The feed cannot be set up (bad endpoint, address in use, bad table id); says which."""


def validate_table_id(table_id: str) -> str:
    """Table ids go into topics, so they may not contain ``/`` (letters, digits, ``_ . -`` only)."""
    if not TABLE_ID_PATTERN.match(table_id):
        raise FeedError(
            f"table id {table_id!r} must be letters, digits, '_', '.' or '-' (it becomes a topic)"
        )
    return table_id


def topic_for(table_id: str, kind: Kind) -> str:
    return f"table/{table_id}/{kind}/"


@dataclass(frozen=True)
class FeedConfig:
    """Publisher behaviour (units in the names).

    - ``heartbeat_s``: the whole state is re-sent at least this often (seconds; the contract asks
      for at most 1 s).
    - ``send_high_water_mark``: messages ZeroMQ queues per subscriber before dropping for that one.
    - ``linger_ms``: on close, how long queued messages may still be sent (ms).
    - ``bind_retry_s``: how long a bind keeps retrying an address still held by a publisher that
      just closed (ZeroMQ releases ports asynchronously), before giving up (seconds).
    - ``bind_retry_interval_s``: wait between those retries (seconds).
    """

    heartbeat_s: float = 0.5
    send_high_water_mark: int = 100
    linger_ms: int = 200
    bind_retry_s: float = 2.0
    bind_retry_interval_s: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.heartbeat_s <= 1.0:
            raise ValueError(
                "heartbeat_s must be in (0, 1] seconds (CONTRACTS.md §4: at least once a second)"
            )
        if self.send_high_water_mark < 1:
            raise ValueError("send_high_water_mark must be >= 1")


@dataclass
class FeedStats:
    sent: int = 0
    dropped: int = 0
    heartbeats: int = 0


def new_epoch() -> str:
    """An id that differs on every start: start time in ms and random bits."""
    return f"{int(time.time() * 1000)}-{secrets.token_hex(4)}"


def events_of(change: Change) -> list[dict[str, Any]]:
    """The single announcements a change makes, in the order they happen: the choice after a foul
    that the line made or was taken as (``DECISION``, with ``choice``), the stroke's pots (``POT``),
    then the referee's calls (a pot's break total, ``FOUL``, ``FREE BALL``, ``FRAME TO …``), and
    ``FRAME OVER`` for a frame that ended on this line with no frame call (no winner named). A
    frame that ended on an earlier line is not announced again."""
    ruling, line = change.ruling or {}, change.line or {}
    if change.kind != "line" or "error" in ruling:
        return [{"event": "CORRECTION", "kind": change.kind}] if change.kind == "undo" else []
    common = {k: ruling[k] for k in ("score", "break", "striker", "frames") if k in ruling}
    calls = [{"event": str(a), **common} for a in ruling.get("announcements", []) or []]
    events: list[dict[str, Any]] = []
    if ruling.get("decision"):
        events.append({"event": DECISION_EVENT, "choice": ruling["decision"], **common})
        # A replacement's own calls come first in the ruling, before the line's (the stroke played
        # from the balls put back): BALLS REPLACED, and the warning when it is due (3.14(c)).
        chosen = _replacement_calls(ruling) if ruling["decision"] == "replace" else 0
        events += calls[:chosen]
        calls = calls[chosen:]
    potted = line.get("potted") or []
    if potted:
        events.append({"event": "POT", "potted": potted, **common})
    events += calls
    ended = ruling.get("frame_ended", ruling.get("frame_over"))
    if ended and not any(e["event"].upper().startswith("FRAME") for e in calls):
        events.append({"event": "FRAME OVER", "winner": ruling.get("winner"), **common})
    return events


def _replacement_calls(ruling: dict[str, Any]) -> int:
    """How many of a ruling's first announcements a replacement it was taken as made (see
    ``snooker.referee.rules._decide``): ``BALLS REPLACED``, then the warning if one was given."""
    said = ruling.get("announcements") or []
    if not said or said[0] != announce.BALLS_REPLACED:
        return 0
    return 2 if len(said) > 1 and said[1] == announce.MISS_WARNING else 1


class FeedPublisher:
    """Publishes one table's scoreboard and announcements on a ZeroMQ PUB socket.

    Use as a context manager; ``on_change`` is a :class:`snooker.record.session.MatchSession`
    listener. Thread-safe: the heartbeat thread and callers share the socket under a lock.
    """

    def __init__(
        self,
        endpoint: str,
        table_id: str,
        config: FeedConfig | None = None,
        context: zmq.Context | None = None,
    ):
        self.endpoint = endpoint
        self.table_id = validate_table_id(table_id)
        self.config = config or FeedConfig()
        self.epoch = new_epoch()
        self.stats = FeedStats()
        self._context = context or zmq.Context.instance()
        self._socket: zmq.Socket | None = None
        self._lock = threading.Lock()
        self._seq = 0
        self._latest_state: dict[str, Any] | None = None
        self._stop = threading.Event()
        self._heartbeat: threading.Thread | None = None

    def start(self) -> Self:
        socket = self._context.socket(zmq.PUB)
        socket.setsockopt(zmq.SNDHWM, self.config.send_high_water_mark)
        socket.setsockopt(zmq.LINGER, self.config.linger_ms)
        deadline = time.monotonic() + self.config.bind_retry_s
        while True:
            try:
                socket.bind(self.endpoint)
                break
            except zmq.ZMQError as exc:
                if exc.errno == zmq.EADDRINUSE and time.monotonic() < deadline:
                    time.sleep(self.config.bind_retry_interval_s)
                    continue
                socket.close(linger=0)
                raise FeedError(f"cannot publish the feed on {self.endpoint}: {exc}") from exc
        self._socket = socket
        self._heartbeat = threading.Thread(
            target=self._beat, name=f"feed-heartbeat:{self.table_id}", daemon=True
        )
        self._heartbeat.start()
        return self

    @property
    def bound_endpoint(self) -> str:
        """The endpoint actually bound (resolves ``tcp://127.0.0.1:*`` to its port)."""
        if self._socket is None:
            return self.endpoint
        return self._socket.getsockopt_string(zmq.LAST_ENDPOINT)

    def close(self) -> None:
        """Stop the heartbeat, send the last state marked ``feed: "ended"`` (if a state was ever
        sent), and close the socket (queued messages get ``linger_ms`` to go out)."""
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join(timeout=2.0)
        if self._latest_state is not None:
            self._send("state", {**self._latest_state, "feed": FEED_ENDED})
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _send(self, kind: Kind, payload: dict[str, Any]) -> dict[str, Any] | None:
        with self._lock:
            if self._socket is None:
                return None
            self._seq += 1
            body = {
                **payload,
                **({"payload_schema": payload["schema"]} if "schema" in payload else {}),
                "schema": FEED_SCHEMA,
                "seq": self._seq,
                "epoch": self.epoch,
                "table": self.table_id,
                "kind": kind,
                "sent_at": time.time(),
            }
            data = json.dumps(body, default=str).encode()
            try:
                self._socket.send_multipart(
                    [topic_for(self.table_id, kind).encode(), data], flags=zmq.NOBLOCK
                )
                self.stats.sent += 1
            except zmq.Again:
                self.stats.dropped += 1
            return body

    def publish_state(self, scoreboard: dict[str, Any]) -> dict[str, Any] | None:
        """Send the whole scoreboard now and keep it for the heartbeat; returns the body sent."""
        self._latest_state = {**scoreboard, "feed": FEED_LIVE}
        return self._send("state", self._latest_state)

    def publish_event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Send one announcement (a dict with at least ``event``)."""
        return self._send("event", event)

    def on_change(self, change: Change) -> None:
        """Session listener: the change's announcements, then the new state."""
        for event in events_of(change):
            self.publish_event(event)
        self.publish_state(change.scoreboard)

    def _beat(self) -> None:
        while not self._stop.wait(self.config.heartbeat_s):
            if self._latest_state is not None:
                self._send("state", self._latest_state)
                self.stats.heartbeats += 1


@dataclass(frozen=True)
class FeedMessage:
    """One message received: its topic, table, kind and decoded body (or an ``error`` if undecodable)."""

    topic: str
    table: str
    kind: str
    body: dict[str, Any]
    error: str | None = None


@dataclass
class SubscriberStats:
    received: int = 0
    malformed: int = 0
    restarts: int = 0
    missed: int = 0
    epochs: list[str] = field(default_factory=list)


class FeedSubscriber:
    """Reads a feed: all tables, or one (``table_id``); tracks restarts (epoch) and missed seqs."""

    def __init__(self, endpoint: str, table_id: str | None = None, context: zmq.Context | None = None):
        self.endpoint = endpoint
        self.table_id = None if table_id is None else validate_table_id(table_id)
        self._context = context or zmq.Context.instance()
        self._socket: zmq.Socket | None = None
        self.stats = SubscriberStats()
        self._last_seq: dict[str, int] = {}

    def start(self) -> Self:
        socket = self._context.socket(zmq.SUB)
        socket.setsockopt(zmq.LINGER, 0)
        prefix = "table/" if self.table_id is None else f"table/{self.table_id}/"
        socket.setsockopt_string(zmq.SUBSCRIBE, prefix)
        try:
            socket.connect(self.endpoint)
        except zmq.ZMQError as exc:
            socket.close()
            raise FeedError(f"cannot subscribe to {self.endpoint}: {exc}") from exc
        self._socket = socket
        return self

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def receive(self, timeout_s: float) -> FeedMessage | None:
        """The next message, or None if none arrives within ``timeout_s`` seconds."""
        if self._socket is None:
            raise FeedError("subscriber is not started")
        if not self._socket.poll(int(timeout_s * 1000), zmq.POLLIN):
            return None
        parts = self._socket.recv_multipart()
        self.stats.received += 1
        return self._decode(parts)

    def messages(self, timeout_s: float) -> Iterator[FeedMessage]:
        """Messages until none arrives for ``timeout_s`` seconds."""
        while (message := self.receive(timeout_s)) is not None:
            yield message

    def _decode(self, parts: list[bytes]) -> FeedMessage:
        topic = parts[0].decode(errors="replace") if parts else ""
        pieces = topic.split("/")
        table, kind = (pieces[1], pieces[2]) if len(pieces) >= 4 else ("?", "?")
        if len(parts) != 2:
            self.stats.malformed += 1
            return FeedMessage(topic, table, kind, {}, f"expected 2 parts [topic, body], got {len(parts)}")
        try:
            body = json.loads(parts[1])
        except ValueError as exc:
            self.stats.malformed += 1
            return FeedMessage(topic, table, kind, {}, f"body is not JSON: {exc}")
        except RecursionError:
            self.stats.malformed += 1
            return FeedMessage(topic, table, kind, {}, "body is JSON nested too deeply to read")
        if not isinstance(body, dict) or not {"schema", "seq", "epoch"} <= body.keys():
            self.stats.malformed += 1
            return FeedMessage(topic, table, kind, {}, "body lacks schema/seq/epoch")
        seq = body["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            self.stats.malformed += 1
            return FeedMessage(topic, table, kind, {}, f"body's seq is not a count: {seq!r}")
        self._track(body)
        return FeedMessage(topic, table, kind, body)

    def _track(self, body: dict[str, Any]) -> None:
        epoch, seq = str(body["epoch"]), int(body["seq"])
        key = f"{body.get('table')}:{epoch}"
        if epoch not in self.stats.epochs:
            if any(e.startswith(f"{body.get('table')}:") for e in self._last_seq):
                self.stats.restarts += 1
            self.stats.epochs.append(epoch)
        last = self._last_seq.get(key)
        if last is not None and seq > last + 1 and self.table_id is not None:
            self.stats.missed += seq - last - 1
        self._last_seq[key] = max(seq, last or 0)
