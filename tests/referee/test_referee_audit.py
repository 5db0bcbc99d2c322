"""An independent audit of the referee against Section 3 (3.3–3.17), one table row per sub-rule.

Every row is (rule, name, frame-log lines, expected ruling fields of the LAST line). The expected
values were worked out by hand from the texts (``../shared/rules/section3-rules-*.txt``), not from
the referee's output. Scores are ``[Ann, Ben]`` (or ``[side 0, side 1]`` four-handed).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    clear_reds,
    decision,
    foul,
    last,
    match,
    nominate,
    over_checklist,
    pot,
    referee_after,
    rule,
    safe,
    stroke,
    to_colours,
)

from snooker.calibration.table import STANDARD_TABLE

CX = STANDARD_TABLE.centre_x_mm
SPOTS = STANDARD_TABLE.spots
BLUE_SPOT = list(SPOTS["blue"])

CONTRACT_FIELDS = (
    "score",
    "striker",
    "ball_on",
    "reds",
    "points_remaining",
    "break",
    "foul",
    "penalty",
    "fouls",
    "miss",
    "free_ball",
    "options",
    "warning",
    "respotted",
    "frame_over",
    "winner",
    "frames",
    "announcements",
)


def miss_stroke(first: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A failure to hit the ball on with a straight line to it open (3.14(b))."""
    return stroke(first or [], clear_path=True, **extra)


CONCEDE = {"type": "concede"}
NEW_FRAME = {"type": "new_frame"}
PLAY, PLAY_AGAIN, REPLACE = decision("play"), decision("play_again"), decision("replace")

# --- set-ups ------------------------------------------------------------------------------------
ON_RED = [match()]
ON_COLOUR = [match(), pot("red")]  # Ann 1, any colour on
ON_BLUE = [*ON_COLOUR, nominate("blue")]
ON_YELLOW = to_colours(6)  # Ann 48 (six reds, six blacks), yellow on, 27 left
ON_GREEN = [*ON_YELLOW, pot("yellow")]  # Ann 50
ON_PINK = [*ON_YELLOW, *(pot(c) for c in ("yellow", "green", "brown", "blue"))]  # Ann 62
ON_BLACK = [*ON_PINK, pot("pink")]  # Ann 68
LAST_RED_DOWN = [match(reds=6), *clear_reds(5), pot("red")]  # Ann 41, reds 0, any colour on
# Ann fouls on the break-off (black first, 7) and the referee calls a free ball for Ben.
FREE_ON_RED = [match(), safe("black", free_ball=True)]
# Ann (48) misses the yellow and leaves Ben a free ball: Ben 4, yellow on.
FREE_ON_YELLOW = [*ON_YELLOW, stroke([], free_ball=True)]
# Ann (62) misses the pink, free ball: Ben 6, pink on, only pink and black left.
FREE_ON_PINK = [*ON_PINK, stroke([], free_ball=True)]


def tie_before_the_last_black() -> list[dict[str, Any]]:
    """A 6-red frame: Ann 36, Ben 29, Ann on the black (worked out by hand below)."""
    return [
        match(reds=6),
        *clear_reds(3, "pink"),  # Ann 21 (three reds, three pinks)
        safe("red"),
        *clear_reds(3, "black"),  # Ben 24, reds gone, Ben on yellow
        safe("yellow"),
        pot("yellow"),
        pot("green"),
        pot("brown"),  # Ann 30
        safe("blue"),
        pot("blue"),  # Ben 29
        safe("pink"),
        pot("pink"),  # Ann 36, on black
    ]


TIE = [*tie_before_the_last_black(), safe("black"), pot("black")]  # Ben pots the black: 36-36


def lead_with_one_red(colours: list[str]) -> list[dict[str, Any]]:
    """6 reds: Ann plays safe, Ben pots five reds with ``colours``, plays safe; Ann on the last red."""
    lines = [match(reds=6), safe("red")]
    for colour in colours:
        lines += [pot("red"), pot(colour)]
    return [*lines, safe("red")]


LEAD_31 = lead_with_one_red(["black", "black", "black", "green", "yellow"])  # Ben 31, 35 left
LEAD_34 = lead_with_one_red(["black", "black", "black", "pink", "yellow"])  # Ben 34, 35 left

