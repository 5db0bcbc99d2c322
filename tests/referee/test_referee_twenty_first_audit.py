"""A twenty-first audit of the referee: mutation testing.

The referee's decisions (comparisons, boundaries, boolean conditions, constants in rules.py,
referee.py, state.py and geometry.py) were mutated one at a time and the referee's tests run
against each mutant. Every row below is a plain frame-log case that a surviving, non-equivalent
mutant rules differently from the original code; each names the code it pins in its comment. The
mutation tooling is not part of the project.

Outcome: no fault of the referee. In every case told apart, the original ruled as the Polish text
(or the documented judgement, docs/FRAME_LOG.md and the rules.py docstring) says; the rows pin
branches no earlier test reached: a player who needs snookers only before the stroke (3.14(b)),
foul lines by the player to play and by another (3.11(a), 3.14(h)), table lines, aggregate
matches whose aggregate is level or not known (3.4(c)), 3.9(b) balls fallen from the edge,
four-handed orders of play over three frames (3.17(a)), a camera's log replaced after a miss from
hand (3.14), and the scoreboard's per-side fields.
"""

from __future__ import annotations

from typing import Any

import pytest

from snooker.referee import Referee

MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["P0", "P1"], "best_of": 1, "breaker": 0}
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]


def table(
    reds: int,
    colours: list[str],
    ball_on: str,
    score: list[int] | None,
    striker: int,
    positions: dict | None = None,
) -> dict:
    line: dict[str, Any] = {
        "type": "table",
        "reds": reds,
        "colours": colours,
        "ball_on": ball_on,
        "cue_in_hand": False,
        "striker": striker,
    }
    if score is not None:
        line["score"] = score
    if positions is not None:
        line["positions"] = positions
    return line


def stroke(player: int, first: list[str], potted: list[Any] | None = None, **extra: Any) -> dict:
    return {
        "type": "stroke",
        "player": player,
        "first_contact": first,
        "potted": potted or [],
        "off_table": extra.pop("off_table", []),
        "cue_ball": extra.pop("cue_ball", "on_table"),
        **extra,
    }


SAFE_EACH = [stroke(0, ["red-1"]), stroke(1, ["red-1"])]
"""Both players safe on a red: the cue ball on the table, in play (3.5(b): in hand it is not, and
touching it then is no foul, as the twenty-third audit found)."""


def pot(ball: str, pocket: str = "top_left") -> dict:
    return {"ball": ball, "pocket": pocket}


# A camera's log: reds and the black placed, the cue ball in hand (mm on the cloth; the D is around
# [889, 737] on the baulk side). The miss from the D leaves the cue ball up the table.
PLACED = {
    "red-1": [889.0, 2800.0],
    "red-2": [700.0, 2900.0],
    "red-3": [1100.0, 2900.0],
    "black": [889.0, 3245.0],
}
MISSED_FROM_D = [
    {**table(3, COLOURS, "red", [0, 0], 0, PLACED), "cue_in_hand": True},
    stroke(
        0,
        [],
        positions={
            "before": {**PLACED, "white": [889.0, 600.0]},
            "after": {**PLACED, "white": [1200.0, 1500.0]},
        },
    ),
]

# A red hidden by the blue, the pink and the black around it but for a window about 2 mm wide at
# the red (a dense sweep of straight shots confirms it), bounded by the directions in which the cue
# ball would meet the red and another ball at once (geometry._simultaneous_points).
WINDOW = {
    "white": [127.91, 1861.44],
    "red-1": [648.47, 2536.7],
    "blue": [738.94, 2524.73],
    "pink": [587.67, 2547.99],
    "black": [660.56, 2480.09],
}


def replayed_from(white: list[float]) -> dict:
    """The offender's next stroke, a red hit, the cue ball starting at ``white``."""
    places = {**PLACED, "white": white}
    return stroke(0, ["red-1"], positions={"before": places, "after": places})


