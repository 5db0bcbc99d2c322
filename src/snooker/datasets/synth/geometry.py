"""The table as the simulator and the renderer see it: cushion noses, pocket jaws, capture zones.

Everything is in table millimetres (CONTRACTS.md frame). The cushion noses are the six straight
cushions of ``TableSpec``; at every pocket the two jaws continue as straight *jaw faces* running
out of the playing area, so a ball can strike a jaw, bounce between the faces and rattle out. A
ball is potted once its centre enters the pocket's *capture circle* (around the drop centre, past
the jaws). Jaw points and face ends are point obstacles too, so a ball can clip the jaw's nose.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from snooker.calibration.rails import STANDARD_RAILS
from snooker.calibration.table import STANDARD_TABLE, TableSpec


@dataclass(frozen=True)
class Segment:
    """A straight obstacle a ball centre stays ``ball radius`` away from.

    ``start``/``end`` in mm; ``normal`` is the unit normal on the side balls approach from;
    ``name`` is a cushion name (``baulk``, ``left_lower`` …) or ``jaw:<pocket>:<0|1>``.
    """

    name: str
    start: tuple[float, float]
    end: tuple[float, float]
    normal: tuple[float, float]

    @property
    def pocket(self) -> str | None:
        return self.name.split(":")[1] if self.name.startswith("jaw:") else None


@dataclass(frozen=True)
class GeometryConfig:
    """Sizes of the parts of the table ``TableSpec`` does not fix (all mm or degrees)."""

    cushion_width_mm: float = 50.0
    """Cushion nose to rail, measured on the cloth plane: how far jaw faces run out of the table."""
    rail_width_mm: float = 95.0
    """Width of the wooden rail top beyond the cushions."""
    cushion_nose_height_mm: float = 36.0
    """Height of the cushion nose above the cloth (for drawing)."""
    rail_height_mm: float = STANDARD_RAILS.cushion_top_height_mm
    """Height of the rail top above the cloth (for drawing): where the calibration expects the
    cushion tops' outer edge (drawn 2 mm higher, the table found in a rendered broadcast frame
    read ball places 5.8 mm off, median, against 1.2)."""
    corner_face_flare_deg: float = 0.0
    """How far each corner jaw face turns away from the pocket axis (positive opens the throat)."""
    middle_face_flare_deg: float = 12.0
    """How far each middle jaw face turns away from the perpendicular to the side cushion."""
    corner_capture_radius_mm: float = 45.0
    """A ball whose centre comes this close to a corner pocket's drop centre falls."""
    middle_capture_radius_mm: float = 33.0
    """A ball whose centre comes this close to a middle pocket's drop centre falls."""
    corner_hole_radius_mm: float = 40.0
    middle_hole_radius_mm: float = 45.0
    """Radii of the pocket openings as drawn (mm)."""
    corner_hole_offset_mm: float = 50.0
    """How far the drawn corner pocket opening's centre lies beyond the corner, along each axis."""
    middle_hole_offset_mm: float = 82.0
    """How far the drawn middle pocket opening's centre lies beyond the side cushion nose line.
    The openings are cut into the rail; a ball drops at the table's drop centre whatever the
    drawing."""
    leather_width_mm: float = 40.0
    """Width of the light leather plate that lines each pocket opening on the rail."""


