"""Render a table through a known camera: exact ground truth for calibration tests and demos.

The picture is deliberately simple (flat colours, no lighting) but has what ``find_table`` looks
at: cloth on the bed and on the cushion tops up to the rail line, a wooden rail, light pocket
leathers at their places, dark pocket holes, the baulk line and D, and balls drawn at ball-centre
height. Everything is projected with the same ``CameraModel`` the calibration uses, so a
calibration found from the picture can be compared with the camera that drew it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from snooker.calibration.camera import CameraModel, intrinsics
from snooker.calibration.rails import STANDARD_RAILS, RailGeometry
from snooker.calibration.table import STANDARD_TABLE, TableSpec


@dataclass(frozen=True)
class SceneColours:
    """BGR colours of the rendered scene."""

    background: tuple[int, int, int] = (40, 30, 90)
    rail: tuple[int, int, int] = (20, 25, 60)
    cloth: tuple[int, int, int] = (30, 150, 20)
    cushion_top: tuple[int, int, int] = (40, 170, 30)
    leather: tuple[int, int, int] = (150, 215, 235)
    hole: tuple[int, int, int] = (10, 20, 10)
    line: tuple[int, int, int] = (200, 230, 200)


RAIL_WIDTH_MM = 120.0
"""Width of the wooden rail drawn outside the cushion tops."""
LEATHER_RADIUS_MM = 45.0
HOLE_RADIUS_MM = 30.0
LINE_WIDTH_MM = 6.0


def overhead_camera(
    image_size: tuple[int, int] = (1280, 720),
    table: TableSpec = STANDARD_TABLE,
    height_mm: float = 4500.0,
    fill: float = 0.85,
    baulk_on_left: bool = True,
    k1: float = 0.0,
) -> CameraModel:
    """A camera straight above the table centre, long axis horizontal, table filling ``fill`` of the width.

    ``k1`` is OpenCV's first radial distortion coefficient (negative: barrel, as wide lenses show).
    """
    w = image_size[0]
    focal = (
        fill * w * height_mm / (table.length_mm + 2 * (STANDARD_RAILS.cushion_top_width_mm + RAIL_WIDTH_MM))
    )
    # Camera axes in table coordinates: x_cam along +y (baulk on the left), y_cam along +x, z down.
    sign = 1.0 if baulk_on_left else -1.0
    rot = np.array([[0.0, sign, 0.0], [sign, 0.0, 0.0], [0.0, 0.0, -1.0]])
    centre = np.array([table.width_mm / 2, table.length_mm / 2, height_mm])
    distortion = np.array([k1, 0.0, 0.0, 0.0, 0.0])
    return CameraModel(
        intrinsics(focal, image_size), cv2.Rodrigues(rot)[0], -rot @ centre, image_size, distortion
    )


def broadcast_camera(
    image_size: tuple[int, int] = (1280, 720),
    table: TableSpec = STANDARD_TABLE,
    distance_mm: float = 3000.0,
    height_mm: float = 3300.0,
    focal_px: float = 1000.0,
    k1: float = 0.0,
) -> CameraModel:
    """A high camera behind the top cushion looking down the table towards baulk (TV style).

    ``k1`` is OpenCV's first radial distortion coefficient (positive: pincushion, as a long zoom
    lens shows)."""
    eye = np.array([table.width_mm / 2, table.length_mm + distance_mm, height_mm])
    target = np.array([table.width_mm / 2, table.length_mm * 0.5, 0.0])
    forward = target - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rot = np.vstack([right, down, forward])
    distortion = np.array([k1, 0.0, 0.0, 0.0, 0.0])
    return CameraModel(
        intrinsics(focal_px, image_size), cv2.Rodrigues(rot)[0], -rot @ eye, image_size, distortion
    )


def _poly(camera: CameraModel, xy: np.ndarray, z: float) -> np.ndarray:
    pts = camera.project(np.column_stack([xy, np.full(len(xy), z)]))
    return np.round(pts * 16).astype(np.int32)


def _rect(x0: float, y0: float, x1: float, y1: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n, endpoint=False)[:, None]
    c = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return np.vstack([c[i] + t * (c[(i + 1) % 4] - c[i]) for i in range(4)])


def _disc(centre: np.ndarray, radius: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)])


def render_table(
    camera: CameraModel,
    table: TableSpec = STANDARD_TABLE,
    rails: RailGeometry = STANDARD_RAILS,
    balls: dict[str, tuple[tuple[float, float], tuple[int, int, int]]] | None = None,
    colours: SceneColours = SceneColours(),
) -> np.ndarray:
    """A BGR image of the table seen by ``camera``; ``balls`` maps a name to ((x_mm, y_mm), BGR)."""
    w, h = camera.image_size
    img = np.full((h, w, 3), colours.background, dtype=np.uint8)
    c, hc = rails.cushion_top_width_mm, rails.cushion_top_height_mm
    tw, tl = table.width_mm, table.length_mm
    aa = {"lineType": cv2.LINE_AA, "shift": 4}
    r = RAIL_WIDTH_MM
    # nearest last: the bed, the cushions' faces that look towards the camera, then the cushion
    # tops and the rails, which hide the bed just inside the cushion nearest the camera
    cv2.fillPoly(img, [_poly(camera, _rect(0.0, 0.0, tw, tl), 0.0)], colours.cloth, **aa)
    for face in _facing_cushion_faces(camera, tw, tl, hc):
        cv2.fillPoly(img, [np.round(camera.project(face) * 16).astype(np.int32)], colours.cushion_top, **aa)
    noses = _poly(camera, _rect(0.0, 0.0, tw, tl), hc)
    for d, colour in ((c + r, colours.rail), (c, colours.cushion_top)):
        cv2.fillPoly(img, [_poly(camera, _rect(-d, -d, tw + d, tl + d), hc), noses], colour, **aa)
    baulk = np.array([[0.0, table.baulk_line_y_mm], [tw, table.baulk_line_y_mm]])
    cv2.polylines(img, [_poly(camera, baulk, 0.0)], False, colours.line, _line_px(camera, table), **aa)
    arc = table.d_boundary(64)[:32]
    cv2.polylines(img, [_poly(camera, arc, 0.0)], False, colours.line, _line_px(camera, table), **aa)
    for name, leather in rails.pocket_leathers(table).items():
        cv2.fillPoly(
            img, [_poly(camera, _disc(leather[:2], LEATHER_RADIUS_MM), leather[2])], colours.leather, **aa
        )
        hole = table.pockets[name].mouth_centre
        cv2.fillPoly(img, [_poly(camera, _disc(np.array(hole), HOLE_RADIUS_MM), 0.0)], colours.hole, **aa)
    for xy, bgr in (balls or {}).values():
        centre = np.array([xy[0], xy[1], table.ball_radius_mm])
        px = camera.project(centre[None])[0]
        edge = camera.project((centre + np.array([table.ball_radius_mm, 0.0, 0.0]))[None])[0]
        radius = max(1, round(float(np.hypot(*(edge - px)))))
        cv2.circle(img, (round(px[0]), round(px[1])), radius, bgr, -1, cv2.LINE_AA)
    return img


def _facing_cushion_faces(
    camera: CameraModel, width: float, length: float, height: float
) -> list[np.ndarray]:
    """The cushions' faces (the nose lines up to ``height``), (4, 3) mm each, that the camera sees
    from the front: a face turned away lies behind its cushion's top."""
    centre = camera.centre_mm
    faces = []
    for (x0, y0), (x1, y1), normal in (
        ((0.0, 0.0), (width, 0.0), (0.0, 1.0)),
        ((width, 0.0), (width, length), (-1.0, 0.0)),
        ((width, length), (0.0, length), (0.0, -1.0)),
        ((0.0, length), (0.0, 0.0), (1.0, 0.0)),
    ):
        if (centre[0] - x0) * normal[0] + (centre[1] - y0) * normal[1] > 0:
            faces.append(np.array([[x0, y0, 0.0], [x1, y1, 0.0], [x1, y1, height], [x0, y0, height]]))
    return faces


def _line_px(camera: CameraModel, table: TableSpec) -> int:
    a = camera.project(np.array([[table.centre_x_mm, table.length_mm / 2, 0.0]]))[0]
    b = camera.project(np.array([[table.centre_x_mm, table.length_mm / 2 + LINE_WIDTH_MM, 0.0]]))[0]
    return max(1, round(float(np.hypot(*(b - a)))))
