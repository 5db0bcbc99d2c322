"""The referee's known limits, carried for several sessions, each ruled on from the rules.

Each row is a frame log and the fields of its last ruling the texts (Section 3, the Polish source
``section3-rules-pl.txt``) and the contracts give, the argument in its comment.

- 3.4(b) the break of the stroke that ties a frame: "Jeżeli obydwa warunki wymienione w (A) są
  spełnione, wówczas [...] zawodnicy losują kolejność gry" — the tie ends the visit, the lot begins
  the re-spotted black's play. The tying pot's ruling calls the break ("THIRTEEN") and its ``break``
  says it, as a stroke that ends the frame keeps its break; the lot (or the line showing it) starts
  the next visit from 0.
- 3.14(c) the warning: "jeśli zostanie nakazana gra z pozycji poprzedniej, faulujący musi być
  ostrzeżony przez sędziego, że trzeci taki faul spowoduje przyznanie frejmu przeciwnikowi" — the
  referee warns when the replay from the previous position is ordered, after the second failure
  ("trzeci taki faul": two have been made; the Chinese (ii) "如又再次被要求從同樣位置繼續擊球", asked
  again). CONTRACTS.md §2 ``warning``: "the three-miss warning given". So the second miss's own
  ruling says no warning given (``warning`` false) but one due on a replacement (``warning_due``);
  the replacement gives it.
- 3.12(b) ``before_spotting`` without its ball: "wartością wyższą z wartości: bili rozgrywanej lub
  bili branej pod uwagę [...] uderzenia, zanim sędzia zakończył ustawianie bil kolorowych" — the
  ball concerned is the colour being spotted, which the frame knows: one the last stroke
  re-spotted (the lowest of several, the log not saying which was still unspotted).
- Balls the positions leave out stand nowhere (rules.py's module notes argue why): pinned here so
  a change of that reading is a decision, not an accident.
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    assert_last_ruling,
    at,
    decision,
    foul,
    lot,
    match,
    over_checklist,
    pot,
    referee_after,
    stroke,
    table,
)

from snooker.calibration.table import STANDARD_TABLE as TABLE
from snooker.referee.announce import MISS_WARNING

TIED = [
    match(),
    table(reds=0, colours=["pink", "black"], ball_on="pink", score=[0, 13], striker=0),
    pot("pink"),
    pot("black"),
]
"""Ann 0-13 behind with the pink and the black left clears them: 13-13, a re-spotted black."""


def _miss(**extra: Any) -> dict[str, Any]:
    return stroke([], clear_path=True, full_ball=True, **extra)


TWO_MISSES = [match(), _miss(), decision("replace"), _miss()]
"""Ann misses every red with a full ball open twice from the same position (3.14(b)-(c))."""

CUE = [TABLE.width_mm / 2.0, 1000.0]
RED = [TABLE.width_mm / 2.0, 2600.0]
BLUE_SPOT = [TABLE.width_mm / 2.0, TABLE.length_mm / 2.0]
"""The blue on its spot stands on the line from ``CUE`` to ``RED``, hiding every part of the red."""

JOINED = [match(), table(reds=15, ball_on="red", score=[0, 0], striker=0)]
"""A frame in play, Ann on a red, the cue ball on the table."""

CHECKLIST = [
    (
        "3.4(b)",
        "the stroke that ties the frame says the break it made",
        TIED,
        {"break": 13, "points": 7, "respotted_black": True, "status": "respotted_black_lot"},
    ),
    (
        "3.4(b)",
        "the lot begins the re-spotted black's play: a new visit",
        [*TIED, lot(0)],
        {"break": 0, "striker": 0, "status": "in_play"},
    ),
    (
        "3.4(b)",
        "no lot logged: the re-spotted black potted by the tying player is a break of 7, not 20",
        [*TIED, pot("black", player=0)],
        {"break": 7, "frame_over": True, "winner": 0, "score": [20, 13]},
    ),
    (
        "3.4(b)",
        "a foul on the re-spotted black by a player the line names ends the frame, no break",
        [*TIED, foul("touched_ball", "black", player=1)],
        {"break": 0, "frame_over": True, "winner": 0, "score": [20, 13]},
    ),
    (
        "3.14(c)",
        "the first miss with a full ball open: no warning given, none due",
        [match(), _miss()],
        {"miss": True, "warning": False, "warning_due": False},
    ),
    (
        "3.14(c)",
        "the second miss: the warning is due if the balls are replaced, not yet given",
        TWO_MISSES,
        {
            "miss": True,
            "warning": False,
            "warning_due": True,
            "announcements": ["FOUL AND A MISS", "FOUR AWAY"],
        },
    ),
    (
        "3.14(c)",
        "replaced after the second miss: the warning is given and in force",
        [*TWO_MISSES, decision("replace")],
        {"warning": True, "warning_due": False, "announcements": ["BALLS REPLACED", MISS_WARNING]},
    ),
    (
        "3.14(c)",
        "played on after the second miss: no warning was ever given",
        [*TWO_MISSES, decision("play")],
        {"warning": False, "warning_due": False, "announcements": []},
    ),
    (
        "3.14(c)",
        "the third miss from the position, the warning given, awards the frame",
        [*TWO_MISSES, decision("replace"), _miss()],
        {"frame_over": True, "winner": 1, "warning": False, "warning_due": False},
    ),
    (
        "3.12(b)",
        "before_spotting without a ball after the black was re-spotted: valued on the black",
        [match(), pot("red"), pot("black"), stroke(["red"], fouls=["before_spotting"])],
        {"foul": True, "penalty": 7, "fouls": ["before_spotting"], "score": [8, 7]},
    ),
    (
        "3.12(b)",
        "before_spotting named on its ball: as before",
        [
            match(),
            pot("red"),
            pot("black"),
            stroke(["red"], fouls=[{"reason": "before_spotting", "ball": "black"}]),
        ],
        {"penalty": 7, "score": [8, 7]},
    ),
    (
        "3.12(b)",
        "two colours re-spotted after a foul, a decision between: the lower of them, the pink",
        [
            match(),
            stroke(["red"], ["red", "pink", "black"]),
            decision("play"),
            stroke(["red"], fouls=["before_spotting"]),
        ],
        {"penalty": 6, "score": [6, 7], "striker": 0},
    ),
    (
        "3.12(b)",
        "a stroke that spotted nothing in between: no colour being spotted, the ball on's value",
        [
            match(),
            pot("red"),
            pot("black"),
            pot("red"),
            stroke(["yellow"], fouls=["before_spotting"], nominated="yellow"),
        ],
        {"penalty": 4, "score": [9, 4]},
    ),
    (
        "3.12(b)",
        "a before_spotting foul line without a ball, by the striker: valued on the colour re-spotted",
        [match(), pot("red"), pot("pink"), foul("before_spotting")],
        {"penalty": 6, "score": [7, 6]},
    ),
    (
        "3.14(b)",
        "a blue the places give on the line hides the red: no straight line, no miss",
        [*JOINED, stroke([], positions=at({"white": CUE, "red-1": RED, "blue": BLUE_SPOT}, None))],
        {"foul": True, "miss": False},
    ),
    (
        "3.14(b)",
        "the same blue left out of the places stands nowhere: the line is open, a miss",
        [*JOINED, stroke([], positions=at({"white": CUE, "red-1": RED}, None))],
        {"foul": True, "miss": True},
    ),
]


@over_checklist(CHECKLIST)
def test_checklist(lines: list[dict[str, Any]], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


def test_the_scoreboard_keeps_the_tying_break_until_the_lot() -> None:
    """While the lot is drawn the scoreboard shows the break that tied the frame (as the frame's
    highest break does); the lot starts the next visit."""
    board = referee_after(TIED).scoreboard()
    assert (
        board["break"] == 13
        and board["highest_break"] == [13, 0]
        and board["status"] == "respotted_black_lot"
    )
    assert referee_after([*TIED, lot(1)]).scoreboard()["break"] == 0


def test_the_scoreboard_says_a_warning_due_apart_from_one_given() -> None:
    board = referee_after(TWO_MISSES).scoreboard()
    assert board["warning"] is False and board["warning_due"] is True and board["miss_count"] == 2
    board = referee_after([*TWO_MISSES, decision("replace")]).scoreboard()
    assert board["warning"] is True and board["warning_due"] is False
