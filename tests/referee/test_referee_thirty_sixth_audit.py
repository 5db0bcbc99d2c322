"""The thirty-sixth audit: one stroke's outcome. Each row is one stroke (after the lines that set it
up) whose events the rules turn into a ruling: the first contact, the balls potted (several at once,
the cue ball among them), balls forced off the table, a jump shot, a push stroke, a touching ball, a
free ball nominated and hit or potted with the ball on, a miss and the "could he have hit it" test,
a snooker left with the free ball, the last red and the colour after it, the last black and a tie.
The expected fields are worked out from the Polish text (``../shared/rules/section3-rules-pl.txt``,
the clause quoted above its rows; the Chinese where the Polish is terse), not from the referee: the
score, the penalty (the highest value of the balls concerned, several fouls counted once), who
plays next, what is on, the free ball, the miss and the options, the colours re-spotted and where
(3.7: the own spot, the highest free spot, the line to the top cushion, below the spot for the pink
and the black), the frame's end. Scores are ``[Ann, Ben]``; Ann breaks; six reds unless a row says
otherwise; places are mm on the cloth (``snooker.calibration.table``).

Result: all 91 rows agree with the texts; the referee is unchanged. The readings the texts leave
open that the rows rely on are the referee's documented ones (``snooker.referee.rules``): the free
ball takes the value of the ball on in a penalty too (3.10(a)); colours whose own spot is free go
there before a displaced colour takes the highest free spot (3.7(d)-(e)); after a red, a foul with no
colour declared nor obvious is seven (3.12(d)); with either player needing snookers, before or as a
result of the stroke, the referee is taken to be satisfied that a miss was not intended unless a
person calls ``miss`` (3.14(b)); a ball the places of a row leave out (the reds beyond the one
placed) stands nowhere that matters.
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    COLOURS,
    CX,
    SPOTS,
    assert_last_ruling,
    assert_rows_cite_clauses,
    assert_rows_distinct,
    at,
    decision,
    lot,
    match,
    over_checklist,
    pot,
    safe,
    stroke,
    table,
    to_colours,
)

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee.geometry import DEFAULT_GEOMETRY_CONFIG

BEN_FREE_BALL = [match(reds=6), stroke([], free_ball=True)]
"""Ann misses every ball at the break-off and leaves Ben snookered: 0-4, Ben has a free ball, reds on."""

ANN_ON_YELLOW = to_colours(6)
"""Ann clears six reds with six blacks: 48-0, Ann on the yellow."""

BEN_FREE_BALL_ON_YELLOW = [*ANN_ON_YELLOW, stroke([], free_ball=True)]
"""Ann misses every ball on the yellow and leaves Ben snookered: 48-4, Ben has a free ball."""


def _joined(
    score: list[int], reds: int = 1, colours: list[str] | None = None, ball_on: str = "red"
) -> list[Any]:
    """A six-red match joined in play, Ann to play: ``reds`` reds and ``colours`` left."""
    left = COLOURS if colours is None else colours
    return [match(reds=6), table(reds=reds, colours=left, ball_on=ball_on, score=score, striker=0)]


ANN_ON_LAST_RED = _joined([10, 10])
"""10-10, Ann on the last red: 35 remaining."""

BEN_ON_BLACK = [match(reds=6), table(reds=0, colours=["black"], ball_on="black", score=[50, 43], striker=1)]
"""Only the black left, Ann 50, Ben 43 and to play."""

ANN_ON_PINK = _joined([30, 20], reds=0, colours=["pink", "black"], ball_on="pink")
"""The pink and the black left, Ann 30-20 and on the pink."""

MISS = {"clear_path": True, "full_ball": True}
"""A failure to hit a ball on with a full ball open (3.14(b)-(c))."""

SNOOKERED_BEHIND = {"white": [CX, 1000.0], "red-1": [CX, 2500.0]}
"""A red straight up the table from the cue ball: any ball between them hides it wholly."""

ELSEWHERE = {
    "green": [100.0, 100.0],
    "brown": [200.0, 100.0],
    "blue": [300.0, 100.0],
    "black": [500.0, 100.0],
}
"""Colours parked by the baulk cushion, out of every line the rows look at."""

OWN_SPOTS = {colour: SPOTS[colour] for colour in COLOURS[1:]}
"""The green to the black each on its own spot."""

BAULK_AND_BLUE_ON_SPOTS = {colour: SPOTS[colour] for colour in COLOURS[:4]}
"""The yellow, green, brown and blue each on its own spot."""

RESPOT_STEP = STANDARD_TABLE.ball_diameter_mm + DEFAULT_GEOMETRY_CONFIG.touch_tolerance_mm
RESPOT_STEP += DEFAULT_GEOMETRY_CONFIG.placement_gap_mm
"""How far from a ball's centre the nearest colour placed beside it goes (3.7(H): touching none)."""

LINE_SPACING = 100.0
"""mm between the balls that fill the line from the pink spot to the top cushion: less than two
placement steps, so no ball fits between two of them."""

TOP_CUSHION_CLEARANCE = 40.0
"""mm from the highest ball's centre to the farthest a ball's centre can lie up the table: less
than a placement step, so no ball fits above it."""

PINK_LINE_BALLS = 9
"""Balls (the black and eight reds) filling that line, the lowest touching the pink spot."""

