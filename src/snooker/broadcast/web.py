"""The HTTP/WebSocket bridge: the overlay page, its live state, and the referee console.

Routes:

- ``GET /overlay`` — the scoreboard page for a broadcast browser source (transparent background);
  it opens ``/ws`` and redraws on every message.
- ``GET /ws`` — WebSocket; sends ``{"type": "state", "state": {...}}`` at once on connect (current
  on connect) and on every change, ``{"type": "event", "event": {...}}`` for announcements, and
  ``{"type": "feed", "feed": "live" | "silent" | "ended"}`` on connect and whenever the scores stop
  or start being live (a followed feed's publisher closed, or fell silent, or came back).
- ``GET /state`` — the current scoreboard as JSON (with ``feed`` as above).
- ``GET /console`` — the referee console page (needs the token: ``/console?token=…``).
- ``POST /api/command`` — a console command (see ``snooker.broadcast.console``); the token goes in
  the ``X-Console-Token`` header. Answers 200 with the result, 400 for a malformed or unknown
  command, 401 without the right token, 409 for anything the referee refuses, 503 without a referee.
- ``GET /api/log`` — the lines the current state folds (token needed).

The state comes either from a :class:`MatchSession` held in the same process (``attach_session``)
or from a ZeroMQ feed the bridge subscribes to (``follow_feed``; overlay only, no console).

Putting the overlay in OBS: add a *Browser* source, URL ``http://127.0.0.1:8080/overlay`` (the
``overlay:`` line printed at start), width 1920, height 1080; leave "custom CSS" empty (the page's
background is already transparent) and tick "refresh browser when scene becomes active" if wanted.
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from snooker.broadcast.console import DECISION_CHOICES, FOUL_REASONS, execute
from snooker.broadcast.feed import FEED_ENDED, FEED_LIVE, FeedSubscriber, events_of
from snooker.record.session import Change, MatchSession

LOG = logging.getLogger(__name__)
TOKEN_HEADER = "X-Console-Token"
FEED_SILENT = "silent"
"""The bridge's word for a followed feed that said nothing for ``WebConfig.feed_silent_after_s``."""


