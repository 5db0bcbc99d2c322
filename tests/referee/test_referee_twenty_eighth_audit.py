"""A twenty-eighth audit: the match as a whole, across frames (Section 3.1-3.4, 3.16, 3.17), read in
the Polish text (``../shared/rules/section3-rules-pl.txt``, the authority) clause by clause over
multi-frame logs: who breaks each frame, the frame number and the match score after each frame ends
(by pots, a foul on the last black, a concession, an award after the third miss, a re-spotted
black), the end of a best-of match, the match conceded, the aggregate-points game, a re-rack, what a
frame leaves to the next, and the highest break per player across frames.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling, or of the scoreboard
after it), worked out by hand from the texts. Scores and frames are ``[Ann's side, Ben's side]``;
Ann breaks the first frame. Rows marked "fault" fail on the code before.

Faults found and fixed:

- 1(F)-(G), a match conceded in a frame (``concede`` with ``match``): the ruling named as the player
  to play the breaker of a next frame that is never played ("Zawodnik lub strona otwierająca zmienia
  się w każdym frejmie podczas meczu", 3.3(B): during the match; FRAME_LOG.md: once the match is
  over, the last striker). A frame's end that ends the match leaves the player who was to play; a
  match conceded now does the same.
- The highest break per player across frames: the scoreboard kept only each side's highest break of
  the frame in play, so a player's break in an earlier frame was gone once the next frame began, and
  in four-handed snooker ("Snooker może być rozgrywany przez dwóch lub więcej zawodników, grających
  niezależnie lub jako strony", 3.1) the two partners' breaks were one figure. The scoreboard now has
  ``match_highest_break``: each player's highest break of the match (added; ``highest_break`` is
  unchanged). A re-rack (3.16: "sędzia anuluje wszystkie zdobyte punkty, ustawia bile jak przed
  rozpoczęciem frejmu") cancels the rack's breaks with its points: the texts do not speak of breaks,
  so this reading is documented in ``snooker.referee.rules``.

Checked and found right (the rows below keep them so): the breaker alternating frame by frame
(3.3(B)) from the first frame's breaker, whoever won the frame and however it ended; four-handed,
the sides alternating (3.17(A)) and the order changed at a frame's start (3.17(B)); the re-rack
keeping the breaker and the order (3.16(A)-(B)) and not shifting the alternation; the re-spotted
black's lot (3.4(B)) not changing who breaks next; a best-of match over as soon as one side has the
frames required (1(G)), frames, strokes and table lines after it refused; an even best-of ending
level with no winner; the aggregate game (1(G), 3.4(A)/(C)); nothing of a frame's play (decision,
free ball, miss count and warning, touching ball, nomination, score, break, last foul) carried into
the next.
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    assert_last_ruling,
    decision,
    lot,
    match,
    over_checklist,
    pot,
    safe,
    stroke,
    table,
)

from snooker.referee import Referee

CONCEDE = {"type": "concede"}
NEW_FRAME = {"type": "new_frame"}
RERACK = {"type": "rerack"}
MATCH_CONCEDED = {"type": "concede", "match": True}
FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""
ALL_COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]


def concede(player: int) -> dict[str, Any]:
    return {"type": "concede", "player": player}


def black_only(score: list[int], striker: int) -> dict[str, Any]:
    """The log joins the frame with only the black left, ``striker`` to play it, at ``score``."""
    return table(reds=0, colours=["black"], ball_on="black", striker=striker, score=score, cue_in_hand=False)


def miss() -> dict[str, Any]:
    """The striker, on a red, hits the yellow first with a full ball at a red open: a foul and a miss."""
    return stroke(["yellow"], **FULL)


FRAME_1_TO_BEN = [match(best_of=3), CONCEDE]
"""Ann, to break, concedes frame 1: frames 0-1."""

ROWS = [
    # --- who breaks (3.3(B), 3.16, 3.17(A)-(B), 3.4(B)) -------------------------------------------
    (
        "3.3(b)",
        "frame 2: the other player (Ben) breaks, from hand, at 0-0, frames 0-1",
        [*FRAME_1_TO_BEN, NEW_FRAME],
        {
            "frame": 2,
            "striker": 1,
            "player": "Ben",
            "in_hand": True,
            "score": [0, 0],
            "frames": [0, 1],
            "status": "in_play",
            "ball_on": "red",
        },
    ),
    (
        "3.3(b)",
        "frame 3: Ann, who broke the first frame, breaks again, whoever won the frames",
        [match(best_of=5), CONCEDE, NEW_FRAME, CONCEDE, NEW_FRAME],
        {"frame": 3, "striker": 0, "frames": [1, 1]},
    ),
    (
        "3.3(b)",
        "Ben broke the first frame (the match line's breaker): Ann breaks the second",
        [match(best_of=3, breaker=1), CONCEDE, NEW_FRAME],
        {"frame": 2, "striker": 0, "frames": [1, 0]},
    ),
    (
        "3.3(b)",
        "frame 1 over, the match going on: the player to play is frame 2's breaker",
        [match(best_of=3), safe("red"), CONCEDE],
        {
            "frame": 1,
            "frame_over": True,
            "status": "frame_over",
            "striker": 1,
            "player": "Ben",
            "frames": [1, 0],
        },
    ),
    (
        "3.16(a)",
        "a re-rack in frame 2: Ben breaks it again; the scores cancelled, the frames kept",
        [*FRAME_1_TO_BEN, NEW_FRAME, safe("red"), pot("red"), pot("black"), RERACK],
        {
            "frame": 2,
            "striker": 1,
            "score": [0, 0],
            "frames": [0, 1],
            "break": 0,
            "reds": 15,
            "in_hand": True,
        },
    ),
    (
        "3.16 / 3.3(b)",
        "after the re-racked frame 2 the breakers go on alternating: Ann breaks frame 3",
        [match(best_of=5), CONCEDE, NEW_FRAME, safe("red"), pot("red"), RERACK, CONCEDE, NEW_FRAME],
        {"frame": 3, "striker": 0, "frames": [1, 1]},
    ),
    (
        "3.17(a)",
        "four-handed, frame 2: the other side breaks (Ben)",
        [match(players=4, best_of=5), CONCEDE, NEW_FRAME],
        {"frame": 2, "striker": 1, "player": "Ben", "frames": [0, 1]},
    ),
    (
        "3.17(a)",
        "four-handed, frame 3: Ann's side again, its other player (Cat)",
        [match(players=4, best_of=5), CONCEDE, NEW_FRAME, CONCEDE, NEW_FRAME],
        {"frame": 3, "striker": 2, "player": "Cat", "frames": [1, 1]},
    ),
    (
        "3.17(b)",
        "four-handed: the order changed at the start of frame 2, Dan breaking for Ben's side",
        [match(players=4, best_of=5), CONCEDE, {"type": "new_frame", "order": [3, 0, 1, 2]}],
        {"frame": 2, "striker": 3, "player": "Dan"},
    ),
    (
        "3.17(a)",
        "four-handed: the side that broke frame 1 may not break frame 2",
        [match(players=4, best_of=5), CONCEDE, {"type": "new_frame", "order": [2, 1, 0, 3]}],
        {"error": "new_frame.order: the other side breaks this frame (breakers alternate, 3.3(b))"},
    ),
    (
        "3.4(b) / 3.3(b)",
        "frame 2 decided on a re-spotted black, Ben first by lot: Ann still breaks frame 3",
        [
            match(best_of=5),
            CONCEDE,
            NEW_FRAME,
            black_only([0, 7], 0),
            pot("black"),
            lot(1),
            pot("black"),
            NEW_FRAME,
        ],
        {
            "frame": 3,
            "striker": 0,
            "frames": [0, 2],
            "respotted_black": False,
            "reds": 15,
            "colours": ALL_COLOURS,
        },
    ),
    # --- the frame's end and the match score (1(F), 3.4, 3.14(C)) -------------------------------
    (
        "3.4(a)",
        "frame 2 ended by Ben's foul on the last black (7 to Ann, 7-3): frames 1-1, Ann breaks next",
        [*FRAME_1_TO_BEN, NEW_FRAME, black_only([0, 3], 1), stroke([])],
        {
            "frame": 2,
            "frame_over": True,
            "winner": 0,
            "score": [7, 3],
            "frames": [1, 1],
            "striker": 0,
            "options": [],
            "free_ball": False,
        },
    ),
    (
        "3.14(c)",
        "frame 2 awarded to Ann on Ben's third miss: frames 1-1, Ann breaks next",
        [*FRAME_1_TO_BEN, NEW_FRAME, miss(), decision("replace"), miss(), decision("replace"), miss()],
        {"frame": 2, "frame_over": True, "winner": 0, "frames": [1, 1], "striker": 0, "warning": False},
    ),
    (
        "1(g)",
        "best of 3 won 2-0 by Ben: the match is over at once",
        [*FRAME_1_TO_BEN, NEW_FRAME, concede(0)],
        {"frames": [0, 2], "match_over": True, "match_winner": 1, "status": "match_over", "frame": 2},
    ),
    (
        "1(g)",
        "best of 3 won 2-0: no third frame",
        [*FRAME_1_TO_BEN, NEW_FRAME, concede(0), NEW_FRAME],
        {"error": "the match is over; no further frames"},
    ),
    (
        "1(g)",
        "best of 3 won 2-0: no stroke after it",
        [*FRAME_1_TO_BEN, NEW_FRAME, concede(0), safe("red")],
        {"error": "the match is over"},
    ),
    (
        "1(g)",
        "best of 3 won 2-0: no table joined after it",
        [*FRAME_1_TO_BEN, NEW_FRAME, concede(0), table(reds=15)],
        {"error": "the match is over"},
    ),
    (
        "1(g)",
        "best of 2 level at 1-1: over, no winner, no third frame",
        [match(best_of=2), CONCEDE, NEW_FRAME, CONCEDE, NEW_FRAME],
        {"error": "the match is over; no further frames"},
    ),
    (
        "1(g)",
        "best of 2 level at 1-1: the last ruling says over with no winner",
        [match(best_of=2), CONCEDE, NEW_FRAME, CONCEDE],
        {"frames": [1, 1], "match_over": True, "match_winner": None, "status": "match_over"},
    ),
    # --- the aggregate game (1(G), 3.4(A)/(C)) ------------------------------------------------------
    (
        "3.4(a)",
        "aggregate, frame 1 of 2 ends level 7-7: drawn, no re-spotted black (aggregate scores count)",
        [match(best_of=2, aggregate=True), black_only([0, 7], 0), pot("black")],
        {"frame_over": True, "winner": None, "frames": [0, 0], "respotted_black": False, "striker": 1},
    ),
    (
        "3.4(c)",
        "aggregate, the last frame ends with the aggregate level (14-14): a re-spotted black",
        [
            match(best_of=2, aggregate=True),
            black_only([0, 7], 0),
            pot("black"),
            NEW_FRAME,
            black_only([7, 0], 1),
            pot("black"),
        ],
        {
            "frame": 2,
            "respotted_black": True,
            "status": "respotted_black_lot",
            "frames": [0, 0],
            "frame_over": False,
        },
    ),
    (
        "1(g)",
        "aggregate: frames 1-1, the points overall (14-10) decide for Ann",
        [
            match(best_of=2, aggregate=True),
            black_only([7, 0], 0),
            pot("black"),
            NEW_FRAME,
            black_only([0, 3], 1),
            pot("black"),
        ],
        {"frames": [1, 1], "match_over": True, "match_winner": 0},
    ),
    # --- the match conceded (1(F)-(G)) ---------------------------------------------------------------
    (
        "1(f)-(g) fault",
        "the match conceded in frame 1 by Ann (to play): no frame follows, Ann stays the player named",
        [match(best_of=5), MATCH_CONCEDED],
        {"striker": 0, "player": "Ann", "match_over": True, "match_winner": 1, "frames": [0, 3], "frame": 1},
    ),
    (
        "1(f)-(g)",
        "the match conceded by Ben between frames: Ann awarded the 3 frames she needs, no frame ended",
        [match(best_of=5), CONCEDE, concede(1) | {"match": True}],
        {"frames": [3, 1], "match_winner": 0, "match_over": True, "frame": 1, "frame_ended": False},
    ),
    # --- nothing of a frame carried into the next (3.2(A), 3.3) ---------------------------------
    (
        "3.14(c) / 3.2",
        "Ann warned in frame 1, which she concedes: Ben's first miss of frame 2 is a first one",
        [
            match(best_of=3),
            miss(),
            decision("replace"),
            miss(),
            decision("replace"),
            CONCEDE,
            NEW_FRAME,
            miss(),
        ],
        {
            "frame": 2,
            "miss": True,
            "warning": False,
            "frame_over": False,
            "options": ["play", "play_again", "replace"],
        },
    ),
    (
        "3.10 / 3.8 / 3.2",
        "frame 1 conceded with a free ball and a decision open: frame 2 starts with neither",
        [match(best_of=3), stroke(["black"], free_ball=True, touching=["red"]), concede(0), NEW_FRAME],
        {
            "free_ball": False,
            "options": [],
            "status": "in_play",
            "nominated": None,
            "touching": [],
            "in_hand": True,
            "offender": None,
            "warning": False,
        },
    ),
    (
        "3.2 / 3.3(b)",
        "frame 2 starts at 0-0, no break, every ball racked",
        [match(best_of=3), pot("red"), pot("black"), pot("red"), CONCEDE, NEW_FRAME],
        {
            "score": [0, 0],
            "break": 0,
            "reds": 15,
            "colours": ALL_COLOURS,
            "points_remaining": 147,
            "frames": [0, 1],
        },
    ),
    (
        "3.4(b) / 3.2",
        "after a frame on a re-spotted black the next is racked afresh, no lot open",
        [match(best_of=3), black_only([0, 7], 0), pot("black"), lot(0), pot("black"), NEW_FRAME],
        {
            "frame": 2,
            "respotted_black": False,
            "status": "in_play",
            "reds": 15,
            "striker": 1,
            "frames": [1, 0],
        },
    ),
]


@over_checklist(ROWS)
def test_the_match_across_frames(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


ANN_9_THEN_BEN_7 = [
    match(best_of=3),
    pot("red"),
    pot("black"),
    pot("red"),
    safe("black"),
    CONCEDE,
    NEW_FRAME,
    pot("red"),
    pot("pink"),
    safe("black"),
]
"""Frame 1: Ann makes 9, plays safe on the black and Ben concedes; frame 2: Ben breaks with a 7."""

SCOREBOARD = [
    (
        "3.1 fault",
        "the highest break per player across frames: Ann's 9 of frame 1 stays the match's",
        ANN_9_THEN_BEN_7,
        {"match_highest_break": [9, 7], "highest_break": [0, 7], "frame": 2, "totals": [9, 0]},
    ),
    (
        "3.1 fault",
        "four-handed: each player's own highest break, not the side's",
        [
            match(players=4, best_of=3),
            pot("red"),
            pot("black"),
            safe("red"),
            pot("red"),
            pot("black"),
            pot("red"),
            safe("black"),
            pot("red"),
            pot("pink"),
            safe("black"),
        ],
        {"match_highest_break": [8, 9, 7, 0], "highest_break": [8, 9]},
    ),
    (
        "3.16 fault",
        "a re-rack cancels the rack's breaks with its points (Ben's 7, Ann's 17); frame 1's stand",
        [*ANN_9_THEN_BEN_7, pot("red"), pot("black"), pot("red"), pot("black"), pot("red"), RERACK],
        {"match_highest_break": [9, 0], "highest_break": [0, 0], "score": [0, 0]},
    ),
    (
        "3.3(b) / 3.14(c)",
        "frame 2's scoreboard: no last foul, miss count or warning of frame 1; Ben the breaker",
        [match(best_of=3), miss(), decision("replace"), miss(), decision("replace"), CONCEDE, NEW_FRAME],
        {
            "last_foul": None,
            "miss_count": 0,
            "warning": False,
            "highest_break": [0, 0],
            "breaker": 1,
            "frames": [0, 1],
        },
    ),
]


@over_checklist(SCOREBOARD)
def test_the_scoreboard_across_frames(lines: list[Any], expected: dict[str, Any]) -> None:
    referee = Referee()
    for line in lines:
        assert "error" not in referee.apply(line), line
    board = referee.scoreboard()
    assert {key: board.get(key) for key in expected} == expected
