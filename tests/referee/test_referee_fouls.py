"""3.11–3.12: every foul with its value; only the highest counts; break points before a foul stand."""

from __future__ import annotations

import pytest
from referee_logs import decision, last, match, pot, rule, safe, stroke, to_colours

from snooker.referee import FoulReason
from snooker.referee.reasons import PenaltyClass, penalty_value

NOMINATE_BLUE = {"type": "nominate", "ball": "blue"}
ON_RED = [match()]
ON_BLUE = [match(), pot("red"), NOMINATE_BLUE]
ON_COLOUR_UNDECLARED = [match(), pot("red")]
ON_YELLOW = to_colours(6)
ON_PINK = [*to_colours(6), pot("yellow"), pot("green"), pot("brown"), pot("blue")]

PENALTIES = [
    # (name, set-up, stroke, penalty, the reason that counts)
    ("red: missed everything", ON_RED, stroke([]), 4, "missed_all_balls"),
    ("red: black first", ON_RED, safe("black"), 7, "wrong_ball_first"),
    ("red: pink first", ON_RED, safe("pink"), 6, "wrong_ball_first"),
    ("red: yellow first", ON_RED, safe("yellow"), 4, "wrong_ball_first"),
    ("red: red and blue potted", ON_RED, stroke(["red"], ["red", "blue"]), 5, "potted_ball_not_on"),
    ("red: in-off", ON_RED, stroke(["red"], [], cue_ball="potted"), 4, "cue_ball_potted"),
    (
        "red: cue ball off the table",
        ON_RED,
        stroke(["red"], [], cue_ball="off_table"),
        4,
        "cue_ball_off_table",
    ),
    ("red: black off the table", ON_RED, stroke(["red"], [], off_table=["black"]), 7, "ball_off_table"),
    ("red: red off the table", ON_RED, stroke(["red"], [], off_table=["red"]), 4, "ball_off_table"),
    ("red: red and black at once", ON_RED, stroke(["red", "black"]), 7, "two_balls_at_once"),
    ("red: yellow and green at once", ON_RED, stroke(["yellow", "green"]), 4, "two_balls_at_once"),
    ("red: push stroke", ON_RED, stroke(["red"], fouls=["push_stroke"]), 4, "push_stroke"),
    ("red: jump shot", ON_RED, stroke(["red"], fouls=["jump_shot"]), 4, "jump_shot"),
    ("red: double hit", ON_RED, stroke(["red"], fouls=["double_hit"]), 4, "double_hit"),
    ("red: measuring a gap", ON_RED, stroke(["red"], fouls=["measured_gap"]), 7, "measured_gap"),
    (
        "red: used ball off table",
        ON_RED,
        stroke(["red"], fouls=["used_ball_off_table"]),
        7,
        "used_ball_off_table",
    ),
    (
        "red: touched the pink",
        ON_RED,
        stroke(["red"], fouls=[{"reason": "touched_ball", "ball": "pink"}]),
        6,
        "touched_ball",
    ),
    ("red: balls moving", ON_RED, stroke(["red"], fouls=["balls_moving"]), 4, "balls_moving"),
    ("red: wrong cue ball", ON_RED, stroke(["red"], fouls=["wrong_cue_ball"]), 7, "wrong_cue_ball"),
    ("red: out of turn", ON_RED, stroke(["red"], player=1), 4, "out_of_turn"),
    (
        "red: only the highest of several fouls counts",
        ON_RED,
        stroke(["red"], ["red", "black"], cue_ball="potted"),
        7,
        "potted_ball_not_on",
    ),
    ("blue nominated: missed everything", ON_BLUE, stroke([]), 5, "missed_all_balls"),
    (
        "blue nominated: no foot on the floor",
        ON_BLUE,
        stroke(["blue"], fouls=["no_foot_on_floor"]),
        5,
        "no_foot_on_floor",
    ),
    ("blue nominated: illegal cue", ON_BLUE, stroke(["blue"], fouls=["illegal_cue"]), 5, "illegal_cue"),
    ("blue nominated: conferring", ON_BLUE, stroke(["blue"], fouls=["conferring"]), 5, "conferring"),
    (
        "blue nominated: failed to declare",
        ON_BLUE,
        stroke(["blue"], fouls=["failed_to_declare"]),
        7,
        "failed_to_declare",
    ),
    (
        "blue nominated: struck before the black was spotted",
        ON_BLUE,
        stroke(["blue"], fouls=[{"reason": "before_spotting", "ball": "black"}]),
        7,
        "before_spotting",
    ),
    (
        "blue nominated: in-off off the blue",
        ON_BLUE,
        stroke(["blue"], [], cue_ball="potted"),
        5,
        "cue_ball_potted",
    ),
    ("blue nominated: green first", ON_BLUE, safe("green"), 5, "wrong_ball_first"),
    ("blue nominated: pink first", ON_BLUE, safe("pink"), 6, "wrong_ball_first"),
    ("blue nominated: red first", ON_BLUE, safe("red"), 5, "wrong_ball_first"),
    (
        "blue nominated: blue and pink potted",
        ON_BLUE,
        stroke(["blue"], ["blue", "pink"]),
        6,
        "potted_ball_not_on",
    ),
    ("blue nominated: blue and green at once", ON_BLUE, stroke(["blue", "green"]), 5, "two_balls_at_once"),
    (
        "after a red, no colour named: missed all",
        ON_COLOUR_UNDECLARED,
        stroke([]),
        7,
        "foul_before_nomination",
    ),
    (
        "after a red: reds in successive strokes",
        ON_COLOUR_UNDECLARED,
        safe("red"),
        7,
        "reds_in_successive_strokes",
    ),
    (
        "after a red: green first then in-off",
        ON_COLOUR_UNDECLARED,
        stroke(["green"], cue_ball="potted"),
        4,
        "cue_ball_potted",
    ),
    ("yellow on: black first", ON_YELLOW, safe("black"), 7, "wrong_ball_first"),
    ("yellow on: missed everything", ON_YELLOW, stroke([]), 4, "missed_all_balls"),
    (
        "yellow on: yellow and green potted",
        ON_YELLOW,
        stroke(["yellow"], ["yellow", "green"]),
        4,
        "potted_ball_not_on",
    ),
    ("pink on: missed everything", ON_PINK, stroke([]), 6, "missed_all_balls"),
    ("pink on: in-off", ON_PINK, stroke(["pink"], cue_ball="potted"), 6, "cue_ball_potted"),
]


