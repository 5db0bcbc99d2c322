"""Pots on real footage made poorer than the shared clips: smaller frames or a lower bit rate, as
``snooker.datasets.clip_variants`` writes them (``p480w``, ``low_bitrate``). All 25 clips:
``scripts/make_clip_variants.py``, then ``scripts/eval_pots.py --data DIR/<variant>``.

- ``p480w`` (854 × 480), clip 3: the black, frozen on the far cushion in its shadow, was judged
  standing out from the cloth on 4 of the 9 ring samples judged (0.44 against 0.45) on the clip's
  first frame, the view's only full detection before the stroke, and on 8 or 9 of 11 on the
  frames after; not searched again while nothing changed there, it was first seen running after
  the cue ball hit it, a ball not on the table when the stroke began, so its pot was not counted.
  The view's first full detection is now made again two frames on
  (``MotionGateConfig.first_full_again_frames``).
- ``low_bitrate``, clip 6: the black, struck at the table's far end at 50 px a frame, is never
  named in flight, only found as unnamed places (frames 23, 25, 27; 24 and 26 hand 23's and 25's
  on), and a place by where it rested on frame 22 (between it and the cue ball as they met) and
  one on the top cushion on 24 broke the trail the tracker takes a ball struck from rest along
  (two places on frames in a row), which also turned 23 deg from its resting centre (read 4.5 px high)
  and passed 58 mm off it: it was held where it had rested (Task3 79.3 %). A trail's first place
  may now be on any frame within ``AssociationConfig.unnamed_max_lost_s``, and its line and turn
  allow for the resting centre's error (``unnamed_trail_line_mm``, ``unnamed_trail_rest_error_mm``).
"""

from __future__ import annotations

import pytest

from snooker.datasets.clip_variants import VARIANTS, write_variant
from snooker.datasets.shared import bucharest_training
from snooker.pipeline.evaluation import ClipResult, PotTruth, pot_answer, read_boxes, run_clip, score_track


@pytest.mark.footage
@pytest.mark.slow
@pytest.mark.parametrize(("number", "variant"), [(3, "p480w")])
def test_poorer_footage_keeps_the_clips_pot(tmp_path, number, variant):
    task2 = bucharest_training() / "Task2"
    if not task2.is_dir():
        pytest.skip(f"shared footage not found at {task2}")
    from snooker.vision.detector import make_detector

    video = tmp_path / f"{number}_{variant}.mp4"
    write_variant(task2 / f"{number}.mp4", video, VARIANTS[variant])
    answer = pot_answer(ClipResult.of(run_clip(video, make_detector("classic"))))
    assert answer == PotTruth.read(task2 / "ground-truth" / f"{number}_gt.txt")


@pytest.mark.footage
@pytest.mark.slow
@pytest.mark.parametrize(("number", "variant"), [(6, "low_bitrate")])
def test_poorer_footage_keeps_a_struck_ball_seen_only_unnamed(tmp_path, number, variant):
    """The Task3 object ball followed by continuity where the detector cannot name it in flight."""
    data = bucharest_training()
    truth = data / "Task3" / "ground-truth" / f"{number}_ball_2_gt.txt"
    if not truth.is_file():
        pytest.skip(f"shared footage not found at {data}")
    from snooker.vision.detector import make_detector

    video = tmp_path / f"{number}_{variant}.mp4"
    write_variant(data / "Task2" / f"{number}.mp4", video, VARIANTS[variant])
    result = ClipResult.of(run_clip(video, make_detector("classic")))
    score = score_track(result, read_boxes(truth), cue=False)
    assert score.passed, (score.label, score.hit_fraction)
