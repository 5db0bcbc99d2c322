"""Synthetic detection sequences with known truth, for the tracker tests (no images needed).

A scenario gives each ball keyframes ``(t, x_mm, y_mm)`` (linear in between, held after the
last), optional hidden intervals, and a time after which it is gone (potted / off the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from snooker.balls import ball_kind
from snooker.tracker import BallTracker, StrokeEvents, StrokeSegmenter
from snooker.tracker.types import TableState
from snooker.vision.types import BallDetections

PX_PER_MM = 0.2


@dataclass
class Ball:
    label: str
    keys: list[tuple[float, float, float]]
    hidden: list[tuple[float, float]] = field(default_factory=list)
    gone_after: float | None = None
    seen_as: str | None = None

    def at(self, t: float) -> tuple[float, float] | None:
        if self.gone_after is not None and t > self.gone_after:
            return None
        if any(a <= t <= b for a, b in self.hidden):
            return None
        ts = [k[0] for k in self.keys]
        return (
            float(np.interp(t, ts, [k[1] for k in self.keys])),
            float(np.interp(t, ts, [k[2] for k in self.keys])),
        )


def frames(balls: list[Ball], duration_s: float, fps: float = 30.0, noise_mm: float = 0.0, seed: int = 0):
    """Yield (frame index, t, BallDetections) for the scenario."""
    rng = np.random.default_rng(seed)
    for i in range(round(duration_s * fps) + 1):
        t = i / fps
        xy, names = [], []
        for ball in balls:
            p = ball.at(t)
            if p is None:
                continue
            xy.append(np.array(p) + rng.normal(0.0, noise_mm, 2) if noise_mm else np.array(p))
            names.append(ball.seen_as or ball_kind(ball.label))
        arr = np.array(xy).reshape(-1, 2)
        yield (
            i,
            t,
            BallDetections(
                arr * PX_PER_MM, np.full(len(arr), 5.0), np.array(names, dtype=object), np.ones(len(arr)), arr
            ),
        )


@dataclass
class Run:
    states: list
    strokes: list
    outside: list
    events: list


def run(
    balls: list[Ball],
    duration_s: float,
    fps: float = 30.0,
    noise_mm: float = 0.0,
    seed: int = 0,
    tracker: BallTracker | None = None,
    unwatched: list[tuple[float, float]] | None = None,
    content_fps: float | None = None,
) -> Run:
    """The scenario through a tracker and a stroke segmenter; frames at times within an
    ``unwatched`` interval (s) are never given to them (a cut to another camera). With
    ``content_fps`` below ``fps`` the pictures are taken at that rate and shown at ``fps``, some
    twice (a 25 fps broadcast at 30 fps repeats every sixth picture: the same detections again)."""
    tracker = tracker or BallTracker()
    segmenter = StrokeSegmenter()
    states, strokes, events = [], [], []
    shown = frames(balls, duration_s, fps, noise_mm, seed)
    if content_fps is not None:
        pictures = list(frames(balls, duration_s, content_fps, noise_mm, seed))
        count = int(len(pictures) * fps / content_fps)
        shown = ((i, i / fps, pictures[int(i * content_fps / fps)][2]) for i in range(count))
    for i, t, det in shown:
        if any(a <= t <= b for a, b in unwatched or ()):
            continue
        state = tracker.update(i, t, det)
        states.append(state)
        events.extend(state.events)
        strokes.extend(segmenter.push(state))
    final = tracker.finish()
    events.extend(final)
    strokes.extend(segmenter.finish(final))
    return Run(states, strokes, segmenter.outside_events, events)


def segmented(states: list[TableState]) -> list[StrokeEvents]:
    """The strokes a fresh segmenter finds in ``states``, those the end closes included."""
    segmenter = StrokeSegmenter()
    strokes = []
    for state in states:
        strokes += segmenter.push(state)
    return strokes + segmenter.finish()


def still(label: str, x: float, y: float) -> Ball:
    return Ball(label, [(0.0, x, y)])


def named_and_unnamed(named: dict[str, np.ndarray], unnamed: list[np.ndarray]) -> BallDetections:
    """Detections of balls ``named`` (label: table mm) and of ``unnamed`` places (table mm), at
    half a px a mm, radius 8 px, confidence 0.9."""
    names = list(named)
    xy = np.array([named[n] for n in names]).reshape(-1, 2)
    places = np.array(unnamed).reshape(-1, 2)
    return BallDetections(
        xy * 0.5, np.full(len(names), 8.0), names, np.full(len(names), 0.9), xy, places, places * 0.5
    )
