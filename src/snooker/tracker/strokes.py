"""Stroke segmentation: from the tracker's table states to one ``StrokeEvents`` per stroke.

A stroke starts when the cue ball sets off (it is moving on a few consecutive frames; the start is
traced back to the last frame it sat where it rested) and ends once every ball has been at rest for
``StrokeConfig.rest_duration_s`` (up to ``edge_drop_moment_s`` while a ball rests on the edge of
a pocket: one that balances a moment and falls is potted in the stroke, 3.9(c); that ball's
jitter meanwhile does not restart the rest). A cue ball struck
again while balls still run (a foul) ends the stroke and starts the next: nearly at rest, away
from every other ball and cushion, it gains more speed than friction or spin can give it, or
(struck back or sideways while it rolls) its velocity turns at once and stays turned, by more than
friction can turn it. Struck so after every ball had been read at rest a moment
(``restrike_after_rest_s``; by a cushion or a ball too), sooner than the rest call, the stroke
ended where they came to rest and the strike starts the next; a ball then dropping into a pocket
as they stopped, whose pot the tracker confirms only after the strike, is the stroke's (it is
held back for it). A cue ball stunned dead into a ball a few mm off never runs: the stroke starts
when that ball leaves along their line of centres. Between strokes, a ball that moves (a person
moved it, or it fell into a pocket by itself) is reported as an
:class:`OutsideEvent`, never as part of a stroke; a ball's resting place is the median of its last
sightings at rest since it was last seen moving. A ball potted between strokes is an edge fall
(3.9(a): the frame log's ``edge_fall``, replaced) only on the evidence of
:meth:`StrokeSegmenter._edge_fall`; otherwise its event says why not.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field, replace

import numpy as np

from snooker.balls import CUE_BALL, ball_kind
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.tracker import events as ev
from snooker.tracker.config import StrokeConfig
from snooker.tracker.types import CushionContact, PotEvent, StrokeEvents, TableState, TrackEvent, TrackStatus


@dataclass(frozen=True)
class OutsideEvent:
    """A ball that changed while no stroke was being played.

    ``kind``: ``moved`` (came to rest elsewhere: moved by a person, or the cue ball placed in
    hand), ``potted`` (fell into ``pocket`` by itself) or ``off_table``; ``unexplained_potted`` /
    ``unexplained_off_table`` for a track that vanished in a stroke without having been on the
    table when the stroke began (not a ball of the stroke); ``frame`` when it was
    noticed; ``from_mm`` / ``to_mm`` table mm (``to_mm`` None when it left the table).
    ``edge_fall``: a ``potted`` ball that fell from the edge of the pocket by itself, at rest and
    untouched (3.9(a): written to the frame log as ``edge_fall``, replaced); ``reason``: for a
    ``potted`` ball, the evidence for that call or why it was not made.
    """

    kind: str
    label: str
    frame: int
    from_mm: tuple[float, float] | None
    to_mm: tuple[float, float] | None = None
    pocket: str | None = None
    edge_fall: bool = False
    reason: str | None = None

    def to_dict(self) -> dict:
        record = {
            "type": self.kind,
            "ball": self.label,
            "frame": self.frame,
            "from_mm": None if self.from_mm is None else [round(v, 1) for v in self.from_mm],
            "to_mm": None if self.to_mm is None else [round(v, 1) for v in self.to_mm],
            "pocket": self.pocket,
        }
        if self.kind == "potted":
            record["edge_fall"] = self.edge_fall
            record["reason"] = self.reason
        return record


@dataclass
class _FrameRecord:
    frame: int
    t: float
    xy: dict[str, np.ndarray]
    visible: dict[str, bool]
    moving: dict[str, bool]
    px: dict[str, np.ndarray]


@dataclass(frozen=True)
class _Lost:
    """A ball hidden while it ran: its last sighting's time (s) and place (mm), how long after it
    the ball may still run (s), and whether nothing lay in its way within the distance it rolls."""

    t: float
    xy: np.ndarray
    runs_s: float
    ran_free: bool


@dataclass
class _Held:
    """A stroke ended by the cue ball struck again, held back while balls it hit, unseen since, may
    still be running (see :meth:`StrokeSegmenter._close`): ``pending`` maps each such ball to the
    pot inferred for it, or None for off the table, the judgement the stroke gets if the ball is
    not seen again before the balls come to rest; ``before``: the balls on the table when the
    stroke began (a track of a pending ball's kind first found since is that ball, found again);
    ``claimed``: such tracks already taken for one. Also a stroke ended at rest with a ball of it
    last seen running on a pocket's edge and unseen since (``awaiting``), whose pot (or return)
    the tracker has not said yet: it confirms a pot ``LifecycleConfig.pot_confirm_s`` after the
    ball vanished, and a stroke struck sooner would get it. With no word by the time the stroke is
    judged, it stands as closed."""

    stroke: StrokeEvents
    pending: dict[str, PotEvent | None]
    before: frozenset[str]
    claimed: set[str] = field(default_factory=set)
    awaiting: set[str] = field(default_factory=set)


class StrokeSegmenter:
    """Turns a stream of :class:`TableState` into strokes (one instance per table).

    :meth:`push` each frame's state; it returns the strokes that ended on that frame. Call
    :meth:`finish` at the end of the video (a stroke still running is closed as truncated).
    Events outside strokes accumulate in :attr:`outside_events`. A stroke ended by the cue ball
    struck again is returned once every ball it hit, unseen since, is seen again or judged gone
    (when the balls have come to rest), so possibly some frames after it ended.
    """

    def __init__(self, config: StrokeConfig | None = None, table: TableSpec = STANDARD_TABLE) -> None:
        self.config = config or StrokeConfig()
        self.table = table
        self.outside_events: list[OutsideEvent] = []
        self._frames: list[_FrameRecord] = []
        self._rest: dict[str, np.ndarray] = {}
        self._rest_sightings: dict[str, deque[np.ndarray]] = {}
        self._unsettled: set[str] = set()
        self._cue_moving_frames = 0
        self._cue_seen_t: float | None = None
        self._cue_seen_xy: np.ndarray | None = None
        self._cue_farthest_mm = 0.0
        self._start_index: int | None = None
        self._before: dict[str, tuple[float, float]] = {}
        self._pots: list[PotEvent] = []
        self._offs: list[str] = []
        self._rest_since: int | None = None
        self._running_at_start: set[str] = set()
        self._hidden_at_start: dict[str, _Lost] = {}
        """The balls hidden at the running stroke's start that may still have been running then,
        with where and how each was lost (:meth:`_hidden_runners`)."""
        self._restruck = False
        self._strike_unseen = False
        self._watched_since_t = 0.0
        self._start_frame = 0
        self._held: list[_Held] = []
        self._judged_gone: set[str] = set()
        self._reported_gone: set[str] = set()
        """The balls the tracker said were potted or off the table, not seen since."""
        self._sighting_runs: dict[str, int] = {}
        self._rest_span: dict[str, list[float]] = {}
        """Per ball at rest between strokes: [first, last] time (s) of its current rest."""
        self._cue_speeds: dict[tuple[int, int], tuple[_FrameRecord, _FrameRecord, float]] = {}
        """The cue ball's speeds over windows of frame records already asked for (see
        :meth:`_cue_speed`), by the identities of the window's first and last record."""
        self._left_rest: dict[str, tuple[float, float, np.ndarray]] = {}
        """Per ball seen moving since it last rested between strokes: (rest's first time, its last
        time, the place it rested)."""
        self._sighted: dict[str, deque[tuple[float, np.ndarray, bool]]] = {}
        """Per ball: its last ``_SIGHTINGS_KEPT`` sightings (time s, place mm, read moving; see
        :meth:`_hidden_runners`)."""

    @property
    def in_stroke(self) -> bool:
        return self._start_index is not None

    @property
    def running_positions_before(self) -> dict[str, tuple[float, float]] | None:
        """The places (table mm) the balls of the running stroke set off from; None between strokes."""
        return dict(self._before) if self.in_stroke else None

    def push(self, state: TableState) -> list[StrokeEvents]:
        record = _FrameRecord(
            state.frame,
            state.t,
            {b.label: np.array(b.xy_mm) for b in state.balls},
            {b.label: b.status == TrackStatus.VISIBLE for b in state.balls},
            {b.label: b.moving for b in state.balls},
            {b.label: np.array(b.xy_px) for b in state.balls if b.xy_px is not None},
        )
        previous_t = self._frames[-1].t if self._frames else None
        if previous_t is None or record.t - previous_t >= self.config.unwatched_gap_s:
            self._watched_since_t = record.t
        self._frames.append(record)
        self._reported_gone -= {label for label, seen in record.visible.items() if seen}
        self._note_sightings(record)
        self._take_track_events(state.events)
        self._sighting_runs = {
            label: self._sighting_runs.get(label, 0) + 1 if seen else 0
            for label, seen in record.visible.items()
        }
        released = self._watch_held(record)
        if not self.in_stroke:
            self._idle(record)
            return released
        return released + self._running(record)

    def finish(self, final_events: tuple[TrackEvent, ...] = ()) -> list[StrokeEvents]:
        """Close the video: take the last track events and close a running stroke as truncated."""
        self._take_track_events(final_events)
        if not self.in_stroke or not self._frames:
            return self._release(judge=True)
        if (
            self._rest_since is not None
            and self._frames[-1].t - self._frames[self._rest_since].t >= self.config.rest_duration_s
        ):
            return self._end_at_rest()  # over: only a ball on a pocket's edge held it open
        released = self._release(judge=True)
        stroke, _ = self._close(len(self._frames) - 1, truncated=True)
        return [*released, stroke]

    # ------------------------------------------------------------------ states
    def _take_track_events(self, events: tuple[TrackEvent, ...]) -> None:
        for event in events:
            if event.kind == "retracted":
                self._retract(event)
                continue
            if event.kind not in ("potted", "off_table"):
                continue
            self._reported_gone.add(event.label)
            if self._to_a_held_stroke(event):
                continue
            for held in self._held:
                held.pending.pop(event.label, None)  # the tracker read where it went: that reading stands
            if self.in_stroke and event.label not in self._before:
                # A ball that was not on the table when the stroke began cannot leave it in the
                # stroke: it is a track of something else (a hand, the cue) and is reported apart.
                self.outside_events.append(
                    OutsideEvent(
                        f"unexplained_{event.kind}", event.label, event.frame, event.xy_mm, None, event.pocket
                    )
                )
            elif self.in_stroke:
                if event.kind == "potted":
                    self._pots.append(PotEvent(event.label, event.pocket, event.frame))
                else:
                    self._offs.append(event.label)
            else:
                fell, why = self._edge_fall(event) if event.kind == "potted" else (False, None)
                self.outside_events.append(
                    OutsideEvent(
                        event.kind, event.label, event.frame, event.xy_mm, None, event.pocket, fell, why
                    )
                )
                self._rest.pop(event.label, None)
                self._rest_span.pop(event.label, None)
                self._left_rest.pop(event.label, None)
                self._rest_sightings.pop(event.label, None)
                self._unsettled.discard(event.label)

    def _to_a_held_stroke(self, event: TrackEvent) -> bool:
        """Whether ``event`` (a ball potted or off the table) is that of a held stroke the ball was
        pending or awaited in (see :class:`_Held`), and was given to it: the ball was lost by the
        running stroke's first frame (``TrackEvent.frame``, the first frame it was unseen), so it
        went in the stroke before, not in this one, where it is no ball of the table at the strike
        (nor running then)."""
        label = event.label
        if self.in_stroke and event.frame > self._start_frame:
            return False
        held = next((h for h in self._held if label in h.pending or label in h.awaiting), None)
        if held is None:
            return False
        held.pending.pop(label, None)
        held.awaiting.discard(label)
        stroke = held.stroke
        after = {other: xy for other, xy in stroke.positions_after.items() if other != label}
        if label == CUE_BALL:
            cue_ball = "potted" if event.kind == "potted" else "off_table"
            stroke = replace(stroke, cue_ball=cue_ball, positions_after=after)
        elif event.kind == "potted":
            pot = PotEvent(label, event.pocket, event.frame)
            stroke = replace(stroke, potted=(*stroke.potted, pot), positions_after=after)
        else:
            stroke = replace(stroke, off_table=(*stroke.off_table, label), positions_after=after)
        held.stroke = stroke
        if self.in_stroke:
            self._before.pop(label, None)
            self._running_at_start.discard(label)
            self._hidden_at_start.pop(label, None)
        return True

    def _retract(self, event: TrackEvent) -> None:
        """The tracker found the ball's sightings from ``event.frame`` up to this frame to be
        something else named like it (see ``TrackEvent``): on those frames it was unseen, running
        off from ``event.xy_mm``, where it was last seen at rest."""
        rest = np.array(event.xy_mm)
        self._cue_speeds.clear()
        self._sighted.pop(event.label, None)
        for record in self._frames[:-1]:
            if record.frame >= event.frame and event.label in record.xy:
                record.xy[event.label] = rest
                record.visible[event.label] = False
                record.moving[event.label] = True
                record.px.pop(event.label, None)

    def _idle(self, record: _FrameRecord) -> None:
        cfg = self.config
        self._count_cue_moving(record)
        if self._cue_moving_frames >= cfg.start_confirm_frames:
            self._start(len(self._frames) - 1)
            return
        struck = self._set_off_by_the_cue_ball(len(self._frames) - 1)
        if struck is not None and self._struck_after_rest(struck) is not None:
            early = self._frames[struck - 1].t - self._watched_since_t < cfg.unwatched_gap_s
            self._begin(struck - 1, self._frames[struck].frame, self._rest, strike_unseen=early)
            return
        for label, xy in record.xy.items():
            if not record.visible[label]:
                continue
            if record.moving[label]:
                self._leave_rest(label)
                self._unsettled.add(label)
                continue
            self._note_rest(label, xy, record.t)
            old = self._rest.get(label)
            sightings = self._rest_sightings.setdefault(label, deque(maxlen=cfg.rest_median_frames))
            if old is not None and np.linalg.norm(xy - old) > cfg.outside_move_displacement_mm:
                self.outside_events.append(OutsideEvent("moved", label, record.frame, _pair(old), _pair(xy)))
                sightings.clear()
                if label == CUE_BALL:
                    # it rests in its new place: a run away from the old one is not counted on
                    self._cue_moving_frames, self._cue_farthest_mm = 0, 0.0
            elif label in self._unsettled:
                # Seen moving since its last sighting at rest (nudged, or its detected centre
                # corrected by more than the jitter): it rests where it is now, not where it was.
                sightings.clear()
            self._unsettled.discard(label)
            sightings.append(xy)
            self._rest[label] = median_place(sightings)
        for label in [lb for lb in self._rest if lb not in record.xy]:
            del self._rest[label]
            self._rest_sightings.pop(label, None)
            self._unsettled.discard(label)
            self._rest_span.pop(label, None)
        self._trim_preroll(record.t)

    def _note_rest(self, label: str, xy: np.ndarray, t: float) -> None:
        """``label`` seen at rest at ``xy`` at ``t`` between strokes: its rest goes on (within the
        onset displacement of where it rests, or of where it rested before a sighting flagged
        moving: a detected centre corrected by more than the jitter), or begins."""
        near = self.config.onset_displacement_mm
        span = self._rest_span.get(label)
        rest = self._rest.get(label)
        if span is not None and rest is not None and np.linalg.norm(xy - rest) <= near:
            span[1] = t
            return
        self._leave_rest(label)
        left = self._left_rest.get(label)
        if left is not None and np.linalg.norm(xy - left[2]) <= near:
            self._rest_span[label] = [left[0], t]
            del self._left_rest[label]
        else:
            self._rest_span[label] = [t, t]

    def _leave_rest(self, label: str) -> None:
        """``label`` seen moving, or away from its place: its rest, if any, ended. A rest shorter
        than the segmenter's own (``rest_duration_s``: a running ball whose speed read low on a
        frame or two) does not replace the one it left before."""
        span = self._rest_span.pop(label, None)
        rest = self._rest.get(label)
        if span is None or rest is None:
            return
        if label not in self._left_rest or span[1] - span[0] >= self.config.rest_duration_s:
            self._left_rest[label] = (span[0], span[1], rest.copy())

    def _edge_fall(self, event: TrackEvent) -> tuple[bool, str]:
        """Whether ``event``, a ball potted while no stroke is played, fell from the edge of the
        pocket by itself (3.9(a)), and the evidence or why not: it was seen at rest for
        ``edge_fall_min_rest_s`` (less: it balanced a moment and fell, 3.9(c)) with its centre within
        ``edge_fall_mouth_reach_mm`` of that pocket's mouth, the table was watched as it set off,
        and nothing (a ball, a track, seen or held hidden) came within a diameter plus
        ``edge_fall_clear_mm`` of it from ``edge_fall_lookback_s`` before it set off until it was
        lost (a hand, a body, a ball there may have moved it)."""
        cfg = self.config
        label = event.label
        span, place = self._rest_span.get(label), self._rest.get(label)
        if span is not None and place is not None:
            rest_from, rest_to = span
        elif label in self._left_rest:
            rest_from, rest_to, place = self._left_rest[label]
        else:
            return False, "not seen at rest before it went in"
        rested = rest_to - rest_from
        if rested < cfg.edge_fall_min_rest_s:
            return False, (
                f"at rest {rested:.1f} s (under {cfg.edge_fall_min_rest_s:g} s) before it went in: it "
                "balanced a moment on the edge and fell (3.9(c)), no edge fall"
            )
        if event.pocket not in self.table.pockets:
            return False, "its pocket is not known"
        mouth = np.asarray(self.table.pockets[event.pocket].mouth_centre)
        off = float(np.linalg.norm(np.asarray(place) - mouth))
        if off > cfg.edge_fall_mouth_reach_mm:
            return False, (
                f"it rested {off:.0f} mm from the {event.pocket} mouth (over"
                f" {cfg.edge_fall_mouth_reach_mm:g}): not on the edge, something moved it in"
            )
        if self._watched_since_t > rest_to:
            return False, "the table was not watched as it set off"
        reach = self.table.ball_diameter_mm + cfg.edge_fall_clear_mm
        for f in self._frames:
            if f.t < rest_to - cfg.edge_fall_lookback_s or f.frame > event.frame:
                continue
            at = f.xy[label] if f.visible.get(label, False) else np.asarray(place)
            for other, xy in f.xy.items():
                if other != label and float(np.linalg.norm(xy - at)) <= reach:
                    seen = "seen" if f.visible.get(other, False) else "held hidden"
                    return False, (
                        f"{other} ({seen}) was within {float(np.linalg.norm(xy - at)):.0f} mm of it as it "
                        "went in: something may have moved it (a ball, a hand), no edge fall"
                    )
        return True, (
            f"at rest {rested:.1f} s on the edge of the {event.pocket} pocket ({off:.0f} mm from its "
            "mouth), then fell in with nothing near it and no stroke played"
        )

    def _count_cue_moving(self, record: _FrameRecord) -> None:
        """Count the cue ball's sightings in a row moving away from its place, each at least
        ``StrokeConfig.start_min_step_mm`` from the sighting before and, within
        ``StrokeConfig.start_centre_slip_mm`` of the place, farther from it than any sighting since
        it last stood still (a struck ball runs off in a line; a centre the cue tip pulled off its
        ball jumps back and forth as the tip feathers and leaves, the ball staying put; found again
        far off, coming back off a cushion, it has left). Farther than that slip it has left
        whether or not it reads as moving (lost to its blur from the strike until it met a ball,
        it is found again beside it nearly stopped), but still only on sightings that step. Seen
        at rest in a new place (an outside move, or another thing named white) the count starts
        again from there. A frame it is not seen on leaves the
        count (a struck cue ball blurred beyond naming is missed on some frames, then found again
        displaced and running: it set off when it was lost, see :meth:`_start`), unless its last
        sighting is more than ``StrokeConfig.start_sighting_gap_s`` ago."""
        if record.visible.get(CUE_BALL, False):
            xy = record.xy[CUE_BALL]
            stepped = self._cue_seen_xy is None or float(np.linalg.norm(xy - self._cue_seen_xy)) >= (
                self.config.start_min_step_mm
            )
            away = self._cue_away_from_its_place(record)
            # Beyond the centre's slip the ball has left its place whatever its speed reads (lost to
            # its blur as it ran, it is found again only after it met a ball, nearly stopped).
            moving = stepped and (
                away > self.config.start_centre_slip_mm
                or (record.moving.get(CUE_BALL, False) and away > self.config.onset_displacement_mm)
            )
            if not moving:
                self._cue_moving_frames, self._cue_farthest_mm = 0, 0.0
            elif away > min(self._cue_farthest_mm, self.config.start_centre_slip_mm):
                self._cue_moving_frames, self._cue_farthest_mm = self._cue_moving_frames + 1, away
            else:
                self._cue_moving_frames = 0
            self._cue_seen_t, self._cue_seen_xy = record.t, xy
        elif self._cue_seen_t is None or record.t - self._cue_seen_t > self.config.start_sighting_gap_s:
            self._cue_moving_frames, self._cue_farthest_mm = 0, 0.0

    def _cue_away_from_its_place(self, record: _FrameRecord) -> float:
        """How far (mm) the cue ball is from where it rested (or, never seen at rest, from where it
        was first seen): beyond the onset displacement it has left its place (a track's first
        sightings may read as motion without the ball going anywhere)."""
        anchor = self._rest.get(CUE_BALL)
        if anchor is None:
            anchor = next(f.xy[CUE_BALL] for f in self._frames if f.visible.get(CUE_BALL, False))
        return float(np.linalg.norm(record.xy[CUE_BALL] - anchor))

    def _start(self, now: int) -> None:
        cfg = self.config
        rest_cue = self._rest.get(CUE_BALL)
        start, start_frame = 0, self._frames[0].frame
        if rest_cue is not None:
            # The stroke began after the cue ball was last *seen* at rest: a cue ball that vanished
            # on a power shot (motion blur) is held where it rested until it is found again.
            for i in range(now, -1, -1):
                xy = self._frames[i].xy.get(CUE_BALL)
                seen = self._frames[i].visible.get(CUE_BALL, False)
                if xy is not None and seen and np.linalg.norm(xy - rest_cue) <= cfg.onset_displacement_mm:
                    i = self._before_a_neighbour_left(i, rest_cue)
                    start, start_frame = i, self._frames[min(i + 1, now)].frame
                    break
        else:
            # Never seen at rest (hidden as it was addressed, or first found in flight): the stroke
            # began with its first sighting or with the balls that were already running by then.
            sighted = [i for i in range(now + 1) if self._frames[i].visible.get(CUE_BALL, False)]
            if sighted:
                first = sighted[0]
                while first > 0 and any(self._frames[first - 1].moving.values()):
                    first -= 1
                start, start_frame = max(first - 1, 0), self._frames[first].frame
        # Set off on the table's first frames after a cut (or the video's): it may have been struck,
        # and have hit a ball, before they showed it.
        early = self._frames[start].t - self._watched_since_t < self.config.unwatched_gap_s
        self._begin(start, start_frame, self._rest, strike_unseen=rest_cue is None or early)

    def _before_a_neighbour_left(self, i: int, rest_cue: np.ndarray) -> int:
        """The frame the stroke began on, given ``i``, the last frame the cue ball was seen in its
        place (``rest_cue``): ``i``, unless a ball that rested within a diameter plus
        ``onset_displacement_mm`` of it has already left its place there. Struck into a ball a few
        mm off, the cue ball hits it within milliseconds and may all but stop, still read in its
        place on the first frame after the strike while that ball runs (taken for a ball running
        before the stroke, its contact was lost). Then the last frame before, within
        ``restrike_hidden_max_s``, where such balls and the cue ball were all in their places (none
        found: ``i``)."""
        cfg = self.config
        near = cfg.onset_displacement_mm
        reach = self.table.ball_diameter_mm + near
        neighbours = {
            label: place
            for label, place in self._rest.items()
            if label != CUE_BALL and float(np.linalg.norm(place - rest_cue)) <= reach
        }

        def in_place(record: _FrameRecord) -> bool:
            return all(
                float(np.linalg.norm(record.xy[label] - place)) <= near
                for label, place in neighbours.items()
                if record.visible.get(label, False) and label in record.xy
            )

        if not neighbours or in_place(self._frames[i]):
            return i
        for j in range(i - 1, -1, -1):
            if self._frames[i].t - self._frames[j].t > cfg.restrike_hidden_max_s + 1e-9:
                break
            cue = self._frames[j].xy.get(CUE_BALL)
            cue_in_place = (
                cue is not None
                and self._frames[j].visible.get(CUE_BALL, False)
                and float(np.linalg.norm(cue - rest_cue)) <= near
            )
            if cue_in_place and in_place(self._frames[j]):
                return j
        return i

    def _begin(
        self,
        start: int,
        start_frame: int,
        rest: dict[str, np.ndarray],
        restruck: bool = False,
        strike_unseen: bool = False,
    ) -> None:
        """A stroke from ``self._frames[start]`` (balls where ``rest`` says, else where seen there);
        ``restruck``: the cue ball was struck again while balls of the stroke before still ran;
        ``strike_unseen``: the cue ball was never seen at rest before it ran (first found running
        as the table came into view, or hidden as it was struck)."""
        self._start_index, self._start_frame = start, start_frame
        self._restruck = restruck
        self._strike_unseen = strike_unseen
        first = self._frames[start]
        # a ball the tracker has said went (its pot confirmed after it vanished) is not on the table
        gone = self._reported_gone - {label for label, seen in first.visible.items() if seen}
        self._before = {
            label: _pair(rest.get(label, xy)) for label, xy in first.xy.items() if label not in gone
        }
        self._hidden_at_start = {
            label: lost for label, lost in self._hidden_runners(first, rest).items() if label not in gone
        }
        moving_then = {label for label, moving in first.moving.items() if moving and label not in gone}
        self._running_at_start = moving_then | set(self._hidden_at_start)
        self._pots, self._offs, self._rest_since = [], [], None
        self._cue_moving_frames, self._cue_farthest_mm = 0, 0.0

    def _note_sightings(self, record: _FrameRecord) -> None:
        """Keep each ball seen on ``record`` among its last sightings."""
        sighted = self._sighted
        for label, seen in record.visible.items():
            if seen:
                kept = sighted.get(label)
                if kept is None:
                    kept = sighted[label] = deque(maxlen=_SIGHTINGS_KEPT)
                kept.append((record.t, record.xy[label], record.moving[label]))

    def _hidden_runners(self, record: _FrameRecord, rest: dict[str, np.ndarray]) -> dict[str, _Lost]:
        """The balls hidden on ``record`` that may still be running, with where and how each was
        lost: last seen before it moving, no longer ago than it may run on (:meth:`_roll_time`; the
        other balls where ``rest`` says, else where seen on ``record``). The tracker stops
        counting a ball hidden while it ran as moving after ``MotionConfig.hidden_moving_timeout_s``
        (a stroke must end), but a red sent creeping under the player's body as he addresses the
        cue ball has not stopped for that: the cue ball struck then, the stroke is played while it
        moves (3.15), and the red, found later away from its last place, was not set off by the cue
        ball."""
        runners = {}
        for label in record.xy:
            kept = self._sighted.get(label)
            if record.visible.get(label, False) or not kept:
                continue
            k = len(kept) - 1
            while k >= 0 and kept[k][0] > record.t:
                k -= 1  # seen again since (the stroke's start is traced back a few frames)
            if k < 1 or not kept[k][2]:
                continue
            lost = self._roll_time(label, kept, k, record, rest)
            if record.t - lost.t < lost.runs_s:
                runners[label] = lost
        return runners

    def _roll_time(
        self,
        label: str,
        kept: deque[tuple[float, np.ndarray, bool]],
        k: int,
        record: _FrameRecord,
        rest: dict[str, np.ndarray],
    ) -> _Lost:
        """How long after its sighting ``kept[k]``, its last, a ball hidden while it ran may still
        be running, and whether it ran free of anything in its way. Its speed and heading are
        those of the chord from its first sighting in the last ``vanished_speed_span_s`` up to
        ``kept[k]`` (at least the one before: over frames it was hidden between them, the mean speed
        it ran at meanwhile), not of its last step alone, whose end a hand over the ball or a
        repeated picture may pull off by a few mm (a few hundred mm/s over one frame). Slowing by at
        least ``roll_deceleration_mm_s2``, it runs speed / that free; but a cushion, a pocket's jaws or a
        ball (where ``rest`` says, else where seen on ``record``) ahead on its heading, within the
        distance it rolls, takes its speed: off a cushion or the jaws it runs on with at most
        ``cushion_return_ratio`` of its speed across them, off a ball with at most
        ``ball_follow_ratio`` of it along the line of centres, slowing as before (each thing it
        meets after slows it more). A ball seen on ``record`` where it rested, not moving, was not
        reached: the runner had stopped, or turned off its heading, before it would have reached
        it, and is not counted running past then."""
        cfg = self.config
        slowing = cfg.roll_deceleration_mm_s2
        t1, xy1 = kept[k][0], kept[k][1]
        j = k - 1
        while j > 0 and kept[j - 1][0] >= t1 - cfg.vanished_speed_span_s:
            j -= 1
        heading = xy1 - kept[j][1]
        norm = float(np.linalg.norm(heading))
        speed = norm / max(t1 - kept[j][0], 1e-9)
        if norm == 0.0 or speed == 0.0:
            return _Lost(t1, xy1, speed / slowing, True)
        reach_mm = speed * speed / (2.0 * slowing)
        ahead = self._first_in_the_way(label, xy1, heading / norm, reach_mm, record, rest)
        if ahead is None:
            return _Lost(t1, xy1, speed / slowing, True)
        distance, runs_on, ball = ahead
        # slowing faster, it reaches what it meets later, up to 2 distance / speed where it stops at
        # it, and runs on for less: the longer of that and the run off it at ``slowing`` bounds all
        latest_there_s = 2.0 * distance / speed
        if ball is not None and record.t - t1 >= latest_there_s and self._unmoved(ball, record, rest):
            return _Lost(t1, xy1, latest_there_s, False)
        speed_there = math.sqrt(max(speed * speed - 2.0 * slowing * distance, 0.0))
        return _Lost(t1, xy1, max((speed - (1.0 - runs_on) * speed_there) / slowing, latest_there_s), False)

    def _first_in_the_way(
        self,
        label: str,
        start: np.ndarray,
        heading: np.ndarray,
        reach_mm: float,
        record: _FrameRecord,
        rest: dict[str, np.ndarray],
    ) -> tuple[float, float, str | None] | None:
        """What a ball running from ``start`` along the unit ``heading`` meets first within
        ``reach_mm``: (the distance its centre runs to it, the most of its speed it runs on with
        after it, the ball met or None for a cushion or a pocket's jaws); None if nothing."""
        cfg, table = self.config, self.table
        r = table.ball_radius_mm
        best: tuple[float, float, str | None] | None = None
        for axis, size in ((0, table.width_mm), (1, table.length_mm)):
            step = float(heading[axis])
            if step == 0.0:
                continue
            distance = max(0.0, ((size - r if step > 0.0 else r) - float(start[axis])) / step)
            across = abs(step)
            runs_on = math.sqrt(max(1.0 - across * across, 0.0) + (cfg.cushion_return_ratio * across) ** 2)
            if distance <= reach_mm and (best is None or distance < best[0]):
                best = (distance, runs_on, None)
        pocket = ev.pocket_ahead(start, heading, table, 0.0)  # its line between the jaws
        if pocket is not None:
            distance = max(0.0, float((np.array(table.pockets[pocket].mouth_centre) - start) @ heading))
            if distance <= reach_mm and (best is None or distance < best[0]):
                best = (distance, cfg.cushion_return_ratio, None)
        for other, seen_at in record.xy.items():
            place = rest.get(other, seen_at)
            if other == label or not (other in rest or record.visible.get(other, False)):
                continue
            along = float((place - start) @ heading)
            off_line = float(np.linalg.norm(place - start - along * heading))
            if along <= 0.0 or off_line >= 2.0 * r:
                continue
            distance = along - math.sqrt(4.0 * r * r - off_line * off_line)
            if distance < 0.0 or distance > reach_mm or (best is not None and distance >= best[0]):
                continue
            along_centres = math.sqrt(max(1.0 - (off_line / (2.0 * r)) ** 2, 0.0))
            runs_on = math.sqrt(1.0 - along_centres**2 + (cfg.ball_follow_ratio * along_centres) ** 2)
            best = (distance, runs_on, other)
        return best

    def _unmoved(self, label: str, record: _FrameRecord, rest: dict[str, np.ndarray]) -> bool:
        """Whether ``label`` is seen on ``record`` not moving, no farther than ``clear_departure_mm``
        from where ``rest`` says it rested (where it is seen, if it says nothing)."""
        if not record.visible.get(label, False) or record.moving.get(label, False):
            return False
        place = rest.get(label)
        if place is None:
            return True
        return float(np.linalg.norm(record.xy[label] - place)) <= self.config.clear_departure_mm

    def _stopped_where_found(self, frames: list[_FrameRecord]) -> dict[str, np.ndarray]:
        """The balls hidden at the stroke's start while they might still run (``_hidden_at_start``)
        found again in ``frames`` (from the stroke's start on) not moving (the tracker's at-rest
        decision; a ball found away from where it was predicted reads moving until its jump leaves
        the tracker's window, so the first sighting read at rest, every sighting before it no
        farther from it than ``clear_departure_mm``), where nothing lay in their way, no farther
        from where each was lost than it could have rolled to a stop before the start: slowing by
        at least ``roll_deceleration_mm_s2``, a ball that stopped a distance s straight on stopped
        within sqrt(2 s / that) of when it was lost. Each with the place it was found at rest."""
        cfg = self.config
        start_t, stopped = frames[0].t, {}
        for label, lost in self._hidden_at_start.items():
            if not lost.ran_free:
                continue
            found = [f for f in frames[1:] if f.visible.get(label, False)]
            still = next((f for f in found if not f.moving.get(label, False)), None)
            if still is None:
                continue
            place = still.xy[label]
            before = [f.xy[label] for f in found if f.t < still.t]
            if any(float(np.linalg.norm(xy - place)) > cfg.clear_departure_mm for xy in before):
                continue  # found running: it may have run on until then
            run_mm = float(np.linalg.norm(place - lost.xy))
            if start_t - lost.t >= math.sqrt(2.0 * run_mm / cfg.roll_deceleration_mm_s2):
                stopped[label] = place
        return stopped

    def _running(self, record: _FrameRecord) -> list[StrokeEvents]:
        now = len(self._frames) - 1
        cfg = self.config
        if (
            self._rest_since is not None
            and record.t - self._frames[self._rest_since].t >= cfg.rest_duration_s
        ):
            # Held open past ``rest_duration_s`` for a ball on a pocket's edge: the rest timer
            # stands (that ball's jitter, or its fall, does not restart it) unless play goes on.
            if self._play_goes_on(record):
                ended = self._end_at_rest(rest_end=len(self._frames) - 2)
                self._idle(record)
                return ended
            return [] if self._may_yet_drop(record) else self._end_at_rest()
        struck = self._struck_again(now)
        if struck is None:
            struck = self._turned_by_a_strike(now)
        if struck is None:
            struck = self._set_off_by_the_cue_ball(now)
            if struck is not None and self._struck_after_rest(struck) is None:
                struck = None  # a ball of the stroke may have set it off
        settled_since = None if struck is None else self._struck_after_rest(struck)
        if settled_since is not None:
            # Every ball had stopped before the cue ball was struck again: the stroke ended where
            # they came to rest (the strike came sooner than ``rest_duration_s`` would end it), and
            # the next one starts with the strike, the balls where they came to rest.
            self._rest_since = settled_since
            ended = self._end_at_rest(rest_end=struck - 1)
            start = struck - 1 - settled_since  # the frames before the rest are gone
            self._begin(start, self._frames[start + 1].frame, self._rest)
            return ended
        if struck is not None:
            # The cue ball was struck again while balls still ran: the stroke ends on the frame
            # before, and the next one starts there with the balls where they were.
            before = frozenset(self._before)
            stroke, pending = self._close(struck - 1, truncated=False, interrupted=True)
            self._held.append(_Held(stroke, pending, before))
            self._begin(0, self._frames[1].frame, {}, restruck=True)
            return self._release()
        if any(record.moving.values()) and not self._only_edge_jitter(record):
            self._rest_since = None
            return []
        if self._rest_since is None:
            self._rest_since = now
        if record.t - self._frames[self._rest_since].t < cfg.rest_duration_s or self._may_yet_drop(record):
            return []
        return self._end_at_rest()

    def _set_off_by_the_cue_ball(self, now: int) -> int | None:
        """Index of the frame after the cue ball, standing still, was struck into a ball standing
        still within a diameter plus ``onset_displacement_mm`` of it, if it was: that ball's
        sightings since it last stood still (its step from the sighting before no longer than
        ``start_min_step_mm``, the cue ball's too) each farther from its place than the one before,
        at least ``steady_sighting_frames`` of them, the last clear of it (``clear_departure_mm``),
        and it left within ``set_off_with_max_angle_deg`` of the line from the cue ball's centre
        through its own (a struck ball leaves along the line of centres), its first step within
        ``restrike_hidden_max_s`` of now less those sightings. Stunned dead into it (no spin), the
        cue ball stops where they met, a few mm on: it never runs, and only the ball it hit shows
        the stroke. A resting centre that jumps (a player's body over it) comes back, and a ball
        set off by something else leaves any way. The caller checks that every ball stood still
        before (:meth:`_struck_after_rest`)."""
        cfg = self.config
        steady, still = cfg.steady_sighting_frames, cfg.start_min_step_mm
        hidden = max(cfg.start_confirm_frames, self._frames_within(now, cfg.restrike_hidden_max_s))
        floor = 1 if self._start_index is None else self._start_index + 1
        reach = self.table.ball_diameter_mm + cfg.onset_displacement_mm
        for j in range(now - steady, max(floor, now - steady - hidden) - 1, -1):
            record, before = self._frames[j], self._frames[j - 1]
            if not (record.visible.get(CUE_BALL, False) and before.visible.get(CUE_BALL, False)):
                continue
            cue = record.xy[CUE_BALL]
            if float(np.linalg.norm(cue - before.xy[CUE_BALL])) > still:
                continue
            run = self._frames[j + 1 : now + 1]
            for label, place in record.xy.items():
                if label == CUE_BALL or not (
                    record.visible.get(label, False) and before.visible.get(label, False)
                ):
                    continue
                if float(np.linalg.norm(place - before.xy[label])) > still:
                    continue
                if float(np.linalg.norm(place - cue)) > reach:
                    continue
                if not all(f.visible.get(label, False) for f in run):
                    continue
                away = [float(np.linalg.norm(f.xy[label] - place)) for f in run]
                if away[0] <= still or away[-1] <= cfg.clear_departure_mm:
                    continue
                if any(b <= a for a, b in itertools.pairwise(away)):
                    continue
                if _turn_deg(run[-1].xy[label] - place, place - cue) > cfg.set_off_with_max_angle_deg:
                    continue
                return j + 1
        return None

    def _struck_after_rest(self, struck: int) -> int | None:
        """The index of the first frame of the ``restrike_after_rest_s`` before the cue ball was
        struck again (``self._frames[struck]`` its first sighting after, see :meth:`_struck_again`)
        if every ball stood still over them: each sighting within ``onset_displacement_mm`` of where
        the ball was seen last before the strike, and no ball hidden while it ran (read moving; one
        gone into a pocket, :meth:`_into_a_pocket`, runs no more). Else None. Between strokes too
        (from the first frame kept). Judged on the places, not on the tracker's moving flags: a
        resting centre that jumped (the player's body over the ball) keeps its flag up for
        ``MotionConfig.rest_window_s`` after it stopped. Then no ball of the stroke still ran: the
        strike is the next stroke's."""
        cfg = self.config
        floor = 0 if self._start_index is None else self._start_index
        last = self._frames[struck - 1]
        first = struck - 1
        while first > floor and last.t - self._frames[first - 1].t <= cfg.restrike_after_rest_s + 1e-9:
            first -= 1
        if last.t - self._frames[first].t < cfg.restrike_after_rest_s - 1e-9:
            return None
        places: dict[str, np.ndarray] = {}
        for record in reversed(self._frames[first:struck]):
            for label, xy in record.xy.items():
                if not record.visible.get(label, False):
                    if record.moving.get(label, False) and not self._into_a_pocket(label):
                        return None
                    continue
                place = places.setdefault(label, xy)
                if float(np.linalg.norm(xy - place)) > cfg.onset_displacement_mm:
                    return None
        return first

    def _end_at_rest(self, rest_end: int | None = None) -> list[StrokeEvents]:
        """Close the running stroke where its balls came to rest (``self._rest_since``); their rest
        lasted until ``self._frames[rest_end]`` (None: until now)."""
        assert self._rest_since is not None
        released = self._release(judge=True)
        stopped_short = self._stopped_short(self._rest_since)
        fell = None if stopped_short else self._cue_ball_fell(self._rest_since)
        last = self._frames[-1 if rest_end is None else rest_end]
        reported = {pot.label for pot in self._pots} | set(self._offs)
        awaited = {
            label
            for label in self._before
            if label not in reported and not last.visible.get(label, True) and self._into_a_pocket(label)
        }
        before = frozenset(self._before)
        stroke, _ = self._close(self._rest_since, truncated=False, rest_end=rest_end)
        if fell is not None:
            self.outside_events.append(fell)
        if stopped_short or fell is not None:
            return released
        if awaited:
            self._held.append(_Held(stroke, {}, before, awaiting=awaited))
            return released
        return [*released, stroke]

    def _into_a_pocket(self, label: str) -> bool:
        """Whether ``label``, unseen, went into a pocket or off the table: the tracker said so in
        the running stroke, or it was last seen running on a pocket's edge
        (``edge_fall_mouth_reach_mm`` of its mouth), from where it cannot run on over the cloth
        unseen (it dropped, or lies in the jaws). The tracker holds a lost ball moving for a while
        (``MotionConfig.hidden_moving_timeout_s``): such a ball is no ball still running."""
        if label in self._offs or any(pot.label == label for pot in self._pots):
            return True
        kept = self._sighted.get(label)
        return bool(kept) and kept[-1][2] and self._on_a_pocket_edge(kept[-1][1])

    def _edge_balls(self) -> list[str]:
        """The balls of the running stroke that were at rest within ``edge_fall_mouth_reach_mm`` of a
        pocket's mouth when every ball stopped (``self._rest_since``), not yet reported potted."""
        assert self._rest_since is not None
        potted = {pot.label for pot in self._pots}
        rest = self._frames[self._rest_since]
        return [label for label, xy in rest.xy.items() if label not in potted and self._on_a_pocket_edge(xy)]

    def _only_edge_jitter(self, record: _FrameRecord) -> bool:
        """Whether every ball flagged moving on ``record`` is one of :meth:`_edge_balls` still within
        ``onset_displacement_mm`` of where it rested when every ball stopped: a ball on a pocket's
        lip whose measured centre jitters, which does not restart the rest (its rest counts towards
        ``edge_drop_moment_s`` and ``edge_fall_min_rest_s``)."""
        if self._rest_since is None:
            return False
        rest, edge = self._frames[self._rest_since], set(self._edge_balls())
        near = self.config.onset_displacement_mm
        return all(
            label in edge and float(np.linalg.norm(record.xy[label] - rest.xy[label])) <= near
            for label, moving in record.moving.items()
            if moving
        )

    def _play_goes_on(self, record: _FrameRecord) -> bool:
        """Whether, while the stroke is held open for a ball on a pocket's edge, a ball elsewhere is
        seen moving more than ``onset_displacement_mm`` from where it rested when every ball
        stopped (the next stroke, a ball moved by hand): the stroke is over. So it is when a ball on
        the edge is seen moving clear of where it rested (``clear_departure_mm``: beyond its creep
        into the jaws) out on the cloth, off every pocket's edge: a ball falling in never goes there
        (a cue ball that came to rest in the jaws, struck again)."""
        assert self._rest_since is not None
        rest, edge = self._frames[self._rest_since], set(self._edge_balls())
        near, clear = self.config.onset_displacement_mm, self.config.clear_departure_mm

        def set_off(label: str, xy: np.ndarray) -> bool:
            if label not in edge:
                return float(np.linalg.norm(xy - rest.xy[label])) > near
            return float(np.linalg.norm(xy - rest.xy[label])) > clear and not self._on_a_pocket_edge(xy)

        return any(
            record.visible.get(label, False)
            and record.moving.get(label, False)
            and label in rest.xy
            and set_off(label, xy)
            for label, xy in record.xy.items()
        )

    def _may_yet_drop(self, record: _FrameRecord) -> bool:
        """Whether a ball may yet fall from the edge of a pocket as part of the running stroke
        (3.9(c): a ball that balances a moment and falls is potted in it): one of
        :meth:`_edge_balls` still seen (still, or tipping over the lip) less than
        ``edge_drop_moment_s`` after every ball stopped, or one last seen within that moment and
        not yet reported potted, for ``edge_drop_verdict_s`` after it was last seen (the tracker
        confirms a pot some frames after the ball vanished). The moment counts from when that ball
        settled there (:meth:`_settled_on_edge`)."""
        cfg = self.config
        assert self._rest_since is not None
        for label in self._edge_balls():
            if label not in record.xy:
                continue
            rest_t = self._settled_on_edge(label)
            if record.visible.get(label, False):
                if record.t - rest_t < cfg.edge_drop_moment_s:
                    return True
                continue
            seen = next(
                (f.t for f in reversed(self._frames[self._rest_since :]) if f.visible.get(label, False)), None
            )
            if (
                seen is not None
                and seen - rest_t < cfg.edge_drop_moment_s
                and record.t - seen < cfg.edge_drop_verdict_s
            ):
                return True
        return False

    def _settled_on_edge(self, label: str) -> float:
        """When ``label``, resting on a pocket's edge, settled there (s): the first of its sightings
        since every ball read at rest (``self._rest_since``) from which all its sightings over the
        next ``rest_duration_s`` (up to the last one) lie within ``onset_displacement_mm`` of their
        median (a resting centre's jitter does, one sighting off it does not shift the median). A
        ball creeping into a pocket's jaws a few mm a frame reads at rest before it stops
        (``MotionConfig.rest_displacement_mm`` over ``rest_window_s``: a red crawling into a corner
        at 35 mm/s on a rendered overhead clip read at rest 0.6 s before it stopped); its moment on
        the edge (``edge_drop_moment_s``) starts when it stopped. Its fall, at the end, moves it
        after it settled and does not count. The time every ball read at rest where it was not
        seen since."""
        frames = self._frames[self._rest_since :]
        seen = [(f.t, f.xy[label]) for f in frames if f.visible.get(label, False) and label in f.xy]
        if not seen:
            return frames[0].t
        t = np.array([s[0] for s in seen])
        xy = np.array([s[1] for s in seen], dtype=float)
        cfg = self.config
        for k in range(len(seen)):
            near = xy[(t >= t[k]) & (t <= t[k] + cfg.rest_duration_s)]
            if np.all(np.linalg.norm(near - np.median(near, axis=0), axis=1) <= cfg.onset_displacement_mm):
                return max(float(t[k]), frames[0].t)
        return frames[0].t

    def _on_a_pocket_edge(self, xy: np.ndarray) -> bool:
        """Whether a ball centre at ``xy`` (mm) lies within ``edge_fall_mouth_reach_mm`` of a pocket's
        mouth."""
        reach = self.config.edge_fall_mouth_reach_mm
        return any(
            math.hypot(float(xy[0]) - p.mouth_centre[0], float(xy[1]) - p.mouth_centre[1]) <= reach
            for p in self.table.pockets.values()
        )

    def _watch_held(self, record: _FrameRecord) -> list[StrokeEvents]:
        """Drop from the held strokes' pending balls those seen again on ``record``: on
        ``steady_sighting_frames`` frames in a row, themselves or a track of their kind first found
        since their stroke began (the ball found again: the table gains no balls). Returns the held
        strokes that are then judged (see :meth:`_release`)."""
        if not self._held:
            return []
        steady = self.config.steady_sighting_frames
        for held in self._held:
            held.awaiting = {label for label in held.awaiting if self._sighting_runs.get(label, 0) < steady}
            for label in list(held.pending):
                if self._sighting_runs.get(label, 0) >= steady:
                    del held.pending[label]
                    continue
                found = next(
                    (
                        new
                        for new in record.xy
                        if new not in held.before
                        and new not in held.claimed
                        and ball_kind(new) == ball_kind(label)
                        and self._sighting_runs.get(new, 0) >= steady
                    ),
                    None,
                )
                if found is not None:
                    held.claimed.add(found)
                    del held.pending[label]
        return self._release()

    def _release(self, judge: bool = False) -> list[StrokeEvents]:
        """The held strokes, in order, up to the first with a ball still pending; ``judge`` (the
        balls have come to rest, or the video ended): all of them, a ball still pending taking the
        judgement its stroke made of it (potted where its path led, or off the table), and left out
        of where the stroke closed next leaves the balls."""
        out = []
        while self._held and (judge or not (self._held[0].pending or self._held[0].awaiting)):
            held = self._held.pop(0)
            stroke = held.stroke
            if held.pending:
                self._judged_gone |= set(held.pending)
                pots = tuple(pot for pot in held.pending.values() if pot is not None)
                offs = tuple(label for label, pot in held.pending.items() if pot is None)
                stroke = replace(
                    stroke,
                    potted=stroke.potted + pots,
                    off_table=stroke.off_table + offs,
                    positions_after={
                        label: xy for label, xy in stroke.positions_after.items() if label not in held.pending
                    },
                )
            out.append(stroke)
        return out

    def _stopped_short(self, end: int) -> bool:
        """Whether the stroke up to ``self._frames[end]`` was no stroke: only the cue ball moved
        (every other ball within twice the onset displacement of where it rested, none potted, off
        or gone), it came off no cushion (``events.cushion_contacts``) and within reach of no ball (one
        held against a cushion would not move), and its path (between its sightings) was shorter
        than its fastest step between two sightings would have carried it at
        ``max_deceleration_mm_s2``. Never where the table went unwatched for ``unwatched_gap_s``
        in it (a camera's drop-out, a cut): what the balls did then was not seen."""
        assert self._start_index is not None
        cfg = self.config
        if self._pots or self._offs or self._restruck or CUE_BALL not in self._before:
            return False
        frames = self._frames[self._start_index : end + 1]
        if len(frames) > 1 and max(np.diff([f.t for f in frames])) >= cfg.unwatched_gap_s:
            return False
        if not set(self._before) <= set(frames[-1].xy):
            return False  # a ball gone from the table (its pot inferred when the stroke closes)
        for label, rest in self._before.items():
            if label == CUE_BALL:
                continue
            for f in frames:
                seen_there = label in f.xy and f.visible.get(label, False)
                if seen_there and np.linalg.norm(f.xy[label] - np.asarray(rest)) > cfg.clear_departure_mm:
                    return False
        seen = [f for f in frames if f.visible.get(CUE_BALL, False) and CUE_BALL in f.xy]
        t = np.array([f.t for f in frames])
        if len(seen) < 2 or ev.cushion_contacts(t, self._path(frames, CUE_BALL), cfg, self.table):
            return False
        steps = [
            (float(np.linalg.norm(b.xy[CUE_BALL] - a.xy[CUE_BALL])), b.t - a.t)
            for a, b in itertools.pairwise(seen)
        ]
        fastest = max(step / max(dt, 1e-9) for step, dt in steps)
        others = [np.asarray(xy) for label, xy in self._before.items() if label != CUE_BALL]
        if others and any(
            np.linalg.norm(np.array(others) - f.xy[CUE_BALL], axis=1).min() <= self._contact_reach_mm
            for f in seen
        ):
            return False  # it may have hit a ball that could not move (against a cushion)
        run = sum(step for step, _ in steps)
        return run < fastest**2 / (2.0 * cfg.max_deceleration_mm_s2)

    def _cue_ball_fell(self, end: int) -> OutsideEvent | None:
        """The cue ball's edge fall (an outside event), where the stroke up to ``self._frames[end]``
        was none: the cue ball alone went, into a pocket, every other ball stayed where it rested
        (within the clear departure), no ball or track near it, having rested on that pocket's edge
        as :meth:`_edge_fall` requires (a cue ball tipping over the edge runs off like a struck one
        and starts a stroke; struck there, it would have been seen at rest only briefly, or a cue
        and hand by it). None where that is not shown: the stroke stands (an in-off)."""
        assert self._start_index is not None
        if self._restruck or self._strike_unseen or self._offs or [p.label for p in self._pots] != [CUE_BALL]:
            return None
        frames = self._frames[self._start_index : end + 1]
        for label, rest in self._before.items():
            if label == CUE_BALL:
                continue
            for f in frames:
                seen = label in f.xy and f.visible.get(label, False)
                if seen and np.linalg.norm(f.xy[label] - np.asarray(rest)) > self.config.clear_departure_mm:
                    return None
        pot = self._pots[0]
        last = self._before.get(CUE_BALL)
        if last is None:
            return None
        event = TrackEvent("potted", CUE_BALL, pot.frame, self._frames[end].t, last, pot.pocket)
        fell, why = self._edge_fall(event)
        if not fell:
            return None
        return OutsideEvent("potted", CUE_BALL, pot.frame, last, None, pot.pocket, True, why)

    def _struck_again(self, now: int) -> int | None:
        """Index of the frame after the cue ball was struck again, if it was (judged once it has
        been seen on ``start_confirm_frames`` frames since; the strike itself may be hidden, or
        fall inside the window, for as many, or for ``restrike_hidden_max_s`` at a higher frame
        rate): it was at rest or nearly (its speed along its path), then it ran off at a gained
        speed (see :meth:`_ran_on`), with no other ball near it and no cushion within
        ``restrike_cushion_reach_mm`` (a collision, or a bounce between two sightings, would
        explain the jump), unless every ball stood still before (:meth:`_struck_after_rest`: no
        ball ran into it, nor it into a cushion). The strike falls anywhere between two frames:
        seen on both, the step between them may show only part of the gain (struck a third of the
        way in, two thirds of it), so the run may instead be read from the sighting after that
        step, one frame later."""
        assert self._start_index is not None
        cfg = self.config
        n = cfg.start_confirm_frames
        hidden = max(n, self._frames_within(now, cfg.restrike_hidden_max_s))
        # only the last 2n + hidden + 1 frames are looked at: no need to walk the whole stroke
        lo = max(0, now - 2 * n - hidden - 1)
        window = [f.visible.get(CUE_BALL, False) for f in self._frames[lo : now + 1]]

        def seen(first: int, last: int) -> list[bool]:
            return window[first - lo : last + 1 - lo]

        if not all(seen(now - n + 1, now)):
            return None
        for last_before in range(now - n, now - n - hidden - 1, -1):
            first_before = last_before - n
            if first_before <= self._start_index + n:
                return None  # the stroke's own strike is still in the window
            if not all(seen(first_before, last_before)):
                continue
            speed_before = self._cue_speed(first_before, last_before)
            if speed_before > cfg.restrike_max_speed_mm_s:
                continue
            struck_within = window[last_before + 1 - lo] and any(seen(last_before + 2, now - 1))
            if not (
                self._ran_on(last_before, now, speed_before, window, lo)
                or (struck_within and self._ran_on(last_before + 1, now, speed_before, window, lo))
            ):
                continue
            shown = [i for i in range(last_before, now - n + 2) if CUE_BALL in self._frames[i].xy]
            after_rest = self._struck_after_rest(last_before + 1) is not None
            if not after_rest and self._met_a_ball(shown):
                continue  # another ball right there: a collision (a ball at rest hits nothing)
            if not after_rest and any(
                self._by_cushion(f.xy[CUE_BALL], cfg.restrike_cushion_reach_mm)
                for f in self._frames[first_before : now - n + 2]
                if CUE_BALL in f.xy
            ):
                continue  # a cushion right there: a bounce between two sightings
            return last_before + 1
        return None

    def _cue_speed(self, first: int, last: int) -> float:
        """``_speed`` of the cue ball over ``self._frames[first : last + 1]``. :meth:`_struck_again`
        asks for each window on several frames in a row (as many as it looks back over), and a
        window's records (the same objects, in the same order: records are only appended, and
        dropped from the front) and their places are the same each time until a retraction
        rewrites them (:meth:`_retract` forgets these speeds): the speed of the first asking."""
        a, b = self._frames[first], self._frames[last]
        key = (id(a), id(b))
        known = self._cue_speeds.get(key)
        if known is not None and known[0] is a and known[1] is b:
            return known[2]
        if len(self._cue_speeds) >= _CUE_SPEEDS_KEPT:
            self._cue_speeds.clear()
        speed = _speed(self._frames[first : last + 1], CUE_BALL)
        self._cue_speeds[key] = (a, b, speed)
        return speed

    def _turned_by_a_strike(self, now: int) -> int | None:
        """Index of the frame after the cue ball was struck again, read from its change of velocity
        (a rolling cue ball struck back or sideways need not gain speed): its velocity before and
        after is the least-squares line through ``restrike_fit_sightings`` sightings (or as many as
        span ``restrike_fit_span_s``) on each side of two consecutive ones (see
        :meth:`_struck_between`). A strike between two frames may
        show on two splits in a row (the sighting just before it lies near both lines): it is
        judged one sighting later, and the split whose sightings lie closer to their lines wins.
        A picture shown twice (the same place on the next frame) is one sighting."""
        assert self._start_index is not None
        cfg = self.config
        k = max(cfg.restrike_fit_sightings, self._frames_within(now, cfg.restrike_fit_span_s) + 1)
        hidden = max(cfg.start_confirm_frames, self._frames_within(now, cfg.restrike_hidden_max_s))
        if not self._frames[now].visible.get(CUE_BALL, False):
            return None
        lo = max(self._start_index + cfg.start_confirm_frames + 1, now - 2 * (2 * k + 1 + hidden))
        sightings: list[int] = []
        for i in range(lo, now + 1):
            if not self._frames[i].visible.get(CUE_BALL, False):
                continue
            if (
                sightings
                and sightings[-1] == i - 1
                and same_place(self._frames[i].xy[CUE_BALL], self._frames[i - 1].xy[CUE_BALL])
            ):
                continue  # the picture shown twice: its first showing dates it
            sightings.append(i)
        if len(sightings) < 2 * k + 1 or sightings[-1] != now:
            return None
        earlier = self._struck_between(sightings[-2 * k - 1 : -1], hidden)
        if earlier is None:
            return None
        later = self._struck_between(sightings[-2 * k :], hidden)
        return (later if later is not None and later[1] < earlier[1] else earlier)[0]

    def _struck_between(self, sightings: list[int], hidden: int) -> tuple[int, float] | None:
        """Whether the cue ball was struck between the middle two of ``sightings`` (frame indices,
        as many before as after, at most ``hidden`` frames unseen between the two): the index of
        the frame after the last before, and the larger RMS distance of the two sides' sightings
        from their lines; None if not. It was at rest or nearly before
        (``restrike_max_speed_mm_s``), ran off after (``restrike_min_speed_after_mm_s``) and was
        struck if the two velocities differ by at least
        ``restrike_min_velocity_change_mm_s`` and by more than friction changes it in the time
        between the two windows' centres (``restrike_max_friction_mm_s2``: impulsive), each side's
        sightings lie on their line (``restrike_fit_residual_mm``: a detected centre that jumps
        and comes back, or a track that jumps, does not) and the two lines meet between the two
        sightings (``restrike_meeting_mm``: the ball was in one place when struck), with no other
        ball near it and no cushion within ``restrike_cushion_reach_mm`` (a collision, a bounce)."""
        cfg = self.config
        half = len(sightings) // 2
        before, after = sightings[:half], sightings[half:]
        last_before, first_after = before[-1], after[0]
        if first_after - last_before > hidden + 1:
            return None
        if any(j - i > hidden + 1 for run in (before, after) for i, j in itertools.pairwise(run)):
            return None  # a side with sightings missed for longer than the strike may be hidden
        times = [self._frames[i].t for i in range(sightings[0], sightings[-1] + 1)]
        if max(np.diff(times)) >= cfg.unwatched_gap_s:
            return None  # the table was not watched: what the track did then is no motion
        # the line after is fitted only for a ball at rest or nearly before (most windows of a
        # running stroke are not: every test below answers None either way)
        fit_before = self._cue_line(before)
        if fit_before is None:
            return None
        t0, p0, v0, residual0 = fit_before
        if float(np.linalg.norm(v0)) > cfg.restrike_max_speed_mm_s:
            return None
        fit_after = self._cue_line(after)
        if fit_after is None:
            return None
        t1, p1, v1, residual1 = fit_after
        if float(np.linalg.norm(v1)) < cfg.restrike_min_speed_after_mm_s:
            return None  # stopped, not struck
        residual = max(residual0, residual1)
        if residual > cfg.restrike_fit_residual_mm:
            return None
        change = float(np.linalg.norm(v1 - v0))
        if change < max(cfg.restrike_min_velocity_change_mm_s, cfg.restrike_max_friction_mm_s2 * (t1 - t0)):
            return None
        # where the two lines come closest between the two sightings
        ta, tb = self._frames[last_before].t, self._frames[first_after].t
        offset, drift = (p0 - v0 * t0) - (p1 - v1 * t1), v0 - v1
        at = float(np.clip(-offset @ drift / max(float(drift @ drift), 1e-9), ta, tb))
        if float(np.linalg.norm(offset + drift * at)) > cfg.restrike_meeting_mm:
            return None
        for i in sightings:
            if self._by_cushion(self._frames[i].xy[CUE_BALL], cfg.restrike_cushion_reach_mm):
                return None  # a cushion right there: a bounce
        if self._met_a_ball(sightings):
            return None  # another ball right there: a collision
        return last_before + 1, residual

    def _cue_line(self, indices: list[int]) -> tuple[float, np.ndarray, np.ndarray, float] | None:
        """The least-squares line through the cue ball's sightings on ``indices``: (mean time,
        position then, velocity mm/s, RMS distance of the sightings from it in mm)."""
        t = np.array([self._frames[i].t for i in indices])
        xy = np.array([self._frames[i].xy[CUE_BALL] for i in indices])
        t_mean = float(t.mean())
        dt = t - t_mean
        spread = float(dt @ dt)
        if spread <= 0.0:
            return None
        centre = xy.mean(axis=0)
        velocity = dt @ (xy - centre) / spread
        residual = xy - centre - np.outer(dt, velocity)
        return t_mean, centre, velocity, float(np.sqrt((residual**2).sum(axis=1).mean()))

    @property
    def _contact_reach_mm(self) -> float:
        """How close (mm) two centres come when their balls touch, within the contact tolerance."""
        return self.table.ball_diameter_mm + self.config.contact_tolerance_mm

    def _met_a_ball(self, indices: list[int]) -> bool:
        """Whether another ball came within contact reach of the cue ball on a frame of ``indices``
        (each showing the cue ball), on the way there from the frame before, or in the frame
        interval after it, going on as it came, the first index's frame before included (the
        meeting may fall just before a window). A collision would explain any change of the cue
        ball's motion there. A ball running into it at 1.7 m/s moves 67 mm a frame at 25 fps: seen
        a frame before the meeting it is farther off than the reach, and a frame after it farther
        again."""
        if not indices:
            return False
        reach = self._contact_reach_mm
        first = indices[0] - 1
        earlier = [first] if first >= 0 and CUE_BALL in self._frames[first].xy else []
        for index in earlier + list(indices):
            frame, before = self._frames[index], self._frames[index - 1] if index > 0 else None
            cue = frame.xy[CUE_BALL]
            for label, xy in frame.xy.items():
                if label == CUE_BALL:
                    continue
                if before is None or label not in before.xy or CUE_BALL not in before.xy:
                    met = float(np.linalg.norm(xy - cue))
                else:
                    cue_was, was = before.xy[CUE_BALL], before.xy[label]
                    met = min(
                        ev.closest_in_step(cue_was, cue, was, xy, reach)[0],
                        ev.closest_in_step(cue, 2.0 * cue - cue_was, xy, 2.0 * xy - was, reach)[0],
                    )
                if met <= reach:
                    return True
        return False

    def _by_cushion(self, xy: np.ndarray, reach_mm: float) -> bool:
        """Whether a ball centred at ``xy`` (table mm) is within ``reach_mm`` of touching a cushion."""
        r, table = self.table.ball_radius_mm, self.table
        margins = (xy[0] - r, table.width_mm - r - xy[0], xy[1] - r, table.length_mm - r - xy[1])
        return min(margins) <= reach_mm

    def _ran_on(self, start: int, now: int, speed_before: float, window: list[bool], lo: int) -> bool:
        """Whether the cue ball ran off from its sighting ``self._frames[start]`` in a line at
        ``restrike_min_speed_gain_mm_s`` more than ``speed_before``: its speed over the chord to
        ``now`` (which detector jitter does not lengthen), and over the chord from its first
        sighting after ``start`` (a detected centre that jumps once, on the first step, runs on no
        faster), and where that sighting is on the next frame, on that first step too (a centre
        that jumps once on a later step did not set off at that speed). ``window``: whether the
        cue ball was seen on each frame from ``lo`` to ``now``."""
        gain = self.config.restrike_min_speed_gain_mm_s
        a, b = self._frames[start], self._frames[now]

        def chord(p: _FrameRecord, q: _FrameRecord) -> float:
            return float(np.linalg.norm(q.xy[CUE_BALL] - p.xy[CUE_BALL])) / max(q.t - p.t, 1e-9)

        if chord(a, b) - speed_before < gain:
            return False
        first_after = next(k for k in range(start + 1, now + 1) if window[k - lo])
        c = self._frames[first_after]
        if first_after < now and chord(c, b) - speed_before < gain:
            return False  # it did not run on at that speed after its first sighting: a detected jump
        return first_after > start + 1 or chord(a, c) - speed_before >= gain

    def _frames_within(self, now: int, span_s: float) -> int:
        """How many frame intervals fit in ``span_s`` at the rate of the frames up to ``now``."""
        first = max(0, now - _RATE_FRAMES)
        if now == first:
            return 0
        interval = (self._frames[now].t - self._frames[first].t) / (now - first)
        return int(span_s / interval + 1e-9) if interval > 0 else 0

    def _close(
        self, end: int, truncated: bool, interrupted: bool = False, rest_end: int | None = None
    ) -> tuple[StrokeEvents, dict[str, PotEvent | None]]:
        """The stroke from ``self._start_index`` to ``self._frames[end]``, its balls at rest from
        there to ``self._frames[rest_end]`` (None: to the last frame); ``interrupted``: ended by
        the cue ball struck again while balls still ran. Then a ball the cue ball hit that was never
        seen again (:meth:`_vanished`) may still be running, hidden (under the cue, the player's arm
        as he plays on): it is not judged yet but returned pending, with the pot inferred for it or
        None for off the table, judged only when the balls have come to rest (see :class:`_Held`).
        A ball leaves the table off a cushion or into a pocket; one struck at 1.2 m/s runs for
        seconds, longer than a stroke played while it runs takes to end the one before."""
        assert self._start_index is not None
        frames = self._frames[self._start_index : end + 1]
        t = np.array([f.t for f in frames])
        gaps = np.diff(t)
        labels = sorted({label for f in frames for label in f.xy} | set(self._before))
        paths = {label: self._path(frames, label) for label in labels}
        # A ball hidden while it ran, found again where it stopped before the strike, rested there.
        for label, place in self._stopped_where_found(self._frames[self._start_index :]).items():
            self._before[label] = _pair(place)
            del self._hidden_at_start[label]
            if not frames[0].moving.get(label, False):
                self._running_at_start.discard(label)
        # A ball still running from the stroke before has no resting place to set off from.
        rest = {
            label: np.array(xy) for label, xy in self._before.items() if label not in self._running_at_start
        }
        cue_path = paths.pop(CUE_BALL, None)
        # Only a stroke played while the balls of the one before still ran has balls running at its
        # start for sure: at any other start a ball flagged moving is a track's noise, but one
        # hidden while it ran may run on unseen after the tracker stops counting it moving (the
        # stroke before then ends while it runs).
        carried = (self._running_at_start if self._restruck else set(self._hidden_at_start)) - {CUE_BALL}
        contacts = (
            ()
            if cue_path is None
            else ev.first_contacts(t, cue_path, paths, rest, self.config, self.table, carried)
        )
        cushions = []
        for label, path in ({CUE_BALL: cue_path} | paths).items():
            if path is None:
                continue
            for cushion, k in ev.cushion_contacts(t, path, self.config, self.table):
                cushions.append(CushionContact(label, cushion, frames[k].frame))
        cushions.sort(key=lambda c: (c.frame, c.label))
        last = frames[-1]
        settled_frames = (
            self._frames[end : None if rest_end is None else rest_end + 1]
            if not (truncated or interrupted)
            else [last]
        )
        settled = self._settled_positions(settled_frames)
        settled_px = self._settled_positions(settled_frames, image=True)
        after = {label: _pair(xy) for label, xy in settled.items()}
        cue_after = settled.get(CUE_BALL)
        others_after = {label: xy for label, xy in settled.items() if label != CUE_BALL}
        upto_now = self._frames[self._start_index :]
        seen_until_now = {label: self._path(upto_now, label) for label in paths}
        inferred, gone = self._vanished(upto_now, np.array([f.t for f in upto_now]), seen_until_now, contacts)
        pending: dict[str, PotEvent | None] = {}
        if interrupted:
            pending = {pot.label: pot for pot in inferred} | dict.fromkeys(gone)
            self._offs = [label for label in self._offs if label not in pending]
            inferred, gone = [], []
        inferred += self._gone_unwatched(upto_now, {p.label for p in inferred} | set(gone) | set(pending))
        potted_late = [pot.label for pot in self._pots]  # seen in its place after the balls stopped (3.9(c))
        for label in [pot.label for pot in inferred] + potted_late + gone + sorted(self._judged_gone):
            after.pop(label, None)
            others_after.pop(label, None)
        self._offs = [label for label in self._offs if label not in {pot.label for pot in inferred}]
        pots_object = tuple(p for p in [*self._pots, *inferred] if p.label != CUE_BALL)
        cue_state = "on_table"
        if any(p.label == CUE_BALL for p in self._pots):
            cue_state = "potted"
        elif CUE_BALL in self._offs:
            cue_state = "off_table"
        # A ball the cue ball pushed as it was struck is the ball it hit first, where no contact
        # was read (set off with the strike, it was running on the stroke's first frame).
        pushed = self._touching_moved(t, cue_path, paths)
        stroke = StrokeEvents(
            start_frame=self._start_frame,
            end_frame=last.frame,
            first_contact=tuple(c.label for c in contacts) or pushed,
            potted=pots_object,
            off_table=tuple(label for label in [*self._offs, *gone] if label != CUE_BALL),
            cue_ball=cue_state,
            touching=()
            if truncated or interrupted
            else ev.touching(
                cue_after,
                others_after,
                self.config,
                self.table,
                settled_px,
                self._rest_gaps(settled_frames, others_after),
            ),
            cushion_contacts=tuple(cushions),
            positions_before=dict(self._before),
            positions_after=after,
            truncated=truncated,
            unwatched_s=float(gaps[gaps >= self.config.unwatched_gap_s].sum()),
            strike_unseen=self._strike_unseen,
            position_tolerance_mm=self._cue_place_tolerance(self._frames[self._start_index]),
            moving_at_strike=tuple(sorted(carried)),
            touching_moved=pushed,
        )
        self._start_index = None
        self._judged_gone = set()
        # where each ball settled (averaged since the balls stopped), not the end frame's sighting:
        # a ball creeping a few mm a frame into a pocket's jaws reads at rest before it stops
        self._rest = {label: settled.get(label, xy) for label, xy in last.xy.items() if label in after}
        self._rest_sightings = {}
        self._unsettled = set()
        self._frames = self._frames[end:]
        # every ball has been at rest since the stroke's balls stopped (a lower bound on its own rest)
        self._rest_span = {label: [self._frames[0].t, self._frames[-1].t] for label in self._rest}
        self._left_rest = {}
        self._cue_moving_frames, self._cue_farthest_mm = 0, 0.0
        return stroke, pending

    def _touching_moved(
        self, t: np.ndarray, cue_path: np.ndarray | None, paths: dict[str, np.ndarray]
    ) -> tuple[str, ...]:
        """The object balls the cue ball rested against when it was struck that moved with the
        strike (a push stroke, 3.8(b)), for the stroke from ``self._start_index`` (``t``, ``paths``:
        its frame times and the object balls' sightings, ``cue_path`` the cue ball's, NaN unseen).

        The touch is judged as at a stroke's end (:func:`ev.touching`), on the places the balls
        set off from and their last sightings together at rest before the strike. Such a ball moved
        with the strike when it is seen farther than ``touching_moved_mm`` from its place, truly
        gone from there (:func:`ev.left_its_place`), within ``touching_moved_within_s`` of the
        stroke's start and no later than the cue ball is first seen clear of it (a diameter plus
        ``touching_clear_mm`` from its place): a cue ball played away gets clear first, and hits
        it, if at all, only after (back off a cushion). None for a stroke struck while balls ran or
        whose cue ball was first seen running: it rested against nothing that was seen."""
        cfg = self.config
        assert self._start_index is not None
        if self._restruck or self._strike_unseen or cue_path is None:
            return ()
        if CUE_BALL not in self._before or CUE_BALL in self._hidden_at_start:
            return ()
        # Struck from rest, a ball read moving on the start frame is the pushed ball already
        # running (it sets off faster than the cue ball that pushes it), not one from before.
        places = {
            label: np.array(xy)
            for label, xy in self._before.items()
            if label != CUE_BALL and label not in self._hidden_at_start and label in paths
        }
        # the frames up to the strike on which every ball seen is still in its place
        at_rest = [
            f
            for f in self._frames[: self._start_index + 1]
            if all(
                float(np.linalg.norm(xy - np.array(self._before[label]))) <= cfg.onset_displacement_mm
                for label, xy in f.xy.items()
                if f.visible.get(label, False) and label in self._before
            )
        ]
        if not at_rest:
            return ()
        touching = ev.touching(
            np.array(self._before[CUE_BALL]),
            places,
            cfg,
            self.table,
            at_rest[-1].px,
            self._rest_gaps(at_rest, places),
        )
        clear_of = self.table.ball_diameter_mm + cfg.touching_clear_mm
        moved = []
        for label in touching:
            raw, place = paths[label], places[label]
            away = np.flatnonzero(np.linalg.norm(raw - place, axis=1) > cfg.touching_moved_mm)
            if not len(away) or t[away[0]] - t[0] > cfg.touching_moved_within_s:
                continue
            onset = int(away[0])
            if not ev.left_its_place(raw, place, onset, cfg):
                continue
            got_clear = np.flatnonzero(np.linalg.norm(cue_path - place, axis=1) > clear_of)  # NaN: unseen
            if len(got_clear) and got_clear[0] < onset:
                continue
            moved.append(label)
        return tuple(sorted(moved))

    def _cue_place_tolerance(self, first: _FrameRecord) -> float | None:
        """How far the cue ball's place at a stroke's start may be off (mm): the errors a place has
        besides the rounding of its image centre (``touching_tolerance_mm``) plus that rounding
        (``centre_rounding_px``) in the millimetres a pixel spans there, read off the nearest ball
        seen in the same frame (a pixel spans ~3 mm near a broadcast camera, ~9 at the far end).
        None where no other ball is seen with it."""
        cfg = self.config
        if CUE_BALL not in first.px or CUE_BALL not in first.xy:
            return None
        cue_mm, cue_px = first.xy[CUE_BALL], first.px[CUE_BALL]
        scales = [
            (float(np.linalg.norm(xy - cue_mm)), float(np.linalg.norm(first.px[label] - cue_px)))
            for label, xy in first.xy.items()
            if label != CUE_BALL and label in first.px
        ]
        scales = [(mm, px) for mm, px in scales if px > 0.0]
        if not scales:
            return None
        mm, px = min(scales)
        return cfg.touching_tolerance_mm + cfg.centre_rounding_px * mm / px

    def _vanished(
        self, frames: list[_FrameRecord], t: np.ndarray, paths: dict[str, np.ndarray], contacts
    ) -> tuple[list[PotEvent], list[str]]:
        """Balls the cue ball hit that were never seen again (up to now, which may be after the
        stroke's end): potted where their path led, if it led into a pocket (a fast dark ball in
        motion blur may go undetected all the way); else off the table if they set off fast enough
        to jump (a ball driven into a cushion that flew off in a blur); neither where a ball of its
        kind was first found during the stroke (it, found again). Sightings off the course it was
        struck on, first found too far away to have been seen on its way, are not of it
        (``StrokeConfig.off_course_unseen_mm``), nor is the tracker's reading of it off the table
        from those alone. Returns (pots, labels off)."""
        cfg = self.config
        taken = {p.label for p in self._pots} | set(self._offs)
        # A ball of the same kind first found during the stroke is the lost one found again (the
        # table gains no balls): the tracker started a new track for it.
        found_again = [label for label in frames[-1].xy if label not in self._before]
        pots, offs = [], []
        for contact in contacts:
            label = contact.label
            raw = paths.get(label)
            if raw is None or label not in self._before:
                continue
            rest = np.array(self._before[label])
            kept = self._off_course_dropped(raw, rest, contact)
            # the tracker's "off the table" read off sightings that were not the ball (none of them
            # left: every one away from its place lay off its course) is no reading
            misread_off = label in self._offs and kept is not raw and not self._left_its_place(kept, rest)
            raw = kept
            if label in taken and not misread_off:
                continue
            same_kind = next((new for new in found_again if ball_kind(new) == ball_kind(label)), None)
            if same_kind is not None:
                found_again.remove(same_kind)
                continue
            seen = np.isfinite(raw).all(axis=1)
            last_seen = _last_steady_sighting(seen, cfg.steady_sighting_frames)
            if seen[-1] and last_seen == len(raw) - 1:
                continue
            if t[-1] - t[last_seen] < cfg.vanished_pot_min_s:
                continue
            run = _first_displaced_run(raw, rest, cfg.clear_departure_mm, cfg.steady_sighting_frames)
            course, momentum = _struck_course(contact, rest, cfg.vanished_pot_min_impulse_mm_s)
            turn = self._run_max_turn_deg(label, rest, course)
            if run is not None and momentum and _turn_deg(run - rest, course) > turn:
                run = None  # another thing named like it, not the ball running off
            if run is not None:
                start, direction = run, run - rest  # where it was last seen running off
            else:
                start, direction = rest, course
            pocket = ev.pocket_ahead(start, direction, self.table, cfg.vanished_pot_max_angle_deg)
            if pocket is not None:
                pots.append(
                    PotEvent(label, pocket, frames[min(last_seen + 1, len(frames) - 1)].frame, inferred=True)
                )
            elif float(np.linalg.norm(contact.impulse)) >= cfg.vanished_off_table_min_speed_mm_s:
                if self._lost_short_of_a_jump(raw, t, rest, last_seen):
                    continue  # seen running on, lost where it could not leave the table: hidden
                offs.append(label)
        return pots, offs

    def _lost_short_of_a_jump(self, raw: np.ndarray, t: np.ndarray, rest: np.ndarray, last_seen: int) -> bool:
        """Whether a hit ball, seen running clear of its place (every sighting over the last
        ``vanished_speed_span_s`` up to ``last_seen`` farther than ``clear_departure_mm`` from
        ``rest``), could reach no cushion fast enough to jump off the table: its speed along its
        path over those sightings, slowed by ``roll_deceleration_mm_s2`` over the distance to the
        nearest cushion, is under ``vanished_off_table_min_speed_mm_s`` there. Lost so, it is hidden
        on the table (under the player's body as he walks round), whatever it was struck at; a ball
        not seen clear of its place has only the speed off the contact to be judged by."""
        cfg = self.config
        seen = np.flatnonzero(np.isfinite(raw[: last_seen + 1]).all(axis=1))
        span = seen[t[seen] >= t[last_seen] - cfg.vanished_speed_span_s]
        if len(span) < 2 or t[span[-1]] <= t[span[0]]:
            return False
        places = raw[span]
        if float(np.linalg.norm(places - rest, axis=1).min()) <= cfg.clear_departure_mm:
            return False  # still leaving its place: its speed there is not yet its run's
        speed = float(np.linalg.norm(np.diff(places, axis=0), axis=1).sum()) / float(t[span[-1]] - t[span[0]])
        r, (x, y) = self.table.ball_radius_mm, places[-1]
        to_cushion = max(0.0, min(x - r, self.table.width_mm - r - x, y - r, self.table.length_mm - r - y))
        at_cushion_sq = speed * speed - 2.0 * cfg.roll_deceleration_mm_s2 * to_cushion
        return at_cushion_sq < cfg.vanished_off_table_min_speed_mm_s**2

    def _left_its_place(self, raw: np.ndarray, rest: np.ndarray) -> bool:
        """Whether a sighting in ``raw`` lies farther than ``clear_departure_mm`` from ``rest``."""
        return ev.departure_index(raw, rest, self.config.clear_departure_mm, 1) is not None

    def _off_course_dropped(self, raw: np.ndarray, rest: np.ndarray, contact: ev.Contact) -> np.ndarray:
        """``raw`` (a hit ball's sightings through the stroke) without those off the course it was
        struck on (``_struck_course``), where its first sighting away from its place is already
        off that course and too far from it to have been seen on its way
        (``StrokeConfig.off_course_unseen_mm``), and so are its next ones
        (``StrokeConfig.off_course_sightings``; see ``ev.unseen_on_its_way``): another thing named
        like it. ``raw`` itself where nothing is dropped."""
        course, _ = _struck_course(contact, rest, self.config.vanished_pot_min_impulse_mm_s)
        turn = self._run_max_turn_deg(contact.label, rest, course)
        first = ev.departure_index(raw, rest, self.config.clear_departure_mm, 1)
        if first is None or not ev.unseen_on_its_way(raw, first, rest, course, self.config, turn):
            return raw
        out = raw.copy()
        out[ev.off_course_mask(raw, rest, course, self.config, turn)] = np.nan
        return out

    def _run_max_turn_deg(self, label: str, rest: np.ndarray, course: np.ndarray) -> float:
        """How far off ``course`` the hit ball ``label`` resting at ``rest`` may run: wider where it
        rested touching a ball ahead of it at the stroke's start (see ``ev.run_max_turn_deg``)."""
        others = [np.array(xy, dtype=float) for other, xy in self._before.items() if other != label]
        return ev.run_max_turn_deg(rest, course, others, self.config, self.table)

    def _gone_unwatched(self, frames: list[_FrameRecord], judged: set[str]) -> list[PotEvent]:
        """Object balls that left the table while it was not watched in the stroke (see
        ``StrokeConfig.unwatched_gone_min_s``): seen on the last frame before its last unwatched gap
        and on none since; potted, pocket unknown. Not those already judged (``judged``, and the
        stroke's own pots and balls off), nor one whose kind has a track first found since the gap
        (it, found again)."""
        cfg = self.config
        after_gap = next(
            (
                k
                for k in range(len(frames) - 1, 0, -1)
                if frames[k].t - frames[k - 1].t >= cfg.unwatched_gap_s
            ),
            None,
        )
        if after_gap is None or frames[-1].t - frames[after_gap].t < cfg.unwatched_gone_min_s:
            return []
        last_watched, since = frames[after_gap - 1], frames[after_gap:]
        taken = judged | {p.label for p in self._pots} | set(self._offs)
        found_again = [
            label for label in since[-1].xy if label not in last_watched.xy and label not in self._before
        ]
        pots = []
        for label in sorted(self._before):
            if label == CUE_BALL or label in taken or not last_watched.visible.get(label, False):
                continue
            if any(f.visible.get(label, False) for f in since):
                continue
            same_kind = next((new for new in found_again if ball_kind(new) == ball_kind(label)), None)
            if same_kind is not None:
                found_again.remove(same_kind)
                continue
            pots.append(PotEvent(label, None, since[0].frame, inferred=True))
        return pots

    @staticmethod
    def _settled_positions(rest_frames: list[_FrameRecord], image: bool = False) -> dict[str, np.ndarray]:
        """Each ball's position averaged over the frames it was seen at rest (the detector's noise
        averages out; touching is judged on these), else where it was held on the last frame.
        ``image``: its image centre (px) instead, for the balls seen at rest."""
        last = rest_frames[-1]
        out = {}
        for label, held_xy in last.xy.items():
            where = [f.px if image else f.xy for f in rest_frames if f.visible.get(label, False)]
            seen = [w[label] for w in where if label in w]
            if seen:
                out[label] = np.mean(seen, axis=0)
            elif not image:
                out[label] = held_xy
        return out

    def _rest_gaps(
        self, rest_frames: list[_FrameRecord], labels: dict[str, np.ndarray]
    ) -> dict[str, tuple[float, float]]:
        """For each of ``labels`` seen at rest together with the cue ball, with both image centres:
        the distance between the two centres where they came to rest (mm) and the millimetres an
        image pixel spans along it there, each the median over their last
        ``touching_rest_sightings`` sightings together (a cue ball creeping to rest is judged where
        it stopped). A sighting the same as the one after it (both centres unchanged: the
        detections held while nothing moved) is one measurement, counted once."""
        out = {}
        for label in labels:
            pairs: list[tuple[float, float]] = []
            later = None
            for f in reversed(rest_frames):
                if len(pairs) == self.config.touching_rest_sightings:
                    break
                if not (f.visible.get(label, False) and f.visible.get(CUE_BALL, False)):
                    continue
                if not all(key in f.xy and key in f.px for key in (label, CUE_BALL)):
                    continue
                centres = np.concatenate([f.px[CUE_BALL], f.px[label]])
                if later is not None and np.array_equal(centres, later):
                    continue
                later = centres
                mm = float(np.linalg.norm(f.xy[label] - f.xy[CUE_BALL]))
                px = float(np.linalg.norm(f.px[label] - f.px[CUE_BALL]))
                if px > 0.0:
                    pairs.append((mm, mm / px))
            if pairs:
                mm, scale = np.median(np.array(pairs), axis=0)
                out[label] = (float(mm), float(scale))
        return out

    def _trim_preroll(self, now_t: float) -> None:
        keep_from = 0
        while keep_from < len(self._frames) - 1 and self._frames[keep_from].t < now_t - self.config.preroll_s:
            keep_from += 1
        if keep_from:
            self._frames = self._frames[keep_from:]

    @staticmethod
    def _path(frames: list[_FrameRecord], label: str) -> np.ndarray:
        out = np.full((len(frames), 2), np.nan)
        for k, f in enumerate(frames):
            if label in f.xy and f.visible.get(label, False):
                out[k] = f.xy[label]
        return out


