"""3.8(b): a touching ball the camera saw move with the strike (``touching_moved``) is a push stroke.

3.8(b): "Jeżeli zostanie ogłoszona bila dotykana, rozgrywający musi odegrać od niej bilę białą bez
wprawienia w ruch bili dotykanej, inaczej jest to pchnięcie." 3.12(b): a push stroke costs "wartość
bili rozgrywanej lub bili, której dotyczy faul, w zależności od tego, która jest wyższa". The
tracker logs the moved ball as the stroke's first contact too; the referee cannot tell from that
alone a push from a cue ball played away that came back off a cushion, so only the field says it.
"""

from __future__ import annotations

import pytest
from referee_logs import last, match, nominate, pot, row, safe, stroke

# The cue ball left resting against a ball; the next player (Ben, index 1) is to play.
TOUCHING_RED = [match(), safe("red", touching=["red"])]
TOUCHING_PINK_RED_ON = [match(), safe("red", touching=["pink"])]
TOUCHING_BLUE_BLUE_ON = [match(), pot("red"), nominate("blue"), safe("blue", touching=["blue"])]

ROWS = [
    row(
        "3.8(b)",
        "a touching red on, moved with the strike: a push stroke, four away",
        [*TOUCHING_RED, safe("red", touching_moved=["red"])],
        {"foul": True, "fouls": ["push_stroke"], "penalty": 4, "offender": 1, "points": 0},
    ),
    row(
        "3.8(b)",
        "a touching red on, moved and potted: a push stroke, the red not scored",
        [*TOUCHING_RED, pot("red", touching_moved=["red"])],
        {"foul": True, "fouls": ["push_stroke"], "penalty": 4, "points": 0, "scored": []},
    ),
    row(
        "3.8(b), 3.12(b)",
        "a touching pink not on, moved: a push stroke of the pink's value (and the wrong ball first)",
        [*TOUCHING_PINK_RED_ON, safe("pink", touching_moved=["pink"])],
        {"foul": True, "fouls": ["wrong_ball_first", "push_stroke"], "penalty": 6},
    ),
    row(
        "3.8(b)",
        "the blue on after a red, touching and moved: a push stroke of five",
        [*TOUCHING_BLUE_BLUE_ON, stroke(["red"], touching_moved=["blue"])],
        {"foul": True, "penalty": 5},
    ),
    row(
        "3.8(c)",
        "without the field, a touching red on counts as hit: fair, as before",
        [*TOUCHING_RED, safe("red")],
        {"foul": False, "fouls": [], "penalty": 0},
    ),
]


@pytest.mark.parametrize(("lines", "expected"), ROWS)
def test_a_touching_ball_moved_with_the_strike(lines, expected):
    ruling = last(lines)
    assert "error" not in ruling
    assert {key: ruling[key] for key in expected} == expected


def test_the_push_stroke_counts_its_ball_when_it_is_the_highest():
    """The black touching while a red is on: seven, the black concerned (3.12(b))."""
    ruling = last([match(), safe("red", touching=["black"]), safe("black", touching_moved=["black"])])
    assert ruling["penalty"] == 7 and "push_stroke" in ruling["fouls"]


@pytest.mark.parametrize(
    ("moved", "says"), [(["blue"], "the blue is not on the table"), (["white"], "not an object ball")]
)
def test_a_touching_ball_moved_is_an_object_ball_on_the_table(moved, says):
    joined = {"type": "table", "reds": 0, "colours": ["pink", "black"], "ball_on": "pink"}
    ruling = last([match(), joined, stroke(["pink"], [], touching_moved=moved)])
    assert says in ruling["error"]
