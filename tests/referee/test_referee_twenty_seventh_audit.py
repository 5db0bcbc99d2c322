"""A twenty-seventh audit: Section 3 read in the Chinese text (``../shared/rules/section3-rules-zh.txt``)
clause by clause, as if it were the only source; for each clause what a referee following it would
rule, set beside the Polish (``section3-rules-pl.txt``, the authority where they differ).

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling), worked out by hand
from the texts. Scores are ``[Ann, Ben]``; Ann breaks. Rows marked "fault" fail on the code before.

Fault found and fixed: fouls whose own conditions the texts state were taken from the log in any
state, so a called foul the rules exclude was penalised (the referee does refuse a ``miss`` call on a
stroke that broke no rule, docs/FRAME_LOG.md):

- 3.10(b)(ii) / 3.12(a)(vii), snookering with the free ball: the Chinese "所有紅球或應擊球被點名球
  阻礙，除非當時桌上祇剩下粉紅球及黑球" (all reds or the ball on snookered by the nominated ball,
  unless only the pink and the black are left), the Polish "z wyjątkiem sytuacji, gdy jedynymi bilami
  do rozgrywania, pozostałymi na stole, są bile Różowa i Czarna". A ``free_ball_snooker`` called with
  the pink and the black only was penalised (the geometry's own judgement knew the exception), and
  one called with no free ball awarded at all was penalised too. Now both are refused.
- 3.12(d)(iii), reds in successive strokes: the Chinese "在同一輪擊球中，於擊入紅球或自由球後繼續
  打擊紅球" (in the same turn, after potting a red or a free ball, playing at a red), the Polish "gra
  bile Czerwone, lub Czerwoną po wolnej bili deklarowanej jako Czerwona, w kolejnych zagraniach". A
  ``reds_in_successive_strokes`` called with no red potted before, or against a player out of turn
  (who potted none), cost seven. Now refused.
- 3.12(d)(vi), a foul before the colour is named: the Chinese "擊進紅球或被點名為紅球的自球後而又未
  指明將打擊那一個顏色球前犯規" (a foul after potting a red, or the free ball named as a red, before
  saying which colour will be played), the Polish "po wbiciu Czerwonej lub wolnej bili deklarowanej
  jako Czerwona popełni faul przed zadeklarowaniem bili kolorowej". A ``foul_before_nomination``
  called at the opening stroke, after a colour was nominated, or against a player other than the
  striker who potted the red, cost seven. Now refused.

Where the texts differ (none changes a ruling; the earlier differences are in the sixteenth audit):

- 3.7(c)(ii): the Chinese penalises a stroke "於球證未完成重置程序前" (before the referee finished
  spotting); the Polish adds "lub mógł sprawdzić efekt ustawienia bil" (or could check the spotting).
  Either way it is ``before_spotting`` (3.12(b)), logged by the person who saw it; the ball concerned
  (the colour being spotted) must be named in the call (the rows below): the referee keeps no record
  of which colour was still being spotted.
- 3.16: the Chinese sets the stalemate period "一般情況下為每位球手的三次擊球之後" (usually after
  three strokes by each player), the Polish "po trzech zagraniach każdej ze stron" (by each side): in
  four-handed snooker the Chinese reads twice as long. The referee does not time the period: the
  re-rack is the referee's ``rerack`` line, ruled the same either way.
- 3.9(b): the Chinese "在袋邊的球應會被擊中" (the ball on the edge would have been hit) against the
  Polish "mogłaby być dotknięta" (could be hit): ``fell_from_edge`` records the referee's judgement.
- 3.13(a)(i): the Chinese "打擊那一個球" (which ball to play) against the Polish "jakie zagranie chce
  wykonać" (which stroke): the offender asked to play again starts a fresh turn under either.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    decision,
    foul,
    match,
    nominate,
    over_checklist,
    pot,
    rule,
    safe,
    stroke,
    table,
)

FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""
ALL_COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
YELLOW_ON = table(reds=0, colours=ALL_COLOURS, ball_on="yellow", striker=0, score=[0, 0])
"""The reds gone, Ann on the yellow, 0-0."""
BLUE_ON = table(reds=0, colours=["blue", "pink", "black"], ball_on="blue", striker=0, score=[0, 0])
PINK_ON = table(reds=0, colours=["pink", "black"], ball_on="pink", striker=0, score=[0, 0])
BLACK_ONLY = table(reds=0, colours=["black"], ball_on="black", striker=0, score=[10, 0], cue_in_hand=False)
"""Only the black left, Ann to play it, 10-0."""


def free_ball_to_ben(*set_up: Any, nominated: str) -> list[Any]:
    """Ann fouls (the black first), leaving Ben a free ball; Ben nominates ``nominated``."""
    return [match(), *set_up, stroke(["black"], free_ball=True), nominate(nominated)]


CHECKLIST = [
    # --- 3.10 free ball ---------------------------------------------------------------------------
    (
        "3.10(b)(i)",
        "red on, the blue nominated as free ball, a red hit first: a foul of four (the blue as a red)",
        [*free_ball_to_ben(nominated="blue"), stroke(["red"])],
        {"foul": True, "penalty": 4, "offender": 1, "fouls": ["wrong_ball_first"]},
    ),
    (
        "3.10(b)(i)",
        "yellow on, the pink nominated, the yellow hit first: a foul of four, not the pink's six",
        [*free_ball_to_ben(YELLOW_ON, nominated="pink"), stroke(["yellow"])],
        {"foul": True, "penalty": 4, "offender": 1},
    ),
    (
        "3.10(b)(i)",
        "blue on, the black nominated, the pink hit first: six (the pink is the ball concerned)",
        [*free_ball_to_ben(BLUE_ON, nominated="black"), stroke(["pink"])],
        {"foul": True, "penalty": 6, "offender": 1},
    ),
    (
        "3.10(c)",
        "yellow on, the green as free ball potted: two, the green re-spotted, the yellow still on",
        [*free_ball_to_ben(YELLOW_ON, nominated="green"), pot("green")],
        {"score": [0, 9], "respotted": ["green"], "ball_on": "yellow", "striker": 1},
    ),
    (
        "3.10(e)",
        "yellow on, the green and the yellow potted: the yellow's two only, the green re-spotted",
        [*free_ball_to_ben(YELLOW_ON, nominated="green"), stroke(["green"], ["green", "yellow"])],
        {"score": [0, 9], "respotted": ["green"], "ball_on": "green"},
    ),
    (
        "3.10(e), 3.6",
        "red on, the blue (as a red) and a red hit at once, the red potted: fair, one",
        [*free_ball_to_ben(nominated="blue"), stroke(["blue", "red"], ["red"])],
        {"foul": False, "score": [0, 8], "ball_on": "colour"},
    ),
    (
        "3.12(a)(vii)",
        "blue on, the black as free ball snookering the blue (called): the blue's five",
        [*free_ball_to_ben(BLUE_ON, nominated="black"), stroke(["black"], fouls=["free_ball_snooker"])],
        {"foul": True, "penalty": 5, "fouls": ["free_ball_snooker"]},
    ),
    # --- 3.12 penalties -----------------------------------------------------------------------------
    (
        "3.12(a)(viii), 3.11(g)",
        "red on, a jump shot onto the black: the higher penalty, seven (the black first)",
        [match(), stroke(["black"], fouls=["jump_shot"])],
        {"penalty": 7, "fouls": ["wrong_ball_first", "jump_shot"]},
    ),
    (
        "3.12(a)(i)",
        "only the black left, a double hit: seven, and the foul ends the frame (3.4(a))",
        [match(), BLACK_ONLY, stroke(["black"], fouls=["double_hit"])],
        {"penalty": 7, "frame_over": True, "winner": 0, "score": [10, 7]},
    ),
    (
        "3.12(a)(iii)",
        "pink on, Ben plays out of turn: the pink's six",
        [match(), PINK_ON, stroke(["pink"], player=1)],
        {"penalty": 6, "offender": 1, "fouls": ["out_of_turn"]},
    ),
    (
        "3.12(a)(vi)",
        "pink on, an in-off: the pink's six",
        [match(), PINK_ON, stroke(["pink"], cue_ball="potted")],
        {"penalty": 6, "fouls": ["cue_ball_potted"]},
    ),
    (
        "3.12(b)(ii), 3.7(c)(ii)",
        "struck before the pink was spotted, the pink named: six",
        [
            match(),
            pot("red"),
            pot("pink"),
            stroke(["red"], fouls=[{"reason": "before_spotting", "ball": "pink"}]),
        ],
        {"penalty": 6, "fouls": ["before_spotting"], "score": [7, 6]},
    ),
    (
        "3.12(c)",
        "red on, the blue and the pink hit at once: the higher, six",
        [match(), stroke(["blue", "pink"])],
        {"penalty": 6, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.12(d)(iii)",
        "the blue as a red potted, then a red first: seven",
        [*free_ball_to_ben(nominated="blue"), pot("blue"), safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"]},
    ),
    (
        "3.12(d)(vi)",
        "the blue as a red potted, a ball touched before a colour is named: seven",
        [*free_ball_to_ben(nominated="blue"), pot("blue"), foul("touched_ball", "yellow")],
        {"penalty": 7, "fouls": ["foul_before_nomination", "touched_ball"]},
    ),
    (
        "3.12(d)(vi)",
        "a red potted, the foul called before nominating: seven",
        [match(), pot("red"), stroke([], fouls=["foul_before_nomination"])],
        {"penalty": 7, "score": [1, 7]},
    ),
    # --- 3.8 touching ball --------------------------------------------------------------------------
    (
        "3.8(c)(iii)",
        "a red potted, the cue ball against the blue: the pink named and hit first, no foul",
        [match(), pot("red", touching=["blue"]), nominate("pink"), pot("pink")],
        {"foul": False, "score": [7, 0], "respotted": ["pink"]},
    ),
    (
        "3.8(c)(ii)",
        "a red potted, the cue ball against the blue: the blue named, played away, nothing hit: no foul",
        [match(), pot("red", touching=["blue"]), nominate("blue"), stroke([])],
        {"foul": False, "score": [1, 0], "striker": 1},
    ),
    (
        "3.8(b)",
        "Ben against the blue while on a red: moving the blue is a push, the blue's five",
        [match(), safe("red", touching=["blue"]), stroke(["red"], fouls=["push_stroke"])],
        {"penalty": 5, "score": [5, 0]},
    ),
    # --- 3.4, 3.14 the last black, misses ---------------------------------------------------------
    (
        "3.14, 3.4(a)",
        "only the black left, missed with a full ball open: no miss, the foul ends the frame",
        [match(), BLACK_ONLY, stroke([], **FULL)],
        {"miss": False, "frame_over": True, "score": [10, 7]},
    ),
    (
        "3.4(a)",
        "only the black left, Ben touches it while Ann is to play: the frame ends on that foul",
        [match(), BLACK_ONLY, foul("touched_ball", "black", player=1)],
        {"frame_over": True, "score": [17, 0], "winner": 0},
    ),
    (
        "3.4(b)",
        "only the black left, Ben pots it to level the scores: a re-spotted black",
        [match(), table(reds=0, colours=["black"], ball_on="black", striker=1, score=[10, 3]), pot("black")],
        {"frame_over": False, "score": [10, 10], "respotted": ["black"]},
    ),
    (
        "3.13, 3.3(e)",
        "asked to play again after naming the pink and missing: a fresh turn, a red on",
        [match(), pot("red"), nominate("pink"), stroke([]), decision("play_again")],
        {"ball_on": "red", "striker": 0},
    ),
    (
        "3.16",
        "a stalemate re-racked: the scores cancelled, the same player breaks",
        [match(), pot("red"), safe("red"), stroke(["red"]), {"type": "rerack"}],
        {"score": [0, 0], "striker": 0, "ball_on": "red"},
    ),
]


@over_checklist(CHECKLIST)
def test_twenty_seventh_audit(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


# A called foul the texts exclude is refused (the line's ruling is an error naming the rule), as a
# ``miss`` called on a stroke that broke no rule is. Every row fails on the code before (it
# penalised the call).
REFUSED = [
    (
        "3.10(b)(ii) fault",
        "pink and black only: the black as free ball may snooker the pink",
        [*free_ball_to_ben(PINK_ON, nominated="black"), stroke(["black"], fouls=["free_ball_snooker"])],
        "free_ball_snooker",
    ),
    (
        "3.10(b)(ii) fault",
        "no free ball awarded: nothing can be snookered by one",
        [match(), safe("red"), stroke(["red"], fouls=["free_ball_snooker"])],
        "free_ball_snooker",
    ),
    (
        "3.10(b)(ii) fault",
        "a foul line calling a free-ball snooker with no free ball",
        [match(), foul("free_ball_snooker")],
        "free_ball_snooker",
    ),
    (
        "3.12(d)(iii) fault",
        "reds in successive strokes at the opening stroke (no red potted before)",
        [match(), stroke(["red"], fouls=["reds_in_successive_strokes"])],
        "reds_in_successive_strokes",
    ),
    (
        "3.12(d)(iii) fault",
        "reds in successive strokes called against Ben, out of turn after Ann's red",
        [match(), pot("red"), stroke(["red"], player=1, fouls=["reds_in_successive_strokes"])],
        "reds_in_successive_strokes",
    ),
    (
        "3.12(d)(vi) fault",
        "a foul before nominating at the opening stroke",
        [match(), stroke(["red"], fouls=["foul_before_nomination"])],
        "foul_before_nomination",
    ),
    (
        "3.12(d)(vi) fault",
        "a foul line before nominating with no red potted",
        [match(), foul("foul_before_nomination")],
        "foul_before_nomination",
    ),
    (
        "3.12(d)(vi) fault",
        "a foul before nominating after the pink was nominated",
        [match(), pot("red"), nominate("pink"), stroke([], fouls=["foul_before_nomination"])],
        "foul_before_nomination",
    ),
    (
        "3.12(d)(vi) fault",
        "a foul before nominating by Ben, not the striker who potted the red",
        [match(), pot("red"), foul("foul_before_nomination", player=1)],
        "foul_before_nomination",
    ),
]


@pytest.mark.parametrize(("lines", "code"), [r[2:] for r in REFUSED], ids=[f"{r[0]} {r[1]}" for r in REFUSED])
def test_a_called_foul_the_texts_exclude_is_refused(lines: list[Any], code: str) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings[:-1]), rulings
    assert code in rulings[-1].get("error", ""), rulings[-1]


ALLOWED = [
    (
        "3.10(b)(ii)",
        "blue, pink and black: the pink as free ball snookering the blue is still called",
        [*free_ball_to_ben(BLUE_ON, nominated="pink"), stroke(["pink"], fouls=["free_ball_snooker"])],
        5,
    ),
    (
        "3.12(d)(iii)",
        "a red potted, then a red first: the call stands, seven",
        [match(), pot("red"), stroke(["red"], fouls=["reds_in_successive_strokes"])],
        7,
    ),
    (
        "3.12(d)(vi)",
        "a red potted, a foul line before nominating by the striker: seven",
        [match(), pot("red"), foul("foul_before_nomination")],
        7,
    ),
    (
        "3.12(d)(vi), 3.3(e)",
        "a table line not knowing whether a red or a colour is on: the call reads a colour on",
        [match(), table(reds=3, striker=0, score=[0, 0]), stroke([], fouls=["foul_before_nomination"])],
        7,
    ),
]


@pytest.mark.parametrize(
    ("lines", "penalty"), [r[2:] for r in ALLOWED], ids=[f"{r[0]} {r[1]}" for r in ALLOWED]
)
def test_a_called_foul_in_its_own_state_stands(lines: list[Any], penalty: int) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings), rulings
    assert rulings[-1]["penalty"] == penalty
