"""A twelfth audit of the referee against Section 3 (/work/shared/rules), clause by clause, for what
the eleven earlier audits (tests/referee/test_referee_*audit*.py) did not take.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling), worked out by hand
from the texts (section3-rules-pl.txt authoritative; RULES-EN.md for Section 2), not from the
referee's output. Scores are [Ann, Ben].

Faults this audit found, each mended and kept by its rows (the rows marked "guard" passed before):

- 3.12(d): "using a ball off the table for any purpose" names a ball that is off the table by its
  nature (a red potted, a colour potted for good), yet the referee refused such a foul, as a line
  or in a stroke's ``fouls``, because its ball was not on the table.
- 3.4(c) with 3.1(f) and 3.14(c): in a match decided on aggregate points, a last frame that ended
  by a concession or an award with the aggregate level left the match neither over nor able to go
  on (no frame left to play, no re-spotted black). The aggregate is level after the last frame
  however that frame ended, so the re-spotted black is played (3.4(c) as in 3.4(b)); conceding or
  being awarded that re-spotted black decides the match.
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    assert_last_ruling,
    decision,
    foul,
    lot,
    match,
    over_checklist,
    pot,
    safe,
    stroke,
    to_colours,
)

FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""
CONCEDE = {"type": "concede"}
NEW_FRAME = {"type": "new_frame"}


# Six reds cleared with blacks by Ann (48-0); the yellow potted for good: Ann 50, on the green.
ON_GREEN = [*to_colours(6), pot("yellow")]
AGGREGATE_ONE = match(reds=6, aggregate=True)
"""A match of one frame decided on aggregate points (3.4(c))."""
AGGREGATE_TWO = match(reds=6, aggregate=True, best_of=2)
# Ann 12 (red, black, red, green) plays safe; Ben plays safe; Ann then fails three times from the
# same position with a full ball open, Ben asking each time for the balls to be replaced: 12 to Ben.
THREE_MISSES = [
    pot("red"),
    pot("black"),
    pot("red"),
    pot("green"),
    safe("red"),
    safe("red"),
    stroke([], **FULL),
    decision("replace"),
    stroke([], **FULL),
    decision("replace"),
    stroke([], **FULL),
]

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # --- 3.12(d): using a ball off the table --------------------------------------------------------
    # Ann on the green (the yellow potted for good) uses the yellow, off the table, to judge an angle:
    # seven to Ben, whatever the ball on; Ben to play, the usual options after a foul (3.11(h)).
    (
        "3.12(d)",
        "a foul line: the yellow, potted for good, used off the table: seven, not refused",
        [*ON_GREEN, foul("used_ball_off_table", "yellow")],
        {"foul": True, "penalty": 7, "fouls": ["used_ball_off_table"], "score": [50, 7], "striker": 1},
    ),
    # The same foul called in Ann's stroke on the green (she hit the green first, potted nothing),
    # the ball a red, all of which are off the table: seven.
    (
        "3.12(d)",
        "in a stroke: a red, none left on the table, used off the table: seven, not refused",
        [*ON_GREEN, safe("green", fouls=[{"reason": "used_ball_off_table", "ball": "red"}])],
        {"foul": True, "penalty": 7, "fouls": ["used_ball_off_table"], "score": [50, 7], "striker": 1},
    ),
    # Guard: a foul that concerns a ball in play (touching it) still needs that ball on the table.
    (
        "3.12(b)",
        "guard: touching the yellow, potted for good: still refused",
        [*ON_GREEN, foul("touched_ball", "yellow")],
        {"error": "foul.ball: the yellow is not on the table"},
    ),
    # --- 3.4(c): a level aggregate after a last frame conceded or awarded ------------------------------
    # One frame on aggregate points; Ann concedes at 0-0: the aggregate is level after the last frame,
    # so the players play a re-spotted black (3.4(c) as in 3.4(b)): the black on its spot, the lot
    # to draw, the frame not yet over.
    (
        "3.4(c)/3.1(f)",
        "aggregate, one frame: conceded at 0-0: a re-spotted black, lot to draw",
        [AGGREGATE_ONE, CONCEDE],
        {
            "status": "respotted_black_lot",
            "respotted_black": True,
            "frame_over": False,
            "match_over": False,
            "ball_on": "black",
            "in_hand": True,
            "respotted": ["black"],
            "announcements": ["RE-SPOTTED BLACK"],
        },
    ),
    # Ben wins the lot and pots the black: 0-7, the frame and the match to Ben.
    (
        "3.4(c)",
        "aggregate, one frame conceded level: Ben wins the lot, pots the black: the match to Ben",
        [AGGREGATE_ONE, CONCEDE, lot(1), pot("black")],
        {"score": [0, 7], "frame_over": True, "winner": 1, "match_over": True, "match_winner": 1},
    ),
    # Ben wins the lot and concedes the re-spotted black: the match to Ann (nothing else can
    # decide it).
    (
        "3.4(c)/3.1(f)",
        "aggregate, the re-spotted black conceded by Ben: the match to Ann",
        [AGGREGATE_ONE, CONCEDE, lot(1), CONCEDE],
        {"score": [0, 0], "frame_over": True, "winner": 0, "match_over": True, "match_winner": 0},
    ),
    # Nor is a new frame started while that re-spotted black is to play.
    (
        "3.4(c)/log",
        "aggregate, one frame conceded level: no new frame before the re-spotted black",
        [AGGREGATE_ONE, CONCEDE, NEW_FRAME],
        {"error": "frame 1 is not over: a re-spotted black decides it (3.4(b)-(c))"},
    ),
    # Two frames on aggregate: Ann concedes frame 1 at 1-0; in frame 2 (Ben breaks) Ben pots a red
    # and Ann concedes at 0-1: the aggregate is 1-1, level: a re-spotted black.
    (
        "3.4(c)/3.1(f)",
        "aggregate, two frames: the last conceded with the aggregate 1-1: a re-spotted black",
        [AGGREGATE_TWO, pot("red"), CONCEDE, NEW_FRAME, pot("red"), {"type": "concede", "player": 0}],
        {"status": "respotted_black_lot", "respotted_black": True, "frame_over": False, "match_over": False},
    ),
    # Guard: the same, but Ben concedes frame 2 at 0-0: the aggregate is 1-0, the match to Ann.
    (
        "3.4(c)/3.1(f)",
        "guard: aggregate, the last frame conceded with Ann 1-0 up on aggregate: the match to Ann",
        [AGGREGATE_TWO, pot("red"), CONCEDE, NEW_FRAME, CONCEDE],
        {"frame_over": True, "match_over": True, "match_winner": 0, "respotted_black": False},
    ),
    # Guard: frames (not aggregate), the frame conceded at 12-0 by the leader: the frame to Ben, no
    # re-spotted black (a concession decides the frame whatever the score).
    (
        "3.1(f)",
        "guard: frames, Ann concedes while 12-0 up: the frame and match to Ben",
        [match(reds=6), pot("red"), pot("black"), pot("red"), pot("green"), CONCEDE],
        {"score": [12, 0], "frame_over": True, "winner": 1, "match_winner": 1, "respotted_black": False},
    ),
    # 3.14(c) in the last frame on aggregate: Ann's third failure from the same position awards the
    # frame to Ben at 12-12: the aggregate level, a re-spotted black follows.
    (
        "3.4(c)/3.14(c)",
        "aggregate: the frame awarded after three misses with the aggregate 12-12: a re-spotted black",
        [AGGREGATE_ONE, *THREE_MISSES],
        {
            "score": [12, 12],
            "miss": True,
            "status": "respotted_black_lot",
            "respotted_black": True,
            "frame_over": False,
            "respotted": ["black"],
        },
    ),
    # Guard: the same in a match on frames: the frame (and the match) awarded to Ben at 12-12.
    (
        "3.14(c)",
        "guard: frames: three misses award the frame to Ben at 12-12",
        [match(reds=6), *THREE_MISSES],
        {"score": [12, 12], "frame_over": True, "winner": 1, "match_winner": 1, "respotted_black": False},
    ),
]


@over_checklist(CHECKLIST)
def test_twelfth_audit_checklist(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)
