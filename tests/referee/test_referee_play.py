"""3.3–3.4, 3.6, 3.9, 3.15–3.17: ball on, scoring, nominations, end of frame, match, four-handed."""

from __future__ import annotations

import pytest
from referee_logs import clear_reds, decision, last, match, pot, referee_after, rule, safe, stroke, to_colours

NOMINATE = {"type": "nominate", "ball": "pink"}

BALL_ON = [
    # (name, lines after the match line, ball_on, score, break, striker, points remaining)
    ("at the break-off", [], "red", [0, 0], 0, 0, 147),
    ("after a red", [pot("red")], "colour", [1, 0], 1, 0, 146),
    ("after red and black", [pot("red"), pot("black")], "red", [8, 0], 8, 0, 139),
    ("two reds in one stroke score two", [stroke(["red"], ["red", "red"])], "colour", [2, 0], 2, 0, 138),
    ("two reds hit at once is legal", [stroke(["red", "red"], ["red"])], "colour", [1, 0], 1, 0, 146),
    ("no pot ends the turn", [safe("red")], "red", [0, 0], 0, 1, 147),
    ("a nomination names the colour on", [pot("red"), NOMINATE], "pink", [1, 0], 1, 0, 146),
    ("a declared nomination", [pot("red"), NOMINATE, pot("pink")], "red", [7, 0], 7, 0, 139),
    ("nomination inferred from the first ball hit", [pot("red"), pot("green")], "red", [4, 0], 4, 0, 139),
    ("missing the colour ends the turn", [pot("red"), safe("blue")], "red", [1, 0], 0, 1, 139),
]


@pytest.mark.parametrize(
    ("lines", "ball_on", "score", "brk", "striker", "remaining"),
    [case[1:] for case in BALL_ON],
    ids=[case[0] for case in BALL_ON],
)
def test_ball_on_and_scoring(lines, ball_on, score, brk, striker, remaining):
    ruling = last([match(), *lines])
    assert "error" not in ruling
    assert ruling["ball_on"] == ball_on
    assert ruling["score"] == score
    assert ruling["break"] == brk
    assert ruling["striker"] == striker
    assert ruling["points_remaining"] == remaining


def test_colours_in_ascending_order_after_the_last_red_and_its_colour():
    lines = [match(reds=6), *clear_reds(5), pot("red")]
    assert last(lines)["ball_on"] == "colour"
    assert last(lines)["reds"] == 0
    assert last(lines)["points_remaining"] == 34
    assert last([*lines, pot("black")])["ball_on"] == "yellow"
    assert last([*lines, pot("black")])["respotted"] == ["black"]
    sequence = [*lines, pot("black")]
    expected = ["green", "brown", "blue", "pink", "black"]
    for colour, next_on in zip(["yellow", "green", "brown", "blue", "pink"], expected, strict=True):
        sequence.append(pot(colour))
        ruling = last(sequence)
        assert ruling["ball_on"] == next_on
        assert ruling["respotted"] == []


def test_a_foul_on_the_colour_after_the_last_red_puts_the_next_player_on_yellow():
    ruling = last([match(reds=6), *clear_reds(5), pot("red"), stroke([])])
    assert ruling["ball_on"] == "yellow"
    assert ruling["points_remaining"] == 27


def test_scores_announced_as_the_break():
    rulings = rule([match(), pot("red"), pot("black"), pot("red"), pot("pink")])
    assert [r["announcements"] for r in rulings[1:]] == [["ONE"], ["EIGHT"], ["NINE"], ["FIFTEEN"]]


def test_nominating_a_red_after_a_red_is_refused_and_leaves_the_state():
    rulings = rule([match(), pot("red"), {"type": "nominate", "ball": "red"}, pot("blue")])
    assert "error" in rulings[2]
    assert rulings[3]["score"] == [6, 0]


ERRORS = [
    ("malformed JSON", "{not json"),
    ("not an object", "[1, 2]"),
    ("unknown type", {"type": "teleport"}),
    ("decision when none is open", decision("play")),
    ("potting a ball not on the table", stroke(["yellow"], ["yellow"])),
    ("unknown ball", stroke(["purple"])),
    ("unknown foul code", stroke(["yellow"], fouls=["sneezing"])),
    ("bad cue ball state", stroke(["yellow"], cue_ball="flying")),
    ("re-spotted black lot without a tie", {"type": "respotted_black", "first": 0}),
    ("new frame during a frame", {"type": "new_frame"}),
    ("nominating when on a red", {"type": "nominate", "ball": "blue"}),
]


