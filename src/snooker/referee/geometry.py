"""The geometry questions the rules ask, answered from ball positions on the table.

Coordinate frame: millimetres on the cloth plane as in :mod:`snooker.calibration.table` (origin at
the baulk-left cushion-nose corner, ``x`` towards baulk-right, ``y`` up the table). Positions are
ball centres. ``balls`` maps ball ids (``red-3``, ``pink`` …) to centres and never contains the cue
ball; the cue ball is passed separately (``None`` = in hand, to be placed on or inside the D).

The rules' definitions (Section 2 and 3.7, 3.10, 3.14) as implemented here:

* A stroke is a straight line: the cue ball's centre moves along a ray and sweeps a band one ball
  diameter wide; it hits the first ball whose centre comes within a diameter of that ray. A ball
  the cue ball already overlaps (position noise) is hit only when the ray moves towards it.
  For "snookered" cushions are ignored: only balls obstruct, so a cushion never snookers.
* **Angled** (a cushion in the way): for the miss questions of 3.14 — can a ball on be hit in a
  straight line at all (any part), and centrally (full ball) — a straight stroke is also stopped by
  the cushion noses between the pocket jaws (:attr:`TableSpec.cushions`, their ends the jaws): the
  cue ball's centre may not come closer to a nose than a radius less ``cushion_tolerance_mm``. It
  matters only where the cue ball or a ball on lies in a pocket's jaws (every straight path between
  two places a radius inside the cushions stays a radius inside them), so from the D it never does.
  The width of a red (3.14(c)) is hidden only by balls, never by a cushion (3.14(c): "not hidden by
  a colour"): a red frozen to a cushion keeps its full width.
* **Snookered**: no ball on can be hit on *both extreme edges* (the two straight paths on which the
  cue ball just grazes the ball on, left and right) without first hitting a ball not on. Balls on
  never obstruct (reds cannot snooker reds). A ball on that the cue ball touches counts as hittable.
* **Clear path to any part**: some straight path makes first contact with a ball on (3.14(b)).
* **Full-ball contact** (3.14(c)): for a colour on, the straight path at its centre reaches it before
  any ball not on. For a red on, "the full width of any red not hidden by a colour" is read as: some
  red on can be hit along *every* path across its width (both edges, the centre and everything
  between) before any ball not on — other reds never hide a red. In all three questions a ball on
  met first never obstructs (hitting it first is no miss).
* **Effective snookering ball** (Section 2, "Snookered", point 16 of the definitions: the Polish
  3.10 points to it as "Część 2 Punkt 16"), for the free-ball snooker of 3.10(b): of the balls not
  on that obstruct an extreme-edge path, the one nearest the cue ball, and every one as near
  (16(b)). When red is the ball on and different reds are obstructed by different balls not on,
  there is no effective snookering ball (16(c): "When red is the ball on, if the cue-ball is
  obstructed with regard to different reds by different balls not on, there is no effective
  snookering ball"; the WPBSA text, not among the shared texts nor in RULES-EN.md's summary).
  Read here as: each red has its own effective balls (the nearest of those obstructing it); a ball
  is effective only if it is one of them for every red.
* **Touching / spot occupied** (3.7, 3.8): centres within a diameter plus ``touch_tolerance_mm``;
  the balls touching named nearest first, those equally near by id (not by the order given).
* **In hand**: the cue ball may be placed at any point on or inside the D whose centre is more than
  a ball diameter plus ``touch_tolerance_mm`` from every ball (placed without touching). In hand,
  the cue ball is snookered only if it is snookered from every such point; a path is open / a
  full-ball contact is available if it is from some such point.

Exactness. For a fixed cue ball the answers are exact: the status of a path can only change at
finitely many critical directions (edges of the balls' angular extents, and the directions in
which two balls would be met at the same instant), and every one of them is tested, nudged by
``boundary_offset_mm`` to either side. In hand, the set of placements from which a predicate holds
is bounded by straight lines (common tangents of the balls' one-diameter "contact circles", tangents
at their intersection points), the circles that forbid touching placements, and the D's outline.
After a grid over the D (``d_sampling_step_mm``, the quick way to a "yes"), every vertex of that
arrangement inside the D is tested, nudged by ``boundary_offset_mm`` into each incident cell, so
any region of placements wider than that offset is found, however thin. For the miss questions,
where a ball on lies near a nose, the arrangement also holds the lines the noses add (tangents to
the jaws' circles, the flats at the stopping distance, the places touching a ball on and a nose at
once: :meth:`_Cushions.placement_lines`, :meth:`_Cushions.centre_lines`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.spatial import ConvexHull

from snooker.balls import COLOURS, CUE_BALL, RED, ball_kind
from snooker.calibration.table import STANDARD_TABLE, Point, TableSpec

__all__ = [
    "DEFAULT_GEOMETRY_CONFIG",
    "GeometryConfig",
    "Point",
    "clear_path_to_any_part",
    "effective_snookering_balls",
    "full_ball_available",
    "respot_positions",
    "snookered",
    "snookering_balls",
    "spot_occupied",
    "touching",
]


_SAME_POINT_MM = 1e-9
"""Two points closer than this are one point (no direction between them): a degeneracy guard."""
_PARALLEL_SINE = 1e-12
"""Lines whose unit directions' cross product is below this are parallel (no vertex)."""
_SAME_DIRECTION = 1e-6
"""Tangent directions closer than this at a vertex are treated as one (curves touching there)."""
_SAME_DISTANCE_MM = 1e-9
"""Distances closer than this are one distance (float round-off: a mirror image's differs in the
last bits): balls so equally near are ordered by id."""
_ON_CIRCLE_MM = 1e-6
"""A constructed point this close to a circle lies on it (float round-off of the construction)."""

_HULL_D_SAMPLES = 64
"""Points on the D's outline used for the hull that bounds in-hand paths."""
_HULL_CIRCLE_SAMPLES = 32
"""Points on each contact circle used for that hull."""

_FIRST_BATCH = 16
"""Placements in the first batch tried (later batches double up to ``batch_size``)."""


@dataclass(frozen=True)
class GeometryConfig:
    """Tolerances and sampling of the rule geometry (lengths in mm)."""

    graze_tolerance_mm: float = 1e-6
    """A ball obstructs a path only if it cuts into the cue ball's swept band by more than this
    (and is met more than this before the target): absorbs float round-off at exact grazes."""
    touch_tolerance_mm: float = 1.0
    """Two balls whose centres are within a diameter plus this are touching (position noise).
    A placement (cue ball in hand, a spotted colour) must keep more than this gap."""
    placement_gap_mm: float = 0.1
    """Extra gap beyond the touch tolerance left when a colour is spotted next to another ball."""
    cushion_tolerance_mm: float = 3.0
    """For the miss questions (angled), a cushion nose stops a straight stroke only where the cue
    ball's centre would come closer to it than a ball radius less this (mm): a ball measured at
    rest against a cushion, its centre a little inside a radius of it (position noise), is not
    angled by that cushion. At a ball radius or more no cushion stops a path (a table without
    cushions)."""
    d_sampling_step_mm: float = 10.0
    """Spacing of the grid of cue-ball placements tried over the D (and along its arc)."""
    boundary_offset_mm: float = 1e-3
    """How far a candidate direction or placement is nudged off a critical line or edge; regions
    narrower than this are not resolved. Must exceed ``graze_tolerance_mm``."""
    relevance_margin_mm: float = 2.0
    """In hand, balls farther than a diameter plus this from every path between the D and a ball on
    are left out of the search (covers the polygonal outline used to find them)."""
    batch_size: int = 2048
    """Placements evaluated per vectorised batch (bounds memory, not results)."""
    same_distance_mm: float = 1.0
    """Snookering balls whose centres lie within this of the nearest one's distance from the cue
    ball are as near: all of them are effective snookering balls (Section 2), whatever their
    names."""

    def __post_init__(self) -> None:
        lengths = {
            "touch_tolerance_mm": self.touch_tolerance_mm,
            "placement_gap_mm": self.placement_gap_mm,
            "graze_tolerance_mm": self.graze_tolerance_mm,
            "relevance_margin_mm": self.relevance_margin_mm,
            "same_distance_mm": self.same_distance_mm,
            "cushion_tolerance_mm": self.cushion_tolerance_mm,
        }
        for name, value in lengths.items():
            if not math.isfinite(value) or value < 0.0:
                raise ValueError(f"GeometryConfig.{name} must be a finite length >= 0 mm, got {value!r}")
        for name, value in {
            "d_sampling_step_mm": self.d_sampling_step_mm,
            "boundary_offset_mm": self.boundary_offset_mm,
        }.items():
            if not math.isfinite(value) or value <= 0.0:
                raise ValueError(f"GeometryConfig.{name} must be a finite length > 0 mm, got {value!r}")
        if self.boundary_offset_mm <= self.graze_tolerance_mm:
            raise ValueError("GeometryConfig.boundary_offset_mm must exceed graze_tolerance_mm")
        if self.batch_size < 1:
            raise ValueError(f"GeometryConfig.batch_size must be >= 1, got {self.batch_size!r}")