ROWS = [
    # rules._call_miss: "needs snookers before OR after the stroke". P1 needs snookers before the
    # stroke (30 behind, 27 on the table); the foul's four bring him within 27 after it.
    pytest.param(
        [
            table(0, COLOURS, "yellow", [40, 10], 0),
            stroke(0, [], clear_path=True, full_ball=False),
        ],
        {"foul": True, "penalty": 4, "score": [40, 14], "miss": False, "options": ["play", "play_again"]},
        id="3.14(b) a player needs snookers before the stroke only (the penalty brings him within): no miss",
    ),
    # rules._foul_line: only the striker's own foul line takes an open decision as made (3.11(h)).
    pytest.param(
        [
            stroke(0, []),
            {"type": "foul", "reason": "touched_ball", "ball": "blue", "player": 0},
            {"type": "decision", "choice": "play_again"},
        ],
        {"striker": 0, "score": [0, 9], "options": []},
        id="3.14(h) the offender touches a ball while the next player decides: the decision stays open",
    ),
    # rules._foul_line: a foul line naming the player to play is the striker's own foul (3.11(a)).
    pytest.param(
        [{"type": "foul", "reason": "touched_ball", "ball": "blue", "player": 0}],
        {"striker": 1, "score": [0, 5], "options": ["play", "play_again"]},
        id="3.11(a) a foul line naming the player to play: his turn ends, the next player decides",
    ),
    # rules._table: a table line may hold the match's full rack (a frame joined before its first pot).
    pytest.param(
        [table(15, COLOURS, "red", [0, 0], 1)],
        {"reds": 15, "ball_on": "red", "striker": 1, "warning": False},
        id="table line: fifteen reds in a fifteen-red match is allowed",
    ),
    # rules._table_readings: just after the last red is potted, every colour is there and a colour is on.
    pytest.param(
        [table(0, COLOURS, "colour", [8, 0], 0), {"type": "nominate", "ball": "pink"}],
        {"ball_on": "pink", "nominated": "pink", "points_remaining": 27 + 7},
        id="3.3(f) table line after the last red: a colour is on, the pink nominated",
    ),
    # rules._check_nomination: in the ascending phase the lowest colour is the one on; naming it is allowed.
    pytest.param(
        [table(0, COLOURS[1:], "green", [8, 0], 0), {"type": "nominate", "ball": "green"}],
        {"ball_on": "green", "error": None},
        id="3.3(f) ascending phase: nominating the green, the ball on, is allowed",
    ),
    # rules._frame_given: a last frame of unknown scores conceded in an aggregate match (3.4(c)).
    pytest.param(
        [
            {**MATCH, "aggregate": True},
            table(0, ["black"], "black", None, 0),
            {"type": "concede", "player": 0},
        ],
        {"frame_over": True, "winner": 1, "respotted_black": False, "status": "match_over"},
        id="3.4(c) aggregate match, last frame of unknown scores conceded: no re-spotted black",
    ),
    # rules._frame_given: a level aggregate after a frame that is not the last is no re-spotted black.
    pytest.param(
        [
            {**MATCH, "aggregate": True, "best_of": 2},
            table(0, ["black"], "black", [10, 10], 0),
            {"type": "concede", "player": 0},
        ],
        {"frame_over": True, "winner": 1, "respotted_black": False, "status": "frame_over"},
        id="3.4(c) aggregate match, the first of two frames conceded, the aggregate level: no re-spot",
    ),
    # rules._frame_given: after a frame of unknown scores the aggregate is not known, even if the last
    # frame's own scores are.
    pytest.param(
        [
            {**MATCH, "aggregate": True, "best_of": 2},
            table(0, ["black"], "black", None, 0),
            {"type": "concede", "player": 0},
            {"type": "new_frame"},
            table(0, ["black"], "black", [10, 10], 1),
            {"type": "concede", "player": 1},
        ],
        {"frame_over": True, "winner": 0, "frames": [1, 1], "match_over": True, "match_winner": None},
        id="3.4(c) aggregate match, the aggregate not known: the last frame conceded, no re-spotted black",
    ),
    # rules._contact_fouls: after a red, a red and the blue met at once with no colour declared.
    pytest.param(
        [stroke(0, ["red-1"], [pot("red-1")]), stroke(0, ["red-2", "blue"])],
        {
            "foul": True,
            "fouls": ["foul_before_nomination", "two_balls_at_once"],
            "penalty": 7,
            "score": [1, 7],
        },
        id="3.12(c)/(d) after a red, a red and the blue met at once, no colour declared: seven",
    ),
    # rules._fouls_outside_stroke: only a push stroke concerns the touching ball when the foul line
    # names none (3.8(b)); a touched ball not named adds no value.
    pytest.param(
        [stroke(0, ["red-1"], touching=["pink"]), {"type": "foul", "reason": "touched_ball"}],
        {"foul": True, "fouls": ["touched_ball"], "penalty": 4, "score": [4, 0]},
        id="3.12(b) touching the pink, a touched-ball foul naming no ball: four, not the pink's six",
    ),
    # rules._decide: after a replacement following a miss, the offender's foul before any stroke leaves
    # "replace" open (3.14(d)); chosen, the balls are put back again.
    pytest.param(
        [
            *SAFE_EACH,
            stroke(0, [], miss=True),
            {"type": "decision", "choice": "replace"},
            {"type": "foul", "reason": "touched_ball", "ball": "white"},
            {"type": "decision", "choice": "replace"},
        ],
        {"striker": 0, "score": [0, 8], "announcements": ["BALLS REPLACED"]},
        id="3.14(d) replaced after a miss, a foul before the stroke, replaced again: balls replaced",
    ),
    # rules._contact_unseen: any time the camera did not show the table (here half a second) leaves a
    # stroke logged with no contact unseen: no foul for missing every ball.
    pytest.param(
        [stroke(0, [], unwatched_s=0.5)],
        {"foul": False, "striker": 1, "score": [0, 0]},
        id="3.12(a) no contact logged, the table unwatched for 0.5 s: no foul for missing every ball",
    ),
    # rules._frame_ended_by_foul: a foul that ends the frame is no miss.
    pytest.param(
        [
            table(0, ["black"], "black", [50, 10], 0),
            {"type": "foul", "reason": "touched_ball", "ball": "black"},
        ],
        {"frame_over": True, "winner": 0, "miss": False, "penalty": 7, "score": [50, 17]},
        id="3.4(a) only the black left, a foul: the frame is over, no miss",
    ),
    # rules._lot_shown_by: a stroke naming its player shows the lot of a re-spotted black; the lot is
    # then drawn.
    pytest.param(
        [
            table(0, ["black"], "black", [23, 30], 0),
            stroke(0, ["black"], [pot("black")]),
            stroke(1, ["black"]),
        ],
        {"foul": False, "striker": 0, "status": "in_play", "respotted_black": True},
        id="3.4(b) the re-spotted black's first stroke names its player: the lot is drawn, play goes on",
    ),
    # rules._check_touching: a plain "red" touching after one of two reds was potted: a red is left.
    pytest.param(
        [table(2, COLOURS, "red", [0, 0], 0), stroke(0, ["red-1"], [pot("red-1")], touching=["red"])],
        {"foul": False, "points": 1, "reds": 1, "striker": 0},
        id="3.8 one of two reds potted, the cue ball touching a red: allowed",
    ),
    # rules._check_stroke_against_table: a red by its id that fell from the edge clashes only with the
    # same red hit first; another red hit first is allowed. 3.9(b): no foul, the balls are replaced
    # and the striker plays again.
    pytest.param(
        [stroke(0, ["red-1"], [pot("red-3")], fell_from_edge=["red-3"])],
        {
            "foul": False,
            "points": 0,
            "striker": 0,
            "reds": 15,
            "announcements": ["BALLS REPLACED", "PLAY AGAIN"],
        },
        id="3.9(b) red-3 fell from the edge while red-1 was hit: not the striker's pot",
    ),
    # rules._potted_by_the_stroke: a plain "red" that fell from the edge is the red logged as potted:
    # the striker potted no ball not on (3.9(b)), the balls are replaced and he plays again.
    pytest.param(
        [
            stroke(0, ["red-1"], [pot("red-1")]),
            {"type": "nominate", "ball": "blue"},
            stroke(0, ["blue"], [pot("red-3")], fell_from_edge=["red"]),
        ],
        {"foul": False, "points": 0, "striker": 0, "announcements": ["BALLS REPLACED", "PLAY AGAIN"]},
        id="3.9(b) blue nominated, a red (no id) fell from the edge, red-3 logged as potted: no foul",
    ),
    # rules._edge_fall_in_stroke: a foul in a stroke in which a ball fell from the edge: replaced, the
    # options after a foul, no warning.
    pytest.param(
        [stroke(0, ["blue"], fell_from_edge=["red-3"])],
        {"foul": True, "fouls": ["wrong_ball_first"], "penalty": 5, "warning": False, "striker": 1},
        id="3.9(b) the blue hit first while a red fell from the edge: foul, five, balls replaced",
    ),
    # rules.default_order: four-handed, the sides break in turn and within a side its players take
    # turns (3.17(a)); breaker 1 (side 1): frames broken by 1, 0, then 3.
    pytest.param(
        [
            {**MATCH, "players": ["A", "B", "C", "D"], "best_of": 3, "breaker": 1},
            {"type": "concede", "player": 1},
            {"type": "new_frame"},
            {"type": "concede", "player": 0},
            {"type": "new_frame"},
        ],
        {"frame": 3, "striker": 3, "frames": [1, 1]},
        id="3.17(a) four-handed, breaker 1: the third frame is broken by player 3",
    ),
    # rules._frame_end: a re-spotted black starts with no warning in force.
    pytest.param(
        [table(0, ["black"], "black", [23, 30], 0), stroke(0, ["black"], [pot("black")])],
        {"status": "respotted_black_lot", "respotted_black": True, "warning": False, "score": [30, 30]},
        id="3.4(b) the last black potted levels the scores: a re-spotted black, no warning",
    ),
    # rules._foul_line: a foul by a player not to play (3.14(h)) is no miss; the order of play stays.
    pytest.param(
        [{"type": "foul", "reason": "touched_ball", "ball": "blue", "player": 1}],
        {"foul": True, "miss": False, "penalty": 5, "score": [5, 0], "striker": 0, "options": []},
        id="3.14(h) the player not to play touches the blue: five to the striker, no miss, order kept",
    ),
    # rules._fouls_outside_stroke: a push stroke called on a player not to play concerns no touching
    # ball (the touching ball is the striker's, 3.8(b)).
    pytest.param(
        [stroke(0, ["red-1"], touching=["pink"]), {"type": "foul", "reason": "push_stroke", "player": 0}],
        {"foul": True, "penalty": 4, "score": [0, 4], "striker": 1},
        id="3.14(h) the player not to play called for a push stroke naming no ball: four",
    ),
    # rules._decide: play again from the position a replacement put back (3.14(d)) is no free ball.
    pytest.param(
        [
            *SAFE_EACH,
            stroke(0, [], miss=True),
            {"type": "decision", "choice": "replace"},
            {"type": "foul", "reason": "touched_ball", "ball": "white"},
            {"type": "decision", "choice": "play_again"},
        ],
        {"striker": 0, "free_ball": False, "score": [0, 8]},
        id="3.14(d) replaced after a miss, a foul before the stroke, play again: no free ball",
    ),
    # state.Table.cue_position / rules._table_at_start: a cue ball first seen running while its place
    # is not known from earlier lines.
    pytest.param(
        [
            stroke(0, ["red-1"]),
            stroke(
                1,
                ["red-2"],
                strike_unseen=True,
                positions={"before": {"red-2": [889.0, 2800.0]}, "after": {"red-2": [889.0, 2900.0]}},
            ),
        ],
        {"foul": False, "striker": 0, "score": [0, 0]},
        id="a cue ball first seen running, no place known for it before: ruled from the contact",
    ),
    # rules._balls_replaced: a miss played from hand; with no decision logged, the offender's next
    # stroke starting in the D again, away from where the miss left the cue ball, shows the balls
    # replaced (3.14(a)); one starting outside the D, away from it, does not.
    pytest.param(
        [*MISSED_FROM_D, replayed_from([950.0, 650.0])],
        {"foul": False, "striker": 1, "score": [0, 4], "announcements": ["BALLS REPLACED"]},
        id="3.14 camera log, a miss from hand: the offender starts in the D again: balls replaced",
    ),
    pytest.param(
        [*MISSED_FROM_D, replayed_from([1300.0, 1000.0])],
        {"foul": False, "striker": 1, "score": [0, 4], "announcements": []},
        id="3.14 camera log, a miss from hand: the offender starts outside the D: not replaced",
    ),
    # geometry._simultaneous_points: 3.14(b) "możliwe jest trafienie w linii prostej jakiejkolwiek
    # części jakiejkolwiek bili ... rozgrywanej": the window past the three colours is such a line, so
    # missing every ball is a foul and a miss (no one needs snookers).
    pytest.param(
        [
            table(1, COLOURS, "red", [0, 0], 0, WINDOW),
            stroke(0, [], positions={"before": WINDOW, "after": {**WINDOW, "white": [300.0, 1500.0]}}),
        ],
        {"foul": True, "fouls": ["missed_all_balls"], "penalty": 4, "miss": True},
        id="3.14(b) a 2 mm window to the red between three colours: every ball missed, foul and a miss",
    ),
    # state.FrameState.ball_on: "none" once no ball is left (docs/FRAME_LOG.md).
    pytest.param(
        [table(0, ["black"], "black", [50, 10], 0), stroke(0, ["black"], [pot("black")])],
        {
            "frame_over": True,
            "winner": 0,
            "ball_on": "none",
            "points_remaining": 0,
            "free_ball": False,
            "warning": False,
        },
        id="3.4(a) the last black potted: the frame is over, no ball on",
    ),
]