PINK_LINE_HIGHEST = STANDARD_TABLE.length_mm - STANDARD_TABLE.ball_radius_mm - TOP_CUSHION_CLEARANCE
PINK_LINE_LOWEST = PINK_LINE_HIGHEST - LINE_SPACING * (PINK_LINE_BALLS - 1)
PINK_LINE_TAKEN = {
    ("black" if step == 5 else f"red-{step}"): [CX, PINK_LINE_LOWEST + LINE_SPACING * step]
    for step in range(PINK_LINE_BALLS)
}
"""The black (near its own spot) and eight reds up the centre line from the pink spot to the top cushion."""

EDGE_PATH_OFFSET = 3 * STANDARD_TABLE.ball_radius_mm
"""How far off the cue ball's line to the red's centre a ball halfway along it may stand and still
touch the cue ball grazing one of the red's edges: the path is a radius off, then two radii more."""


def _one_edge_blocked(offset: float) -> dict[str, list[float]]:
    """Ann's cue ball, the only red placed a long way straight up the table, and the blue halfway
    between them ``offset`` mm to the side."""
    return {"white": [CX, 1000.0], "red-1": [CX, 2000.0], "blue": [CX + offset, 1500.0]}


ROWS: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # --- Balls potted: what scores ---------------------------------------------------------------
    # (several reds in one stroke, 3.3(e): the thirty-fifth audit's row)
    (
        "3.6",
        "the break-off hits two reds at once and pots nothing: no foul, Ben on a red",
        [match(reds=6), stroke(["red", "red"], [])],
        {"foul": False, "score": [0, 0], "striker": 1, "ball_on": "red"},
    ),
    # 3.12(b): "spowodowanie wpadnięcia bili nierozgrywanej do kieszeni" - the higher value.
    (
        "3.12(b)",
        "on a red, a red and the blue potted: five, nothing scores, the blue re-spotted, the red stays down",
        [match(reds=6), stroke(["red"], ["red", "blue"])],
        {
            "foul": True,
            "penalty": 5,
            "fouls": ["potted_ball_not_on"],
            "score": [0, 5],
            "scored": [],
            "reds": 5,
            "respotted": ["blue"],
            "striker": 1,
            "ball_on": "red",
        },
    ),
    # 3.12(a): "spowodowanie wpadnięcia bili białej do kieszeni"; 3.11(E) nothing potted scores.
    (
        "3.12(a)",
        "on a red, a red potted and the cue ball in-off: four, the red stays down, Ben in hand",
        [match(reds=6), stroke(["red"], ["red"], cue_ball="potted")],
        {
            "penalty": 4,
            "fouls": ["cue_ball_potted"],
            "score": [0, 4],
            "reds": 5,
            "in_hand": True,
            "striker": 1,
        },
    ),
    (
        "3.12(b)",
        "on the pink nominated, the black potted: seven, the black re-spotted, Ben on a red",
        [match(reds=6), pot("red"), stroke(["pink"], ["black"], nominated="pink")],
        {"penalty": 7, "score": [1, 7], "respotted": ["black"], "ball_on": "red", "striker": 1},
    ),
    (
        "3.12(b)",
        "on the blue nominated, the blue and a red potted: five, the red stays down",
        [match(reds=6), pot("red"), stroke(["blue"], ["blue", "red"], nominated="blue")],
        {"penalty": 5, "score": [1, 5], "reds": 4, "respotted": ["blue"], "scored": []},
    ),
    (
        "3.12(b)",
        "on a red, the green hit first and the black potted: seven, counted once",
        [match(reds=6), stroke(["green"], ["black"])],
        {"penalty": 7, "score": [0, 7], "respotted": ["black"]},
    ),
    (
        "3.3(f)",
        "on the yellow, the yellow potted and the cue ball in-off: four, the yellow re-spotted",
        [*ANN_ON_YELLOW, stroke(["yellow"], ["yellow"], cue_ball="potted")],
        {"penalty": 4, "respotted": ["yellow"], "colours": COLOURS, "ball_on": "yellow", "in_hand": True},
    ),
    (
        "3.3(f)",
        "on the green, the green potted and the cue ball off the table: four, the green re-spotted",
        [*ANN_ON_YELLOW, pot("yellow"), stroke(["green"], ["green"], cue_ball="off_table")],
        {"penalty": 4, "score": [50, 4], "respotted": ["green"], "ball_on": "green", "in_hand": True},
    ),
    # --- Several fouls in one stroke: the highest, once (3.11(G)) ---------------------------------
    # 3.11(G): "Jeżeli w tym samym zagraniu popełniono więcej niż jeden faul, nakładana jest kara za
    # najwyżej karany faul."
    (
        "3.11(g)",
        "on a red, the red and the black hit at once, the pink potted, the cue ball in-off: seven",
        [match(reds=6), stroke(["red", "black"], ["pink"], cue_ball="potted")],
        {
            "penalty": 7,
            "fouls": ["two_balls_at_once", "potted_ball_not_on", "cue_ball_potted"],
            "score": [0, 7],
            "respotted": ["pink"],
            "in_hand": True,
        },
    ),
    (
        "3.11(g)",
        "on a red, the cue ball off the table and the black potted: seven, not eleven",
        [match(reds=6), stroke(["red"], ["black"], cue_ball="off_table")],
        {"penalty": 7, "score": [0, 7], "in_hand": True},
    ),
    (
        "3.11(g)",
        "a jump shot and a double hit that missed every ball: four, once",
        [match(reds=6), stroke([], [], fouls=["jump_shot", "double_hit"])],
        {"penalty": 4, "score": [0, 4]},
    ),
    (
        "3.11(g)",
        "the same push stroke called twice: one foul, four",
        [match(reds=6), stroke(["red"], [], fouls=["push_stroke", "push_stroke"])],
        {"penalty": 4, "fouls": ["push_stroke"], "score": [0, 4]},
    ),
    # --- Balls forced off the table (3.3(G), 3.7, 3.12(b)) ----------------------------------------
    (
        "3.12(b)",
        "on a red, the pink and the black forced off: seven, both re-spotted, the black first",
        [match(reds=6), stroke(["red"], [], off_table=["pink", "black"])],
        {"penalty": 7, "fouls": ["ball_off_table"], "score": [0, 7], "respotted": ["black", "pink"]},
    ),
    (
        "3.3(g)",
        "on a red, a red potted and another forced off: four, both reds stay off",
        [match(reds=6), stroke(["red"], ["red"], off_table=["red"])],
        {"penalty": 4, "reds": 4, "points_remaining": 59, "ball_on": "red"},
    ),
    # --- Two balls at once (3.6, 3.12(c)) ---------------------------------------------------------
    # 3.12(c): "wartością bili rozgrywanej lub wartością wyższą z dwu bil branych pod uwagę".
    (
        "3.12(c)",
        "on the blue nominated, the blue and the pink hit at once: six",
        [match(reds=6), pot("red"), stroke(["blue", "pink"], [], nominated="blue")],
        {"penalty": 6, "fouls": ["two_balls_at_once"], "score": [1, 6]},
    ),
    (
        "3.12(c)",
        "on the green nominated, the green and the brown hit at once: four",
        [match(reds=6), pot("red"), stroke(["green", "brown"], [], nominated="green")],
        {"penalty": 4, "score": [1, 4]},
    ),
    # --- Jump shot, push stroke, touching ball (3.8, 3.12) ----------------------------------------
    # 3.12(a): "spowodowanie przeskoku" - the value of the ball on.
    (
        "3.12(a)",
        "on a red, a jump shot that pots the red: four, the red stays down",
        [match(reds=6), stroke(["red"], ["red"], fouls=["jump_shot"])],
        {"penalty": 4, "fouls": ["jump_shot"], "score": [0, 4], "reds": 5, "scored": []},
    ),
    (
        "3.12(a)",
        "on the blue nominated, a jump shot: five",
        [match(reds=6), pot("red"), stroke(["blue"], [], nominated="blue", fouls=["jump_shot"])],
        {"penalty": 5, "score": [1, 5], "striker": 1},
    ),
    # 3.8(B): "rozgrywający musi odegrać od niej bilę białą bez wprawienia w ruch bili dotykanej,
    # inaczej jest to pchnięcie"; 3.12(b) the higher value.
    (
        "3.8(b)",
        "Ben on a red, resting against the pink, moves it with the strike: a push stroke, six to Ann",
        [match(reds=6), stroke(["red"], [], touching=["pink"]), stroke(["red"], [], touching_moved=["pink"])],
        {"penalty": 6, "fouls": ["push_stroke"], "score": [6, 0], "striker": 0},
    ),
    # 3.8(A): "sędzia ogłasza bilę dotykaną [...] które są lub mogą być bilami rozgrywanymi"; 3.8(E)
    # names only the ball on.
    (
        "3.8(e)",
        "the cue ball comes to rest against a red and the pink, Ben on a red: only the red named",
        [match(reds=6), stroke(["red"], [], touching=["red", "pink"])],
        {"touching": ["red"], "announcements": ["TOUCHING BALL"]},
    ),
    (
        "3.8(a)",
        "the cue ball comes to rest against the pink only, Ben on a red: no touching ball called",
        [match(reds=6), stroke(["red"], [], touching=["pink"])],
        {"touching": [], "announcements": []},
    ),
    # 3.8(C): "Odegranie bili białej bez wprawienia w ruch bili dotykanej nie jest faulem, jeżeli bila
    # dotykana jest bilą rozgrywaną".
    (
        "3.8(c)",
        "Ben against a red plays away and hits nothing: no foul, Ann to play",
        [match(reds=6), stroke(["red"], [], touching=["red"]), stroke([], [])],
        {"foul": False, "score": [0, 0], "striker": 0},
    ),
    # 3.8(D): against a ball not on, "pierwszy kontakt bili białej musi nastąpić z bilą rozgrywaną".
    (
        "3.8(d)",
        "Ben against the pink (not on) plays away and hits nothing: four",
        [match(reds=6), stroke(["red"], [], touching=["pink"]), stroke([], [])],
        {"penalty": 4, "fouls": ["missed_all_balls"], "score": [4, 0]},
    ),
    # 3.8(C) third indent: the touching ball can be on, another ball on declared and hit first.
    (
        "3.8(c)",
        "after a red, against the blue, the pink declared and hit first: no foul",
        [match(reds=6), stroke(["red"], ["red"], touching=["blue"]), stroke(["pink"], [], nominated="pink")],
        {"foul": False, "score": [1, 0], "striker": 1},
    ),
    (
        "3.8(c)",
        "after a red, against the blue, the pink declared and nothing hit: six",
        [match(reds=6), stroke(["red"], ["red"], touching=["blue"]), stroke([], [], nominated="pink")],
        {"penalty": 6, "fouls": ["missed_all_balls"], "score": [1, 6]},
    ),
    # --- The colour after a red, undeclared (3.12(d)) ---------------------------------------------
    # 3.12(D): "po wbiciu Czerwonej [...] popełni faul przed zadeklarowaniem bili kolorowej" - seven.
    (
        "3.12(d)",
        "after a red, nothing declared, a red and the yellow hit at once: seven",
        [match(reds=6), pot("red"), stroke(["yellow", "red"], [])],
        {"penalty": 7, "score": [1, 7]},
    ),
    (
        "3.12(d)",
        "after a red, a red hit and potted again: seven, the red stays down",
        [match(reds=6), pot("red"), stroke(["red"], ["red"])],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes", "potted_ball_not_on"], "reds": 4},
    ),
    (
        "3.12(d)",
        "after a red, nothing declared, the blue and the pink hit at once: seven",
        [match(reds=6), pot("red"), stroke(["blue", "pink"], [])],
        {"penalty": 7, "fouls": ["foul_before_nomination", "two_balls_at_once"], "score": [1, 7]},
    ),
    # Section 2: "An obvious intention counts as a nomination" - the blue hit first names the blue.
    (
        "3.12(a)",
        "after a red, nothing declared, the blue hit first and the cue ball in-off: five",
        [match(reds=6), pot("red"), stroke(["blue"], [], cue_ball="potted")],
        {"penalty": 5, "fouls": ["cue_ball_potted"], "score": [1, 5], "in_hand": True},
    ),
    # --- Free ball (3.10) -------------------------------------------------------------------------
    # 3.10(C): "Jeżeli wolna bila zostanie wbita, jest ustawiana na punkcie wyznaczonym i zaliczana jest
    # wartość bili rozgrywanej."
    (
        "3.10(c)",
        "Ben's free ball, the blue as a red, potted: one, the blue re-spotted, Ben on a colour",
        [*BEN_FREE_BALL, stroke(["blue"], ["blue"], nominated="blue")],
        {"points": 1, "score": [0, 5], "respotted": ["blue"], "reds": 6, "ball_on": "colour", "striker": 1},
    ),
    # 3.10(E): "chyba że rozgrywaną jest bila Czerwona, kiedy zaliczana jest każda wbita bila".
    (
        "3.10(e)",
        "Ben's free ball, the blue and two reds potted: three, the blue re-spotted, the reds stay down",
        [*BEN_FREE_BALL, stroke(["blue"], ["blue", "red", "red"], nominated="blue")],
        {"points": 3, "score": [0, 7], "respotted": ["blue"], "reds": 4, "ball_on": "colour"},
    ),
    # 3.10(D): the ball on potted after the free ball was hit first.
    (
        "3.10(d)",
        "Ben's free ball, the blue hit first, a red potted: one, Ben on a colour",
        [*BEN_FREE_BALL, stroke(["blue"], ["red"], nominated="blue")],
        {"points": 1, "score": [0, 5], "respotted": [], "reds": 5, "ball_on": "colour"},
    ),
    (
        "3.10(d)",
        "Ben's free ball, the blue and a red hit at once, the red potted: one",
        [*BEN_FREE_BALL, stroke(["blue", "red"], ["red"], nominated="blue")],
        {"foul": False, "points": 1, "score": [0, 5]},
    ),
    (
        "3.10(a)",
        "Ben's free ball, nothing declared, a red hit first, the red and the blue potted: five",
        [*BEN_FREE_BALL, stroke(["red"], ["red", "blue"])],
        {"penalty": 5, "fouls": ["potted_ball_not_on"], "score": [5, 4], "reds": 5, "respotted": ["blue"]},
    ),
    (
        "3.10(e)",
        "Ben's free ball, nothing declared, a red and the blue hit at once, both potted: two",
        [*BEN_FREE_BALL, stroke(["red", "blue"], ["red", "blue"])],
        {"foul": False, "points": 2, "score": [0, 6], "respotted": ["blue"], "ball_on": "colour"},
    ),
    # 3.10(B): "nie ma pierwszego kontaktu z bilą deklarowaną albo jednocześnie z bilą deklarowaną i
    # rozgrywaną" - a foul.
    (
        "3.10(b)",
        "Ben's free ball, the blue declared, a red hit first: four, Ann to play",
        [*BEN_FREE_BALL, stroke(["red"], [], nominated="blue")],
        {"penalty": 4, "fouls": ["wrong_ball_first"], "score": [4, 4], "striker": 0, "free_ball": False},
    ),
    (
        "3.10(b)",
        "Ben's free ball, the blue declared, the blue and the pink hit at once: six",
        [*BEN_FREE_BALL, stroke(["pink", "blue"], [], nominated="blue")],
        {"penalty": 6, "fouls": ["two_balls_at_once"], "score": [6, 4]},
    ),
    (
        "3.10(a)",
        "Ben's free ball, the black declared, nothing hit: four (the black is worth the red's one)",
        [*BEN_FREE_BALL, stroke([], [], nominated="black")],
        {"penalty": 4, "score": [4, 4]},
    ),
    (
        "3.12(b)",
        "Ben's free ball, the blue potted with the pink: six, both re-spotted",
        [*BEN_FREE_BALL, stroke(["blue"], ["blue", "pink"], nominated="blue")],
        {"penalty": 6, "score": [6, 4], "respotted": ["pink", "blue"], "striker": 0},
    ),
    (
        "3.10(c)",
        "on the yellow, Ben's free ball the pink potted: two, the pink re-spotted, the yellow still on",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["pink"], ["pink"], nominated="pink")],
        {"points": 2, "score": [48, 6], "respotted": ["pink"], "ball_on": "yellow", "striker": 1},
    ),
    (
        "3.10(d)",
        "on the yellow, Ben's free ball the pink hit, the yellow potted: two, the yellow stays down",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["pink"], ["yellow"], nominated="pink")],
        {"points": 2, "score": [48, 6], "colours": COLOURS[1:], "ball_on": "green"},
    ),
    # 3.10(E): "zaliczana jest tylko bila rozgrywana [...] wolna bila ustawiana jest ponownie".
    (
        "3.10(e)",
        "on the yellow, Ben's free ball the pink and the yellow both potted: only the yellow's two",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["pink"], ["pink", "yellow"], nominated="pink")],
        {
            "points": 2,
            "scored": ["yellow"],
            "respotted": ["pink"],
            "colours": COLOURS[1:],
            "ball_on": "green",
        },
    ),
    (
        "3.10(d)",
        "on the yellow, Ben's free ball the pink and the yellow hit at once, the yellow potted: two",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["pink", "yellow"], ["yellow"], nominated="pink")],
        {"foul": False, "points": 2, "ball_on": "green"},
    ),
    (
        "3.12(b)",
        "on the yellow, Ben's free ball the pink potted with the green: four (the pink as the yellow)",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["pink"], ["pink", "green"], nominated="pink")],
        {"penalty": 4, "score": [52, 4], "respotted": ["pink", "green"], "ball_on": "yellow"},
    ),
    (
        "3.10(e)",
        "the pink on, Ben's free ball the black and the pink both potted: six, the black re-spotted",
        [
            *ANN_ON_PINK,
            stroke([], [], free_ball=True),
            stroke(["black"], ["black", "pink"], nominated="black"),
        ],
        {"points": 6, "score": [30, 32], "respotted": ["black"], "colours": ["black"], "ball_on": "black"},
    ),
    # Section 2: the free ball adds the value it can score to the points remaining.
    (
        "3.10",
        "a free ball awarded on the yellow: twenty-nine remaining",
        BEN_FREE_BALL_ON_YELLOW,
        {"free_ball": True, "points_remaining": 29, "announcements": ["FOUL", "FOUR AWAY", "FREE BALL"]},
    ),
    # 3.12(d): "gra bile Czerwone, lub Czerwoną po wolnej bili deklarowanej jako Czerwona, w kolejnych
    # zagraniach" - seven.
    (
        "3.12(d)",
        "Ben's free ball the blue potted as a red, then a red hit: seven",
        [*BEN_FREE_BALL, stroke(["blue"], ["blue"], nominated="blue"), safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"], "score": [7, 5], "striker": 0},
    ),
    # 3.10(B) second indent: the free ball may not snooker "wobec wszystkich bil Czerwonych lub bili
    # rozgrywanej, z wyjątkiem sytuacji, gdy jedynymi bilami [...] są bile Różowa i Czarna".
    (
        "3.10(b)",
        "Ben's free ball the blue left between Ann's cue ball and the only red placed: four",
        [
            *BEN_FREE_BALL,
            stroke(
                ["blue"], [], nominated="blue", positions=at(None, {**SNOOKERED_BEHIND, "blue": [CX, 1100.0]})
            ),
        ],
        {"penalty": 4, "fouls": ["free_ball_snooker"], "score": [4, 4], "striker": 0, "free_ball": True},
    ),
    (
        "3.10(b)",
        "the same, but Ben pots a red with it: he scored, so no snooker to judge (he is on a colour)",
        [
            *BEN_FREE_BALL,
            stroke(
                ["blue"],
                ["red-2"],
                nominated="blue",
                positions=at(None, {**SNOOKERED_BEHIND, "blue": [CX, 1100.0]}),
            ),
        ],
        {"foul": False, "points": 1, "score": [0, 5], "ball_on": "colour"},
    ),
    (
        "3.10(b)",
        "on the yellow, Ben's free ball the pink left hiding the yellow: four",
        [
            *BEN_FREE_BALL_ON_YELLOW,
            stroke(
                ["pink"],
                [],
                nominated="pink",
                positions=at(
                    None, {"white": [CX, 1000.0], "pink": [CX, 1100.0], "yellow": [CX, 2500.0], **ELSEWHERE}
                ),
            ),
        ],
        {"penalty": 4, "fouls": ["free_ball_snooker"], "score": [52, 4], "ball_on": "yellow"},
    ),
    (
        "3.10(b)",
        "only the pink and the black left, Ben's free ball the black hides the pink: no foul",
        [
            *ANN_ON_PINK,
            stroke([], [], free_ball=True),
            stroke(
                ["black"],
                [],
                nominated="black",
                positions=at(None, {"white": [CX, 1000.0], "black": [CX, 1100.0], "pink": [CX, 2500.0]}),
            ),
        ],
        {"foul": False, "score": [30, 26], "striker": 0, "ball_on": "pink"},
    ),
    # Section 2, snookered in hand: only if every place in the D is blocked.
    (
        "3.10",
        "the break-off goes in-off, the only red placed in sight of the D: no free ball",
        [
            match(reds=6),
            stroke(["red"], [], cue_ball="potted", positions=at(None, {"red-1": [300.0, 2000.0]})),
        ],
        {"free_ball": False, "in_hand": True, "striker": 1},
    ),
    # Section 2, snookered: "wholly or partly blocked"; not snookered when a ball on "can be hit on
    # both extreme edges". The cue ball grazing the red's edge passes the blue, halfway, a radius off
    # the centre line: the blue stands in that path up to two radii beyond it.
    (
        "3.10",
        "Ben fouls leaving the blue across one edge of the only red placed: a free ball",
        [
            match(reds=6),
            safe("red"),
            stroke([], [], positions=at(None, _one_edge_blocked(EDGE_PATH_OFFSET - 1.0))),
        ],
        {"free_ball": True, "striker": 0, "announcements": ["FOUL", "FOUR AWAY", "FREE BALL"]},
    ),
    (
        "3.10",
        "Ben fouls leaving the blue just clear of both edges of the red: no free ball",
        [
            match(reds=6),
            safe("red"),
            stroke([], [], positions=at(None, _one_edge_blocked(EDGE_PATH_OFFSET + 1.0))),
        ],
        {"free_ball": False, "striker": 0, "announcements": ["FOUL", "FOUR AWAY"]},
    ),
    # Section 2, nominated ball: "An obvious intention counts as a nomination".
    (
        "3.10(a)",
        "Ben's free ball, nothing declared, the blue hit first and potted: one, the blue re-spotted",
        [*BEN_FREE_BALL, stroke(["blue"], ["blue"])],
        {"foul": False, "points": 1, "score": [0, 5], "respotted": ["blue"], "ball_on": "colour"},
    ),
    (
        "3.10(c)",
        "on the yellow, Ben's free ball, nothing declared, the green hit and potted: two, the yellow on",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green"], ["green"])],
        {"points": 2, "score": [48, 6], "respotted": ["green"], "ball_on": "yellow"},
    ),
    # --- The last red and the colour after it (3.3(F)) ---------------------------------------------
    # 3.3(F): "po wbiciu ostatniej Czerwonej rozgrywana jest bila kolorowa."
    (
        "3.3(f)",
        "the last red potted: one, a colour on, thirty-four remaining",
        [*ANN_ON_LAST_RED, pot("red")],
        {"score": [11, 10], "reds": 0, "ball_on": "colour", "points_remaining": 34},
    ),
    (
        "3.3(f)",
        "the last red then the black: the black re-spotted, the yellow on",
        [*ANN_ON_LAST_RED, pot("red"), pot("black")],
        {"score": [18, 10], "respotted": ["black"], "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.3(f)",
        "the last red, then a foul on the colour: Ben on the yellow",
        [*ANN_ON_LAST_RED, pot("red"), stroke(["blue"], ["pink"], nominated="blue")],
        {"penalty": 6, "score": [11, 16], "respotted": ["pink"], "ball_on": "yellow", "striker": 1},
    ),
    (
        "3.3(f)",
        "the last red and the black potted off the red: seven, Ben on the yellow",
        [*ANN_ON_LAST_RED, stroke(["red"], ["red", "black"])],
        {"penalty": 7, "score": [10, 17], "reds": 0, "respotted": ["black"], "ball_on": "yellow"},
    ),
    (
        "3.3(g)",
        "the last red forced off the table: four, it stays off, Ben on the yellow",
        [*ANN_ON_LAST_RED, stroke(["red"], [], off_table=["red"])],
        {"penalty": 4, "reds": 0, "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.10(e)",
        "the last red on, a free ball the pink potted as a red: one, the red still there",
        [*ANN_ON_LAST_RED, stroke([], [], free_ball=True), stroke(["pink"], ["pink"], nominated="pink")],
        {"points": 1, "score": [10, 15], "reds": 1, "respotted": ["pink"], "points_remaining": 42},
    ),
    # --- Miss (3.14) ------------------------------------------------------------------------------
    # 3.14(B): "możliwe jest trafienie w linii prostej [...] sędzia ogłasza FAUL I CHYBIENIE".
    (
        "3.14(b)",
        "a red in plain sight, nothing hit: a foul and a miss, Ben may have the balls replaced",
        [match(reds=6), stroke([], [], clear_path=True)],
        {"miss": True, "penalty": 4, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(b)",
        "a red in plain sight, the black hit first: a foul and a miss, seven",
        [match(reds=6), stroke(["black"], [], clear_path=True)],
        {"miss": True, "penalty": 7, "announcements": ["FOUL AND A MISS", "SEVEN AWAY"]},
    ),
    (
        "3.14",
        "no line to any ball on: a foul, no miss",
        [match(reds=6), stroke([], [], clear_path=False)],
        {"miss": False, "options": ["play", "play_again"]},
    ),
    (
        "3.14",
        "no line, but the referee judges no genuine attempt: a foul and a miss",
        [match(reds=6), stroke([], [], clear_path=False, miss=True)],
        {"miss": True},
    ),
    # 3.14(B): "chyba że któryś z zawodników potrzebuje snookera przed wykonaniem lub w wyniku
    # wykonania tego zagrania".
    (
        "3.14(b)",
        "Ann 0-31 with 35 left misses: 0-35, nobody needs snookers, a miss",
        [*_joined([0, 31]), stroke([], [], clear_path=True)],
        {"miss": True, "score": [0, 35], "snookers_required": [0, 0]},
    ),
    (
        "3.14(b)",
        "Ann 0-33 with 35 left misses: 0-37, she needs snookers as a result, no miss",
        [*_joined([0, 33]), stroke([], [], clear_path=True)],
        {"miss": False, "score": [0, 37], "snookers_required": [1, 0]},
    ),
    (
        "3.14(b)",
        "Ann 36-0 with 35 left misses: Ben needed snookers before, no miss",
        [*_joined([36, 0]), stroke([], [], clear_path=True)],
        {"miss": False, "score": [36, 4]},
    ),
    (
        "3.14(b)",
        "Ann 0-30 hits the blue first and pots the last red: 27 left, she needs snookers, no miss",
        [*_joined([0, 30]), stroke(["blue"], ["red"], clear_path=True)],
        {"miss": False, "penalty": 5, "score": [0, 35], "ball_on": "yellow", "points_remaining": 27},
    ),
    # 3.14(C): "następna nieudana próba [...] jest ogłaszana jako FAUL I CHYBIENIE niezależnie od
    # różnicy punktowej".
    (
        "3.14(c)",
        "a full ball open, replaced, and Ann now needing snookers fails again: still a miss",
        [*_joined([0, 30]), stroke([], [], **MISS), decision("replace"), stroke([], [], **MISS)],
        {"miss": True, "score": [0, 38], "warning_due": True},
    ),
    (
        "3.14(c)",
        "no full ball open, replaced, and Ann now needing snookers fails again: no miss",
        [
            *_joined([0, 30]),
            stroke([], [], clear_path=True),
            decision("replace"),
            stroke([], [], clear_path=True),
        ],
        {"miss": False, "score": [0, 38]},
    ),
    (
        "3.14(c)",
        "a full ball open, the third failure from the same position: the frame to Ben",
        [
            match(reds=6),
            stroke([], [], **MISS),
            decision("replace"),
            stroke([], [], **MISS),
            decision("replace"),
            stroke([], [], **MISS),
        ],
        {"miss": True, "frame_over": True, "winner": 1, "score": [0, 12]},
    ),
    # 3.14(A): replaced after a miss on a colour after a red, "bilą kolorową do wyboru rozgrywającego".
    (
        "3.14(a)",
        "a miss on the blue after a red, replaced: Ann on a colour of her choice again",
        [match(reds=6), pot("red"), stroke([], [], nominated="blue", clear_path=True), decision("replace")],
        {
            "striker": 0,
            "ball_on": "colour",
            "nominated": None,
            "score": [1, 5],
            "announcements": ["BALLS REPLACED"],
        },
    ),
    (
        "3.14",
        "a free ball, and Ben with a line open hits nothing: a foul and a miss",
        [*BEN_FREE_BALL, stroke([], [], clear_path=True)],
        {"miss": True, "score": [4, 4], "striker": 0},
    ),
    # 3.14: "z wyjątkiem przypadków, gdy na stole pozostała tylko bila Czarna".
    (
        "3.14",
        "the black alone, Ben misses it with a full ball open: no miss, seven, the frame to Ann",
        [*BEN_ON_BLACK, stroke([], [], **MISS)],
        {"miss": False, "penalty": 7, "score": [57, 43], "frame_over": True, "winner": 0},
    ),
    # --- The last black and a tie (3.4) -----------------------------------------------------------
    # 3.4(A): "Jeżeli na stole pozostała tylko Czarna, jej pierwsze wbicie lub faul kończy frejma."
    (
        "3.4(a)",
        "the black alone, Ben 43-50 pots it: 50-50, a re-spotted black, the lot to draw",
        [*BEN_ON_BLACK, pot("black")],
        {
            "score": [50, 50],
            "frame_over": False,
            "respotted_black": True,
            "respotted": ["black"],
            "status": "respotted_black_lot",
            "in_hand": True,
        },
    ),
    (
        "3.4(a)",
        "the black alone, Ben pots it and goes in-off: seven to Ann, the frame to Ann",
        [*BEN_ON_BLACK, stroke(["black"], ["black"], cue_ball="potted")],
        {"penalty": 7, "score": [57, 43], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(a)",
        "the black alone, Ben 50-40 behind pots it: 50-47, the frame still Ann's",
        [
            match(reds=6),
            table(reds=0, colours=["black"], ball_on="black", score=[50, 40], striker=1),
            pot("black"),
        ],
        {"score": [50, 47], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(a)",
        "the black alone, Ann 50-43 fouls it: 50-50, a re-spotted black",
        [
            match(reds=6),
            table(reds=0, colours=["black"], ball_on="black", score=[50, 43], striker=0),
            stroke([], []),
        ],
        {"penalty": 7, "score": [50, 50], "frame_over": False, "respotted_black": True, "in_hand": True},
    ),
    # 3.4(B): "kolejny rozgrywający gra z pozycji biała w ręce; następne wbicie lub faul kończy frejma".
    (
        "3.4(b)",
        "the re-spotted black, Ann (by lot) pots it: the frame to Ann",
        [*BEN_ON_BLACK, pot("black"), lot(0), pot("black")],
        {"score": [57, 50], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(b)",
        "the re-spotted black, Ann (by lot) hits it and goes in-off: the frame to Ben",
        [*BEN_ON_BLACK, pot("black"), lot(0), stroke(["black"], [], cue_ball="potted")],
        {"penalty": 7, "score": [50, 57], "frame_over": True, "winner": 1, "miss": False},
    ),
    # 3.4(A): the tie goes to a re-spotted black only when "sumaryczne punkty nie mają znaczenia".
    (
        "3.4(a)",
        "on aggregate points, the first of three frames tied on the last black: the frame ends level",
        [
            match(reds=6, aggregate=True, best_of=3),
            table(reds=0, colours=["black"], ball_on="black", score=[50, 43], striker=1),
            pot("black"),
        ],
        {"score": [50, 50], "frame_over": True, "winner": None, "respotted_black": False},
    ),
    # --- The pink and the black (3.3(F)) ----------------------------------------------------------
    (
        "3.3(f)",
        "on the pink, the pink and the black potted: seven, both re-spotted, the black first",
        [*ANN_ON_PINK, stroke(["pink"], ["pink", "black"])],
        {"penalty": 7, "score": [30, 27], "respotted": ["black", "pink"], "ball_on": "pink", "striker": 1},
    ),
    (
        "3.3(f)",
        "on the pink, the pink potted, the cue ball off the table: six, the pink re-spotted",
        [*ANN_ON_PINK, stroke(["pink"], ["pink"], cue_ball="off_table")],
        {"penalty": 6, "score": [30, 26], "respotted": ["pink"], "in_hand": True},
    ),
    (
        "3.12(b)",
        "on the yellow, the yellow forced off the table: four, the yellow re-spotted and still on",
        [*ANN_ON_YELLOW, stroke(["yellow"], [], off_table=["yellow"])],
        {
            "penalty": 4,
            "fouls": ["ball_off_table"],
            "respotted": ["yellow"],
            "ball_on": "yellow",
            "striker": 1,
        },
    ),
    (
        "3.12(b)",
        "on the yellow, the yellow potted and the green forced off: four, both re-spotted",
        [*ANN_ON_YELLOW, stroke(["yellow"], ["yellow"], off_table=["green"])],
        {"penalty": 4, "score": [48, 4], "respotted": ["green", "yellow"], "colours": COLOURS},
    ),
    # --- Re-spotting (3.7) ------------------------------------------------------------------------
    # 3.7(D): "na najwyższym wolnym punkcie wyznaczonym".
    (
        "3.7(d)",
        "the pink potted after a red, a red on the pink spot: the pink on the black spot",
        [
            match(reds=6),
            pot("red"),
            pot("pink", positions=at(None, {"white": [300.0, 2000.0], "red-1": SPOTS["pink"]})),
        ],
        {"score": [7, 0], "respotted": [{"ball": "pink", "position": SPOTS["black"]}]},
    ),
    (
        "3.7(d)",
        "the yellow potted after a red, the cue ball on the yellow spot: the yellow on the black spot",
        [match(reds=6), pot("red"), pot("yellow", positions=at(None, {"white": SPOTS["yellow"]}))],
        {"respotted": [{"ball": "yellow", "position": SPOTS["black"]}]},
    ),
    # 3.7(F): "możliwie najbliżej punktów własnych, pomiędzy punktem własnym a najbliższą częścią górnej
    # bandy"; 3.7(H): not touching another ball.
    (
        "3.7(f)",
        "the yellow potted, a red on its spot and every other colour on its own: the yellow just above",
        [
            match(reds=6),
            pot("red"),
            pot(
                "yellow",
                positions=at(None, {"white": [300.0, 3000.0], "red-1": SPOTS["yellow"], **OWN_SPOTS}),
            ),
        ],
        {
            "respotted": [
                {"ball": "yellow", "position": [SPOTS["yellow"][0], SPOTS["yellow"][1] + RESPOT_STEP]}
            ]
        },
    ),
    # 3.7(G): the pink, its line up to the top cushion taken too: "na linii centralnej stołu możliwie
    # najbliżej i poniżej własnych punktów".
    (
        "3.7(g)",
        "the pink potted, every spot and the line above the pink taken: the pink just below its spot",
        [
            match(reds=15),
            pot("red"),
            pot(
                "pink",
                positions=at(None, {"white": [300.0, 1000.0], **BAULK_AND_BLUE_ON_SPOTS, **PINK_LINE_TAKEN}),
            ),
        ],
        {"respotted": [{"ball": "pink", "position": [CX, PINK_LINE_LOWEST - RESPOT_STEP]}]},
    ),
]


@over_checklist(ROWS)
def test_one_stroke_outcome(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


def test_no_row_repeats_another() -> None:
    assert_rows_distinct(ROWS)


def test_every_row_names_its_clause() -> None:
    assert_rows_cite_clauses(ROWS)
