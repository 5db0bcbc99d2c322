"""A thirteenth audit of the referee: composite sequences, where several rules of Section 3 meet.

The twelve earlier audits (tests/referee/test_referee_*audit*.py) went clause by clause. Here each
row is a short frame in which several clauses act together (the colours phase with fouls and free
balls, several fouls in one stroke, miss chains across free balls, touching balls and play-again
requests, re-spotting on occupied spots, the last red, the frame's end), and the expected fields of
the LAST ruling were worked out by hand from the texts (section3-rules-pl.txt authoritative;
RULES-EN.md for Section 2's definitions) before the referee was run. Scores are [Ann, Ben]; Ann
breaks. Six-red frames keep the arithmetic short (points remaining with r reds and a red on:
8r + 27; in the colours phase the colours left; a free ball adds what it can score).

Outcome: every row agreed with the referee as it stood (no fault found; all rows are guards). The
readings the rows fix, where the texts leave room:

- 3.10(a): the nominated free ball "nabiera znaczenia i wartości bili rozgrywanej" (takes the
  meaning and value of the ball on) in penalties too: a free ball black forced off the table while
  a red is on costs four, the blue potted beside a free ball pink five.
- 3.14(b): "chyba że któryś z zawodników potrzebuje snookera przed wykonaniem lub w wyniku
  wykonania tego zagrania": either player, before or after the stroke (its penalty and the next
  player's free ball counted); behind by exactly the points remaining is not needing snookers.
  3.14(c): once a miss was called with a full ball open, further failures from that position are
  misses whatever the score; a play-again from where the balls lie starts a new count.
- 3.14(d): a foul while preparing a replayed stroke is no miss, the replacement stays open and an
  earlier warning stays in force: after that replacement a failure can award the frame.
- 3.7(d)-(e): a colour whose own spot is free goes there before a higher colour whose spot is
  taken looks for the highest free spot; the spot of a colour just potted for good is free.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    clear_reds,
    decision,
    foul,
    last,
    lot,
    match,
    nominate,
    over_checklist,
    pot,
    rule,
    safe,
    stroke,
    table,
)

from snooker.calibration.table import STANDARD_TABLE

SPOTS = STANDARD_TABLE.spots
CX = STANDARD_TABLE.centre_x_mm
DIAMETER = STANDARD_TABLE.ball_diameter_mm

FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""
LINE_ONLY = {"clear_path": True, "full_ball": False}
"""A failure to hit the ball on with a line to part of it open, but no full ball (3.14(b) only)."""


def concede(player: int | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "concede"}
    if player is not None:
        line["player"] = player
    return line


M6 = match(reds=6)
# Ann clears six reds, each with the yellow: 18-0, the yellow on, Ann at the table (break 18),
# points remaining 27 (2+3+4+5+6+7).
YELLOW18 = [M6, *clear_reds(6, "yellow")]
# ... then the yellow, green, brown and blue: 32-0, the pink on, 13 remaining.
PINK32 = [*YELLOW18, pot("yellow"), pot("green"), pot("brown"), pot("blue")]
# ... then the pink: 38-0, only the black left, 7 remaining.
BLACK38 = [*PINK32, pot("pink")]
# Ann, on the pink, hits the black first and leaves Ben a free ball: 32-7.
PINK_FREE = [*PINK32, stroke(["black"], free_ball=True)]
# Ann, on the yellow, hits the green first and leaves Ben a free ball: 18-4.
YELLOW_FREE = [*YELLOW18, stroke(["green"], free_ball=True)]
# Ann on a red hits the black first and leaves Ben a free ball: 0-7, six reds on.
RED_FREE = [M6, stroke(["black"], free_ball=True)]
# Ann pots five reds, each with the black (40-0), one red left; then hits the black first on the
# last red, leaving Ben a free ball: 40-7.
LAST_RED_FREE = [M6, *clear_reds(5), stroke(["black"], free_ball=True)]
# A frame joined with only the black left, Ann 40, Ben 33, Ann to play.
BLACK_40_33 = [M6, table(reds=0, colours=["black"], ball_on="black", score=[40, 33], striker=0)]
# ... Ann misses the black: 40-40, a re-spotted black (3.4(a)-(b)).
RESPOT = [*BLACK_40_33, stroke([])]
# Ann and Ben play safe; Ben leaves the cue ball with one red in full view (the other balls' places
# not logged): Ann to play.
OPEN_RED = [
    M6,
    safe("red"),
    safe("red", positions={"after": {"white": [500.0, 1000.0], "red-1": [500.0, 2000.0]}}),
]
# ... or with the pink covering part of that red: a line to part of it, no full-ball contact.
HALF_HIDDEN_RED = [
    M6,
    safe("red"),
    safe(
        "red",
        positions={"after": {"white": [500.0, 1000.0], "red-1": [500.0, 2000.0], "pink": [540.0, 1500.0]}},
    ),
]
GREEN_UP = ["green", "brown", "blue", "pink", "black"]
# Ann 20 (six reds with the yellow, then the yellow), the green on; Ann plays safe: Ben to play.
GREEN20_BEN = [*YELLOW18, pot("yellow"), safe("green")]

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # --- the colours phase with fouls -----------------------------------------------------------
    (
        "3.12(b) 3.3(f)",
        "pink on: the black hit first: seven; pink still on; Ben 25 behind with 13 left needs 2 snookers",
        [*PINK32, safe("black")],
        {
            "score": [32, 7],
            "penalty": 7,
            "fouls": ["wrong_ball_first"],
            "ball_on": "pink",
            "striker": 1,
            "points_remaining": 13,
            "snookers_required": [0, 2],
            "options": ["play", "play_again"],
            "announcements": ["FOUL", "SEVEN AWAY"],
        },
    ),
    (
        "3.12(a) 3.3(f)",
        "pink on: every ball missed: six (the value of the ball on); 26 behind, 13 left, 3 snookers at 6",
        [*PINK32, stroke([])],
        {
            "score": [32, 6],
            "penalty": 6,
            "fouls": ["missed_all_balls"],
            "miss": False,
            "snookers_required": [0, 3],
            "announcements": ["FOUL", "SIX AWAY"],
        },
    ),
    (
        "3.12(a) 3.7 3.11(e)",
        "pink on: the pink potted and the cue ball in-off: six, the pink re-spotted and still on",
        [*PINK32, stroke(["pink"], ["pink"], cue_ball="potted")],
        {
            "score": [32, 6],
            "penalty": 6,
            "points": 0,
            "fouls": ["cue_ball_potted"],
            "respotted": ["pink"],
            "ball_on": "pink",
            "colours": ["pink", "black"],
            "in_hand": True,
            "break": 0,
        },
    ),
    (
        "3.12(b) 3.11(e) 3.7",
        "blue on: the blue and the pink potted together: six (pink), both re-spotted, the blue still on",
        [*YELLOW18, pot("yellow"), pot("green"), pot("brown"), stroke(["blue"], ["blue", "pink"])],
        {
            "score": [27, 6],
            "penalty": 6,
            "fouls": ["potted_ball_not_on"],
            "respotted": ["pink", "blue"],
            "ball_on": "blue",
            "points_remaining": 18,
        },
    ),
    (
        "3.12(c) 3.6",
        "blue on: the blue and the pink hit at once: six (the higher of the two)",
        [*YELLOW18, pot("yellow"), pot("green"), pot("brown"), stroke(["blue", "pink"])],
        {"score": [27, 6], "penalty": 6, "fouls": ["two_balls_at_once"], "ball_on": "blue"},
    ),
    (
        "3.12(b) 3.3(f)",
        "yellow on: the yellow hit, the green potted: four (no value above four), the green re-spotted",
        [*YELLOW18, stroke(["yellow"], ["green"])],
        {"score": [18, 4], "penalty": 4, "respotted": ["green"], "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.4(a) 3.12(a)",
        "only the black left: every ball missed ends the frame: seven to Ben, frame and match to Ann",
        [*BLACK38, stroke([])],
        {
            "score": [38, 7],
            "penalty": 7,
            "frame_over": True,
            "winner": 0,
            "match_over": True,
            "match_winner": 0,
            "status": "match_over",
            "announcements": ["FOUL", "SEVEN AWAY", "FRAME TO ANN", "MATCH TO ANN"],
        },
    ),
    (
        "3.4(a) 3.12(a) 3.14",
        "only the black left: the black potted and the cue ball in-off: seven, the frame ends, never a miss",
        [*BLACK38, stroke(["black"], ["black"], cue_ball="potted", **FULL)],
        {"score": [38, 7], "penalty": 7, "miss": False, "frame_over": True, "winner": 0, "points": 0},
    ),
    # --- the frame's end: ties, the re-spotted black ----------------------------------------------
    (
        "3.4(a)-(b)",
        "only the black left, Ann 40-33: her foul levels it: re-spotted black, lot awaited",
        RESPOT,
        {
            "score": [40, 40],
            "penalty": 7,
            "frame_over": False,
            "respotted_black": True,
            "status": "respotted_black_lot",
            "ball_on": "black",
            "in_hand": True,
            "points_remaining": 7,
            "respotted": ["black"],
            "announcements": ["FOUL", "SEVEN AWAY", "RE-SPOTTED BLACK"],
        },
    ),
    (
        "3.4(b) 3.12(a)",
        "re-spotted black: Ben, first by lot, goes in-off the black: seven to Ann, frame to Ann",
        [*RESPOT, lot(1), stroke(["black"], [], cue_ball="potted")],
        {"score": [47, 40], "penalty": 7, "frame_over": True, "winner": 0, "respotted": []},
    ),
    (
        "3.4(b) 3.14",
        "re-spotted black: Ben misses it with a full ball open: seven, never a miss, frame to Ann",
        [*RESPOT, lot(1), stroke([], **FULL)],
        {"score": [47, 40], "miss": False, "options": [], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(b)",
        "re-spotted black: Ben, first by lot, pots it: frame to Ben",
        [*RESPOT, lot(1), pot("black")],
        {"score": [40, 47], "points": 7, "frame_over": True, "winner": 1, "match_winner": 1},
    ),
    (
        "3.4(a)",
        "only the black left, Ben 33 pots it to 40-40: re-spotted black, his break of 7 stands until the lot",
        [M6, table(reds=0, colours=["black"], ball_on="black", score=[40, 33], striker=1), pot("black")],
        {"score": [40, 40], "respotted_black": True, "break": 7, "frame_over": False, "respotted": ["black"]},
    ),
    (
        "3.4(b)",
        "... and does not carry over: the lot starts the re-spotted black's play from 0",
        [
            M6,
            table(reds=0, colours=["black"], ball_on="black", score=[40, 33], striker=1),
            pot("black"),
            lot(1),
        ],
        {"score": [40, 40], "respotted_black": True, "break": 0, "striker": 1},
    ),
    (
        "3.4(a) 3.4(c)",
        "aggregate match, first frame of two: a foul levelling the frame on the last black ends it unwon",
        [
            match(reds=6, aggregate=True, best_of=2),
            table(reds=0, colours=["black"], ball_on="black", score=[40, 33], striker=0),
            stroke([]),
        ],
        {
            "score": [40, 40],
            "frame_over": True,
            "winner": None,
            "respotted_black": False,
            "status": "frame_over",
        },
    ),
    (
        "3.1(f) 3.3",
        "a concession mid-break by the player not at the table: the frame to Ann, scores as they stood",
        [M6, pot("red"), pot("black"), pot("red"), concede(1)],
        {
            "score": [9, 0],
            "frame_over": True,
            "winner": 0,
            "frames": [1, 0],
            "announcements": ["FRAME TO ANN", "MATCH TO ANN"],
        },
    ),
    (
        "3.1(f)",
        "the player at the table concedes mid-break while ahead: the frame to Ben",
        [M6, pot("red"), pot("black"), pot("red"), concede()],
        {"score": [9, 0], "frame_over": True, "winner": 1, "frames": [0, 1]},
    ),
    # --- free ball in the colours phase (3.10) ----------------------------------------------------
    (
        "3.10 definitions",
        "yellow on: a foul leaving a free ball: four; points remaining 27 plus the yellow's 2",
        YELLOW_FREE,
        {
            "score": [18, 4],
            "free_ball": True,
            "points_remaining": 29,
            "snookers_required": [0, 0],
            "announcements": ["FOUL", "FOUR AWAY", "FREE BALL"],
        },
    ),
    (
        "3.10(a)/(c)",
        "yellow on: the green potted as the free ball: two, the green re-spotted, the yellow still on",
        [*YELLOW_FREE, stroke(["green"], ["green"], nominated="green")],
        {
            "score": [18, 6],
            "points": 2,
            "scored": ["green"],
            "respotted": ["green"],
            "ball_on": "yellow",
            "break": 2,
            "striker": 1,
            "free_ball": False,
            "points_remaining": 27,
        },
    ),
    (
        "3.10(c) 3.3(f)",
        "... then the yellow: two more, stays down, the green on",
        [*YELLOW_FREE, stroke(["green"], ["green"], nominated="green"), pot("yellow")],
        {"score": [18, 8], "break": 4, "ball_on": "green", "points_remaining": 25, "respotted": []},
    ),
    (
        "3.10(e)",
        "yellow on: the free ball (green) and the yellow potted: only the yellow scores, the green back",
        [*YELLOW_FREE, stroke(["green"], ["green", "yellow"], nominated="green")],
        {
            "score": [18, 6],
            "points": 2,
            "scored": ["yellow"],
            "respotted": ["green"],
            "ball_on": "green",
            "colours": ["green", "brown", "blue", "pink", "black"],
        },
    ),
    (
        "3.6 3.10(d)",
        "yellow on: the free ball and the yellow hit at once, the yellow potted: scores, stays down",
        [*YELLOW_FREE, stroke(["green", "yellow"], ["yellow"], nominated="green")],
        {"score": [18, 6], "foul": False, "points": 2, "respotted": [], "ball_on": "green"},
    ),
    (
        "3.10(b) 3.12(b)",
        "pink on, free ball black nominated: the pink hit first: six (the black has the pink's value)",
        [*PINK_FREE, stroke(["pink"], [], nominated="black")],
        {"score": [38, 7], "penalty": 6, "fouls": ["wrong_ball_first"], "striker": 0, "ball_on": "pink"},
    ),
    (
        "3.10(a)/(c)",
        "only pink and black: the black potted as the free ball: six, re-spotted, the pink still on",
        [*PINK_FREE, stroke(["black"], ["black"], nominated="black")],
        {
            "score": [32, 13],
            "points": 6,
            "respotted": ["black"],
            "ball_on": "pink",
            "break": 6,
            "points_remaining": 13,
            "snookers_required": [0, 1],
        },
    ),
    (
        "3.10 3.3(f) 3.4(a)",
        "... then the pink and the black: the frame ends, Ann 32-26",
        [*PINK_FREE, stroke(["black"], ["black"], nominated="black"), pot("pink"), pot("black")],
        {"score": [32, 26], "points": 7, "break": 19, "frame_over": True, "winner": 0},
    ),
    (
        "3.10(e)",
        "pink on: the free ball black and the pink potted together: six, the pink stays down, the black back",
        [*PINK_FREE, stroke(["black"], ["black", "pink"], nominated="black")],
        {"score": [32, 13], "points": 6, "scored": ["pink"], "respotted": ["black"], "ball_on": "black"},
    ),
    (
        "3.10(b) exception",
        "only pink and black: the free ball (black) may snooker the pink: no foul, Ann to play",
        [
            *PINK_FREE,
            stroke(
                ["black"],
                [],
                nominated="black",
                positions={
                    "after": {
                        "white": [CX, 2900.0],
                        "black": [CX, 2800.0],
                        "pink": list(SPOTS["pink"]),
                    }
                },
            ),
        ],
        {"score": [32, 7], "foul": False, "striker": 0, "ball_on": "pink"},
    ),
    (
        "3.10(b) 3.12(a)",
        "blue on: the free ball (pink) left snookering the blue: a foul of five, free ball to Ann",
        [
            *YELLOW18,
            pot("yellow"),
            pot("green"),
            pot("brown"),
            stroke(["pink"], free_ball=True),
            stroke(
                ["pink"],
                [],
                nominated="pink",
                positions={
                    "after": {
                        "white": [CX, 1300.0],
                        "pink": [CX, 1500.0],
                        "blue": list(SPOTS["blue"]),
                        "black": list(SPOTS["black"]),
                    }
                },
            ),
        ],
        {"score": [32, 6], "penalty": 5, "fouls": ["free_ball_snooker"], "striker": 0, "free_ball": True},
    ),
    # --- several fouls in one stroke; colours while a red is on ------------------------------------
    (
        "3.11(g) 3.12(b) 3.3(g) 3.7",
        "red on: a red potted, the cue ball in-off, the black forced off: seven; the red stays down",
        [M6, stroke(["red"], ["red"], cue_ball="potted", off_table=["black"])],
        {
            "score": [0, 7],
            "penalty": 7,
            "fouls": ["ball_off_table", "cue_ball_potted"],
            "reds": 5,
            "respotted": ["black"],
            "in_hand": True,
            "ball_on": "red",
            "striker": 1,
            "points_remaining": 67,
        },
    ),
    (
        "3.11(g) 3.12(b)",
        "red on: the pink hit first, the blue potted: six (the highest), the blue re-spotted",
        [M6, stroke(["pink"], ["blue"])],
        {
            "score": [0, 6],
            "penalty": 6,
            "fouls": ["wrong_ball_first", "potted_ball_not_on"],
            "respotted": ["blue"],
        },
    ),
    (
        "3.11(e) 3.12(b) 3.3(g)",
        "red on: a red hit, two reds and the black potted: seven, no score, the reds stay down",
        [M6, stroke(["red"], ["red", "red", "black"])],
        {
            "score": [0, 7],
            "points": 0,
            "penalty": 7,
            "reds": 4,
            "respotted": ["black"],
            "points_remaining": 59,
        },
    ),
    (
        "3.12(b) definitions",
        "after a red, the pink nominated, the black hit first: seven",
        [M6, pot("red"), nominate("pink"), safe("black")],
        {"score": [1, 7], "penalty": 7, "fouls": ["wrong_ball_first"], "ball_on": "red", "reds": 5},
    ),
    (
        "3.11(g) 3.12(b)",
        "after a red, the blue nominated, the pink hit first, the black potted: seven",
        [M6, pot("red"), nominate("blue"), stroke(["pink"], ["black"])],
        {"score": [1, 7], "penalty": 7, "fouls": ["potted_ball_not_on", "wrong_ball_first"]},
    ),
    (
        "3.12 definitions",
        "after a red, the green nominated, the yellow hit first: four (no value above four)",
        [M6, pot("red"), nominate("green"), safe("yellow")],
        {"score": [1, 4], "penalty": 4, "fouls": ["wrong_ball_first"]},
    ),
    (
        "3.12(b) not 3.12(d)",
        "after a red, the green nominated, a red hit first: four, not seven (a colour was nominated)",
        [M6, pot("red"), nominate("green"), safe("red")],
        {"score": [1, 4], "penalty": 4, "fouls": ["wrong_ball_first"]},
    ),
    (
        "3.12(d)",
        "after a red, nothing nominated, a red hit first: seven (reds in successive strokes)",
        [M6, pot("red"), safe("red")],
        {"score": [1, 7], "penalty": 7, "fouls": ["reds_in_successive_strokes"]},
    ),
    (
        "3.12(a) definitions",
        "after a red, the pink nominated, every ball missed: six (the nominated colour's value)",
        [M6, pot("red"), nominate("pink"), stroke([])],
        {"score": [1, 6], "penalty": 6, "fouls": ["missed_all_balls"], "break": 0},
    ),
    (
        "3.12(a) 3.11(e) 3.7",
        "after a red, the pink nominated, potted with the cue ball in-off: six, the pink re-spotted",
        [M6, pot("red"), nominate("pink"), stroke(["pink"], ["pink"], cue_ball="potted")],
        {
            "score": [1, 6],
            "penalty": 6,
            "points": 0,
            "respotted": ["pink"],
            "ball_on": "red",
            "in_hand": True,
        },
    ),
    (
        "3.12(a) definitions (nominated ball)",
        "after a red, nothing declared, the blue hit, in-off: five (the blue the obvious nomination)",
        [M6, pot("red"), stroke(["blue"], [], cue_ball="potted")],
        {"score": [1, 5], "penalty": 5, "fouls": ["cue_ball_potted"]},
    ),
    (
        "3.12(c)-(d)",
        "after a red, nothing declared, the yellow and the black hit at once: seven",
        [M6, pot("red"), stroke(["yellow", "black"])],
        {"score": [1, 7], "penalty": 7},
    ),
    # --- free ball while reds are on --------------------------------------------------------------
    (
        "3.3(e)-(f) 3.10(a)",
        "red on: the blue potted as a free ball (a red): one, the blue re-spotted, then a colour",
        [*RED_FREE, stroke(["blue"], ["blue"], nominated="blue")],
        {"score": [0, 8], "points": 1, "respotted": ["blue"], "ball_on": "colour", "points_remaining": 82},
    ),
    (
        "3.12(d)",
        "... then a red hit first: seven (a free ball as a red, then a red, in successive strokes)",
        [*RED_FREE, stroke(["blue"], ["blue"], nominated="blue"), safe("red")],
        {"score": [7, 8], "penalty": 7, "fouls": ["reds_in_successive_strokes"], "striker": 0},
    ),
    (
        "3.10(e) 3.3(e)",
        "red on: the free ball blue and a red potted: both score (reds on), the blue re-spotted",
        [*RED_FREE, stroke(["blue"], ["blue", "red"], nominated="blue")],
        {"score": [0, 9], "points": 2, "reds": 5, "respotted": ["blue"], "ball_on": "colour"},
    ),
    (
        "3.10(a) 3.12(b)",
        "red on: the free ball pink potted with the blue: five (the blue; the pink counts as a red)",
        [*RED_FREE, stroke(["pink"], ["pink", "blue"], nominated="pink")],
        {"score": [5, 7], "penalty": 5, "fouls": ["potted_ball_not_on"], "respotted": ["pink", "blue"]},
    ),
    (
        "3.10(a) 3.12(b)",
        "red on: the free ball (black) forced off the table: four (it has the red's value)",
        [*RED_FREE, stroke(["black"], [], nominated="black", off_table=["black"])],
        {"score": [4, 7], "penalty": 4, "fouls": ["ball_off_table"], "respotted": ["black"]},
    ),
    (
        "3.7(d) 3.10(e)",
        "red on: the free ball black and a red potted, the black spot taken: black to the pink spot",
        [
            *RED_FREE,
            stroke(
                ["black"],
                ["black", "red-3"],
                nominated="black",
                positions={
                    "after": {
                        "white": [400.0, 1000.0],
                        "red-1": list(SPOTS["black"]),
                        "pink": [600.0, 2400.0],
                        "blue": list(SPOTS["blue"]),
                    }
                },
            ),
        ],
        {
            "score": [0, 9],
            "points": 2,
            "ball_on": "colour",
            "respotted": [{"ball": "black", "position": list(SPOTS["pink"])}],
        },
    ),
    # --- the last red -----------------------------------------------------------------------------
    (
        "3.3(g) 3.3(f) 3.11",
        "the last red potted with the cue ball in-off: four, the red stays down, Ben on the yellow",
        [M6, *clear_reds(5), stroke(["red"], ["red"], cue_ball="potted")],
        {
            "score": [40, 4],
            "reds": 0,
            "ball_on": "yellow",
            "in_hand": True,
            "points_remaining": 27,
            "snookers_required": [0, 3],
            "striker": 1,
        },
    ),
    (
        "3.10(e) 3.3(f)",
        "last red: the free ball blue and the last red potted: two, then any colour (34 remaining)",
        [*LAST_RED_FREE, stroke(["blue"], ["blue", "red"], nominated="blue")],
        {"score": [40, 9], "reds": 0, "ball_on": "colour", "respotted": ["blue"], "points_remaining": 34},
    ),
    (
        "3.3(f)",
        "... then the black: re-spotted, the yellow on",
        [*LAST_RED_FREE, stroke(["blue"], ["blue", "red"], nominated="blue"), pot("black")],
        {"score": [40, 16], "break": 9, "ball_on": "yellow", "respotted": ["black"], "points_remaining": 27},
    ),
    (
        "3.10(a) 3.3(f)",
        "last red: the free ball blue potted alone: one, a colour, then the last red still on",
        [*LAST_RED_FREE, stroke(["blue"], ["blue"], nominated="blue"), pot("black")],
        {"score": [40, 15], "reds": 1, "ball_on": "red", "points_remaining": 35},
    ),
    (
        "3.10(d)",
        "last red: the free ball hit first, the last red potted: one, then a colour",
        [*LAST_RED_FREE, stroke(["blue"], ["red"], nominated="blue")],
        {"score": [40, 8], "scored": ["red"], "reds": 0, "ball_on": "colour", "respotted": []},
    ),
    (
        "3.12(d) 3.3(f)",
        "the last red potted, then every ball missed before a colour was nominated: seven, the yellow on",
        [M6, *clear_reds(5), pot("red"), stroke([])],
        {"score": [41, 7], "penalty": 7, "ball_on": "yellow", "reds": 0, "points_remaining": 27},
    ),
    (
        "3.12(a) 3.3(f)",
        "the last red potted, the yellow nominated, every ball missed: four, the yellow on",
        [M6, *clear_reds(5), pot("red"), nominate("yellow"), stroke([])],
        {"score": [41, 4], "penalty": 4, "fouls": ["missed_all_balls"], "ball_on": "yellow"},
    ),
    # --- miss chains, needing snookers, touching balls, play again ----------------------------------
    (
        "3.14(b)",
        "yellow on, Ann 48 ahead (Ben needs snookers): Ann misses with a full ball open: no miss",
        [M6, *clear_reds(6), stroke([], **FULL)],
        {"score": [48, 4], "miss": False, "options": ["play", "play_again"], "snookers_required": [0, 5]},
    ),
    (
        "3.14(b)",
        "green on, Ann 20-0: Ben's first miss (a line open, no full ball) is a miss: 24 vs 25 left",
        [*GREEN20_BEN, stroke([], **LINE_ONLY)],
        {"score": [24, 0], "miss": True, "options": ["play", "play_again", "replace"], "warning": False},
    ),
    (
        "3.14(b)",
        "... replaced; the second leaves Ben 28-0 behind with 25 left: he needs snookers: no miss",
        [*GREEN20_BEN, stroke([], **LINE_ONLY), decision("replace"), stroke([], **LINE_ONLY)],
        {
            "score": [28, 0],
            "miss": False,
            "options": ["play", "play_again"],
            "warning": False,
            "snookers_required": [0, 1],
            "announcements": ["FOUL", "FOUR AWAY"],
        },
    ),
    (
        "3.14(c)",
        "the same with a full ball open: the second is a miss whatever the score",
        [*GREEN20_BEN, stroke([], **FULL), decision("replace"), stroke([], **FULL)],
        {"score": [28, 0], "miss": True, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(c)",
        "... replaced with the warning; the third full-ball miss awards the frame to Ann",
        [
            *GREEN20_BEN,
            stroke([], **FULL),
            decision("replace"),
            stroke([], **FULL),
            decision("replace"),
            stroke([], **FULL),
        ],
        {"score": [32, 0], "miss": True, "frame_over": True, "winner": 0},
    ),
    (
        "3.14(c) 3.10",
        "red on: Ben misses the nominated free ball (full ball open): miss; replaced, the free ball again",
        [*RED_FREE, stroke([], nominated="pink", **FULL), decision("replace")],
        {
            "score": [4, 7],
            "striker": 1,
            "free_ball": True,
            "ball_on": "red",
            "points_remaining": 83,
            "announcements": ["BALLS REPLACED"],
        },
    ),
    (
        "3.14(c) 3.10",
        "... missed again from the same free-ball position: a second miss with the warning",
        [
            *RED_FREE,
            stroke([], nominated="pink", **FULL),
            decision("replace"),
            stroke([], nominated="pink", **FULL),
        ],
        {
            "score": [8, 7],
            "miss": True,
            "warning": False,
            "warning_due": True,
            "options": ["play", "play_again", "replace"],
        },
    ),
    (
        "3.10(f) 3.13",
        "red on: Ben asks Ann to play again after her foul: the free ball lapses",
        [*RED_FREE, decision("play_again")],
        {"score": [0, 7], "striker": 0, "free_ball": False, "points_remaining": 75},
    ),
    (
        "3.10(f) 3.13(b)",
        "... Ann pots the pink as if a free ball: six (it has lapsed)",
        [*RED_FREE, decision("play_again"), pot("pink")],
        {"score": [0, 13], "penalty": 6, "striker": 1},
    ),
    (
        "3.13(b)",
        "... Ann pots a red instead: it scores, she is on a colour",
        [*RED_FREE, decision("play_again"), pot("red")],
        {"score": [1, 7], "points": 1, "break": 1, "ball_on": "colour", "striker": 0},
    ),
    (
        "3.8(c) 3.10",
        "red on: Ann's foul leaves the cue ball touching a red: touching ball; Ben plays away, hits nothing",
        [M6, stroke(["black"], [], touching=["red"]), stroke([])],
        {"score": [0, 7], "foul": False, "striker": 0, "ball_on": "red"},
    ),
    (
        "3.8(c) 3.13",
        "... Ann asked to play again plays away from the touching red: no foul, Ben to play",
        [M6, stroke(["black"], [], touching=["red"]), decision("play_again"), stroke([])],
        {"score": [0, 7], "foul": False, "striker": 1},
    ),
    (
        "3.8(d) 3.14(b)",
        "red on: the cue ball touching the blue (not on); Ben plays away and hits nothing, a line open: miss",
        [M6, safe("red", touching=["blue"]), stroke([], clear_path=True)],
        {"score": [4, 0], "miss": True, "penalty": 4, "fouls": ["missed_all_balls"]},
    ),
    (
        "3.8(c) 3.10",
        "yellow on: the cue ball left touching the yellow: Ben plays away hitting nothing: no foul",
        [*YELLOW18, safe("yellow", touching=["yellow"]), stroke([])],
        {"score": [18, 0], "foul": False, "striker": 0, "ball_on": "yellow"},
    ),
    (
        "3.14(d)",
        "two full-ball misses, the warning; Ann touches the pink preparing: six, no miss, warning kept",
        [
            M6,
            safe("red"),
            safe("red"),
            stroke([], **FULL),
            decision("replace"),
            stroke([], **FULL),
            decision("replace"),
            foul("touched_ball", "pink"),
        ],
        {
            "score": [0, 14],
            "penalty": 6,
            "miss": False,
            "warning": True,
            "options": ["play", "play_again", "replace"],
        },
    ),
    # --- more composites: free balls with touching balls, play again, out of turn, joins ----------
    (
        "3.10 definitions",
        "pink on, free ball: 13 + 6 remaining; Ben 25 behind needs one snooker (at six)",
        PINK_FREE,
        {"points_remaining": 19, "snookers_required": [0, 1], "free_ball": True},
    ),
    (
        "3.10(b) 3.12(b)",
        "yellow on, free ball green nominated: the yellow hit first and potted: four, the yellow re-spotted",
        [*YELLOW_FREE, stroke(["yellow"], ["yellow"], nominated="green")],
        {"score": [22, 4], "penalty": 4, "respotted": ["yellow"], "ball_on": "yellow", "striker": 0},
    ),
    (
        "3.10(e)",
        "yellow on, free ball black nominated, the black and the yellow potted: two, the black re-spotted",
        [*YELLOW_FREE, stroke(["black"], ["black", "yellow"], nominated="black")],
        {"score": [18, 6], "points": 2, "respotted": ["black"], "ball_on": "green"},
    ),
    (
        "3.10(b) 3.3(g)",
        "red on, free ball blue: a red hit first, the blue and a red potted: four, the red stays down",
        [*RED_FREE, stroke(["red"], ["blue", "red"], nominated="blue")],
        {"score": [4, 7], "penalty": 4, "reds": 5, "respotted": ["blue"], "striker": 0},
    ),
    (
        "3.12(c) 3.10(a)",
        "red on, free ball pink: the pink and the black hit at once: seven",
        [*RED_FREE, stroke(["pink", "black"], [], nominated="pink")],
        {"score": [7, 7], "penalty": 7, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.6 3.10(e)",
        "red on, free ball blue: the blue and a red hit at once, both potted: two",
        [*RED_FREE, stroke(["blue", "red"], ["blue", "red"], nominated="blue")],
        {"score": [0, 9], "foul": False, "points": 2, "reds": 5, "ball_on": "colour"},
    ),
    (
        "3.12(d)",
        "red on: the free ball potted as a red, then every ball missed before a colour is nominated: seven",
        [*RED_FREE, stroke(["blue"], ["blue"], nominated="blue"), stroke([])],
        {"score": [7, 8], "penalty": 7},
    ),
    (
        "3.12(a) 3.10(a)",
        "red on: the free ball pink potted as a red, the green nominated, every ball missed: four",
        [*RED_FREE, pot("pink"), nominate("green"), stroke([])],
        {"score": [4, 8], "penalty": 4, "fouls": ["missed_all_balls"]},
    ),
    (
        "3.10 3.3(f)",
        "red on: the free ball pink potted as a red, then the pink as the colour: seven in the break",
        [*RED_FREE, pot("pink"), pot("pink")],
        {"score": [0, 14], "break": 7, "ball_on": "red", "respotted": ["pink"]},
    ),
    (
        "3.10(a) 3.12(b)",
        "yellow on, free ball black nominated, touched with a sleeve: four (it has the yellow's value)",
        [*YELLOW_FREE, nominate("black"), foul("touched_ball", "black")],
        {"score": [22, 4], "penalty": 4, "striker": 0},
    ),
    (
        "3.8(c) 3.10(a)",
        "red on, free ball: the cue ball touching the pink; the pink nominated, played away: no foul",
        [M6, stroke(["black"], [], free_ball=True, touching=["pink"]), stroke([], nominated="pink")],
        {"score": [0, 7], "foul": False, "striker": 0},
    ),
    (
        "3.8(d) 3.10",
        "... the pink not nominated, played away hitting nothing: four",
        [M6, stroke(["black"], [], free_ball=True, touching=["pink"]), stroke([])],
        {"score": [4, 7], "penalty": 4, "fouls": ["missed_all_balls"]},
    ),
    (
        "3.8(d) 3.12(a)",
        "after a red, the cue ball touching the blue; the pink nominated, played away hitting nothing: six",
        [M6, pot("red", touching=["blue"]), nominate("pink"), stroke([])],
        {"score": [1, 6], "penalty": 6, "fouls": ["missed_all_balls"]},
    ),
    (
        "3.8(b) 3.12(b)",
        "after a red, the cue ball touching a red; the black nominated, the red moved: a push, seven",
        [M6, pot("red", touching=["red"]), stroke(["black"], [], nominated="black", fouls=["push_stroke"])],
        {"score": [1, 7], "penalty": 7, "fouls": ["push_stroke"]},
    ),
    (
        "3.8(b) 3.12(b)",
        "pink on, the cue ball touching the black: a push moving it: seven",
        [*PINK32, safe("pink", touching=["black"]), stroke(["pink"], [], fouls=["push_stroke"])],
        {"score": [39, 0], "penalty": 7, "ball_on": "pink"},
    ),
    (
        "3.12(a)",
        "pink on: Ben plays out of turn: six, Ann to play",
        [*PINK32, stroke(["pink"], [], player=1)],
        {"score": [38, 0], "penalty": 6, "fouls": ["out_of_turn"], "offender": 1, "striker": 0},
    ),
    (
        "3.12(a)-(b) 3.3(f)",
        "after a red, the black nominated: Ben strikes out of turn, hitting a red: seven to Ann",
        [M6, pot("red"), nominate("black"), stroke(["red"], [], player=1)],
        {"score": [8, 0], "penalty": 7, "offender": 1, "striker": 0},
    ),
    (
        "3.12(b)",
        "after a red, the pink nominated, the yellow touched with a sleeve: six",
        [M6, pot("red"), nominate("pink"), foul("touched_ball", "yellow")],
        {"score": [1, 6], "penalty": 6},
    ),
    (
        "3.12(b) 3.3(g)",
        "after a red, the black nominated and potted with a red: seven, the red stays down",
        [M6, pot("red"), nominate("black"), stroke(["black"], ["black", "red"])],
        {"score": [1, 7], "penalty": 7, "reds": 4, "respotted": ["black"]},
    ),
    (
        "3.12(d)",
        "after a red, failing to declare the ball on when asked: seven",
        [M6, pot("red"), foul("failed_to_declare")],
        {"score": [1, 7], "penalty": 7},
    ),
    (
        "3.12(a)",
        "after a red, the blue nominated, the cue ball in-off hitting nothing: five",
        [M6, pot("red"), nominate("blue"), stroke([], [], cue_ball="potted")],
        {"score": [1, 5], "penalty": 5},
    ),
    (
        "3.12(b) 3.7",
        "pink on: the pink potted and the black forced off: seven, both re-spotted, the pink on",
        [*PINK32, stroke(["pink"], ["pink"], off_table=["black"])],
        {"score": [32, 7], "penalty": 7, "respotted": ["black", "pink"], "ball_on": "pink"},
    ),
    (
        "3.4(a) 3.12(b)",
        "only the black left: the black forced off the table: seven, the frame ends",
        [*BLACK38, stroke(["black"], [], off_table=["black"])],
        {"score": [38, 7], "penalty": 7, "frame_over": True, "winner": 0, "respotted": []},
    ),
    (
        "3.3(f) 3.7",
        "the last red, then the yellow with nothing declared: two, the yellow re-spotted and on",
        [M6, *clear_reds(5), pot("red"), pot("yellow")],
        {"score": [43, 0], "points": 2, "respotted": ["yellow"], "ball_on": "yellow", "break": 43},
    ),
    (
        "3.3(g) 3.10",
        "the last red potted, the cue ball in-off, Ben snookered: free ball on the yellow, 29 remaining",
        [M6, *clear_reds(5), stroke(["red"], ["red"], cue_ball="potted", free_ball=True)],
        {
            "score": [40, 4],
            "ball_on": "yellow",
            "free_ball": True,
            "points_remaining": 29,
            "snookers_required": [0, 2],
        },
    ),
    (
        "3.12(b) 3.10",
        "the last red, the black nominated, the yellow hit first: seven; free ball on the yellow",
        [M6, *clear_reds(5), pot("red"), nominate("black"), stroke(["yellow"], [], free_ball=True)],
        {"score": [41, 7], "penalty": 7, "ball_on": "yellow", "free_ball": True, "points_remaining": 29},
    ),
    (
        "3.12(d) 3.10",
        "last red: the free ball and the last red potted, then all missed undeclared: seven, yellow on",
        [*LAST_RED_FREE, stroke(["blue"], ["blue", "red"], nominated="blue"), stroke([])],
        {"score": [47, 9], "penalty": 7, "ball_on": "yellow"},
    ),
    (
        "3.7(d) 3.10",
        "red on: a foul potting the pink; the pink re-spotted between the cue ball and the red: free ball",
        [M6, stroke(["red"], ["pink"], positions={"after": {"white": [CX, 2400.0], "red-1": [CX, 2950.0]}})],
        {
            "score": [0, 6],
            "respotted": [{"ball": "pink", "position": list(SPOTS["pink"])}],
            "free_ball": True,
            "announcements": ["FOUL", "SIX AWAY", "FREE BALL"],
        },
    ),
    (
        "3.7(d)-(e)",
        "red on: black and pink potted in a foul, only the black spot taken: pink home, black to blue spot",
        [
            M6,
            stroke(
                ["red"],
                ["black", "pink"],
                positions={
                    "after": {
                        "white": [400.0, 1000.0],
                        "red-1": list(SPOTS["black"]),
                        "blue": [300.0, 1500.0],
                    }
                },
            ),
        ],
        {
            "penalty": 7,
            "respotted": [
                {"ball": "black", "position": list(SPOTS["blue"])},
                {"ball": "pink", "position": list(SPOTS["pink"])},
            ],
        },
    ),
    (
        "3.14(a) 3.10",
        "a miss that leaves Ben snookered: free ball and the replacement both open",
        [M6, safe("red"), safe("red"), stroke([], free_ball=True, **FULL)],
        {
            "score": [0, 4],
            "miss": True,
            "free_ball": True,
            "options": ["play", "play_again", "replace"],
            "points_remaining": 83,
            "announcements": ["FOUL AND A MISS", "FOUR AWAY", "FREE BALL"],
        },
    ),
    (
        "3.14(a) 3.10(f)",
        "... Ben has the balls replaced: Ann plays again, no free ball",
        [M6, safe("red"), safe("red"), stroke([], free_ball=True, **FULL), decision("replace")],
        {"score": [0, 4], "striker": 0, "free_ball": False, "points_remaining": 75},
    ),
    (
        "3.14(a) 3.3(g)",
        "a miss potting a red (the blue hit first): replaced, the red back on the table",
        [M6, safe("red"), safe("red"), stroke(["blue"], ["red"], **FULL), decision("replace")],
        {"score": [0, 5], "reds": 6, "striker": 0},
    ),
    (
        "3.14(a)",
        "after a red, the pink nominated and missed: replaced, Ann on any colour again; then the black",
        [M6, pot("red"), nominate("pink"), stroke([], **FULL), decision("replace"), pot("black")],
        {"score": [8, 6], "points": 7, "break": 7, "ball_on": "red"},
    ),
    (
        "3.14(c)",
        "a miss, Ben plays on, then Ben misses: a new count (no warning)",
        [M6, safe("red"), safe("red"), stroke([], **FULL), decision("play"), stroke([], **FULL)],
        {"score": [4, 4], "miss": True, "warning": False},
    ),
    (
        "3.14(c)",
        "a miss, replaced; Ann hits a red but pots the blue: a foul, not a miss; no replacement open",
        [M6, safe("red"), safe("red"), stroke([], **FULL), decision("replace"), stroke(["red"], ["blue"])],
        {"score": [0, 9], "penalty": 5, "miss": False, "options": ["play", "play_again"]},
    ),
    (
        "3.14(c) 3.13",
        "a miss, Ann asked to play again from where the balls lie, misses, replaced, misses: two, not three",
        [
            M6,
            safe("red"),
            safe("red"),
            stroke([], **FULL),
            decision("play_again"),
            stroke([], **FULL),
            decision("replace"),
            stroke([], **FULL),
        ],
        {"score": [0, 12], "miss": True, "warning": False, "warning_due": True, "frame_over": False},
    ),
    (
        "3.14(d)",
        "a line-only miss, replaced, a foul preparing the replay: six, no miss, the replacement open",
        [*GREEN20_BEN, stroke([], **LINE_ONLY), decision("replace"), foul("touched_ball", "pink")],
        {"score": [30, 0], "penalty": 6, "miss": False, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(d) 3.14(c)",
        "two misses and the warning, a foul preparing, replaced: the next failure awards the frame",
        [
            M6,
            safe("red"),
            safe("red"),
            stroke([], **FULL),
            decision("replace"),
            stroke([], **FULL),
            decision("replace"),
            foul("touched_ball", "pink"),
            decision("replace"),
            stroke([], **FULL),
        ],
        {"score": [0, 18], "frame_over": True, "winner": 1},
    ),
    (
        "3.14(d) 3.14(c)",
        "one miss, a foul preparing the replay, replaced, then a miss: the second of the chain (warning)",
        [
            M6,
            safe("red"),
            safe("red"),
            stroke([], **FULL),
            decision("replace"),
            foul("touched_ball", "pink"),
            decision("replace"),
            stroke([], **FULL),
        ],
        {"score": [0, 14], "miss": True, "warning": False, "warning_due": True, "frame_over": False},
    ),
    (
        "3.14(b)",
        "pink on, Ben 25 behind with a free ball (19 left): he misses everything: no miss, six",
        [*PINK_FREE, stroke([], nominated="black", **FULL)],
        {"score": [38, 7], "miss": False, "penalty": 6},
    ),
    (
        "3.14(b)",
        "yellow on, Ben 48 behind (needs snookers before the stroke) misses: no miss",
        [M6, *clear_reds(6), safe("yellow"), stroke([], **FULL)],
        {"score": [52, 0], "miss": False, "snookers_required": [0, 7]},
    ),
    (
        "3.17(c)",
        "four-handed: Ben fouls, Cat asks him to play again; after his safety Cat plays",
        [match(players=4, reds=6), safe("red"), stroke([]), decision("play_again"), safe("red")],
        {"score": [4, 0], "striker": 2},
    ),
    (
        "3.4(a) 3.2(b)",
        "only the black left: Ben (not striking) touches the black: seven to Ann, the frame ends",
        [*BLACK_40_33, foul("touched_ball", "black", player=1)],
        {"score": [47, 33], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(b) 3.12(a)",
        "re-spotted black: Ben first by lot, Ann strikes out of turn: seven to Ben, frame to Ben",
        [*RESPOT, lot(1), stroke(["black"], [], player=0)],
        {"score": [40, 47], "fouls": ["out_of_turn"], "frame_over": True, "winner": 1},
    ),
    (
        "3.4(b) 3.2(b)",
        "re-spotted black: Ann, not striking, touches the black: frame to Ben",
        [*RESPOT, lot(1), foul("touched_ball", "black", player=0)],
        {"score": [40, 47], "frame_over": True, "winner": 1},
    ),
    (
        "3.4(a)",
        "a frame joined on the last black, Ann 33-40: she pots it: 40-40, re-spotted black",
        [M6, table(reds=0, colours=["black"], ball_on="black", score=[33, 40], striker=0), pot("black")],
        {"score": [40, 40], "respotted_black": True, "announcements": ["SEVEN", "RE-SPOTTED BLACK"]},
    ),
    (
        "3.3(f) join",
        "joined, no red left, every colour on, ball on unknown: the black potted counts (after last red)",
        [M6, table(reds=0, score=[30, 20], striker=1), pot("black")],
        {"score": [30, 27], "respotted": ["black"], "ball_on": "yellow"},
    ),
    (
        "3.14(b) definitions",
        "green on (25 left): Ben's miss leaves him exactly 25 behind: he does not need snookers: a miss",
        [
            M6,
            table(reds=0, colours=GREEN_UP, ball_on="green", score=[21, 0], striker=1),
            stroke([], **LINE_ONLY),
        ],
        {"score": [25, 0], "miss": True, "snookers_required": [0, 0]},
    ),
    (
        "3.14(b) definitions",
        "... 26 behind after it: he needs snookers as a result of the stroke: no miss",
        [
            M6,
            table(reds=0, colours=GREEN_UP, ball_on="green", score=[22, 0], striker=1),
            stroke([], **LINE_ONLY),
        ],
        {"score": [26, 0], "miss": False, "snookers_required": [0, 1], "options": ["play", "play_again"]},
    ),
    (
        "3.7(d) 3.10(e)",
        "yellow on: free ball green and yellow potted, the cue ball on the green spot: green to yellow spot",
        [
            *YELLOW_FREE,
            stroke(
                ["green"],
                ["green", "yellow"],
                nominated="green",
                positions={
                    "after": {
                        "white": list(SPOTS["green"]),
                        "black": list(SPOTS["black"]),
                        "pink": list(SPOTS["pink"]),
                        "blue": list(SPOTS["blue"]),
                        "brown": list(SPOTS["brown"]),
                    }
                },
            ),
        ],
        {
            "points": 2,
            "ball_on": "green",
            "respotted": [{"ball": "green", "position": list(SPOTS["yellow"])}],
        },
    ),
    (
        "3.7(d) 3.10(c)",
        "pink on: the free ball black potted, the cue ball on the black spot: the black to the blue spot",
        [
            *PINK_FREE,
            stroke(
                ["black"],
                ["black"],
                nominated="black",
                positions={"after": {"white": list(SPOTS["black"]), "pink": list(SPOTS["pink"])}},
            ),
        ],
        {"points": 6, "ball_on": "pink", "respotted": [{"ball": "black", "position": list(SPOTS["blue"])}]},
    ),
    (
        "3.14(b)-(c) 3.14(a)",
        "misses judged from where the last stroke left the balls (a red in full view): three award the frame",
        [
            *OPEN_RED,
            stroke([]),
            decision("replace"),
            stroke([]),
            decision("replace"),
            stroke([]),
        ],
        {"score": [0, 12], "miss": True, "frame_over": True, "winner": 1},
    ),
    (
        "3.14(b)-(c)",
        "the red half hidden by the pink (a line to part of it, no full ball): three misses, no award",
        [
            *HALF_HIDDEN_RED,
            stroke([]),
            decision("replace"),
            stroke([]),
            decision("replace"),
            stroke([]),
        ],
        {"score": [0, 12], "miss": True, "warning": False, "frame_over": False},
    ),
    (
        "3.8(d) 3.14(a)-(c)",
        "the cue ball touching the blue (not on): a miss, replaced touching it again, a second miss: warning",
        [
            M6,
            safe("red"),
            safe("red", touching=["blue"]),
            stroke([], **FULL),
            decision("replace"),
            stroke([], **FULL),
        ],
        {"score": [0, 8], "miss": True, "warning": False, "warning_due": True},
    ),
    (
        "3.14(c) 3.10",
        "three full-ball misses of the nominated free ball from the same position: frame to Ann",
        [
            *RED_FREE,
            stroke([], nominated="pink", **FULL),
            decision("replace"),
            stroke([], nominated="pink", **FULL),
            decision("replace"),
            stroke([], nominated="pink", **FULL),
        ],
        {"score": [12, 7], "frame_over": True, "winner": 0},
    ),
    (
        "3.14(a) 3.10(a)",
        "a second miss leaving Ben snookered; he plays on and pots the pink as a free ball: one",
        [
            M6,
            safe("red"),
            safe("red"),
            stroke([], **FULL),
            decision("replace"),
            stroke([], free_ball=True, **FULL),
            decision("play"),
            stroke(["pink"], ["pink"], nominated="pink"),
        ],
        {"score": [0, 9], "points": 1, "ball_on": "colour", "warning": False, "respotted": ["pink"]},
    ),
]


@over_checklist(CHECKLIST)
def test_thirteenth_audit(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


def test_two_colours_respotted_on_occupied_spots_higher_value_first() -> None:
    """3.7(d)-(f): the black and the pink potted in a foul with both their spots taken by reds: the black
    (higher value, 3.7(e)) goes to the highest free spot (the blue's, the blue being elsewhere), then
    every spot is taken, so the pink goes as near its own spot as it can towards the top cushion,
    touching no ball (3.7(f), (h)): just above the red on its spot."""
    after = {
        "white": [400.0, 1000.0],
        "red-1": list(SPOTS["black"]),
        "red-2": list(SPOTS["pink"]),
        "blue": [300.0, 1500.0],
        "brown": list(SPOTS["brown"]),
        "green": list(SPOTS["green"]),
        "yellow": list(SPOTS["yellow"]),
    }
    ruling = last([M6, stroke(["red"], ["black", "pink"], positions={"after": after})])
    assert ruling["penalty"] == 7
    black, pink = ruling["respotted"]
    assert black == {"ball": "black", "position": list(SPOTS["blue"])}
    assert pink["ball"] == "pink"
    assert pink["position"][0] == pytest.approx(SPOTS["pink"][0])
    # As near its spot as it goes touching no ball: just above the red (the referee keeps a gap of a
    # millimetre or so, GeometryConfig.touch_tolerance_mm and placement_gap_mm).
    assert SPOTS["pink"][1] + DIAMETER < pink["position"][1] <= SPOTS["pink"][1] + DIAMETER + 2.0


def test_a_colour_nominated_by_a_striker_on_a_red_is_refused() -> None:
    """3.3(e), 3.10(a): on a red without a free ball there is nothing to nominate; a stroke that says
    it nominated the blue is refused and leaves the state as it was (CONTRACTS.md §2)."""
    rulings = rule([M6, stroke(["blue"], ["blue"], nominated="blue"), pot("red")])
    assert "error" in rulings[1]
    assert rulings[2]["score"] == [1, 0] and rulings[2]["ball_on"] == "colour"
