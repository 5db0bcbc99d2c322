"""snooker-referee live: referee a camera, a stream or a file in real time.

source → calibration → detection → tracker → referee → feed (``--feed``), record (``--record``),
overlay and console (``--http``), window (``--show``). Frames are dropped rather than fall behind
(reported in the status lines); a camera or stream that drops out is reconnected with backoff.
A source that fails for good or a file that breaks off (truncated), or a ``--calibration`` made for
another image size, ends the command with exit status 1; every line ruled so far is in the record.
"""

from __future__ import annotations

import argparse
import signal
import sys
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from snooker.app.inputs import InputError, load_view_and_detector, open_refereed_session, tcp_port
from snooker.broadcast.feed import FeedError, validate_table_id
from snooker.pipeline.joining import BALL_ON_CHOICES, STARTS, JoinConfig
from snooker.record.session import MatchSession
from snooker.record.store import RecordError
from snooker.vision.sources import LiveConfig, SourceConfig, SourceError

if TYPE_CHECKING:
    from snooker.pipeline.live import LiveTableConfig

WINDOW_TITLE = "snooker-referee live"
MATCH_LOG_SCHEMA = "snooker.log/1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source", required=True, help="camera index (0), stream URL (rtsp://…), or video file"
    )
    parser.add_argument("--table", required=True, help="table id (feed topics table/<id>/…)")
    parser.add_argument(
        "--calibration", type=Path, default=None, help="calibration file (default: find the table)"
    )
    parser.add_argument("--detector", default="classic", choices=("classic", "yolo"), help="ball detector")
    parser.add_argument("--show", action="store_true", help="show an annotated window (needs a display)")
    parser.add_argument("--feed", default=None, help="publish the scoreboard feed, e.g. tcp://127.0.0.1:5556")
    parser.add_argument("--record", default=None, help="SQLite match record (every line, as it happens)")
    parser.add_argument("--resume", action="store_true", help="continue the match in --record after a crash")
    parser.add_argument(
        "--http", type=tcp_port, default=None, help="serve overlay + console on this port (0: any)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface for --http (default 127.0.0.1 only)")
    parser.add_argument("--players", nargs=2, default=["Player A", "Player B"], metavar="NAME")
    parser.add_argument("--best-of", type=int, default=1, help="frames in the match (new matches only)")
    parser.add_argument(
        "--breaker", type=int, default=0, choices=(0, 1), help="who breaks (new matches only)"
    )
    parser.add_argument("--queue", type=int, default=2, help="frames held before the oldest is dropped")
    parser.add_argument(
        "--every-frame",
        action="store_true",
        help="never drop a frame (a file is then read as fast as it is processed, not in real time)",
    )
    parser.add_argument("--status-every", type=float, default=5.0, help="seconds between status lines")
    parser.add_argument(
        "--start",
        choices=STARTS,
        default=JoinConfig.start,
        help="when the camera comes on: auto (a break-off, if the first stroke looks like one, else a "
        "frame in play), frame, mid (default auto)",
    )
    parser.add_argument(
        "--ball-on",
        choices=BALL_ON_CHOICES,
        default=JoinConfig.ball_on,
        help="joining a frame in play: what is on at the first stroke (default either: not known)",
    )
    parser.add_argument(
        "--open-retries",
        type=int,
        default=3,
        help="a camera or stream not answering at start is tried this many more times (with backoff)",
    )
    parser.add_argument(
        "--rule-cut-strokes",
        action="store_true",
        help="also rule a stroke the source cut off before the balls stopped (default: report it only)",
    )


def say(text: str) -> None:
    print(text, flush=True)


def _fail(message: str, code: int = 2) -> int:
    print(f"snooker-referee live: {message}", file=sys.stderr, flush=True)
    return code


def start_match(session: MatchSession, args: argparse.Namespace) -> None:
    """A new match gets its header line, so strokes can be ruled from the first one."""
    if session.applied_lines:
        return
    line = {
        "type": "match",
        "schema": MATCH_LOG_SCHEMA,
        "players": list(args.players),
        "best_of": args.best_of,
        "breaker": args.breaker,
    }
    ruling = session.apply(line, origin="live")
    if "error" in ruling:
        raise ValueError(f"cannot start the match: {ruling['error']}")