# --- the checklist ------------------------------------------------------------------------------
# (rule, name, lines, expected fields of the last ruling)
CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.3 mode of play ------------------------------------------------------------------------
    ("3.3(c)", "the breaker starts in hand on a red", ON_RED, {"striker": 0, "ball_on": "red", "reds": 15}),
    (
        "3.3(e)",
        "every red potted in a stroke scores",
        [match(), stroke(["red"], ["red", "red", "red"])],
        {"score": [3, 0], "break": 3, "reds": 12, "ball_on": "colour", "striker": 0, "points_remaining": 130},
    ),
    (
        "3.3(e)",
        "two reds hit at once is no foul",
        [match(), stroke(["red", "red"], ["red"])],
        {"foul": False, "score": [1, 0]},
    ),
    (
        "3.3(f)(i)",
        "a colour after a red scores and is re-spotted",
        [*ON_COLOUR, pot("blue")],
        {"score": [6, 0], "break": 6, "respotted": ["blue"], "ball_on": "red", "points_remaining": 139},
    ),
    (
        "3.3(f)(i)",
        "the nominated colour is the ball on",
        ON_BLUE,
        {"ball_on": "blue", "points_remaining": 146},
    ),
    (
        "3.3(f)(ii)",
        "after the last red, any colour",
        LAST_RED_DOWN,
        {"reds": 0, "ball_on": "colour", "points_remaining": 34, "score": [41, 0]},
    ),
    (
        "3.3(f)(ii)",
        "the colour after the last red is re-spotted, then yellow",
        [*LAST_RED_DOWN, pot("pink")],
        {"score": [47, 0], "respotted": ["pink"], "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.3(f)(ii)",
        "missing the colour after the last red: the next player is on yellow",
        [*LAST_RED_DOWN, safe("pink")],
        {"striker": 1, "ball_on": "yellow", "points_remaining": 27, "break": 0},
    ),
    (
        "3.3(f)(iii)",
        "ascending colours stay down",
        [*ON_YELLOW, pot("yellow"), pot("green")],
        {"score": [53, 0], "respotted": [], "ball_on": "brown", "points_remaining": 22, "break": 53},
    ),
    (
        "3.3(g)",
        "a red potted in a foul stays off",
        [match(), stroke(["red"], ["red"], cue_ball="potted")],
        {"reds": 14, "score": [0, 4], "foul": True, "points_remaining": 139},
    ),
    (
        "3.3(g)",
        "a red forced off the table stays off",
        [match(), stroke(["red"], [], off_table=["red"])],
        {"reds": 14, "penalty": 4, "fouls": ["ball_off_table"]},
    ),
    ("3.3(h)", "no score ends the turn", [match(), safe("red")], {"striker": 1, "break": 0, "foul": False}),
    (
        "3.3(h)",
        "in hand after the cue ball is potted",
        [match(), stroke(["red"], cue_ball="potted")],
        {"striker": 1, "in_hand": True},
    ),
    (
        "3.3(h)",
        "in hand after the cue ball leaves the table",
        [match(), stroke(["red"], cue_ball="off_table")],
        {"striker": 1, "in_hand": True, "penalty": 4},
    ),
    ("3.3(h)", "not in hand after a safety", [match(), safe("red")], {"in_hand": False}),
    # 3.4 end of frame --------------------------------------------------------------------------
    (
        "3.4(a)",
        "the last black potted ends the frame",
        [*ON_BLACK, pot("black")],
        {"frame_over": True, "winner": 0, "frames": [1, 0], "score": [75, 0], "points_remaining": 0},
    ),
    (
        "3.4(a)",
        "a foul on the last black ends the frame",
        [*ON_BLACK, safe("black"), stroke([])],
        {"frame_over": True, "winner": 0, "penalty": 7, "score": [75, 0], "options": []},
    ),
    (
        "3.4(a)",
        "a safety on the last black does not end the frame",
        [*ON_BLACK, safe("black")],
        {"frame_over": False, "striker": 1, "ball_on": "black"},
    ),
    (
        "3.4(a)",
        "a tie on the last black: re-spotted black",
        TIE,
        {
            "score": [36, 36],
            "frame_over": False,
            "winner": None,
            "ball_on": "black",
            "points_remaining": 7,
            "respotted_black": True,
            "in_hand": True,
        },
    ),
    (
        "3.4(a)",
        "a foul on the last black that ties the scores: re-spotted black",
        [*tie_before_the_last_black(), stroke([])],
        {"score": [36, 36], "frame_over": False, "respotted_black": True, "penalty": 7, "options": []},
    ),
    (
        "3.4(b)",
        "the lot decides who plays first, from in hand",
        [*TIE, {"type": "respotted_black", "first": 0}],
        {"striker": 0, "in_hand": True, "frame_over": False},
    ),
    (
        "3.4(b)",
        "re-spotted black: the next score ends the frame",
        [*TIE, {"type": "respotted_black", "first": 0}, pot("black")],
        {"frame_over": True, "winner": 0, "score": [43, 36]},
    ),
    (
        "3.4(b)",
        "re-spotted black: the next foul ends the frame",
        [*TIE, {"type": "respotted_black", "first": 0}, stroke(["black"], cue_ball="potted")],
        {"frame_over": True, "winner": 1, "score": [36, 43], "miss": False},
    ),
    (
        "3.4(b)",
        "re-spotted black: a safety goes on",
        [*TIE, {"type": "respotted_black", "first": 0}, safe("black")],
        {"frame_over": False, "striker": 1},
    ),
    (
        "3.4(c)",
        "aggregate: a tied frame that is not the last is drawn",
        [match(reds=6, aggregate=True, best_of=2), *TIE[1:]],
        {"frame_over": True, "winner": None, "frames": [0, 0]},
    ),
    (
        "3.1(f)",
        "concession by the player to play",
        [match(best_of=3), pot("red"), CONCEDE],
        {"frame_over": True, "winner": 1, "frames": [0, 1]},
    ),
    (
        "3.1(f)",
        "concession by the other player",
        [match(best_of=3), safe("red"), {"type": "concede", "player": 0}],
        {"frame_over": True, "winner": 1},
    ),
    # 3.5 in hand ----------------------------------------------------------------------------------
    (
        "3.5",
        "in hand inside the D is proper",
        [match(), safe("red", positions={"before": {"white": [CX, 700.0]}})],
        {"foul": False},
    ),
    (
        "3.5/3.12(a)",
        "in hand outside the D: value of the ball on",
        [match(), safe("red", positions={"before": {"white": [CX, 900.0]}})],
        {"foul": True, "penalty": 4, "fouls": ["improper_in_hand"]},
    ),
    # 3.6 two balls at once -------------------------------------------------------------------
    (
        "3.6/3.12(c)",
        "red and blue at once when on red: five",
        [match(), stroke(["red", "blue"])],
        {"foul": True, "penalty": 5, "fouls": ["two_balls_at_once"], "score": [0, 5]},
    ),
    (
        "3.6/3.12(c)",
        "yellow and green at once when on red: four",
        [match(), stroke(["yellow", "green"])],
        {"penalty": 4, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.6/3.12(c)",
        "blue nominated, blue and black at once: seven",
        [*ON_BLUE, stroke(["blue", "black"])],
        {"penalty": 7, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.6",
        "free ball and the ball on together is no foul",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue", "red"], ["red"])],
        {"foul": False, "score": [0, 8], "ball_on": "colour"},
    ),
    # 3.8 touching ball -----------------------------------------------------------------------
    (
        "3.8(a)",
        "touching a ball on is called",
        [match(), safe("red", touching=["red"])],
        {"announcements": ["TOUCHING BALL"], "touching": ["red"]},
    ),
    (
        "3.8(c)",
        "playing away from a touching ball on is no foul",
        [match(), safe("red", touching=["red"]), stroke([])],
        {"foul": False, "striker": 0},
    ),
    (
        "3.8(b)",
        "moving the touching ball is a push stroke",
        [match(), safe("red", touching=["red"]), stroke([], fouls=["push_stroke"])],
        {"foul": True, "penalty": 4, "fouls": ["push_stroke"]},
    ),
    (
        "3.8(d)",
        "touching a ball not on: not called, and a ball on must be hit",
        [match(), safe("red", touching=["pink"]), stroke([])],
        {"foul": True, "penalty": 4},
    ),
    # 3.9 ball on the edge of a pocket ---------------------------------------------------------
    (
        "3.9(a)",
        "falls in by itself: replaced, no score",
        [*ON_COLOUR, {"type": "edge_fall", "ball": "pink"}],
        {"score": [1, 0], "ball_on": "colour", "striker": 0, "foul": False},
    ),
    (
        "3.9(b)",
        "falls before a ball in the stroke hits it, no foul: replaced, striker again",
        [match(), stroke(["red"], ["red"], fell_from_edge=["red"])],
        {"score": [0, 0], "striker": 0, "reds": 15, "foul": False, "ball_on": "red"},
    ),
    (
        "3.9(b)",
        "falls before being hit, with a foul: replaced, penalty, options",
        [match(), stroke(["red"], ["red"], cue_ball="potted", fell_from_edge=["red"])],
        {"score": [0, 4], "striker": 1, "reds": 15, "options": ["play", "play_again"]},
    ),
    (
        "3.9(c)",
        "a ball that hangs and then falls counts as potted",
        [match(), pot("red")],
        {"score": [1, 0], "reds": 14},
    ),
    # 3.10 free ball ------------------------------------------------------------------------------
    (
        "3.10",
        "a free ball is called and adds a red and a black to points remaining",
        FREE_ON_RED,
        {
            "free_ball": True,
            "points_remaining": 155,
            "striker": 1,
            "ball_on": "red",
            "announcements": ["FOUL", "SEVEN AWAY", "FREE BALL"],
        },
    ),
    (
        "3.10(a)",
        "free ball nominated as a red scores one and is re-spotted",
        [*FREE_ON_RED, nominate("blue"), pot("blue")],
        {"score": [0, 8], "respotted": ["blue"], "ball_on": "colour", "reds": 15, "free_ball": False},
    ),
    (
        "3.10(a)",
        "after a free ball as a red, a colour",
        [*FREE_ON_RED, nominate("blue"), pot("blue"), pot("pink")],
        {"score": [0, 14], "ball_on": "red", "respotted": ["pink"], "break": 7},
    ),
    (
        "3.10(b)(i)",
        "nominated free ball not hit first: foul, value of the ball on",
        [*FREE_ON_RED, nominate("blue"), safe("red")],
        {"foul": True, "penalty": 4, "score": [4, 7]},
    ),
    (
        "3.10(b)(i)",
        "free ball nominated, cue ball hits nothing: four",
        [*FREE_ON_RED, nominate("pink"), stroke([])],
        {"penalty": 4, "score": [4, 7]},
    ),
    (
        "3.10(b)(i)",
        "free ball nominated, black hit first: seven",
        [*FREE_ON_RED, nominate("blue"), safe("black")],
        {"penalty": 7},
    ),
    (
        "3.10(d)",
        "a red potted off the free ball scores and stays down",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["red"])],
        {"score": [0, 8], "reds": 14, "respotted": [], "ball_on": "colour"},
    ),
    (
        "3.10(e)",
        "reds on: free ball and a red potted both score",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["blue", "red"])],
        {"score": [0, 9], "reds": 14, "respotted": ["blue"], "ball_on": "colour", "break": 2},
    ),
    (
        "3.10(e)",
        "reds on: free ball and two reds potted all score",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["blue", "red", "red"])],
        {"score": [0, 10], "reds": 13, "respotted": ["blue"]},
    ),
    (
        "3.10(c)",
        "ascending: the free ball potted scores the ball on and is re-spotted",
        [*FREE_ON_YELLOW, nominate("blue"), pot("blue")],
        {"score": [48, 6], "respotted": ["blue"], "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.10(d)",
        "ascending: the ball on potted off the free ball scores and stays down",
        [*FREE_ON_YELLOW, nominate("blue"), stroke(["blue"], ["yellow"])],
        {"score": [48, 6], "respotted": [], "ball_on": "green", "points_remaining": 25},
    ),
    (
        "3.10(e)",
        "ascending: both potted, only the ball on scores",
        [*FREE_ON_YELLOW, nominate("blue"), stroke(["blue"], ["blue", "yellow"])],
        {"score": [48, 6], "respotted": ["blue"], "ball_on": "green"},
    ),
    (
        "3.10",
        "ascending: a free ball adds the ball on's value to points remaining",
        FREE_ON_YELLOW,
        {"free_ball": True, "points_remaining": 29, "score": [48, 4], "ball_on": "yellow"},
    ),
    (
        "3.10(b)(i)",
        "ascending: nominated free ball, the ball on hit first",
        [*FREE_ON_YELLOW, nominate("blue"), safe("yellow")],
        {"foul": True, "penalty": 4},
    ),
    (
        "3.10(b)(i)",
        "only pink and black: free ball black potted scores six and is re-spotted",
        [*FREE_ON_PINK, nominate("black"), pot("black")],
        {"score": [62, 12], "respotted": ["black"], "ball_on": "pink", "frame_over": False},
    ),
    (
        "3.10(f)",
        "play again: the free ball lapses",
        [*FREE_ON_RED, PLAY_AGAIN],
        {"free_ball": False, "striker": 0, "points_remaining": 147, "options": []},
    ),
    (
        "3.10",
        "play: the free ball stays",
        [*FREE_ON_RED, PLAY],
        {"free_ball": True, "striker": 1, "options": []},
    ),
    (
        "3.10(e)",
        "free ball as the last red-equivalent with the last red: both score, then any colour",
        [match(reds=6), *clear_reds(5), safe("black", free_ball=True), stroke(["pink"], ["pink", "red"])],
        {"score": [40, 9], "reds": 0, "ball_on": "colour", "respotted": ["pink"], "points_remaining": 34},
    ),
    (
        "3.12(d)",
        "a free ball as a red, then a red: seven",
        [*FREE_ON_RED, nominate("blue"), pot("blue"), safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"]},
    ),
    # 3.11 fouls ------------------------------------------------------------------------------
    (
        "3.11(a)",
        "a foul outside a stroke ends the turn",
        [*ON_COLOUR, nominate("pink"), foul("touched_ball", "pink")],
        {"score": [1, 6], "striker": 1, "ball_on": "red", "break": 0, "options": ["play", "play_again"]},
    ),
    (
        "3.11(e)",
        "break points before the foul stand; nothing potted in the foul scores",
        [match(), pot("red"), pot("black"), stroke(["red"], ["red"], cue_ball="potted")],
        {"score": [8, 4], "break": 0, "reds": 13, "striker": 1},
    ),
    (
        "3.11(g)",
        "several fouls: only the highest counts",
        [match(), stroke(["pink"], ["black"], cue_ball="potted")],
        {"penalty": 7, "fouls": ["potted_ball_not_on", "wrong_ball_first", "cue_ball_potted"]},
    ),
    (
        "3.11(h)",
        "after a foul the next player may play or ask for the offender to play again",
        [match(), safe("pink")],
        {"options": ["play", "play_again"], "striker": 1, "miss": False},
    ),
    # 3.12 penalty values ---------------------------------------------------------------------
    (
        "3.12",
        "on red, hits nothing: four",
        [match(), stroke([])],
        {"penalty": 4, "fouls": ["missed_all_balls"]},
    ),
    ("3.12(b)", "on red, pink first: six", [match(), safe("pink")], {"penalty": 6, "score": [0, 6]}),
    ("3.12(b)", "on red, black first: seven", [match(), safe("black")], {"penalty": 7}),
    ("3.12(b)", "on red, yellow first: four", [match(), safe("yellow")], {"penalty": 4}),
    (
        "3.12(b)",
        "on red, potting the black off a red: seven",
        [match(), stroke(["red"], ["black"])],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "respotted": ["black"], "score": [0, 7]},
    ),
    (
        "3.12(b)",
        "on red, a red and the pink potted: six, no score",
        [match(), stroke(["red"], ["red", "pink"])],
        {"penalty": 6, "score": [0, 6], "reds": 14, "respotted": ["pink"]},
    ),
    (
        "3.12(a)",
        "in-off after hitting a red: four",
        [match(), stroke(["red"], cue_ball="potted")],
        {"penalty": 4, "fouls": ["cue_ball_potted"]},
    ),
    (
        "3.12(b)",
        "on red, the pink forced off the table: six",
        [match(), stroke(["red"], off_table=["pink"])],
        {"penalty": 6, "fouls": ["ball_off_table"], "respotted": ["pink"]},
    ),
    (
        "3.12(a)",
        "blue nominated, cue ball hits nothing: five",
        [*ON_BLUE, stroke([])],
        {"penalty": 5, "score": [1, 5], "fouls": ["missed_all_balls"]},
    ),
    (
        "3.12(b)",
        "blue nominated, red hit first: five",
        [*ON_BLUE, safe("red")],
        {"penalty": 5, "fouls": ["wrong_ball_first"]},
    ),
    ("3.12(b)", "blue nominated, yellow hit first: five", [*ON_BLUE, safe("yellow")], {"penalty": 5}),
    ("3.12(b)", "blue nominated, pink hit first: six", [*ON_BLUE, safe("pink")], {"penalty": 6}),
    (
        "3.12(a)",
        "blue nominated, potted with an in-off: five, re-spotted",
        [*ON_BLUE, stroke(["blue"], ["blue"], cue_ball="potted")],
        {"penalty": 5, "respotted": ["blue"], "score": [1, 5]},
    ),
    (
        "3.12(b)",
        "blue nominated, blue hit and the black potted: seven",
        [*ON_BLUE, stroke(["blue"], ["black"])],
        {"penalty": 7},
    ),
    (
        "3.12(b)",
        "blue nominated, blue and a red potted: five, the red stays down",
        [*ON_BLUE, stroke(["blue"], ["blue", "red"])],
        {"penalty": 5, "reds": 13, "respotted": ["blue"]},
    ),
    (
        "3.3(f)",
        "a colour hit first names the colour (obvious intention)",
        [*ON_COLOUR, pot("green")],
        {"score": [4, 0], "foul": False},
    ),
    (
        "3.12(a)",
        "undeclared colour hit first, then an in-off: the value of that colour",
        [*ON_COLOUR, stroke(["blue"], cue_ball="potted")],
        {"penalty": 5},
    ),
    (
        "3.12(a)",
        "undeclared yellow hit first, then an in-off: four",
        [*ON_COLOUR, stroke(["yellow"], cue_ball="potted")],
        {"penalty": 4},
    ),
    (
        "3.12(d)",
        "after a red, a red hit first: seven (reds in successive strokes)",
        [*ON_COLOUR, safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"]},
    ),
    (
        "3.12(d)",
        "after a red, a foul before nominating: seven",
        [*ON_COLOUR, stroke([])],
        {"penalty": 7, "fouls": ["foul_before_nomination", "missed_all_balls"]},
    ),
    (
        "3.12(d)",
        "after a red, a foul outside a stroke before nominating: seven",
        [*ON_COLOUR, foul("touched_ball", "yellow")],
        {"penalty": 7},
    ),
    (
        "3.12(b)",
        "blue nominated, the yellow touched: five",
        [*ON_BLUE, foul("touched_ball", "yellow")],
        {"penalty": 5, "score": [1, 5]},
    ),
    ("3.12(a)", "ascending, on yellow, hits nothing: four", [*ON_YELLOW, stroke([])], {"penalty": 4}),
    ("3.12(b)", "ascending, on yellow, green first: four", [*ON_YELLOW, safe("green")], {"penalty": 4}),
    ("3.12(b)", "ascending, on green, black first: seven", [*ON_GREEN, safe("black")], {"penalty": 7}),
    (
        "3.12(a)",
        "ascending, on pink, hits nothing: six",
        [*ON_PINK, stroke([])],
        {"penalty": 6, "score": [62, 6], "ball_on": "pink"},
    ),
    (
        "3.12(a)",
        "ascending, on pink, an in-off off the pink: six",
        [*ON_PINK, stroke(["pink"], cue_ball="potted")],
        {"penalty": 6},
    ),
    (
        "3.12(b)",
        "ascending, on yellow, yellow and pink potted: six, both re-spotted",
        [*ON_YELLOW, stroke(["yellow"], ["yellow", "pink"])],
        {"penalty": 6, "respotted": ["pink", "yellow"], "score": [48, 6], "ball_on": "yellow"},
    ),
    (
        "3.12(a)",
        "ascending, a colour potted with a foul is re-spotted",
        [*ON_YELLOW, stroke(["yellow"], ["yellow"], cue_ball="potted")],
        {"penalty": 4, "respotted": ["yellow"], "ball_on": "yellow", "points_remaining": 27},
    ),
    ("3.12(a)", "double hit on red: four", [match(), safe("red", fouls=["double_hit"])], {"penalty": 4}),
    ("3.12(a)", "double hit on pink: six", [*ON_PINK, safe("pink", fouls=["double_hit"])], {"penalty": 6}),
    ("3.12(a)", "jump shot on blue: five", [*ON_BLUE, safe("blue", fouls=["jump_shot"])], {"penalty": 5}),
    (
        "3.12(a)",
        "no foot on the floor on black: seven",
        [*ON_BLACK, safe("black", fouls=["no_foot_on_floor"])],
        {"penalty": 7, "frame_over": True},
    ),
    (
        "3.12(a)",
        "playing out of turn: value of the ball on",
        [*ON_PINK, safe("pink", player=1)],
        {"penalty": 6, "fouls": ["out_of_turn"], "score": [68, 0]},
    ),
    (
        "3.12(b)",
        "striking while the black is moving: seven",
        [match(), safe("red", fouls=[{"reason": "balls_moving", "ball": "black"}])],
        {"penalty": 7},
    ),
    (
        "3.12(b)",
        "push stroke on red: four",
        [match(), safe("red", fouls=["push_stroke"])],
        {"penalty": 4, "fouls": ["push_stroke"]},
    ),
    (
        "3.12(b)",
        "striking before the pink is spotted: six",
        [match(), safe("red", fouls=[{"reason": "before_spotting", "ball": "pink"}])],
        {"penalty": 6},
    ),
    (
        "3.12(d)",
        "measuring a gap: seven",
        [match(), safe("red", fouls=["measured_gap"])],
        {"penalty": 7, "fouls": ["measured_gap"]},
    ),
    (
        "3.12(d)",
        "using a ball off the table: seven",
        [match(), foul("used_ball_off_table")],
        {"penalty": 7, "score": [0, 7]},
    ),
    ("3.12(d)", "wrong cue ball: seven", [match(), safe("red", fouls=["wrong_cue_ball"])], {"penalty": 7}),
    (
        "3.12(d)",
        "failing to declare the ball on: seven",
        [*ON_COLOUR, foul("failed_to_declare")],
        {"penalty": 7},
    ),
    (
        "3.12",
        "never more than seven",
        [match(), stroke(["black", "pink"], ["black", "pink"], cue_ball="potted", fouls=["measured_gap"])],
        {"penalty": 7},
    ),
    # 3.13 play again ---------------------------------------------------------------------------
    (
        "3.13",
        "the offender plays again and scores for balls potted",
        [match(), safe("pink"), PLAY_AGAIN, pot("red")],
        {"striker": 0, "score": [1, 6], "ball_on": "colour", "break": 1},
    ),
    (
        "3.13",
        "a play-again request cannot be withdrawn",
        [match(), safe("pink"), PLAY_AGAIN, PLAY],
        {"error": "no decision is open: a decision follows a foul"},
    ),
    # 3.14 foul and a miss --------------------------------------------------------------------
    (
        "3.14(b)",
        "a clear line to a ball on and no snookers needed: foul and a miss",
        [match(), miss_stroke()],
        {
            "miss": True,
            "penalty": 4,
            "options": ["play", "play_again", "replace"],
            "announcements": ["FOUL AND A MISS", "FOUR AWAY"],
        },
    ),
    (
        "3.14(b)",
        "no clear line: no miss",
        [match(), stroke([], clear_path=False)],
        {"miss": False, "options": ["play", "play_again"]},
    ),
    (
        "3.14(b)",
        "the opponent needs snookers before the stroke: no miss",
        [*ON_YELLOW, miss_stroke()],
        {"miss": False, "foul": True},
    ),
    (
        "3.14(b)",
        "the striker needs snookers before the stroke: no miss",
        [*ON_YELLOW, safe("yellow"), miss_stroke()],
        {"miss": False},
    ),
    (
        "3.14(b)",
        "nobody needs snookers before or after: a miss (Ben 31 ahead, 35 left)",
        [*LEAD_31, miss_stroke()],
        {"miss": True, "score": [0, 35], "points_remaining": 35},
    ),
    (
        "3.14(b)",
        "the striker needs snookers as a result of the stroke: no miss (Ben 34 ahead, 35 left)",
        [*LEAD_34, miss_stroke()],
        {"miss": False, "score": [0, 38]},
    ),
    (
        "3.14",
        "only the black left: never a miss",
        [*ON_BLACK, stroke([], miss=True)],
        {"miss": False, "frame_over": True},
    ),
    (
        "3.14(b)",
        "a miss from positions: a red in plain view",
        [
            match(),
            safe(
                "red",
                positions={"after": {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [300.0, 2700.0]}},
            ),
            safe("blue"),
        ],
        {"miss": True, "penalty": 5},
    ),
    (
        "3.14(b)",
        "no miss from positions: the only red hidden behind the blue",
        [
            match(),
            safe(
                "red", positions={"after": {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [CX, 2700.0]}}
            ),
            safe("blue"),
        ],
        {"miss": False, "penalty": 5},
    ),
    (
        "3.14(a)",
        "replace: the offender plays again from the position before, on a red",
        [match(), safe("red"), pot("red"), pot("black"), miss_stroke(), REPLACE],
        {"striker": 1, "score": [4, 8], "reds": 14, "ball_on": "red", "options": [], "break": 0},
    ),
    (
        "3.14(a)",
        "replace: a colour of his choice if he was on a colour after a red",
        [*ON_BLUE, miss_stroke(), REPLACE],
        {"striker": 0, "ball_on": "colour", "score": [1, 5], "reds": 14, "points_remaining": 146},
    ),
    (
        "3.14(a)",
        "replace: the colour on when no reds remain",
        [*ON_GREEN, stroke([], miss=True), REPLACE],
        {"striker": 0, "ball_on": "green", "score": [50, 4]},
    ),
    (
        "3.14(a)",
        "replace restores the balls potted in the missed stroke",
        [match(), safe("red"), stroke(["pink"], ["pink", "red"], clear_path=True), REPLACE],
        {"reds": 15, "striker": 1, "score": [6, 0]},
    ),
    (
        "3.14(a)",
        "replace is open only after a miss",
        [match(), safe("pink"), REPLACE],
        {"error": "'replace' is not open; the options are play, play_again"},
    ),
    (
        "3.14(c)",
        "the second miss from the same position: the warning",
        [match(best_of=3), miss_stroke(full_ball=True), REPLACE, miss_stroke(full_ball=True), REPLACE],
        {"warning": True, "score": [0, 8], "striker": 0},
    ),
    (
        "3.14(c)",
        "the third miss with a full ball open awards the frame",
        [
            match(best_of=3),
            *[miss_stroke(full_ball=True), REPLACE] * 2,
            miss_stroke(full_ball=True),
        ],
        {"frame_over": True, "winner": 1, "frames": [0, 1], "score": [0, 12], "miss": True},
    ),
    (
        "3.14(c)",
        "no full ball open: no frame awarded on the third miss",
        [match(), *[miss_stroke(full_ball=False), REPLACE] * 2, miss_stroke(full_ball=False)],
        {"frame_over": False, "miss": True, "warning": False, "score": [0, 12]},
    ),
    (
        "3.14(c)",
        "after a full-ball miss, failures from the same position are misses whatever the score",
        [*LEAD_31, miss_stroke(full_ball=True), REPLACE, miss_stroke(full_ball=True)],
        {"miss": True, "score": [0, 39], "warning": False, "warning_due": True},
    ),
    (
        "3.14(c)",
        "without a full ball the score test applies again to the replayed stroke",
        [*LEAD_31, miss_stroke(full_ball=False), REPLACE, miss_stroke(full_ball=False)],
        {"miss": False, "score": [0, 39], "warning": False},
    ),
    (
        "3.14(c)",
        "playing from the position left ends the sequence",
        [match(), *[miss_stroke(full_ball=True), PLAY_AGAIN] * 2, miss_stroke(full_ball=True)],
        {"frame_over": False, "warning": False},
    ),
    (
        "3.14(c)",
        "hitting the ball on ends the sequence",
        [
            match(),
            miss_stroke(full_ball=True),
            REPLACE,
            safe("red"),
            safe("red"),
            miss_stroke(full_ball=True),
        ],
        {"frame_over": False, "miss": True, "warning": False},
    ),
    (
        "3.14(d)",
        "a foul while preparing a replayed stroke: no miss, options include replace",
        [match(), miss_stroke(full_ball=True), REPLACE, foul("touched_ball", "red")],
        {"miss": False, "penalty": 4, "options": ["play", "play_again", "replace"], "striker": 1},
    ),
    (
        "3.14(d)",
        "the earlier warning stays in force",
        [
            match(),
            *[miss_stroke(full_ball=True), REPLACE] * 2,
            foul("touched_ball", "red"),
            REPLACE,
            miss_stroke(full_ball=True),
        ],
        {"frame_over": True, "winner": 1, "score": [0, 16]},
    ),
    (
        "3.14",
        "miss rule off (amateur play): never a miss",
        [match(miss_rule="off"), miss_stroke()],
        {"miss": False, "options": ["play", "play_again"]},
    ),
    # 3.15 ball moved by someone else ----------------------------------------------------------
    (
        "3.15",
        "a ball moved by someone else: replaced, no penalty",
        [*ON_COLOUR, {"type": "ball_moved", "ball": "pink"}],
        {"foul": False, "score": [1, 0], "striker": 0, "ball_on": "colour", "break": 1},
    ),
    # 3.16 stalemate --------------------------------------------------------------------------
    (
        "3.16",
        "re-rack: scores cancelled, the same player breaks",
        [match(), safe("red"), pot("red"), pot("black"), safe("red"), {"type": "rerack"}],
        {"score": [0, 0], "striker": 0, "reds": 15, "points_remaining": 147, "frame_over": False},
    ),
    # 3.17 four-handed ------------------------------------------------------------------------
    (
        "3.17(a)",
        "four-handed: the order of play A1, B1, A2, B2",
        [match(players=4), safe("red"), safe("red"), safe("red")],
        {"striker": 3},
    ),
    (
        "3.17",
        "four-handed: points go to the side",
        [match(players=4), safe("red"), safe("red"), pot("red"), pot("black")],
        {"score": [8, 0], "striker": 2},
    ),
    (
        "3.17(c)",
        "four-handed: played out of turn, asked to play again: the offender plays",
        [match(players=4), stroke(["red"], player=2), PLAY_AGAIN],
        {"striker": 2, "score": [0, 4]},
    ),
    (
        "3.17(c)",
        "four-handed: the order continues from the offender",
        [match(players=4), stroke(["red"], player=2), PLAY_AGAIN, safe("red")],
        {"striker": 3},
    ),
    (
        "3.17(a)",
        "four-handed: the other side breaks the next frame",
        [match(players=4, best_of=3), CONCEDE, NEW_FRAME],
        {"striker": 1, "score": [0, 0], "frames": [0, 1]},
    ),
    (
        "3.3(b)",
        "singles: the breaker alternates",
        [match(best_of=3), CONCEDE, NEW_FRAME],
        {"striker": 1, "frames": [0, 1], "reds": 15},
    ),
    # points remaining and errors ------------------------------------------------------------------
    ("2", "points remaining at the start", ON_RED, {"points_remaining": 147}),
    ("2", "points remaining on a colour after a red", ON_COLOUR, {"points_remaining": 146}),
    ("2", "points remaining on pink", ON_PINK, {"points_remaining": 13}),
    ("2", "points remaining on black", ON_BLACK, {"points_remaining": 7}),
    ("2", "snookers required on yellow (48 behind, 27 left)", ON_YELLOW, {"snookers_required": [0, 6]}),
    (
        "CONTRACTS",
        "a decision when none is open",
        [match(), pot("red"), PLAY],
        {"error": "no decision is open: a decision follows a foul"},
    ),
    (
        "CONTRACTS",
        "potting a ball that is not on the table",
        [*ON_GREEN, stroke(["green"], ["yellow"])],
        {"error": "potted: the yellow is not on the table"},
    ),
    (
        "CONTRACTS",
        "a stroke after the match is over",
        [*ON_BLACK, pot("black"), safe("red")],
        {"error": "the match is over"},
    ),
]


@over_checklist(CHECKLIST)
def test_checklist(lines, expected):
    assert_last_ruling(lines, expected, CONTRACT_FIELDS)


ERROR_LINES = [
    ("decision with none open", PLAY),
    ("unknown decision", {"type": "decision", "choice": "replay"}),
    ("malformed JSON", '{"type": "stroke", '),
    ("unknown line type", {"type": "smash"}),
    ("unknown foul reason", foul("kicked_table")),
    ("a red nominated after a red", nominate("red")),
    ("a re-spotted black lot without a re-spotted black", {"type": "respotted_black", "first": 0}),
    ("a new frame before the frame is over", NEW_FRAME),
    ("a colour potted twice", stroke(["red"], ["pink", "pink"])),
    ("a ball off the table and potted", stroke(["red"], ["pink"], off_table=["pink"])),
    ("an unknown ball", stroke(["orange"])),
]


@pytest.mark.parametrize("line", [c[1] for c in ERROR_LINES], ids=[c[0] for c in ERROR_LINES])
def test_a_line_that_cannot_be_applied_leaves_the_state_unchanged(line):
    referee = referee_after([*ON_COLOUR])
    before = json.dumps(referee.scoreboard(), sort_keys=True)
    state = referee.state
    ruling = referee.apply(line)
    assert set(ruling) >= {"error"} and isinstance(ruling["error"], str) and ruling["error"]
    assert referee.state is state
    assert json.dumps(referee.scoreboard(), sort_keys=True) == before
    after = referee.apply(pot("blue"))  # the following lines are still ruled
    assert after["score"] == [6, 0]


def test_a_re_spotted_black_in_the_last_frame_of_an_aggregate_match():
    lines = [match(reds=6, aggregate=True, best_of=2), *TIE[1:], NEW_FRAME, *TIE[1:]]
    rulings = rule(lines)
    assert all("error" not in r for r in rulings)
    assert rulings[-1]["frame"] == 2 and rulings[-1]["respotted_black"] is True
    decided = last([*lines, {"type": "respotted_black", "first": 1}, pot("black")])
    assert decided["frame_over"] is True and decided["match_over"] is True and decided["match_winner"] == 1


def test_free_ball_from_positions_and_snookering_behind_it():
    hidden = {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [CX, 2700.0]}
    free = [match(), safe("black", positions={"after": hidden})]
    assert last(free)["free_ball"] is True
    snookering = last([*free, nominate("blue"), safe("blue", positions={"after": hidden})])
    assert snookering["foul"] is True and snookering["fouls"] == ["free_ball_snooker"]
    assert snookering["penalty"] == 4 and snookering["score"] == [4, 7]
    # With only pink and black left, snookering behind the free ball is allowed (3.10(b)(ii)).
    behind = {"white": [CX, 1500.0], "black": [CX, 2200.0], "pink": [CX, 2800.0]}
    allowed = last([*FREE_ON_PINK, nominate("black"), safe("black", positions={"after": behind})])
    assert allowed["foul"] is False and allowed["striker"] == 0


def test_respotting_a_colour_whose_own_spot_is_free_before_one_whose_spot_is_taken():
    """3.7(d)-(e): the pink's own spot is free, so it goes there; the black (spot taken) then takes
    the highest free spot. Value precedence applies among colours whose own spots are taken."""
    after = {
        "white": [300.0, 1200.0],
        "blue": BLUE_SPOT,
        "red-1": list(SPOTS["black"]),
    }
    ruling = last([match(), stroke(["red"], ["pink", "black"], positions={"after": after})])
    spots = {entry["ball"]: tuple(entry["position"]) for entry in ruling["respotted"]}
    assert spots == {"pink": SPOTS["pink"], "black": SPOTS["brown"]}


def test_two_colours_with_their_spots_taken_the_higher_value_first():
    after = {
        "white": [300.0, 1200.0],
        "red-1": list(SPOTS["black"]),
        "red-2": list(SPOTS["pink"]),
    }
    ruling = last([match(), stroke(["red"], ["pink", "black"], positions={"after": after})])
    spots = {entry["ball"]: tuple(entry["position"]) for entry in ruling["respotted"]}
    assert spots == {"black": SPOTS["blue"], "pink": SPOTS["brown"]}


def test_a_stroke_by_the_offender_while_the_decision_is_open_means_he_was_asked_to_play_again():
    lines = [match(), safe("pink"), stroke(["red"], ["red"], player=0)]
    ruling = last(lines)
    assert ruling["foul"] is False and ruling["score"] == [1, 6] and ruling["striker"] == 0
    # Without a decision open the same stroke by the wrong player is playing out of turn (3.12(a)).
    assert last([match(), safe("red"), stroke(["red"], player=0)])["fouls"] == ["out_of_turn"]


def test_a_foul_with_a_ball_fallen_from_the_edge_still_gives_a_free_ball_when_snookered():
    """3.9(b): after the replacement the next player has the usual options after a foul (3.10)."""
    hidden = {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [CX, 2700.0]}
    lines = [
        match(),
        safe("red", positions={"after": hidden}),
        stroke(["blue"], ["red"], fell_from_edge=["red"]),  # Ben fouls; balls back where they were
    ]
    ruling = last(lines)
    assert ruling["foul"] is True and ruling["penalty"] == 5 and ruling["reds"] == 15
    assert ruling["free_ball"] is True and "FREE BALL" in ruling["announcements"]