@pytest.mark.parametrize("line", [c[1] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_lines_that_cannot_be_applied_get_an_error_and_leave_the_state(line):
    # On yellow (6-red frame cleared): a yellow already potted makes "potting a ball not on" real.
    setup = [*to_colours(6), pot("yellow")]
    rulings = rule([*setup, line, pot("green")])
    assert set(rulings[-2]) <= {"error", "line"} and rulings[-2]["error"]
    assert rulings[-1]["score"] == [53, 0]
    assert rulings[-1]["ball_on"] == "brown"


def test_a_log_without_a_match_line_is_ruled_as_a_default_singles_frame():
    ruling = last([pot("red")])
    assert ruling["score"] == [1, 0]


def test_last_black_potted_ends_the_frame():
    lines = [*to_colours(6), *(pot(c) for c in ("yellow", "green", "brown", "blue", "pink"))]
    ruling = last([*lines, pot("black")])
    assert ruling["frame_over"] is True and ruling["winner"] == 0
    assert ruling["frames"] == [1, 0]
    assert ruling["score"] == [75, 0]


def test_a_foul_on_the_last_black_ends_the_frame():
    lines = [*to_colours(6), *(pot(c) for c in ("yellow", "green", "brown", "blue", "pink")), safe("black")]
    ruling = last([*lines, stroke(["black"], cue_ball="potted")])
    assert ruling["frame_over"] is True
    assert ruling["score"] == [75, 0]  # Ben fouled: Ann 68 + 7
    assert ruling["winner"] == 0
    assert ruling["options"] == []


def _tie_on_the_last_black() -> list:
    """Ann gives Ben 45 in fouls (five blacks, a pink, a yellow), then clears 6 reds with yellows,
    the colours and the black: 45-45 after the last black."""
    lines = [match(reds=6)]
    for wrong in ["black"] * 5 + ["pink", "yellow"]:
        lines += [safe(wrong), decision("play"), safe("red")]
    for _ in range(6):
        lines += [pot("red"), pot("yellow")]
    lines += [pot(c) for c in ("yellow", "green", "brown", "blue", "pink", "black")]
    return lines


def test_a_tie_on_the_last_black_brings_a_re_spotted_black():
    rulings = rule(_tie_on_the_last_black())
    assert all("error" not in r for r in rulings)
    ruling = rulings[-1]
    assert ruling["score"] == [45, 45]
    assert ruling["frame_over"] is False
    assert ruling["respotted_black"] is True
    assert "RE-SPOTTED BLACK" in ruling["announcements"]
    assert ruling["ball_on"] == "black" and ruling["in_hand"] is True
    assert ruling["points_remaining"] == 7


@pytest.mark.parametrize(
    ("first", "line", "winner", "score"),
    [
        (1, pot("black"), 1, [45, 52]),
        (1, stroke(["black"], cue_ball="potted"), 0, [52, 45]),
        (0, pot("black"), 0, [52, 45]),
        (0, safe("black"), None, [45, 45]),
    ],
    ids=["ben-pots", "ben-fouls", "ann-pots", "no-score-goes-on"],
)
def test_re_spotted_black_next_score_or_foul_ends_the_frame(first, line, winner, score):
    lines = [*_tie_on_the_last_black(), {"type": "respotted_black", "first": first}]
    lot = last(lines)
    assert lot["striker"] == first and lot["in_hand"] is True
    ruling = last([*lines, line])
    assert ruling["score"] == score
    assert ruling["frame_over"] is (winner is not None)
    assert ruling["winner"] == winner


def test_aggregate_match_a_tied_frame_is_drawn_but_a_tied_last_frame_brings_a_re_spotted_black():
    lines = _tie_on_the_last_black()
    lines[0] = match(reds=6, aggregate=True, best_of=2)
    drawn = last(lines)
    assert drawn["frame_over"] is True and drawn["winner"] is None
    assert drawn["frames"] == [0, 0]
    second = [*lines, {"type": "new_frame"}, *_tie_on_the_last_black()[1:]]
    # In frame 2 Ben breaks: the same lines are played with the roles swapped, again 45-45.
    ruling = last(second)
    assert ruling["frame"] == 2
    assert ruling["respotted_black"] is True and ruling["frame_over"] is False


def test_concession_awards_the_frame_to_the_opponent():
    ruling = last([match(best_of=3), pot("red"), {"type": "concede", "player": 0}])
    assert ruling["frame_over"] is True and ruling["winner"] == 1 and ruling["frames"] == [0, 1]
    default = last([match(best_of=3), safe("red"), {"type": "concede"}])
    assert default["winner"] == 0  # Ben, the player to play, conceded


def test_best_of_three_breaker_alternates_and_the_match_ends_at_two():
    concede_ben = {"type": "concede", "player": 1}
    rulings = rule(
        [
            match(best_of=3),
            concede_ben,
            {"type": "new_frame"},
            concede_ben,
            {"type": "new_frame"},
        ]
    )
    assert rulings[2]["striker"] == 1  # Ben breaks frame 2
    assert rulings[3]["frames"] == [2, 0] and rulings[3]["match_over"] is True
    assert rulings[3]["match_winner"] == 0
    assert "MATCH TO ANN" in rulings[3]["announcements"]
    assert "error" in rulings[4]


def test_stalemate_re_rack_cancels_scores_and_keeps_the_breaker():
    rulings = rule([match(), safe("red"), pot("red"), pot("black"), safe("red"), {"type": "rerack"}])
    assert rulings[-1]["score"] == [0, 0]
    assert rulings[-1]["striker"] == 0
    assert rulings[-1]["reds"] == 15 and rulings[-1]["frame"] == 1
    assert rulings[-1]["points_remaining"] == 147


def test_four_handed_order_of_play_and_sides():
    lines = [match(players=4), safe("red"), safe("red"), pot("red"), pot("black"), safe("red"), safe("red")]
    rulings = rule(lines)
    assert [r["striker"] for r in rulings] == [0, 1, 2, 2, 2, 3, 0]
    assert rulings[4]["score"] == [8, 0]  # Cat plays for side 0 with Ann


def test_four_handed_play_again_goes_to_the_offender_and_the_order_continues_from_him():
    lines = [match(players=4), safe("red"), stroke(["red"], player=3), decision("play_again"), safe("red")]
    rulings = rule(lines)
    assert rulings[2]["fouls"] == ["out_of_turn"] and rulings[2]["score"] == [4, 0]
    assert rulings[3]["striker"] == 3
    assert rulings[4]["striker"] == 0  # Cat (2) lost her turn


def test_four_handed_sides_break_alternately():
    rulings = rule([match(players=4, best_of=3), {"type": "concede"}, {"type": "new_frame"}])
    assert rulings[-1]["striker"] % 2 == 1
    bad = rule(
        [match(players=4, best_of=3), {"type": "concede"}, {"type": "new_frame", "order": [0, 1, 2, 3]}]
    )
    assert "error" in bad[-1]


def test_ball_on_edge_falls_by_itself_is_replaced_without_score():
    ruling = last([match(), pot("red"), {"type": "edge_fall", "ball": "pink"}])
    assert ruling["score"] == [1, 0] and ruling["ball_on"] == "colour"
    assert ruling["announcements"] == ["BALL REPLACED"]


def test_ball_on_edge_falls_before_being_hit_no_foul_replaced_and_play_again():
    ruling = last([match(), stroke(["red"], ["red"], fell_from_edge=["red"])])
    assert ruling["score"] == [0, 0] and ruling["striker"] == 0 and ruling["reds"] == 15
    assert ruling["foul"] is False


def test_ball_on_edge_falls_before_being_hit_with_a_foul_penalty_and_options():
    ruling = last([match(), stroke(["red"], ["red"], cue_ball="potted", fell_from_edge=["red"])])
    assert ruling["penalty"] == 4 and ruling["score"] == [0, 4]
    assert ruling["reds"] == 15
    assert ruling["options"] == ["play", "play_again"]


def test_ball_moved_by_someone_else_is_no_foul():
    ruling = last([match(), pot("red"), {"type": "ball_moved", "ball": "blue"}])
    assert ruling["foul"] is False and ruling["score"] == [1, 0] and ruling["striker"] == 0


def test_aggregate_match_is_won_on_total_points_not_frames():
    lines = [
        match(reds=6, aggregate=True, best_of=2),
        *[pot("red"), pot("black")] * 2,  # Ann 16
        {"type": "concede", "player": 1},  # Ben concedes frame 1 at 0-16
        {"type": "new_frame"},
        safe("red"),  # Ben breaks, Ann to play
        {"type": "concede", "player": 0},  # Ann concedes frame 2 at 0-0
    ]
    ruling = last(lines)
    assert ruling["frames"] == [1, 1]
    assert ruling["match_over"] is True and ruling["match_winner"] == 0


def test_state_is_immutable_and_old_states_are_untouched():
    from dataclasses import FrozenInstanceError

    referee = referee_after([match(), pot("red")])
    before = referee.state
    snapshot = referee.scoreboard()
    referee.apply(pot("black"))
    assert referee.state is not before
    with pytest.raises(FrozenInstanceError):
        before.frame.scores = (99, 99)
    referee.state = before
    assert referee.scoreboard() == snapshot


def test_scoreboard_has_everything_the_feed_shows():
    board = referee_after([match(), pot("red"), pot("black"), safe("pink")]).scoreboard()
    for key in (
        "players",
        "frames",
        "score",
        "scores",
        "break",
        "striker",
        "ball_on",
        "reds",
        "points_remaining",
        "snookers_required",
        "last_foul",
        "status",
        "frame_over",
        "options",
        "free_ball",
        "warning",
    ):
        assert key in board
    assert board["last_foul"] == {"offender": 0, "penalty": 6, "fouls": ["wrong_ball_first"], "miss": False}
    assert board["status"] == "decision"


def test_miss_rule_off_from_the_config():
    from snooker.referee import RefereeConfig

    ruling = last([match(), stroke([], clear_path=True)], RefereeConfig(miss_rule="off"))
    assert ruling["miss"] is False


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (0, "ZERO"),
        (7, "SEVEN"),
        (21, "TWENTY-ONE"),
        (100, "ONE HUNDRED"),
        (147, "ONE HUNDRED AND FORTY-SEVEN"),
    ],
)
def test_numbers_as_a_referee_says_them(number, words):
    from snooker.referee.announce import number_words

    assert number_words(number) == words


