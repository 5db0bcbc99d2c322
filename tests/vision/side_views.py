"""Drawn side views for the other-view tests: a perspective table of green cloth, shaded balls
growing down the frame, a white tinted by the cloth, and things that are not balls (a hand, a white
cue shaft, a shirt cuff over the cushion). Image px; 1280x720."""

from __future__ import annotations

import cv2
import numpy as np

H, W = 720, 1280
CLOTH_BGR = (20, 125, 25)
TABLE = np.array([[200, 330], [1080, 330], [1280, 640], [0, 640]], np.int32)
"""The table's cloth as a side camera sees it: the far cushion at the top, narrower."""
BALL_BGR = {
    "white": (150, 235, 215),  # a white lit over green cloth, as broadcasts grade it
    "yellow": (20, 200, 235),
    "pink": (150, 140, 235),
    "red": (20, 20, 170),
    "blue": (150, 60, 10),
    "black": (25, 25, 25),
}


def radius_at(y: float) -> float:
    """Ball radius (px) in the drawn view: nearer (lower) balls are larger."""
    return 9.0 + (y - 330.0) * 0.045


def side_view(balls: list[tuple[str, float, float]], extras: tuple[str, ...] = ()) -> np.ndarray:
    """A drawn side view with ``balls`` (name, x, y px) and ``extras`` ("hand", "cue", "cuff")."""
    image = np.full((H, W, 3), (40, 30, 60), np.uint8)
    noise = np.random.default_rng(1).normal(0, 3, (H, W, 3))
    cv2.fillConvexPoly(image, TABLE, CLOTH_BGR)
    for name, x, y in balls:
        r = radius_at(y)
        cv2.ellipse(
            image, (int(x), int(y + 0.5 * r)), (int(1.2 * r), int(0.5 * r)), 0, 0, 360, (8, 60, 10), -1
        )
        base = np.array(BALL_BGR[name], float)
        for k in range(int(r), 0, -1):
            shade = 0.55 + 0.45 * (1 - k / r) ** 0.5
            cv2.circle(image, (int(x), int(y + 0.15 * (r - k))), k, tuple(float(v) for v in base * shade), -1)
        cv2.circle(image, (int(x - 0.3 * r), int(y - 0.35 * r)), max(1, int(0.18 * r)), (255, 255, 255), -1)
    if "hand" in extras:
        cv2.line(image, (560, 420), (470, 0), (60, 40, 40), 40)
        cv2.ellipse(image, (560, 420), (46, 30), 20, 0, 360, (150, 180, 230), -1)
    if "cue" in extras:
        cv2.line(image, (700, 470), (1000, 470), (225, 235, 240), 9)
    if "cuff" in extras:
        cv2.ellipse(image, (640, 322), (16, 14), 0, 0, 360, (245, 245, 245), -1)
        cv2.rectangle(image, (600, 250), (680, 316), (60, 40, 150), -1)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


LAYOUT = [("red", 380, 400), ("red", 900, 420), ("blue", 640, 380), ("black", 300, 560), ("pink", 820, 520)]