@pytest.mark.parametrize(
    ("setup", "line", "penalty", "reason"),
    [case[1:] for case in PENALTIES],
    ids=[case[0] for case in PENALTIES],
)
def test_penalty_values(setup, line, penalty, reason):
    rulings = rule([*setup, line])
    assert all("error" not in r for r in rulings), rulings
    before, after = rulings[-2], rulings[-1]
    offender_side = before["striker"] if line.get("player") is None else line["player"]
    assert after["foul"] is True
    assert after["penalty"] == penalty
    assert after["fouls"][0] == reason
    assert after["score"][1 - offender_side] == before["score"][1 - offender_side] + penalty
    assert after["score"][offender_side] == before["score"][offender_side]


@pytest.mark.parametrize("reason", list(FoulReason), ids=lambda r: r.code)
def test_every_reason_has_a_stable_code_text_and_a_value_between_four_and_seven(reason):
    assert reason.code == reason.code.lower() and " " not in reason.code
    assert reason.text
    assert FoulReason.from_code(reason.code) is reason
    for ball_on in range(1, 8):
        value = penalty_value(reason, ball_on, (1, 7))
        assert 4 <= value <= 7
        if reason.penalty_class is PenaltyClass.SEVEN:
            assert value == 7


def test_break_points_before_a_foul_stand_and_nothing_potted_in_the_foul_stroke_scores():
    rulings = rule([match(), pot("red"), pot("black"), stroke(["red"], ["red"], cue_ball="potted")])
    assert rulings[-1]["score"] == [8, 4]
    assert rulings[-1]["break"] == 0
    assert rulings[-1]["reds"] == 13  # the red potted in the foul stays down (3.3(g))


