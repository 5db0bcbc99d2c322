"""A second audit of the referee on frame logs as a CAMERA writes them, on angles the first took not.

``test_referee_camera_audit.py`` followed a camera's logs (``StrokeEvents.to_log_line``: no
nomination, decision, lot, ``ball_moved`` or ``fouls`` line; ``cue_ball``, ``off_table`` and
``touching`` always given; positions before and after; the tracker's flags) through fouls, misses,
in-hand play and the re-spotted black. This one takes what follows a free ball called from the
positions (the free ball potted with a red, a ball not on potted after it, the pink and black
exception, a touching ball the free ball makes "can be on"), colours re-spotted by the referee and
their effect on the next player (a re-spotted pink that snookers), a potted colour the camera still
lists, strokes the source cut off (``truncated``), balls still running at the strike
(``moving_at_strike``) with pots, the last black and the re-spotted black, the points remaining and
snookers required when reds leave the table in a foul, and strokes whose positions contradict their
other fields (a red potted or forced off the table still listed among the places after).

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values were
worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt``, authoritative;
``RULES-EN.md`` for Section 2), not from the referee's output; the comment above each row gives the
working. Scores are ``[Ann, Ben]``.

Readings chosen where the texts leave room (kept, not counted as faults):

- What a ``truncated`` stroke shows happened (a first contact, a pot) is ruled as given
  (FRAME_LOG.md: "the referee rules the stroke as given").
- A free ball called from the places after a ``truncated`` stroke, or after a stroke the next one
  shows was struck while balls still ran (``moving_at_strike``; the tracker closes such a stroke with
  its last places and no flag), is called from places that were no resting places. 3.10 calls it on
  the position the foul left, but the texts do not say what a referee does with a position nobody
  saw come to rest; no row here.
- A colour potted for good in the ascending order that the camera still places on the table: the
  referee reads the log's pot (a tracker's stale ball). 3.7(b)-(c) cover a colour wrongly re-spotted
  by a referee, which a camera cannot tell from a stale track; no row here.
- A red potted or forced off the table while the places after still list it: the log contradicts
  itself. Either answer would be sensible: a clear refusal naming the red (the state kept), or the
  ruling with the red off the table (reds stay off, 3.3(g); the referee already reads a colour potted
  for good so). The referee rules with the red off the table once none is left (while reds remain,
  which red a stale place is of cannot be told). Ruling with the red both off (the count, the ball
  on) and on (it snookers, it blocks a line) is neither.

Faults this audit found, each fixed since and kept by its rows:

- A ``truncated`` stroke (the source ended before the balls stopped) with no first contact logged is
  called a foul for missing every ball, and a foul and a miss. 3.12(a) penalises a cue ball that
  missed every object ball; nothing shows this one did (it was still running when the source ended),
  and the rules judge a stroke where the balls finally come to rest (3.8(a), 3.11(f): "ostatecznie
  znieruchomiała"). The referee already reads a contact it could not see (``unwatched_s``,
  ``strike_unseen``) as no foul and no miss. FRAME_LOG.md's "rules the stroke as given" does not say
  an empty ``first_contact`` of a cut-off stroke is a seen miss.
- A red the log potted or forced off the table, with none left, still snookers the next player (a
  free ball is called) and still blocks the line to the ball on (no miss is called), because the
  places after the stroke (and before the next) still list it.
"""

from __future__ import annotations

import pytest
from referee_logs import match, row, rule, table
from test_referee_audit import ON_BLACK, TIE, tie_before_the_last_black
from test_referee_camera_audit import BLUE, FREE_FROM_PLACES, HIDDEN, RED, SAFE_OPEN, WHITE_UP, at, cam

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee

CX = STANDARD_TABLE.centre_x_mm
SPOTS = STANDARD_TABLE.spots
PINK = list(SPOTS["pink"])
BLACK = list(SPOTS["black"])
COLOURS_ON_SPOTS = {colour: list(xy) for colour, xy in SPOTS.items()}