_RATE_FRAMES = 10
"""Frames over which the video's frame interval is measured (times may be irregular in live mode)."""
_SIGHTINGS_KEPT = 16
"""How many of its last sightings :meth:`StrokeSegmenter._hidden_runners` keeps per ball (a
stroke's start is traced back a few frames before it is found: half a second at 30 fps)."""
_CUE_SPEEDS_KEPT = 64
"""How many of the cue ball's window speeds :meth:`StrokeSegmenter._cue_speed` keeps before it
forgets them all (a window is asked for on at most a few frames in a row: a bound on memory)."""


def _last_steady_sighting(seen: np.ndarray, frames: int) -> int:
    """Index of the last frame of the last run of at least ``frames`` consecutive sightings (a run
    at the very start counts whatever its length); 0 when there is none. Odd single sightings of
    a colour after a ball vanished are other things (a ball in a pocket's net, a reflection)."""
    last = 0
    k = 0
    while k < len(seen):
        if not seen[k]:
            k += 1
            continue
        end = k
        while end + 1 < len(seen) and seen[end + 1]:
            end += 1
        if end - k + 1 >= frames or k == 0:
            last = end
        k = end + 1
    return last


def _struck_course(contact: ev.Contact, rest: np.ndarray, min_impulse_mm_s: float) -> tuple[np.ndarray, bool]:
    """The direction (mm, not unit) a hit ball resting at ``rest`` was struck in: the cue ball's
    lost momentum where it was measured (True; a zero vector, no direction, where it lost less
    than ``min_impulse_mm_s``: see ``StrokeConfig.vanished_pot_min_impulse_mm_s``), else the line
    of centres from the cue ball's place at the contact (False)."""
    impulse = np.array(contact.impulse, dtype=float)
    if np.all(np.isfinite(impulse)):
        if float(np.linalg.norm(impulse)) < min_impulse_mm_s:
            return np.zeros(2), True
        return impulse, True
    return rest - np.array(contact.cue_xy, dtype=float), False


