"""First contact, pots and touching on random simulated shots, from noisy detections alone.

Each shot is simulated (``mini_physics``) with exact truth; the tracker sees only noisy detections
at 30 fps with some missed ones. Done-when figure of the issue: ≥ 98 % of first contacts right.
"""

from __future__ import annotations

import numpy as np
import pytest
from mini_physics import TABLE, D, simulate

from snooker.balls import COLOURS
from snooker.tracker import BallTracker, StrokeSegmenter
from snooker.vision.types import BallDetections

SHOTS = 60
MIN_FIRST_CONTACT_ACCURACY = 0.98
NOISE_MM = 1.5
MISSED_DETECTION_RATE = 0.02
MIN_GAP_MM = 30.0
"""Balls start at least this far apart (except the deliberately touching pairs): a cue ball that
squeezes past a ball within a millimetre or two is beyond what noisy 30 fps positions can settle."""


def _layout(rng: np.random.Generator, simultaneous: bool):
    names = ["white", *rng.choice(COLOURS, size=rng.integers(1, 4), replace=False).tolist()]
    names += ["red"] * int(rng.integers(2, 6))
    xy: list[np.ndarray] = []
    margin = np.array([120.0, 120.0])
    size = np.array([TABLE.width_mm, TABLE.length_mm])
    while len(xy) < len(names):
        p = rng.uniform(margin, size - margin)
        if all(np.linalg.norm(p - q) > D + MIN_GAP_MM for q in xy):
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
    return labels, np.array(xy), direction * rng.uniform(1000.0, 4000.0)


def _detections(shot, rng):
    names = [label.split("-")[0] for label in shot.labels]
    for i, (t, xy) in enumerate(zip(shot.samples_t, shot.samples_xy, strict=True)):
        keep = np.isfinite(xy).all(axis=1) & (rng.random(len(xy)) >= MISSED_DETECTION_RATE)
        mm = xy[keep] + rng.normal(0.0, NOISE_MM, (int(keep.sum()), 2))
        yield (
            i,
            float(t),
            BallDetections(
                mm, np.full(len(mm), 5.0), np.array(names, dtype=object)[keep], np.ones(len(mm)), mm
            ),
        )


def _run(shot, rng):
    tracker, segmenter = BallTracker(), StrokeSegmenter()
    strokes, initial = [], None
    for i, t, det in _detections(shot, rng):
        state = tracker.update(i, t, det)
        if i == 5:
            initial = state.by_label()
        strokes += segmenter.push(state)
    strokes += segmenter.finish(tracker.finish())
    # Map the tracker's labels to the truth by the starting positions.
    start = shot.samples_xy[0]
    to_truth = {
        label: shot.labels[int(np.argmin(np.linalg.norm(start - np.array(b.xy_mm), axis=1)))]
        for label, b in (initial or {}).items()
    }
    return strokes, to_truth


@pytest.fixture(scope="module")
def outcomes():
    rng = np.random.default_rng(2026)
    out = []
    while len(out) < SHOTS:
        layout = _layout(rng, simultaneous=len(out) % 6 == 5)
        if layout is None:
            continue
        shot = simulate(*layout)
        strokes, to_truth = _run(shot, rng)
        out.append((shot, strokes, to_truth))
    return out


def test_first_contacts_are_right_on_random_shots(outcomes):
    right, wrong = 0, []
    for shot, strokes, to_truth in outcomes:
        got = (
            tuple(sorted(to_truth.get(x, x) for x in strokes[0].first_contact)) if len(strokes) == 1 else None
        )
        if got == tuple(sorted(shot.first_contact)):
            right += 1
        else:
            wrong.append((shot.first_contact, got, len(strokes)))
    assert right / len(outcomes) >= MIN_FIRST_CONTACT_ACCURACY, wrong
    assert sum(len(shot.first_contact) == 2 for shot, _, _ in outcomes) >= 5


def test_pots_on_random_shots_have_the_right_ball_and_pocket(outcomes):
    right = total = 0
    for shot, strokes, to_truth in outcomes:
        if len(strokes) != 1:
            continue
        truth = {k: v for k, v in shot.potted.items() if k != "white"}
        got = {to_truth.get(p.label, p.label): p.pocket for p in strokes[0].potted}
        total += 1
        right += got == truth
        cue = "potted" if "white" in shot.potted else "on_table"
        right -= strokes[0].cue_ball != cue
    assert right / total >= 0.95