@dataclass(frozen=True)
class TableGeometry:
    """The obstacles and pockets of one table, derived from a ``TableSpec``."""

    table: TableSpec = STANDARD_TABLE
    config: GeometryConfig = GeometryConfig()

    def _face_direction(self, pocket_name: str, jaw_index: int) -> np.ndarray:
        pocket = self.table.pockets[pocket_name]
        jaw = np.asarray(pocket.jaws[jaw_index])
        other = np.asarray(pocket.jaws[1 - jaw_index])
        outward = np.asarray(pocket.drop_centre) - np.asarray(pocket.mouth_centre)
        outward /= np.linalg.norm(outward)
        middle = pocket_name.startswith("middle")
        flare = math.radians(
            self.config.middle_face_flare_deg if middle else self.config.corner_face_flare_deg
        )
        away = jaw - other
        away /= np.linalg.norm(away)
        direction = outward * math.cos(flare) + away * math.sin(flare)
        return direction / np.linalg.norm(direction)

    def jaw_face_end(self, pocket_name: str, jaw_index: int) -> np.ndarray:
        """Where the jaw face starting at ``jaws[jaw_index]`` meets the rail (mm)."""
        pocket = self.table.pockets[pocket_name]
        jaw = np.asarray(pocket.jaws[jaw_index])
        direction = self._face_direction(pocket_name, jaw_index)
        # The face runs until it is cushion_width beyond the cushion line it starts from.
        cushion_normal_out = self._outward_normal_at_jaw(pocket_name, jaw_index)
        depth = self.config.cushion_width_mm / max(float(direction @ cushion_normal_out), 1e-6)
        return jaw + depth * direction

    def _outward_normal_at_jaw(self, pocket_name: str, jaw_index: int) -> np.ndarray:
        x, y = self.table.pockets[pocket_name].jaws[jaw_index]
        w, length = self.table.width_mm, self.table.length_mm
        if abs(y) < 1e-6:
            return np.array([0.0, -1.0])
        if abs(y - length) < 1e-6:
            return np.array([0.0, 1.0])
        if abs(x) < 1e-6:
            return np.array([-1.0, 0.0])
        if abs(x - w) < 1e-6:
            return np.array([1.0, 0.0])
        raise ValueError(f"jaw {pocket_name}:{jaw_index} does not lie on a cushion line")

    @cached_property
    def segments(self) -> tuple[Segment, ...]:
        """Cushion noses (normals into the table) and jaw faces (normals into the throat)."""
        out: list[Segment] = []
        centre = np.array([self.table.width_mm / 2.0, self.table.length_mm / 2.0])
        for cushion in self.table.cushions:
            start, end = np.asarray(cushion.start), np.asarray(cushion.end)
            normal = _unit_normal_towards(start, end, centre)
            out.append(Segment(cushion.name, tuple(start), tuple(end), tuple(normal)))
        for name, pocket in self.table.pockets.items():
            drop = np.asarray(pocket.drop_centre)
            for k in (0, 1):
                jaw = np.asarray(pocket.jaws[k])
                end = self.jaw_face_end(name, k)
                # The throat is on the side of the other jaw.
                other = np.asarray(pocket.jaws[1 - k])
                throat_point = (other + drop) / 2.0
                normal = _unit_normal_towards(jaw, end, throat_point)
                out.append(Segment(f"jaw:{name}:{k}", tuple(jaw), tuple(end), tuple(normal)))
        return tuple(out)

    @cached_property
    def corner_points(self) -> tuple[tuple[str, tuple[float, float]], ...]:
        """Point obstacles: every jaw point (the jaw's nose) and jaw-face end, named."""
        out = []
        for name, pocket in self.table.pockets.items():
            for k in (0, 1):
                out.append((f"jaw:{name}:{k}", tuple(map(float, pocket.jaws[k]))))
                out.append((f"jaw:{name}:{k}", tuple(map(float, self.jaw_face_end(name, k)))))
        return tuple(out)

    def can_rest(self, xy: np.ndarray, tolerance_mm: float = 1e-6) -> np.ndarray:
        """Whether ball centres ``xy`` (n, 2) mm lie where a ball can be at rest: on the playing
        area, or in a pocket's throat (past the cushion line, between its two jaw faces and clear
        of them, short of its capture circle): a ball that stopped in the jaws is still on the
        table (3.9) and may be played from there. ``tolerance_mm`` widens each bound."""
        xy = np.atleast_2d(np.asarray(xy, dtype=float))
        r = self.table.ball_radius_mm
        ok = self.table.on_playing_area(xy, margin_mm=tolerance_mm)
        faces = {s.name: s for s in self.segments if s.pocket is not None}
        for name, pocket in self.table.pockets.items():
            drop = np.asarray(pocket.drop_centre, float)
            mouth = np.asarray(pocket.mouth_centre, float)
            outward = (drop - mouth) / np.linalg.norm(drop - mouth)
            depth = (xy - mouth) @ outward
            inside = (depth >= -tolerance_mm) & (depth <= float((drop - mouth) @ outward) + tolerance_mm)
            for k in (0, 1):
                face = faces[f"jaw:{name}:{k}"]
                clear = (xy - np.asarray(face.start)) @ np.asarray(face.normal)
                inside &= clear >= r - tolerance_mm
            inside &= np.linalg.norm(xy - drop, axis=1) > self.capture_radius_mm(name) - tolerance_mm
            ok |= inside
        return ok

    def capture_radius_mm(self, pocket_name: str) -> float:
        if pocket_name.startswith("middle"):
            return self.config.middle_capture_radius_mm
        return self.config.corner_capture_radius_mm

    def hole_centre_mm(self, pocket_name: str) -> np.ndarray:
        """Centre of the pocket opening as drawn (mm)."""
        pocket = self.table.pockets[pocket_name]
        outward = np.asarray(pocket.drop_centre, float) - np.asarray(pocket.mouth_centre, float)
        outward /= np.linalg.norm(outward)
        if pocket_name.startswith("middle"):
            return np.asarray(pocket.mouth_centre, float) + outward * self.config.middle_hole_offset_mm
        corner = np.asarray(
            pocket.drop_centre, float
        ) - outward * self.table.corner_drop_offset_mm * math.sqrt(2)
        return corner + outward * self.config.corner_hole_offset_mm * math.sqrt(2)

    def hole_radius_mm(self, pocket_name: str) -> float:
        if pocket_name.startswith("middle"):
            return self.config.middle_hole_radius_mm
        return self.config.corner_hole_radius_mm

    @property
    def outer_extent_mm(self) -> float:
        """How far the table's outer rail edge lies beyond the cushion noses."""
        return self.config.cushion_width_mm + self.config.rail_width_mm


def _unit_normal_towards(start: np.ndarray, end: np.ndarray, point: np.ndarray) -> np.ndarray:
    direction = end - start
    normal = np.array([-direction[1], direction[0]]) / np.linalg.norm(direction)
    return normal if (point - start) @ normal >= 0 else -normal
