"""Replays of a stroke, shown from the main camera, told from the strokes played.

A broadcast cuts away during or after a stroke and often shows it again from the same high
camera, slowed down. To the tracker that is the table going back in time: after the cut the balls
lie where they were before the stroke (a potted red on the table again), and the stroke runs once
more. Ruled, it would score a pot twice or call a foul nobody committed.

:class:`ReplayFilter` watches the tracking stage (``snooker.pipeline.tracking``). When the table
comes back after a cut (``ReplayConfig.cut_gap_s`` with no frame of it) the stage saves its tracker
and segmenter. A *suspect* opens if within ``look_s`` the balls *detected* show balls back at their
places before a stroke that the stroke had moved them away from (``back_min_balls``, within
``place_tolerance_mm``, on ``back_frames`` frames in a row): the stroke running at the cut, moved
away meaning where the last frame before the cut had them; or else the last stroke, moved away
meaning where it ended. A colour or the cue ball the stroke potted or forced off is no evidence: a
colour is re-spotted, often where it lay, and the cue ball taken in hand. Detections, not the
tracker, are what is compared: the tracker takes a ball that jumps for a stray sighting for seconds.
The look ends early when a stroke begins after the cut: balls back at their old places after that
were played there (a replay shows them back from its first frames). Strokes the segmenter ends while
the table is looked at are held, and handed on if no suspect opens.

While a suspect is open the strokes the segmenter ends are held, and then:
- *the last stroke replayed*: as soon as the balls rest where that stroke left them, or where the
  table lay before the cut (the balls detected each within ``place_tolerance_mm`` of one of their
  kind there, but ``unmatched_balls``, one of the stroke's moved balls among them; balls not seen
  are no evidence, a player may stand over them), the held strokes are a replay; where every ball
  the stroke moved left the table (a pot and an in-off), once those are gone again and the rest
  lies as it did. A slowed replay creeps on after the tracker calls the balls at rest, so they are
  judged again until they have rested ``settle_s``, and on the replay's last frame when it is cut
  away from; found not a replay, they are handed on as played (balls replaced after a miss while
  the camera showed the player, then played again, end elsewhere: delayed by ``settle_s`` at
  most).
- *the stroke running at the cut replayed*: the replay runs to rest (for ``settle_s``) or is cut
  away from; what it made of the stroke is dropped.
A replay's strokes are dropped, recorded (:class:`Replay`), and the stage puts back the tracker and
segmenter it saved: to them the replay's frames were never there, as if the cut had lasted until
its end, and a stroke running at the cut ends on the live frames after it, its end unwatched.

Not caught: a replay from another camera (no table is seen in it: skipped frames), a replay of an
older stroke (a frame's highlights), a hard cut into a replay with no frame between that does not
show the table, a replay that starts after the last ball the stroke moved was hit, with nothing
potted yet to come back, and, in one long video read as segments (``analyze --jobs``), a replay
in a segment that began after its stroke (each segment's filter knows only the strokes it saw).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from snooker.balls import CUE_BALL, ball_kind
from snooker.tracker.types import StrokeEvents, TableState

Layout = Mapping[str, tuple[float, float]]
"""Ball label → (x, y) table mm."""


@dataclass(frozen=True)
class ReplayConfig:
    """When the strokes after a cut are a replay (distances in table mm)."""

    enabled: bool = True
    cut_gap_s: float = 0.1
    """The table unseen at least this long (s) and then shown again is a cut: a replay's wipe may
    hide it for only a few frames (3 at 30 fps). Shorter than ``StrokeConfig.unwatched_gap_s``, for
    a look costs little: a save of the tracker, and the balls compared for ``look_s``."""
    look_s: float = 2.0
    """How long (s) after a cut the table is looked at for balls back at their places before the
    stroke (detections settle over the first frames of a view)."""
    place_tolerance_mm: float = 30.0
    """Two places this close are one ball's same place (rest jitter on the broadcasts is a few mm,
    a far-end centre may jump 14 mm; a ball that moved has moved by a ball's width or more)."""
    back_min_balls: int = 1
    """Balls seen back where the stroke had moved them from that open a suspect..."""
    back_frames: int = 2
    """...on this many frames in a row: at rest there, not a ball passing through its old place (a
    cue ball coming back off a cushion while the camera was away) or a stray detection."""
    settle_s: float = 3.0
    """How long (s) the balls rest, after strokes held, not where the stroke left them, before the
    strokes are handed on as played; meanwhile a replay creeping on to its end, slowed down (each
    step under the tracker's rest speed), is still one."""
    unmatched_balls: int = 1
    """Balls of two layouts not paired, for them still to be the same layout (one hidden in one of
    them)."""

    def __post_init__(self) -> None:
        for name in ("cut_gap_s", "look_s", "place_tolerance_mm", "settle_s"):
            if not getattr(self, name) > 0.0:
                raise ValueError(f"ReplayConfig.{name} must be > 0, got {getattr(self, name)}")
        for name in ("back_min_balls", "back_frames"):
            if getattr(self, name) < 1:
                raise ValueError(f"ReplayConfig.{name} must be >= 1, got {getattr(self, name)}")
        if self.unmatched_balls < 0:
            raise ValueError(f"ReplayConfig.unmatched_balls must be >= 0, got {self.unmatched_balls}")


