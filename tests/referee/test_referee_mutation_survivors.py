"""Rows for the twenty-first audit's surviving, non-equivalent mutants that had none.

The mutation audit (``test_referee_twenty_first_audit.py``) left situations no test ruled: the
camera log's replacement read at its exact distances and in its in-off branch, the cue ball's place
not known, a miss from a replaced position by another player, a four-handed partner striking while
a decision is open, and ``ball_moved``'s ``position``. Each row below is a plain frame log and the
fields of its last ruling, worked out from the rules and FRAME_LOG.md (not from the referee's
output); the comment says which branch it pins. These rows passed before (they guard; the referee
was right). Each was checked against a hand-made mutant of the branch it names (a boundary ``<=``
made ``<`` or ``>`` made ``>=``, a condition dropped, the position not stored), which fails it. One
situation stays without a killing row: a mutant of ``_implicit_play`` that takes the offender's
partner for the offender (the stroke read as "play again" rather than "play") rules the partner's
stroke the same (out of turn either way); they differ only through a free ball the next player had,
and whether a stroke out of turn enjoys it the texts leave open, so no row pins that.
"""

from __future__ import annotations

from typing import Any

from referee_logs import assert_last_ruling, at, match, over_checklist, stroke

from snooker.calibration.table import STANDARD_TABLE

CX = STANDARD_TABLE.centre_x_mm
BLUE = list(STANDARD_TABLE.spots["blue"])
RED = {"red-1": [CX, 2800.0]}
WHITE_UP = [CX + 300.0, 1500.0]
WITHIN = 30.0
"""RefereeConfig.replaced_within_mm, the default the rows are worked with (mm)."""


