"""A third, independent audit of the referee against Section 3, for situations the first two left open.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative where the English digest is terse; Section 2's definitions as summarised in
``RULES-EN.md``), not from the referee's output. Scores are ``[Ann, Ben]``. The set-ups are the
first audit's (``ON_YELLOW``: Ann 48, yellow on; ``FREE_ON_RED``: Ben 7 with a free ball …).
"""

from __future__ import annotations

from typing import Any

from referee_logs import assert_last_ruling, clear_reds, match, over_checklist, pot, rule, safe, stroke
from test_referee_audit import (
    BLUE_SPOT,
    CX,
    FREE_ON_RED,
    FREE_ON_YELLOW,
    LAST_RED_DOWN,
    ON_BLACK,
    ON_BLUE,
    ON_COLOUR,
    ON_GREEN,
    ON_PINK,
    ON_YELLOW,
    PLAY,
    REPLACE,
    SPOTS,
    TIE,
    miss_stroke,
    nominate,
    tie_before_the_last_black,
)
from test_referee_second_audit import in_hand_at, lot

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee.geometry import DEFAULT_GEOMETRY_CONFIG

PINK_SPOT = list(SPOTS["pink"])
BLACK_SPOT = list(SPOTS["black"])
DIAMETER = STANDARD_TABLE.ball_diameter_mm

# --- positions for the snookered definition (Section 2) ------------------------------------------
# The cue ball on the long centre line below the blue; the blue on its spot.
RED_HIDDEN = [CX, 2700.0]
"""Straight behind the blue from the cue ball: no part of it can be hit directly."""
RED_HALF_HIDDEN = [CX + 70.0, 1900.0]
"""Just past the blue and off to one side: one extreme edge is blocked by the blue, the other free."""
RED_IN_VIEW = [300.0, 2700.0]
"""Far to the side: both extreme edges free."""


def after_foul_at(**reds: list[float]) -> list[dict[str, Any]]:
    """Ann plays the black first on the break-off (a foul, seven) and leaves the balls as given."""
    layout = {"white": [CX, 1000.0], "blue": BLUE_SPOT, **reds}
    return [match(), safe("black", positions={"after": layout})]


# --- the red behind the black from every point of the D -------------------------------------------
RED_BEHIND_BLACK = [CX, 3400.0]
"""On the centre line behind the black: from anywhere in the D the black blocks an extreme edge."""
RED_OFF_THE_BLACK = [CX + 300.0, 3400.0]
"""Off to the side: seen whole from the right-hand side of the D."""


def in_off_leaving(red: list[float]) -> list[dict[str, Any]]:
    """Ann goes in-off a red on the break-off (four); Ben in hand with one red and the black tracked."""
    return [
        match(),
        stroke(["red"], cue_ball="potted", positions={"after": {"red-1": red, "black": BLACK_SPOT}}),
    ]


# --- a free ball with one red left, and with the last red just gone ---------------------------------
ONE_RED_LEFT = [match(reds=6), *clear_reds(5)]  # Ann 40, one red left, Ann on it
FREE_WITH_ONE_RED = [*ONE_RED_LEFT, safe("black", free_ball=True)]  # Ben 7, free ball
# Ann pots the last red but goes in-off, and leaves Ben snookered on the yellow: Ben 4, free ball.
FREE_AFTER_LAST_RED = [*ONE_RED_LEFT, stroke(["red"], ["red"], cue_ball="potted", free_ball=True)]

# --- Ann 35, Ben 0, one red (35 points) left, Ann on the red --------------------------------------
LEVEL_WITH_WHAT_IS_LEFT = [match(reds=6), *clear_reds(4), pot("red"), pot("yellow")]

# --- every spot taken and the line from the black spot up to the top cushion filled -----------------
TOP_CUSHION_Y = STANDARD_TABLE.length_mm
LINE_SPACING_MM = 60.0
"""Closer than two diameters plus the touch tolerance: no ball fits between neighbours on the line."""


def black_spot_line_filled() -> dict[str, list[float]]:
    """Every colour but the black on its spot, reds from the black spot up to the top cushion."""
    layout: dict[str, list[float]] = {"white": [300.0, 1200.0]}
    layout.update({c: list(SPOTS[c]) for c in ("yellow", "green", "brown", "blue", "pink")})
    highest = TOP_CUSHION_Y - DIAMETER / 2.0  # a red against the top cushion
    y, k = BLACK_SPOT[1], 1
    while y < highest:
        layout[f"red-{k}"] = [CX, y]
        y, k = y + LINE_SPACING_MM, k + 1
    layout[f"red-{k}"] = [CX, highest]
    return layout