ERROR_ROWS = [
    # rules._table: no table line while the lot for a re-spotted black is open.
    pytest.param(
        [
            table(0, ["black"], "black", [23, 30], 0),
            stroke(0, ["black"], [pot("black")]),
            table(0, ["black"], "black", [30, 30], 0),
        ],
        id="3.4(b) a table line while the re-spotted black's lot is open: refused",
    ),
    # rules._table_readings: with reds on, a colour is on only as "colour" (after a red).
    pytest.param(
        [table(5, COLOURS, "yellow", [0, 0], 0)], id="table line: the yellow on while reds remain: refused"
    ),
    # rules._concede / rules._stroke_fouls: a player number beyond the match's players.
    pytest.param([{"type": "concede", "player": 2}], id="concede by player 2 of two: refused"),
    pytest.param([stroke(2, ["red-1"])], id="a stroke by player 2 of two: refused"),
]


@pytest.mark.parametrize("lines", ERROR_ROWS)
def test_twenty_first_audit_refusals(lines: list[dict]) -> None:
    referee = Referee()
    rulings = [referee.apply(line) for line in [MATCH, *lines]]
    for ruling in rulings[:-1]:
        assert "error" not in ruling, ruling
    assert "error" in rulings[-1], rulings[-1]


@pytest.mark.parametrize(("lines", "expected"), ROWS)
def test_twenty_first_audit(lines: list[dict], expected: dict) -> None:
    referee = Referee()
    head = [] if lines[0].get("type") == "match" else [MATCH]
    rulings = [referee.apply(line) for line in [*head, *lines]]
    for ruling in rulings:
        assert "error" not in ruling, ruling
    got = {field: rulings[-1].get(field) for field in expected}
    assert got == expected


def test_the_scoreboard_after_a_miss_with_the_loser_needing_snookers() -> None:
    """referee.scoreboard: the fields no ruling shows (the breaker, the highest breaks, the last foul's
    miss, the miss count) and those read per side (snookers required)."""
    referee = Referee()
    for line in [
        MATCH,
        table(0, ["blue", "pink", "black"], "blue", [40, 10], 0),
        stroke(0, ["blue"], [pot("blue")]),
        stroke(0, [], miss=False),
        {"type": "decision", "choice": "play"},
        {"type": "foul", "reason": "touched_ball", "ball": "black"},
    ]:
        assert "error" not in referee.apply(line)
    board = referee.scoreboard()
    got = {k: board[k] for k in ("breaker", "highest_break", "last_foul", "miss_count", "snookers_required")}
    assert got == {
        "breaker": 0,
        "highest_break": [5, 0],
        "last_foul": {"offender": 1, "penalty": 7, "fouls": ["touched_ball"], "miss": False},
        "miss_count": 0,
        "snookers_required": [0, 4],
    }
    assert board["score"] == [52, 16] and board["score_known"] is True