DEFAULT_GEOMETRY_CONFIG = GeometryConfig()
"""The default tolerances (an immutable value, safe to share)."""


# ---------------------------------------------------------------------------------------------
# Input validation


def _point(value: object, what: str) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be an (x_mm, y_mm) pair, got {value!r}") from None
    if arr.shape != (2,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{what} must be a finite (x_mm, y_mm) pair, got {value!r}")
    return arr


def _ball_table(balls: Mapping[str, Point]) -> tuple[list[str], np.ndarray]:
    """Validated ids and an (n, 2) array of centres; the cue ball may not be among them."""
    if not isinstance(balls, Mapping):
        raise ValueError(f"balls must map ball ids to (x_mm, y_mm), got {type(balls).__name__}")
    ids = list(balls)
    for ball_id in ids:
        if not isinstance(ball_id, str):
            raise ValueError(f"ball ids must be strings, got {ball_id!r}")
        if ball_kind(ball_id) == CUE_BALL:
            raise ValueError("balls must not contain the cue ball; pass its position as `cue`")
    centres = np.array([_point(balls[i], f"position of {i}") for i in ids], dtype=float).reshape(-1, 2)
    return ids, centres


def _split_on(
    balls: Mapping[str, Point], balls_on: Collection[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centres on, centres not on, whether each ball on is a red) from validated input."""
    ids, centres = _ball_table(balls)
    if isinstance(balls_on, str):
        raise ValueError(f"balls_on must be a collection of ball ids, not the string {balls_on!r}")
    on_set = set(balls_on)
    missing = sorted(on_set.difference(ids))
    if missing:
        raise ValueError(f"balls on not on the table: {', '.join(missing)}")
    if not on_set:
        raise ValueError("no ball is on: the geometry of a stroke needs at least one ball on")
    on_mask = np.array([i in on_set for i in ids], dtype=bool)
    is_red = np.array([ball_kind(i) == RED for i in ids], dtype=bool)
    return centres[on_mask], centres[~on_mask], is_red[on_mask]


# ---------------------------------------------------------------------------------------------
# Straight strokes: when does a moving cue ball meet a ball?


def _cross2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """z-component of the cross product of 2-D vectors (broadcasting)."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _unit(angle: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def _hit_times(
    origins: np.ndarray, directions: np.ndarray, centres: np.ndarray, diameter: float, graze: float
) -> np.ndarray:
    """Distance the cue ball travels before it meets each ball: (n, k, m) mm, ``inf`` = never.

    ``origins`` (n, 2) are cue-ball centres, ``directions`` (n, k, 2) unit vectors per origin,
    ``centres`` (m, 2) ball centres. A ball is met when the cue ball's swept band (one diameter
    either side of the centre's path, a capsule) cuts into it by more than ``graze`` mm; a ball
    already overlapping the cue ball counts (time 0) only if the path moves towards it.
    """
    offsets = centres[None, :, :] - origins[:, None, :]
    along = np.einsum("nkd,nmd->nkm", directions, offsets)
    dist2 = np.einsum("nmd,nmd->nm", offsets, offsets)[:, None, :]
    across2 = np.maximum(dist2 - along * along, 0.0)
    reach = max(diameter - graze, 0.0)
    met = (along > 0.0) & (across2 < reach * reach)
    with np.errstate(invalid="ignore"):
        entry = along - np.sqrt(np.maximum(diameter * diameter - across2, 0.0))
    return np.where(met, np.maximum(entry, 0.0), np.inf)


def _blocked(
    origins: np.ndarray,
    directions: np.ndarray,
    target_time: np.ndarray,
    obstacles: np.ndarray,
    diameter: float,
    graze: float,
) -> np.ndarray:
    """Whether a ball in ``obstacles`` is met before ``target_time`` on each path: (n, k) bool."""
    if len(obstacles) == 0:
        return np.zeros(directions.shape[:2], dtype=bool)
    times = _hit_times(origins, directions, obstacles, diameter, graze)
    return np.any(times < target_time[..., None] - graze, axis=-1)


def _bearings(origins: np.ndarray, centres: np.ndarray, diameter: float):
    """Bearing (rad), distance (mm) and half-width (rad) of each ball's contact cone, (n, m) each."""
    offsets = centres[None, :, :] - origins[:, None, :]
    dist = np.hypot(offsets[..., 0], offsets[..., 1])
    bearing = np.arctan2(offsets[..., 1], offsets[..., 0])
    half = np.arcsin(np.clip(diameter / np.maximum(dist, _SAME_POINT_MM), 0.0, 1.0))
    return bearing, dist, half


def _simultaneous_points(on: np.ndarray, obstacles: np.ndarray, diameter: float):
    """Cue-ball centres touching a ball on and a ball not on at once: (q, 2) and ball-on index (q,).

    Paths aimed at these points meet both balls at the same instant, so the ball met first can
    only change at their directions.
    """
    if len(on) == 0 or len(obstacles) == 0:
        return np.zeros((0, 2)), np.zeros(0, dtype=int)
    a = on[:, None, :]
    b = obstacles[None, :, :]
    gap = np.linalg.norm(b - a, axis=-1)
    ok = (gap < 2.0 * diameter) & (gap > _SAME_POINT_MM)
    ia, ib = np.nonzero(ok)
    if len(ia) == 0:
        return np.zeros((0, 2)), np.zeros(0, dtype=int)
    pa, pb, d = on[ia], obstacles[ib], gap[ia, ib]
    mid = (pa + pb) / 2.0
    axis = (pb - pa) / d[:, None]
    normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    half_chord = np.sqrt(np.maximum(diameter * diameter - (d / 2.0) ** 2, 0.0))[:, None]
    points = np.concatenate([mid + half_chord * normal, mid - half_chord * normal])
    return points, np.concatenate([ia, ia])


def _angle_in(angle: np.ndarray, centre: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Whether ``angle`` lies within ``centre ± half`` (radians, wrap-around aware)."""
    diff = np.angle(np.exp(1j * (angle - centre)))
    return np.abs(diff) <= half


# ---------------------------------------------------------------------------------------------
# Cushions (angled): the noses between the pocket jaws


@dataclass(frozen=True)
class _Cushions:
    """The cushion noses as segments, and how near the cue ball's centre may come to one (mm)."""

    starts: np.ndarray
    """(c, 2) one end of each nose (a jaw)."""
    ends: np.ndarray
    """(c, 2) the other end."""
    reach: float
    """A path is stopped where the centre comes closer than this to a nose."""
    inside: np.ndarray
    """(2,) a point on the cloth (the table's middle): the side of each nose the balls are on."""

    @staticmethod
    def of(table: TableSpec, cfg: GeometryConfig) -> _Cushions:
        starts = np.array([c.start for c in table.cushions], dtype=float).reshape(-1, 2)
        ends = np.array([c.end for c in table.cushions], dtype=float).reshape(-1, 2)
        middle = np.array([table.centre_x_mm, table.length_mm / 2.0])
        return _Cushions(starts, ends, max(table.ball_radius_mm - cfg.cushion_tolerance_mm, 0.0), middle)

    def near(self, origins: np.ndarray, on: np.ndarray, diameter: float) -> _Cushions:
        """The noses that can stop a path from ``origins`` to a ball on: a path between two points
        at least ``reach`` on the cloth side of a nose's line never comes nearer it, so a nose
        matters only if an origin is not, or a ball on is less than a diameter more than that."""
        if self.reach <= 0.0 or len(self.starts) == 0:
            return self
        axis = self.ends - self.starts
        normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1) / np.linalg.norm(axis, axis=1, keepdims=True)
        normal *= np.sign(np.einsum("cd,cd->c", self.inside - self.starts, normal))[:, None]

        def depth(points: np.ndarray) -> np.ndarray:  # (c,) least distance on the cloth side
            if len(points) == 0:
                return np.full(len(self.starts), np.inf)
            return np.min(
                np.einsum("pcd,cd->pc", points[:, None, :] - self.starts[None, :, :], normal), axis=0
            )

        keep = (depth(origins) < self.reach) | (depth(on) < self.reach + diameter)
        return _Cushions(self.starts[keep], self.ends[keep], self.reach, self.inside)

    def times(self, origins: np.ndarray, directions: np.ndarray, graze: float) -> np.ndarray:
        """Distance the cue ball travels before a cushion stops it: (n, k) mm, ``inf`` = never.

        A cue ball already closer than ``reach`` to a nose is stopped at once only if the path moves
        towards it (by more than ``graze``), as a ball already overlapping is met (``_hit_times``).
        """
        n, k = directions.shape[:2]
        best = np.full((n, k), np.inf)
        rho = self.reach
        if rho <= 0.0 or len(self.starts) == 0:
            return best
        for a, b, length, along_axis, normal in self._noses():
            rel = origins - a
            s = np.clip(rel @ along_axis, 0.0, length)
            nearest = a + s[:, None] * along_axis
            away = origins - nearest
            gap = np.hypot(away[:, 0], away[:, 1])
            inside = gap < rho
            outward = away / np.maximum(gap, _SAME_POINT_MM)[:, None]
            towards = -np.einsum("nkd,nd->nk", directions, outward) > graze / max(rho, _SAME_POINT_MM)
            best = np.where(inside[:, None] & towards, 0.0, best)
            # Entering the capsule from outside: through a flat side or round an end (a jaw).
            for side in (-1.0, 1.0):
                p0 = a + side * rho * normal
                den = directions @ normal
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    t = ((p0 - origins) @ normal)[:, None] / den
                    hit = origins[:, None, :] + t[..., None] * directions
                    at = (hit - a) @ along_axis
                ok = ~inside[:, None] & np.isfinite(t) & (t >= 0.0) & (at >= 0.0) & (at <= length)
                best = np.where(ok, np.minimum(best, t), best)
            for end in (a, b):
                off = end - origins
                half_b = np.einsum("nkd,nd->nk", directions, off)
                disc = half_b * half_b - (np.einsum("nd,nd->n", off, off) - rho * rho)[:, None]
                t = half_b - np.sqrt(np.maximum(disc, 0.0))
                ok = ~inside[:, None] & (disc > 0.0) & (t >= 0.0)
                best = np.where(ok, np.minimum(best, t), best)
        return best

    def critical_angles(self, origins: np.ndarray, on: np.ndarray, diameter: float, offset: float) -> list:
        """Directions (n, q) where a cushion can start or stop being met before a ball on, nudged to
        both sides by ``offset`` mm at the distance concerned: tangents to the jaws' circles,
        parallels to the noses, and the directions of the places where the cue ball would touch a
        ball on and a nose at once."""
        rho = self.reach
        if rho <= 0.0 or len(self.starts) == 0:
            return []
        jaws = np.concatenate([self.starts, self.ends])
        j_off = jaws[None, :, :] - origins[:, None, :]
        j_dist = np.hypot(j_off[..., 0], j_off[..., 1])
        j_bearing = np.arctan2(j_off[..., 1], j_off[..., 0])
        j_half = np.arcsin(np.clip(rho / np.maximum(j_dist, _SAME_POINT_MM), 0.0, 1.0))
        j_nudge = offset / np.maximum(j_dist, diameter)
        seg = self.ends - self.starts
        seg_angle = np.arctan2(seg[:, 1], seg[:, 0])[None, :].repeat(len(origins), axis=0)
        far = math.hypot(*np.ptp(jaws, axis=0))
        # Tangents to a jaw's circle; inside one, the directions square to the way out of it.
        bases = [(j_bearing + turn, j_nudge) for turn in (0.0, math.pi / 2.0, -math.pi / 2.0)]
        bases = [(j_bearing - j_half, j_nudge), (j_bearing + j_half, j_nudge), *bases[1:]]
        bases += [(seg_angle, offset / far), (seg_angle + math.pi, offset / far)]
        points = self._touching_points(on, diameter)
        if len(points):
            q_off = points[None, :, :] - origins[:, None, :]
            q_dist = np.hypot(q_off[..., 0], q_off[..., 1])
            bases.append((np.arctan2(q_off[..., 1], q_off[..., 0]), offset / np.maximum(q_dist, diameter)))
        angles = []
        for base, nudge in bases:
            angles += [base - nudge, base + nudge]
        return angles

    def placement_lines(
        self, on: np.ndarray, obstacles: np.ndarray, diameter: float, sim_points: np.ndarray
    ) -> Lines:
        """Straight lines across which whether a ball on can be hit past the noses near it can
        change as the cue ball is placed (in hand, far from every nose): the directions that bound
        the paths open from a place are tangents to the jaws' circles (radius ``reach``; a nose's
        flat side is never an end of them seen from outside its reach) and to the balls' contact
        circles, and the directions of the places where the cue ball would touch a ball on and a
        nose (or a ball not on, ``sim_points``) at once; an open set of directions can only vanish
        where two of those meet: common tangents of a jaw and a ball or of two jaws, tangents from
        such a place to a jaw or a ball, lines through two such places, tangents at a place to the
        circles it lies on, and the noses' flat sides at ``reach``. Empty when no ball on is near a
        nose."""
        near = self.near(np.zeros((0, 2)), on, diameter)
        rho = near.reach
        if rho <= 0.0 or len(near.starts) == 0 or len(on) == 0:
            return _no_lines()
        jaws = np.unique(np.concatenate([near.starts, near.ends]), axis=0)
        balls = np.concatenate([on, obstacles])
        touching = near._touching_points(on, diameter)
        seg = near.ends - near.starts
        along = seg / np.linalg.norm(seg, axis=1, keepdims=True)
        normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
        flats = (
            np.concatenate([near.starts + rho * normal, near.starts - rho * normal]),
            np.concatenate([along, along]),
        )
        # A direction that bounds the open ones is a limit of paths that meet a ball on: its line
        # passes within a diameter of a ball on's centre.
        return _crossing(
            _join(
                _common_tangents_of(jaws, rho, balls, diameter),
                _common_tangents(jaws, jaws, rho, same_set=True),
                flats,
                _tangents_from(touching, balls, diameter),
                _tangents_from(np.concatenate([touching, sim_points]), jaws, rho),
                _through_pairs(touching, np.concatenate([touching, sim_points])),
                _tangent_at(*_points_on_obstacles(touching, on, diameter)),
                _tangent_at(*_points_on_obstacles(touching, jaws, rho)),
            ),
            on,
            diameter,
        )

    def centre_lines(self, on: np.ndarray, diameter: float) -> Lines:
        """Straight lines across which a nose near a ball on can start or stop cutting the path
        at that ball's centre before contact (full ball, 3.14(c)), the cue ball placed in hand:
        tangents from the ball's centre to the jaws' circles, and lines from it through the places
        where the cue ball would touch it and a nose at once."""
        near = self.near(np.zeros((0, 2)), on, diameter)
        if near.reach <= 0.0 or len(near.starts) == 0 or len(on) == 0:
            return _no_lines()
        jaws = np.unique(np.concatenate([near.starts, near.ends]), axis=0)
        return _join(
            _tangents_from(on, jaws, near.reach),
            _through_pairs(on, near._touching_points(on, diameter)),
        )

    def _noses(self) -> Iterator[tuple[np.ndarray, np.ndarray, float, np.ndarray, np.ndarray]]:
        """Each nose longer than ``_SAME_POINT_MM``: its two ends (mm), its length (mm), the unit
        vector along it and the unit normal to it."""
        for a, b in zip(self.starts, self.ends, strict=True):
            seg = b - a
            length = float(np.hypot(seg[0], seg[1]))
            if length <= _SAME_POINT_MM:
                continue
            axis = seg / length
            yield a, b, length, axis, np.array([-axis[1], axis[0]])

    def _touching_points(self, on: np.ndarray, diameter: float) -> np.ndarray:
        """Cue-ball centres a diameter from a ball on and ``reach`` from a nose."""
        rho = self.reach
        found = []
        for a, _, length, axis, normal in self._noses():
            for side in (-1.0, 1.0):
                p0 = a + side * rho * normal
                f = p0 - on
                half_b = f @ axis
                disc = half_b * half_b - (np.einsum("md,md->m", f, f) - diameter * diameter)
                for sign in (-1.0, 1.0):
                    t = -half_b + sign * np.sqrt(np.maximum(disc, 0.0))
                    x = p0 + t[:, None] * axis
                    at = (x - a) @ axis
                    found.append(x[(disc >= 0.0) & (at >= 0.0) & (at <= length)])
        for end in np.concatenate([self.starts, self.ends]):
            gap = np.linalg.norm(on - end, axis=1)
            ok = (gap > _SAME_POINT_MM) & (gap <= diameter + rho) & (gap >= diameter - rho)
            if not np.any(ok):
                continue
            c, d = on[ok], gap[ok]
            axis = (end - c) / d[:, None]
            normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
            along = (d * d + diameter * diameter - rho * rho) / (2.0 * d)
            across = np.sqrt(np.maximum(diameter * diameter - along * along, 0.0))
            found += [c + along[:, None] * axis + s * across[:, None] * normal for s in (-1.0, 1.0)]
        return np.concatenate(found) if found else np.zeros((0, 2))


# ---------------------------------------------------------------------------------------------
# Predicates for a batch of cue-ball positions (n, 2) -> (n,) bool


def _both_edges_free(
    origins: np.ndarray, on: np.ndarray, obstacles: np.ndarray, diameter: float, cfg: GeometryConfig
) -> np.ndarray:
    """Whether some ball on can be hit on both extreme edges, per origin (= not snookered)."""
    bearing, dist, half = _bearings(origins, on, diameter)
    edge_angles = np.concatenate([bearing - half, bearing + half], axis=1)
    directions = _unit(edge_angles)
    travel = np.sqrt(np.maximum(dist * dist - diameter * diameter, 0.0))
    blocked = _blocked(
        origins,
        directions,
        np.concatenate([travel, travel], axis=1),
        obstacles,
        diameter,
        cfg.graze_tolerance_mm,
    )
    m = on.shape[0]
    free = ~blocked[:, :m] & ~blocked[:, m:]
    return np.any(free, axis=1)


def _path_to_any_part(
    origins: np.ndarray,
    on: np.ndarray,
    obstacles: np.ndarray,
    diameter: float,
    cfg: GeometryConfig,
    cushions: _Cushions,
) -> np.ndarray:
    """Whether some straight path first meets a ball on (before a ball not on or a cushion), per origin."""
    everything = np.concatenate([on, obstacles])
    bearing, dist, half = _bearings(origins, everything, diameter)
    nudge = cfg.boundary_offset_mm / np.maximum(dist, diameter)
    angles = [bearing[:, : len(on)]]
    for sign in (-1.0, 1.0):
        for side in (-1.0, 1.0):
            angles.append(bearing + sign * half + side * nudge)
    points, _ = _simultaneous_points(on, obstacles, diameter)
    if len(points):
        q_off = points[None, :, :] - origins[:, None, :]
        q_dist = np.maximum(np.hypot(q_off[..., 0], q_off[..., 1]), diameter)
        q_angle = np.arctan2(q_off[..., 1], q_off[..., 0])
        q_nudge = cfg.boundary_offset_mm / q_dist
        angles += [q_angle - q_nudge, q_angle + q_nudge]
    cushions = cushions.near(origins, on, diameter)
    angles += cushions.critical_angles(origins, on, diameter, cfg.boundary_offset_mm)
    directions = _unit(np.concatenate(angles, axis=1))
    times = _hit_times(origins, directions, everything, diameter, cfg.graze_tolerance_mm)
    first_on = times[..., : len(on)].min(axis=-1)
    first_off = times[..., len(on) :].min(axis=-1, initial=np.inf)
    first_off = np.minimum(first_off, cushions.times(origins, directions, cfg.graze_tolerance_mm))
    clear = np.isfinite(first_on) & (first_on < first_off - cfg.graze_tolerance_mm)
    return np.any(clear, axis=1)


def _full_ball(
    origins: np.ndarray,
    on: np.ndarray,
    on_is_red: np.ndarray,
    obstacles: np.ndarray,
    diameter: float,
    cfg: GeometryConfig,
    cushions: _Cushions,
) -> np.ndarray:
    """Whether a full-ball contact is available, per origin (module docstring: reds by full width;
    the line to the centre is stopped by a cushion too, angled)."""
    graze = cfg.graze_tolerance_mm
    bearing, dist, _ = _bearings(origins, on, diameter)
    centre_dirs = _unit(bearing)
    reach = np.maximum(dist - diameter, 0.0)
    centre_free = ~_blocked(origins, centre_dirs, reach, obstacles, diameter, graze)
    centre_free &= ~(cushions.near(origins, on, diameter).times(origins, centre_dirs, graze) < reach - graze)
    result = np.any(centre_free & ~on_is_red[None, :], axis=1)
    if not np.any(on_is_red):
        return result
    reds = on[on_is_red]
    width_free = centre_free[:, on_is_red] & _red_width_free(origins, reds, obstacles, diameter, cfg)
    return result | np.any(width_free, axis=1)


def _red_width_free(
    origins: np.ndarray, reds: np.ndarray, obstacles: np.ndarray, diameter: float, cfg: GeometryConfig
) -> np.ndarray:
    """Whether every path across each red's width (edges included) avoids balls not on: (n, r)."""
    graze = cfg.graze_tolerance_mm
    r = reds.shape[0]
    bearing, dist, half = _bearings(origins, reds, diameter)
    travel = np.sqrt(np.maximum(dist * dist - diameter * diameter, 0.0))
    edges = np.concatenate([bearing - half, bearing + half], axis=1)
    edge_blocked = _blocked(
        origins, _unit(edges), np.concatenate([travel, travel], axis=1), obstacles, diameter, graze
    )
    free = ~edge_blocked[:, :r] & ~edge_blocked[:, r:]
    if len(obstacles) == 0:
        return free
    # Interior critical directions: the edges of each obstacle's cone and the directions of the
    # points where a red and an obstacle are met together, nudged to both sides.
    ob_bearing, ob_dist, ob_half = _bearings(origins, obstacles, diameter)
    ob_nudge = cfg.boundary_offset_mm / np.maximum(ob_dist, diameter)
    critical = [ob_bearing + s * ob_half + t * ob_nudge for s in (-1.0, 1.0) for t in (-1.0, 1.0)]
    points, _ = _simultaneous_points(reds, obstacles, diameter)
    if len(points):
        q_off = points[None, :, :] - origins[:, None, :]
        q_angle = np.arctan2(q_off[..., 1], q_off[..., 0])
        q_nudge = cfg.boundary_offset_mm / np.maximum(np.hypot(q_off[..., 0], q_off[..., 1]), diameter)
        critical += [q_angle - q_nudge, q_angle + q_nudge]
    angles = np.concatenate(critical, axis=1)
    directions = _unit(angles)
    all_times = _hit_times(origins, directions, np.concatenate([reds, obstacles]), diameter, graze)
    red_times = all_times[..., :r]
    first_obstacle = all_times[..., r:].min(axis=-1)
    inside = _angle_in(angles[:, :, None], bearing[:, None, :], half[:, None, :])
    blocked = inside & (first_obstacle[..., None] < red_times - graze)
    return free & ~np.any(blocked, axis=1)


# ---------------------------------------------------------------------------------------------
# Cue ball in hand: placements on or inside the D


def _legal_placements(
    points: np.ndarray, centres: np.ndarray, table: TableSpec, cfg: GeometryConfig
) -> np.ndarray:
    """Points in the D where the cue ball touches no ball."""
    if len(points) == 0:
        return points
    keep = table.in_d(points)
    if len(centres):
        gaps = np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=-1)
        keep &= np.all(gaps > table.ball_diameter_mm + cfg.touch_tolerance_mm, axis=1)
    return points[keep]


