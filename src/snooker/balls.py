"""The game's vocabulary shared by every layer: ball names, values, pockets.

Names follow CONTRACTS.md: ``white``, ``red``, ``yellow`` … ``black``; individual reds may carry
an id (``red-7``). Pocket names are as seen standing at the baulk end.
"""

from __future__ import annotations

from typing import Final

CUE_BALL: Final = "white"
RED: Final = "red"
COLOURS: Final[tuple[str, ...]] = ("yellow", "green", "brown", "blue", "pink", "black")
"""The six colours in ascending order of value (the order they are potted at the end)."""

BALL_NAMES: Final[tuple[str, ...]] = (CUE_BALL, RED, *COLOURS)
BALL_VALUES: Final[dict[str, int]] = {
    "red": 1,
    "yellow": 2,
    "green": 3,
    "brown": 4,
    "blue": 5,
    "pink": 6,
    "black": 7,
}
FULL_RACK_REDS: Final = 15

POCKET_NAMES: Final[tuple[str, ...]] = (
    "baulk_left",
    "baulk_right",
    "middle_left",
    "middle_right",
    "top_left",
    "top_right",
)


def ball_kind(ball_id: str) -> str:
    """Return the ball name of a ball id: ``red-7`` → ``red``; ``pink`` → ``pink``.

    Raises ValueError for anything that is not a snooker ball.
    """
    kind = ball_id.split("-", 1)[0] if ball_id.startswith("red-") else ball_id
    if kind not in BALL_NAMES:
        raise ValueError(f"unknown ball {ball_id!r}; expected one of {', '.join(BALL_NAMES)}")
    return kind


def ball_value(ball_id: str) -> int:
    """Point value of an object ball (reds 1 … black 7). The cue ball has no value."""
    kind = ball_kind(ball_id)
    if kind == CUE_BALL:
        raise ValueError("the cue ball has no value")
    return BALL_VALUES[kind]