def _turn_deg(a: np.ndarray, b: np.ndarray) -> float:
    """The angle between two directions (degrees, 0-180); 0 where either is zero."""
    norms = float(np.linalg.norm(a) * np.linalg.norm(b))
    if norms == 0.0:
        return 0.0
    return math.degrees(math.acos(float(np.clip(np.dot(a, b) / norms, -1.0, 1.0))))


def _first_displaced_run(
    path: np.ndarray, rest: np.ndarray, displacement_mm: float, min_frames: int
) -> np.ndarray | None:
    """The last position of the first run of at least ``min_frames`` sightings in a row away from
    ``rest`` (None if there is none)."""
    seen = np.isfinite(path).all(axis=1)
    away = seen & (np.linalg.norm(np.where(seen[:, None], path, rest) - rest, axis=1) > displacement_mm)
    k = 0
    while k < len(path):
        if not away[k]:
            k += 1
            continue
        end = k
        while end + 1 < len(path) and away[end + 1]:
            end += 1
        if end - k + 1 >= min_frames:
            return path[end]
        k = end + 1
    return None


def median_place(places: Collection[np.ndarray]) -> np.ndarray:
    """(2,) mm: the per-axis median of ``places`` (each (2,) mm; at least one), the very value
    ``np.median(np.array(places), axis=0)`` gives (the middle sighting of an odd count, the mean of
    the middle two of an even one; NaN where an axis holds one), without NumPy's per-call cost
    (~25 µs against ~3: called for every ball at rest on every frame between strokes)."""
    n = len(places)
    middle = n // 2
    out = []
    for axis in (0, 1):
        values = sorted(float(place[axis]) for place in places)
        if any(math.isnan(v) for v in values):
            out.append(math.nan)
        elif n % 2:
            out.append(values[middle])
        else:
            out.append((values[middle - 1] + values[middle]) / 2.0)
    return np.array(out)


