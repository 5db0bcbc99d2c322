"""The ``table`` line: a log that joins a frame in play (a camera switched on, a clip cut from a
match). Refusals, what each ``ball_on`` allows, the benefit of the doubt while the ball on is
undecided, and (hypothesis) that joining a frame anywhere rules the rest of it as the whole log did."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_logs import decision, match, pot, rule, safe, stroke, table
from test_referee_properties import frame_logs

from snooker.referee import Referee, RefereeConfig

SIX = ["yellow", "green", "brown", "blue", "pink", "black"]


def joined(*lines: dict[str, Any], **fields: Any) -> list[dict[str, Any]]:
    """Rulings of a match joined by a table line with ``fields``, then ``lines``."""
    return rule([match(), table(**fields), *lines])


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"reds": -1}, "table.reds"),
        ({"reds": True}, "table.reds"),
        ({}, "table.reds"),
        ({"reds": 16}, "this match racks 15"),
        ({"reds": 3, "colours": ["yellow", "mauve"]}, "table.colours"),
        ({"reds": 0, "colours": ["pink", "pink"]}, "named twice"),
        ({"reds": 3, "colours": ["blue", "pink", "black"]}, "while reds remain every colour"),
        ({"reds": 0, "colours": ["green", "pink", "black"]}, "the highest ones"),
        ({"reds": 0, "colours": []}, "the highest ones"),
        ({"reds": 4, "ball_on": "mauve"}, "table.ball_on"),
        ({"reds": 0, "colours": ["pink", "black"], "ball_on": "red"}, "no red is left"),
        ({"reds": 0, "colours": ["pink", "black"], "ball_on": "colour"}, "colours are missing"),
        ({"reds": 0, "colours": ["pink", "black"], "ball_on": "black"}, "only in the ascending phase"),
        ({"reds": 2, "ball_on": "pink"}, "only in the ascending phase"),
        ({"reds": 2, "score": [3]}, "table.score"),
        ({"reds": 2, "score": [3, -1]}, "table.score"),
        ({"reds": 2, "score": [2**53, 3]}, "table.score: expected a whole number from 0 to 9007199254740991"),
        ({"reds": 2, "score": [10**30, 3]}, "table.score"),
        ({"reds": 2, "score": [True, 3]}, "table.score"),
        ({"reds": 2, "striker": 2}, "no player 2"),
        ({"reds": 2, "cue_in_hand": "yes"}, "cue_in_hand"),
        ({"reds": 1, "positions": {"red-1": [100, 900], "red-2": [300, 900]}}, "2 reds placed"),
        ({"reds": 0, "colours": ["pink", "black"], "positions": {"blue": [889, 1784]}}, "the blue is not"),
        ({"reds": 2, "cue_in_hand": True, "positions": {"white": [889, 600]}}, "the cue ball is in hand"),
    ],
)
def test_a_table_line_that_cannot_be_is_refused_and_changes_nothing(fields, says):
    rulings = rule([match(), table(**fields)])
    assert says in rulings[-1]["error"]
    assert rulings[0]["reds"] == 15 and rulings[0]["in_hand"]


def test_the_largest_count_a_browser_reads_exactly_is_taken():
    ruling = joined(reds=2, score=[2**53 - 1, 0])[-1]
    assert "error" not in ruling and ruling["score"] == [2**53 - 1, 0]


@pytest.mark.parametrize("best_of", [0, 2**53, 10**40, True, 3.0])
def test_a_match_of_no_frames_or_of_more_than_a_count_can_hold_is_refused(best_of):
    rulings = rule([match(best_of=best_of), pot("red")])
    assert "best_of" in rulings[0]["error"]


def test_a_table_line_is_refused_while_a_decision_is_open():
    rulings = rule([match(), safe("red"), stroke([], []), table(reds=10)])
    assert rulings[2]["options"] and "decision" in rulings[-1]["error"]


def test_the_table_as_given_with_score_striker_and_places():
    ruling = joined(
        reds=4, score=[40, 23], striker=1, positions={"white": [500, 2000], "red-3": [700, 2500]}
    )[-1]
    assert ruling["reds"] == 4 and ruling["colours"] == SIX
    assert ruling["score"] == [40, 23] and ruling["striker"] == 1
    assert not ruling["in_hand"] and ruling["ball_on"] == "either"
    assert ruling["points_remaining"] == 7 + 4 * 8 + 27  # as if a colour were on: the larger reading


@pytest.mark.parametrize(
    ("fields", "line", "expect"),
    [
        # reds remain: a red first is on a red, a colour first on a colour after a red
        ({"reds": 5}, pot("red"), {"foul": False, "points": 1, "ball_on": "colour", "reds": 4}),
        ({"reds": 5}, pot("pink"), {"foul": False, "points": 6, "ball_on": "red", "colours": SIX}),
        ({"reds": 5}, safe("blue"), {"foul": False, "points": 0, "ball_on": "red"}),
        # a miss of every ball is a foul either way: the smaller penalty (on a red: four)
        ({"reds": 5}, stroke([], []), {"foul": True, "penalty": 4}),
        # a red and a colour at once is a foul either way; the value of the colour counts
        ({"reds": 5}, stroke(["red", "black"], []), {"foul": True, "penalty": 7}),
        # the cue ball in a pocket off a red: a foul either way, four
        ({"reds": 5}, stroke(["red"], [], cue_ball="potted"), {"foul": True, "penalty": 4}),
        # no red left, every colour on: the lowest colour or any colour after the last red
        ({"reds": 0}, pot("yellow"), {"foul": False, "points": 2, "ball_on": "green", "colours": SIX[1:]}),
        ({"reds": 0}, pot("black"), {"foul": False, "points": 7, "ball_on": "yellow", "colours": SIX}),
        # a colour on in the ascending phase is not in doubt
        ({"reds": 0, "colours": ["pink", "black"]}, safe("black"), {"foul": True, "penalty": 7}),
        # told what is on, the referee rules it: a colour first while on a red is a foul
        ({"reds": 5, "ball_on": "red"}, pot("pink"), {"foul": True, "penalty": 6}),
        ({"reds": 5, "ball_on": "colour"}, pot("red"), {"foul": True, "penalty": 7}),
        ({"reds": 0, "colours": ["pink", "black"], "ball_on": "pink"}, pot("pink"), {"points": 6}),
    ],
)
def test_the_first_stroke_after_joining(fields, line, expect):
    ruling = joined(line, **fields)[-1]
    assert "error" not in ruling
    for key, value in expect.items():
        assert ruling[key] == value, key


def test_the_reading_is_settled_by_the_first_stroke_and_kept():
    rulings = joined(pot("pink"), safe("pink"), reds=5)
    assert rulings[-2]["ball_on"] == "red"
    assert rulings[-1]["foul"] and rulings[-1]["fouls"] == ["wrong_ball_first"]


def test_a_nomination_while_undecided_means_a_colour_is_on():
    rulings = joined({"type": "nominate", "ball": "blue"}, pot("blue"), reds=5)
    assert rulings[-2]["ball_on"] == "blue" and rulings[-2]["nominated"] == "blue"
    assert rulings[-1]["points"] == 5


def test_a_foul_line_while_undecided_costs_the_smaller_penalty():
    ruling = joined({"type": "foul", "reason": "touched_ball"}, reds=5)[-1]
    assert ruling["foul"] and ruling["penalty"] == 4
    assert "foul_before_nomination" not in ruling["fouls"]


def test_joining_with_the_cue_ball_in_hand_judges_its_place():
    outside = {"white": [889.0, 1500.0]}
    ruling = joined(safe("red", positions={"before": outside, "after": outside}), reds=8, cue_in_hand=True)[
        -1
    ]
    assert "improper_in_hand" in ruling["fouls"]
    ruling = joined(safe("red", positions={"before": outside, "after": outside}), reds=8)[-1]
    assert not ruling["foul"]


def test_a_foul_after_joining_leaves_the_usual_decision():
    rulings = joined(stroke([], []), decision("play_again"), pot("red"), reds=3, striker=0)
    assert rulings[-3]["options"] == ["play", "play_again"]
    assert rulings[-1]["foul"] is False and rulings[-1]["points"] == 1


def _join_points(lines: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Places where a log can be joined with nothing but a table line: after a fair stroke within
    the first frame, nothing pending, no free ball, touching ball, re-spotted black or cue in hand."""
    referee = Referee()
    points = []
    for i, line in enumerate(lines):
        ruling = referee.apply(line)
        if "error" in ruling:
            continue
        if ruling["frame"] != 1 or ruling["frame_over"]:
            break
        if (
            line.get("type") == "stroke"
            and not ruling["foul"]
            and not ruling["options"]
            and not ruling["free_ball"]
            and not ruling["touching"]
            and not ruling["respotted_black"]
            and not ruling["in_hand"]
        ):
            points.append((i, ruling))
    return points


