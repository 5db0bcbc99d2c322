"""Metric regression on real broadcast clips (Bucharest 2020 Task2 pots, Task3 tracks).

A representative subset keeps the test within budget: short clips with a middle-pocket pot, a
corner pot, a black the detector never sees while it runs to its pocket, and a NO clip.
``scripts/eval_pots.py`` and ``scripts/eval_tracking.py`` score all 25 clips against the issue's
targets (task score ≥ 96 %, ≥ 96 % of tracks, median centre error ≤ 2 px). On four clips one lost
track is 12.5 %, so the tracking guards here hold the subset at its measured level (7 of 8 tracks,
median 1.51 px with the rim-fitted centres of 2026-12-03): they fail when tracking gets worse. Two Task4
clips (other camera angles, cuts and zooms; ``scripts/eval_tracking.py --task 4`` scores all 25)
check that the cue ball is followed wherever the full table is in view, and that a clip which never
shows it has no table balls but its cue ball followed in image px (``snooker.vision.otherview``).
Skips where ../shared/data is absent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from snooker.datasets.shared import bucharest_training
from snooker.pipeline.analyze import VideoAnalysis
from snooker.pipeline.evaluation import (
    ClipResult,
    PotTruth,
    pot_answer,
    read_boxes,
    run_clip,
    score_track,
    task2_units,
)

DATA = bucharest_training()
SUBSET = (2, 4, 6, 18)
MIN_TASK_SCORE = 0.96
MIN_TRACKS_PASSING_ON_SUBSET = 7 / 8
MAX_MEDIAN_CENTRE_ERROR_PX_ON_SUBSET = 1.6
TASK4_CUTS_CLIP = 6
"""109 frames: a close-up for 36 of them, then the full table for 73 (97.3 % of those followed on
2026-12-03; 100 % since the first frame's balls are named on it, 2026-12-04)."""
TASK4_NO_TABLE_CLIP = 22
"""102 frames from a low side camera: the full table is never in view."""
MIN_TASK4_HIT_FRACTION_IN_VIEW = 0.9
MIN_TASK4_HIT_FRACTION_OTHER_VIEWS = 0.9
"""On the low side camera's clip: 102 of 102 frames followed (2026-12-03)."""

pytestmark = pytest.mark.footage


@pytest.fixture(scope="module")
def results() -> dict[int, ClipResult]:
    if not (DATA / "Task2").is_dir():
        pytest.skip(f"shared footage not found at {DATA}")
    from snooker.vision.detector import make_detector

    detector = make_detector("classic")
    return {n: ClipResult.of(run_clip(DATA / "Task2" / f"{n}.mp4", detector)) for n in SUBSET}


def test_pots_are_found_with_pocket_and_colour_and_no_false_pots(results):
    units = {}
    for n, result in results.items():
        truth = PotTruth.read(DATA / "Task2" / "ground-truth" / f"{n}_gt.txt")
        units[n] = (task2_units(truth, pot_answer(result)), truth, pot_answer(result))
    score = sum(u for u, _, _ in units.values()) / (4 * len(units))
    assert score >= MIN_TASK_SCORE, units


def test_tracks_pass_the_original_rule_with_small_centre_error(results):
    scores = [
        score_track(result, read_boxes(DATA / "Task3" / "ground-truth" / f"{n}_ball_{k}_gt.txt"), cue=k == 1)
        for n, result in results.items()
        for k in (1, 2)
    ]
    passing = sum(s.passed for s in scores) / len(scores)
    assert passing >= MIN_TRACKS_PASSING_ON_SUBSET, [(s.label, round(s.hit_fraction, 2)) for s in scores]
    errors = np.concatenate([s.centre_errors_px for s in scores])
    assert np.median(errors) <= MAX_MEDIAN_CENTRE_ERROR_PX_ON_SUBSET


def test_the_followed_balls_are_reported_from_the_clips_first_frame(results):
    """The table as the clip opens is reported on its first frame (the tracker names the first
    frame's balls at once), not from the third (before 2026-12-04: 100 of Task3's 169 missed truth
    frames were clips' first three)."""
    for n, result in results.items():
        first = {ball["label"] for ball in result.frames[0]["balls"]}
        for k in (1, 2):
            truth = read_boxes(DATA / "Task3" / "ground-truth" / f"{n}_ball_{k}_gt.txt")
            assert score_track(result, truth, cue=k == 1).label in first, (n, k, sorted(first))


@pytest.fixture(scope="module")
def task4_results() -> dict[int, ClipResult]:
    if not (DATA / "Task4").is_dir():
        pytest.skip(f"shared footage not found at {DATA}")
    from snooker.vision.detector import make_detector

    detector = make_detector("classic")
    return {
        n: ClipResult.of(run_clip(DATA / "Task4" / f"{n}.mp4", detector))
        for n in (TASK4_CUTS_CLIP, TASK4_NO_TABLE_CLIP)
    }


def test_the_cue_ball_is_followed_where_another_camera_shows_the_full_table(task4_results):
    truth = read_boxes(DATA / "Task4" / "ground-truth" / f"{TASK4_CUTS_CLIP}_ball_1_gt.txt")
    score = score_track(task4_results[TASK4_CUTS_CLIP], truth, cue=True)
    assert 0 < score.frames_in_view < score.frames
    assert score.hit_fraction_in_view >= MIN_TASK4_HIT_FRACTION_IN_VIEW, score


def test_a_clip_that_never_shows_the_full_table_has_no_balls(task4_results):
    result = task4_results[TASK4_NO_TABLE_CLIP]
    assert result.view is None and not result.frames and not result.pots


def test_the_cue_ball_is_followed_in_image_px_where_no_table_is_in_view(task4_results):
    truth = read_boxes(DATA / "Task4" / "ground-truth" / f"{TASK4_NO_TABLE_CLIP}_ball_1_gt.txt")
    score = score_track(task4_results[TASK4_NO_TABLE_CLIP], truth, cue=True)
    assert score.frames_in_view == 0 and score.frames_other_views == len(truth)
    assert score.hit_fraction_other_views >= MIN_TASK4_HIT_FRACTION_OTHER_VIEWS, score


ONE_STROKE_CLIPS = (9, 24)
"""Single-stroke clips once read as two (2026-12-04): on 9 the cue tip, feathering against the
cue ball, pulled its detected centre off and back; 24 is a 25 fps broadcast shown at 30 fps, its
repeated pictures making the running cue ball seem to stop and be struck again."""


@pytest.fixture(scope="module")
def analysed() -> Callable[[str, int], VideoAnalysis]:
    """``run_clip`` on a shared clip with a new classic detector, once per (task, clip) in this file:
    Task2 clip 24 is both a single-shot clip and a fair stroke."""
    done: dict[tuple[str, int], VideoAnalysis] = {}

    def analysis(task: str, clip: int) -> VideoAnalysis:
        if not (DATA / task).is_dir():
            pytest.skip(f"shared footage not found at {DATA}")
        if (task, clip) not in done:
            from snooker.vision.detector import make_detector

            done[task, clip] = run_clip(DATA / task / f"{clip}.mp4", make_detector("classic"))
        return done[task, clip]

    return analysis


@pytest.mark.parametrize("clip", ONE_STROKE_CLIPS)
def test_a_single_shot_clip_is_read_as_one_stroke(clip, analysed):
    result = ClipResult.of(analysed("Task2", clip))
    assert [s["first_contact"] for s in result.strokes] == [["red"]]


FAIR_CLIPS = (("Task4", 1), ("Task2", 24))
"""Real strokes with no foul: Task4 clip 1 comes to the table from another camera with the cue ball
running (its contact unseen: once ruled FOUL AND A MISS), Task2 clip 24 joins a frame with ten reds
left (once two strokes, the second a miss of every ball; before that, a break-off's fouls)."""


@pytest.mark.parametrize(("task", "clip"), FAIR_CLIPS)
def test_a_fair_stroke_on_real_footage_is_ruled_fair(task, clip, analysed):
    from snooker.pipeline.analyze import frame_log_lines
    from snooker.referee import Referee

    analysis = analysed(task, clip)
    referee = Referee()
    rulings = [referee.apply(line) for line in frame_log_lines(analysis.strokes)]
    assert [r["type"] for r in rulings] == ["match", "table", "stroke"]
    assert not any("error" in r or r["foul"] for r in rulings), rulings


POT_AFTER_A_CONTACT_AT_A_CUSHION_CLIP = 11
"""The cue ball meets a red a ball's width from the bottom cushion, both are lost for a frame at
the contact, and the red drops two frames later: with the follower of known balls on, the frames
between were once followed past the lost balls' places (a change at the playing area's edge was
taken for a player coming over the cushion), and the pot was not seen (2026-12-05)."""


def test_a_pot_just_after_a_contact_at_a_cushion_is_found():
    if not (DATA / "Task2").is_dir():
        pytest.skip(f"shared footage not found at {DATA}")
    from snooker.vision.detector import make_detector

    clip = POT_AFTER_A_CONTACT_AT_A_CUSHION_CLIP
    result = ClipResult.of(run_clip(DATA / "Task2" / f"{clip}.mp4", make_detector("classic")))
    truth = PotTruth.read(DATA / "Task2" / "ground-truth" / f"{clip}_gt.txt")
    assert pot_answer(result) == truth