def test_a_colour_potted_in_a_foul_is_respotted_even_in_the_ascending_phase():
    ruling = last([*ON_YELLOW, stroke(["yellow"], ["yellow"], cue_ball="potted")])
    assert ruling["respotted"] == ["yellow"]
    assert ruling["ball_on"] == "yellow"
    assert ruling["points_remaining"] == 27


def test_announcements_name_the_penalty():
    calls = {
        4: "FOUR AWAY",
        5: "FIVE AWAY",
        6: "SIX AWAY",
        7: "SEVEN AWAY",
    }
    for colour, value in (("yellow", 4), ("blue", 5), ("pink", 6), ("black", 7)):
        ruling = last([match(), safe(colour)])
        assert ruling["announcements"][:2] == ["FOUL", calls[value]]


def test_after_a_foul_the_next_player_may_play_or_ask_the_offender_to_play_again():
    rulings = rule([match(), safe("black")])
    assert rulings[-1]["striker"] == 1
    assert rulings[-1]["options"] == ["play", "play_again"]
    again = last([match(), safe("black"), decision("play_again")])
    assert again["striker"] == 0 and again["options"] == []
    play = last([match(), safe("black"), decision("play")])
    assert play["striker"] == 1 and play["options"] == []


def test_play_again_cannot_be_withdrawn():
    rulings = rule([match(), safe("black"), decision("play_again"), decision("play")])
    assert "error" in rulings[-1]


def test_a_stroke_without_a_decision_means_the_next_player_played():
    ruling = last([match(), safe("black"), pot("red")])
    assert ruling["score"] == [0, 8]
    assert ruling["striker"] == 1


def test_in_hand_after_the_cue_ball_is_potted_or_leaves_the_table():
    assert last([match(), stroke(["red"], cue_ball="potted")])["in_hand"] is True
    assert last([match(), stroke(["red"], cue_ball="off_table")])["in_hand"] is True
    assert last([match(), safe("red")])["in_hand"] is False


def test_out_of_turn_offender_is_asked_to_play_again_and_order_continues_from_him():
    rulings = rule([match(), stroke(["red"], player=1), decision("play_again"), safe("red")])
    assert rulings[1]["fouls"] == ["out_of_turn"]
    assert rulings[1]["striker"] == 0
    assert rulings[2]["striker"] == 1
    assert rulings[3]["striker"] == 0


def test_foul_outside_a_stroke_ends_the_turn():
    rulings = rule(
        [match(), pot("red"), pot("black"), {"type": "foul", "reason": "touched_ball", "ball": "blue"}]
    )
    assert rulings[-1]["penalty"] == 5
    assert rulings[-1]["score"] == [8, 5]
    assert rulings[-1]["striker"] == 1
    assert rulings[-1]["options"] == ["play", "play_again"]


def test_foul_outside_a_stroke_before_nominating_after_a_red_is_seven():
    ruling = last([match(), pot("red"), {"type": "foul", "reason": "touched_ball", "ball": "yellow"}])
    assert ruling["penalty"] == 7
    assert "foul_before_nomination" in ruling["fouls"]


def test_non_striker_touching_a_ball_is_penalised_as_striker_without_changing_the_order():
    ruling = last(
        [match(), pot("red"), {"type": "foul", "reason": "touched_ball", "ball": "pink", "player": 1}]
    )
    assert ruling["score"] == [7, 0]
    assert ruling["striker"] == 0
    assert ruling["break"] == 1
    assert ruling["options"] == []


def test_improper_in_hand_from_positions_outside_the_d():
    before = {"white": [889.0, 900.0], "red-1": [889.0, 2700.0]}
    ruling = last([match(), stroke(["red"], positions={"before": before})])
    assert ruling["fouls"] == ["improper_in_hand"]
    inside = {"white": [889.0, 700.0], "red-1": [889.0, 2700.0]}
    assert last([match(), stroke(["red"], positions={"before": inside})])["foul"] is False


