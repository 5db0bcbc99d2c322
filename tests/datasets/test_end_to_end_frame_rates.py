"""End to end at another frame rate: broadcasts run at 25 and 50 fps as well as 30. Rendered
clips of the cases where a ball comes to rest or drops at the far cushion (where the picture of a
ball's centre lies beyond the playing area's edge) go through the real pipeline at 25 fps and
must be ruled as the simulation's truth says (``scripts/eval_synth_e2e.py --fps`` measures the
whole library)."""

from __future__ import annotations

from pathlib import Path

import pytest

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.e2e import EndToEndConfig, compare, film, run_pipeline
from snooker.datasets.synth.scenarios import ScenarioConfig, make_scenario

FRAME_RATE = 25.0
SIZE = (1280, 720)
CASES = {
    # the cue ball creeps to rest in the far corner's jaws: on the table, no in-off
    "plain_pot_baulk_right": 0,
    # the cue ball drops from the far corner's jaws: an in-off
    "in_off": 0,
}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed"), CASES.items(), ids=CASES.keys())
def test_a_clip_at_25_fps_is_ruled_as_its_truth(name: str, seed: int, tmp_path: Path):
    config = EndToEndConfig()
    scenario = make_scenario(name, seed, ScenarioConfig(fps=FRAME_RATE))
    stem = tmp_path / name
    camera = Camera.broadcast(SIZE)
    truth = film(scenario.trajectory, camera, stem, name, scenario.ball_on, seed, config=config)
    assert truth["fps"] == FRAME_RATE
    score = compare(truth, run_pipeline(stem.with_suffix(".mp4"), truth, config), config)
    assert score.all_right, "; ".join(score.notes)