def _d_grid(table: TableSpec, cfg: GeometryConfig) -> np.ndarray:
    """A grid over the D symmetric about the centre line, plus points along its arc and corners."""
    step = cfg.d_sampling_step_mm
    cx, cy = table.d_centre
    radius = table.d_radius_mm
    k = math.floor(radius / step)
    xs = cx + step * np.arange(-k, k + 1)
    ys = cy - step * np.arange(0, k + 1)
    gx, gy = np.meshgrid(xs, ys)
    grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
    arc_count = max(math.ceil(math.pi * radius / step), 2) + 1
    theta = np.linspace(math.pi, 2.0 * math.pi, arc_count)
    arc = np.stack([cx + radius * np.cos(theta), cy + radius * np.sin(theta)], axis=1)
    return np.concatenate([grid, arc])


Lines = tuple[np.ndarray, np.ndarray]
"""Straight lines as (points (L, 2), unit directions (L, 2))."""


def _no_lines() -> Lines:
    return np.zeros((0, 2)), np.zeros((0, 2))


def _join(*parts: Lines) -> Lines:
    return np.concatenate([p for p, _ in parts]), np.concatenate([v for _, v in parts])


def _common_tangents(a: np.ndarray, b: np.ndarray, radius: float, same_set: bool = False) -> Lines:
    """The outer and (where they exist) inner common tangents of equal circles around ``a`` × ``b``."""
    if len(a) == 0 or len(b) == 0:
        return _no_lines()
    ia, ib = np.meshgrid(np.arange(len(a)), np.arange(len(b)), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    if same_set:
        keep = ia < ib
        ia, ib = ia[keep], ib[keep]
    pa, pb = a[ia], b[ib]
    d = np.linalg.norm(pb - pa, axis=1)
    ok = d > _SAME_POINT_MM
    pa, pb, d = pa[ok], pb[ok], d[ok]
    axis = (pb - pa) / d[:, None]
    normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    points = [pa + radius * normal, pa - radius * normal]
    dirs = [axis, axis]
    inner = d > 2.0 * radius
    if np.any(inner):
        mid = (pa[inner] + pb[inner]) / 2.0
        tilt = np.arcsin(2.0 * radius / d[inner])
        base = np.arctan2(axis[inner, 1], axis[inner, 0])
        points += [mid, mid]
        dirs += [_unit(base + tilt), _unit(base - tilt)]
    return np.concatenate(points), np.concatenate(dirs)


def _common_tangents_of(a: np.ndarray, ra: float, b: np.ndarray, rb: float) -> Lines:
    """The outer and (where they exist) inner common tangents of circles of radius ``ra`` around
    ``a`` and of radius ``rb`` around ``b`` (every pair)."""
    if len(a) == 0 or len(b) == 0:
        return _no_lines()
    pa, pb, d = _distinct_pairs(a, b)
    axis = (pb - pa) / d[:, None]
    across = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    points, dirs = [], []
    # A line n·x = p tangent to both: n·(pb − pa) = ±rb − ra (outer +, inner −).
    for reach in (rb - ra, -rb - ra):
        cos = reach / d
        fits = np.abs(cos) <= 1.0
        sin = np.sqrt(np.maximum(1.0 - cos[fits] ** 2, 0.0))
        for sign in (-1.0, 1.0):
            n = cos[fits, None] * axis[fits] + sign * sin[:, None] * across[fits]
            points.append(pa[fits] - ra * n)
            dirs.append(np.stack([-n[:, 1], n[:, 0]], axis=1))
    return np.concatenate(points), np.concatenate(dirs)


def _tangents_from(points: np.ndarray, centres: np.ndarray, radius: float) -> Lines:
    """Lines through each point tangent to each circle (radius ``radius``) it lies outside of."""
    if len(points) == 0 or len(centres) == 0:
        return _no_lines()
    off = centres[None, :, :] - points[:, None, :]
    dist = np.hypot(off[..., 0], off[..., 1])
    ip, ic = np.nonzero(dist > radius + _SAME_POINT_MM)
    bearing = np.arctan2(off[ip, ic, 1], off[ip, ic, 0])
    half = np.arcsin(radius / dist[ip, ic])
    origin = points[ip]
    return np.concatenate([origin, origin]), np.concatenate([_unit(bearing - half), _unit(bearing + half)])


def _tangent_at(points: np.ndarray, centres: np.ndarray) -> Lines:
    """The tangent line at each point of the circle around the matching centre."""
    radial = points - centres
    norm = np.linalg.norm(radial, axis=1, keepdims=True)
    ok = norm[:, 0] > _SAME_POINT_MM
    radial = radial[ok] / norm[ok]
    return points[ok], np.stack([-radial[:, 1], radial[:, 0]], axis=1)


def _through_pairs(a: np.ndarray, b: np.ndarray) -> Lines:
    """The line through each point of ``a`` and each point of ``b`` (distinct pairs)."""
    if len(a) == 0 or len(b) == 0:
        return _no_lines()
    pa, pb, d = _distinct_pairs(a, b)
    return pa, (pb - pa) / d[:, None]


def _distinct_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every point of ``a`` with every point of ``b`` (pairs more than ``_SAME_POINT_MM`` apart): the
    points of each pair and their distances."""
    ia, ib = np.meshgrid(np.arange(len(a)), np.arange(len(b)), indexing="ij")
    pa, pb = a[ia.ravel()], b[ib.ravel()]
    d = np.linalg.norm(pb - pa, axis=1)
    ok = d > _SAME_POINT_MM
    return pa[ok], pb[ok], d[ok]


def _nudged(x: np.ndarray, ta: np.ndarray, tb: np.ndarray, delta: float) -> np.ndarray:
    """Points ``delta`` from each vertex ``x`` along ±ta±tb (into the four cells around it)."""
    bis_sum = ta + tb
    bis_diff = ta - tb
    perp_a = np.stack([-ta[:, 1], ta[:, 0]], axis=1)
    small_sum = np.linalg.norm(bis_sum, axis=1) < _SAME_DIRECTION
    small_diff = np.linalg.norm(bis_diff, axis=1) < _SAME_DIRECTION
    bis_sum[small_sum] = perp_a[small_sum]
    bis_diff[small_diff] = perp_a[small_diff]
    bis_sum /= np.linalg.norm(bis_sum, axis=1, keepdims=True)
    bis_diff /= np.linalg.norm(bis_diff, axis=1, keepdims=True)
    return np.concatenate(
        [x + delta * bis_sum, x - delta * bis_sum, x + delta * bis_diff, x - delta * bis_diff]
    )


def _vertex_candidates(
    lines: Lines, circles: tuple[np.ndarray, np.ndarray], table: TableSpec, cfg: GeometryConfig
) -> Iterator[np.ndarray]:
    """Points nudged off every vertex inside the D of the arrangement of lines and circles, in chunks.

    The D's chord and arc are added to the arrangement. At a vertex where curves with tangent
    directions t1 and t2 cross, the four cells around it contain the points at ``boundary_offset_mm``
    along ±t1±t2; every bounded cell inside the D has such a vertex.
    """
    cx, cy = table.d_centre
    d_radius = table.d_radius_mm
    delta = cfg.boundary_offset_mm
    centre = np.array([cx, cy])
    line_p, line_v = _join(lines, (centre[None, :], np.array([[1.0, 0.0]])))
    reach = np.abs(_cross2(centre[None, :] - line_p, line_v))
    line_p, line_v = line_p[reach <= d_radius + delta], line_v[reach <= d_radius + delta]
    circ_c = np.concatenate([circles[0], centre[None, :]])
    circ_r = np.concatenate([circles[1], [d_radius]])
    near = np.linalg.norm(circ_c - centre, axis=1) <= d_radius + circ_r + delta
    circ_c, circ_r = circ_c[near], circ_r[near]

    def in_d(x: np.ndarray, ta: np.ndarray, tb: np.ndarray) -> np.ndarray:
        keep = (np.linalg.norm(x - centre, axis=1) <= d_radius + 2.0 * delta) & (x[:, 1] <= cy + 2.0 * delta)
        return _nudged(x[keep], ta[keep], tb[keep], delta)

    # Circle × circle (the D's arc and the no-touch circles).
    i, j = np.triu_indices(len(circ_c), k=1)
    d = np.linalg.norm(circ_c[j] - circ_c[i], axis=1)
    ri, rj = circ_r[i], circ_r[j]
    ok = (d > _SAME_POINT_MM) & (d <= ri + rj) & (d >= np.abs(ri - rj))
    i, j, d, ri, rj = i[ok], j[ok], d[ok], ri[ok], rj[ok]
    axis = (circ_c[j] - circ_c[i]) / d[:, None]
    normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    along = (d * d + ri * ri - rj * rj) / (2.0 * d)
    across = np.sqrt(np.maximum(ri * ri - along * along, 0.0))
    for sign in (-1.0, 1.0):
        x = circ_c[i] + along[:, None] * axis + sign * across[:, None] * normal
        rad_i = (x - circ_c[i]) / ri[:, None]
        rad_j = (x - circ_c[j]) / rj[:, None]
        yield in_d(
            x, np.stack([-rad_i[:, 1], rad_i[:, 0]], axis=1), np.stack([-rad_j[:, 1], rad_j[:, 0]], axis=1)
        )

    # Line × circle.
    il, ic = np.meshgrid(np.arange(len(line_p)), np.arange(len(circ_c)), indexing="ij")
    il, ic = il.ravel(), ic.ravel()
    f = line_p[il] - circ_c[ic]
    half_b = np.einsum("kd,kd->k", f, line_v[il])
    disc = half_b * half_b - (np.einsum("kd,kd->k", f, f) - circ_r[ic] ** 2)
    ok = disc >= 0.0
    il, ic, half_b, disc = il[ok], ic[ok], half_b[ok], disc[ok]
    for sign in (-1.0, 1.0):
        s = -half_b + sign * np.sqrt(disc)
        x = line_p[il] + s[:, None] * line_v[il]
        radial = (x - circ_c[ic]) / circ_r[ic, None]
        yield in_d(x, line_v[il], np.stack([-radial[:, 1], radial[:, 0]], axis=1))

    # Line × line, a block of rows at a time.
    rows = max(1, cfg.batch_size // max(len(line_p), 1))
    for first in range(0, len(line_p), rows):
        i = np.arange(first, min(first + rows, len(line_p)))
        i, j = np.meshgrid(i, np.arange(len(line_p)), indexing="ij")
        keep = j > i
        i, j = i[keep], j[keep]
        cross = _cross2(line_v[i], line_v[j])
        ok = np.abs(cross) > _PARALLEL_SINE
        i, j, cross = i[ok], j[ok], cross[ok]
        s = _cross2(line_p[j] - line_p[i], line_v[j]) / cross
        yield in_d(line_p[i] + s[:, None] * line_v[i], line_v[i], line_v[j])


def _batches(points: np.ndarray, size: int) -> Iterator[np.ndarray]:
    """Consecutive slices, small first (answers are usually found early), growing up to ``size``."""
    start, step = 0, min(_FIRST_BATCH, size)
    while start < len(points):
        yield points[start : start + step]
        start += step
        step = min(2 * step, size)


def _placement_where(
    predicate: Callable[[np.ndarray], np.ndarray],
    critical_lines: Callable[[], Lines],
    centres: np.ndarray,
    table: TableSpec,
    cfg: GeometryConfig,
) -> np.ndarray | None:
    """A legal in-hand placement where ``predicate`` holds (grid first, then vertices), or None."""
    grid = _legal_placements(_d_grid(table, cfg), centres, table, cfg)
    for batch in _batches(grid, cfg.batch_size):
        hits = np.flatnonzero(predicate(batch))
        if len(hits):
            return batch[hits[0]]
    no_touch = table.ball_diameter_mm + cfg.touch_tolerance_mm
    circles = (centres, np.full(len(centres), no_touch))
    for chunk in _vertex_candidates(critical_lines(), circles, table, cfg):
        for batch in _batches(_legal_placements(chunk, centres, table, cfg), cfg.batch_size):
            hits = np.flatnonzero(predicate(batch))
            if len(hits):
                return batch[hits[0]]
    return None


def _reachable_from_d(
    obstacles: np.ndarray, on: np.ndarray, table: TableSpec, cfg: GeometryConfig
) -> np.ndarray:
    """Which obstacles a cue ball placed in the D could meet on its way to contact with a ball on.

    Every such path lies in the convex hull of the D and the balls on's contact circles; an
    obstacle more than a diameter (plus ``relevance_margin_mm``) outside it is never met first.
    """
    if len(obstacles) == 0 or len(on) == 0:
        return np.zeros(len(obstacles), dtype=bool)
    diameter = table.ball_diameter_mm
    ring = _unit(np.linspace(0.0, 2.0 * math.pi, _HULL_CIRCLE_SAMPLES, endpoint=False))
    outline = np.concatenate(
        [table.d_boundary(_HULL_D_SAMPLES), (on[:, None, :] + diameter * ring[None, :, :]).reshape(-1, 2)]
    )
    facets = ConvexHull(outline).equations
    outside = np.max(obstacles @ facets[:, :2].T + facets[:, 2], axis=1)
    return outside <= diameter + cfg.relevance_margin_mm


def _points_on_obstacles(
    points: np.ndarray, obstacles: np.ndarray, diameter: float
) -> tuple[np.ndarray, np.ndarray]:
    """Pair each point with the obstacle whose contact circle it lies on (for its tangent line)."""
    if len(points) == 0 or len(obstacles) == 0:
        return np.zeros((0, 2)), np.zeros((0, 2))
    gaps = np.abs(np.linalg.norm(points[:, None, :] - obstacles[None, :, :], axis=-1) - diameter)
    ip, io = np.nonzero(gaps < _ON_CIRCLE_MM)
    return points[ip], obstacles[io]


@dataclass(frozen=True)
class _Question:
    """A yes/no geometry question: its answer per cue-ball position, and where it can change in hand."""

    holds_at: Callable[[np.ndarray], np.ndarray]
    """(n, 2) cue-ball centres -> (n,) bool."""
    critical_lines: Callable[[], Lines]
    """The straight lines across which the answer can change as the cue ball moves."""
    centres: np.ndarray
    """Every ball on the table (placements must not touch them)."""

    def answer(self, cue: Point | None, table: TableSpec, cfg: GeometryConfig) -> bool:
        """At the cue ball; in hand, whether it holds from some legal placement in the D."""
        if cue is not None:
            return bool(self.holds_at(_point(cue, "cue")[None, :])[0])
        return self.where_in_hand(table, cfg) is not None

    def where_in_hand(self, table: TableSpec, cfg: GeometryConfig) -> np.ndarray | None:
        return _placement_where(self.holds_at, self.critical_lines, self.centres, table, cfg)


def _layout(
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec,
    cfg: GeometryConfig,
    in_hand: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(centres on, obstacles, whether each ball on is a red, every centre) for one question; with the
    cue ball in hand only the obstacles that can stand between the D and a ball on count."""
    on, obstacles, on_is_red = _split_on(balls, balls_on)
    everything = np.concatenate([on, obstacles])
    if in_hand:
        obstacles = obstacles[_reachable_from_d(obstacles, on, table, cfg)]
    return on, obstacles, on_is_red, everything


def _can_hit_both_edges(
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec,
    cfg: GeometryConfig,
    in_hand: bool = False,
) -> _Question:
    on, obstacles, _, everything = _layout(balls, balls_on, table, cfg, in_hand)
    diameter = table.ball_diameter_mm

    def critical_lines() -> Lines:
        points, owner = _simultaneous_points(on, obstacles, diameter)
        return _join(_common_tangents(on, obstacles, diameter), _tangent_at(points, on[owner]))

    return _Question(
        lambda origins: _both_edges_free(origins, on, obstacles, diameter, cfg), critical_lines, everything
    )


def _any_part_open(
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec,
    cfg: GeometryConfig,
    in_hand: bool = False,
) -> _Question:
    on, obstacles, _, everything = _layout(balls, balls_on, table, cfg, in_hand)
    diameter = table.ball_diameter_mm
    cushions = _Cushions.of(table, cfg)

    def critical_lines() -> Lines:
        points, owner = _simultaneous_points(on, obstacles, diameter)
        relevant = np.concatenate([on, obstacles])
        return _join(
            _common_tangents(on, obstacles, diameter),
            _crossing(_common_tangents(obstacles, obstacles, diameter, same_set=True), on, diameter),
            _tangent_at(points, on[owner]),
            _tangents_from(points, relevant, diameter),
            _through_pairs(points, points),
            cushions.placement_lines(on, obstacles, diameter, points),
        )

    return _Question(
        lambda origins: _path_to_any_part(origins, on, obstacles, diameter, cfg, cushions),
        critical_lines,
        everything,
    )


def _crossing(lines: Lines, centres: np.ndarray, radius: float) -> Lines:
    """The lines that pass within ``radius`` of some centre (they can graze a ball on's contact circle)."""
    points, dirs = lines
    if len(points) == 0 or len(centres) == 0:
        return _no_lines()
    gaps = np.abs(_cross2(centres[None, :, :] - points[:, None, :], dirs[:, None, :]))
    keep = np.any(gaps <= radius + _ON_CIRCLE_MM, axis=1)
    return points[keep], dirs[keep]


def _full_ball_open(
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec,
    cfg: GeometryConfig,
    in_hand: bool = False,
) -> _Question:
    on, obstacles, on_is_red, everything = _layout(balls, balls_on, table, cfg, in_hand)
    diameter = table.ball_diameter_mm
    cushions = _Cushions.of(table, cfg)

    def critical_lines() -> Lines:
        colours, reds = on[~on_is_red], on[on_is_red]
        c_points, _ = _simultaneous_points(colours, obstacles, diameter)
        r_points, r_owner = _simultaneous_points(reds, obstacles, diameter)
        return _join(
            _tangents_from(colours, obstacles, diameter),
            _through_pairs(colours, c_points),
            _common_tangents(reds, obstacles, diameter),
            _tangent_at(r_points, reds[r_owner]),
            _tangent_at(*_points_on_obstacles(r_points, obstacles, diameter)),
            cushions.centre_lines(on, diameter),
        )

    return _Question(
        lambda origins: _full_ball(origins, on, on_is_red, obstacles, diameter, cfg, cushions),
        critical_lines,
        everything,
    )


# ---------------------------------------------------------------------------------------------
# Public questions


def snookered(
    cue: Point | None,
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
) -> bool:
    """Whether the cue ball is snookered: no ball on can be hit on both extreme edges.

    ``cue`` is the cue-ball centre in mm, or ``None`` when in hand (snookered only if snookered
    from every legal placement on or inside the D; with no legal placement at all, True).
    ``balls`` excludes the cue ball; ``balls_on`` are ids in ``balls``. Raises ValueError on bad input.
    """
    return not _can_hit_both_edges(balls, balls_on, table, config, in_hand=cue is None).answer(
        cue, table, config
    )


def clear_path_to_any_part(
    cue: Point | None,
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
) -> bool:
    """Whether a straight stroke can make first contact with some part of a ball on (3.14(b)).

    ``cue`` ``None`` = in hand: True if this holds from some legal placement in the D.
    """
    return _any_part_open(balls, balls_on, table, config, in_hand=cue is None).answer(cue, table, config)


def full_ball_available(
    cue: Point | None,
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
) -> bool:
    """Whether a full-ball contact on a ball on is open (3.14(c)).

    A colour on: the straight path at its centre meets it before any ball not on. A red on: the
    full width of some red (every path from edge to edge) is free of balls not on; other reds never
    hide a red. ``cue`` ``None`` = in hand: True if this holds from some legal placement in the D.
    """
    return _full_ball_open(balls, balls_on, table, config, in_hand=cue is None).answer(cue, table, config)


def _obstructions(
    cue: Point,
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec,
    config: GeometryConfig,
) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """(ids of the balls not on, their distances from the cue ball in mm, ids of the balls on, and
    (on, not on) bool: whether each ball not on obstructs an extreme-edge path to each ball on)."""
    origin = _point(cue, "cue")[None, :]
    ids, centres = _ball_table(balls)
    on_set = set(balls_on)
    on_ids = [i for i in ids if i in on_set]
    on = centres[[i in on_set for i in ids]]
    off_ids = [i for i in ids if i not in on_set]
    off = centres[[i not in on_set for i in ids]]
    diameter = table.ball_diameter_mm
    bearing, dist, half = _bearings(origin, on, diameter)
    travel = np.sqrt(np.maximum(dist * dist - diameter * diameter, 0.0))
    directions = _unit(np.concatenate([bearing - half, bearing + half], axis=1))
    times = _hit_times(origin, directions, off, diameter, config.graze_tolerance_mm)
    limit = np.concatenate([travel, travel], axis=1)[..., None] - config.graze_tolerance_mm
    edge_blocked = (times < limit)[0]
    m = len(on_ids)
    per_on = edge_blocked[:m] | edge_blocked[m:]
    return off_ids, np.linalg.norm(off - origin, axis=1), on_ids, per_on


def snookering_balls(
    cue: Point,
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
) -> list[str]:
    """The balls not on that snooker the cue ball, nearest to the cue ball first; [] if not snookered.

    A ball snookers when it obstructs an extreme-edge path to some ball on. The effective
    snookering balls (:func:`effective_snookering_balls`, the nearest, but none where different
    reds are obstructed by different balls) are among them, as needed to judge a snooker behind a
    free ball (3.10). The cue ball must be on the table.
    """
    if not snookered(cue, balls, balls_on, table, config):
        return []
    off_ids, gaps, _, per_on = _obstructions(cue, balls, balls_on, table, config)
    obstructing = np.any(per_on, axis=0)
    return [off_ids[k] for k in np.argsort(gaps, kind="stable") if obstructing[k]]


def effective_snookering_balls(
    cue: Point,
    balls: Mapping[str, Point],
    balls_on: Collection[str],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
) -> list[str]:
    """The effective snookering balls (Section 2, 16(b)-(c)): of the balls that snooker the cue ball
    (:func:`snookering_balls`), the nearest to it, and every other one as near (within
    ``config.same_distance_mm``); [] if not snookered. Which of two equally near balls is named
    first does not decide which snookers. When the balls on are reds (more than one), each red's own
    effective balls are found so, and only a ball effective for every red is effective: reds
    obstructed by different balls not on leave no effective snookering ball (16(c))."""
    blockers = snookering_balls(cue, balls, balls_on, table, config)
    if not blockers:
        return []
    off_ids, gaps, on_ids, per_on = _obstructions(cue, balls, balls_on, table, config)

    def nearest(obstructing: np.ndarray) -> set[str]:
        if not np.any(obstructing):
            return set()
        least = float(np.min(gaps[obstructing]))
        return {off_ids[k] for k in np.flatnonzero(obstructing) if gaps[k] <= least + config.same_distance_mm}

    effective = nearest(np.any(per_on, axis=0))
    if len(on_ids) > 1 and all(ball_kind(b) == RED for b in on_ids):
        for row in per_on:
            effective &= nearest(row)
    return [b for b in blockers if b in effective]


def touching(
    cue: Point,
    balls: Mapping[str, Point],
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
    table: TableSpec = STANDARD_TABLE,
) -> list[str]:
    """Ids of the balls the cue ball rests against, nearest first; balls equally near (within
    :data:`_SAME_DISTANCE_MM`) in the order of their ids, so that the answer does not follow the
    order the balls are listed in (a JSON object's keys have none).

    Touching = centre distance at most a ball diameter plus ``config.touch_tolerance_mm``.
    """
    origin = _point(cue, "cue")
    ids, centres = _ball_table(balls)
    if not ids:
        return []
    dist = np.linalg.norm(centres - origin, axis=1)
    limit = table.ball_diameter_mm + config.touch_tolerance_mm
    near = sorted((float(dist[k]), ids[k]) for k in range(len(ids)) if dist[k] <= limit)
    named: list[str] = []
    while near:
        nearest = near[0][0]
        alike = [ball for d, ball in near if d - nearest <= _SAME_DISTANCE_MM]
        named.extend(sorted(alike))
        near = near[len(alike) :]
    return named


def spot_occupied(
    spot: Point,
    balls: Mapping[str, Point],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
    cue: Point | None = None,
) -> bool:
    """Whether a ball placed on ``spot`` would touch a ball in ``balls`` (or the cue ball ``cue``)."""
    where = _point(spot, "spot")
    _, centres = _ball_table(balls)
    if cue is not None:
        centres = np.concatenate([centres, _point(cue, "cue")[None, :]])
    return _touches_any(where, centres, table, config)


def _touches_any(where: np.ndarray, centres: np.ndarray, table: TableSpec, cfg: GeometryConfig) -> bool:
    if len(centres) == 0:
        return False
    gaps = np.linalg.norm(centres - where, axis=1)
    return bool(np.any(gaps <= table.ball_diameter_mm + cfg.touch_tolerance_mm))


def _nearest_free_on_line(
    start: np.ndarray,
    direction: np.ndarray,
    max_travel: float,
    centres: np.ndarray,
    table: TableSpec,
    cfg: GeometryConfig,
) -> np.ndarray | None:
    """The point ``start + s·direction`` (0 ≤ s ≤ max_travel) nearest ``start`` touching no ball."""
    if max_travel < 0.0:
        return None
    clearance = table.ball_diameter_mm + cfg.touch_tolerance_mm
    blocked: list[tuple[float, float]] = []
    for centre in centres:
        off = centre - start
        along = float(off @ direction)
        across2 = float(off @ off) - along * along
        if across2 < clearance * clearance:
            half = math.sqrt(clearance * clearance - across2)
            blocked.append((along - half, along + half))
    blocked.sort()
    s = 0.0
    for low, high in blocked:
        if s < low:
            break
        if s <= high:
            s = high + cfg.placement_gap_mm
    if s > max_travel:
        return None
    return start + s * direction


def respot_positions(
    colours: Sequence[str],
    balls: Mapping[str, Point],
    table: TableSpec = STANDARD_TABLE,
    config: GeometryConfig = DEFAULT_GEOMETRY_CONFIG,
    cue: Point | None = None,
) -> dict[str, Point]:
    """Where each colour to be re-spotted goes (3.7), keyed by colour, in mm.

    Every colour whose own spot is free goes there first (3.7(d) only moves a colour whose own
    spot is occupied). The others then go, higher value first (3.7(e)), each placed colour an
    obstacle for the next: the highest-value free spot; if every spot is occupied → the nearest point
    touching no ball on the line from its own spot straight up to the top cushion; if that is all
    taken → the nearest such point straight down the table from its own spot (the rules say this
    for pink and black; for the other colours, whose case the rules leave open, the same is used).
    Entries of ``balls`` for the colours being spotted are ignored (they are off the table); the cue
    ball ``cue`` must not be touched either. Raises ValueError on bad input or when nowhere is free.
    """
    names = list(colours)
    for name in names:
        if name not in COLOURS:
            raise ValueError(f"only colours are re-spotted; {name!r} is not one of {', '.join(COLOURS)}")
    if len(set(names)) != len(names):
        raise ValueError(f"a colour is listed twice in {names}")
    ids, centres = _ball_table(balls)
    keep = [k for k, ball_id in enumerate(ids) if ball_id not in names]
    centres = centres[keep]
    if cue is not None:
        centres = np.concatenate([centres, _point(cue, "cue")[None, :]])

    spots = {name: np.asarray(point, dtype=float) for name, point in table.spots.items()}
    radius = table.ball_radius_mm
    up, down = np.array([0.0, 1.0]), np.array([0.0, -1.0])
    placed: dict[str, Point] = {}
    displaced: list[str] = []
    for name in sorted(names, key=COLOURS.index, reverse=True):
        own = spots[name]
        if _touches_any(own, centres, table, config):
            displaced.append(name)
            continue
        placed[name] = (float(own[0]), float(own[1]))
        centres = np.concatenate([centres, own[None, :]])
    for name in displaced:
        own = spots[name]
        position: np.ndarray | None = None
        for other in table.spots_by_value_desc:
            if not _touches_any(spots[other], centres, table, config):
                position = spots[other]
                break
        if position is None:
            position = _nearest_free_on_line(
                own, up, table.length_mm - radius - own[1], centres, table, config
            )
        if position is None:
            position = _nearest_free_on_line(own, down, own[1] - radius, centres, table, config)
        if position is None:
            raise ValueError(f"nowhere to spot the {name}: its line up and down the table is fully taken")
        placed[name] = (float(position[0]), float(position[1]))
        centres = np.concatenate([centres, position[None, :]])
    return {name: placed[name] for name in names}
