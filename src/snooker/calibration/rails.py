"""What a camera sees of the table beyond the playing area: cushion tops, rails and pocket openings.

``table.py`` describes the playing area (cushion noses, spots, pockets in the cloth plane). To find
the table in an image we also need the parts a camera sees around it, in the same frame
(millimetres, origin at the baulk-left cushion-nose corner, x towards baulk-right, y up the table,
``z`` up from the cloth):

- the cloth-covered cushion tops, which look like cloth from above and end at the wooden rail —
  the green region's outer boundary is the rail line, ``cushion_top_width_mm`` outside the noses
  at height ``cushion_top_height_mm``;
- the pocket openings: the dark hole at each pocket, whose centre as seen by a camera lies
  ``corner_opening_offset_mm`` beyond a corner (along both axes) or ``middle_opening_offset_mm``
  beyond a side cushion, at height ``opening_height_mm`` (about the rail top);
- the pocket leathers: the light leather (or plastic) plate that lines each pocket on the rail,
  a bright, high-contrast blob whose centre lies ``corner_leather_offset_mm`` /
  ``middle_leather_offset_mm`` beyond the corner / side cushion at ``leather_height_mm``.

The values are those of a standard championship table; they are table constants, not image
parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from snooker.calibration.table import STANDARD_TABLE, TableSpec


@dataclass(frozen=True)
class RailGeometry:
    """Dimensions (mm) of the table parts around the playing area that a camera sees."""

    cushion_top_width_mm: float = 50.0
    """Horizontal distance from a cushion nose to the outer edge of the cloth on the cushion top."""
    cushion_top_height_mm: float = 40.0
    """Height of the cushion top (and of its outer cloth edge) above the bed cloth."""
    corner_opening_offset_mm: float = 33.0
    """How far the centre of a corner pocket's hole lies beyond the nose corner, along each axis."""
    middle_opening_offset_mm: float = 90.0
    """How far the centre of a middle pocket's hole lies beyond the side cushion nose line."""
    opening_height_mm: float = 38.0
    """Height at which the pocket hole is seen (its rim, level with the cushion top)."""
    corner_leather_offset_mm: float = 61.0
    """How far the centre of a corner pocket's leather lies beyond the nose corner, along each axis."""
    middle_leather_offset_mm: float = 111.0
    """How far the centre of a middle pocket's leather lies beyond the side cushion nose line."""
    leather_height_mm: float = 38.0
    """Height of the leather's visible centre above the bed cloth."""

    def rail_corners(self, table: TableSpec = STANDARD_TABLE) -> np.ndarray:
        """The outer corners of the cloth on the cushion tops, (4, 3) mm, in ``table.corners`` order."""
        c = self.cushion_top_width_mm
        xy = table.corners + np.array([[-c, -c], [c, -c], [c, c], [-c, c]])
        return np.column_stack([xy, np.full(4, self.cushion_top_height_mm)])

    def pocket_openings(self, table: TableSpec = STANDARD_TABLE) -> dict[str, np.ndarray]:
        """The centre of each pocket's hole as a camera sees it, (3,) mm, keyed by pocket name."""
        return _around_pockets(
            table, self.corner_opening_offset_mm, self.middle_opening_offset_mm, self.opening_height_mm
        )

    def pocket_leathers(self, table: TableSpec = STANDARD_TABLE) -> dict[str, np.ndarray]:
        """The centre of each pocket's leather, (3,) mm, keyed by pocket name."""
        return _around_pockets(
            table, self.corner_leather_offset_mm, self.middle_leather_offset_mm, self.leather_height_mm
        )


def _around_pockets(table: TableSpec, oc: float, om: float, z: float) -> dict[str, np.ndarray]:
    """Points beyond each pocket: ``oc`` past the corners along both axes, ``om`` past the middles."""
    w, length = table.width_mm, table.length_mm
    points = {
        "baulk_left": (-oc, -oc),
        "baulk_right": (w + oc, -oc),
        "middle_left": (-om, length / 2.0),
        "middle_right": (w + om, length / 2.0),
        "top_left": (-oc, length + oc),
        "top_right": (w + oc, length + oc),
    }
    return {name: np.array([x, y, z]) for name, (x, y) in points.items()}


STANDARD_RAILS = RailGeometry()
"""The rail geometry of a standard championship table (an immutable value, safe to share)."""