def same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two (2,) places are equal, as ``np.array_equal(a, b)`` reads them (a picture shown
    twice gives a ball the very same centre), without its per-call cost."""
    return bool(a[0] == b[0] and a[1] == b[1])


def _speed(frames: list[_FrameRecord], label: str) -> float:
    """Mean speed (mm/s) of ``label`` along its path over consecutive frame records (the path, not
    the chord: a ball that bounced off a cushion in the window was not slow). A step on which it
    stayed exactly where it was adds no time while it moves on other steps: the picture was shown
    twice (a 25 fps broadcast shown at 30 fps repeats every sixth), and a running ball does not
    stop for a frame; a ball at rest is at rest either way."""
    # The steps' lengths and times on Python floats, as ``np.linalg.norm(np.diff(xy), axis=1)``
    # and ``np.diff(t)`` compute them (each difference, squares, their sum, its square root), and
    # summed by NumPy as before: the same value bit for bit, without a NumPy call per step.
    places = [f.xy[label].tolist() for f in frames]
    steps: list[float] = []
    moved_s: list[float] = []
    for (x0, y0), (x1, y1), a, b in zip(places, places[1:], frames, frames[1:], strict=False):
        dx, dy = x1 - x0, y1 - y0
        step = math.sqrt(dx * dx + dy * dy)
        steps.append(step)
        if step > 0.0:
            moved_s.append(b.t - a.t)
    if not moved_s:
        return 0.0
    return float(np.array(steps).sum()) / max(float(np.array(moved_s).sum()), 1e-9)


def _pair(xy: np.ndarray) -> tuple[float, float]:
    return (float(xy[0]), float(xy[1]))