@dataclass(frozen=True)
class WebConfig:
    """Where and how the bridge serves (units in the names).

    - ``host``: interface to bind; 127.0.0.1 keeps the console off the network unless asked.
    - ``port``: TCP port; 0 picks a free one.
    - ``max_command_bytes``: larger console requests are refused (bytes).
    - ``feed_poll_s``: how often the feed-follower thread checks for shutdown while idle (seconds).
    - ``ws_heartbeat_s``: WebSocket ping interval, so dead browser sources are noticed (seconds).
    - ``ws_outbox_size``: messages queued per browser; a slow one loses its oldest first.
    - ``feed_silent_after_s``: a followed feed that said nothing for this long is shown as not live
      (seconds; the contract re-sends the state at least once a second, so three are missed).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    max_command_bytes: int = 64 * 1024
    feed_poll_s: float = 0.2
    ws_heartbeat_s: float = 10.0
    ws_outbox_size: int = 32
    feed_silent_after_s: float = 3.0

    def __post_init__(self) -> None:
        if self.ws_outbox_size < 2:
            raise ValueError(
                "ws_outbox_size must be >= 2 (a browser is sent the state and the feed's status on connect)"
            )
        if self.feed_silent_after_s <= 0:
            raise ValueError("feed_silent_after_s must be > 0 seconds")


def new_token() -> str:
    """A random console token (URL-safe)."""
    return secrets.token_urlsafe(18)


def _static(name: str) -> str:
    return resources.files("snooker.broadcast").joinpath("static", name).read_text(encoding="utf-8")


class Bridge:
    """Holds the latest scoreboard and pushes it to every WebSocket; serves pages and the console."""

    def __init__(self, config: WebConfig | None = None, token: str | None = None):
        self.config = config or WebConfig()
        self.token = token or new_token()
        self.session: MatchSession | None = None
        self.state: dict[str, Any] | None = None
        self.feed = FEED_LIVE
        self._outboxes: dict[int, asyncio.Queue[dict[str, Any]]] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.port = 0

    # --- where the state comes from -------------------------------------------------------------

    def attach_session(self, session: MatchSession) -> None:
        """Serve this session's scoreboard and accept console commands for it."""
        self.session = session
        self.state = session.scoreboard()
        session.add_listener(self._on_change)

    def _on_change(self, change: Change) -> None:
        self.push(change.scoreboard, events_of(change))

    def follow_feed(self, endpoint: str, table_id: str | None = None) -> None:
        """Serve the scoreboard a ZeroMQ feed publishes (a thread reads it)."""
        subscriber = FeedSubscriber(endpoint, table_id).start()

        def read() -> None:
            heard_at: float | None = None
            try:
                while not self._stop.is_set():
                    try:
                        message = subscriber.receive(self.config.feed_poll_s)
                    except Exception:  # one message the reader chokes on must not freeze the overlay
                        LOG.exception("feed %s: a message could not be read; reading on", endpoint)
                        continue
                    if message is None or message.error:
                        quiet_s = None if heard_at is None else time.monotonic() - heard_at
                        silent = quiet_s is not None and quiet_s >= self.config.feed_silent_after_s
                        if silent and self.feed == FEED_LIVE:
                            self.push_feed(FEED_SILENT)
                        continue
                    heard_at = time.monotonic()
                    if message.kind == "state":
                        self.push(message.body, [])
                        self.push_feed(FEED_ENDED if message.body.get("feed") == FEED_ENDED else FEED_LIVE)
                    elif message.kind == "event":
                        self.push(None, [message.body])
            finally:
                subscriber.close()

        thread = threading.Thread(target=read, name=f"bridge-feed:{endpoint}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def push(self, state: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """Thread-safe: take a new state and/or events and send them to every open WebSocket."""
        loop = self._loop
        if loop is None or loop.is_closed():
            if state is not None:
                self.state = state
            return
        loop.call_soon_threadsafe(self._push_now, state, events)

    def push_feed(self, feed: str) -> None:
        """Thread-safe: the scores are now ``feed`` (live, silent or ended); browsers are told on a
        change."""
        if feed == self.feed:
            return
        self.feed = feed
        LOG.info("scores are now %s", feed)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._send_all, [self._feed_message()])

    def _feed_message(self) -> dict[str, Any]:
        return {"type": "feed", "feed": self.feed}

    def _push_now(self, state: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        messages = [{"type": "event", "event": e} for e in events]
        if state is not None:
            self.state = state
            messages.append({"type": "state", "state": state})
        self._send_all(messages)

    def _send_all(self, messages: list[dict[str, Any]]) -> None:
        for outbox in list(self._outboxes.values()):
            for message in messages:
                if outbox.full():  # a browser that cannot keep up loses its oldest message, never blocks
                    outbox.get_nowait()
                outbox.put_nowait(message)

    # --- HTTP -----------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=self.config.max_command_bytes)
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/overlay", self._page("overlay.html")),
                web.get("/console", self._page("console.html")),
                web.get("/ws", self._websocket),
                web.get("/state", self._state),
                web.post("/api/command", self._command),
                web.get("/api/log", self._log),
                web.get("/api/vocabulary", self._vocabulary),
            ]
        )
        return app

    async def _index(self, request: web.Request) -> web.Response:
        text = "snooker-referee bridge: /overlay (browser source), /console?token=… (referee console)\n"
        return web.Response(text=text)

    def _page(self, name: str):
        async def handler(request: web.Request) -> web.Response:
            return web.Response(text=_static(name), content_type="text/html")

        return handler

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response({**(self.state or {}), "feed": self.feed})

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=self.config.ws_heartbeat_s)
        await ws.prepare(request)
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=self.config.ws_outbox_size)
        if self.state is not None:
            outbox.put_nowait({"type": "state", "state": self.state})
        outbox.put_nowait(self._feed_message())
        self._outboxes[id(ws)] = outbox
        self._sockets.add(ws)
        listening = asyncio.create_task(self._ignore_incoming(ws))
        try:
            while not listening.done():
                next_message = asyncio.create_task(outbox.get())
                done, _ = await asyncio.wait({next_message, listening}, return_when=asyncio.FIRST_COMPLETED)
                if next_message not in done:
                    next_message.cancel()
                    break
                await ws.send_str(json.dumps(next_message.result(), default=str))
        except (ConnectionError, RuntimeError) as exc:  # a browser that went away is not our problem
            LOG.info("websocket closed: %s", exc)
        finally:
            self._outboxes.pop(id(ws), None)
            self._sockets.discard(ws)
            listening.cancel()
        return ws

    @staticmethod
    async def _ignore_incoming(ws: web.WebSocketResponse) -> None:
        """The overlay only listens; read (and drop) what it sends until it closes."""
        async for message in ws:
            if message.type == WSMsgType.ERROR:
                return

    def _authorised(self, request: web.Request) -> bool:
        given = request.headers.get(TOKEN_HEADER, "")
        return hmac.compare_digest(given.encode(), self.token.encode())

    async def _command(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return web.json_response({"error": f"missing or wrong {TOKEN_HEADER}"}, status=401)
        if self.session is None:
            return web.json_response({"error": "this bridge follows a feed; it holds no referee"}, status=503)
        try:
            command = await request.json()
        except (ValueError, UnicodeDecodeError) as exc:
            return web.json_response({"error": f"malformed command (not JSON): {exc}"}, status=400)
        except web.HTTPRequestEntityTooLarge:
            return web.json_response({"error": "command too large"}, status=413)
        session = self.session
        result = await asyncio.get_running_loop().run_in_executor(None, execute, session, command)
        if "error" not in result:
            return web.json_response(result)
        return web.json_response(result, status=400 if result["rejected_by"] == "console" else 409)

    async def _log(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return web.json_response({"error": f"missing or wrong {TOKEN_HEADER}"}, status=401)
        lines = self.session.applied_lines if self.session is not None else []
        return web.json_response({"lines": lines})

    async def _vocabulary(self, request: web.Request) -> web.Response:
        return web.json_response({"decisions": list(DECISION_CHOICES), "foul_reasons": list(FOUL_REASONS)})

    # --- running --------------------------------------------------------------------------------

    async def start(self) -> int:
        """Start serving on the running loop; returns the bound port."""
        self._loop = asyncio.get_running_loop()
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.host, self.config.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            remedy = "choose another port" if exc.errno == errno.EADDRINUSE else "check --host"
            raise OSError(
                f"cannot serve the overlay on {self.config.host} port {self.config.port}: "
                f"{exc.strerror or exc} ({remedy})"
            ) from exc
        addresses = self._runner.addresses
        self.port = int(addresses[0][1]) if addresses else self.config.port
        return self.port

    async def stop(self) -> None:
        self._stop.set()
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for thread in self._threads:
            thread.join(timeout=2.0)

    def url(self, path: str = "") -> str:
        host = "127.0.0.1" if self.config.host in ("0.0.0.0", "") else self.config.host
        return f"http://{host}:{self.port}{path}"

    def console_url(self) -> str:
        return self.url(f"/console?token={self.token}")


class BridgeThread:
    """Runs a :class:`Bridge` on its own event loop in a background thread (for ``live``)."""

    def __init__(self, bridge: Bridge):
        self.bridge = bridge
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="bridge", daemon=True)

    def start(self, timeout_s: float = 10.0) -> int:
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self.bridge.start(), self._loop).result(timeout_s)

    def stop(self, timeout_s: float = 5.0) -> None:
        if not self._thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self.bridge.stop(), self._loop).result(timeout_s)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout_s)
        self._loop.close()
