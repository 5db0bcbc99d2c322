"""Sixteenth audit: Section 3 read in the Chinese text (``section3-rules-zh.txt``), clause by clause,
then set beside the Polish (the authority where they differ) and the English digest.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling), worked out by hand
from the texts. Scores are ``[Ann, Ben]``.

One fault found:

- 3.14(d)(i)/(iii): after a miss the balls were replaced, and the offender fouled while preparing
  the replay (no stroke made). The next player may "要求違例者重打" (ask the offender to play again)
  from the position left (d)(i), or have all moved balls replaced (d)(ii), and "對球手巳發出有關將
  引致對手被判勝出該局之警告仍然有效" (d)(iii): the warning already given remains in effect. The
  Polish (D) lists the same options ("nakazać faulującemu ponowną grę z pozycji zastanej na stole")
  and keeps the warning ("wcześniejsze ostrzeżenie ... zostaje zrealizowane", read as in force since
  the fifth audit). No stroke was made, so the position left is the position the replacement put
  back. The referee kept the count and the warning only for (d)(ii): asked to play again from the
  position left, the offender started a new count, so a third failure from the same position after
  the warning was an ordinary miss. A camera's log, which has no decision lines, cannot tell (d)(i)
  from (d)(ii) here (the cue ball starts where both put it) and was read as (d)(i): the frame was
  never awarded. Rows marked "fault" fail on the code before.

A second, the known limit the fifteenth audit left (geometry.py): with the cue ball in hand and a
ball on by a nose, the search over the D had none of the noses' lines among the lines across which
"a straight line to a ball on is open" (3.14(b)) can change, so a region of the D bounded by them
alone was found by the grid or not at all (the tests at the end of this file fail before).

Where the texts differ and the referee follows one (kept, not "fixed"):

- 3.3(g): the Chinese lists 3.14(f) among the exceptions to "reds stay down" ("例外情況將根據本球例
  第三部份第2條(b)(ii)，第9條，第14條(f)，第14條(h) 及 第15條"); the Polish list has 2(B), 9, 14(H)
  and 15 but not 14(F), whose own text lets the referee replace "część lub wszystkie poruszone bile"
  (some or all moved balls). A red potted in a miss stroke comes back when the balls are replaced:
  the referee follows the Chinese list, which the Polish 14(F) does not contradict.
- 3.14(a)(iii): the Chinese "擊球手於擊進紅球後所選擇為應擊球的顏色球" (the colour chosen as ball on
  after the red) could be read as the same colour as before the miss; the Polish "bilą kolorową do
  wyboru rozgrywającego" (a colour of the striker's choice) decides: after a replacement the
  offender may nominate any colour.
- 3.9(a): the Chinese "原有所獲得的分數亦應計算" (the points already gained count) against the Polish
  "żadne związane z nią punkty nie są brane pod uwagę" (no points connected with it count): the
  ball is replaced and scores nothing; the break stands.
- 3.8(a): the Chinese names a touching ball only when it is "應擊球" (on); the Polish "które są lub
  mogą być bilami rozgrywanymi" (are or can be on), as the Chinese (c) itself ("可以成為應擊球"):
  after a red a colour touching the cue ball is named.
- 3.12(d)(iii): the Chinese "在同一輪擊球中，於擊入紅球或自由球後繼續打擊紅球" (in the same turn,
  after potting a red or a free ball, playing a red again) agrees with the Polish "gra bile Czerwone,
  lub Czerwoną po wolnej bili deklarowanej jako Czerwona, w kolejnych zagraniach": seven.
- 3.14(b): the Chinese "或" (or) against the Polish "a" (and) and "przed wykonaniem lub w wyniku"
  (before or as a result of): the Polish is followed (fifth audit).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import test_referee_fifteenth_audit as sweep
from referee_logs import (
    assert_last_ruling,
    decision,
    foul,
    last,
    match,
    nominate,
    over_checklist,
    pot,
    stroke,
    table,
)

from snooker.calibration.table import STANDARD_TABLE as T
from snooker.referee import RefereeConfig
from snooker.referee import geometry as G

FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""
LINE_ONLY = {"clear_path": True, "full_ball": False}
"""A failure to hit the ball on with only a line to part of it open (3.14(b))."""
PLAY, PLAY_AGAIN, REPLACE = decision("play"), decision("play_again"), decision("replace")


def miss(**extra: Any) -> dict[str, Any]:
    """Ann (on a red) hits nothing with a full ball open: foul and a miss, four to Ben."""
    return stroke([], **FULL, **extra)


# Ann misses twice from the same position; after the second replacement she is warned (3.14(c)):
# 0-8, Ann to play from the position replaced.
WARNED = [match(), miss(), REPLACE, miss(), REPLACE]
# ... and, preparing that replay, she touches a red with her sleeve (no stroke): four, 0-12, no miss.
WARNED_FOUL = [*WARNED, foul("touched_ball", "red")]
# One miss, replaced, a foul preparing the replay: 0-8.
ONCE_FOUL = [match(), miss(), REPLACE, foul("touched_ball", "red")]

CHECKLIST = [
    (
        "3.14(d)",
        "two misses, warned, a foul preparing: no miss, every option open, the warning in force",
        WARNED_FOUL,
        {"score": [0, 12], "miss": False, "options": ["play", "play_again", "replace"], "warning": True},
    ),
    (
        "3.14(d)(i)/(iii) fault",
        "asked to play again from the position left: the warning stays in force and is said",
        [*WARNED_FOUL, PLAY_AGAIN],
        {
            "score": [0, 12],
            "striker": 0,
            "warning": True,
            "announcements": ["WARNING: A THIRD MISS WILL AWARD THE FRAME TO YOUR OPPONENT"],
        },
    ),
    (
        "3.14(d)(i)/(iii) 3.14(c) fault",
        "asked to play again from the position left, a third failure: the frame to Ben",
        [*WARNED_FOUL, PLAY_AGAIN, miss()],
        {"score": [0, 16], "miss": True, "frame_over": True, "winner": 1},
    ),
    (
        "3.14(d)(ii)/(iii) 3.14(c)",
        "all balls replaced instead, a third failure: the frame to Ben (as before)",
        [*WARNED_FOUL, REPLACE, miss()],
        {"score": [0, 16], "miss": True, "frame_over": True, "winner": 1},
    ),
    (
        "3.14(d)(i)/(iii) 3.14(c) fault",
        "no decision logged (a camera's log): Ann plays again from where she stood, a third failure",
        [*WARNED_FOUL, miss(player=0)],
        {"score": [0, 16], "miss": True, "frame_over": True, "winner": 1},
    ),
    (
        "3.14(d)(i) 3.14(c) fault",
        "one miss, a foul preparing, play again from the position left, a miss: the second, the warning due",
        [*ONCE_FOUL, PLAY_AGAIN, miss()],
        {"score": [0, 12], "miss": True, "warning": False, "warning_due": True, "frame_over": False},
    ),
    (
        "3.14(d)(i) 3.14(c) fault",
        "... and replaced after that second miss: the warning is given",
        [*ONCE_FOUL, PLAY_AGAIN, miss(), REPLACE],
        {
            "score": [0, 12],
            "warning": True,
            "announcements": [
                "BALLS REPLACED",
                "WARNING: A THIRD MISS WILL AWARD THE FRAME TO YOUR OPPONENT",
            ],
        },
    ),
    (
        "3.14(d)(i)",
        "the next player plays himself after the foul preparing: the sequence of misses is over",
        [*WARNED_FOUL, PLAY],
        {"score": [0, 12], "striker": 1, "warning": False},
    ),
    (
        "3.14(c)",
        "a play-again from where a miss stroke left the balls starts a new count (another position)",
        [match(), miss(), PLAY_AGAIN, miss()],
        {"score": [0, 8], "miss": True, "warning": False, "frame_over": False},
    ),
    (
        "3.14(d) 3.14(b)",
        "a line-only miss, replaced, a foul preparing, play again, a line-only miss: no warning",
        [
            match(),
            stroke([], **LINE_ONLY),
            REPLACE,
            foul("touched_ball", "red"),
            PLAY_AGAIN,
            stroke([], **LINE_ONLY),
        ],
        {"score": [0, 12], "miss": True, "warning": False, "frame_over": False},
    ),
    # Readings where the texts differ (see the module docstring): controls, as the code was.
    (
        "3.3(g)/3.14(f)",
        "a red potted in a miss stroke comes back when the balls are replaced",
        [match(), stroke(["blue"], ["red"], **FULL), REPLACE],
        {"reds": 15, "striker": 0, "score": [0, 5]},
    ),
    (
        "3.14(a)(iii)",
        "a miss on the blue after a red, replaced: a colour of Ann's choice, the pink scores",
        [match(), pot("red"), nominate("blue"), stroke(["red"], **FULL), REPLACE, pot("pink")],
        {"score": [7, 5], "foul": False, "scored": ["pink"]},
    ),
    (
        "3.9(a)",
        "a colour falls into a pocket by itself: replaced, nothing scored, the break stands",
        [match(), pot("red"), {"type": "edge_fall", "ball": "pink"}],
        {"score": [1, 0], "break": 1, "announcements": ["BALL REPLACED"]},
    ),
    (
        "3.12(d)(iii)",
        "a free ball potted as a red, then a red played at: seven",
        [match(), stroke(["black"], free_ball=True), nominate("blue"), pot("blue"), stroke(["red"])],
        {"score": [7, 8], "penalty": 7, "fouls": ["reds_in_successive_strokes"]},
    ),
    (
        "3.10(e)",
        "red on, free ball and a red potted together: both score, the free ball re-spotted",
        [match(), stroke(["black"], free_ball=True), nominate("blue"), stroke(["blue"], ["red", "blue"])],
        {"score": [0, 9], "scored": ["red", "blue"], "respotted": ["blue"], "ball_on": "colour"},
    ),
    (
        "3.4(a)",
        "only the black left, a foul that levels the scores: a re-spotted black",
        [match(), table(reds=0, colours=["black"], score=[50, 43], striker=0, cue_in_hand=False), stroke([])],
        {"score": [50, 50], "frame_over": False, "announcements": ["FOUL", "SEVEN AWAY", "RE-SPOTTED BLACK"]},
    ),
]


@over_checklist(CHECKLIST)
def test_sixteenth_audit(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


# ---------------------------------------------------------------------------------------------
# The cue ball in hand, a ball on in a pocket's jaws (3.14(b)): the search over the D

# The in-hand search tries a grid over the D, then every vertex of the arrangement of lines across
# which the answer can change (geometry.py: "any region of placements wider than that offset is
# found, however thin"). The noses between the jaws stop straight paths for the miss questions,
# but no line of theirs was in that arrangement, so a region of the D bounded only by them (a ball
# on deep in the jaws, seen past a jaw between two balls) was found by the grid or not at all.
# With the grid made too coarse to find anything (one point and the D's corners), the search
# relies on the vertices alone, as it does for any region thinner than the grid: these rows fail
# on the code before (no place found, no miss). With the default grid no such region was found in
# about 32,000 random layouts built to make one thin (scripts in the report): the fault shows only
# where the region is thinner than the grid, far below what a camera measures.
COARSE = G.GeometryConfig(d_sampling_step_mm=1000.0)
"""The vertex search alone: a grid step wider than the D."""

HIDDEN_IN_THE_JAWS = [
    # (name, the balls, a place in the D from which the sweep model finds a straight path to the red)
    (
        "a red in the top-left jaws, seen from the D's left corner past the black and the pink",
        {
            "red-1": (38.352446244540076, 3560.2972649977833),
            "pink": (176.62011869268105, 3121.397583399918),
            "black": (185.83517530892814, 3246.540820772415),
            "blue": (196.29158154255123, 2928.3426733762526),
        },
        (603.0, 679.0),
    ),
    (
        "a red in the baulk-right jaws, seen past the black between the jaw and the blue",
        {
            "red-1": (1773.2357769332314, 33.764743981064896),
            "pink": (1212.2155495012355, 576.9944329751407),
            "black": (1631.8430118614979, 124.80258151604548),
            "blue": (1458.749969962892, 359.7181955778129),
        },
        (770.0, 480.0),
    ),
]


@pytest.mark.parametrize("balls", [c[1] for c in HIDDEN_IN_THE_JAWS], ids=[c[0] for c in HIDDEN_IN_THE_JAWS])
def test_the_vertex_search_finds_a_place_seen_past_a_jaw(balls: dict[str, tuple[float, float]]) -> None:
    question = G._any_part_open(balls, ["red-1"], T, COARSE, in_hand=True)
    where = question.where_in_hand(T, COARSE)
    assert where is not None
    # The place is legal and, by the fifteenth audit's sweep model (cushions included), a straight
    # path from it meets the red first, however the balls not on are fattened or thinned a little.
    centres = np.array(list(balls.values()))
    assert bool(T.in_d(where[None])[0]) and len(sweep.legal(where[None], centres)) == 1
    for eps in (0.0, sweep.EPS, -sweep.EPS):
        assert sweep.model_any_part(where, centres[:1], centres[1:], eps, 200_000)
    assert G.clear_path_to_any_part(None, balls, ["red-1"], config=COARSE)


@pytest.mark.parametrize(
    ("balls", "place"), [c[1:] for c in HIDDEN_IN_THE_JAWS], ids=[c[0] for c in HIDDEN_IN_THE_JAWS]
)
def test_a_miss_from_hand_at_a_red_in_the_jaws(
    balls: dict[str, tuple[float, float]], place: tuple[float, float]
) -> None:
    """Through the referee: Ann goes in-off (no free ball called); Ben, from hand, hits nothing
    though a straight line from the D to the red was open: foul and a miss (3.14(b))."""
    centres = np.array(list(balls.values()))
    assert len(sweep.legal(np.array([place]), centres)) == 1 and bool(T.in_d(np.array([place]))[0])
    assert sweep.model_any_part(np.array(place), centres[:1], centres[1:], 0.0, 200_000)
    lines = [
        match(),
        stroke(["red"], ["white"], free_ball=False, positions={"after": balls}),
        stroke(
            [], positions={"before": {**balls, "white": place}, "after": {**balls, "white": (889.0, 1500.0)}}
        ),
    ]
    ruling = last(lines, RefereeConfig(geometry=COARSE))
    assert "error" not in ruling, ruling
    assert (ruling["foul"], ruling["miss"], ruling["score"]) == (True, True, [4, 4])
