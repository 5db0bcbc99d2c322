"""Broadcast-like videos with a replay, made from a real clip: the stroke live, a cut, the stroke
again from the same camera (slowed down), a wipe, and the table live again.

Real match video shows strokes again from the main camera; the shared clips are single strokes
without one. This puts one together from a clip as a broadcast would, for measuring how the
analysis tells a replay from play (``snooker.tracker.replays``; ``scripts/eval_replays.py``).
Written under a temporary or ``out/`` folder, never into the repository.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

OTHER_VIEW_TASK4_CLIP = 3
"""The shared Task4 clip whose first frames stand for the cut away (a low side view, no full table)."""
FALLBACK_FPS = 30.0
"""The frame rate written when the clip does not say its own (frames a second)."""
WIPE_COLOUR_BGR = (120, 40, 10)
"""The wipe graphic's colour (a broadcaster's replay wipe: no table in it)."""


@dataclass(frozen=True)
class ReplayVideoPlan:
    """How the video is put together (frames of the source clip's rate).

    ``last_frame``: the clip's last frame to use (the last that shows the table: a clip that cuts
    away at its end would otherwise end its replay off the table); ``hold_frames``: that frame held
    after the live stroke and again after the replay; ``cut_frames``: frames of another view
    between the live stroke and the replay; ``slow``: each replay frame shown this many times;
    ``wipe_frames``: the wipe between the replay and the table live again.
    """

    last_frame: int
    hold_frames: int = 45
    cut_frames: int = 30
    slow: int = 2
    wipe_frames: int = 10
    tail_frames: int = 90

    def __post_init__(self) -> None:
        if self.last_frame < 0 or self.slow < 1 or min(self.cut_frames, self.wipe_frames) < 1:
            raise ValueError(f"impossible plan {self}")


def read_frames(path: Path, limit: int | None = None) -> list[np.ndarray]:
    """The frames of a video (up to ``limit``); ValueError when it cannot be opened."""
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise ValueError(f"cannot open video {path}")
    frames: list[np.ndarray] = []
    try:
        while limit is None or len(frames) < limit:
            ok, image = capture.read()
            if not ok:
                break
            frames.append(image)
    finally:
        capture.release()
    return frames


def write_replay_video(clip: Path, other_view: Path, out: Path, plan: ReplayVideoPlan) -> int:
    """Write the video (MPEG-4, the clip's size and rate) and return its frame count: the clip up
    to ``plan.last_frame``, that frame held, ``plan.cut_frames`` of ``other_view`` (resized), the
    clip again from its first frame, slowed, a wipe, and the last frame held."""
    frames = read_frames(clip)[: plan.last_frame + 1]
    if len(frames) <= plan.last_frame:
        raise ValueError(f"{clip} has {len(frames)} frames, fewer than the plan's {plan.last_frame + 1}")
    height, width = frames[0].shape[:2]
    others = [cv2.resize(f, (width, height)) for f in read_frames(other_view, plan.cut_frames)]
    if len(others) < plan.cut_frames:
        raise ValueError(f"{other_view} has fewer than {plan.cut_frames} frames")
    capture = cv2.VideoCapture(str(clip))
    fps = capture.get(cv2.CAP_PROP_FPS) or FALLBACK_FPS
    capture.release()
    wipe = np.empty((height, width, 3), np.uint8)
    wipe[:] = WIPE_COLOUR_BGR
    last = frames[-1]
    sequence = [
        *frames,
        *[last] * plan.hold_frames,
        *others,
        *[f for f in frames for _ in range(plan.slow)],
        *[wipe] * plan.wipe_frames,
        *[last] * plan.tail_frames,
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
    try:
        for image in sequence:
            writer.write(image)
    finally:
        writer.release()
    return len(sequence)


__all__ = ["OTHER_VIEW_TASK4_CLIP", "ReplayVideoPlan", "read_frames", "write_replay_video"]