def cam(first: list[str] | None = None, potted: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A stroke as the tracker logs it (no player, no decision)."""
    extra.setdefault("cue_ball", "on_table")
    extra.setdefault("off_table", [])
    extra.setdefault("touching", [])
    return stroke(first, potted, **extra)


def up(dy: float) -> list[float]:
    """WHITE_UP moved ``dy`` mm up the table."""
    return [WHITE_UP[0], WHITE_UP[1] + dy]


# Ann plays safe, leaving the cue ball at WHITE_UP with a line open to the red: Ben to play.
SAFE_OPEN = [match(), cam(["red"], positions=at({"white": [CX, 600.0], **RED}, {"white": WHITE_UP, **RED}))]


def ben_misses(to: list[float] | None, cue_ball: str = "on_table") -> dict[str, Any]:
    """Ben misses every ball from WHITE_UP (a line open): foul and a miss, four to Ann."""
    after = {**RED} if to is None else {"white": to, **RED}
    return cam([], cue_ball=cue_ball, positions=at({"white": WHITE_UP, **RED}, after))


def next_from(white: list[float] | None) -> dict[str, Any]:
    """The next stroke (no decision logged) hits the red, its cue ball starting at ``white``."""
    before = {**RED} if white is None else {"white": white, **RED}
    return cam(["red"], positions=at(before, {"white": [CX, 2000.0], **RED}))


# After a replacement Ben plays again and hits the red: Ann to play (striker 0). Read as played on,
# the stroke is Ann's: Ben to play (striker 1). The score is 4-0 either way.
REPLACED = {"foul": False, "score": [4, 0], "striker": 0}
PLAYED_ON = {"foul": False, "score": [4, 0], "striker": 1}

FOUR = {
    "type": "match",
    "schema": "snooker.log/1",
    "players": ["A", "B", "C", "D"],
    "best_of": 1,
    "breaker": 0,
}
"""Four-handed: sides 0 & 2 against 1 & 3, order 0, 1, 2, 3."""

CHECKLIST = [
    # rules._balls_replaced, on the table before and after: the miss must have moved the cue ball
    # MORE than twice replaced_within_mm (60 mm): exactly 60 shows nothing, so played on.
    (
        "3.14(a)",
        "a miss that moved the cue ball exactly twice the tolerance: no replacement read",
        [*SAFE_OPEN, ben_misses(up(2 * WITHIN)), next_from(WHITE_UP)],
        PLAYED_ON,
    ),
    # ... and the next stroke's cue ball back within replaced_within_mm: exactly 30 mm counts.
    (
        "3.14(a)",
        "the cue ball back exactly at the tolerance from its place: replaced",
        [*SAFE_OPEN, ben_misses(up(2 * WITHIN + 1.0)), next_from(up(WITHIN))],
        REPLACED,
    ),
    (
        "3.14(a)",
        "the cue ball just beyond the tolerance from its place: played on",
        [*SAFE_OPEN, ben_misses(up(4 * WITHIN)), next_from(up(WITHIN + 1.0))],
        PLAYED_ON,
    ),
    # The in-off branch: the miss went in-off from WHITE_UP (outside the D). The next stroke starts
    # exactly 30 mm from WHITE_UP: only a replacement puts it there (a player who plays on plays from
    # the D), so Ben plays again.
    (
        "3.14(a)/3.3(h)",
        "a miss that went in-off, the cue ball back exactly at the tolerance: replaced",
        [*SAFE_OPEN, ben_misses(None, "potted"), next_from(up(WITHIN))],
        REPLACED,
    ),
    # ... 31 mm away it is no replacement: Ann, in hand, plays from outside the D: a foul (3.5).
    (
        "3.14(a)/3.5",
        "a miss that went in-off, the next stroke beyond the tolerance outside the D: Ann from hand",
        [*SAFE_OPEN, ben_misses(None, "potted"), next_from(up(WITHIN + 1.0))],
        {"foul": True, "fouls": ["improper_in_hand"], "offender": 0, "score": [4, 4]},
    ),
    # The in-off branch needs the start outside the D: Ann left the cue ball in the D's area (on the
    # table), Ben missed and went in-off; the next stroke from that same place in the D is where a
    # player who plays on may place it, so no replacement is read: Ann's stroke, Ben to play.
    (
        "3.14(a)/3.5",
        "a miss that went in-off from inside the D's lines, the next stroke from there: played on",
        [
            match(),
            cam(["red"], positions=at({"white": [CX, 600.0], **RED}, {"white": [CX, 650.0], **RED})),
            cam([], cue_ball="potted", positions=at({"white": [CX, 650.0], **RED}, {**RED})),
            next_from([CX, 650.0]),
        ],
        PLAYED_ON,
    ),
    # The cue ball's place not known: a next stroke whose positions lack the white shows nothing.
    (
        "3.14(a)",
        "the next stroke's cue ball not placed: no replacement read",
        [*SAFE_OPEN, ben_misses(up(4 * WITHIN)), next_from(None)],
        PLAYED_ON,
    ),
    # ... nor where the cue ball was before the miss is not known (no positions before it; the miss
    # called by the referee), even for a next stroke from the D, away from where the miss left it.
    (
        "3.14(a)",
        "where the cue ball was before the miss not known: no replacement read",
        [
            match(),
            cam(["red"]),
            cam([], miss=True, positions=at(None, {"white": up(4 * WITHIN), **RED})),
            next_from([CX, 650.0]),
        ],
        PLAYED_ON,
    ),
    # rules._miss_chain: Ben's miss (full ball open) is replaced; Ann then strikes out of turn from the
    # replaced position and misses: her miss starts her own count (one), no warning (3.14(c): the
    # misses counted are the offender's own from the same position).
    (
        "3.14(c)/3.12(a)",
        "a miss from a replaced position by another player starts his own count",
        [
            match(),
            stroke(["red"], player=0),
            stroke([], player=1, miss=True, full_ball=True),
            {"type": "decision", "choice": "replace"},
            stroke([], player=0, miss=True, full_ball=True),
        ],
        {"foul": True, "miss": True, "offender": 0, "warning": False},
    ),
    # ... while the offender's own second miss from there is the warning.
    (
        "3.14(c)",
        "the offender's own second miss from the replaced position: the warning",
        [
            match(),
            stroke(["red"], player=0),
            stroke([], player=1, miss=True, full_ball=True),
            {"type": "decision", "choice": "replace"},
            stroke([], player=1, miss=True, full_ball=True),
        ],
        {"foul": True, "miss": True, "offender": 1, "warning": False, "warning_due": True},
    ),
    # rules._implicit_play, four-handed: A (0) fouls, B (1) is to decide. A's partner C (2) strikes:
    # he is not the offender, so the stroke shows B chose to play on, and C played out of turn
    # (3.12(a)): C's foul, D to decide.
    (
        "3.11(h)/3.17",
        "four-handed: the offender's partner strikes while a decision is open: out of turn",
        [FOUR, stroke([], player=0), stroke(["red"], player=2)],
        {"foul": True, "fouls": ["out_of_turn"], "offender": 2, "score": [0, 8], "striker": 3},
    ),
    # ... the offender himself striking is asked to play again: no foul, his turn.
    (
        "3.11(h)/3.17",
        "four-handed: the offender strikes while a decision is open: asked to play again",
        [FOUR, stroke([], player=0), stroke(["red"], player=0)],
        {"foul": False, "score": [0, 4], "striker": 1},
    ),
    # rules._ball_moved: the blue, moved off the line by a spectator, is put back by the referee at
    # its logged ``position`` between the cue ball and the only red; Ann then touches the pink (a foul
    # line): from the places as they stand Ben is snookered on the red, a free ball (3.10).
    (
        "3.15/3.10",
        "ball_moved's position is where the ball stands after it",
        [
            match(),
            {
                "type": "table",
                "reds": 1,
                "ball_on": "red",
                "score": [0, 0],
                "striker": 0,
                "positions": {"white": [CX, 1000.0], "red-1": [CX, 2700.0], "blue": [CX + 500.0, BLUE[1]]},
            },
            {"type": "ball_moved", "ball": "blue", "position": BLUE},
            {"type": "foul", "reason": "touched_ball", "ball": "pink"},
        ],
        {"foul": True, "free_ball": True, "striker": 1},
    ),
    (
        "3.15/3.10",
        "ball_moved without a position leaves the places as they were: no free ball",
        [
            match(),
            {
                "type": "table",
                "reds": 1,
                "ball_on": "red",
                "score": [0, 0],
                "striker": 0,
                "positions": {"white": [CX, 1000.0], "red-1": [CX, 2700.0], "blue": [CX + 500.0, BLUE[1]]},
            },
            {"type": "ball_moved", "ball": "blue"},
            {"type": "foul", "reason": "touched_ball", "ball": "pink"},
        ],
        {"foul": True, "free_ball": False, "striker": 1},
    ),
]


@over_checklist(CHECKLIST)
def test_mutation_survivor_rows(lines, expected):
    assert_last_ruling(lines, expected)