COMPARED = ("score", "reds", "colours", "ball_on", "foul", "penalty", "points", "striker", "frame_over")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log=frame_logs(), where=st.integers(0, 10_000), undecided=st.booleans())
def test_joining_a_frame_anywhere_rules_the_rest_of_it_as_the_whole_log_did(log, where, undecided):
    points = _join_points(log)
    if not points:
        return
    i, ruling = points[where % len(points)]
    whole = Referee()
    whole_rulings = [whole.apply(line) for line in log]
    # the log's own match: once the frame is over, the player to play is the next frame's breaker
    # while the match goes on, so its length matters
    header = log[0]
    ball_on = ruling["ball_on"]
    # joined without knowing what is on: the benefit of the doubt is the truth when the line after
    # the join is a fair stroke, and reds remain (with none, two fair readings of a lowest colour
    # can differ)
    if undecided:
        following = next((r for r in whole_rulings[i + 1 :] if "error" not in r), None)
        if following is None or following["type"] != "stroke" or following["foul"] or not ruling["reds"]:
            return  # (a concession, say, leaves the reading undecided: nothing settles it)
        ball_on = "either"
    line = table(reds=ruling["reds"], colours=ruling["colours"], ball_on=ball_on, score=ruling["score"])
    line["striker"] = ruling["striker"]
    part = Referee()
    part.apply(header)
    assert "error" not in part.apply(line)
    for original, later in zip(whole_rulings[i + 1 :], log[i + 1 :], strict=True):
        mine = part.apply(later)
        assert ("error" in mine) == ("error" in original)
        if "error" in original:
            continue
        if original["frame"] != 1 or original["miss"] or original["warning"]:
            break  # later frames, and the miss count begun before the join, are not the join's
        assert {k: mine[k] for k in COMPARED} == {k: original[k] for k in COMPARED}
        if original["frame_over"]:
            break


