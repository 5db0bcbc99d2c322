"""A stroke shown again from the main camera is ruled once (real footage, ``snooker.tracker.replays``).

Videos made from shared Task2 clips as a broadcast shows a replay (``snooker.datasets.replay_video``:
the stroke, a cut, the stroke again slowed down, a wipe, the table live): the analysis must give the
clip's own strokes (first contacts, pots with pockets, the cue ball) and the same score. Clip 1 cuts
away while its balls still run (the replay is of the stroke running at the cut); on clip 21 the
slowed replay's cue ball creeps on after the tracker calls it at rest. ``scripts/eval_replays.py``
measures all 25 clips. Skips where ../shared/data is absent.
"""

from __future__ import annotations

import pytest

from snooker.datasets.replay_video import OTHER_VIEW_TASK4_CLIP, ReplayVideoPlan, write_replay_video
from snooker.datasets.shared import bucharest_training
from snooker.pipeline.evaluation import final_score, run_clip, stroke_facts

DATA = bucharest_training()
CLIPS = (1, 21)
SLOW = 2

pytestmark = pytest.mark.footage


@pytest.fixture(scope="module")
def detector():
    if not (DATA / "Task2").is_dir():
        pytest.skip(f"shared footage not found at {DATA}")
    from snooker.vision.detector import make_detector

    return make_detector("classic")


@pytest.mark.parametrize("number", CLIPS)
def test_a_replayed_stroke_is_ruled_once(number, detector, tmp_path):
    clip = DATA / "Task2" / f"{number}.mp4"
    plain = run_clip(clip, detector)
    video = tmp_path / "with_replay.mp4"
    plan = ReplayVideoPlan(last_frame=int(plain.frames[-1]["i"]), slow=SLOW)
    write_replay_video(clip, DATA / "Task4" / f"{OTHER_VIEW_TASK4_CLIP}.mp4", video, plan)
    replayed = run_clip(video, detector)
    assert len(replayed.stage.replays) == 1
    assert stroke_facts(replayed.strokes) == stroke_facts(plain.strokes)
    assert final_score(replayed.strokes) == final_score(plain.strokes)
    assert plain.strokes and plain.strokes[0].potted, "the subset's clips pot a ball"
    document = replayed.analysis({"path": str(video)})
    assert document["replays"][0]["first_frame"] > plan.last_frame
    assert len(document["pots"]) == len(plain.all_pots())