@dataclass(frozen=True)
class Replay:
    """Strokes dropped as a replay: of the stroke that began at ``of_stroke_frame`` (None: not
    known, the stroke running at the cut was not ended yet), shown from ``first_frame`` (where the
    balls were seen back) to ``last_frame`` (the last frame tracked as the replay); ``strokes``:
    how many strokes the segmenter had made of it."""

    of_stroke_frame: int | None
    first_frame: int
    last_frame: int
    strokes: int

    def to_dict(self) -> dict:
        return {
            "of_stroke_frame": self.of_stroke_frame,
            "first_frame": self.first_frame,
            "last_frame": self.last_frame,
            "strokes": self.strokes,
        }


@dataclass
class _Suspect:
    """The table come back after a cut. ``stroke``: the last stroke (None: a stroke was running at
    the cut, which set off from ``running_before``); ``before_cut``: the balls' places on the last
    frame before the cut; ``opened``: balls were seen back where the stroke had moved them from,
    first on ``first_frame``; ``held``: the strokes ended since, not handed on yet."""

    stroke: StrokeEvents | None
    running_before: Layout | None
    before_cut: dict[str, tuple[float, float]]
    cut_t: float
    first_frame: int = -1
    last_frame: int = -1
    opened: bool = False
    back_frames: int = 0
    """Frames in a row on which balls were seen back (``ReplayConfig.back_frames`` open it)."""
    held: list[StrokeEvents] = field(default_factory=list)
    first_held_t: float = 0.0
    """When (s) the first stroke was held."""
    rest_since_t: float | None = None
    """Since when (s) the balls have been at rest with strokes held (None: they are not)."""


@dataclass(frozen=True)
class Verdict:
    """What the tracking stage does around a frame: ``save`` its tracker and segmenter as they are
    before tracking it (the table has just come back after a cut); ``restore`` the saved ones
    (the replay's frames never tracked, as if the cut had lasted until here); hand on ``strokes``."""

    strokes: list[StrokeEvents] = field(default_factory=list)
    save: bool = False
    restore: bool = False


