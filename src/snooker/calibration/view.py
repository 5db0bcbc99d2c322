"""TableView: the mapping between image pixels and table millimetres for one camera pose.

Frames: image pixels (x right, y down, origin top-left of the frame); table millimetres as in
CONTRACTS.md (origin at the baulk-left cushion-nose corner, x towards baulk-right, y up the table,
z up from the cloth). A point at height ``h`` above the cloth (a ball centre: 26.25 mm) is mapped
through the plane at that height using the pinhole camera (``camera.py``); the ``homography``
field is that camera's z = 0 plane without lens distortion.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np

from snooker.balls import POCKET_NAMES
from snooker.calibration.camera import CameraModel
from snooker.calibration.rails import STANDARD_RAILS, RailGeometry
from snooker.calibration.table import STANDARD_TABLE, TableSpec

SCHEMA = "snooker.calibration/1"
BALL_RADIUS = STANDARD_TABLE.ball_radius_mm
"""Height of a ball centre above the cloth (mm): the default plane for ``image_to_table``."""


class CalibrationError(ValueError):
    """A calibration file or document that cannot be used (missing, corrupt, wrong schema)."""


class CalibrationDoesNotFit(CalibrationError):
    """A calibration given no longer maps the frames it is used on (the run cannot go on with it)."""


class ImageSizeMismatch(CalibrationDoesNotFit):
    """Images of another size than the calibration was made for: its pixels are not theirs."""


class CameraMoved(CalibrationDoesNotFit):
    """The picture moved from where the calibration puts the table (the camera knocked on its
    mount, or re-framed): every ball would be placed off by the move."""


def check_image_size(view: object, shape: tuple[int, ...]) -> None:
    """Raise :class:`ImageSizeMismatch` when an image of ``shape`` (rows, columns, ...) is not the
    size ``view`` was calibrated on (a view that does not say its ``image_size`` is not checked)."""
    expected = getattr(view, "image_size", None)
    if expected is None:
        return
    width, height = int(expected[0]), int(expected[1])
    got_width, got_height = int(shape[1]), int(shape[0])
    if (width, height) != (got_width, got_height):
        raise ImageSizeMismatch(
            f"it was made for {width}x{height} images, these are {got_width}x{got_height} "
            "(calibrate this camera at this size: snooker-referee calibrate)"
        )


@dataclass(frozen=True, eq=False)
class TableView:
    """Where the table is in the image of one camera pose, and how to map between the two.

    ``camera``: the pinhole camera (intrinsics, lens distortion, pose) in table mm;
    ``table``: the playing area's dimensions; ``rails``: the cushion tops and pocket openings
    around it; ``source``: how it was made (``"auto"``, ``"manual"``, ``"synthetic"``);
    ``fit_error_px``: the RMS reprojection error of the fit that made it (px).
    """

    camera: CameraModel
    table: TableSpec = STANDARD_TABLE
    rails: RailGeometry = STANDARD_RAILS
    source: str = "auto"
    fit_error_px: float = 0.0
    extras: dict = field(default_factory=dict)

    @cached_property
    def homography(self) -> np.ndarray:
        """3x3 homography from table-plane (z = 0) mm to undistorted image pixels."""
        return self.camera.plane_homography(0.0)

    def moved_in_picture(self, motion: np.ndarray) -> TableView:
        """This view once the picture moved by ``motion`` (2, 3; frame px: see
        :meth:`CameraModel.moved_in_picture`): the same table, seen where it is now."""
        return replace(self, camera=self.camera.moved_in_picture(motion), extras=dict(self.extras))

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) px of the images this view belongs to."""
        return self.camera.image_size

    def image_to_table(self, xy_px: np.ndarray, height_mm: float = BALL_RADIUS) -> np.ndarray:
        """Table (x, y) mm (n, 2) of points at ``height_mm`` above the cloth seen at ``xy_px`` (n, 2).

        The default height is a ball centre's, so detected ball centres map to where the ball is.
        """
        return self.camera.back_project(np.asarray(xy_px, dtype=float).reshape(-1, 2), height_mm)

    def table_to_image(self, xy_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Pixels (n, 2) of table points ``xy_mm`` (n, 2) at ``height_mm`` above the cloth."""
        xy = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        return self.camera.project(np.column_stack([xy, np.full(len(xy), float(height_mm))]))

    @cached_property
    def corners_px(self) -> np.ndarray:
        """The four cushion-nose corners (4, 2) px: baulk-left, baulk-right, top-right, top-left."""
        return self.table_to_image(self.table.corners)

    @cached_property
    def pockets_px(self) -> dict[str, tuple[float, float]]:
        """Centre of each pocket's opening as seen in the image, px, keyed by pocket name."""
        openings = self.rails.pocket_openings(self.table)
        px = self.camera.project(np.array([openings[name] for name in POCKET_NAMES]))
        return {name: (float(x), float(y)) for name, (x, y) in zip(POCKET_NAMES, px, strict=True)}

    def ball_radius_px(self, xy_mm: np.ndarray) -> np.ndarray | float:
        """Apparent radius (px) of a ball whose centre is at ``xy_mm`` ((2,) or (n, 2)).

        Measured as the image distance between the ball centre and a point one radius away,
        averaged over the horizontal and the vertical direction seen from the camera.
        """
        xy = np.asarray(xy_mm, dtype=float)
        single = xy.ndim == 1
        xy = xy.reshape(-1, 2)
        r = self.table.ball_radius_mm
        centres = np.column_stack([xy, np.full(len(xy), r)])
        cam = self.camera
        rot = cam.rotation
        # Directions perpendicular to the viewing ray, in table coordinates.
        rays = centres - cam.centre_mm
        rays /= np.linalg.norm(rays, axis=1, keepdims=True)
        cam_x = rot.T @ np.array([1.0, 0.0, 0.0])
        side = np.cross(rays, cam_x)
        side /= np.linalg.norm(side, axis=1, keepdims=True)
        up = np.cross(side, rays)
        c_px = cam.project(centres)
        a = np.linalg.norm(cam.project(centres + r * side) - c_px, axis=1)
        b = np.linalg.norm(cam.project(centres + r * up) - c_px, axis=1)
        radius = (a + b) / 2.0
        return float(radius[0]) if single else radius

    def playing_area_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """uint8 mask (255 inside) of the cloth inside the cushion noses, for an image of ``shape``."""
        mask = np.zeros(shape[:2], dtype=np.uint8)
        outline = self.table_to_image(self._playing_area_outline())
        cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 255)
        return mask

    def _playing_area_outline(self, samples_per_side: int = 16) -> np.ndarray:
        """The cushion-nose rectangle sampled densely (so lens distortion bends it correctly)."""
        c = self.table.corners
        t = np.linspace(0.0, 1.0, samples_per_side, endpoint=False)[:, None]
        return np.vstack([c[i] + t * (c[(i + 1) % 4] - c[i]) for i in range(4)])

    def to_json(self) -> str:
        """A versioned JSON document (``schema``: ``snooker.calibration/1``)."""
        doc = {
            "schema": SCHEMA,
            "source": self.source,
            "image_size": list(self.image_size),
            "camera": self.camera.to_dict(),
            "homography": self.homography.tolist(),
            "corners_px": self.corners_px.tolist(),
            "pockets_px": {k: list(v) for k, v in self.pockets_px.items()},
            "table": {"width_mm": self.table.width_mm, "length_mm": self.table.length_mm},
            "rails": {
                "cushion_top_width_mm": self.rails.cushion_top_width_mm,
                "cushion_top_height_mm": self.rails.cushion_top_height_mm,
                "corner_opening_offset_mm": self.rails.corner_opening_offset_mm,
                "middle_opening_offset_mm": self.rails.middle_opening_offset_mm,
                "opening_height_mm": self.rails.opening_height_mm,
            },
            "fit_error_px": self.fit_error_px,
            "extras": self.extras,
        }
        return json.dumps(doc, indent=2)

    @classmethod
    def from_json(cls, text: str) -> TableView:
        """Read a document written by ``to_json``; raises CalibrationError naming the problem."""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"calibration is not valid JSON: {exc}") from exc
        if not isinstance(doc, dict):
            raise CalibrationError("calibration must be a JSON object")
        if doc.get("schema") != SCHEMA:
            raise CalibrationError(f"calibration schema is {doc.get('schema')!r}, expected {SCHEMA!r}")
        try:
            camera = CameraModel.from_dict(doc["camera"])
            table_doc = doc.get("table", {})
            table = TableSpec(
                width_mm=float(table_doc.get("width_mm", STANDARD_TABLE.width_mm)),
                length_mm=float(table_doc.get("length_mm", STANDARD_TABLE.length_mm)),
            )
            if not (0.0 < table.width_mm < math.inf and 0.0 < table.length_mm < math.inf):
                raise ValueError(f"table size must be positive, got {table.width_mm} x {table.length_mm} mm")
            stated = doc.get("image_size")
            if stated is not None and [int(v) for v in stated] != list(camera.image_size):
                raise ValueError(
                    f"image_size {list(stated)} disagrees with the camera's {list(camera.image_size)} "
                    "(the camera's is the size it was fitted on)"
                )
            rails = RailGeometry(**{k: float(v) for k, v in doc.get("rails", {}).items()})
            return cls(
                camera=camera,
                table=table,
                rails=rails,
                source=str(doc.get("source", "unknown")),
                fit_error_px=float(doc.get("fit_error_px", 0.0)),
                extras=dict(doc.get("extras", {})),
            )
        except KeyError as exc:
            raise CalibrationError(f"calibration is incomplete: no {exc.args[0]!r} field") from exc
        except (TypeError, ValueError) as exc:
            raise CalibrationError(f"calibration is malformed: {exc}") from exc