def test_without_its_score_a_joined_frame_counts_from_the_join_and_names_no_winner():
    lines = (stroke([], []), decision("play"), pot("pink"), pot("black"))
    rulings = joined(*lines, reds=0, colours=["pink", "black"])
    assert rulings[1]["score"] == [0, 0] and rulings[1]["score_known"] is False
    # A fouled (6 to B), B potted the pink: A is 12 behind with 7 left, yet no snookers are said
    assert rulings[4]["score"] == [0, 12] and rulings[4]["snookers_required"] == [0, 0]
    told = joined(*lines, reds=0, colours=["pink", "black"], score=[0, 0])
    assert told[4]["snookers_required"] == [1, 0]
    last = rulings[-1]
    assert last["frame_over"] and last["winner"] is None and not last["respotted_black"]
    assert not any(call.startswith("FRAME TO") for call in last["announcements"])


def test_with_its_score_a_joined_frame_is_won_on_it():
    rulings = joined(pot("pink"), pot("black"), reds=0, colours=["pink", "black"], score=[50, 60])
    assert rulings[1]["score_known"] is True
    last = rulings[-1]
    assert last["score"] == [63, 60] and last["frame_over"] and last["winner"] == 0
    assert "FRAME TO ANN" in " ".join(last["announcements"]).upper()


@pytest.mark.parametrize(
    ("extra", "foul", "fouls"),
    [
        ({}, True, ["missed_all_balls"]),
        ({"unwatched_s": 1.2}, False, []),
        ({"strike_unseen": True}, False, []),
        ({"unwatched_s": 0.0, "strike_unseen": False}, True, ["missed_all_balls"]),
        ({"unwatched_s": 1.2, "cue_ball": "potted"}, True, ["cue_ball_potted"]),
    ],
    ids=["seen: missed every ball", "a cut in it", "first seen running", "said seen", "in-off still seen"],
)
def test_a_contact_the_camera_did_not_see_is_not_called_missed(extra, foul, fouls):
    ruling = rule([match(), safe("red"), stroke([], [], **extra)])[-1]
    assert ruling["foul"] is foul and ruling["fouls"] == fouls and not ruling["miss"]


def test_a_contact_seen_is_ruled_whatever_was_not():
    ruling = rule([match(), safe("red"), stroke(["pink"], [], unwatched_s=2.0, strike_unseen=True)])[-1]
    assert ruling["foul"] and ruling["fouls"] == ["wrong_ball_first"]


@pytest.mark.parametrize(
    ("extra", "says"), [({"unwatched_s": -1}, "unwatched_s"), ({"strike_unseen": 1}, "strike_unseen")]
)
def test_nonsense_unwatched_fields_are_refused(extra, says):
    assert says in rule([match(), stroke([], [], **extra)])[-1]["error"]


NOT_ON, IN_OFF = "potted_ball_not_on", "cue_ball_potted"


