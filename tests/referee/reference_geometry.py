"""A second implementation of the rule geometry (the thirtieth audit), written from the rules and the
public docstrings of ``snooker.referee.geometry`` alone, by brute force over aim directions, to be
compared with the referee's (test_referee_geometry_differential.py).

The definitions it implements (the rules: Section 3 in Polish, ``../shared/rules``; Section 2 as
RULES-EN.md digests it, the Polish text having no Section 2):

* Section 2, Snookered: "a straight-line stroke to every ball on is wholly or partly blocked by balls
  not on. If at least one ball on can be hit on both extreme edges free of balls not on, the cue ball
  is not snookered. [...] A ball on cannot snooker another ball on (reds cannot snooker reds). A
  cushion never snookers."  3.10: "Jeżeli po faulu bila biała znajduje się w pozycji snooker, sędzia
  ogłasza wolną bilę (WOLNA BILA) - por. Część 2 Punkt 16." and 3.10(b): "Jest faulem, jeżeli bila
  biała [...] znajdzie się w pozycji snooker, wymuszonej przez bilę deklarowaną jako wolna bila,
  wobec wszystkich bil Czerwonych lub bili rozgrywanej" — judged by the effective snookering ball
  (Section 2, 16(b): of several obstructing balls not on, the one nearest the cue ball; 16(c): with
  red on, reds obstructed by different balls not on leave none).
* 3.14(b): "możliwe jest trafienie w linii prostej jakiejkolwiek części jakiejkolwiek bili, która
  jest lub może być bilą rozgrywaną" — a straight stroke whose first contact is a ball on; a
  straight line is stopped by the cushion noses too (angled: docs/FRAME_LOG.md, "for a miss (3.14) a
  straight line to a ball on (or to its centre) is stopped by the cushion noses too").
* 3.14(c): "możliwe było centralne trafienie bili rozgrywanej [...] (w przypadku bil Czerwonych
  dotyczy to w pełni widocznej średnicy dowolnej bili Czerwonej, która nie jest przesłaniana przez
  bilę kolorową)" — a colour: the line at its centre meets it first; a red: its whole width (every
  line from edge to edge) is free of balls not on, other reds never hiding it.

The model: a straight stroke moves the cue ball's centre along a ray from its centre; it meets a ball
when its centre comes within a diameter (2R) of that ball's centre; a ball it already overlaps
(measurement noise) is met only when the ray moves towards it. A cushion nose (the segments of
``TableSpec.cushions`` between the jaws) stops it where its centre comes within R less the referee's
``cushion_tolerance_mm`` of the nose.

Robustness instead of tolerance tuning: each question is answered twice, every boundary moved by
``SLACK_MM`` one way (the strict reading: balls not on grown, balls on shrunk — a red widened where
its whole width must be seen —, the cushion's stopping distance grown, the touch distance shrunk)
and then the other (the lenient reading). Where the two agree the answer does not hang on a hair's
breadth, and only those answers are compared with the referee; where they differ the layout is on a
boundary finer than any camera measures, and the comparison is skipped (counted, so that the test
can insist it stays rare).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping

import numpy as np

from snooker.calibration.table import STANDARD_TABLE, TableSpec

Point = tuple[float, float]

SLACK_MM = 0.05
"""How far each reading moves a boundary (mm): a ball's reach (2R), the touch distance, the cushion
stopping distance. Far below what a camera places a ball to (the referee's own touch tolerance is
1 mm, and the logs' ``position_tolerance_mm`` is of that order), so an answer that flips within it is
one no measurement could settle; and far above the referee's grazing tolerance (1e-6 mm) and
rounding, so an answer that holds on both sides of it is one the referee's exact geometry must give."""

UNIFORM_DIRECTIONS = 1 << 15
"""Aim directions sampled evenly round the cue ball (about 0.19 mrad apart: 0.7 mm across at the
table's full length, under a ball's 52.5 mm) besides the critical ones (tangents, centres)."""

CRITICAL_NUDGE_MM = 0.01
"""How far (mm, across the line at the ball's distance) the sampled directions are nudged either
side of each critical direction (a tangent to a ball's reach, a line through its centre): a fifth of
``SLACK_MM``, so that a window between two critical directions that the slack cannot close is hit."""

ANGLED_CHUNK = 512
"""Lines tested against the cushion noses at a time (the first one not stopped answers)."""

CUSHION_TOLERANCE_MM = 3.0
"""The referee's ``GeometryConfig.cushion_tolerance_mm`` as FRAME_LOG.md states it (3 mm)."""

TOUCH_TOLERANCE_MM = 1.0
"""The referee's ``GeometryConfig.touch_tolerance_mm``: a gap this small is a touch (3.8)."""

SAME_DISTANCE_MM = 1.0
"""The referee's ``GeometryConfig.same_distance_mm``: balls as near as the nearest (16(b))."""


def _nose_segments(table: TableSpec) -> np.ndarray:
    return np.array([[c.start, c.end] for c in table.cushions], dtype=float)


def _point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points ``p`` (..., 2) to the segment a-b (broadcast)."""
    ab = b - a
    denom = np.sum(ab * ab, axis=-1)
    t = np.clip(np.sum((p - a) * ab, axis=-1) / np.where(denom > 0, denom, 1.0), 0.0, 1.0)
    closest = a + t[..., None] * ab
    return np.hypot(*(p - closest).swapaxes(0, -1))


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _segments_distance(p0: np.ndarray, p1: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance between segments p0-p1 (arrays (n, 2)) and a-b (one segment)."""
    a = np.broadcast_to(a, p0.shape)
    b = np.broadcast_to(b, p0.shape)
    d = np.minimum.reduce(
        [
            _point_segment_distance(p0, a, b),
            _point_segment_distance(p1, a, b),
            _point_segment_distance(a, p0, p1),
            _point_segment_distance(b, p0, p1),
        ]
    )
    r = p1 - p0
    s = b - a
    den = _cross(r, s)
    safe = np.where(np.abs(den) > 1e-12, den, 1.0)
    t = _cross(a - p0, s) / safe
    w = _cross(a - p0, r) / safe
    crossing = (np.abs(den) > 1e-12) & (t >= 0) & (t <= 1) & (w >= 0) & (w <= 1)
    return np.where(crossing, 0.0, d)


class Layout:
    """One cue-ball place and the object balls; answers the questions for one reading (``slack``:
    +1 strict, -1 lenient, 0 exact)."""

    def __init__(
        self,
        cue: Point,
        balls: Mapping[str, Point],
        balls_on: Collection[str],
        table: TableSpec = STANDARD_TABLE,
    ) -> None:
        self.cue = np.asarray(cue, dtype=float)
        self.ids = list(balls)
        self.pos = np.array([balls[i] for i in self.ids], dtype=float).reshape(-1, 2)
        self.on = np.array([i in set(balls_on) for i in self.ids], dtype=bool)
        self.table = table
        self.R = table.ball_radius_mm
        self.noses = _nose_segments(table)
        rel = self.pos - self.cue
        self.dist = np.hypot(rel[:, 0], rel[:, 1])
        self.bearing = np.arctan2(rel[:, 1], rel[:, 0])

    # -- directions -------------------------------------------------------------------------------

    def directions(self) -> np.ndarray:
        """Aim angles: evenly spread, and every critical one nudged either side."""
        angles = [np.linspace(-math.pi, math.pi, UNIFORM_DIRECTIONS, endpoint=False)]
        for d, b in zip(self.dist, self.bearing, strict=True):
            if d <= 0:
                continue
            nudge = CRITICAL_NUDGE_MM / d
            crit = [b]
            for reach in (2 * self.R - SLACK_MM, 2 * self.R, 2 * self.R + SLACK_MM):
                if d > reach:
                    half = math.asin(reach / d)
                    crit.extend((b - half, b + half))
            angles.append(np.array([c + k * nudge for c in crit for k in (-1, 0, 1)]))
        return np.concatenate(angles)

    # -- the stroke -------------------------------------------------------------------------------

    def _reach(self, slack: int) -> np.ndarray:
        """Each ball's reach (the centre distance at which the cue ball meets it), per reading."""
        return np.where(self.on, 2 * self.R - slack * SLACK_MM, 2 * self.R + slack * SLACK_MM)

    def hit_times(self, angles: np.ndarray, slack: int, reach: np.ndarray | None = None) -> np.ndarray:
        """(n_angles, n_balls): how far the cue ball's centre travels before meeting each ball
        (inf where it never does)."""
        if reach is None:
            reach = self._reach(slack)
        u = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        rel = self.pos - self.cue
        along = u @ rel.T
        across = np.abs(u[:, 0:1] * rel[:, 1] - u[:, 1:2] * rel[:, 0])
        inside = across < reach
        t = along - np.sqrt(np.where(inside, reach**2 - across**2, 0.0))
        overlapping = self.dist < reach
        t = np.where(overlapping, np.where(along > 0, 0.0, np.inf), np.where(inside & (t >= 0), t, np.inf))
        return t

    def angled(self, angles: np.ndarray, lengths: np.ndarray, slack: int) -> np.ndarray:
        """Whether a cushion nose stops the cue ball before it has travelled ``lengths`` along each
        aim (the centre within R less the cushion tolerance of a nose)."""
        limit = self.R - CUSHION_TOLERANCE_MM + slack * SLACK_MM
        u = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        ends = self.cue + u * np.where(np.isfinite(lengths), lengths, 0.0)[:, None]
        starts = np.broadcast_to(self.cue, ends.shape)
        stopped = np.zeros(len(angles), dtype=bool)
        for a, b in self.noses:
            if float(_point_segment_distance(self.cue, a, b)) < limit:
                continue  # measured over the nose already (the layouts generated keep a radius off)
            stopped |= _segments_distance(starts, ends, a, b) < limit
        return stopped

    def first_hits(self, angles: np.ndarray, slack: int) -> tuple[np.ndarray, np.ndarray]:
        """The first ball met on each aim (-1: none) and how far the cue ball travelled to it. A
        tie (two balls met at once) names the one not on, as the strict reading must."""
        t = self.hit_times(angles, slack)
        if t.shape[1] == 0:
            return np.full(len(angles), -1), np.full(len(angles), np.inf)
        tmin = t.min(axis=1)
        # ties: the strict reading prefers a ball not on, the lenient one a ball on
        prefer_on = slack < 0
        key = np.where(self.on == prefer_on, 0, 1)[None, :]
        cand = np.where(np.isclose(t, tmin[:, None], rtol=0, atol=1e-9) & np.isfinite(t), key, 2)
        first = np.argmin(cand, axis=1)
        first = np.where(np.isfinite(tmin), first, -1)
        return first, tmin

    # -- the questions ----------------------------------------------------------------------------

    def clear_path(self, slack: int) -> bool:
        """3.14(b): some straight stroke meets a ball on first, no cushion nose in the way."""
        if not self.on.any():
            return False
        angles = self.directions()
        first, tmin = self.first_hits(angles, slack)
        good = (first >= 0) & self.on[np.maximum(first, 0)]
        if not good.any():
            return False
        angles, tmin = angles[good], tmin[good]
        for start in range(0, len(angles), ANGLED_CHUNK):  # the first unstopped line settles it
            chunk = slice(start, start + ANGLED_CHUNK)
            if not self.angled(angles[chunk], tmin[chunk], slack).all():
                return True
        return False

    def full_ball(self, slack: int, red_ids: Collection[str] = ()) -> bool:
        """3.14(c): a colour on met first on the line at its centre; a red on whose every line from
        edge to edge meets no ball not on before it (other reds transparent)."""
        for k in np.flatnonzero(self.on):
            if self.ids[k] in red_ids and self._red_full_width(k, slack):
                return True
            if self.ids[k] not in red_ids and self._centre_line_open(k, slack):
                return True
        return False

    def _centre_line_open(self, k: int, slack: int) -> bool:
        if self.dist[k] < 2 * self.R:
            return True  # touching a ball on: met at once
        angles = np.array([self.bearing[k]])
        first, tmin = self.first_hits(angles, slack)
        if first[0] < 0 or not self.on[first[0]]:
            return False
        return not bool(self.angled(angles, tmin, slack)[0])

    def _red_full_width(self, k: int, slack: int) -> bool:
        d = self.dist[k]
        width = 2 * self.R + slack * SLACK_MM  # the strict reading widens the red to be seen whole
        if d < width:
            return True  # touching it: met at once
        half = math.asin(width / d) * (1.0 - 1e-9)  # inside the grazing lines, where the red is met
        angles = self.bearing[k] + np.linspace(-half, half, max(64, int(2 * half * d / CRITICAL_NUDGE_MM)))
        reach = np.where(self.on, 0.0, 2 * self.R + slack * SLACK_MM)  # other reds never hide it
        reach[k] = width
        t = self.hit_times(angles, slack, reach)
        others = ~self.on
        if others.any() and (t[:, others].min(axis=1) <= t[:, k]).any():  # inf <= finite never holds
            return False
        centre = np.array([self.bearing[k]])
        return not bool(self.angled(centre, np.array([d - 2 * self.R]), slack)[0])

    def edge_obstructors(self, k: int, slack: int) -> set[int] | None:
        """The balls not on met before ball on ``k`` on either extreme-edge line (None: both edges
        free, or the cue ball touching it, so it can be hit on both edges). The strict reading
        (``slack`` +1) grows the balls not on and shrinks the ball on."""
        d = self.dist[k]
        if d <= 2 * self.R - slack * SLACK_MM:
            return None
        half = math.asin(min(1.0, 2 * self.R / d))
        angles = np.array([self.bearing[k] - half, self.bearing[k] + half])
        graze = math.sqrt(max(0.0, d * d - 4 * self.R * self.R))
        reach = np.where(self.on, 0.0, 2 * self.R + slack * SLACK_MM)  # balls on never obstruct
        t = self.hit_times(angles, slack, reach)
        blocked = t < graze
        if not blocked.any():
            return None
        return set(np.flatnonzero(blocked.any(axis=0)).tolist())

    def touching(self, slack: int) -> list[str]:
        """3.8: the balls the cue ball rests against (a gap up to the touch tolerance), nearest
        first."""
        limit = 2 * self.R + TOUCH_TOLERANCE_MM - slack * SLACK_MM
        near = [i for i in np.argsort(self.dist, kind="stable") if self.dist[i] <= limit]
        return [self.ids[i] for i in near]

    def snookered(self, slack: int) -> bool:
        """Section 2: no ball on can be hit on both extreme edges free of balls not on."""
        return all(self.edge_obstructors(k, slack) is not None for k in np.flatnonzero(self.on))

    def effective(self, slack: int, reds: bool) -> list[str]:
        """Section 2, 16(b)-(c): the nearest obstructing ball (and any as near); with red on, a ball
        effective for every red."""
        if not self.snookered(slack):
            return []
        per_ball = [self.edge_obstructors(k, slack) or set() for k in np.flatnonzero(self.on)]

        def nearest(group: set[int]) -> set[int]:
            if not group:
                return set()
            near = min(self.dist[i] for i in group)
            return {i for i in group if self.dist[i] <= near + SAME_DISTANCE_MM}

        if reds and len(per_ball) > 1:
            sets = [nearest(g) for g in per_ball]
            chosen = set.intersection(*sets)
        else:
            chosen = nearest(set().union(*per_ball))
        return sorted(self.ids[i] for i in chosen)


def robust(question) -> object | None:
    """The answer when the strict and the lenient readings agree, else None (a boundary case)."""
    strict, lenient = question(1), question(-1)
    return strict if strict == lenient else None
