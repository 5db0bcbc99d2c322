"""Foul reason codes (3.12) as a stable enum with display text and the penalty rule they fall under.

The codes are part of the public surface (CONTRACTS.md §1 ``fouls``, §2 ``fouls``): never rename one.
Each code belongs to one penalty class of 3.12:

- ``BALL_ON``: the value of the ball on (3.12(a));
- ``BALL_ON_OR_CONCERNED``: the value of the ball on or of the ball concerned, whichever is higher (3.12(b));
- ``TWO_BALLS``: the value of the ball on or the higher of the two balls hit at once (3.12(c));
- ``SEVEN``: seven points (3.12(d)).

Every penalty is at least ``MIN_PENALTY`` and at most ``MAX_PENALTY`` points.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

MIN_PENALTY: Final = 4
MAX_PENALTY: Final = 7


class PenaltyClass(Enum):
    """Which value of 3.12 a foul is penalised with; ``.rule`` is the sub-rule, ``.text`` the value."""

    BALL_ON = ("ball_on", "3.12(a)", "the value of the ball on")
    BALL_ON_OR_CONCERNED = (
        "ball_on_or_concerned",
        "3.12(b)",
        "the value of the ball on or of the ball concerned, whichever is higher",
    )
    TWO_BALLS = (
        "two_balls",
        "3.12(c)",
        "the value of the ball on or of the higher of the two balls hit at once",
    )
    SEVEN = ("seven", "3.12(d)", "seven points")

    def __init__(self, code: str, rule: str, text: str) -> None:
        self.code = code
        self.rule = rule
        self.text = text


class FoulReason(Enum):
    """A foul, by its stable reason code. ``.text`` is the display text, ``.penalty_class`` its rule."""

    # 3.12(a): value of the ball on
    DOUBLE_HIT = ("double_hit", "striking the cue ball more than once", PenaltyClass.BALL_ON)
    NO_FOOT_ON_FLOOR = ("no_foot_on_floor", "striking with both feet off the floor", PenaltyClass.BALL_ON)
    OUT_OF_TURN = ("out_of_turn", "playing out of turn", PenaltyClass.BALL_ON)
    IMPROPER_IN_HAND = ("improper_in_hand", "playing improperly from in-hand", PenaltyClass.BALL_ON)
    MISSED_ALL_BALLS = ("missed_all_balls", "the cue ball missed all object balls", PenaltyClass.BALL_ON)
    CUE_BALL_POTTED = ("cue_ball_potted", "the cue ball entered a pocket", PenaltyClass.BALL_ON)
    FREE_BALL_SNOOKER = ("free_ball_snooker", "snookering with the free ball", PenaltyClass.BALL_ON)
    JUMP_SHOT = ("jump_shot", "a jump shot", PenaltyClass.BALL_ON)
    ILLEGAL_CUE = ("illegal_cue", "playing with a non-standard cue", PenaltyClass.BALL_ON)
    CONFERRING = ("conferring", "conferring with a partner against 3.17(e)", PenaltyClass.BALL_ON)
    # 3.12(b): value of the ball on or of the ball concerned
    BALLS_MOVING = (
        "balls_moving",
        "striking while a ball was still moving",
        PenaltyClass.BALL_ON_OR_CONCERNED,
    )
    BEFORE_SPOTTING = (
        "before_spotting",
        "striking before the referee finished spotting a colour",
        PenaltyClass.BALL_ON_OR_CONCERNED,
    )
    POTTED_BALL_NOT_ON = ("potted_ball_not_on", "potting a ball not on", PenaltyClass.BALL_ON_OR_CONCERNED)
    WRONG_BALL_FIRST = (
        "wrong_ball_first",
        "the cue ball first hit a ball not on",
        PenaltyClass.BALL_ON_OR_CONCERNED,
    )
    PUSH_STROKE = ("push_stroke", "a push stroke", PenaltyClass.BALL_ON_OR_CONCERNED)
    TOUCHED_BALL = (
        "touched_ball",
        "touching a ball in play other than with the tip on the cue ball in a stroke",
        PenaltyClass.BALL_ON_OR_CONCERNED,
    )
    BALL_OFF_TABLE = ("ball_off_table", "forcing a ball off the table", PenaltyClass.BALL_ON_OR_CONCERNED)
    CUE_BALL_OFF_TABLE = (
        "cue_ball_off_table",
        "forcing the cue ball off the table",
        PenaltyClass.BALL_ON_OR_CONCERNED,
    )
    # 3.12(c): two balls at once
    TWO_BALLS_AT_ONCE = (
        "two_balls_at_once",
        "the cue ball first hit two balls at once (not two reds, nor free ball and ball on)",
        PenaltyClass.TWO_BALLS,
    )
    # 3.12(d): seven points
    USED_BALL_OFF_TABLE = ("used_ball_off_table", "using a ball off the table", PenaltyClass.SEVEN)
    MEASURED_GAP = ("measured_gap", "measuring a gap or distance", PenaltyClass.SEVEN)
    REDS_IN_SUCCESSIVE_STROKES = (
        "reds_in_successive_strokes",
        "playing at reds in successive strokes",
        PenaltyClass.SEVEN,
    )
    WRONG_CUE_BALL = (
        "wrong_cue_ball",
        "using a ball other than the cue ball as the cue ball",
        PenaltyClass.SEVEN,
    )
    FAILED_TO_DECLARE = (
        "failed_to_declare",
        "failing to declare the ball on when the referee asked",
        PenaltyClass.SEVEN,
    )
    FOUL_BEFORE_NOMINATION = (
        "foul_before_nomination",
        "a foul after potting a red (or a free ball as a red) before a colour was nominated",
        PenaltyClass.SEVEN,
    )

    def __init__(self, code: str, text: str, penalty_class: PenaltyClass) -> None:
        self.code = code
        self.text = text
        self.penalty_class = penalty_class

    @classmethod
    def from_code(cls, code: str) -> FoulReason:
        """The reason for a code; raises ValueError naming the known codes for an unknown one."""
        for reason in cls:
            if reason.code == code:
                return reason
        known = ", ".join(r.code for r in cls)
        raise ValueError(f"unknown foul reason {code!r}; known reasons: {known}")


def penalty_value(reason: FoulReason, ball_on_value: int, concerned_values: tuple[int, ...] = ()) -> int:
    """Penalty in points for one foul (3.12), clamped to ``MIN_PENALTY``..``MAX_PENALTY``.

    ``ball_on_value``: the value of the ball on for the stroke (the nominated colour after a red, the
    nominated free ball); ``concerned_values``: values of the balls concerned (for 3.12(b) and (c)).
    """
    if reason.penalty_class is PenaltyClass.SEVEN:
        return MAX_PENALTY
    value = ball_on_value
    if reason.penalty_class is not PenaltyClass.BALL_ON and concerned_values:
        value = max(value, *concerned_values)
    return min(MAX_PENALTY, max(MIN_PENALTY, value))


def foul_reasons_markdown() -> str:
    """The table of every foul reason code, its penalty rule and display text (docs/FRAME_LOG.md)."""
    rows = [
        "| code | rule | penalty | display text |",
        "|---|---|---|---|",
    ]
    for reason in FoulReason:
        klass = reason.penalty_class
        rows.append(f"| `{reason.code}` | {klass.rule} | {klass.text} | {reason.text} |")
    return "\n".join(rows) + "\n"


class Correction(Enum):
    """A ruling that puts right what was not called or not done (no foul, no penalty), by its stable
    code: a ruling's ``corrections`` lists the codes. ``.text`` is the display text, ``.rule`` the
    sub-rule of Section 3 (the Polish text's numbering)."""

    CONDONED = ("condoned", "3.11(c)", "a foul not called before the next stroke is condoned")
    WRONGLY_SPOTTED = (
        "wrongly_spotted",
        "3.7(b)",
        "a colour potted for good was spotted again: it stands, not on, until the error is found",
    )
    NOT_SPOTTED = (
        "not_spotted",
        "3.7(c)",
        "a colour to be re-spotted was left off the table: it is missing until the error is found",
    )
    WRONGLY_SPOTTED_REMOVED = (
        "wrongly_spotted_removed",
        "3.7(b)",
        "a colour wrongly spotted is removed without penalty and play continues",
    )
    MISSING_COLOUR_SPOTTED = (
        "missing_colour_spotted",
        "3.7(c)",
        "a colour wrongly missing from the table is spotted without penalty (an oversight)",
    )
    MATCH_CONCEDED = (
        "match_conceded",
        "3.1(f)-(g)",
        "the match is conceded: the frame in play and the frames still needed go to the opponent",
    )

    def __init__(self, code: str, rule: str, text: str) -> None:
        self.code = code
        self.rule = rule
        self.text = text


def corrections_markdown() -> str:
    """The table of every correction code, its rule and display text (docs/FRAME_LOG.md)."""
    rows = ["| code | rule | display text |", "|---|---|---|"]
    rows += [f"| `{c.code}` | {c.rule} | {c.text} |" for c in Correction]
    return "\n".join(rows) + "\n"