def without(places: dict[str, list[float]], *balls: str) -> dict[str, list[float]]:
    return {ball: xy for ball, xy in places.items() if ball not in balls}


# --- set-ups ------------------------------------------------------------------------------------
# FREE_FROM_PLACES (first camera audit): Ann's break-off hits the black first (Ben 7) and leaves the
# cue ball at (CX, 1000) behind the blue, the one red straight beyond: a free ball for Ben.
# The same with the pink and the black on their spots and the red at (CX, 2710), 33 mm from the pink
# spot (a ball is 52.5 mm across): the pink spot is taken.
HIDDEN_FULL = {**HIDDEN, "red-1": [CX, 2710.0], "pink": PINK, "black": BLACK}
FREE_FULL = [match(), cam(["black"], positions=at(None, HIDDEN_FULL))]

# Only the pink and the black left, Ann 40, Ben 30, Ann on the pink. She misses every ball (a line to
# the pink open: foul and a miss, six to Ben) and leaves the cue ball above the black, the pink
# straight beyond it: Ben is snookered, a free ball.
PINK_BLACK = {"pink": PINK, "black": BLACK}
BEHIND_BLACK = {"white": [CX, 3420.0], **PINK_BLACK}
ON_PINK_JOINED = table(
    reds=0, colours=["pink", "black"], ball_on="pink", score=[40, 30], striker=0,
    positions={"white": [CX + 300.0, 1500.0], **PINK_BLACK},
)  # fmt: skip
FREE_ON_PINK = [
    match(),
    ON_PINK_JOINED,
    cam([], positions=at({"white": [CX + 300.0, 1500.0], **PINK_BLACK}, BEHIND_BLACK)),
]

# The colours only, Ann 30, Ben 20, Ann on the yellow. She hits the pink first (six to Ben) and
# leaves the cue ball on the yellow spot's line beyond the green and the brown: a free ball for Ben.
ON_YELLOW_JOINED = table(
    reds=0, ball_on="yellow", score=[30, 20], striker=0,
    positions={"white": [CX, 1500.0], **COLOURS_ON_SPOTS},
)  # fmt: skip
LEFT_OF_GREEN = {**COLOURS_ON_SPOTS, "white": [300.0, 737.0]}
FREE_ON_YELLOW = [
    match(),
    ON_YELLOW_JOINED,
    cam(["pink"], positions=at({"white": [CX, 1500.0], **COLOURS_ON_SPOTS}, LEFT_OF_GREEN)),
]

# One red left (a video joining the frame), 0-0, Ann on it; every colour on its spot.
LAST_RED_AT = {"white": [CX + 400.0, 1400.0], "red-1": [CX + 600.0, 2200.0], **COLOURS_ON_SPOTS}
ONE_RED = [match(), table(reds=1, ball_on="red", score=[0, 0], striker=0, positions=LAST_RED_AT)]
# Where Ann's cue ball stops: the line from it to the yellow spot is open among the colours. STALE is
# a place on that line, half way: a red listed there blocks it.
OPEN_TO_YELLOW = [1400.0, 1100.0]
STALE = [(OPEN_TO_YELLOW[0] + SPOTS["yellow"][0]) / 2, (OPEN_TO_YELLOW[1] + SPOTS["yellow"][1]) / 2]
# Ann pots the last red (1), then the black (8, re-spotted), leaving the cue ball at OPEN_TO_YELLOW:
# Ann on the yellow, no red left, none listed.
LAST_RED_GONE = [
    *ONE_RED,
    cam(
        ["red"],
        ["red"],
        positions=at(LAST_RED_AT, {**without(LAST_RED_AT, "red-1"), "white": [CX + 300.0, 2900.0]}),
    ),
    cam(
        ["black"],
        ["black"],
        positions=at(
            {**without(LAST_RED_AT, "red-1"), "white": [CX + 300.0, 2900.0]},
            {**without(COLOURS_ON_SPOTS, "black"), "white": OPEN_TO_YELLOW},
        ),
    ),
]


