"""An audit of the referee on frame logs as a CAMERA writes them, over several strokes.

The seven clause audits (``test_referee_*audit*.py``) rule complete logs: nominations, decisions and
contacts all logged. ``test_referee_table_line.py`` and ``test_referee_free_ball_miss.py`` began on
logs as the tracker writes them (``snooker.tracker.types.StrokeEvents.to_log_line``): no
human-entered line (no ``nominate``, no ``decision`` after a foul, no lot for a re-spotted black, no
``ball_moved``), every stroke with ``cue_ball``, ``off_table`` and ``touching`` given, positions
before and after, and the tracker's flags for what it did not see (``unwatched_s``,
``strike_unseen``, ``position_tolerance_mm``). This audit follows such logs through sequences of
strokes: who plays after fouls and misses with no decision logged, the cue ball from in-hand, a
re-spotted black with no lot, free balls and touching balls with no nomination heard, colours
re-spotted where their spot is taken, and strokes whose facts the camera saw only in part.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative; ``RULES-EN.md`` for Section 2), not from the referee's output; the comment above
each row gives the working. Scores are ``[Ann, Ben]``.

Readings chosen where the texts leave room (kept, not counted as faults):

- A camera cannot see the lot for a re-spotted black (3.4(b)(ii)): with none logged, the first
  stroke is the player's to play as the frame stands (FRAME_LOG.md, ``respotted_black``).
- A camera cannot tell "play" from "play again" after a plain foul (the cue ball stays where it
  is): a stroke with no ``player`` is the next player's (3.11(h)).
- A ball moved between strokes by someone other than the striker (3.15) and not replaced is ruled
  where the next stroke found it (``positions.before``); the camera cannot tell who moved it, and
  no penalty is called.
- A nomination the camera cannot hear: after a red, a stroke that hits nothing (seen) is a foul
  before nominating (3.12(d), seven), though a nominated yellow would have cost four; with a free
  ball, playing away from a touching colour is four unless it was nominated (the seventh audit's
  reading). The texts make both turn on a nomination; a log without one is ruled as if none was
  made. Not counted as faults.

Faults this audit found, each fixed since and kept by its rows: a foul and a miss whose cue ball
was in hand before or after it was never read as replaced (3.14(a) with 3.3(h)); an object ball the
stroke moved was not taken as a contact the camera missed (3.12(a)); with ``strike_unseen``, the
place the running cue ball was first seen was judged as its place in hand (3.5) and as the place a
miss is judged from (3.14(b)).
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import Line, assert_last_ruling, at, match, row, safe, stroke
from test_referee_audit import ON_BLACK, ON_PINK, TIE, tie_before_the_last_black

from snooker.calibration.table import STANDARD_TABLE

CX = STANDARD_TABLE.centre_x_mm
SPOTS = STANDARD_TABLE.spots
BLUE = list(SPOTS["blue"])
D_EDGE_Y = (
    STANDARD_TABLE.baulk_line_y_mm - STANDARD_TABLE.d_radius_mm
)  # the D's lowest point, on the centre line


def cam(first: list[str] | None = None, potted: list[str] | None = None, **extra: Any) -> Line:
    """A stroke as the tracker logs it: the cue ball's fate, balls off the table and the touching
    balls always given (``StrokeEvents.to_log_line``), nothing a person would add."""
    extra.setdefault("cue_ball", "on_table")
    extra.setdefault("off_table", [])
    extra.setdefault("touching", [])
    return stroke(first, potted, **extra)


# --- set-ups ------------------------------------------------------------------------------------
# One red in the open, far up the table (no other ball placed): a line to it is open from anywhere.
RED = {"red-1": [CX, 2800.0]}
# Ann (in hand) plays safe off the red; the cue ball stops in the open at WHITE_UP.
WHITE_UP = [CX + 300.0, 1500.0]
SAFE_OPEN = [match(), cam(["red"], positions=at({"white": [CX, 600.0], **RED}, {"white": WHITE_UP, **RED}))]
# Ann plays safe; Ben goes in-off a red: Ann 4, Ann to play from in hand.
ANN_IN_HAND = [match(), safe("red"), cam(["red"], cue_ball="potted")]
# Ann goes in-off on the break-off: Ben 4, Ben to play from in hand.
BEN_IN_HAND = [match(), cam(["red"], cue_ball="potted", positions=at({"white": [CX, 600.0], **RED}, {**RED}))]
# Ann fouls on the break-off (black first: Ben 7) and leaves the cue ball behind the blue, the one
# red straight beyond it: Ben is snookered, the referee calls a free ball from the positions.
HIDDEN = {"white": [CX, 1000.0], "blue": BLUE, "red-1": [CX, 2700.0]}
FREE_FROM_PLACES = [match(), cam(["black"], positions=at(None, HIDDEN))]
# Ann plays safe on the break-off and leaves the cue ball behind the blue (no foul).
SNOOKERED = [match(), cam(["red"], positions=at({**HIDDEN, "white": [CX + 200.0, 600.0]}, HIDDEN))]


CHECKLIST = [
    # 3.5 / 3.12(a): the cue ball from in-hand, placed as the camera measured it ----------------------
    # Ann in hand (Ann 4). Her cue ball is logged 5 mm beyond the D's arc, the log's places being
    # good to 8 mm: it may lie on the line, so no foul is called (FRAME_LOG: position_tolerance_mm).
    # A fair safety: Ben to play, the score unchanged.
    row(
        "3.5",
        "in hand after an in-off, placed within the measurement of the D: no foul",
        [
            *ANN_IN_HAND,
            cam(["red"], positions=at({"white": [CX, D_EDGE_Y - 5.0]}, None), position_tolerance_mm=8.0),
        ],
        {"foul": False, "score": [4, 0], "striker": 1},
    ),
    # The same 15 mm out: outside the D beyond the measurement: playing improperly from in-hand,
    # the value of the ball on (a red), four to Ben (3.12(a)).
    row(
        "3.5/3.12(a)",
        "in hand after an in-off, placed beyond the measurement outside the D: four",
        [
            *ANN_IN_HAND,
            cam(["red"], positions=at({"white": [CX, D_EDGE_Y - 15.0]}, None), position_tolerance_mm=8.0),
        ],
        {"foul": True, "fouls": ["improper_in_hand"], "penalty": 4, "score": [4, 4], "striker": 1},
    ),
    # 3.3(h) / 3.11: strokes after fouls with no decision logged --------------------------------------
    # Ann: red (1), black (8), then in-off a red: Ben 4, in hand. No decision: Ben plays from the D,
    # red (5) and pink (11, a break of 7; the pink re-spotted). Then Ben hits the black first while
    # on a red: the black concerned, seven to Ann (15). Ann to play; the break is over.
    row(
        "3.3(h)/3.11(f)/3.12(b)",
        "a break after an in-off with no decision, ended by a foul on the black",
        [
            match(),
            cam(["red"], ["red"]),
            cam(["black"], ["black"]),
            cam(["red"], cue_ball="potted"),
            cam(["red"], ["red"], positions=at({"white": [CX, 600.0]}, {"white": [CX, 2000.0]})),
            cam(["pink"], ["pink"]),
            cam(["black"]),
        ],
        {"score": [15, 11], "penalty": 7, "striker": 0, "break": 0, "reds": 13, "ball_on": "red"},
    ),
    # Six reds. Ann clears five reds with blacks (40) and plays safe; Ben pots the last red and the
    # pink and goes in-off. Potting the pink (not on) six, the in-off four: six to Ann (46). The red
    # stays down (3.3(g)), the pink is re-spotted; no red is left, so Ann is on the yellow, in hand.
    row(
        "3.3(g)/3.11(g)",
        "the last red potted in a foul with the pink: Ann on the yellow from in hand",
        [
            match(reds=6),
            *[cam([b], [b]) for _ in range(5) for b in ("red", "black")],
            cam(["red"]),
            cam(["red"], ["red", "pink"], cue_ball="potted"),
        ],
        {"score": [46, 0], "penalty": 6, "reds": 0, "ball_on": "yellow", "in_hand": True, "striker": 0},
    ),
    # 3.4: the end of the frame without human lines ----------------------------------------------------
    # Ann on the black (68). The contact was in a cut (unwatched) but the black went in: only a
    # contact pots a ball, and a pot of the ball on scores. 75-0, the last ball: the frame to Ann.
    row(
        "3.4(a)",
        "the last black potted in a broadcast cut ends the frame",
        [*ON_BLACK, cam([], ["black"], unwatched_s=1.0)],
        {"score": [75, 0], "frame_over": True, "winner": 0, "foul": False},
    ),
    # Ann 36, Ben 29, Ann on the black: she pots it but goes in-off. A foul: nothing scores, seven to
    # Ben, 36-36 with the black gone: a re-spotted black (3.4(b)), the lot to be drawn, in hand.
    row(
        "3.4(a)-(b)",
        "the last black potted with an in-off ties the frame: a re-spotted black",
        [*tie_before_the_last_black(), cam(["black"], ["black"], cue_ball="potted")],
        {"score": [36, 36], "respotted_black": True, "in_hand": True, "frame_over": False},
    ),
    # 36-36 after Ben pots the last black (TIE). No lot logged: the first stroke is taken as Ben's (the
    # player to play as the frame stands). He plays from the D and pots the black: 36-43, the frame
    # to Ben (3.4(b)(iv): the first score ends it).
    row(
        "3.4(b)",
        "a re-spotted black with no lot logged, potted from the D: the frame ends",
        [*TIE, cam(["black"], ["black"], positions=at({"white": [CX, 600.0]}, {"white": [CX, 3000.0]}))],
        {"score": [36, 43], "frame_over": True, "winner": 1},
    ),
    # The same, the cue ball placed at y 1200, far outside the D: playing improperly from in-hand,
    # the value of the ball on, seven (3.12(a)); a foul ends the re-spotted black: 43-36 to Ann.
    row(
        "3.4(b)/3.5/3.12(a)",
        "a re-spotted black played from outside the D: seven, the frame to the opponent",
        [*TIE, cam(["black"], positions=at({"white": [CX, 1200.0]}, {"white": [CX, 2000.0]}))],
        {"score": [43, 36], "fouls": ["improper_in_hand"], "frame_over": True, "winner": 0},
    ),
    # 3.7: colours re-spotted where their spot is taken --------------------------------------------------
    # Ann (62) on the pink hits the black first and pots it: seven to Ben. The cue ball rests on the
    # black spot, the pink on its own: the highest free spot is the blue's (the blue is off for good),
    # 3.7(d). Ben on the pink.
    row(
        "3.7(d)",
        "the black potted in a foul, its spot under the cue ball: on the blue spot",
        [
            *ON_PINK,
            cam(
                ["black"],
                ["black"],
                positions=at(
                    {"white": [CX, 2000.0], "pink": list(SPOTS["pink"]), "black": [CX, 3100.0]},
                    {"white": list(SPOTS["black"]), "pink": list(SPOTS["pink"])},
                ),
            ),
        ],
        {"score": [62, 7], "respotted": [{"ball": "black", "position": BLUE}], "ball_on": "pink"},
    ),
    # 3.10: a free ball with no nomination heard ---------------------------------------------------------
    # FREE_FROM_PLACES: Ben 7, snookered behind the blue. Ben hits the blue first and pots it: the one
    # ball not on that he hit first is the obvious nomination, the free ball, worth a red (3.10(c)):
    # 8, the blue re-spotted on its free spot, Ben on a colour.
    row(
        "3.10(a)/(c)",
        "a free ball called from the positions, the blue potted as the free ball",
        [
            *FREE_FROM_PLACES,
            cam(["blue"], ["blue"], positions=at(HIDDEN, {"white": WHITE_UP, "red-1": [CX, 2700.0]})),
        ],
        {
            "score": [0, 8],
            "ball_on": "colour",
            "respotted": [{"ball": "blue", "position": BLUE}],
            "striker": 1,
        },
    ),
    # Ben instead rolls the blue (the free ball) up to y 1500, between the cue ball and the only red,
    # and pots nothing: he snookers Ann on all reds with the free ball, 3.10(b)(ii): the value of the
    # ball on, four to Ann; Ann is snookered after a foul, so a free ball for her.
    row(
        "3.10(b)(ii)",
        "the free ball left between the cue ball and the only red: foul, free ball back",
        [
            *FREE_FROM_PLACES,
            cam(
                ["blue"],
                positions=at(HIDDEN, {"white": [CX, 1000.0], "blue": [CX, 1500.0], "red-1": [CX, 2700.0]}),
            ),
        ],
        {"fouls": ["free_ball_snooker"], "penalty": 4, "score": [4, 7], "free_ball": True, "striker": 0},
    ),
    # 3.8: touching balls with no announcement line ------------------------------------------------------
    # Ann's break-off leaves the cue ball against a red (the tracker's ``touching``). Ben plays away
    # and hits nothing: the touching ball is on, so no penalty (3.8(c)(i)). Ann to play.
    row(
        "3.8(c)(i)",
        "touching a red while on a red: playing away is no foul",
        [match(), cam(["red"], touching=["red"]), cam([])],
        {"foul": False, "score": [0, 0], "striker": 0},
    ),
    # Ann pots a red and the cue ball rests against the blue, the only colour it touches. She plays
    # away and hits nothing: the touching colour can be on, and the one colour she rests against is
    # the obvious nomination (3.8(c)(ii)): no penalty; her break ends, Ben on a red.
    row(
        "3.8(c)(ii)",
        "after a red, touching the blue alone: playing away is no foul",
        [match(), cam(["red"], ["red"], touching=["blue"]), cam([])],
        {"foul": False, "score": [1, 0], "striker": 1, "ball_on": "red"},
    ),
    # Ann leaves the cue ball against the pink (not on). Ben plays away and hits nothing: he must hit
    # a ball on first (3.8(d)); missing every ball, the value of the ball on, four to Ann.
    row(
        "3.8(d)/3.12(a)",
        "touching the pink while on a red: playing away and missing is four",
        [match(), cam(["red"], touching=["pink"]), cam([])],
        {"foul": True, "fouls": ["missed_all_balls"], "penalty": 4, "score": [4, 0], "striker": 0},
    ),
    # 3.14(a): a foul and a miss, replaced, with the cue ball in hand before or after the miss ------------
    # SAFE_OPEN: the cue ball at WHITE_UP, a line open to the red. Ben misses every ball and the cue
    # ball goes in-off: foul and a miss, four to Ann. The next stroke starts with the cue ball back
    # exactly at WHITE_UP, far outside the D. Had Ann chosen to play, she would play from in hand in
    # the D (3.3(h), 3.5); only the balls replaced (3.14(a)) put the cue ball back there, so Ben plays
    # again from the original position. He hits the red: fair, no score, Ann to play; 4-0 stands.
    row(
        "3.14(a)/3.5",
        "a miss that went in-off, the cue ball back at its place: replaced, not a foul from hand",
        [
            *SAFE_OPEN,
            cam([], cue_ball="potted", positions=at({"white": WHITE_UP, **RED}, {**RED})),
            cam(["red"], positions=at({"white": WHITE_UP, **RED}, {"white": [CX, 2000.0], **RED})),
        ],
        {"foul": False, "score": [4, 0], "striker": 0},
    ),
    # BEN_IN_HAND (Ben 4): Ben, from the D, misses every ball with a line open: foul and a miss, four to
    # Ann (4-4); the cue ball runs to y 2000. The next stroke starts in the D again: a player who
    # chose to play would play from y 2000 (3.3(h)); only a replacement returns the cue ball to hand
    # (3.14(a)), so this is Ben again, missing again with the line open: a second miss, four more to
    # Ann (8-4), Ben the offender.
    row(
        "3.14(a)/3.3(h)",
        "a miss from in hand, the next stroke from the D: Ben replaced, his second miss",
        [
            *BEN_IN_HAND,
            cam(
                [],
                positions=at({"white": [CX + 100.0, 650.0], **RED}, {"white": [CX + 400.0, 2000.0], **RED}),
            ),
            cam(
                [],
                positions=at({"white": [CX - 100.0, 650.0], **RED}, {"white": [CX + 400.0, 2000.0], **RED}),
            ),
        ],
        {"miss": True, "offender": 1, "score": [8, 4]},
    ),
    # 3.12(a): a contact the positions prove -------------------------------------------------------------
    # Ann's break-off leaves the cue ball at (CX, 1000), the red open. Ben's
    # stroke logs no first contact (the tracker lost the cue ball at the contact), yet the only red
    # moved 360 mm and nothing else moved. A ball at rest moves only when hit: the cue ball did not
    # miss every ball, and the only ball it can have hit first is the red (on). No foul, no miss; Ann
    # to play.
    row(
        "3.12(a)/3.14(b)",
        "no contact logged but the red driven 360 mm: not 'missed every ball', no miss",
        [
            match(),
            cam(
                ["red"],
                positions=at(
                    {"white": [CX, 600.0], "red-1": [CX + 500.0, 2800.0]},
                    {"white": [CX, 1000.0], "red-1": [CX + 500.0, 2800.0]},
                ),
            ),
            cam(
                [],
                positions=at(
                    {"white": [CX, 1000.0], "red-1": [CX + 500.0, 2800.0]},
                    {"white": [CX + 450.0, 2700.0], "red-1": [CX + 700.0, 3100.0]},
                ),
            ),
        ],
        {"foul": False, "miss": False, "score": [0, 0], "striker": 0},
    ),
    # Ann (68) on the black, the last ball. No contact logged, but the black moved 500 mm up the table:
    # the cue ball hit it. No foul, so the frame goes on (3.4(a): only a score or a foul ends it); Ben
    # to play at the black, 68-0.
    row(
        "3.12(a)/3.4(a)",
        "only the black left, no contact logged but the black driven 500 mm: the frame goes on",
        [
            *ON_BLACK,
            cam(
                [],
                positions=at(
                    {"white": [CX, 1000.0], "black": list(SPOTS["black"])},
                    {"white": [CX + 100.0, 2900.0], "black": [CX + 400.0, 3300.0]},
                ),
            ),
        ],
        {"foul": False, "frame_over": False, "score": [68, 0], "striker": 1},
    ),
    # strike_unseen: the cue ball was first seen already running -------------------------------------------
    # ANN_IN_HAND (Ann 4). The broadcast cut back with Ann's cue ball already running, first seen at y
    # 1400; it then hits the red. Where she placed it in the D was not seen: the logged place is where
    # it was running, not where it rested. No foul can be called for the placement (3.5); a fair
    # safety: Ben to play, 4-0.
    row(
        "3.5/3.12(a)",
        "in hand, the strike unseen, first seen running outside the D: no foul for the placement",
        [
            *ANN_IN_HAND,
            cam(
                ["red"],
                strike_unseen=True,
                positions=at({"white": [CX, 1400.0], **RED}, {"white": [CX + 300.0, 2500.0], **RED}),
            ),
        ],
        {"foul": False, "score": [4, 0], "striker": 1},
    ),
    # TIE (36-36), re-spotted black, no lot: Ben's stroke, the strike unseen, the cue ball first seen
    # running at y 1400; he pots the black. Nothing shows where he placed it: the black scores and
    # ends the frame, 36-43 to Ben.
    row(
        "3.4(b)/3.5",
        "a re-spotted black potted, the strike unseen, first seen running outside the D",
        [
            *TIE,
            cam(
                ["black"],
                ["black"],
                strike_unseen=True,
                positions=at({"white": [CX, 1400.0], "black": list(SPOTS["black"])}, {"white": [CX, 2900.0]}),
            ),
        ],
        {"foul": False, "score": [36, 43], "frame_over": True, "winner": 1},
    ),
    # SNOOKERED: Ann left the cue ball at (CX, 1000) behind the blue, the red straight beyond it: no
    # straight line to any part of the red. Ben's strike is unseen (first seen running at (CX+400,
    # 1900), in the open); his cue ball hits the pink first: a foul, the pink concerned, six to Ann.
    # Was it a miss? 3.14(b) asks whether a line to a ball on was open where the cue ball lay before
    # the stroke: it was not (the previous stroke's positions show it). FOUL, not FOUL AND A MISS, so
    # no replacement is offered.
    row(
        "3.14(b)",
        "snookered, the strike unseen, the pink hit first: no miss from where it was first seen",
        [
            *SNOOKERED,
            cam(
                ["pink"],
                strike_unseen=True,
                positions=at(
                    {
                        "white": [CX + 400.0, 1900.0],
                        "blue": BLUE,
                        "red-1": [CX, 2700.0],
                        "pink": list(SPOTS["pink"]),
                    },
                    {
                        "white": [CX + 300.0, 2600.0],
                        "blue": BLUE,
                        "red-1": [CX, 2700.0],
                        "pink": [CX - 200.0, SPOTS["pink"][1]],
                    },
                ),
            ),
        ],
        {"foul": True, "penalty": 6, "score": [6, 0], "miss": False, "options": ["play", "play_again"]},
    ),
]


@pytest.mark.parametrize(("lines", "expected"), CHECKLIST)
def test_camera_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)


def test_the_set_ups_are_as_described():
    """The cue ball left in the open (SAFE_OPEN), behind the blue (SNOOKERED, FREE_FROM_PLACES)."""
    assert_last_ruling(SAFE_OPEN, {"foul": False, "striker": 1, "score": [0, 0]})
    assert_last_ruling(SNOOKERED, {"foul": False, "striker": 1, "free_ball": False})
    assert_last_ruling(FREE_FROM_PLACES, {"score": [0, 7], "free_ball": True, "striker": 1})
    assert_last_ruling(BEN_IN_HAND, {"score": [0, 4], "in_hand": True, "striker": 1})
    assert_last_ruling(ANN_IN_HAND, {"score": [4, 0], "in_hand": True, "striker": 0})
    # seen from where the cue ball rested, Ben's stroke at the pink is a foul but not a miss
    seen_at_rest = cam(["pink"], positions=at(HIDDEN, None))
    assert_last_ruling([*SNOOKERED, seen_at_rest], {"foul": True, "miss": False})
