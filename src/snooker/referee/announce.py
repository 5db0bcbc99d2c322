"""What the referee says, in the words referees use (``FOUL``, ``FOUR AWAY``, ``FREE BALL``, breaks)."""

from __future__ import annotations

from typing import Final

FOUL: Final = "FOUL"
FOUL_AND_A_MISS: Final = "FOUL AND A MISS"
FREE_BALL: Final = "FREE BALL"
TOUCHING_BALL: Final = "TOUCHING BALL"
RESPOTTED_BLACK: Final = "RE-SPOTTED BLACK"
BALL_REPLACED: Final = "BALL REPLACED"
BALLS_REPLACED: Final = "BALLS REPLACED"
PLAY_AGAIN: Final = "PLAY AGAIN"
RE_RACK: Final = "RE-RACK"
BALL_REMOVED: Final = "BALL REMOVED"
"""A colour wrongly spotted taken off the table (3.7(b))."""
BALL_SPOTTED: Final = "BALL SPOTTED"
"""A colour wrongly missing put on its spot (3.7(c))."""
MATCH_CONCEDED: Final = "MATCH CONCEDED"
MISS_WARNING: Final = "WARNING: A THIRD MISS WILL AWARD THE FRAME TO YOUR OPPONENT"

_UNITS = (
    "ZERO",
    "ONE",
    "TWO",
    "THREE",
    "FOUR",
    "FIVE",
    "SIX",
    "SEVEN",
    "EIGHT",
    "NINE",
    "TEN",
    "ELEVEN",
    "TWELVE",
    "THIRTEEN",
    "FOURTEEN",
    "FIFTEEN",
    "SIXTEEN",
    "SEVENTEEN",
    "EIGHTEEN",
    "NINETEEN",
)
_TENS = ("_", "_", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY")


def number_words(n: int) -> str:
    """A non-negative number as a referee says it: 147 → ``ONE HUNDRED AND FORTY-SEVEN``."""
    if n < 0:
        raise ValueError("a referee never calls a negative number")
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens] + ("" if unit == 0 else "-" + _UNITS[unit])
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = f"{_UNITS[hundreds]} HUNDRED"
        return head if rest == 0 else f"{head} AND {number_words(rest)}"
    thousands, rest = divmod(n, 1000)
    head = f"{number_words(thousands)} THOUSAND"
    return head if rest == 0 else f"{head} {number_words(rest)}"


def penalty_call(points: int) -> str:
    """``FOUR AWAY`` … ``SEVEN AWAY``: the penalty as the referee announces it."""
    return f"{number_words(points)} AWAY"


def frame_call(name: str) -> str:
    """``FRAME TO <NAME>``: the frame's winner (a player or a side's names)."""
    return f"FRAME TO {name.upper()}"


def match_call(name: str) -> str:
    """``MATCH TO <NAME>``: the match's winner."""
    return f"MATCH TO {name.upper()}"