def pockets_by_image_position(view: TableView) -> dict[str, str]:
    """Which pocket appears where in the image: ``{"top-left": "baulk_right", ...}``.

    Keys for an end-on view: top-left, top-right, middle-left, middle-right, bottom-left,
    bottom-right (how broadcast datasets number pockets); for a view with the long axis across
    the image: top-left, bottom-left, middle-top, middle-bottom, top-right, bottom-right.

    Rows come from the pockets' image y (corner pairs at the two ends, middles between), columns
    from x within each row. For the broadcast camera behind the top cushion, "top-left" is
    ``baulk_right``; for a camera behind baulk it is ``top_left``.
    """
    px = view.pockets_px
    order = sorted(px, key=lambda name: px[name][1])
    rows = (order[:2], order[2:4], order[4:])
    if {n.split("_")[0] for n in rows[1]} != {"middle"}:
        # Long axis across the image (overhead camera): rows are image columns instead.
        order = sorted(px, key=lambda name: px[name][0])
        rows = (order[:2], order[2:4], order[4:])
        out = {}
        for row, (first, second) in zip(("left", "middle", "right"), rows, strict=True):
            top, bottom = sorted((first, second), key=lambda name: px[name][1])
            if row == "middle":
                out["middle-top"], out["middle-bottom"] = top, bottom
            else:
                out[f"top-{row}"], out[f"bottom-{row}"] = top, bottom
        return out
    out = {}
    for row, pair in zip(("top", "middle", "bottom"), rows, strict=True):
        left, right = sorted(pair, key=lambda name: px[name][0])
        out[f"{row}-left"], out[f"{row}-right"] = left, right
    return out
