"""End to end on rendered clips: a representative set of scenarios is filmed by the broadcast-like
camera into mp4 files, read by the real pipeline (the table found in the frames, the classical
detector, the tracker, the stroke finder) and ruled by the referee; events and rulings are
compared with the simulation's truth (``snooker.datasets.synth.e2e``).

The whole library, both cameras and several seeds are measured by ``scripts/eval_synth_e2e.py``;
this keeps a fixed set of eight hard cases (seed 0, 960x540 to stay quick) from getting worse.
The thresholds are the figures measured when the test was written, so a drop fails it.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.e2e import ClipScore, EndToEndConfig, Summary, compare, film, run_pipeline
from snooker.datasets.synth.scenarios import make_scenario

SCENARIOS = (
    "ball_not_on_hit_first",
    "two_balls_hit_at_once",
    "in_off",
    "forced_off_table",
    "touching_ball",
    "pot_rattles_out",
    "plain_pot_middle_left",
    "pack_split",
)
SEED = 0
SIZE = (960, 540)
CONFIG = EndToEndConfig(settle_s=1.0)
WORKERS = 2

MIN_STROKE_RECALL = 1.0
MIN_STROKE_PRECISION = 1.0
MIN_FIRST_CONTACT_ACCURACY = 8 / 8
MIN_RULING_AGREEMENT = 8 / 8
MIN_EVENT_RECALL = {"first_contact": 1.0, "pot": 1.0, "off_table": 1.0, "cue_ball": 1.0, "touching": 1.0}
MIN_EVENT_PRECISION = {"first_contact": 1.0, "pot": 1.0, "off_table": 1.0, "cue_ball": 1.0, "touching": 1.0}
MAX_MEDIAN_POSITION_ERROR_MM = 8.0
MIN_CLIPS_ALL_RIGHT = 8


def _one(job: tuple[str, str]) -> ClipScore:
    name, folder = job
    scenario = make_scenario(name, SEED)
    stem = Path(folder) / name
    truth = film(
        scenario.trajectory, Camera.broadcast(SIZE), stem, name, scenario.ball_on, SEED, config=CONFIG
    )
    return compare(truth, run_pipeline(stem.with_suffix(".mp4"), truth, CONFIG), CONFIG)


@pytest.fixture(scope="module")
def scores(tmp_path_factory) -> dict[str, ClipScore]:
    folder = str(tmp_path_factory.mktemp("e2e"))
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        return dict(zip(SCENARIOS, pool.map(_one, [(name, folder) for name in SCENARIOS]), strict=True))


@pytest.fixture(scope="module")
def summary(scores) -> dict:
    total = Summary()
    for score in scores.values():
        total.add(score)
    return total.to_dict()


def _notes(scores: dict[str, ClipScore]) -> str:
    return "; ".join(f"{name}: {', '.join(s.notes)}" for name, s in scores.items() if s.notes)


@pytest.mark.slow
def test_the_table_is_found_in_every_clip(scores):
    assert all(score.calibrated for score in scores.values())


@pytest.mark.slow
def test_strokes_are_found(summary, scores):
    assert summary["strokes"]["recall"] >= MIN_STROKE_RECALL, _notes(scores)
    assert summary["strokes"]["precision"] >= MIN_STROKE_PRECISION, _notes(scores)


@pytest.mark.slow
def test_first_contacts(summary, scores):
    assert summary["first_contact_accuracy"] >= MIN_FIRST_CONTACT_ACCURACY, _notes(scores)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(set(MIN_EVENT_RECALL) | set(MIN_EVENT_PRECISION)))
def test_events(summary, scores, kind):
    events = summary["events"][kind]
    assert events["recall"] >= MIN_EVENT_RECALL.get(kind, 0.0), _notes(scores)
    assert events["precision"] >= MIN_EVENT_PRECISION.get(kind, 0.0), _notes(scores)


@pytest.mark.slow
def test_rulings_agree_with_the_rulings_on_the_truth(summary, scores):
    assert summary["ruling_agreement"] >= MIN_RULING_AGREEMENT, _notes(scores)


@pytest.mark.slow
def test_tracked_positions(summary):
    assert summary["position_error_mm"]["rest"]["median"] <= MAX_MEDIAN_POSITION_ERROR_MM


@pytest.mark.slow
def test_most_clips_are_read_without_a_fault(summary, scores):
    assert summary["clips_all_right"] >= MIN_CLIPS_ALL_RIGHT, _notes(scores)
