"""Synthetic broadcast-like stills drawn with OpenCV, with exact ground truth, for unit tests.

The camera looks at a standard table as the Bucharest broadcast camera does (end-on, from high
above the top cushion). Balls are drawn as the broadcast shows them: a disc of the ball's colour
shaded darker towards the bottom, a twin specular highlight near the top, a dark shadow below.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from snooker.calibration.manual import view_from_corners
from snooker.calibration.view import BALL_RADIUS, TableView
from snooker.vision.colour import ColourConfig

IMAGE_SIZE = (1280, 720)
CORNERS_PX = np.array([[902.0, 52.0], [372.0, 54.0], [246.0, 630.0], [1027.0, 628.0]])
"""Cushion-nose corners (baulk-left, baulk-right, top-right, top-left) of a typical still."""
CLOTH_BGR = (4, 172, 6)
SURROUND_BGR = (40, 40, 120)


def make_view() -> TableView:
    return view_from_corners(CORNERS_PX, IMAGE_SIZE)


def ball_bgr(name: str) -> tuple[int, int, int]:
    """A ball's body colour: the mean of its colour model, converted from Lab to BGR."""
    lightness, a, b = ColourConfig().models[name][0]
    lab = np.array([[[lightness, a + 128.0, b + 128.0]]], dtype=np.uint8)
    return tuple(int(v) for v in cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)[0, 0])


@dataclass
class Scene:
    """What to draw: balls (name, x_mm, y_mm), and optional cue, chalk marks and player shadow."""

    balls: list[tuple[str, float, float]] = field(default_factory=list)
    cue: tuple[tuple[float, float], tuple[float, float]] | None = None
    """Cue from the first to the second point, in table mm (drawn 6 px wide, light wood)."""
    chalk: list[tuple[float, float]] = field(default_factory=list)
    shadow: tuple[tuple[float, float], tuple[float, float]] | None = None
    """A soft stripe of shaded cloth (a player's shadow) between two table points, mm."""
    glare: list[tuple[float, float]] = field(default_factory=list)
    """Small bright reflections on the cloth (no ball under them), table mm."""
    pocket_shadows: bool = False
    """The six pocket openings as dark holes reaching onto the cloth."""
    motion_blur_px: int = 0
    """Length (px) of a horizontal motion blur over the whole image (0: none)."""
    lighting_gradient: float = 0.15
    """Brightness falls by this fraction from the far end to the near end of the image."""
    seed: int = 0


def render(scene: Scene, view: TableView) -> np.ndarray:
    """The BGR uint8 image of ``scene`` seen through ``view``."""
    w, h = IMAGE_SIZE
    image = np.full((h, w, 3), SURROUND_BGR, dtype=np.float32)
    table = view.playing_area_mask((h, w)) > 0
    grown = cv2.dilate(table.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    image[grown] = CLOTH_BGR
    if scene.shadow is not None:
        ends = view.table_to_image(np.array(scene.shadow, dtype=float)).round().astype(int)
        stripe = np.zeros((h, w), np.uint8)
        cv2.line(stripe, tuple(ends[0]), tuple(ends[1]), 255, 26)
        image[stripe > 0] *= 0.55
    if scene.pocket_shadows:
        for pocket in view.table.pockets.values():
            cx, cy = view.table_to_image(np.array([pocket.drop_centre]))[0].round().astype(int)
            cv2.circle(image, (int(cx), int(cy)), 14, (2, 12, 3), -1)
    for x, y in scene.glare:
        gx, gy = view.table_to_image(np.array([[x, y]]))[0].round().astype(int)
        cv2.rectangle(image, (int(gx) - 1, int(gy) - 1), (int(gx) + 1, int(gy) + 1), (250, 250, 250), -1)
    for x, y in scene.chalk:
        cx, cy = view.table_to_image(np.array([[x, y]]))[0].round().astype(int)
        cv2.circle(image, (int(cx), int(cy)), 1, (180, 120, 40), -1)
    order = sorted(scene.balls, key=lambda ball: float(view.table_to_image(np.array([ball[1:]]))[0, 1]))
    for name, x, y in order:
        _draw_ball(image, view, name, x, y)
    if scene.cue is not None:
        ends = view.table_to_image(np.array(scene.cue, dtype=float)).round().astype(int)
        cv2.line(image, tuple(ends[0] + (4, 6)), tuple(ends[1] + (4, 6)), (2, 100, 3), 6)
        cv2.line(image, tuple(ends[0]), tuple(ends[1]), (150, 200, 225), 6)
    if scene.motion_blur_px > 1:
        kernel = np.full((1, scene.motion_blur_px), 1.0 / scene.motion_blur_px, np.float32)
        image = cv2.filter2D(image, -1, kernel)
    rows = np.linspace(1.0 - scene.lighting_gradient / 2, 1.0 + scene.lighting_gradient / 2, h)[::-1]
    image *= rows[:, None, None].astype(np.float32)
    rng = np.random.default_rng(scene.seed)
    image += rng.normal(0.0, 2.0, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def _draw_ball(image: np.ndarray, view: TableView, name: str, x: float, y: float) -> None:
    centre = view.table_to_image(np.array([[x, y]]), height_mm=BALL_RADIUS)[0]
    r = float(view.ball_radius_px(np.array([x, y])))
    cx, cy = (round(v) for v in centre)
    ri = round(r)
    cv2.ellipse(image, (cx, cy + int(0.7 * r)), (ri, max(1, int(0.45 * r))), 0, 0, 360, (1, 40, 2), -1)
    colour = np.array(ball_bgr(name), dtype=np.float32)
    cv2.circle(image, (cx, cy), ri, tuple(float(c) for c in colour), -1)
    lower = np.zeros(image.shape[:2], np.uint8)
    cv2.ellipse(lower, (cx, cy), (ri, ri), 0, 20, 160, 255, -1)
    image[lower > 0] = colour * 0.8
    hx, hy = cx, cy - round(0.45 * r)
    spot = max(1, round(0.12 * r))
    for dx in (-spot - 1, spot):
        cv2.rectangle(image, (hx + dx, hy - spot), (hx + dx + spot, hy + spot), (250, 250, 250), -1)
