"""A tenth audit of the referee against Section 3 (/work/shared/rules), for combinations the nine
earlier audits (tests/referee/test_referee_*audit*.py) did not take.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling), worked out by hand
from the texts (section3-rules-pl.txt authoritative, -zh.txt and RULES-EN.md alongside), not from
the referee's output. Scores are [Ann, Ben]. The first row failed on the code before: a stroke
by the offender that starts from the balls put back was taken as "play again from where they lie";
and so did the 3.14(d) row with no line open (a replacement was offered after any replayed stroke).
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import assert_last_ruling, clear_reds, match, pot, safe, stroke
from test_referee_audit import (
    FREE_ON_RED,
    ON_COLOUR,
    ON_YELLOW,
    PLAY_AGAIN,
    REPLACE,
    TIE,
    foul,
    nominate,
)

from snooker.calibration.table import STANDARD_TABLE

CX = STANDARD_TABLE.centre_x_mm
SPOTS = STANDARD_TABLE.spots
FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""


def spots(*colours: str) -> dict[str, list[float]]:
    return {c: list(SPOTS[c]) for c in colours}


ALL_COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")

# --- positions ----------------------------------------------------------------------------------
# One red left (a table line joins a frame in play: 0-0, Ann to play, on a colour after a red).
# The cue ball below the blue on the centre line, the pink (and black) straight behind the blue.
WHITE_BELOW_BLUE = [CX, 1500.0]
RED_FAR_RIGHT = [CX + 600.0, 2900.0]
"""In plain view from WHITE_BELOW_BLUE (far off the centre line)."""
RED_BEHIND_BLUE = [CX, 2200.0]
"""Straight behind the blue as seen from WHITE_BELOW_BLUE: wholly hidden by it."""


def one_red_table(red: list[float], white: list[float] = WHITE_BELOW_BLUE, ball_on: str = "colour") -> dict:
    positions = {"white": white, "red-1": red, **spots(*ALL_COLOURS)}
    return {
        "type": "table",
        "reds": 1,
        "ball_on": ball_on,
        "positions": positions,
        "score": [10, 10],
        "striker": 0,
    }


def after(red: list[float], white: list[float] = WHITE_BELOW_BLUE) -> dict:
    return {"after": {"white": white, "red-1": red, **spots(*ALL_COLOURS)}}


# The cue ball in baulk, one red far up the table: a red in plain view (for replaced misses).
WHITE_START = (CX, 600.0)
WHITE_AFTER_MISS = (CX + 400.0, 1500.0)


def places(white: tuple[float, float]) -> dict[str, list[float]]:
    return {"white": list(white), "red-1": [CX, 2800.0]}


def miss_from(start: tuple[float, float], **extra: Any) -> dict[str, Any]:
    """A stroke from ``start`` that hits nothing with a full ball open, leaving the white elsewhere."""
    positions = {"before": places(start), "after": places(WHITE_AFTER_MISS)}
    return stroke([], [], positions=positions, **FULL, **extra)


ANN_SAFE_LEAVES_BEN = [match(), safe("red", positions={"after": places(WHITE_START)})]
"""Ann breaks safe and leaves the white at WHITE_START: Ben to play, on a red."""

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # --- 3.14(c): three failures from the same position --------------------------------------------
    # 3.14(c): "jeśli zostanie nakazana gra z pozycji poprzedniej, faulujący musi być
    # ostrzeżony ... że trzeci taki faul spowoduje przyznanie frejmu przeciwnikowi"; 3.14(a): the
    # offender plays "z pozycji ... poprzedniej" only by replacement. A person logging each stroke's
    # player (Ben = 1) but no decision line: each of Ben's strokes starts from WHITE_START, where only a
    # replacement puts the white back (the misses left it at WHITE_AFTER_MISS, 1 m away), so Ann had
    # the balls replaced each time: three failures from the same position with a full ball open, the
    # frame to Ann (0 side). Ann 12 (three fours).
    (
        "3.14(a)/(c)",
        "three full-ball misses, each from the replaced white and naming Ben: the frame to Ann",
        [
            *ANN_SAFE_LEAVES_BEN,
            miss_from(WHITE_START, player=1),
            miss_from(WHITE_START, player=1),
            miss_from(WHITE_START, player=1),
        ],
        {"score": [12, 0], "frame_over": True, "winner": 0},
    ),
    # The same with decision lines (the control): replace, replace: the frame to Ann.
    (
        "3.14(a)/(c)",
        "control: three full-ball misses, the balls replaced by decision: the frame to Ann",
        [
            *ANN_SAFE_LEAVES_BEN,
            miss_from(WHITE_START),
            REPLACE,
            miss_from(WHITE_START),
            REPLACE,
            miss_from(WHITE_START),
        ],
        {"score": [12, 0], "frame_over": True, "winner": 0},
    ),
    # 3.14(c) with 3.14(a)(iii): after a red, each replacement gives "a colour of his choice"; three
    # failures from the same position (a different colour named each time) still award the frame.
    # Ann 1 (the red); Ben 7 + 5 + 6 (black, blue, pink named and missed, each the nominated value).
    (
        "3.14(a)(iii)/(c)",
        "after a red, three full-ball misses naming the black, the blue, the pink: the frame to Ben",
        [
            *ON_COLOUR,
            stroke([], nominated="black", **FULL),
            REPLACE,
            stroke([], nominated="blue", **FULL),
            REPLACE,
            stroke([], nominated="pink", **FULL),
        ],
        {"score": [1, 18], "frame_over": True, "winner": 1},
    ),
    # 3.9(b)(i) during the replays: after two misses (the warning) and a replacement, Ann's stroke
    # hits a red while another red falls from the pocket's edge: no foul, balls replaced, Ann plays
    # again from the same position; her failure there is the third, the frame to Ben.
    (
        "3.9(b)/3.14(c)",
        "a no-foul fall from the edge between the second and third misses: the third still awards the frame",
        [
            match(),
            stroke([], **FULL),
            REPLACE,
            stroke([], **FULL),
            REPLACE,
            stroke(["red"], fell_from_edge=["red"]),
            stroke([], **FULL),
        ],
        {"score": [0, 12], "frame_over": True, "winner": 1},
    ),
    # 3.14(d) with 3.10: Ben (free ball) misses with a full ball open: foul and a miss (four, the free
    # ball's value is the red's); Ann has the balls replaced: Ben again, his free ball restored (3.14(a):
    # the same ball on). Ben touches a ball while preparing (no stroke): four, no miss; Ann may have
    # the balls replaced again: Ben once more with his free ball. Ann 8, Ben 7.
    (
        "3.14(d)/3.10",
        "free ball missed and replaced, a foul while preparing, replaced again: Ben again with his free ball",
        [*FREE_ON_RED, stroke([], nominated="pink", **FULL), REPLACE, foul("touched_ball", "red"), REPLACE],
        {"score": [8, 7], "striker": 1, "free_ball": True, "ball_on": "red"},
    ),
    # 3.14(d) reads "Jeżeli bila biała zostanie ustawiona w pozycji poprzedniej na podstawie przepisu
    # zakładającego, że możliwe jest trafienie w linii prostej ..." (a replacement under 3.14(b), a
    # line to a ball on open). A miss called with no such line (the referee's judgement, 3.14(a)),
    # replaced, then a foul while preparing: an ordinary foul, no second replacement offered (it was
    # before). With the line open the replacement is offered (the control). Ann 4 + 4, Ben 0.
    (
        "3.14(d)",
        "a miss with no line open, replaced, a foul while preparing: no replacement offered",
        [match(), safe("red"), stroke([], miss=True, clear_path=False), REPLACE, foul("touched_ball", "red")],
        {"score": [8, 0], "miss": False, "options": ["play", "play_again"]},
    ),
    (
        "3.14(d)",
        "control: a miss with a line open, replaced, a foul while preparing: replacement offered",
        [match(), safe("red"), stroke([], miss=True, clear_path=True), REPLACE, foul("touched_ball", "red")],
        {"score": [8, 0], "miss": False, "options": ["play", "play_again", "replace"]},
    ),
    # --- 3.8: touching ball ---------------------------------------------------------------------------
    # 3.8(a)/(e): after potting a red the cue ball rests against a red (not on) and the blue (can be
    # on): only the blue is named.
    (
        "3.8(a)/(e)",
        "after a red, the cue ball against a red and the blue: only the blue named",
        [match(), pot("red", touching=["red", "blue"])],
        {"touching": ["blue"], "ball_on": "colour"},
    ),
    # 3.8(c)(ii) with 3.10 on the colours: yellow on, free ball, the cue ball against the green,
    # nominated as the free ball and played away, nothing else hit: no foul (it counts as hit), Ann to
    # play. FREE_ON_YELLOW-like: Ann 48, Ben 4.
    (
        "3.8(c)(ii)/3.10",
        "yellow on, free ball green nominated, touching, played away: no foul",
        [*ON_YELLOW, stroke([], free_ball=True, touching=["green"]), nominate("green"), stroke([])],
        {"foul": False, "score": [48, 4], "striker": 0, "ball_on": "yellow"},
    ),
    # --- 3.10 with 3.12: a ball forced off in a free-ball stroke on the colours ------------------------
    # Yellow on, Ben's free ball blue: the blue hit first, the black forced off the table: 3.12(b)
    # "spowodowanie wybicia bili poza stół", the black's 7 (higher than the ball on); the black
    # re-spotted; Ann 48 + 7, Ben 4; Ann on the yellow.
    (
        "3.10/3.12(b)",
        "yellow on, free ball blue hit, the black forced off: seven, the black re-spotted",
        [*ON_YELLOW, stroke([], free_ball=True), nominate("blue"), stroke(["blue"], off_table=["black"])],
        {"foul": True, "penalty": 7, "score": [55, 4], "respotted": ["black"], "ball_on": "yellow"},
    ),
    # --- breaks ---------------------------------------------------------------------------------------
    # 3.9(b)(i) in a break: Ann red-black (8); her next red is potted while the pink falls from the
    # edge before a ball could reach it: no foul, replaced, no score, Ann again with her break of 8;
    # then she pots a red: nine.
    (
        "3.9(b)(i)/3.11(e)",
        "a fall from the edge in a break: the break stands, then a red makes it nine",
        [match(), pot("red"), pot("black"), stroke(["red"], ["red"], fell_from_edge=["pink"]), pot("red")],
        {"break": 9, "score": [9, 0], "striker": 0},
    ),
    # --- 3.16 -----------------------------------------------------------------------------------------
    # 3.16 during the lot for a re-spotted black (the first audit's TIE, 36-36): "sędzia anuluje
    # wszystkie zdobyte punkty ... ten sam zawodnik wykonuje zagranie otwierające": 0-0, Ann (the
    # frame's breaker) breaks, no re-spotted black is pending.
    (
        "3.16/3.4(b)",
        "a re-rack before the re-spotted black's lot: 0-0, Ann breaks, on a red",
        [*TIE, {"type": "rerack"}],
        {"score": [0, 0], "striker": 0, "ball_on": "red", "respotted_black": False, "status": "in_play"},
    ),
    # --- 3.17(c) with 3.10(f) -------------------------------------------------------------------------
    # Four-handed: player 0 fouls on the break-off (black first, seven) and leaves player 1 a free
    # ball; player 1 asks player 0 to play again: the free ball lapses; player 0 on a red.
    (
        "3.17(c)/3.10(f)",
        "four-handed: the offender asked to play again, the free ball lapses",
        [match(players=4), safe("black", free_ball=True), PLAY_AGAIN],
        {"striker": 0, "free_ball": False, "ball_on": "red", "score": [0, 7]},
    ),
    # --- 3.10: snookered on the reds, not on the colours ----------------------------------------------
    # After a red (one red left), Ann names the pink and hits nothing (six): Ben is on the red (3.3(e)).
    # The red lies straight behind the blue: Ben is snookered on every red: FREE BALL, though every
    # colour but the pink is in view.
    (
        "3.10/3.3(e)",
        "a foul on the colour: the next player is snookered on the red behind the blue: free ball",
        [one_red_table(RED_BEHIND_BLUE), nominate("pink"), stroke([], positions=after(RED_BEHIND_BLUE))],
        {"foul": True, "penalty": 6, "free_ball": True, "ball_on": "red", "striker": 1},
    ),
    # The same with the red in plain view: not snookered on the red, no free ball (the hidden pink,
    # not on for Ben, does not count).
    (
        "3.10/3.3(e)",
        "a foul on the colour: the red in plain view: no free ball though the pink is hidden",
        [one_red_table(RED_FAR_RIGHT), nominate("pink"), stroke([], positions=after(RED_FAR_RIGHT))],
        {"foul": True, "penalty": 6, "free_ball": False, "striker": 1},
    ),
    # --- 3.14(b): "any ball that is or could be on" ---------------------------------------------------
    # After a red every colour could be on. Ann names the pink, which the blue hides, and hits nothing:
    # a straight line to the blue (a ball that could be on) was open, nobody needs snookers (10-10,
    # 42 left): FOUL AND A MISS, six.
    (
        "3.14(b)",
        "after a red, the nominated pink hidden but the blue in view, nothing hit: foul and a miss",
        [
            one_red_table(RED_FAR_RIGHT),
            nominate("pink"),
            stroke([], positions={"before": after(RED_FAR_RIGHT)["after"], **after(RED_FAR_RIGHT)}),
        ],
        {"foul": True, "penalty": 6, "miss": True, "options": ["play", "play_again", "replace"]},
    ),
    # --- more combinations (expected to hold) ----------------------------------------------------------
    # 3.10(c) with 3.8(a): yellow on, Ben's free ball black potted: the yellow's two, the black
    # re-spotted (3.10(a)(ii)); the cue ball rests against the yellow, the ball on: TOUCHING BALL.
    (
        "3.10(c)/3.8(a)",
        "yellow on, free ball black potted, the cue ball against the yellow: two, touching ball",
        [
            *ON_YELLOW,
            stroke([], free_ball=True),
            nominate("black"),
            stroke(["black"], ["black"], touching=["yellow"]),
        ],
        {"points": 2, "score": [48, 6], "respotted": ["black"], "touching": ["yellow"], "striker": 1},
    ),
    # 3.12(b)/3.7(e): yellow on, the yellow potted and the green forced off the table: a foul (the
    # green's three, so four); nothing scores; both re-spotted, the green first; Ben on the yellow.
    (
        "3.12(b)/3.7",
        "yellow on, the yellow potted and the green forced off: four, both re-spotted, yellow still on",
        [*ON_YELLOW, stroke(["yellow"], ["yellow"], off_table=["green"])],
        {"penalty": 4, "score": [48, 4], "respotted": ["green", "yellow"], "ball_on": "yellow"},
    ),
    # 3.10(e)/3.3(f): one red left, Ben's free ball pink potted with the last red: both score (two),
    # the pink re-spotted; then any colour: the black (seven, re-spotted); then the yellow (two): a
    # break of eleven, Ben 7 + 11 = 18, the green on.
    (
        "3.10(e)/3.3(f)",
        "free ball pink with the last red, then the black, then the yellow: a break of eleven, green on",
        [
            match(reds=6),
            *clear_reds(5),
            safe("black", free_ball=True),
            nominate("pink"),
            stroke(["pink"], ["pink", "red"]),
            pot("black"),
            pot("yellow"),
        ],
        {"score": [40, 18], "break": 11, "ball_on": "green", "reds": 0},
    ),
]


@pytest.mark.parametrize(
    ("lines", "expected"), [c[2:] for c in CHECKLIST], ids=[f"{c[0]} {c[1]}" for c in CHECKLIST]
)
def test_tenth_audit_checklist(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)