def test_a_stroke_with_unusable_positions_is_ruled_without_them():
    bad = (
        '{"type": "stroke", "first_contact": ["red"], "potted": ["red"], '
        '"positions": {"after": {"white": [NaN, 1]}}}'
    )
    ruling = last([match(), bad])
    assert ruling["score"] == [1, 0]
    assert "finite" in ruling["positions_ignored"]


def test_the_referee_imports_no_camera_feed_or_tracker_code():
    import subprocess
    import sys

    probe = (
        "import sys, snooker.referee, snooker.app.replay; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('cv2', 'zmq', 'ultralytics', 'torch') "
        "or m.startswith(('snooker.vision', 'snooker.tracker'))]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_ruling_has_exactly_the_documented_fields():
    from snooker.referee import Ruling

    for ruling in rule([match(), pot("red"), pot("black"), safe("pink"), decision("play_again")]):
        assert set(ruling) == set(Ruling.__annotations__)


SNOOKERS = [
    # (name, lines after a 6-red match line, snookers required per side, points remaining)
    ("level at the start", [], [0, 0], 75),
    ("48 ahead with 27 left: 6 snookers (4 each) for Ben", [*clear_reds(6)], [0, 6], 27),
    (
        "on the pink a snooker is worth six: 49 short needs 9",
        [*clear_reds(6), *(pot(c) for c in ("yellow", "green", "brown", "blue")), safe("pink")],
        [0, 9],
        13,
    ),
]


@pytest.mark.parametrize(
    ("lines", "required", "remaining"), [c[1:] for c in SNOOKERS], ids=[c[0] for c in SNOOKERS]
)
def test_points_remaining_and_snookers_required(lines, required, remaining):
    ruling = last([match(reds=6), *lines])
    assert ruling["points_remaining"] == remaining
    assert ruling["snookers_required"] == required


def test_the_cue_ball_listed_among_potted_or_off_table_balls_counts_as_such():
    assert last([match(), stroke(["red"], ["white"])])["fouls"] == ["cue_ball_potted"]
    assert last([match(), stroke(["red"], off_table=["white"])])["fouls"] == ["cue_ball_off_table"]
