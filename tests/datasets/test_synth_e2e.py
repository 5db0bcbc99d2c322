"""The end-to-end comparison itself (no rendering): a perfect run scores all right, and every kind
of perception error is counted where it belongs."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import pytest

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.clip import with_settle
from snooker.datasets.synth.e2e import (
    EVENT_KINDS,
    PipelineRun,
    compare,
    pair_strokes,
    starts_a_frame,
    stroke_events,
)
from snooker.datasets.synth.scenarios import make_scenario
from snooker.datasets.synth.truth import clip_truth

HEADER = {"type": "match", "schema": "snooker.log/1", "players": ["A", "B"], "best_of": 1, "breaker": 0}


@functools.cache
def _scenario(name: str):
    return make_scenario(name, 0)


def _truth(name: str) -> dict:
    """A fresh truth document (callers may change it) of the scenario ``name``, seed 0."""
    traj = with_settle(_scenario(name).trajectory, 1.0)
    return clip_truth(traj, Camera.broadcast((640, 360)), name, "red")


def _perfect_run(truth: dict) -> PipelineRun:
    """What a flawless pipeline would report for this truth."""
    strokes = [{**s["analysis"], "positions": s["log"]["positions"]} for s in truth["strokes"]]
    frames = [
        {
            "i": f["i"],
            "balls": [
                {"ball": b["ball"], "x_mm": b["x_mm"], "y_mm": b["y_mm"], "visible": True} for b in f["balls"]
            ],
        }
        for f in truth["frames"]
    ]
    log = [HEADER, *[copy.deepcopy(s["log"]) for s in truth["strokes"]]]
    return PipelineRun({"strokes": strokes, "frames": frames}, log, True)


@pytest.mark.parametrize("name", ["plain_pot_top_left", "miss", "touching_ball", "forced_off_table"])
def test_a_perfect_run_is_all_right(name):
    truth = _truth(name)
    score = compare(truth, _perfect_run(truth))
    assert score.all_right, score.notes
    assert score.first_contact_right == score.truth_strokes == 1
    assert score.rulings_compared == score.foul_agree == score.points_agree == 1
    assert max(score.position_errors_mm["rest"]) < 0.01


def test_a_missed_pot_is_a_missed_event_and_a_different_ruling():
    truth = _truth("plain_pot_top_left")
    run = _perfect_run(truth)
    run.frame_log[1]["potted"] = []
    score = compare(truth, run)
    assert not score.all_right
    assert score.events["pot"].missed == 1 and score.events["pot"].hit == 0
    assert score.events["first_contact"].hit == 1
    assert score.points_agree == 0


def test_a_wrong_first_contact_counts_against_first_contact_accuracy_and_the_foul():
    truth = _truth("plain_pot_top_left")
    run = _perfect_run(truth)
    run.frame_log[1]["first_contact"] = ["blue"]
    score = compare(truth, run)
    assert score.first_contact_right == 0
    assert score.events["first_contact"].missed == 1 and score.events["first_contact"].invented == 1
    assert score.foul_agree == 0 and score.expected_foul_agree == 0


def test_an_invented_stroke_lowers_stroke_precision():
    truth = _truth("miss")
    run = _perfect_run(truth)
    extra = copy.deepcopy(run.analysis["strokes"][0])
    extra["start_frame"] += 200
    run.analysis["strokes"].append(extra)
    run.frame_log.append(copy.deepcopy(run.frame_log[1]))
    score = compare(truth, run)
    assert score.strokes.hit == 1 and score.strokes.invented == 1
    assert score.strokes.precision == pytest.approx(0.5)


def test_positions_off_by_a_known_amount_are_measured_so():
    truth = _truth("miss")
    run = _perfect_run(truth)
    for frame in run.analysis["frames"]:
        for ball in frame["balls"]:
            ball["x_mm"] += 3.0
            ball["y_mm"] += 4.0
    errors = compare(truth, run).position_errors_mm["rest"]
    assert min(errors) == pytest.approx(5.0, abs=0.01) and max(errors) == pytest.approx(5.0, abs=0.01)


@pytest.mark.parametrize(
    ("truth_starts", "seen_starts", "pairs"),
    [
        ([10, 100], [12, 98], [(0, 0), (1, 1)]),
        ([10, 100], [98], [(1, 0)]),
        ([10], [40], []),
        ([10, 20], [15], [(0, 0)]),
    ],
)
def test_strokes_pair_by_nearest_start(truth_starts, seen_starts, pairs):
    assert pair_strokes(truth_starts, seen_starts, max_gap=15) == pairs


def test_stroke_events_cover_every_kind():
    line = {
        "first_contact": ["red", "black"],
        "potted": [{"ball": "red", "pocket": "top_left"}],
        "off_table": ["pink"],
        "cue_ball": "potted",
        "touching": ["blue"],
    }
    assert {kind for kind, *_ in stroke_events(line)} == set(EVENT_KINDS)


@pytest.mark.parametrize(
    ("reds", "cue_xy", "starts"),
    [(15, (800.0, 600.0), True), (15, (800.0, 900.0), False), (9, (800.0, 600.0), False)],
)
def test_only_a_full_rack_with_the_cue_ball_in_the_d_starts_a_frame(reds, cue_xy, starts):
    balls = [{"id": f"red-{k}", "ball": "red", "x_mm": 900.0, "y_mm": 3000.0} for k in range(reds)]
    balls.append({"id": "white", "ball": "white", "x_mm": cue_xy[0], "y_mm": cue_xy[1]})
    assert starts_a_frame({"frames": [{"balls": balls}]}) is starts


def test_settling_lengthens_the_clip_but_not_the_motion():
    traj = _scenario("miss").trajectory
    longer = with_settle(traj, 2.0)
    assert longer.duration_s == pytest.approx(traj.rest_time + 2.0)
    assert len(longer.frame_times) > len(traj.frame_times)
    assert longer.events == traj.events


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--scenarios", "--frames", "2"], ["frame_player_0", "frame_player_1"]),
        (["--scenarios", "in_off", "--frames", "1"], ["in_off", "frame_player_0"]),
    ],
)
def test_the_e2e_script_runs_only_the_clips_asked_for(monkeypatch, tmp_path, argv, names):
    """``--scenarios`` given with no name runs none of the library (only the player frames):
    read as "not given", it ran the whole library as well."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "eval_synth_e2e.py"
    spec = importlib.util.spec_from_file_location("eval_synth_e2e_under_test", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    asked: list = []

    class NoPool:
        def __init__(self, max_workers):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, fn, jobs):
            asked.extend(jobs)
            return []

    monkeypatch.setattr(script, "ProcessPoolExecutor", NoPool)
    assert script.main([*argv, "--seeds", "0", "--cameras", "overhead", "--out", str(tmp_path)]) == 0
    assert [job[0] for job in asked] == names