BAULK_Y = 737.0
"""The baulk line's distance from the baulk cushion (mm): the D's straight side."""


@pytest.mark.parametrize(
    ("beyond_line_mm", "position_tolerance_mm", "foul"),
    [
        (5.0, None, True),
        (5.0, 8.0, False),
        (12.0, 8.0, True),
        (1.5, None, False),
        (5.0, 1.0, True),
    ],
    ids=[
        "5mm-out-exact-log",
        "5mm-out-camera-within-8mm",
        "12mm-out-camera-within-8mm",
        "within-the-referees-own-2mm",
        "a-tighter-measurement-keeps-the-referees-2mm",
    ],
)
def test_a_cue_ball_from_hand_is_out_of_the_d_only_beyond_what_its_measurement_allows(
    beyond_line_mm, position_tolerance_mm, foul
):
    # 3.5: from hand the cue ball is placed within the D. A camera places it only so well (the
    # line's position_tolerance_mm): a ball measured just over the line is given the benefit of
    # the doubt, one well beyond it is not.
    before = {"white": [1000.0, BAULK_Y + beyond_line_mm], "red-1": [889.0, 2700.0]}
    line = stroke(["red"], positions={"before": before})
    if position_tolerance_mm is not None:
        line["position_tolerance_mm"] = position_tolerance_mm
    ruling = last([match(), line])
    assert ruling["foul"] is foul
    assert ruling["fouls"] == (["improper_in_hand"] if foul else [])


@pytest.mark.parametrize("bad", [-1.0, "8", float("nan"), True])
def test_a_position_tolerance_that_is_no_length_is_refused(bad):
    line = stroke(["red"], positions={"before": {"white": [1000.0, 700.0], "red-1": [889.0, 2700.0]}})
    line["position_tolerance_mm"] = bad
    ruling = last([match(), line])
    assert "position_tolerance_mm" in ruling["error"]


@pytest.mark.parametrize(
    ("moving", "extra", "fouls", "penalty"),
    [
        (["red"], {}, ["missed_all_balls", "balls_moving"], 4),
        (["pink"], {}, ["balls_moving", "missed_all_balls"], 6),
        (["red"], {"first_contact": ["red"]}, ["balls_moving"], 4),
        (["red", "black"], {"first_contact": ["red"]}, ["balls_moving"], 7),
    ],
    ids=["a red running", "the pink running", "hit a red", "the black too"],
)
def test_striking_while_a_ball_the_camera_saw_still_moves(moving, extra, fouls, penalty):
    """``moving_at_strike``: a foul of the value of the ball on or of the ball concerned, whichever
    is higher (3.12(b)); the places before were no resting places, so no miss is judged from them,
    and balls that moved in the stroke show no contact nobody logged."""
    places = {"white": [889.0, 600.0], "red-1": [600.0, 2600.0]}
    moved_on = {"white": [400.0, 2000.0], "red-1": [600.0, 3000.0]}
    line = stroke(
        extra.pop("first_contact", []),
        [],
        moving_at_strike=moving,
        clear_path=True,
        positions={"before": places, "after": moved_on},
        **extra,
    )
    ruling = rule([match(), line])[-1]
    assert "error" not in ruling
    assert ruling["foul"] and ruling["fouls"] == fouls and ruling["penalty"] == penalty
    assert not ruling["miss"]


@pytest.mark.parametrize(
    ("moving", "says"), [(["blue"], "the blue is not on the table"), (["white"], "not an object ball")]
)
def test_a_ball_moving_at_the_strike_is_an_object_ball_on_the_table(moving, says):
    joined = {"type": "table", "reds": 0, "colours": ["pink", "black"], "ball_on": "pink"}
    ruling = rule([match(), joined, stroke(["pink"], [], moving_at_strike=moving)])[-1]
    assert says in ruling["error"]
