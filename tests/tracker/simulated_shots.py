"""Random shots for scoring the stroke-event finder: layouts, simulated by ``mini_physics``, seen as
noisy detections by the tracker and stroke segmenter, with the tracker's ball labels mapped back
to the simulation's. Shared by the tests here and ``scripts/eval_shots_sim.py`` (which scores
them whole: first contacts, and pots with the cue ball).

Layout families (each returns labels, positions (n, 2) mm and the cue ball's velocity mm/s, or
None when the draw does not fit; ball 0 is the cue ball):
- ``spread``: a few balls apart over the table, one aimed at (every sixth, two touching side by
  side and aimed between: hit at once);
- ``break_off``: the cue ball from the D into the side of the full pack's back row, at speed (the
  rendered library's ``pack_split``);
- ``cluster``: balls around one place, a few mm to a few cm apart, one of them aimed at.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from mini_physics import TABLE, D, Shot

from snooker.balls import COLOURS
from snooker.tracker import BallTracker, StrokeSegmenter
from snooker.tracker.types import StrokeEvents
from snooker.vision.types import BallDetections

Layout = tuple[list[str], np.ndarray, np.ndarray]
MARGIN_MM = 120.0
"""Balls of ``spread`` start at least this far from the cushions."""
SPREAD_GAP_MM = 30.0
"""Balls of ``spread`` start at least this far apart (but the touching pairs): a cue ball that
squeezes past a ball within a millimetre or two is beyond what noisy 30 fps positions settle."""


def spread(rng: np.random.Generator, simultaneous: bool, speed_mm_s: tuple[float, float] = (1000.0, 4000.0)):
    """The ``spread`` family (see the module)."""
    names = ["white", *rng.choice(COLOURS, size=rng.integers(1, 4), replace=False).tolist()]
    names += ["red"] * int(rng.integers(2, 6))
    xy: list[np.ndarray] = []
    margin = np.array([MARGIN_MM, MARGIN_MM])
    size = np.array([TABLE.width_mm, TABLE.length_mm])
    while len(xy) < len(names):
        p = rng.uniform(margin, size - margin)
        if all(np.linalg.norm(p - q) > D + SPREAD_GAP_MM for q in xy):
            xy.append(p)
    target = 1
    if simultaneous:
        # Balls 1 and 2 touch side by side, square to the cue ball's line; aim between them.
        to_target = xy[1] - xy[0]
        side = np.array([-to_target[1], to_target[0]]) / np.linalg.norm(to_target)
        aim = xy[1].copy()
        xy[1], xy[2] = aim - side * D / 2.0, aim + side * D / 2.0
        if not all(
            np.linalg.norm(xy[b] - q) > D + 5.0 for b in (1, 2) for k, q in enumerate(xy) if k not in (1, 2)
        ) or not np.all(
            (xy[2] > margin) & (xy[2] < size - margin) & (xy[1] > margin) & (xy[1] < size - margin)
        ):
            return None
    else:
        to_target = xy[target] - xy[0]
        side = np.array([-to_target[1], to_target[0]]) / np.linalg.norm(to_target)
        aim = xy[target] + side * rng.uniform(-0.85, 0.85) * D
    direction = (aim - xy[0]) / np.linalg.norm(aim - xy[0])
    labels = [f"{n}-{k}" if n == "red" else n for k, n in enumerate(names)]
    return labels, np.array(xy), direction * rng.uniform(*speed_mm_s)


def break_off(rng: np.random.Generator, speed_mm_s: tuple[float, float] = (4500.0, 7000.0)) -> Layout:
    """The ``break_off`` family (see the module)."""
    rack = dict(TABLE.rack_positions())  # the reds and the colours on their spots
    cx, baulk_y = TABLE.d_centre
    side = 1.0 if rng.random() < 0.5 else -1.0
    white = np.array([cx + side * rng.uniform(60.0, 250.0), baulk_y - rng.uniform(0.0, 60.0)])
    back_row = sorted((b for b in rack if b.startswith("red-")), key=lambda b: -rack[b][1])[:5]
    end_red = max(back_row, key=lambda b: rack[b][0] * side)
    target = np.asarray(rack[end_red]) + np.array([side * rng.uniform(30.0, 45.0), 0.0])
    labels = ["white", *rack]
    xy = np.array([white, *rack.values()], dtype=float)
    direction = (target - white) / np.linalg.norm(target - white)
    return labels, xy, direction * rng.uniform(*speed_mm_s)


CLUSTER_SPREAD_MM = 180.0
"""The standard deviation of the ``cluster`` balls' offsets from its centre."""
CLUSTER_MARGIN_MM = 80.0
"""``cluster`` balls start at least this far from the cushions."""


