"""What the frame log could not say: a condoned foul, a colour wrongly spotted, a match conceded.

Each row is a plain frame log and the fields of its last ruling (or the error its last line gets).
All of them failed on the code before these lines existed: the log had no way to say these things.

- 3.11(c) (Polish text, 11(C)): "Jeżeli faul nie zostanie ogłoszony przez sędziego lub nie zostanie
  zareklamowany przez zawodnika oczekującego przed rozpoczęciem następnego zagrania, jest uznany za
  niebyły." A stroke's ``condoned`` says its foul was not called before the next stroke: no penalty,
  the turn and break as if no foul, the balls where they came to rest.
- 3.7(a)-(c) (Polish 7(A)-(C)): a colour spotted though potted for good in the ascending phase is
  removed without penalty when found, play goes on; strokes played meanwhile count as played with the
  balls as they stood; a colour wrongly missing is spotted, without penalty for an oversight.
  The ``spot_error`` line says the error as it happened (``corrected`` false) and as it is found.
- 1(F)-(G) (Polish 1(F)-(G)): a frame conceded goes to the opponent; the match is won by the frames
  won or required. ``concede`` with ``match`` true ends the match: the frame in play conceded, the
  frames the opponent still needs awarded.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    decision,
    match,
    pot,
    referee_after,
    safe,
    stroke,
    to_colours,
)


def condoned(first: list[str], potted: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    return stroke(first, potted, condoned=True, **extra)


def spot_error(ball: str, error: str, **extra: Any) -> dict[str, Any]:
    return {"type": "spot_error", "ball": ball, "error": error, **extra}


def concede_match(**extra: Any) -> dict[str, Any]:
    return {"type": "concede", "match": True, **extra}


YELLOW_DOWN = [*to_colours(6), pot("yellow")]
"""Six reds cleared with blacks, then the yellow potted for good: the green is on, Ann on 50."""
YELLOW_BACK = [*YELLOW_DOWN, spot_error("yellow", "wrongly_spotted")]
"""...and the yellow spotted again by mistake (3.7(b)): it stands on the table, never on."""
PINK_LEFT_OFF = [match(), pot("red"), pot("pink"), spot_error("pink", "not_spotted")]
"""A red and the pink potted; the pink, which is re-spotted while reds remain, left off (3.7(c))."""

CONDONED = [
    # The blue hit first while on a red, not called: no penalty, Ben to play (nothing scored).
    (
        "3.11(c)",
        "wrong ball first condoned: no penalty, the turn passes",
        [match(), condoned(["blue"])],
        {
            "foul": False,
            "penalty": 0,
            "score": [0, 0],
            "striker": 1,
            "options": [],
            "status": "in_play",
            "corrections": ["condoned"],
            "condoned": ["wrong_ball_first"],
        },
    ),
    # The pink hit first, a red potted: the red scores and the break goes on (as if no foul).
    (
        "3.11(c)",
        "condoned stroke scores the ball on it potted; the break goes on",
        [match(), condoned(["pink"], ["red"])],
        {"foul": False, "score": [1, 0], "break": 1, "striker": 0, "ball_on": "colour", "points": 1},
    ),
    # The cue ball went in-off, not called: no penalty; the next player plays from in hand.
    (
        "3.11(c)",
        "in-off condoned: no penalty, cue ball in hand for the next player",
        [match(), condoned(["red"], cue_ball="potted")],
        {"foul": False, "penalty": 0, "score": [0, 0], "striker": 1, "in_hand": True},
    ),
    # Ben played out of turn and potted a red; nobody called it: it is Ben's stroke, his red and
    # his break (the order of play goes on from him).
    (
        "3.11(c)",
        "out of turn condoned: the stroke is the one who played it",
        [match(), condoned(["red"], ["red"], player=1)],
        {"foul": False, "score": [0, 1], "striker": 1, "break": 1, "condoned": ["out_of_turn"]},
    ),
    # A colour potted when not on (after missing the red) stays a colour: re-spotted, not scored.
    (
        "3.11(c)",
        "a ball not on potted in a condoned stroke is re-spotted, not scored",
        [match(), condoned(["black"], ["black"])],
        {
            "foul": False,
            "score": [0, 0],
            "striker": 1,
            "respotted": ["black"],
            "colours": list(("yellow", "green", "brown", "blue", "pink", "black")),
        },
    ),
    # With only the black left, a foul not called does not end the frame.
    (
        "3.11(c)",
        "a condoned foul on the last black does not end the frame",
        [*YELLOW_DOWN, pot("green"), pot("brown"), pot("blue"), pot("pink"), condoned([])],
        {"foul": False, "frame_over": False, "striker": 1, "ball_on": "black"},
    ),
    # After a condoned stroke no decision is open.
    (
        "3.11(c)",
        "no decision after a condoned foul",
        [match(), condoned(["blue"]), decision("play_again")],
        {"error": "no decision is open: a decision follows a foul"},
    ),
]

CONDONED_REFUSED = [
    ("condoned stroke that broke no rule", [match(), condoned(["red"], ["red"])], "broke no rule"),
    ("condoned with a miss called", [match(), condoned(["blue"], miss=True)], "condoned"),
    ("condoned with a free ball called", [match(), condoned(["blue"], free_ball=True)], "condoned"),
    ("condoned not a bool", [match(), stroke(["blue"], condoned="yes")], "condoned: expected true or false"),
]

SPOTTING = [
    # The yellow stands on the table by the referee's mistake: a stroke on the green that touches
    # nothing else is ruled as usual, the yellow listed as wrongly spotted.
    (
        "3.7(b)",
        "wrongly spotted colour stands on the table, the ball on unchanged",
        YELLOW_BACK,
        {
            "ball_on": "green",
            "colours": ["green", "brown", "blue", "pink", "black"],
            "wrongly_spotted": ["yellow"],
            "foul": False,
            "penalty": 0,
        },
    ),
    (
        "3.7(b)",
        "the green potted while the yellow stands wrongly spotted scores",
        [*YELLOW_BACK, pot("green")],
        {"foul": False, "score": [53, 0], "ball_on": "brown", "wrongly_spotted": ["yellow"]},
    ),
    # The striker on the green hits the wrongly spotted yellow first: it is not on (3.7(b): it was
    # potted for good), so a ball not on was hit first; 3.7(c): strokes count as played.
    (
        "3.7(b)-(c)",
        "the wrongly spotted colour hit first is a ball not on",
        [*YELLOW_BACK, safe("yellow")],
        {"foul": True, "penalty": 4, "fouls": ["wrong_ball_first"], "score": [50, 4]},
    ),
    # Potted (with the green, a foul): it goes for good, not re-spotted.
    (
        "3.7(b)",
        "the wrongly spotted colour potted leaves the table for good",
        [*YELLOW_BACK, stroke(["green"], ["green", "yellow"])],
        {
            "foul": True,
            "fouls": ["potted_ball_not_on"],
            "wrongly_spotted": [],
            "colours": ["green", "brown", "blue", "pink", "black"],
        },
    ),
    # Found: removed without penalty, play goes on (the same striker, the same score).
    (
        "3.7(b)",
        "wrongly spotted colour removed when found, no penalty",
        [*YELLOW_BACK, safe("green"), spot_error("yellow", "wrongly_spotted", corrected=True)],
        {
            "foul": False,
            "penalty": 0,
            "score": [50, 0],
            "striker": 1,
            "wrongly_spotted": [],
            "corrections": ["wrongly_spotted_removed"],
            "announcements": ["BALL REMOVED"],
        },
    ),
    # A colour left off: the striker cannot hit it (it is not there)...
    (
        "3.7(c)",
        "a colour wrongly missing cannot be hit",
        [*PINK_LEFT_OFF, pot("red"), safe("pink")],
        {"error": "first_contact: the pink is not on the table"},
    ),
    # ...it still counts in the points remaining (it will be spotted)...
    (
        "3.7(c)",
        "a colour wrongly missing still counts in the points remaining",
        PINK_LEFT_OFF,
        {
            "points_remaining": 14 * 8 + 27,
            "not_spotted": ["pink"],
            "colours": ["yellow", "green", "brown", "blue", "pink", "black"],
        },
    ),
    # ...and once found it is spotted without penalty (an oversight).
    (
        "3.7(c)",
        "a colour wrongly missing spotted without penalty when found",
        [*PINK_LEFT_OFF, spot_error("pink", "not_spotted", corrected=True)],
        {
            "foul": False,
            "penalty": 0,
            "score": [7, 0],
            "respotted": ["pink"],
            "not_spotted": [],
            "corrections": ["missing_colour_spotted"],
            "announcements": ["BALL SPOTTED"],
        },
    ),
    (
        "3.7(c)",
        "the colour spotted again can be potted",
        [*PINK_LEFT_OFF, spot_error("pink", "not_spotted", corrected=True), pot("red"), pot("pink")],
        {"foul": False, "score": [14, 0]},
    ),
]

SPOTTING_REFUSED = [
    (
        "a colour still to be potted is not wrongly spotted",
        [match(), spot_error("pink", "wrongly_spotted")],
        "is still in play",
    ),
    (
        "a colour potted for good is not spotted",
        [*YELLOW_DOWN, spot_error("yellow", "not_spotted")],
        "potted for good",
    ),
    ("no such error", [match(), spot_error("pink", "sideways")], "spot_error.error"),
    ("a red is never spotted", [match(), spot_error("red", "not_spotted")], "spot_error.ball"),
    (
        "corrected not a bool",
        [match(), spot_error("pink", "not_spotted", corrected=1)],
        "corrected: expected true or false",
    ),
    ("wrongly spotted twice", [*YELLOW_BACK, spot_error("yellow", "wrongly_spotted")], "already"),
]

MATCH_CONCEDED = [
    (
        "1(F)-(G)",
        "a match conceded in its first frame: the frames needed awarded",
        [match(best_of=7), pot("red"), concede_match(player=1)],
        {
            "frame_over": True,
            "match_over": True,
            "match_winner": 0,
            "frames": [4, 0],
            "status": "match_over",
            "match_conceded": {"player": 1, "side": 1, "frames_awarded": 3},
            "winner": 0,
        },
    ),
    (
        "1(F)-(G)",
        "a match conceded between frames by the player leading",
        [match(best_of=5), {"type": "concede", "player": 1}, concede_match(player=0)],
        {
            "match_over": True,
            "match_winner": 1,
            "frames": [1, 3],
            "match_conceded": {"player": 0, "side": 0, "frames_awarded": 3},
        },
    ),
    (
        "1(G)",
        "a match on aggregate points conceded by the player ahead on points",
        [match(best_of=2, aggregate=True), pot("red"), pot("black"), concede_match(player=0)],
        {"match_over": True, "match_winner": 1, "frames": [0, 2]},
    ),
    (
        "1(G)",
        "conceding by the player to play (default)",
        [match(best_of=3), concede_match()],
        {"match_over": True, "match_winner": 1, "frames": [0, 2]},
    ),
    (
        "1(G)",
        "nothing after the match is conceded",
        [match(best_of=3), concede_match(), {"type": "new_frame"}],
        {"error": "the match is over; no further frames"},
    ),
]

MATCH_CONCEDED_REFUSED = [
    (
        "match not a bool",
        [match(best_of=3), concede_match(match="yes")],
        "concede.match: expected true or false",
    ),
    ("a match conceded twice", [match(best_of=3), concede_match(), concede_match()], "the match is over"),
]


def _params(rows: list[tuple[Any, ...]]) -> Any:
    return pytest.mark.parametrize(
        ("lines", "expected"), [r[2:] for r in rows], ids=[f"{r[0]} {r[1]}" for r in rows]
    )


def _refusals(rows: list[tuple[Any, ...]]) -> Any:
    return pytest.mark.parametrize(("lines", "message"), [r[1:] for r in rows], ids=[r[0] for r in rows])


@_params(CONDONED + SPOTTING + MATCH_CONCEDED)
def test_log_gap_rows(lines, expected):
    assert_last_ruling(lines, expected)


@_refusals(CONDONED_REFUSED + SPOTTING_REFUSED + MATCH_CONCEDED_REFUSED)
def test_malformed_or_impossible_lines_are_refused_naming_the_problem(lines, message):
    referee = referee_after(lines[:-1])
    before = referee.scoreboard()
    ruling = referee.apply(lines[-1])
    assert "error" in ruling and message in ruling["error"], ruling
    assert referee.scoreboard() == before


def test_the_scoreboard_says_the_match_was_conceded():
    referee = referee_after([match(best_of=7), pot("red"), concede_match(player=1)])
    board = referee.scoreboard()
    assert board["match_conceded"] == {"player": 1, "side": 1, "frames_awarded": 3}
    assert board["match_over"] and board["match_winner"] == 0 and board["frames"] == [4, 0]
    assert referee_after([match(best_of=7)]).scoreboard()["match_conceded"] is None


def test_the_scoreboard_lists_spotting_errors_standing():
    board = referee_after(YELLOW_BACK).scoreboard()
    assert board["wrongly_spotted"] == ["yellow"] and board["not_spotted"] == []
    assert referee_after(PINK_LEFT_OFF).scoreboard()["not_spotted"] == ["pink"]


def test_the_doc_holds_the_generated_table_of_corrections():
    from pathlib import Path

    from snooker.referee.reasons import corrections_markdown

    doc = Path(__file__).resolve().parents[2] / "docs" / "FRAME_LOG.md"
    assert corrections_markdown() in doc.read_text()
