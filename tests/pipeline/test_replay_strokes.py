"""Replays over the synthetic scenario library: every kind of stroke shown again after a cut, at the
speed played and slowed down, is ruled once (``snooker.tracker.replays`` in the tracking stage).

The strokes are simulated (exact physics: spin, cushions, jaws, simultaneous hits) and seen through
noisy, sometimes missing detections, as in ``test_synthetic_strokes``; the renderer and detector are
left out (the footage test ``test_replay_footage`` has them). Each stroke is tracked alone, then as
a broadcast shows it with a replay: the stroke, held, a cut, the stroke again, a cut, held (a
second's cuts with the replay slowed twice, or 0.15 s cuts at the speed played). The
strokes handed on must be the same in both, and the replay found.
"""

from __future__ import annotations

import numpy as np
import pytest

from snooker.balls import ball_kind
from snooker.pipeline.evaluation import stroke_facts
from snooker.pipeline.tracking import TrackingStage
from snooker.tracker import StrokeConfig, TrackerConfig
from snooker.vision.types import BallDetections

synth = pytest.importorskip("snooker.datasets.synth.scenarios")

SEED = 0
SCENARIOS = tuple(
    name
    for name in sorted(synth.SCENARIOS)
    if name not in ("stroke_while_ball_moving", "stroke_while_ball_creeps")
)
NOISE_MM = 1.5
MISSED_DETECTION_RATE = 0.02
SETTLE_S = 1.5
HOLD_S = 1.0
SHOWINGS = ((1, 0.15), (2, 1.0))
"""How the replay is shown: slowed this many times, after a cut (and before a wipe) of this many
seconds; a replay's wipe may hide the table for only a few frames."""
MIN_SCENARIOS_RULED_ONCE = 0.95
"""Of the scenario runs (each slowing), the share whose strokes with the replay are the stroke's own."""


def _source_frames(name: str) -> tuple[dict, float, int] | None:
    try:
        scenario = synth.make_scenario(name, SEED)
    except synth.ScenarioError:
        return None
    traj = scenario.trajectory
    times = np.arange(int((traj.duration_s + SETTLE_S) * traj.fps) + 1) / traj.fps
    return traj.positions(times), traj.fps, len(times)


def _detections(positions: dict, i: int, rng: np.random.Generator) -> BallDetections:
    labels = list(positions)
    xy = np.array([positions[b][i, :2] for b in labels])
    keep = np.isfinite(xy).all(axis=1) & (rng.random(len(labels)) >= MISSED_DETECTION_RATE)
    mm = xy[keep] + rng.normal(0.0, NOISE_MM, (int(keep.sum()), 2))
    kinds = np.array([ball_kind(b) for b in labels], dtype=object)[keep]
    return BallDetections(mm, np.full(len(mm), 5.0), kinds, np.ones(len(mm)), mm)


class _OverheadView:
    """A camera straight above the table, 2 mm a pixel (what the stage's frame records place with)."""

    mm_per_px = 2.0

    def table_to_image(self, xy_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        return np.asarray(xy_mm, dtype=float) / self.mm_per_px

    def image_to_table(self, xy_px: np.ndarray) -> np.ndarray:
        return np.asarray(xy_px, dtype=float) * self.mm_per_px


def _track(sequence: list[int | None], positions: dict, fps: float) -> TrackingStage:
    """Track source frames in ``sequence`` order, one a 1/fps step; None: a frame of another view."""
    stage = TrackingStage(TrackerConfig(), StrokeConfig(), 0.0)
    stage.view = _OverheadView()
    rng = np.random.default_rng(SEED)
    for k, source in enumerate(sequence):
        if source is not None:
            stage.push(k, k / fps, _detections(positions, source, rng))
    stage.finish()
    return stage


@pytest.fixture(scope="module")
def outcomes() -> dict[tuple[str, int], tuple[list, list, int]]:
    results = {}
    for name in SCENARIOS:
        source = _source_frames(name)
        if source is None:
            continue
        positions, fps, n = source
        plain = _track(list(range(n)), positions, fps)
        last = n - 1
        for slow, cut_s in SHOWINGS:
            sequence = [
                *range(n),
                *[last] * int(HOLD_S * fps),
                *[None] * round(cut_s * fps),
                *[i for i in range(n) for _ in range(slow)],
                *[None] * round(cut_s * fps),
                *[last] * int(2 * HOLD_S * fps),
            ]
            shown = _track(sequence, positions, fps)
            facts = (stroke_facts(plain.strokes), stroke_facts(shown.strokes))
            results[(name, slow)] = (*facts, len(shown.replays))
    return results


def test_a_replayed_stroke_is_ruled_once(outcomes):
    ruled_once = [key for key, (plain, shown, _) in outcomes.items() if plain == shown]
    wrong = {key: (plain, shown) for key, (plain, shown, _) in outcomes.items() if plain != shown}
    assert len(outcomes) >= 0.9 * len(SCENARIOS) * len(SHOWINGS)
    assert len(ruled_once) >= MIN_SCENARIOS_RULED_ONCE * len(outcomes), wrong


def test_each_replay_is_found(outcomes):
    assert all(replays == 1 for _, _, replays in outcomes.values()), {
        key: replays for key, (_, _, replays) in outcomes.items() if replays != 1
    }
