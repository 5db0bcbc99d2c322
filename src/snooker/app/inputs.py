"""What the subcommands share before the first frame or line: the calibration and the ball detector
(the video subcommands), the match session and its feed (``live`` and ``serve``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from snooker.calibration import TableView
    from snooker.record.session import MatchSession
    from snooker.vision.detector import BallDetector


class InputError(Exception):
    """A calibration file, a detector or an output folder the command cannot use; the message
    names which and why."""


LARGEST_PORT = 65535
"""TCP ports run from 0 (any free one) to this."""


def tcp_port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535; refused by name otherwise."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= LARGEST_PORT:
        raise argparse.ArgumentTypeError(
            f"port {port} is out of range: a port is 0 (any free one) to {LARGEST_PORT}"
        )
    return port


class LogLine(NamedTuple):
    """One non-blank line of a frame log read as bytes.

    ``number`` counts the file's lines from 1, blank ones included; ``text`` is the line (bytes that
    are not UTF-8 shown as ``\\xNN`` escapes); ``problem`` says where it is not UTF-8 (None when it is).
    """

    number: int
    text: str
    problem: str | None


def log_lines(stream: Iterable[bytes]) -> Iterator[LogLine]:
    """The non-blank lines of a byte stream, each decoded alone: a byte that is not UTF-8 makes its
    own line a problem, not the whole log (a text stream stops at the first such byte)."""
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            yield LogLine(number, raw.decode("utf-8"), None)
        except UnicodeDecodeError as exc:
            byte = raw[exc.start]
            problem = f"the line is not UTF-8 text: byte 0x{byte:02x} at byte {exc.start + 1} ({exc.reason})"
            yield LogLine(number, raw.decode("utf-8", errors="backslashreplace"), problem)


def output_folder(path: Path) -> Path:
    """``path`` made ready to write into (created with its parents where missing); raises
    InputError naming the folder and why it cannot be used, before any work is done."""
    if path.exists() and not path.is_dir():
        raise InputError(f"output folder {path} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the output folder {path}: {exc.strerror or exc}") from exc
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(f"output folder {path} is not writable")
    return path


def load_view_and_detector(
    calibration: Path | None, detector_name: str
) -> tuple[TableView | None, BallDetector]:
    """The calibration read from ``calibration`` (None: the table is found in the frames) and the
    detector called ``detector_name``; imports happen here so ``--help`` never loads OpenCV or torch."""
    from snooker.calibration import CalibrationError, load_calibration
    from snooker.vision.detector import make_detector

    view = None
    if calibration is not None:
        try:
            view = load_calibration(calibration)
        except CalibrationError as exc:
            raise InputError(str(exc)) from exc
    try:
        detector = make_detector(detector_name)
    except ImportError as exc:
        raise InputError(f"the {detector_name} detector cannot be loaded: {exc}") from exc
    return view, detector


def open_refereed_session(
    stack: ExitStack,
    args: argparse.Namespace,
    say: Callable[[str], None],
    problems: list[str],
    state_before_lines: bool,
) -> MatchSession:
    """The match session a refereeing command runs (``--record``, ``--resume``), closed as ``stack``
    closes with what goes wrong then added to ``problems``; with ``--feed``, its scoreboard and events
    published at that endpoint for table ``--table`` until then. The scoreboard is published at once
    where the session resumed lines, or where ``state_before_lines`` (``serve``: the overlay shows
    the table waiting for the operator's match line); else its first state is its first line's
    (``live`` writes the match line itself: a subscriber joining while the source opens is never
    sent, nor re-sent by the heartbeat, a scoreboard without the match's players)."""
    from snooker.broadcast.feed import FeedPublisher
    from snooker.record.session import close_session, open_session

    session = open_session(args.record, args.resume, say)
    stack.callback(close_session, session, problems)
    if args.feed:
        publisher = stack.enter_context(FeedPublisher(args.feed, args.table))
        session.add_listener(publisher.on_change)
        if state_before_lines or session.applied_lines:
            publisher.publish_state(session.scoreboard())
        say(f"feed: {publisher.bound_endpoint} (topics table/{args.table}/state/, /event/)")
    return session