CHECKLIST = [
    # 3.10: after a free ball called from the positions ------------------------------------------------
    # FREE_FROM_PLACES (Ben 7). Ben hits the blue first (the one ball not on he hit: the free ball) and
    # pots it with a red. While a red is on every ball potted scores (3.10(e)): the blue as a red (1)
    # and the red (1), 2; the blue is re-spotted on its spot, the red stays down; Ben on a colour.
    row(
        "3.10(e)",
        "the free ball potted with a red while reds are on: both score, the free ball re-spotted",
        [*FREE_FROM_PLACES, cam(["blue"], ["blue", "red"], positions=at(HIDDEN, {"white": WHITE_UP}))],
        {
            "foul": False,
            "points": 2,
            "score": [0, 9],
            "reds": 14,
            "respotted": [{"ball": "blue", "position": BLUE}],
            "ball_on": "colour",
            "striker": 1,
        },
    ),
    # FREE_FULL (Ben 7). Ben hits the blue first (the free ball) and pots the pink, not on: the value
    # of the ball on (the free ball's, a red's: 1) or of the ball concerned (pink 6), six to Ann
    # (3.12(b)). The pink's spot is taken by the red, the black's by the black: the highest free spot
    # is the blue's, the blue having left it (3.7(d)). Ann to play, in the open: no free ball.
    row(
        "3.12(b)/3.7(d)",
        "a ball not on potted after the free ball, its spot taken: six, on the blue spot",
        [
            *FREE_FULL,
            cam(
                ["blue"],
                ["pink"],
                positions=at(
                    HIDDEN_FULL,
                    {"white": WHITE_UP, "blue": [CX + 300.0, 2000.0], "red-1": [CX, 2710.0], "black": BLACK},
                ),
            ),
        ],
        {
            "foul": True,
            "penalty": 6,
            "score": [6, 7],
            "respotted": [{"ball": "pink", "position": BLUE}],
            "free_ball": False,
            "striker": 0,
        },
    ),
    # FREE_ON_PINK (40-36). Ben hits the black first (the free ball) and pots both balls. Only the
    # ball on scores when the ball on is not a red (3.10(e)): the pink, 6 to Ben (40-42); the pink stays
    # down, the black (the free ball) is re-spotted on its spot; Ben on the black.
    row(
        "3.10(e)",
        "pink and black left, both potted off the free ball: the pink scores, the black re-spotted",
        [
            *FREE_ON_PINK,
            cam(["black"], ["black", "pink"], positions=at(BEHIND_BLACK, {"white": [CX + 200.0, 2900.0]})),
        ],
        {
            "foul": False,
            "score": [40, 42],
            "colours": ["black"],
            "ball_on": "black",
            "respotted": [{"ball": "black", "position": BLACK}],
            "striker": 1,
        },
    ),
    # FREE_ON_PINK. Ben plays the black (the free ball) up the centre line and leaves it between the
    # cue ball and the pink, nothing potted. Snookering with the free ball is no foul when only the
    # pink and the black remain (3.10(b)): a safety, Ann to play, 40-36.
    row(
        "3.10(b)",
        "pink and black left, the free ball left between the cue ball and the pink: no foul",
        [
            *FREE_ON_PINK,
            cam(
                ["black"],
                positions=at(BEHIND_BLACK, {"white": [CX, 2000.0], "pink": PINK, "black": [CX, 2300.0]}),
            ),
        ],
        {"foul": False, "score": [40, 36], "striker": 0, "ball_on": "pink"},
    ),
    # FREE_ON_YELLOW (30-26). Ben hits the green first (the free ball) and pots the yellow: the ball on
    # potted after the free ball scores (2) and stays down (3.10(d)); 30-28, Ben on the green.
    row(
        "3.10(d)",
        "ascending colours, the yellow potted off the green as the free ball: two, stays down",
        [
            *FREE_ON_YELLOW,
            cam(
                ["green"],
                ["yellow"],
                positions=at(
                    LEFT_OF_GREEN,
                    {
                        **without(COLOURS_ON_SPOTS, "yellow"),
                        "white": [700.0, 900.0],
                        "green": [800.0, 1000.0],
                    },
                ),
            ),
        ],
        {"foul": False, "score": [30, 28], "ball_on": "green", "respotted": [], "striker": 1},
    ),
    # 3.7 with 3.10: the referee's re-spot decides the next player's snooker ------------------------------
    # Ann's break-off hits the pink first and pots it (a red open from the D: foul and a miss, six to
    # Ben). The pink is re-spotted on its spot before the next stroke (3.7), and that spot lies on the
    # straight line from where the cue ball stopped (CX, 2300) to the only red (CX, 3000): Ben is
    # snookered by the pink, a free ball (3.10).
    row(
        "3.7/3.10",
        "the pink potted in a foul and re-spotted between the cue ball and the only red: free ball",
        [
            match(),
            cam(
                ["pink"],
                ["pink"],
                positions=at(
                    {"white": [CX + 100.0, 600.0], "red-1": [CX, 3000.0], "black": BLACK, "pink": PINK},
                    {"white": [CX, 2300.0], "red-1": [CX, 3000.0], "black": BLACK},
                ),
            ),
        ],
        {
            "foul": True,
            "penalty": 6,
            "miss": True,
            "respotted": [{"ball": "pink", "position": PINK}],
            "free_ball": True,
            "striker": 1,
        },
    ),
    # Ann pots a red, then the pink; the camera still lists the pink where it went in, in the jaws of the
    # top-left pocket. A potted pink (after a red: 7) is re-spotted on its spot (3.7), wherever a stale
    # place lists it; Ann on a red.
    row(
        "3.7",
        "a potted pink still listed in the pocket's jaws: re-spotted on its own spot",
        [
            match(),
            cam(
                ["red"],
                ["red"],
                positions=at(
                    {
                        "white": [CX, 600.0],
                        "red-1": [CX + 300.0, 2400.0],
                        "red-2": [CX - 300.0, 2400.0],
                        "pink": PINK,
                        "black": BLACK,
                    },
                    {"white": [CX, 2000.0], "red-2": [CX - 300.0, 2400.0], "pink": PINK, "black": BLACK},
                ),
            ),
            cam(
                ["pink"],
                ["pink"],
                positions=at(
                    {"white": [CX, 2000.0], "red-2": [CX - 300.0, 2400.0], "pink": PINK, "black": BLACK},
                    {
                        "white": [CX + 200.0, 2500.0],
                        "red-2": [CX - 300.0, 2400.0],
                        "pink": [30.0, 3540.0],
                        "black": BLACK,
                    },
                ),
            ),
        ],
        {"score": [7, 0], "respotted": [{"ball": "pink", "position": PINK}], "ball_on": "red", "striker": 0},
    ),
    # 3.8: the tracker's touching ball with a free ball and the last colours -------------------------------
    # Ann's break-off hits the black first (Ben 7) and leaves the cue ball resting against the blue, the
    # only red straight beyond it: snookered, a free ball (3.10). With it the blue can be on, so the
    # referee calls TOUCHING BALL and names it (3.8(a)).
    row(
        "3.8(a)/3.10",
        "a free ball with the cue ball resting against the blue: touching ball named",
        [
            match(),
            cam(
                ["black"],
                touching=["blue"],
                positions=at(None, {"white": [CX, BLUE[1] - 52.5], "blue": BLUE, "red-1": [CX, 2700.0]}),
            ),
        ],
        {"free_ball": True, "touching": ["blue"], "score": [0, 7], "striker": 1},
    ),
    # Pink and black left (40-30), Ann on the pink plays safe off it and leaves the cue ball against the
    # black (not on). Ben plays away and hits nothing: he had to hit the pink (3.8(d)); missing every
    # ball costs the value of the ball on, six (3.12(a)). No positions: no miss judged. 46-30.
    row(
        "3.8(d)/3.12(a)",
        "pink and black left, against the black: playing away and hitting nothing is six",
        [match(), ON_PINK_JOINED, cam(["pink"], touching=["black"]), cam([])],
        {"foul": True, "fouls": ["missed_all_balls"], "penalty": 6, "score": [46, 30], "striker": 0},
    ),
    # Ann (68) on the black, the last ball, plays safe and leaves the cue ball against it. Ben plays away
    # and hits nothing: the touching ball is on, so no penalty (3.8(c)(i)); no score and no foul, so the
    # frame goes on (3.4(a)); Ann to play, 68-0.
    row(
        "3.8(c)(i)/3.4(a)",
        "only the black, the cue ball against it: playing away is no foul, the frame goes on",
        [*ON_BLACK, cam(["black"], touching=["black"]), cam([])],
        {"foul": False, "frame_over": False, "score": [68, 0], "striker": 0},
    ),
    # truncated: the source ended before the balls stopped -------------------------------------------------
    # SAFE_OPEN, Ben to play. The video ends 0.3 s after his strike: the cue ball is still running up the
    # table, no contact yet (``truncated``, nothing logged as hit). Nothing shows that the cue ball missed
    # every ball (3.12(a)); the contact was not seen, as after a broadcast's cut (``unwatched_s``): no
    # foul, no miss; nothing scored, Ann to play, 0-0.
    row(
        "3.12(a)/3.14(b)",
        "a truncated stroke with no contact yet: no foul for missing every ball, no miss",
        [
            *SAFE_OPEN,
            cam(
                [],
                truncated=True,
                positions=at({"white": WHITE_UP, **RED}, {"white": [CX + 100.0, 2300.0], **RED}),
            ),
        ],
        {"foul": False, "miss": False, "score": [0, 0], "striker": 0},
    ),
    # The same, the stroke cut off after the cue ball hit the red and the red dropped: what was seen is
    # ruled as given, a red potted (1), Ben on a colour.
    row(
        "3.3(e)",
        "a truncated stroke that potted a red: the red scores",
        [
            *SAFE_OPEN,
            cam(
                ["red"],
                ["red"],
                truncated=True,
                positions=at({"white": WHITE_UP, **RED}, {"white": [CX + 100.0, 2300.0]}),
            ),
        ],
        {"foul": False, "score": [0, 1], "ball_on": "colour", "striker": 1},
    ),
    # moving_at_strike: struck while a ball still ran (3.12(b)) --------------------------------------------
    # Ann pots a red (1), then hits the black first and pots it while the blue is still running: foul,
    # the value of the ball on (the black, the obvious nomination: 7) or of the ball concerned (blue 5):
    # seven to Ben. The black is re-spotted; Ben on a red.
    row(
        "3.12(b)/3.7",
        "the black potted after a red while the blue still ran: seven, the black re-spotted",
        [match(), cam(["red"], ["red"]), cam(["black"], ["black"], moving_at_strike=["blue"])],
        {"foul": True, "fouls": ["balls_moving"], "penalty": 7, "score": [1, 7], "respotted": ["black"]},
    ),
    # Ann (68) on the black, the last ball, strikes while it is still running: a foul, seven to Ben; the
    # first foul with only the black left ends the frame (3.4(a)): 68-7 to Ann.
    row(
        "3.12(b)/3.4(a)",
        "the last black struck while it still ran: seven, the frame ends",
        [*ON_BLACK, cam(["black"], moving_at_strike=["black"])],
        {"foul": True, "penalty": 7, "score": [68, 7], "frame_over": True, "winner": 0},
    ),
    # Ann 36, Ben 29, Ann on the last black; she pots it while it still ran: a foul, nothing scores,
    # seven to Ben: 36-36, a re-spotted black (3.4(b)), in hand.
    row(
        "3.12(b)/3.4(b)",
        "the last black potted while it still ran, the scores then level: a re-spotted black",
        [*tie_before_the_last_black(), cam(["black"], ["black"], moving_at_strike=["black"])],
        {"foul": True, "score": [36, 36], "respotted_black": True, "in_hand": True, "frame_over": False},
    ),
    # TIE (36-36), the re-spotted black, no lot logged: Ben's stroke, struck while the black still ran,
    # pots it: a foul ends a re-spotted black (3.4(b)): seven to Ann, 43-36, the frame to Ann.
    row(
        "3.12(b)/3.4(b)",
        "a re-spotted black potted while it still ran: the frame to the opponent",
        [
            *TIE,
            cam(
                ["black"],
                ["black"],
                moving_at_strike=["black"],
                positions=at({"white": [CX, 600.0], "black": BLACK}, {"white": [CX, 3000.0]}),
            ),
        ],
        {"foul": True, "score": [43, 36], "frame_over": True, "winner": 0},
    ),
    # Points remaining and snookers required when reds leave the table in a foul ---------------------------
    # Joined at 0-70, two reds, Ann on a red: 2*8 + 27 = 43 remaining; Ann 70 behind needs 27 more, seven
    # snookers at four. She pots both reds and goes in-off: four to Ben (0-74); the reds stay down
    # (3.3(g)): the colours only, 27 remaining; 47 short, twelve snookers. Ben on the yellow, in hand.
    row(
        "3.3(g)/Section 2",
        "both reds potted in an in-off: 27 remaining, twelve snookers",
        [
            match(),
            table(reds=2, ball_on="red", score=[0, 70], striker=0),
            cam(["red"], ["red", "red"], cue_ball="potted"),
        ],
        {
            "score": [0, 74],
            "reds": 0,
            "ball_on": "yellow",
            "points_remaining": 27,
            "snookers_required": [12, 0],
        },
    ),
    # The same, one red forced off the table instead: four (3.12(b)); that red stays off, one left:
    # 8 + 27 = 35 remaining, 0-74: 39 short, ten snookers; Ben on a red.
    row(
        "3.3(g)/Section 2",
        "a red forced off the table in a foul: 35 remaining, ten snookers",
        [match(), table(reds=2, ball_on="red", score=[0, 70], striker=0), cam(["red"], off_table=["red"])],
        {"score": [0, 74], "reds": 1, "points_remaining": 35, "snookers_required": [10, 0]},
    ),
    # Positions that contradict the stroke's other fields ----------------------------------------------------
    # ONE_RED. Ann hits the last red first and pots it with the pink: potting the pink, not on, six to
    # Ben (3.12(b)); the red stays down (3.3(g)), the pink is re-spotted; no red is left, Ben on the
    # yellow. The places after still list the red (red-1), between the cue ball and the yellow. With the
    # red off the table only the colours can snooker: the line to the yellow is open, no free ball.
    row(
        "3.3(g)/3.10",
        "the last red potted in a foul but still listed after: it snookers nobody",
        [
            *ONE_RED,
            cam(
                ["red"],
                ["red", "pink"],
                positions=at(
                    LAST_RED_AT,
                    {**without(COLOURS_ON_SPOTS, "pink"), "white": OPEN_TO_YELLOW, "red-1": STALE},
                ),
            ),
        ],
        {"foul": True, "penalty": 6, "score": [0, 6], "reds": 0, "ball_on": "yellow", "free_ball": False},
    ),
    # ONE_RED. Ann hits the last red and forces it off the table: four to Ben (3.12(b)); it stays off,
    # Ben on the yellow; the places after still list it between the cue ball and the yellow. No red is on
    # the table, the yellow is open: no free ball.
    row(
        "3.3(g)/3.10",
        "the last red forced off the table but still listed after: it snookers nobody",
        [
            *ONE_RED,
            cam(
                ["red"],
                off_table=["red"],
                positions=at(LAST_RED_AT, {**COLOURS_ON_SPOTS, "white": OPEN_TO_YELLOW, "red-1": STALE}),
            ),
        ],
        {"foul": True, "penalty": 4, "score": [0, 4], "reds": 0, "ball_on": "yellow", "free_ball": False},
    ),
    # LAST_RED_GONE: Ann 8, on the yellow, the cue ball at OPEN_TO_YELLOW. Her stroke's places (before and
    # after) list a red half way to the yellow, though none is left: the red potted earlier, a stale
    # track. She hits nothing, the cue ball stopping 400 mm further up. With the red off the table
    # the line to the yellow was open; nobody needs snookers (8-0, 27 on the table):
    # foul and a miss (3.14(b)), four to Ben (the yellow's 2 < 4). From where the cue ball stopped the
    # yellow is open: no free ball.
    row(
        "3.14(b)/3.3(g)",
        "a red potted earlier still listed before the stroke: it blocks no line, a miss",
        [
            *LAST_RED_GONE,
            cam(
                [],
                positions=at(
                    {**COLOURS_ON_SPOTS, "white": OPEN_TO_YELLOW, "red-1": STALE},
                    {**COLOURS_ON_SPOTS, "white": [OPEN_TO_YELLOW[0], 1500.0], "red-1": STALE},
                ),
            ),
        ],
        {"foul": True, "penalty": 4, "score": [8, 4], "miss": True, "free_ball": False},
    ),
]


