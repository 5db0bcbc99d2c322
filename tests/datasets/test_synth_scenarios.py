"""Each named scenario's truth shows what the name says, and the library is deterministic."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from snooker.balls import POCKET_NAMES
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.scenarios import SCENARIOS, make_scenario
from snooker.datasets.synth.truth import clip_truth, stroke_truths

EXPECTED = {
    "ball_not_on_hit_first": lambda s: (
        len(s[0]["log"]["first_contact"]) == 1
        and s[0]["log"]["first_contact"] != ["red"]
        and "wrong_ball_first" in s[0]["expected"]["reasons"]
    ),
    "two_balls_hit_at_once": lambda s: len(s[0]["log"]["first_contact"]) == 2,
    "in_off": lambda s: s[0]["log"]["cue_ball"] == "potted" and "in_off" in s[0]["expected"]["reasons"],
    "forced_off_table": lambda s: s[0]["log"]["off_table"] == ["red"] and s[0]["expected"]["foul"],
    "touching_ball": lambda s: s[0]["log"]["touching"] == ["red"] and s[0]["log"]["first_contact"] == ["red"],
    "pot_rattles_out": lambda s: s[0]["log"]["potted"] == [] and s[0]["log"]["first_contact"] == ["red"],
    "pack_split": lambda s: s[0]["log"]["first_contact"] == ["red"] and not s[0]["expected"]["foul"],
    "stroke_while_ball_moving": lambda s: len(s) == 2 and bool(s[1]["log"].get("moving_at_strike")),
    "miss": lambda s: s[0]["log"]["first_contact"] == [] and s[0]["expected"]["reasons"] == ["no_ball_hit"],
    **{f"plain_pot_{p}": None for p in POCKET_NAMES},
}


def _plain_pot_shows(pocket: str, strokes: list[dict]) -> bool:
    return (
        strokes[0]["log"]["potted"] == [{"ball": "red", "pocket": pocket}]
        and not strokes[0]["expected"]["foul"]
    )


def test_every_scenario_has_an_expectation():
    assert set(EXPECTED) == set(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@pytest.mark.parametrize("seed", [0, 1])
def test_scenario_truth_shows_what_its_name_says(name, seed):
    scenario = make_scenario(name, seed)
    strokes = stroke_truths(scenario.trajectory, scenario.ball_on)
    if name.startswith("plain_pot_"):
        assert _plain_pot_shows(name.removeprefix("plain_pot_"), strokes), strokes
    else:
        assert EXPECTED[name](strokes), strokes


def test_rattle_touches_a_jaw():
    traj = make_scenario("pot_rattles_out", 0).trajectory
    assert any(
        e.kind == "cushion" and e.where.startswith("jaw:") and e.balls == ("red-1",) for e in traj.events
    )


def test_same_seed_gives_identical_truth_and_another_seed_differs():
    camera = Camera.broadcast((640, 360))
    a = clip_truth(make_scenario("pack_split", 3).trajectory, camera, "pack_split", "red")
    b = clip_truth(make_scenario("pack_split", 3).trajectory, camera, "pack_split", "red")
    c = clip_truth(make_scenario("pack_split", 4).trajectory, camera, "pack_split", "red")
    assert a == b
    assert a["frames"] != c["frames"]


def test_truth_frame_log_line_has_the_contract_fields():
    truth = clip_truth(make_scenario("in_off", 0).trajectory, Camera.overhead(), "in_off", "red")
    line = truth["frame_log"][0]
    assert line["type"] == "stroke"
    assert {"first_contact", "potted", "off_table", "cue_ball", "touching", "positions"} <= set(line)
    stroke = truth["strokes"][0]["analysis"]
    assert {
        "start_frame",
        "end_frame",
        "first_contact",
        "potted",
        "off_table",
        "cue_ball",
        "touching",
    } <= set(stroke)
    assert all({"ball", "pocket", "frame"} <= set(p) for p in stroke["potted"])
    assert len(truth["frames"]) == truth["frames_count"]
    assert truth["calibration"]["table_view"]["schema"] == "snooker.calibration/1"


def test_unknown_scenario_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown scenario"):
        make_scenario("nonsense", 0)


@pytest.mark.parametrize("seed", [0, 2])
def test_simple_player_frame_truth_is_consistent(seed):
    from snooker.datasets.synth.player import play_frame

    game = play_frame(seed)
    strokes = stroke_truths(game.trajectory, game.balls_on)
    assert len(strokes) == len(game.balls_on) >= 2
    times = game.trajectory.frame_times
    for previous, stroke in itertools.pairwise(strokes):
        assert previous["analysis"]["end_frame"] < stroke["analysis"]["start_frame"]
    for stroke in strokes:
        after = stroke["log"]["positions"]["after"]
        for pot in stroke["analysis"]["potted"]:
            assert stroke["analysis"]["start_frame"] <= pot["frame"] <= stroke["analysis"]["end_frame"]
        assert "white" in after or stroke["log"]["cue_ball"] != "on_table"
    # A potted red never comes back; every position sample of a potted red after its pot is empty.
    for event in (e for e in game.trajectory.events if e.kind == "pot" and e.balls[0].startswith("red-")):
        later = times[times > event.t + 1e-6]
        assert np.isnan(game.trajectory.position(event.balls[0], later)).all()


@pytest.mark.parametrize(
    ("moving", "ball_on", "penalty"),
    [([], "red", 0), (["red"], "red", 4), (["black", "red"], "red", 7), (["red"], "pink", 6)],
)
def test_a_stroke_struck_while_balls_run_costs_the_value_of_the_ball_concerned(moving, ball_on, penalty):
    """3.12(b): striking while a ball moves costs the ball on's value or the moving ball's, the higher."""
    from snooker.datasets.synth.truth import expected_fouls

    log = {"first_contact": [ball_on], "potted": [], "off_table": [], "cue_ball": "on_table"}
    if moving:
        log["moving_at_strike"] = moving
    expected = expected_fouls(log, ball_on)
    assert expected["foul"] is bool(moving) and expected["penalty"] == penalty