class ReplayFilter:
    """Tells replays from play (see the module's docstring).

    For each frame the stage tracks: :meth:`observe` before tracking it, then :meth:`verdict` with
    what tracking gave; at the end, :meth:`finish`. ``replays``: what was dropped.
    """

    def __init__(self, config: ReplayConfig | None = None) -> None:
        self.config = config or ReplayConfig()
        self.replays: list[Replay] = []
        self._last_stroke: StrokeEvents | None = None
        self._last_t: float | None = None
        self._last_layout: dict[str, tuple[float, float]] = {}
        self._seen: Mapping[str, np.ndarray] = {}
        self._suspect: _Suspect | None = None

    def observe(
        self,
        frame: int,
        t: float,
        detected: Callable[[], Mapping[str, np.ndarray]],
        running_before: Layout | None,
    ) -> Verdict:
        """Before tracking frame ``frame`` at ``t`` s (``detected()``: the places of the balls detected
        in it, (n, 2) table mm by ball name, asked for only after a cut and while a suspect is open;
        ``running_before``: the places the running stroke set off from, None: none runs)."""
        cfg = self.config
        if not cfg.enabled:
            return Verdict()
        cut = self._last_t is not None and t - self._last_t >= cfg.cut_gap_s
        suspect = self._suspect
        seen = detected() if cut or suspect is not None else {}
        last_seen, self._last_t, self._seen = self._seen, t, seen
        if cut and suspect is not None and suspect.opened:
            if running_before is not None and suspect.stroke is not None:
                return Verdict()  # cut away while the balls ran: judged when they rest
            if suspect.stroke is None or not suspect.held:
                return self._dropped(suspect)  # cut away from the replay: play goes on from before it
            return self._judged(suspect, last_seen)  # on the replay's last frame
        if cut:
            released = self._released(suspect).strokes if suspect is not None else []
            stroke = None if running_before is not None else self._last_stroke
            if stroke is None and running_before is None:
                return Verdict(released)
            self._suspect = suspect = _Suspect(stroke, running_before, dict(self._last_layout), t)
            self._look(suspect, frame, t, seen)
            return Verdict(released, save=True)
        if suspect is not None and not suspect.opened:
            if running_before is not None and running_before != suspect.running_before:
                return self._released(suspect)  # a stroke began: balls seen back from now are play
            return self._look(suspect, frame, t, seen)
        return Verdict()

    def verdict(
        self, state: TableState, strokes: list[StrokeEvents], running_before: Layout | None
    ) -> Verdict:
        """After tracking a frame (``state``; the ``strokes`` the segmenter ended on it;
        ``running_before`` as in :meth:`observe`, after it)."""
        self._last_layout = {b.label: b.xy_mm for b in state.balls}
        suspect = self._suspect
        if suspect is None:
            return Verdict(self._handed_on(strokes))
        if not suspect.opened:
            if strokes and not suspect.held:
                suspect.first_held_t = state.t
            suspect.held.extend(strokes)  # looked at still: handed on if it does not open
            return Verdict()
        suspect.last_frame = state.frame
        if strokes and not suspect.held:
            suspect.first_held_t = state.t
        suspect.held.extend(strokes)
        at_rest = running_before is None and not any(b.moving for b in state.balls)
        if not at_rest or not suspect.held:
            suspect.rest_since_t = None
            return Verdict()
        if suspect.rest_since_t is None:
            suspect.rest_since_t = state.t
        settled = state.t - suspect.rest_since_t >= self.config.settle_s
        if suspect.stroke is None:
            if not settled:
                return Verdict()
            if any(s.start_frame >= suspect.first_frame for s in suspect.held):
                return self._dropped(suspect)  # the replay ran to rest
            if suspect.first_held_t - suspect.cut_t > self.config.look_s:
                return self._released(suspect)  # the stroke ran on through its replay, to its end
            return Verdict()  # the stroke running at the cut ended as its replay began: wait for it
        if self._is_replay(suspect, self._seen):
            return self._dropped(suspect)
        if settled:
            return self._judged(suspect, self._seen)
        return Verdict()

    def finish(self, strokes: list[StrokeEvents]) -> Verdict:
        """At the end of the video (``strokes``: those the segmenter's finish closed)."""
        suspect = self._suspect
        if suspect is None:
            return Verdict(self._handed_on(strokes))
        suspect.held.extend(strokes)
        if not suspect.opened:
            return self._released(suspect)
        if suspect.stroke is None or not suspect.held:
            return self._dropped(suspect)
        return self._judged(suspect, self._seen)

    # ------------------------------------------------------------------ steps
    def _look(self, suspect: _Suspect, frame: int, t: float, seen: Mapping[str, np.ndarray]) -> Verdict:
        """Within ``look_s`` of the cut: open the suspect if balls are ``seen`` back where the stroke
        moved them from; after it, close it, handing on the strokes ended meanwhile."""
        cfg = self.config
        if t - suspect.cut_t > cfg.look_s:
            return self._released(suspect)
        if suspect.stroke is None:
            before = suspect.running_before or {}
            gone = set(before) - set(suspect.before_cut)
            back = _balls_back(before, suspect.before_cut, gone, seen, cfg.place_tolerance_mm)
        else:
            stroke = suspect.stroke
            back = _balls_back(
                stroke.positions_before, stroke.positions_after, _gone(stroke), seen, cfg.place_tolerance_mm
            )
        if back < cfg.back_min_balls:
            suspect.back_frames = 0
            return Verdict()
        suspect.back_frames += 1
        if suspect.back_frames == 1:
            suspect.first_frame = frame
        if suspect.back_frames >= cfg.back_frames:
            suspect.opened, suspect.last_frame = True, frame
        return Verdict()

    def _is_replay(self, suspect: _Suspect, seen: Mapping[str, np.ndarray]) -> bool:
        """Whether the balls ``seen`` lie where the suspect's stroke left them, or where the table lay
        before the cut (:func:`seen_in`): the table went back to before the stroke, as the
        suspect was opened on, and came forward to where it had been. The balls are taken as
        detected, not as tracked: the tracker's places were made through the replay's jump back,
        and may hold a ball where it was lost."""
        assert suspect.stroke is not None
        stroke = suspect.stroke
        tolerance, unmatched = self.config.place_tolerance_mm, self.config.unmatched_balls
        moved = {
            label
            for label, place in stroke.positions_after.items()
            if label not in stroke.positions_before
            or np.hypot(*np.subtract(place, stroke.positions_before[label])) > tolerance
        }
        if any(
            seen_in(seen, target, moved, tolerance, unmatched)
            for target in (stroke.positions_after, suspect.before_cut)
        ):
            return True
        gone = [label for label in _gone(stroke) if label in stroke.positions_before]
        if moved or not gone:
            return False
        # every ball the stroke moved left the table (a pot and an in-off): it has run to its end
        # when they are gone again, as seen back at the cut, and the rest lies where it did
        back = any(
            _near(stroke.positions_before[label], seen.get(ball_kind(label)), tolerance) for label in gone
        )
        return not back and _strays(seen, stroke.positions_after, tolerance)[0] <= unmatched

    def _released(self, suspect: _Suspect) -> Verdict:
        """The held strokes handed on as played."""
        self._suspect = None
        return Verdict(self._handed_on(suspect.held))

    def _judged(self, suspect: _Suspect, seen: Mapping[str, np.ndarray]) -> Verdict:
        """The last chance for the held strokes (the balls at rest ``settle_s``, cut away from, or
        the video's end): dropped as a replay, or handed on as played."""
        if self._is_replay(suspect, seen):
            return self._dropped(suspect)
        return self._released(suspect)

    def _dropped(self, suspect: _Suspect) -> Verdict:
        """The held strokes dropped as a replay of the suspect's stroke; what was saved restored."""
        self._suspect = None
        if suspect.stroke is not None:
            of_frame: int | None = suspect.stroke.start_frame
        else:
            running = [s.start_frame for s in suspect.held if s.start_frame < suspect.first_frame]
            of_frame = running[0] if running else None
        self.replays.append(Replay(of_frame, suspect.first_frame, suspect.last_frame, len(suspect.held)))
        return Verdict(restore=True)

    def _handed_on(self, strokes: list[StrokeEvents]) -> list[StrokeEvents]:
        if strokes:
            self._last_stroke = strokes[-1]
        return strokes