@pytest.mark.parametrize(
    ("lines", "score", "foul", "fouls", "penalty"),
    [
        # After a red the one colour potted names the colour (an obvious intention): it scores.
        ([pot("red"), stroke([], ["black"], unwatched_s=1.5)], [8, 0], False, [], 0),
        ([pot("red"), stroke([], ["black"], strike_unseen=True)], [8, 0], False, [], 0),
        # Two colours potted after a red: a foul whichever was named, seven either way.
        ([pot("red"), stroke([], ["black", "pink"], unwatched_s=1.5)], [1, 7], True, [NOT_ON], 7),
        # An in-off whose contact was unseen: the colour may have been named; the smaller penalty.
        ([pot("red"), stroke([], [], cue_ball="potted", unwatched_s=1.5)], [1, 4], True, [IN_OFF], 4),
        # A free ball: the one ball not on that the stroke potted was the free ball; it scores as a red.
        ([safe("black", free_ball=True), stroke([], ["pink"], unwatched_s=1.5)], [0, 8], False, [], 0),
        # A pot proves a contact nobody logged: not "missed every ball", and no miss.
        ([stroke([], ["red"])], [1, 0], False, [], 0),
        ([stroke([], ["red"], clear_path=True)], [1, 0], False, [], 0),
        ([pot("red"), stroke([], ["blue"])], [6, 0], False, [], 0),
        # A ball forced off the table proves it too; forcing a ball off is still a foul.
        ([stroke([], [], off_table=["red"])], [0, 4], True, ["ball_off_table"], 4),
    ],
    ids=[
        "colour after a red, cut",
        "colour after a red, strike unseen",
        "two colours after a red",
        "in-off after a red",
        "free ball potted",
        "red potted, no contact logged",
        "red potted, clear path logged",
        "colour after a red, no contact logged",
        "red forced off, no contact logged",
    ],
)
def test_what_a_stroke_sent_away_shows_of_a_contact_nobody_saw(lines, score, foul, fouls, penalty):
    ruling = rule([match(), *lines])[-1]
    assert "error" not in ruling
    assert ruling["score"] == score and ruling["foul"] is foul and ruling["fouls"] == fouls
    assert ruling["penalty"] == penalty and not ruling["miss"]


def test_a_cue_ball_that_hit_nothing_and_sent_nothing_away_still_missed_every_ball():
    ruling = rule([match(), stroke([], [], clear_path=True)])[-1]
    assert ruling["fouls"] == ["missed_all_balls"] and ruling["miss"]


def moved(red_1: tuple[float, float], red_2: tuple[float, float], **extra: Any) -> dict[str, Any]:
    """A stroke with no contact logged after which the cue ball came to rest at (400, 2000) and the
    reds that were at (600, 2600) and (1200, 2600) are logged at ``red_1`` and ``red_2``."""
    before = {"white": [889.0, 600.0], "red-1": [600.0, 2600.0], "red-2": [1200.0, 2600.0]}
    after = {"white": [400.0, 2000.0], "red-1": list(red_1), "red-2": list(red_2)}
    return stroke([], [], positions={"before": before, "after": after}, **extra)


@pytest.mark.parametrize(
    ("line", "config", "missed"),
    [
        (moved((600, 2600), (1200, 2600)), None, True),
        (moved((600, 2620), (1200, 2600)), None, True),
        (moved((600, 2630), (1200, 2600)), None, False),
        (moved((600, 2900), (1200, 2600)), None, False),
        (moved((1200, 2600), (600, 2600)), None, True),
        (moved((600, 2630), (1200, 2600), position_tolerance_mm=20.0), None, True),
        (moved((600, 2650), (1200, 2600), position_tolerance_mm=20.0), None, False),
        (moved((600, 2650), (1200, 2600)), RefereeConfig(moved_beyond_mm=60.0), True),
    ],
    ids=[
        "nothing moved",
        "a red logged 20 mm off: the measurement",
        "a red moved 30 mm",
        "a red driven 300 mm",
        "two reds that swapped ids, not places",
        "30 mm within twice the log's tolerance",
        "50 mm beyond it",
        "50 mm within a configured 60",
    ],
)
def test_an_object_ball_the_stroke_moved_shows_a_contact_nobody_logged(line, config, missed):
    """Only a contact moves a ball at rest: beyond ``moved_beyond_mm`` (or twice the log's
    tolerance) the stroke did not miss every ball, and no miss is called."""
    ruling = rule([match(), line], config)[-1]
    assert "error" not in ruling
    assert (ruling["fouls"] == ["missed_all_balls"]) is missed
    assert ruling["foul"] is missed and ruling["miss"] is missed


def test_a_negative_moved_distance_is_refused():
    with pytest.raises(ValueError, match="moved_beyond_mm"):
        RefereeConfig(moved_beyond_mm=-1.0)