def just_below_the_black_spot() -> list[float]:
    """3.7(g): on the centre line, as near as possible below the black spot without touching the red
    on it (one diameter, the touch tolerance and the placement gap)."""
    cfg = DEFAULT_GEOMETRY_CONFIG
    return [CX, BLACK_SPOT[1] - (DIAMETER + cfg.touch_tolerance_mm + cfg.placement_gap_mm)]


# --- aggregate scoring: Ann wins frame 1 by 14 points (Ben fouls twice, seven each, and concedes) ----
AGGREGATE_FRAME_1 = [
    match(reds=6, aggregate=True, best_of=2),
    safe("red"),
    safe("black"),  # Ben: seven away
    PLAY,
    safe("red"),
    safe("black"),  # Ben: seven away, Ann 14
    {"type": "concede", "player": 1},
    {"type": "new_frame"},
]
# Frame 2: Ben breaks, so the first audit's tie script gives Ben 36, Ann 29, Ben on the black.
AGGREGATE_FRAME_2_ON_BLACK = [*AGGREGATE_FRAME_1, *tie_before_the_last_black()[1:]]

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.11(g), 3.12(b): several balls in one foul — the highest value of the ball on and the balls
    # concerned, never less than four ---------------------------------------------------------------
    (
        "3.12(b)",
        "on a red, the black hit first and the pink potted: seven, the pink re-spotted",
        [match(), stroke(["black"], ["pink"])],
        {
            "penalty": 7,
            "fouls": ["wrong_ball_first", "potted_ball_not_on"],
            "score": [0, 7],
            "respotted": ["pink"],
        },
    ),
    (
        "3.12(b)",
        "on a red, a red, the yellow and the green potted: four, the red stays down",
        [match(), stroke(["red"], ["red", "yellow", "green"])],
        {"penalty": 4, "score": [0, 4], "reds": 14, "respotted": ["green", "yellow"]},
    ),
    (
        "3.12(b)/3.3(g)",
        "on a red, the pink hit first and a red potted: six, the red stays down unscored",
        [match(), stroke(["pink"], ["red"])],
        {"penalty": 6, "fouls": ["wrong_ball_first"], "score": [0, 6], "reds": 14, "respotted": []},
    ),
    (
        "3.12(b)/3.11(e)",
        "on a red, two reds and the pink potted: six, no score, both reds stay down",
        [match(), stroke(["red"], ["red", "red", "pink"])],
        {"penalty": 6, "score": [0, 6], "reds": 13, "respotted": ["pink"], "break": 0, "striker": 1},
    ),
    (
        "3.6/3.12(c)",
        "on a red, two reds and the pink hit at once: six",
        [match(), stroke(["red", "red", "pink"])],
        {"penalty": 6, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.12(b)",
        "blue nominated, the blue and the black potted: seven, both re-spotted",
        [*ON_BLUE, stroke(["blue"], ["blue", "black"])],
        {"penalty": 7, "score": [1, 7], "respotted": ["black", "blue"], "ball_on": "red", "reds": 14},
    ),
    (
        "3.12(b)",
        "blue nominated, the pink hit first and the blue potted: six, the blue re-spotted",
        [*ON_BLUE, stroke(["pink"], ["blue"])],
        {"penalty": 6, "fouls": ["wrong_ball_first"], "score": [1, 6], "respotted": ["blue"]},
    ),
    (
        "3.12(b)",
        "black nominated, the yellow hit and potted: seven",
        [*ON_COLOUR, nominate("black"), pot("yellow")],
        {"penalty": 7, "fouls": ["wrong_ball_first", "potted_ball_not_on"], "score": [1, 7]},
    ),
    (
        "3.12(b)",
        "yellow nominated, the yellow hit and a red potted: four, the red stays down",
        [*ON_COLOUR, nominate("yellow"), stroke(["yellow"], ["red"])],
        {"penalty": 4, "fouls": ["potted_ball_not_on"], "reds": 13, "score": [1, 4]},
    ),
    (
        "3.12(b)/2",
        "after a red, the green hit first (an obvious nomination) and the blue potted: five",
        [*ON_COLOUR, stroke(["green"], ["blue"])],
        {"penalty": 5, "fouls": ["potted_ball_not_on"], "score": [1, 5], "respotted": ["blue"]},
    ),
    (
        "3.12(b)",
        "yellow on, the black and the green potted off the yellow: seven, both re-spotted",
        [*ON_YELLOW, stroke(["yellow"], ["black", "green"])],
        {"penalty": 7, "score": [48, 7], "respotted": ["black", "green"], "ball_on": "yellow"},
    ),
    (
        "3.12(a)/(b)",
        "green on, the brown potted with an in-off: four, the brown re-spotted",
        [*ON_GREEN, stroke(["green"], ["brown"], cue_ball="potted")],
        {"penalty": 4, "score": [50, 4], "respotted": ["brown"], "ball_on": "green", "in_hand": True},
    ),
    (
        "3.12(b)",
        "pink on, the pink and the black potted: seven, both re-spotted",
        [*ON_PINK, stroke(["pink"], ["pink", "black"])],
        {"penalty": 7, "score": [62, 7], "respotted": ["black", "pink"], "colours": ["pink", "black"]},
    ),
    (
        "3.11(g)",
        "a push stroke and a stroke while the pink moved: only the highest, six",
        [match(), safe("red", fouls=["push_stroke", {"reason": "balls_moving", "ball": "pink"}])],
        {"penalty": 6, "fouls": ["balls_moving", "push_stroke"], "score": [0, 6]},
    ),
    # 3.12(a): fouls valued at the ball on only, whatever ball the log names ---------------------
    (
        "3.12(a)",
        "a jump shot over the black on a red: four",
        [match(), safe("red", fouls=[{"reason": "jump_shot", "ball": "black"}])],
        {"penalty": 4, "fouls": ["jump_shot"]},
    ),
    (
        "3.12(a)",
        "a double hit with the pink close by, on a red: four",
        [match(), safe("red", fouls=[{"reason": "double_hit", "ball": "pink"}])],
        {"penalty": 4, "fouls": ["double_hit"]},
    ),
    (
        "3.12(a)/(b)",
        "a jump shot landing on the black first, on a red: seven for the black",
        [match(), safe("black", fouls=["jump_shot"])],
        {"penalty": 7, "fouls": ["wrong_ball_first", "jump_shot"]},
    ),
    (
        "3.12(a)",
        "playing improperly from in hand, called by the referee, pink on: six",
        [*ON_PINK, safe("pink", fouls=["improper_in_hand"])],
        {"penalty": 6, "fouls": ["improper_in_hand"], "score": [62, 6]},
    ),
    # no first contact at all, on each kind of ball on (3.12(a)) -----------------------------------
    (
        "3.12(a)",
        "yellow nominated after a red, nothing hit: four",
        [*ON_COLOUR, nominate("yellow"), stroke([])],
        {"penalty": 4, "fouls": ["missed_all_balls"], "score": [1, 4]},
    ),
    (
        "3.12(a)",
        "black nominated after a red, nothing hit: seven",
        [*ON_COLOUR, nominate("black"), stroke([])],
        {"penalty": 7, "fouls": ["missed_all_balls"], "score": [1, 7]},
    ),
    (
        "3.12(a)",
        "brown on, nothing hit: four",
        [*ON_GREEN, pot("green"), stroke([])],
        {"penalty": 4, "score": [53, 4], "ball_on": "brown"},
    ),
    (
        "3.12(a)",
        "blue on, nothing hit: five",
        [*ON_GREEN, pot("green"), pot("brown"), stroke([])],
        {"penalty": 5, "score": [57, 5], "ball_on": "blue"},
    ),
    (
        "3.12(a)/3.10",
        "a free ball not taken, nothing hit: four",
        [*FREE_ON_RED, stroke([])],
        {"penalty": 4, "score": [4, 7], "striker": 0, "free_ball": False},
    ),
    (
        "3.4(b)/3.12(a)",
        "re-spotted black, nothing hit: seven, the frame is over",
        [*TIE, lot(1), stroke([])],
        {"penalty": 7, "frame_over": True, "winner": 0, "score": [43, 36]},
    ),
    (
        "3.4(b)/3.5",
        "re-spotted black played from outside the D: seven, the frame is over",
        [*TIE, lot(0), in_hand_at(CX, 900.0, "black")],
        {"penalty": 7, "fouls": ["improper_in_hand"], "frame_over": True, "winner": 1, "score": [36, 43]},
    ),
    # 3.10 free ball ------------------------------------------------------------------------------
    (
        "3.10/3.12(b)",
        "reds on, free ball pink, the pink and the black potted: seven, both re-spotted",
        [*FREE_ON_RED, nominate("pink"), stroke(["pink"], ["pink", "black"])],
        {"penalty": 7, "score": [7, 7], "respotted": ["black", "pink"], "reds": 15, "striker": 0},
    ),
    (
        "3.6/3.10(c)",
        "reds on, free ball pink hit together with a red, only the pink potted: one, re-spotted",
        [*FREE_ON_RED, nominate("pink"), stroke(["pink", "red"], ["pink"])],
        {"foul": False, "score": [0, 8], "respotted": ["pink"], "ball_on": "colour", "reds": 15},
    ),
    (
        "3.10/3.12(b)",
        "reds on, free ball blue, the blue and the yellow potted: four",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["blue", "yellow"])],
        {"penalty": 4, "score": [4, 7], "respotted": ["blue", "yellow"], "striker": 0},
    ),
    (
        "3.10(a)/3.12(b)",
        "yellow on, free ball black, the black and the pink potted: six",
        [*FREE_ON_YELLOW, nominate("black"), stroke(["black"], ["black", "pink"])],
        {"penalty": 6, "score": [54, 4], "respotted": ["black", "pink"], "ball_on": "yellow"},
    ),
    (
        "3.10(a)/3.12(b)",
        "yellow on, free ball green, the brown potted off it: four",
        [*FREE_ON_YELLOW, nominate("green"), stroke(["green"], ["brown"])],
        {"penalty": 4, "score": [52, 4], "respotted": ["brown"], "ball_on": "yellow"},
    ),
    (
        "3.10/2",
        "one red left: a free ball adds a red and a black to the points remaining",
        FREE_WITH_ONE_RED,
        {"free_ball": True, "reds": 1, "points_remaining": 43, "score": [40, 7], "ball_on": "red"},
    ),
    (
        "3.10(a)/3.3(f)",
        "one red left: the free ball potted as a red, then a colour; the last red is still on",
        [*FREE_WITH_ONE_RED, nominate("pink"), pot("pink"), pot("black")],
        {
            "score": [40, 15],
            "reds": 1,
            "ball_on": "red",
            "break": 8,
            "striker": 1,
            "respotted": ["black"],
            "points_remaining": 35,
        },
    ),
    (
        "3.3(g)/3.10",
        "the last red potted in a foul, the next player snookered: a free ball on the yellow",
        FREE_AFTER_LAST_RED,
        {
            "reds": 0,
            "ball_on": "yellow",
            "free_ball": True,
            "points_remaining": 29,
            "score": [40, 4],
            "striker": 1,
            "in_hand": True,
        },
    ),
    (
        "3.10(c)",
        "then the free ball brown potted: two (the yellow's value), re-spotted, still on the yellow",
        [*FREE_AFTER_LAST_RED, nominate("brown"), pot("brown")],
        {"score": [40, 6], "respotted": ["brown"], "ball_on": "yellow", "break": 2, "points_remaining": 27},
    ),
    # Section 2 "snookered" and 3.10: partly hidden balls, in hand -----------------------------------
    (
        "2/3.10",
        "the only red partly hidden (one extreme edge blocked): snookered, a free ball",
        after_foul_at(**{"red-1": RED_HALF_HIDDEN}),
        {"free_ball": True, "announcements": ["FOUL", "SEVEN AWAY", "FREE BALL"]},
    ),
    (
        "2/3.10",
        "one red hidden, another in plain view: not snookered, no free ball",
        after_foul_at(**{"red-1": RED_HIDDEN, "red-2": RED_IN_VIEW}),
        {"free_ball": False, "announcements": ["FOUL", "SEVEN AWAY"]},
    ),
    (
        "2/3.10",
        "one red hidden, the other partly hidden: snookered on every red, a free ball",
        after_foul_at(**{"red-1": RED_HIDDEN, "red-2": RED_HALF_HIDDEN}),
        {"free_ball": True},
    ),
    (
        "2/3.10",
        "in hand after an in-off, the red behind the black from all of the D: a free ball",
        in_off_leaving(RED_BEHIND_BLACK),
        {"free_ball": True, "in_hand": True, "penalty": 4, "points_remaining": 155},
    ),
    (
        "2/3.10",
        "in hand after an in-off, the red in view from part of the D: no free ball",
        in_off_leaving(RED_OFF_THE_BLACK),
        {"free_ball": False, "in_hand": True, "penalty": 4},
    ),
    (
        "3.10(b)(ii)",
        "yellow on, the free ball blue left between the cue ball and the yellow: foul, four",
        [
            *FREE_ON_YELLOW,
            nominate("blue"),
            safe(
                "blue",
                positions={"after": {"white": [CX, 1000.0], "blue": [CX, 1500.0], "yellow": [CX, 2500.0]}},
            ),
        ],
        {"foul": True, "fouls": ["free_ball_snooker"], "penalty": 4, "score": [52, 4], "striker": 0},
    ),
    # 3.14 foul and a miss -------------------------------------------------------------------------
    (
        "3.14(b)",
        "the opponent needs snookers, but the referee judges the miss intentional: a miss",
        [*ON_YELLOW, stroke([], miss=True)],
        {"miss": True, "penalty": 4, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(b)",
        "a ball not on hit first with a clear line to the ball on: foul and a miss at its value",
        [match(), safe("black", clear_path=True)],
        {"miss": True, "penalty": 7, "announcements": ["FOUL AND A MISS", "SEVEN AWAY"]},
    ),
    (
        "3.14(b)/3.12(d)",
        "after a red, no colour named, nothing hit with a clear line: seven and a miss",
        [*ON_COLOUR, stroke([], clear_path=True)],
        {"miss": True, "penalty": 7, "score": [1, 7]},
    ),
    (
        "3.14(b)",
        "nobody needs snookers before or after the stroke (Ann 35 up, 35 left): a miss",
        [*LEVEL_WITH_WHAT_IS_LEFT, stroke(["black"], clear_path=True)],
        {"miss": True, "score": [35, 7], "points_remaining": 35},
    ),
    (
        "3.14(b)",
        "the opponent needs snookers as a result: the last red potted in the foul (28 behind, 27 left)",
        [*LEVEL_WITH_WHAT_IS_LEFT, stroke(["black"], ["red"], clear_path=True)],
        {
            "miss": False,
            "foul": True,
            "score": [35, 7],
            "reds": 0,
            "ball_on": "yellow",
            "points_remaining": 27,
        },
    ),
    (
        "3.14(b)/2",
        "the same foul leaving a free ball on the yellow: 28 behind, 29 left with it: a miss",
        [*LEVEL_WITH_WHAT_IS_LEFT, stroke(["black"], ["red"], clear_path=True, free_ball=True)],
        {"miss": True, "free_ball": True, "score": [35, 7], "points_remaining": 29},
    ),
    (
        "3.14(c)",
        "after a full-ball miss, the replayed stroke hits the ball on but goes in-off: no miss, no warning",
        [match(), miss_stroke(full_ball=True), REPLACE, stroke(["red"], cue_ball="potted")],
        {"miss": False, "penalty": 4, "options": ["play", "play_again"], "warning": False, "score": [0, 8]},
    ),
    (
        "3.14",
        "snookered, but the referee judges the attempt not genuine: foul and a miss",
        [match(), stroke([], clear_path=False, miss=True)],
        {"miss": True, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(c)",
        "three misses called while snookered (no full ball could be open): no warning, no award",
        [
            match(),
            *[stroke([], clear_path=False, miss=True), REPLACE] * 2,
            stroke([], clear_path=False, miss=True),
        ],
        {"miss": True, "frame_over": False, "warning": False, "score": [0, 12]},
    ),
    (
        "3.14(c)",
        "a called miss with a clear line and no full-ball judgement: the second replay warns",
        [match(), *[stroke([], clear_path=True, miss=True), REPLACE] * 2],
        {"warning": True, "score": [0, 8], "striker": 0},
    ),
    (
        "3.14",
        "re-spotted black: never a miss",
        [*TIE, lot(0), stroke([], miss=True)],
        {"miss": False, "frame_over": True, "winner": 1, "score": [36, 43]},
    ),
    # 3.8 touching ball ----------------------------------------------------------------------------
    (
        "3.8(b)/3.12(b)",
        "touching the pink (not on), a push stroke moves it: six (the pink is the ball concerned)",
        [match(), safe("red", touching=["pink"]), stroke(["red"], fouls=["push_stroke"])],
        {"penalty": 6, "fouls": ["push_stroke"], "score": [6, 0]},
    ),
    (
        "3.8(b)/3.12(b)",
        "after a red, touching the black, the yellow nominated, a push stroke moves the black: seven",
        [
            match(),
            pot("red", touching=["black"]),
            nominate("yellow"),
            stroke(["yellow"], fouls=["push_stroke"]),
        ],
        {"penalty": 7, "fouls": ["push_stroke"], "score": [1, 7]},
    ),
    (
        "3.8(b)/3.12(b)",
        "touching a red (on), a push stroke: four",
        [match(), safe("red", touching=["red-4"]), stroke(["red"], fouls=["push_stroke"])],
        {"penalty": 4, "fouls": ["push_stroke"]},
    ),
    (
        "3.8(b)/3.12(b)",
        "touching a red and the pink, a push stroke named without its ball: four (which moved is unknown)",
        [match(), safe("red", touching=["red-4", "pink"]), stroke(["red"], fouls=["push_stroke"])],
        {"penalty": 4, "fouls": ["push_stroke"]},
    ),
    (
        "3.8(c)(iii)",
        "after a red, touching the yellow, the blue nominated, nothing hit: five",
        [match(), pot("red", touching=["yellow"]), nominate("blue"), stroke([])],
        {"penalty": 5, "fouls": ["missed_all_balls"], "score": [1, 5]},
    ),
    (
        "3.8(d)",
        "touching the pink (not on), played away, a red hit first: no foul",
        [match(), safe("red", touching=["pink"]), safe("red")],
        {"foul": False, "striker": 0, "score": [0, 0]},
    ),
    (
        "3.8(d)/3.12(b)",
        "touching the pink (not on), played away, the black hit first: seven",
        [match(), safe("red", touching=["pink"]), safe("black")],
        {"penalty": 7, "fouls": ["wrong_ball_first"], "score": [7, 0]},
    ),
    (
        "3.8(a)",
        "yellow on, touching the yellow: called",
        [*ON_YELLOW, safe("yellow", touching=["yellow"])],
        {"announcements": ["TOUCHING BALL"], "touching": ["yellow"], "striker": 1},
    ),
    (
        "3.8(c)(i)",
        "yellow on, touching the yellow, played away, nothing hit: no foul",
        [*ON_YELLOW, safe("yellow", touching=["yellow"]), stroke([])],
        {"foul": False, "striker": 0, "score": [48, 0]},
    ),
    (
        "3.8(c)/3.12(b)",
        "yellow on, touching the yellow, played away, the green potted: four",
        [*ON_YELLOW, safe("yellow", touching=["yellow"]), pot("green")],
        {"penalty": 4, "fouls": ["potted_ball_not_on"], "score": [52, 0], "respotted": ["green"]},
    ),
    (
        "3.8(a)",
        "yellow on, touching the blue (it cannot be on): not called",
        [*ON_YELLOW, safe("yellow", touching=["blue"])],
        {"announcements": [], "touching": []},
    ),
    # 3.7 re-spotting -----------------------------------------------------------------------------
    (
        "3.7(d)",
        "the black's spot covered by the cue ball: the black on the pink spot",
        [match(), pot("red"), pot("black", positions={"after": {"white": BLACK_SPOT}})],
        {"respotted": [{"ball": "black", "position": PINK_SPOT}], "score": [8, 0]},
    ),
    (
        "3.7(f)-(g)",
        "every spot and the line up to the top cushion taken: the black just below its spot",
        [match(), pot("red"), pot("black", positions={"after": black_spot_line_filled()})],
        {"respotted": [{"ball": "black", "position": just_below_the_black_spot()}]},
    ),
    # 3.3(g), 3.12(b): balls forced off the table ------------------------------------------------------
    (
        "3.3(g)/3.12(b)",
        "a red potted and another forced off the table: four, no score, both stay off",
        [match(), stroke(["red"], ["red"], off_table=["red"])],
        {"penalty": 4, "fouls": ["ball_off_table"], "score": [0, 4], "reds": 13},
    ),
    (
        "3.7/3.12(b)",
        "yellow on, the yellow forced off the table: four, re-spotted, still on",
        [*ON_YELLOW, stroke(["yellow"], off_table=["yellow"])],
        {"penalty": 4, "respotted": ["yellow"], "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.7/3.12(b)",
        "pink on, the black forced off the table: seven, re-spotted",
        [*ON_PINK, stroke(["pink"], off_table=["black"])],
        {"penalty": 7, "respotted": ["black"], "colours": ["pink", "black"], "score": [62, 7]},
    ),
    (
        "3.7/3.12(b)",
        "blue nominated, the blue potted and the pink forced off: six, both re-spotted",
        [*ON_BLUE, stroke(["blue"], ["blue"], off_table=["pink"])],
        {"penalty": 6, "respotted": ["pink", "blue"], "score": [1, 6]},
    ),
    # the last red ---------------------------------------------------------------------------------
    (
        "3.3(f)/3.12(b)",
        "the last red potted together with the pink: six, the red stays down, then the yellow",
        [*ONE_RED_LEFT, stroke(["red"], ["red", "pink"])],
        {
            "penalty": 6,
            "reds": 0,
            "ball_on": "yellow",
            "score": [40, 6],
            "respotted": ["pink"],
            "points_remaining": 27,
            "striker": 1,
        },
    ),
    (
        "3.3(f)/3.12(b)",
        "after the last red, the black nominated and the pink potted: seven, then the yellow",
        [*LAST_RED_DOWN, nominate("black"), stroke(["black"], ["pink"])],
        {"penalty": 7, "score": [41, 7], "ball_on": "yellow", "respotted": ["pink"], "points_remaining": 27},
    ),
    (
        "3.3(e)-(f)",
        "the last two reds potted in one stroke: two, then a colour, then the yellow",
        [match(reds=6), *clear_reds(4), stroke(["red"], ["red", "red"]), pot("black")],
        {"score": [41, 0], "reds": 0, "ball_on": "yellow", "respotted": ["black"], "points_remaining": 27},
    ),
    # 3.4 end of frame ----------------------------------------------------------------------------
    (
        "3.4(a)/3.1(f)",
        "the last black potted by the player behind: the frame goes to the player ahead",
        [*ON_BLACK, safe("black"), pot("black")],
        {"frame_over": True, "winner": 0, "score": [68, 7], "frames": [1, 0]},
    ),
    (
        "3.4(c)",
        "aggregate: frames won by different margins, the aggregate level after the last: re-spotted black",
        [*AGGREGATE_FRAME_2_ON_BLACK, pot("black")],
        {
            "score": [29, 43],
            "frame_over": False,
            "respotted_black": True,
            "in_hand": True,
            "ball_on": "black",
        },
    ),
    (
        "3.4(a)/3.4(c)",
        "aggregate: the last frame tied but the aggregate not level: drawn, the match to the leader",
        [*AGGREGATE_FRAME_2_ON_BLACK, safe("black"), pot("black")],
        {
            "score": [36, 36],
            "frame_over": True,
            "winner": None,
            "respotted_black": False,
            "match_over": True,
            "match_winner": 0,
        },
    ),
    (
        "3.1(f)",
        "the non-offender concedes while his decision is open: the frame to the offender",
        [match(best_of=3), safe("pink"), {"type": "concede"}],
        {"frame_over": True, "winner": 0, "frames": [1, 0], "score": [0, 6], "options": []},
    ),
    # 3.12(a) playing out of turn -----------------------------------------------------------------
    (
        "3.12(a)/3.3(g)",
        "a red potted out of turn: four, no score, the red stays down, the wronged player decides",
        [match(), safe("red"), stroke(["red"], ["red"], player=0)],
        {"penalty": 4, "fouls": ["out_of_turn"], "score": [0, 4], "reds": 14, "striker": 1},
    ),
]


@over_checklist(CHECKLIST)
def test_third_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)


def test_the_aggregate_set_up_is_what_the_checklist_assumes():
    """Frame 1 ends 14-0 to Ann; in frame 2 Ben (the breaker) is 36-29 up and on the black."""
    rulings = rule(AGGREGATE_FRAME_2_ON_BLACK)
    assert all("error" not in r for r in rulings)
    conceded = rulings[len(AGGREGATE_FRAME_1) - 2]
    assert conceded["frame_over"] is True and conceded["score"] == [14, 0] and conceded["winner"] == 0
    on_black = rulings[-1]
    assert on_black["frame"] == 2 and on_black["score"] == [29, 36]
    assert on_black["striker"] == 1 and on_black["ball_on"] == "black"
