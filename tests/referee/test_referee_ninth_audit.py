"""A ninth audit of the referee: the effective snookering ball behind a free ball, and a foul and a
miss in a stroke during which a ball fell from the edge of a pocket.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt``, authoritative;
``RULES-EN.md`` for Section 2), not from the referee's output; the comment above each row gives the
working. Scores are ``[Ann, Ben]``.

Faults this audit found, each fixed since and kept by its rows:

- Two balls equally near the cue ball that together hide the only red are both effective snookering
  balls (Section 2: of several snookering balls the nearest is the effective one, and balls as near
  are all effective). The referee took the first in the order of their names: the blue nominated as
  the free ball was a foul (3.10(b)(ii)), the pink in the same place was not.
- A foul in a stroke during which a ball fell from the edge of a pocket (3.9(b): balls replaced,
  penalty, the usual options after a foul) was never a foul and a miss, even where the striker
  failed to hit a ball on with a clear path to it (3.14(b)), and even where the log called the miss
  itself; so a third such failure with a full ball open did not award the frame (3.14(c)).

Reading chosen here once (no row kept it) and replaced by the twenty-fifth audit: where different
balls hide different reds, the nearest of them was taken as the effective snookering ball. Section 2
(16(c), which RULES-EN.md's summary leaves out) says there is then none, so such a free ball does
not snooker on all reds (``test_referee_twenty_fifth_audit.py``).
"""

from __future__ import annotations

from typing import Any

from referee_logs import assert_last_ruling, decision, match, over_checklist, safe, stroke, table

CENTRE_X = 889.0
"""The table's long axis (mm)."""
REPLACE = decision("replace")
FULL_BALL_OPEN = {"clear_path": True, "full_ball": True}


def _free_ball_left_beside(free_ball: str, other: str, free_ball_side: float) -> list[Any]:
    """One red left. Ann fouls (the black hit first) and leaves Ben a free ball; Ben nominates
    ``free_ball``, hits it, and leaves it and ``other`` equally near the cue ball (400 mm), side by
    side, each hiding one side of the red (``free_ball_side`` -1 or 1: the free ball left or right).
    """
    after = {
        "white": [CENTRE_X, 1000.0],
        free_ball: [CENTRE_X + 30.0 * free_ball_side, 1400.0],
        other: [CENTRE_X - 30.0 * free_ball_side, 1400.0],
        "red-1": [CENTRE_X, 2200.0],
        "black": [1600.0, 3300.0],
    }
    return [
        match(reds=6),
        table(reds=1, ball_on="red", score=[0, 0], striker=0),
        safe("black", free_ball=True),
        stroke([free_ball], [], nominated=free_ball, positions={"after": after}),
    ]


# The free ball and the blue or pink beside it are equally near the cue ball; neither alone hides
# the red (each covers one side), together they do: both are effective snookering balls, so the
# free ball snookers the next player on the red (3.10(b)(ii)): Ben's foul, worth the ball on's
# value, the least 4, to Ann (Ben had 7 from Ann's foul on the black).
FREE_BALL_SNOOKER = {"foul": True, "penalty": 4, "fouls": ["free_ball_snooker"], "score": [4, 7]}
EFFECTIVE_SNOOKERING_BALL = [
    (
        "3.10(b)(ii)",
        "free ball pink, the blue as near on its right",
        _free_ball_left_beside("pink", "blue", -1.0),
    ),
    (
        "3.10(b)(ii)",
        "free ball blue, the pink as near on its right",
        _free_ball_left_beside("blue", "pink", -1.0),
    ),
    (
        "3.10(b)(ii)",
        "free ball pink, the blue as near on its left",
        _free_ball_left_beside("pink", "blue", 1.0),
    ),
    (
        "3.10(b)(ii)",
        "free ball blue, the pink as near on its left",
        _free_ball_left_beside("blue", "pink", 1.0),
    ),
]

TWO_MISSES_REPLACED = [match(), stroke([], **FULL_BALL_OPEN), REPLACE, stroke([], **FULL_BALL_OPEN), REPLACE]
"""Ann misses every ball twice with a full ball on a red open, level; Ben has her play again from
the same position each time (she is warned after the second)."""

EDGE_FALL_MISS = [
    # Reds on, a red in plain view; after Ann's safety Ben hits the black first while the pink falls
    # from the edge of a pocket. 3.9(b): balls replaced, the penalty (7, the black) to Ann, the usual
    # options after a foul; the failure to hit a ball on with a clear path is a foul and a miss
    # (3.14(b)): Ann may also have him play from where the balls were (replace).
    (
        "3.9(b) 3.14(b)",
        "the black hit first while the pink falls: foul and a miss",
        [match(), safe("red"), stroke(["black"], ["pink"], fell_from_edge=["pink"], clear_path=True)],
        {
            "foul": True,
            "penalty": 7,
            "miss": True,
            "options": ["play", "play_again", "replace"],
            "announcements": ["FOUL AND A MISS", "SEVEN AWAY", "BALLS REPLACED"],
            "score": [7, 0],
        },
    ),
    # The same stroke, the referee's call of the miss logged (FRAME_LOG.md: ``miss`` overrides).
    (
        "3.9(b) 3.14(b)",
        "the miss logged is kept",
        [
            match(),
            safe("red"),
            stroke(["black"], ["pink"], fell_from_edge=["pink"], clear_path=True, miss=True),
        ],
        {"foul": True, "miss": True, "options": ["play", "play_again", "replace"]},
    ),
    # No clear path to any red: a foul, no miss (3.14(b)); the usual options.
    (
        "3.9(b) 3.14(b)",
        "snookered, the black hit first while the pink falls: a foul, no miss",
        [match(), safe("red"), stroke(["black"], ["pink"], fell_from_edge=["pink"], clear_path=False)],
        {"foul": True, "penalty": 7, "miss": False, "options": ["play", "play_again"]},
    ),
    # Warned after two misses with a full ball open, replaced each time; the third attempt hits the
    # black first while the pink falls: the third failure from the same position with a full ball
    # open awards the frame to Ben (3.14(c)). Ben: 4 + 4 + 7.
    (
        "3.9(b) 3.14(c)",
        "the third miss with a full ball open, a ball falling meanwhile, awards the frame",
        [*TWO_MISSES_REPLACED, stroke(["black"], ["pink"], fell_from_edge=["pink"], **FULL_BALL_OPEN)],
        {"foul": True, "miss": True, "frame_over": True, "winner": 1, "score": [0, 15]},
    ),
    # A ball falling in a stroke with no foul: all replaced, the striker plays again (no miss, no
    # foul, no points).
    (
        "3.9(b)",
        "no foul: the striker plays again",
        [*TWO_MISSES_REPLACED, stroke(["red"], ["pink"], fell_from_edge=["pink"])],
        {"foul": False, "miss": False, "striker": 0, "score": [0, 8]},
    ),
]


@over_checklist([(*case, FREE_BALL_SNOOKER) for case in EFFECTIVE_SNOOKERING_BALL])
def test_equally_near_snookering_balls_are_all_effective(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


@over_checklist(EDGE_FALL_MISS)
def test_a_ball_falling_from_the_edge_does_not_excuse_a_miss(
    lines: list[Any], expected: dict[str, Any]
) -> None:
    assert_last_ruling(lines, expected)
