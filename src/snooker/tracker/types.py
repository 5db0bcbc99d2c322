"""The tracker's data types: the table after each frame, track events, and one stroke's events.

Coordinates are table millimetres (CONTRACTS.md: origin at the baulk-left cushion-nose corner,
``x`` towards baulk-right, ``y`` up the table); image positions, where given, are pixels of the
frame the ball was seen in (x right, y down). Frames are source frame indices; times are seconds.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from snooker.balls import CUE_BALL, ball_kind


class TrackStatus(enum.Enum):
    """Where a tracked ball is."""

    TENTATIVE = "tentative"
    """Seen too few times to be trusted as a ball."""
    VISIBLE = "visible"
    """Detected in this frame."""
    HELD = "held"
    """Not detected (hidden by a player, the cue, a graphic …): held where it was last seen."""
    POTTED = "potted"
    OFF_TABLE = "off_table"


ON_TABLE_STATUSES = (TrackStatus.VISIBLE, TrackStatus.HELD)


@dataclass(frozen=True)
class BallState:
    """One ball as the tracker holds it after a frame.

    ``label`` is the ball's identity (``white``, ``pink``, ``red-7``); ``track_id`` a unique integer;
    ``xy_mm`` (x, y) table mm; ``xy_px`` the detection's image centre (None while held);
    ``radius_px`` its apparent radius (None while held); ``moving`` whether it moved over the last
    rest window.
    """

    track_id: int
    label: str
    xy_mm: tuple[float, float]
    status: TrackStatus
    moving: bool
    velocity_mm_s: tuple[float, float] = (0.0, 0.0)
    xy_px: tuple[float, float] | None = None
    radius_px: float | None = None

    @property
    def ball(self) -> str:
        """The ball name (``red`` for ``red-7``)."""
        return ball_kind(self.label)


@dataclass(frozen=True)
class TrackEvent:
    """Something that happened to one ball: ``potted`` (with ``pocket``), ``off_table``, ``rattled``
    (vanished in a pocket's jaws and came back), ``reappeared`` (came back somewhere else after
    being hidden, e.g. moved by a person), ``retracted`` (its sightings from ``frame`` until now
    were something else named like it: it ran off unseen from where it rested, ``xy_mm``, and is
    found now on its way). ``frame`` is when it happened (for a pot: the first frame the ball was
    no longer seen); ``xy_mm`` where the ball was last seen."""

    kind: str
    label: str
    frame: int
    t: float
    xy_mm: tuple[float, float]
    pocket: str | None = None

    @property
    def ball(self) -> str:
        return ball_kind(self.label)


@dataclass(frozen=True)
class TableState:
    """The tracker's view of the table after one frame: every ball on the table (visible or held),
    and the track events this frame settled."""

    frame: int
    t: float
    balls: tuple[BallState, ...]
    events: tuple[TrackEvent, ...] = ()

    def by_label(self) -> dict[str, BallState]:
        return {b.label: b for b in self.balls}

    def positions(self) -> dict[str, list[float]]:
        """``{label: [x_mm, y_mm]}`` for every ball on the table, rounded to 0.1 mm."""
        return {b.label: [round(b.xy_mm[0], 1), round(b.xy_mm[1], 1)] for b in self.balls}


@dataclass(frozen=True)
class PotEvent:
    """A ball that dropped into ``pocket`` (a CONTRACTS.md pocket name) at ``frame``.

    ``inferred``: the ball was not seen dropping; it vanished after the cue ball hit it and its
    path led into this pocket.
    """

    label: str
    pocket: str | None
    frame: int
    inferred: bool = False

    @property
    def ball(self) -> str:
        return ball_kind(self.label)


@dataclass(frozen=True)
class CushionContact:
    """A ball that hit the cushion named as in ``TableSpec.cushions`` at ``frame``."""

    label: str
    cushion: str
    frame: int


@dataclass(frozen=True)
class StrokeEvents:
    """Everything the tracker saw in one stroke, from the cue ball being struck to all at rest.

    ``first_contact``: labels of the balls the cue ball hit first (two = at the same time, none =
    missed everything); ``potted``: object balls potted; ``off_table``: object balls forced off;
    ``cue_ball``: ``on_table`` / ``potted`` / ``off_table``; ``touching``: balls the cue ball rests
    against at the end; ``positions_before`` / ``positions_after``: ``{label: (x_mm, y_mm)}``;
    ``truncated``: the video ended before all balls came to rest; ``position_tolerance_mm``: how far
    the cue ball's logged place before the stroke may be off (None: not known); ``unwatched_s``:
    seconds of the stroke in gaps of frames (another camera's view, dropped frames; see
    ``StrokeConfig.unwatched_gap_s``): with no first contact, it was not seen rather than missed;
    ``strike_unseen``: the cue ball was never seen at rest before it ran (first found running as
    the table came into view, or hidden as it was struck): so too; ``moving_at_strike``: object
    balls still running from the stroke before when the cue ball was struck again (a foul, 3.12(b);
    their places before are not resting places); ``touching_moved``: object balls the cue ball
    rested against when it was struck that moved with the strike (a push stroke, 3.8(b)).
    """

    start_frame: int
    end_frame: int
    first_contact: tuple[str, ...] = ()
    potted: tuple[PotEvent, ...] = ()
    off_table: tuple[str, ...] = ()
    cue_ball: str = "on_table"
    touching: tuple[str, ...] = ()
    cushion_contacts: tuple[CushionContact, ...] = ()
    positions_before: dict[str, tuple[float, float]] = field(default_factory=dict)
    positions_after: dict[str, tuple[float, float]] = field(default_factory=dict)
    truncated: bool = False
    position_tolerance_mm: float | None = None
    unwatched_s: float = 0.0
    strike_unseen: bool = False
    moving_at_strike: tuple[str, ...] = ()
    touching_moved: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.position_tolerance_mm is not None and not self.position_tolerance_mm >= 0.0:
            raise ValueError(f"position_tolerance_mm must be >= 0, got {self.position_tolerance_mm}")
        if self.cue_ball not in ("on_table", "potted", "off_table"):
            raise ValueError(f"cue_ball must be on_table, potted or off_table, got {self.cue_ball!r}")
        if self.end_frame < self.start_frame:
            raise ValueError(f"stroke ends (frame {self.end_frame}) before it starts ({self.start_frame})")

    def to_log_line(self) -> dict:
        """The stroke as a frame-log line (CONTRACTS.md §1); reds lose their ids except in positions,
        which are left out when the cue ball is missing from them; ``truncated`` only where the
        source cut the stroke off (docs/FRAME_LOG.md)."""
        line: dict = {
            "type": "stroke",
            "first_contact": [ball_kind(label) for label in self.first_contact],
            "potted": [_potted_entry(p) for p in self.potted],
            "off_table": [ball_kind(label) for label in self.off_table],
            "cue_ball": self.cue_ball,
            "touching": [ball_kind(label) for label in self.touching],
        }
        if self.positions_complete:
            line["positions"] = {
                "before": _rounded(self.positions_before),
                "after": _rounded(self.positions_after),
            }
            if self.position_tolerance_mm is not None:
                line["position_tolerance_mm"] = round(float(self.position_tolerance_mm), 1)
        if self.truncated:
            line["truncated"] = True  # cut off before the balls stopped: its facts may be incomplete
        if self.unwatched_s > 0.0:
            line["unwatched_s"] = round(float(self.unwatched_s), 2)  # the table not shown for so long
        if self.strike_unseen:
            line["strike_unseen"] = True  # the cue ball was first found running
        if self.moving_at_strike:
            line["moving_at_strike"] = [ball_kind(label) for label in self.moving_at_strike]
        if self.touching_moved:
            line["touching_moved"] = [ball_kind(label) for label in self.touching_moved]  # a push (3.8(b))
        return line

    @property
    def positions_complete(self) -> bool:
        """Whether the positions can be handed on: the cue ball is in them wherever it is on the table
        (the referee then decides free ball, miss and spotting from them; without, it does not)."""
        cue_after_needed = self.cue_ball == "on_table"
        return CUE_BALL in self.positions_before and (
            CUE_BALL in self.positions_after or not cue_after_needed
        )

    def to_analysis(self) -> dict:
        """The stroke as an ``analysis.json`` entry (CONTRACTS.md §3), with ids and frames kept; a
        frame-log stroke too (``type``), so it can be fed to the referee unchanged: with the same
        ``position_tolerance_mm`` as its frame-log line, it is ruled as that line is."""
        entry = {
            "type": "stroke",
            "start_frame": self.start_frame,
            "end_frame": self.end_frame,
            "first_contact": [ball_kind(label) for label in self.first_contact],
            "first_contact_ids": list(self.first_contact),
            "potted": [
                {"ball": p.ball, "id": p.label, "pocket": p.pocket, "frame": p.frame} for p in self.potted
            ],
            "off_table": [ball_kind(label) for label in self.off_table],
            "cue_ball": self.cue_ball,
            "touching": [ball_kind(label) for label in self.touching],
            "cushion_contacts": [
                {"ball": c.label, "cushion": c.cushion, "frame": c.frame} for c in self.cushion_contacts
            ],
            "positions": {
                "before": _rounded(self.positions_before),
                "after": _rounded(self.positions_after),
            },
            "truncated": self.truncated,
            "unwatched_s": round(float(self.unwatched_s), 2),
            "strike_unseen": self.strike_unseen,
            "moving_at_strike": [ball_kind(label) for label in self.moving_at_strike],
            "touching_moved": [ball_kind(label) for label in self.touching_moved],
        }
        if self.position_tolerance_mm is not None:
            entry["position_tolerance_mm"] = round(float(self.position_tolerance_mm), 1)
        return entry


def _potted_entry(pot: PotEvent) -> dict[str, str]:
    """A potted ball in a frame-log line: with its pocket where known (CONTRACTS.md §1), not a null."""
    return {"ball": pot.ball} if pot.pocket is None else {"ball": pot.ball, "pocket": pot.pocket}


def _rounded(positions: dict[str, tuple[float, float]]) -> dict[str, list[float]]:
    return {label: [round(float(x), 1), round(float(y), 1)] for label, (x, y) in positions.items()}


def is_cue_ball(label: str) -> bool:
    return label == CUE_BALL
