"""An annotated copy of the video: ball ids, short trails, events and the referee's calls.

Drawing only; the analysis is done elsewhere. Written with OpenCV's ``VideoWriter`` (mp4v).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from snooker.pipeline.analyze import FrameOutcome
from snooker.vision.otherview import CueBallSighting

BALL_BGR = {
    "white": (255, 255, 255),
    "red": (40, 40, 230),
    "yellow": (0, 230, 255),
    "green": (60, 180, 40),
    "brown": (40, 80, 140),
    "blue": (230, 120, 20),
    "pink": (200, 160, 255),
    "black": (60, 60, 60),
}


@dataclass(frozen=True)
class AnnotateConfig:
    """Look of the annotated video."""

    trail_frames: int = 20
    """How many past positions of each ball are drawn as its trail."""
    message_frames: int = 60
    """How many frames an event or a call stays on screen."""
    font_scale: float = 0.6
    line_px: int = 2


class VideoAnnotator:
    """Writes frames with the tracker's view drawn over them; use as a context manager."""

    def __init__(self, path: Path, fps: float, size: tuple[int, int], config: AnnotateConfig | None = None):
        self.config = config or AnnotateConfig()
        self.path = path
        self._writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
        if not self._writer.isOpened():
            raise OSError(f"cannot write the annotated video {path}")
        self._trails: dict[str, deque] = {}
        self._messages: deque[tuple[str, int]] = deque(maxlen=4)

    def __enter__(self) -> VideoAnnotator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _draw_other_view_cue_ball(self, image: np.ndarray, seen: CueBallSighting) -> None:
        """The cue ball followed in a view without the table: a ring (thick while held unseen)."""
        cfg = self.config
        centre, radius = (round(seen.x_px), round(seen.y_px)), round(seen.r_px)
        cv2.circle(image, centre, radius + 3, BALL_BGR["white"], 2 if seen.held else 1)
        cv2.putText(
            image,
            "cue ball (other view)",
            (centre[0] + radius + 2, centre[1] - radius),
            cv2.FONT_HERSHEY_SIMPLEX,
            cfg.font_scale * 0.7,
            BALL_BGR["white"],
            1,
        )

    def say(self, text: str, frame: int) -> None:
        """Show ``text`` (an event, a ruling) from ``frame`` on."""
        self._messages.append((text, frame))

    def write(self, outcome: FrameOutcome, record: dict | None) -> None:
        cfg = self.config
        image = outcome.frame.image.copy()
        if outcome.skipped:
            cv2.putText(
                image,
                f"skipped: {outcome.skipped}",
                (20, 40),
                cv2.FONT_HERSHEY_SIMPLEX,
                cfg.font_scale,
                (0, 0, 255),
                cfg.line_px,
            )
            if outcome.cue_ball is not None:
                self._draw_other_view_cue_ball(image, outcome.cue_ball)
        elif record is not None:
            for ball in record["balls"]:
                colour = BALL_BGR.get(ball["ball"], (255, 255, 255))
                centre = (round(ball["x_px"]), round(ball["y_px"]))
                trail = self._trails.setdefault(ball["label"], deque(maxlen=cfg.trail_frames))
                trail.append(centre)
                if len(trail) > 1:
                    cv2.polylines(image, [np.array(trail, dtype=np.int32)], False, colour, 1)
                radius = round(ball["r_px"] or 8)
                cv2.circle(image, centre, radius + 3, colour, 1 if ball["visible"] else 2)
                cv2.putText(
                    image,
                    ball["label"],
                    (centre[0] + radius + 2, centre[1] - radius),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    cfg.font_scale * 0.7,
                    colour,
                    1,
                )
            for event in record.get("events", []):
                where = f" ({event['pocket']})" if event.get("pocket") else ""
                self.say(f"{event['kind']}: {event['ball']}{where}", outcome.frame.index)
        y = image.shape[0] - 20
        for text, since in reversed(self._messages):
            if outcome.frame.index - since <= cfg.message_frames:
                cv2.putText(
                    image, text, (20, y), cv2.FONT_HERSHEY_SIMPLEX, cfg.font_scale, (0, 255, 255), cfg.line_px
                )
                y -= 28
        self._writer.write(image)

    def close(self) -> None:
        self._writer.release()
