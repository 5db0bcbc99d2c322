"""snooker-referee serve: the overlay page and the referee console, around one table's referee.

The referee lives in this process; every line (console, ``--lines`` pipe) is ruled, recorded
(``--record``), published (``--feed``) and pushed to the overlay. With ``--follow ENDPOINT`` the
server holds no referee and only shows a feed published elsewhere (e.g. by ``live``).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path

from snooker.app.inputs import log_lines, open_refereed_session, tcp_port
from snooker.broadcast.feed import FeedError, validate_table_id
from snooker.broadcast.web import Bridge, WebConfig
from snooker.record.session import MatchSession
from snooker.record.store import RecordError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", default="1", help="table id, used in feed topics (default 1)")
    parser.add_argument("--host", default="127.0.0.1", help="interface to serve on (default 127.0.0.1 only)")
    parser.add_argument(
        "--port", type=tcp_port, default=8080, help="HTTP port (0 picks a free one; default 8080)"
    )
    parser.add_argument(
        "--record", default=None, help="SQLite match record to write (every line, as it happens)"
    )
    parser.add_argument("--resume", action="store_true", help="continue the match in --record after a crash")
    parser.add_argument(
        "--feed", default=None, help="also publish the ZeroMQ feed here, e.g. tcp://127.0.0.1:5556"
    )
    parser.add_argument(
        "--follow", default=None, help="hold no referee; show the feed published at this endpoint"
    )
    parser.add_argument(
        "--lines", default=None, help="also read frame-log lines from this file, or - for stdin"
    )
    parser.add_argument("--token", default=None, help="console token (default: a random one, printed)")


def say(text: str) -> None:
    print(text, flush=True)


def read_lines(session: MatchSession, stream: Iterable[bytes], origin: str) -> None:
    """Apply every frame-log line of ``stream`` (bytes) as it arrives; one acknowledgement line each
    (a refused line named by ``origin`` and its line number; a line that is not UTF-8 is refused and
    recorded alone). A stream that cannot be read on is said and left; every line before it stays
    applied and recorded."""
    try:
        for number, text, problem in log_lines(stream):
            try:
                if problem is None:
                    ruling = session.apply(text.strip(), origin=origin)
                else:
                    ruling = session.refuse(text.strip(), problem, origin=origin)
            except Exception as exc:  # one line must not stop the lines after it
                ruling = {"error": f"the session failed on this line: {type(exc).__name__}: {exc}"}
            _acknowledge(ruling, origin, number)
    except OSError as exc:
        say(f"cannot read on in {origin}: {exc}; the lines before are kept")
        return
    say("end of lines; still serving (Ctrl-C to stop)")


def _acknowledge(ruling: dict, origin: str, number: int) -> None:
    if "error" in ruling:
        say(f"refused: {origin} line {number}: {ruling['error']}")
    else:
        score = ruling.get("score", ["?", "?"])
        calls = ", ".join(ruling.get("announcements", []))
        say(f"applied: {ruling.get('type', '?')} -> {score[0]}-{score[1]}" + (f" | {calls}" if calls else ""))


async def serve(
    args: argparse.Namespace,
    bridge: Bridge,
    session: MatchSession | None,
    lines: Iterable[bytes] | None = None,
) -> None:
    await bridge.start()
    say(f"overlay: {bridge.url('/overlay')}")
    if session is not None:
        say(f"console: {bridge.console_url()}")
        say(f"token: {bridge.token}")
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            say(f"warning: the console is reachable from the network on {args.host}; keep the token secret")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    if session is not None and lines is not None:
        origin = "stdin" if args.lines == "-" else f"file:{args.lines}"
        threading.Thread(target=read_lines, args=(session, lines, origin), daemon=True).start()
    await stop.wait()
    say("stopping")
    await bridge.stop()


def run(args: argparse.Namespace) -> int:
    record_problems: list[str] = []
    try:
        validate_table_id(args.table)
        with ExitStack() as stack:
            bridge = Bridge(WebConfig(host=args.host, port=args.port), token=args.token)
            session, lines = None, None
            if args.follow:
                if args.record or args.resume or args.lines:
                    print(
                        "snooker-referee serve: --follow only shows a feed; --record, --resume, --lines "
                        "need a referee",
                        file=sys.stderr,
                    )
                    return 2
                bridge.follow_feed(args.follow, args.table)
            else:
                lines = _open_lines(args.lines, stack)
                session = open_refereed_session(stack, args, say, record_problems, state_before_lines=True)
                bridge.attach_session(session)
            asyncio.run(serve(args, bridge, session, lines))
    except (RecordError, FeedError, ValueError, OSError) as exc:
        print(f"snooker-referee serve: {exc}", file=sys.stderr)
        return 2
    if record_problems:
        print(f"snooker-referee serve: {record_problems[0]}", file=sys.stderr)
        return 1
    return 0


def _stdin_bytes() -> Iterator[bytes]:
    """Standard input's lines as the bytes that came (undecodable ones kept by surrogate escapes).

    Read through the text stream, not its byte buffer: the reader is a daemon thread blocked in a
    read at shutdown, and the buffer's lock, held there, aborts the interpreter's exit."""
    sys.stdin.reconfigure(errors="surrogateescape")
    for line in sys.stdin:
        yield line.encode("utf-8", errors="surrogateescape")


def _open_lines(name: str | None, stack: ExitStack) -> Iterable[bytes] | None:
    """The ``--lines`` stream of bytes, opened before anything starts (raises OSError naming the file)."""
    if name is None:
        return None
    if name == "-":
        return _stdin_bytes()
    path = Path(name)
    if not path.is_file():
        raise OSError(f"--lines {name}: no such file of frame-log lines")
    return stack.enter_context(path.open("rb"))