@pytest.mark.parametrize(("lines", "expected"), CHECKLIST)
def test_camera_audit_second_checklist(lines, expected):
    referee = Referee()
    rulings = [referee.apply(line) for line in lines[:-1]]
    for number, ruling in enumerate(rulings):
        assert "error" not in ruling, f"set-up line {number} refused: {ruling}"
    ruling = referee.apply(lines[-1])
    assert "error" not in ruling, ruling
    assert {field: ruling.get(field) for field in expected} == expected


def test_the_set_ups_are_as_described():
    """The free balls and the table before the contradicting strokes are as the comments say."""
    assert rule(FREE_FULL)[-1]["free_ball"] is True
    free_on_pink = rule(FREE_ON_PINK)[-1]
    assert (free_on_pink["score"], free_on_pink["free_ball"], free_on_pink["miss"]) == ([40, 36], True, True)
    free_on_yellow = rule(FREE_ON_YELLOW)[-1]
    assert (free_on_yellow["score"], free_on_yellow["free_ball"]) == ([30, 26], True)
    listed = rule(LAST_RED_GONE)[-1]
    assert (listed["score"], listed["reds"], listed["ball_on"]) == ([8, 0], 0, "yellow")
    # Without the red listed, the same strokes: no free ball, and a miss (the line is open).
    clean = cam(
        ["red"],
        ["red", "pink"],
        positions=at(LAST_RED_AT, {**without(COLOURS_ON_SPOTS, "pink"), "white": OPEN_TO_YELLOW}),
    )
    assert rule([*ONE_RED, clean])[-1]["free_ball"] is False
    missed = cam(
        [],
        positions=at(
            {**COLOURS_ON_SPOTS, "white": OPEN_TO_YELLOW},
            {**COLOURS_ON_SPOTS, "white": [OPEN_TO_YELLOW[0], 1500.0]},
        ),
    )
    assert {k: rule([*LAST_RED_GONE, missed])[-1][k] for k in ("miss", "free_ball")} == {
        "miss": True,
        "free_ball": False,
    }
