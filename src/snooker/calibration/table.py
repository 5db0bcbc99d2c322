"""The standard 12 ft snooker table in millimetres — the geometry every layer measures against.

Coordinate frame (CONTRACTS.md): millimetres on the cloth plane, origin at the baulk-left corner
of the cushion noses, ``x`` along the baulk cushion towards baulk-right (0 … 1778), ``y`` up the
table towards the top (black-spot) cushion (0 … 3569). "Left" and "right" are as seen standing at
the baulk end. Ball centres sit one ball radius (26.25 mm) above this plane.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from snooker.balls import COLOURS, POCKET_NAMES

Point = tuple[float, float]
"""A point on the table, (x_mm, y_mm)."""


@dataclass(frozen=True)
class Pocket:
    """One pocket: where its mouth is on the playing-area boundary and where a ball drops.

    ``mouth_centre`` is the midpoint of the line between the two cushion-nose jaw points (mm);
    ``jaws`` are those two points; ``drop_centre`` is the centre of the pocket opening beyond the
    cushion line, where a potted ball disappears (mm); ``mouth_width_mm`` is the jaw gap.
    """

    name: str
    mouth_centre: Point
    jaws: tuple[Point, Point]
    drop_centre: Point
    mouth_width_mm: float


@dataclass(frozen=True)
class Cushion:
    """A straight cushion nose between two pocket jaws, from ``start`` to ``end`` (mm)."""

    name: str
    start: Point
    end: Point


@dataclass(frozen=True)
class TableSpec:
    """Dimensions of a snooker table, all in millimetres (defaults: the standard 12 ft table).

    Every derived point (spots, D, pockets, cushions, rack) is computed from these fields, so a
    smaller table is described by changing them.
    """

    length_mm: float = 3569.0
    """Playing area between the cushion noses, baulk cushion to top cushion (the y extent)."""
    width_mm: float = 1778.0
    """Playing area between the side cushion noses (the x extent)."""
    ball_diameter_mm: float = 52.5
    baulk_line_from_baulk_cushion_mm: float = 737.0
    d_radius_mm: float = 292.0
    black_spot_from_top_cushion_mm: float = 324.0
    corner_pocket_mouth_mm: float = 86.0
    """Gap between the cushion-nose jaws of a corner pocket, measured across the diagonal."""
    middle_pocket_mouth_mm: float = 105.0
    """Gap between the jaws of a middle pocket, along the side cushion."""
    corner_drop_offset_mm: float = 30.0
    """How far the centre of a corner pocket's opening lies beyond the corner, along each axis."""
    middle_drop_offset_mm: float = 40.0
    """How far the centre of a middle pocket's opening lies beyond the side cushion line."""
    rack_gap_mm: float = 1.0
    """Gap between the apex red and the pink when racked (as close as possible, not touching)."""

    @property
    def ball_radius_mm(self) -> float:
        return self.ball_diameter_mm / 2.0

    @property
    def centre_x_mm(self) -> float:
        """x of the long centre line."""
        return self.width_mm / 2.0

    @property
    def baulk_line_y_mm(self) -> float:
        return self.baulk_line_from_baulk_cushion_mm

    @property
    def d_centre(self) -> Point:
        """Centre of the D: the brown spot, middle of the baulk line."""
        return (self.centre_x_mm, self.baulk_line_y_mm)

    @cached_property
    def spots(self) -> dict[str, Point]:
        """The six colour spots, keyed by colour (yellow on the right-hand corner of the D)."""
        cx, baulk_y = self.centre_x_mm, self.baulk_line_y_mm
        centre_y = self.length_mm / 2.0
        return {
            "yellow": (cx + self.d_radius_mm, baulk_y),
            "green": (cx - self.d_radius_mm, baulk_y),
            "brown": (cx, baulk_y),
            "blue": (cx, centre_y),
            "pink": (cx, (centre_y + self.length_mm) / 2.0),
            "black": (cx, self.length_mm - self.black_spot_from_top_cushion_mm),
        }

    @property
    def spots_by_value_desc(self) -> tuple[str, ...]:
        """Colours whose spots are tried, highest value first (3.7: highest free spot)."""
        return tuple(reversed(COLOURS))

    @cached_property
    def pockets(self) -> dict[str, Pocket]:
        """The six pockets keyed by CONTRACTS.md pocket name."""
        w, length = self.width_mm, self.length_mm
        jaw = self.corner_pocket_mouth_mm / math.sqrt(2.0)
        half_mid = self.middle_pocket_mouth_mm / 2.0
        c, m = self.corner_drop_offset_mm, self.middle_drop_offset_mm
        mid_y = length / 2.0

        def corner(name: str, x0: float, y0: float, sx: float, sy: float) -> Pocket:
            # (sx, sy) point from the corner into the playing area.
            jaws = ((x0 + sx * jaw, y0), (x0, y0 + sy * jaw))
            mouth = ((jaws[0][0] + jaws[1][0]) / 2.0, (jaws[0][1] + jaws[1][1]) / 2.0)
            drop = (x0 - sx * c, y0 - sy * c)
            return Pocket(name, mouth, jaws, drop, self.corner_pocket_mouth_mm)

        def middle(name: str, x0: float, sx: float) -> Pocket:
            jaws = ((x0, mid_y - half_mid), (x0, mid_y + half_mid))
            return Pocket(name, (x0, mid_y), jaws, (x0 - sx * m, mid_y), self.middle_pocket_mouth_mm)

        pockets = [
            corner("baulk_left", 0.0, 0.0, 1.0, 1.0),
            corner("baulk_right", w, 0.0, -1.0, 1.0),
            middle("middle_left", 0.0, 1.0),
            middle("middle_right", w, -1.0),
            corner("top_left", 0.0, length, 1.0, -1.0),
            corner("top_right", w, length, -1.0, -1.0),
        ]
        by_name = {p.name: p for p in pockets}
        return {name: by_name[name] for name in POCKET_NAMES}

    @cached_property
    def cushions(self) -> tuple[Cushion, ...]:
        """The six straight cushion noses between the pocket jaws."""
        p = self.pockets
        return (
            Cushion("baulk", p["baulk_left"].jaws[0], p["baulk_right"].jaws[0]),
            Cushion("left_lower", p["baulk_left"].jaws[1], p["middle_left"].jaws[0]),
            Cushion("left_upper", p["middle_left"].jaws[1], p["top_left"].jaws[1]),
            Cushion("top", p["top_left"].jaws[0], p["top_right"].jaws[0]),
            Cushion("right_lower", p["baulk_right"].jaws[1], p["middle_right"].jaws[0]),
            Cushion("right_upper", p["middle_right"].jaws[1], p["top_right"].jaws[1]),
        )

    @property
    def corners(self) -> np.ndarray:
        """The four cushion-nose corners, (4, 2) mm: baulk-left, baulk-right, top-right, top-left."""
        w, length = self.width_mm, self.length_mm
        return np.array([[0.0, 0.0], [w, 0.0], [w, length], [0.0, length]])

    def on_playing_area(self, xy: np.ndarray, margin_mm: float = 0.0) -> np.ndarray:
        """Whether ball centres ``xy`` (n, 2) mm can rest on the cloth: a radius from every cushion.

        ``margin_mm`` widens (positive) or narrows (negative) the allowed region.
        """
        xy = np.atleast_2d(np.asarray(xy, dtype=float))
        r = self.ball_radius_mm - margin_mm
        return (
            (xy[:, 0] >= r)
            & (xy[:, 0] <= self.width_mm - r)
            & (xy[:, 1] >= r)
            & (xy[:, 1] <= self.length_mm - r)
        )

    def in_d(self, xy: np.ndarray, margin_mm: float = 0.0) -> np.ndarray:
        """Whether points ``xy`` (n, 2) mm lie on or inside the lines of the D (3.5), or within
        ``margin_mm`` beyond its arc and the baulk line (a measurement's allowance)."""
        xy = np.atleast_2d(np.asarray(xy, dtype=float))
        cx, cy = self.d_centre
        inside_circle = np.hypot(xy[:, 0] - cx, xy[:, 1] - cy) <= self.d_radius_mm + margin_mm + 1e-9
        return inside_circle & (xy[:, 1] <= cy + margin_mm + 1e-9)

    def d_boundary(self, samples: int = 64) -> np.ndarray:
        """Points along the D's outline (arc and its baulk-line chord), (samples, 2) mm."""
        cx, cy = self.d_centre
        arc = np.linspace(math.pi, 2.0 * math.pi, samples // 2)
        arc_pts = np.stack([cx + self.d_radius_mm * np.cos(arc), cy + self.d_radius_mm * np.sin(arc)], axis=1)
        chord_x = np.linspace(cx - self.d_radius_mm, cx + self.d_radius_mm, samples - samples // 2)
        chord = np.stack([chord_x, np.full_like(chord_x, cy)], axis=1)
        return np.concatenate([arc_pts, chord])

    def rack_positions(self, reds: int = 15) -> dict[str, Point]:
        """Starting positions (3.2): reds in a tight triangle above the pink, colours on spots.

        Reds are keyed ``red-1`` … ``red-N`` row by row from the apex; ``reds`` may be 15, 10 or 6
        (short formats fill whole rows). The cue ball is in hand, so it is not included.
        """
        rows = {15: 5, 10: 4, 6: 3, 3: 2, 1: 1}
        if reds not in rows:
            raise ValueError(f"a rack of {reds} reds is not a triangle; use one of {sorted(rows)}")
        d = self.ball_diameter_mm
        px, py = self.spots["pink"]
        apex_y = py + d + self.rack_gap_mm
        out: dict[str, Point] = dict(self.spots)
        n = 0
        for row in range(rows[reds]):
            y = apex_y + row * d * math.sqrt(3.0) / 2.0
            for k in range(row + 1):
                n += 1
                out[f"red-{n}"] = (px + (k - row / 2.0) * d, y)
        return out


STANDARD_TABLE = TableSpec()
"""The standard 12 ft table (an immutable value, safe to share)."""