def cluster(
    rng: np.random.Generator, min_gap_mm: float, speed_mm_s: tuple[float, float] = (800.0, 6000.0)
) -> Layout | None:
    """The ``cluster`` family (see the module): balls at least ``min_gap_mm`` apart."""
    names = ["white", *rng.choice(COLOURS, size=rng.integers(2, 6), replace=False).tolist()]
    names += ["red"] * int(rng.integers(3, 9))
    margin = np.array([CLUSTER_MARGIN_MM, CLUSTER_MARGIN_MM])
    size = np.array([TABLE.width_mm, TABLE.length_mm])
    centre = rng.uniform(margin + 2 * CLUSTER_SPREAD_MM, size - margin - 2 * CLUSTER_SPREAD_MM)
    xy: list[np.ndarray] = [rng.uniform(margin, size - margin)]
    for _ in range(50 * len(names)):
        if len(xy) == len(names):
            break
        p = centre + rng.normal(0.0, CLUSTER_SPREAD_MM, 2)
        inside = np.all(p >= margin) and np.all(p <= size - margin)
        if inside and all(np.linalg.norm(p - q) > D + min_gap_mm for q in xy):
            xy.append(p)
    if len(xy) < len(names):
        return None
    target = xy[int(rng.integers(1, len(names)))]
    to_target = target - xy[0]
    side = np.array([-to_target[1], to_target[0]]) / np.linalg.norm(to_target)
    aim = target + side * rng.uniform(-0.85, 0.85) * D
    direction = (aim - xy[0]) / np.linalg.norm(aim - xy[0])
    labels = [f"{n}-{k}" if n == "red" else n for k, n in enumerate(names)]
    return labels, np.array(xy), direction * rng.uniform(*speed_mm_s)


def track(
    shot: Shot, rng: np.random.Generator, noise_mm: float = 1.5, missed_rate: float = 0.0
) -> tuple[list[StrokeEvents], Callable[[str], str]]:
    """The shot's strokes as the tracker and segmenter find them from noisy detections (each ball
    missed at ``missed_rate``), and the map from the tracker's labels to the shot's (by where the
    balls were on the sixth frame)."""
    names = np.array([label.split("-")[0] for label in shot.labels], dtype=object)
    tracker, segmenter = BallTracker(), StrokeSegmenter()
    strokes, initial = [], {}
    for i, (t, xy) in enumerate(zip(shot.samples_t, shot.samples_xy, strict=True)):
        keep = np.isfinite(xy).all(axis=1) & (rng.random(len(xy)) >= missed_rate)
        mm = xy[keep] + rng.normal(0.0, noise_mm, (int(keep.sum()), 2))
        detections = BallDetections(mm, np.full(len(mm), 5.0), names[keep], np.ones(len(mm)), mm)
        state = tracker.update(i, float(t), detections)
        if i == 5:
            initial = state.by_label()
        strokes += segmenter.push(state)
    strokes += segmenter.finish(tracker.finish())
    start = shot.samples_xy[0]
    to_truth = {
        label: shot.labels[int(np.argmin(np.linalg.norm(start - np.array(ball.xy_mm), axis=1)))]
        for label, ball in initial.items()
    }
    return strokes, lambda label: to_truth.get(label, label)


def first_contact(strokes: list[StrokeEvents], to_truth: Callable[[str], str]) -> tuple[str, ...] | None:
    """The one stroke's first contact in the shot's labels, sorted (None unless one stroke)."""
    if len(strokes) != 1:
        return None
    return tuple(sorted(to_truth(label) for label in strokes[0].first_contact))