def _gone(stroke: StrokeEvents) -> set[str]:
    """The balls ``stroke`` potted or forced off, the cue ball included."""
    gone = {p.label for p in stroke.potted} | set(stroke.off_table)
    if stroke.cue_ball != "on_table":
        gone.add(CUE_BALL)
    return gone


def _balls_back(
    before: Layout, moved_to: Layout, gone: set[str], seen: Mapping[str, np.ndarray], tolerance_mm: float
) -> int:
    """How many balls are ``seen`` back at their places ``before`` a stroke that it had moved them
    away from (no ball of their kind within ``tolerance_mm`` there in ``moved_to``). Of the balls
    ``gone`` (potted or forced off), only reds count: a colour is re-spotted, often where it lay,
    and the cue ball is placed in hand."""
    away = _by_kind(moved_to)
    back = 0
    for label, place in before.items():
        kind = ball_kind(label)
        if label in gone and kind != "red":
            continue
        if _near(place, away.get(kind), tolerance_mm) or not _near(place, seen.get(kind), tolerance_mm):
            continue
        back += 1
    return back


def seen_in(
    seen: Mapping[str, np.ndarray], layout: Layout, moved: set[str], tolerance_mm: float, unmatched: int
) -> bool:
    """Whether the balls ``seen`` (places (n, 2) mm by ball name) show ``layout``: each lies within
    ``tolerance_mm`` of a ball of its kind there (paired one to one by least total distance), but
    at most ``unmatched``, and one of the balls ``moved`` (labels of ``layout``: where a stroke put
    them) is among them. Balls not seen are no evidence either way (a player stands over them)."""
    strays, paired = _strays(seen, layout, tolerance_mm)
    return strays <= unmatched and bool(paired & moved)


