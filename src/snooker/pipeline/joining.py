"""Whether a video opens a frame or joins one in play, and the frame log's ``table`` line that tells
the referee the table it joined (docs/FRAME_LOG.md).

A referee who walks in mid-frame does not rule the next stroke as a break-off. A clip cut from a
match, or a camera switched on during a frame, starts with some reds gone, the cue ball anywhere
and a ball on that nobody saw chosen. The first stroke's places before it (table mm, as the tracker
holds them) say which: the cue ball in the D with the reds racked is a break-off; anything else
joins a frame in play with the reds and colours the tracker holds then.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from snooker.balls import COLOURS, CUE_BALL, FULL_RACK_REDS, RED, ball_kind
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee.log import BALL_ON_EITHER
from snooker.tracker.strokes import OutsideEvent
from snooker.tracker.types import StrokeEvents

STARTS = ("auto", "frame", "mid")
BALL_ON_CHOICES = (BALL_ON_EITHER, "red", "colour")


@dataclass(frozen=True)
class JoinConfig:
    """How the frame log begins.

    ``start``: ``auto`` (decide from the first stroke), ``frame`` (the video opens a frame: no
    table line), ``mid`` (a table line whatever the first stroke shows); ``ball_on``: what the table
    line says is on (``either``: not known, the referee gives the striker the benefit of the doubt);
    ``rack_reds``: reds in a full rack; ``break_off_unseen_reds``: how many reds of the rack a
    break-off may show fewer of (the pack's reds touch, and a player's arm hides some);
    ``d_tolerance_mm``: how far outside the D (mm) a break-off's cue ball may be measured where the
    stroke does not say how far its places may be off; ``best_of``: the frames of the match the log
    is of (its ``match`` line's): over one, a break-off after a frame ended starts the next frame
    (:func:`starts_next_frame`).
    """

    start: str = "auto"
    ball_on: str = BALL_ON_EITHER
    rack_reds: int = FULL_RACK_REDS
    break_off_unseen_reds: int = 3
    d_tolerance_mm: float = 10.0
    best_of: int = 1

    def __post_init__(self) -> None:
        if self.start not in STARTS:
            raise ValueError(f"start must be one of {', '.join(STARTS)}, got {self.start!r}")
        if self.ball_on not in BALL_ON_CHOICES:
            raise ValueError(f"ball_on must be one of {', '.join(BALL_ON_CHOICES)}, got {self.ball_on!r}")
        if self.rack_reds < 1:
            raise ValueError(f"rack_reds must be positive, got {self.rack_reds}")
        if not 0 <= self.break_off_unseen_reds < self.rack_reds:
            raise ValueError("break_off_unseen_reds must be from 0 to fewer than rack_reds")
        if self.d_tolerance_mm < 0:
            raise ValueError("d_tolerance_mm must not be negative")
        if self.best_of < 1:
            raise ValueError(f"best_of must be a positive number of frames, got {self.best_of}")


def is_break_off(stroke: StrokeEvents, config: JoinConfig) -> bool:
    """Whether ``stroke`` opens a frame: the cue ball in the D and (nearly) every red racked."""
    cue = stroke.positions_before.get(CUE_BALL)
    if cue is None:
        return False
    tolerance = max(config.d_tolerance_mm, stroke.position_tolerance_mm or 0.0)
    in_d = bool(STANDARD_TABLE.in_d(np.asarray(cue, dtype=float), margin_mm=tolerance)[0])
    return in_d and _reds_before(stroke) >= config.rack_reds - config.break_off_unseen_reds


NEW_FRAME = {"type": "new_frame"}
"""The frame-log line that starts the next frame (the order of play as the match goes on)."""


def starts_next_frame(status: str, stroke: StrokeEvents, config: JoinConfig) -> bool:
    """Whether a ``new_frame`` line goes before ``stroke``: the referee's ``status`` says the frame
    is over (the match is not) and the stroke is a break-off (:func:`is_break_off`): the camera saw
    the table re-racked. A break-off while the frame is in play does not: only a person can say
    the frame was conceded."""
    return status == "frame_over" and is_break_off(stroke, config)


def stroke_lines(status: str, stroke: StrokeEvents, config: JoinConfig) -> list[dict]:
    """The frame-log lines for ``stroke`` given the referee's ``status`` before it: its line, after a
    ``new_frame`` where it starts the next frame (:func:`starts_next_frame`)."""
    line = stroke.to_log_line()
    return [dict(NEW_FRAME), line] if starts_next_frame(status, stroke, config) else [line]


EDGE_FALL = "edge_fall"
"""The frame-log line type (and its ruling's ``type``) of a ball that fell into a pocket by itself."""


def edge_fall_line(event: OutsideEvent) -> dict:
    """The frame-log line for a ball that fell from the edge of a pocket by itself between strokes
    (``OutsideEvent.edge_fall``; 3.9(a): replaced, no score)."""
    return {"type": EDGE_FALL, "ball": ball_kind(event.label)}


class EdgeFalls:
    """The edge falls the frame log is given, each once and in the order they fell: those before a
    stroke began go before its lines (the ball fell between that stroke and the one before), the
    rest after the last stroke. ``analyze`` (its log and its rulings) and ``live`` write them so."""

    def __init__(self) -> None:
        self._given: set[tuple[str, int]] = set()

    def due(self, events: Iterable[OutsideEvent], before_frame: int | None = None) -> list[OutsideEvent]:
        """The edge falls of ``events`` not given yet that fell before ``before_frame`` (None: all),
        in frame order; each is given once (its line: :func:`edge_fall_line`)."""
        due = []
        for event in sorted((e for e in events if e.edge_fall), key=lambda e: e.frame):
            key = (event.label, event.frame)
            if key in self._given or (before_frame is not None and event.frame >= before_frame):
                continue
            self._given.add(key)
            due.append(event)
        return due


def table_line(stroke: StrokeEvents, config: JoinConfig) -> dict | None:
    """The ``table`` line to put before ``stroke``, the log's first, or None where the log opens a
    frame (a break-off; ``start`` = ``frame``) or the tracker does not know the table (no place for
    the cue ball or for any object ball)."""
    if config.start == "frame" or (config.start == "auto" and is_break_off(stroke, config)):
        return None
    if CUE_BALL not in stroke.positions_before:
        return None
    reds = min(_reds_before(stroke), config.rack_reds)
    if reds:
        colours = list(COLOURS)
    else:
        seen = [
            COLOURS.index(ball_kind(label))
            for label in stroke.positions_before
            if ball_kind(label) in COLOURS
        ]
        if not seen:
            return None
        colours = list(COLOURS[min(seen) :])  # colours go in ascending order: a lower one unseen is gone
    ball_on = config.ball_on
    if (ball_on == "red" and not reds) or (ball_on == "colour" and colours != list(COLOURS)):
        ball_on = BALL_ON_EITHER
    line: dict = {"type": "table", "reds": reds, "colours": colours, "ball_on": ball_on, "cue_in_hand": False}
    red_labels = [label for label in stroke.positions_before if ball_kind(label) == RED][:reds]
    places = {
        label: [round(float(x), 1), round(float(y), 1)]
        for label, (x, y) in stroke.positions_before.items()
        if ball_kind(label) != RED or label in red_labels
    }
    if places:
        line["positions"] = places
    return line


def _reds_before(stroke: StrokeEvents) -> int:
    """Reds on the table before the stroke: those the tracker placed, and any it saw go in it."""
    labels = set(stroke.positions_before)
    labels |= {p.label for p in stroke.potted} | set(stroke.off_table)
    return sum(1 for label in labels if ball_kind(label) == RED)