def _window_hook(stop):
    import cv2

    from snooker.pipeline.live import draw_status

    def show(outcome, status) -> None:
        cv2.imshow(WINDOW_TITLE, draw_status(outcome.frame.image, outcome, status))
        if cv2.waitKey(1) & 0xFF in (ord("q"), 27):
            stop()

    return show


def run(args: argparse.Namespace) -> int:
    from snooker.app.allocator import keep_frame_arrays
    from snooker.pipeline.live import LiveTable
    from snooker.vision.sources import open_source

    keep_frame_arrays()
    refused = _refused(args)
    if refused is not None:
        return _fail(refused)

    try:
        view, detector = load_view_and_detector(args.calibration, args.detector)
    except InputError as exc:
        return _fail(str(exc))

    record_problems: list[str] = []
    with ExitStack() as stack:
        try:
            session = open_refereed_session(stack, args, say, record_problems, state_before_lines=False)
            if args.http is not None:
                _serve_http(stack, session, args)
            source = open_source(
                args.source, SourceConfig(open_retries_on_start=args.open_retries), report=say
            )
            start_match(session, args)  # last: a start that fails leaves no match in the record
        except (RecordError, FeedError, SourceError, ValueError, OSError) as exc:
            return _fail(str(exc))

        table = LiveTable(session, detector, view=view, config=_table_config(args), report=say)
        if args.show:
            table.on_frame = _window_hook(table.stop)
            stack.callback(_close_windows)
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous = signal.signal(signum, lambda *_: table.stop())
            stack.callback(signal.signal, signum, previous)
        say(f"live: table {args.table} from {source.name}" + (" (every frame)" if args.every_frame else ""))
        status = table.run(source)
    if record_problems:
        return _fail(record_problems[0], 1)
    if status.failed:
        said = status.ended or "the source failed"
        if args.calibration is not None:
            said = said.replace("the calibration", f"calibration {args.calibration}", 1)
        return _fail(said, 1)
    return 0


def _refused(args: argparse.Namespace) -> str | None:
    """Why the options cannot run live, said before anything is opened; None where they can."""
    try:
        validate_table_id(args.table)
    except FeedError as exc:
        return str(exc)
    if args.show:
        from snooker.calibration.manual import display_available

        if not display_available():
            return "--show needs a display (DISPLAY/WAYLAND_DISPLAY is not set); run without --show"
    if args.queue < 1:
        return "--queue must be at least 1"
    missing = _missing_pieces(args)
    if missing:
        return "cannot run live: " + "; ".join(missing)
    return None


def _table_config(args: argparse.Namespace) -> LiveTableConfig:
    """The live table's settings from the options: ``--every-frame`` reads a file at its own pace
    and drops no frame."""
    from snooker.pipeline.live import LiveTableConfig

    frames = LiveConfig(queue_size=args.queue)
    if args.every_frame:
        frames = replace(frames, pace_files=False, drop_when_full=False)
    return LiveTableConfig(
        frames=frames,
        status_every_s=args.status_every,
        rule_truncated_strokes=args.rule_cut_strokes,
        join=JoinConfig(start=args.start, ball_on=args.ball_on),
    )


def _serve_http(stack: ExitStack, session: MatchSession, args: argparse.Namespace) -> None:
    from snooker.broadcast.web import Bridge, BridgeThread, WebConfig

    bridge = Bridge(WebConfig(host=args.host, port=args.http))
    bridge.attach_session(session)
    runner = BridgeThread(bridge)
    runner.start()
    stack.callback(runner.stop)
    say(f"overlay: {bridge.url('/overlay')}")
    say(f"console: {bridge.console_url()}")
    say(f"token: {bridge.token}")


def _close_windows() -> None:
    import cv2

    cv2.destroyAllWindows()


def _missing_pieces(args: argparse.Namespace) -> list[str]:
    """Pieces of the pipeline this checkout lacks (each named), so live says what it cannot do."""
    import importlib.util

    needed = {
        "snooker.pipeline.analyze": "the frame loop (snooker.pipeline.analyze)",
        "snooker.tracker": "the tracker (snooker.tracker)",
        "snooker.vision.detector": "the ball detector (snooker.vision.detector)",
    }
    if args.calibration is None:
        needed["snooker.calibration.detect"] = "automatic table finding (snooker.calibration.detect)"
    return [what for module, what in needed.items() if importlib.util.find_spec(module) is None]