def _strays(seen: Mapping[str, np.ndarray], layout: Layout, tolerance_mm: float) -> tuple[int, set[str]]:
    """The balls ``seen`` with no ball of their kind within ``tolerance_mm`` in ``layout`` (paired one
    to one by least total distance), and the labels of ``layout`` that were paired."""
    strays, paired = 0, set()
    kinds = _by_kind(layout)
    labels: dict[str, list[str]] = {}
    for label in layout:
        labels.setdefault(ball_kind(label), []).append(label)
    for kind, places in seen.items():
        here = np.asarray(places, dtype=float).reshape(-1, 2)
        there = kinds.get(kind, np.zeros((0, 2)))
        found: list[int] = []
        if len(here) and len(there):
            distance = np.linalg.norm(here[:, None, :] - there[None, :, :], axis=2)
            rows, cols = linear_sum_assignment(distance)
            found = [int(c) for r, c in zip(rows, cols, strict=True) if distance[r, c] <= tolerance_mm]
        strays += len(here) - len(found)
        paired |= {labels[kind][c] for c in found}
    return strays, paired


def _by_kind(layout: Layout) -> dict[str, np.ndarray]:
    """The places of a layout grouped by ball kind, (n, 2) mm each."""
    kinds: dict[str, list[tuple[float, float]]] = {}
    for label, place in layout.items():
        kinds.setdefault(ball_kind(label), []).append(place)
    return {kind: np.asarray(places, dtype=float).reshape(-1, 2) for kind, places in kinds.items()}


def _near(place: tuple[float, float], places: np.ndarray | None, tolerance_mm: float) -> bool:
    """Whether any of ``places`` lies within ``tolerance_mm`` of ``place``."""
    if places is None or len(places) == 0:
        return False
    return bool(np.min(np.linalg.norm(places - np.asarray(place, dtype=float), axis=1)) <= tolerance_mm)


__all__ = ["Replay", "ReplayConfig", "ReplayFilter", "Verdict", "seen_in"]
