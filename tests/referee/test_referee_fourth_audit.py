"""A fourth, independent audit of the referee against Section 3, for situations the first three left open.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative where the English digest is terse; Section 2's definitions as summarised in
``RULES-EN.md``), not from the referee's output; the comment line above each row gives the
working. Scores are ``[Ann, Ben]``. The set-ups are the first audit's (``ON_YELLOW``: Ann 48,
yellow on, 27 left; ``FREE_ON_RED``: Ann fouled the break-off, Ben 7 with a free ball …).
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import assert_last_ruling, clear_reds, match, over_checklist, pot, safe, stroke
from test_referee_audit import (
    CX,
    FREE_ON_RED,
    FREE_ON_YELLOW,
    LAST_RED_DOWN,
    ON_BLACK,
    ON_COLOUR,
    ON_GREEN,
    ON_PINK,
    PLAY,
    REPLACE,
    SPOTS,
    TIE,
    foul,
    miss_stroke,
    nominate,
)
from test_referee_second_audit import lot
from test_referee_third_audit import ONE_RED_LEFT

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee.geometry import DEFAULT_GEOMETRY_CONFIG

DIAMETER = STANDARD_TABLE.ball_diameter_mm
CLEARANCE = DIAMETER + DEFAULT_GEOMETRY_CONFIG.touch_tolerance_mm + DEFAULT_GEOMETRY_CONFIG.placement_gap_mm
"""How far from a ball a re-spotted colour goes when it must go as near as possible to it (3.7(h))."""

NO_LOT_YET = "nobody is to play until the lot for the re-spotted black is drawn (3.4(b)); name the player"
"""Why a line meant for the player to play is refused before the lot for a re-spotted black."""

ON_BROWN = [*ON_GREEN, pot("green")]  # Ann 53, brown on, 22 left
ON_BLUE_ASCENDING = [*ON_BROWN, pot("brown")]  # Ann 57, blue on, 18 left

# --- positions for re-spotting (3.7(d)-(h)) ---------------------------------------------------------
ALL_ON_SPOTS = {c: list(SPOTS[c]) for c in ("yellow", "green", "brown", "blue", "pink", "black")}
A_RED = {"red-1": [300.0, 3000.0]}
AWAY_FROM_SPOTS = [[200.0, 2000.0], [1500.0, 2000.0], [200.0, 1200.0]]
"""Places off every spot and away from every line a colour is spotted on."""


def layout(white: list[float], **moved: list[float]) -> dict[str, list[float]]:
    """Every colour on its spot but those ``moved``, one red out of the way, the cue ball at ``white``."""
    balls = {**ALL_ON_SPOTS, **A_RED, "white": white}
    balls.update(moved)
    return balls


def after(balls: dict[str, list[float]], potted: list[str]) -> dict[str, Any]:
    """Positions after a stroke: the potted balls are not on the table."""
    return {"after": {b: xy for b, xy in balls.items() if b not in potted}}


def spotted(ball: str, xy: list[float]) -> dict[str, Any]:
    return {"ball": ball, "position": pytest.approx(xy)}


# --- the cue ball at rest against a ball after a foul (3.8, 3.10) -------------------------------------
CUE_AT = [CX, 1000.0]
AGAINST = CUE_AT[1] + DIAMETER + 0.5
"""Half a millimetre further than touching: within the touching tolerance."""
AGAINST_A_RED_PINK_BESIDE = {
    "white": CUE_AT,
    "red-1": [CX, AGAINST],
    "pink": [CX + DIAMETER + 0.5, CUE_AT[1] + DIAMETER / 2.0],
}
"""The pink beside the pair, in the way of the path along one extreme edge of the red."""
AGAINST_THE_YELLOW_BLUE_BESIDE = {
    "white": CUE_AT,
    "yellow": [CX, AGAINST],
    "blue": [CX + DIAMETER + 0.5, CUE_AT[1] + DIAMETER / 2.0],
    **{c: list(SPOTS[c]) for c in ("green", "brown", "pink", "black")},
}
AGAINST_THE_PINK_RED_BEHIND = {"white": CUE_AT, "pink": [CX, AGAINST], "red-1": [CX, 1400.0]}


def pink_line_filled() -> dict[str, list[float]]:
    """The cue ball on the pink spot, every other colour on its spot, and reds up the centre line to
    the top cushion, never two diameters apart: no ball fits anywhere on the line above the pink spot."""
    balls = layout(list(SPOTS["pink"]))
    del balls["red-1"]
    black_y = SPOTS["black"][1]
    top = STANDARD_TABLE.length_mm - DIAMETER / 2.0
    reds_y = [SPOTS["pink"][1] + 100.0 * k for k in range(1, 6)] + [black_y + 100.0, black_y + 200.0, top]
    balls.update({f"red-{k}": [CX, y] for k, y in enumerate(reds_y, start=1)})
    return balls


# --- positions still placing a colour the log has potted for good (green on, the yellow gone) --------
LATER_COLOURS_ON_SPOTS = {c: list(SPOTS[c]) for c in ("green", "brown", "blue", "pink", "black")}
STALE_YELLOW_HIDING_THE_GREEN = {
    **LATER_COLOURS_ON_SPOTS,
    "white": [SPOTS["green"][0], 300.0],
    "yellow": [SPOTS["green"][0], 500.0],
}
"""The cue ball straight below the green spot, a stale yellow half-way: it would hide the green."""
STALE_YELLOW_ON_THE_BLACK_SPOT = {
    **LATER_COLOURS_ON_SPOTS,
    "white": [300.0, 1200.0],
    "yellow": list(SPOTS["black"]),
}


# --- free ball as a red, then a foul before a colour is nominated (3.12(d)) --------------------------
FREE_BALL_PINK_POTTED = [*FREE_ON_RED, nominate("pink"), pot("pink")]  # Ben 8, on a colour

# --- Ann 16 ahead; Ann then fails three times from the same position with a full ball open ------------
ANN_16_AHEAD_ON_RED = [match(), *clear_reds(2), safe("red"), safe("red")]

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.11(g), 3.12: several balls in one foul --------------------------------------------------------
    # On a red: the red is on (1), the black potted is the ball concerned (7) -> 7; the red stays down.
    (
        "3.12(b)/3.3(g)",
        "on a red, a red and the black potted off a red: seven, the red stays down, the black re-spotted",
        [match(), stroke(["red"], ["red", "black"])],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "score": [0, 7], "reds": 14, "respotted": ["black"]},
    ),
    # Pink nominated (6); a red potted (1) and the black forced off (7): the highest, 7.
    (
        "3.12(b)",
        "pink nominated, the pink hit, a red potted and the black forced off: seven",
        [*ON_COLOUR, nominate("pink"), stroke(["pink"], ["red"], off_table=["black"])],
        {"penalty": 7, "score": [1, 7], "reds": 13, "respotted": ["black"], "ball_on": "red", "striker": 1},
    ),
    # Green on (3); the brown hit first (4): 4. The green, potted in a foul, goes back (3.7).
    (
        "3.12(b)/3.7",
        "green on, the brown hit first and the green potted: four, the green re-spotted, still on",
        [*ON_GREEN, stroke(["brown"], ["green"])],
        {
            "penalty": 4,
            "fouls": ["wrong_ball_first"],
            "score": [50, 4],
            "respotted": ["green"],
            "ball_on": "green",
        },
    ),
    # Brown on (4); the brown potted and the blue forced off (5): 5, both back, the brown still on.
    (
        "3.12(b)/3.7",
        "brown on, the brown potted and the blue forced off: five, both re-spotted",
        [*ON_BROWN, stroke(["brown"], ["brown"], off_table=["blue"])],
        {"penalty": 5, "score": [53, 5], "respotted": ["blue", "brown"], "ball_on": "brown"},
    ),
    # 3.12(a) a jump shot is the value of the ball on; black nominated: 7.
    (
        "3.12(a)",
        "black nominated after a red, a jump shot: seven",
        [*ON_COLOUR, nominate("black"), safe("black", fouls=["jump_shot"])],
        {"penalty": 7, "fouls": ["jump_shot"], "score": [1, 7]},
    ),
    # Ben strikes out of turn on the pink (6) and pots it: 6 to Ann, nothing scores, the pink back.
    (
        "3.12(a)/3.11(e)",
        "pink on, Ben strikes out of turn and pots the pink: six, no score, the pink re-spotted",
        [*ON_PINK, stroke(["pink"], ["pink"], player=1)],
        {
            "penalty": 6,
            "score": [68, 0],
            "respotted": ["pink"],
            "offender": 1,
            "striker": 0,
            "ball_on": "pink",
        },
    ),
    # Blue on (5): the blue and the pink hit at once: the ball on or the higher of the two, 6.
    (
        "3.6/3.12(c)",
        "blue on, the blue and the pink hit at once: six",
        [*ON_BLUE_ASCENDING, stroke(["blue", "pink"])],
        {"penalty": 6, "fouls": ["two_balls_at_once"], "score": [57, 6]},
    ),
    # On a red: a red potted, the cue ball potted and the yellow forced off: all worth 4.
    (
        "3.12(a)/(b)",
        "on a red, a red potted, an in-off and the yellow forced off: four",
        [match(), stroke(["red"], ["red"], cue_ball="potted", off_table=["yellow"])],
        {"penalty": 4, "score": [0, 4], "reds": 14, "respotted": ["yellow"], "in_hand": True},
    ),
    # On a red: a red potted and the cue ball forced off the table: 4, the red stays down, in hand.
    (
        "3.12(b)/3.3(h)",
        "on a red, a red potted and the cue ball forced off the table: four, in hand",
        [match(), stroke(["red"], ["red"], cue_ball="off_table")],
        {"penalty": 4, "fouls": ["cue_ball_off_table"], "score": [0, 4], "reds": 14, "in_hand": True},
    ),
    # Both feet off the floor (3.12(a), the ball on): on a red, 4 — the red potted does not score.
    (
        "3.12(a)/3.11(e)",
        "on a red, no foot on the floor, a red potted: four, no score",
        [match(), pot("red", fouls=["no_foot_on_floor"])],
        {"penalty": 4, "score": [0, 4], "reds": 14, "break": 0, "striker": 1},
    ),
    # Blue on (5): struck while the pink (6) was still moving: the higher, 6.
    (
        "3.12(b)",
        "blue on, struck while the pink was still moving: six",
        [*ON_BLUE_ASCENDING, safe("blue", fouls=[{"reason": "balls_moving", "ball": "pink"}])],
        {"penalty": 6, "fouls": ["balls_moving"], "score": [57, 6]},
    ),
    # After a red, no colour named, the pink and the black hit at once: 7 (3.12(c) and 3.12(d)).
    (
        "3.6/3.12(c)-(d)",
        "after a red, no colour named, the pink and the black hit at once: seven",
        [*ON_COLOUR, stroke(["pink", "black"])],
        {"penalty": 7, "score": [1, 7], "ball_on": "red"},
    ),
    # Yellow nominated (2): the yellow and a red hit at once (1): at least 4.
    (
        "3.6/3.12(c)",
        "yellow nominated, the yellow and a red hit at once: four",
        [*ON_COLOUR, nominate("yellow"), stroke(["yellow", "red"])],
        {"penalty": 4, "fouls": ["two_balls_at_once"], "score": [1, 4]},
    ),
    # 3.10 free ball -------------------------------------------------------------------------------
    # Free ball pink as a red, the pink and two reds potted: every ball scores (3.10(e)), 3.
    (
        "3.10(e)",
        "reds on, free ball pink, the pink and two reds potted: three, the pink re-spotted",
        [*FREE_ON_RED, nominate("pink"), stroke(["pink"], ["pink", "red", "red"])],
        {"score": [0, 10], "break": 3, "reds": 13, "respotted": ["pink"], "ball_on": "colour", "foul": False},
    ),
    # No free ball declared, the pink hit first: the obvious nomination (Section 2); it scores as a red.
    (
        "3.10(a)/2",
        "reds on, free ball, the pink hit first and potted with nothing declared: one, re-spotted",
        [*FREE_ON_RED, pot("pink")],
        {"score": [0, 8], "break": 1, "respotted": ["pink"], "ball_on": "colour", "foul": False},
    ),
    # Free ball pink nominated, a red hit first: 3.10(b)(i) foul, the ball on's value (1) -> 4.
    (
        "3.10(b)(i)",
        "reds on, free ball pink nominated, a red hit first: four",
        [*FREE_ON_RED, nominate("pink"), safe("red")],
        {"foul": True, "penalty": 4, "fouls": ["wrong_ball_first"], "score": [4, 7]},
    ),
    # Free ball blue (valued as a red) and the pink (6) hit at once: 3.12(c), the higher, 6.
    (
        "3.10(b)(i)/3.12(c)",
        "reds on, free ball blue nominated, the blue and the pink hit at once: six",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue", "pink"])],
        {"penalty": 6, "fouls": ["two_balls_at_once"], "score": [6, 7]},
    ),
    # Free ball blue and a red potted, the black too: potting a ball not on (7).
    (
        "3.10/3.12(b)",
        "reds on, free ball blue, the blue, a red and the black potted: seven, nothing scores",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["blue", "red", "black"])],
        {"penalty": 7, "score": [7, 7], "reds": 14, "respotted": ["black", "blue"]},
    ),
    # Ascending: free ball green and the yellow hit together, both potted: only the yellow (2),
    # the green re-spotted, the yellow stays down (3.10(e)); Ben 4 + 2, on the green.
    (
        "3.6/3.10(e)",
        "yellow on, free ball green hit with the yellow, both potted: two, the green back, green on",
        [*FREE_ON_YELLOW, nominate("green"), stroke(["green", "yellow"], ["green", "yellow"])],
        {
            "score": [48, 6],
            "break": 2,
            "respotted": ["green"],
            "ball_on": "green",
            "colours": ["green", "brown", "blue", "pink", "black"],
        },
    ),
    # A free ball potted as a red counts as a red (3.12(d)): a foul before nominating a colour is 7.
    (
        "3.12(d)/3.10",
        "after the free ball is potted as a red, a foul before a colour is nominated: seven",
        [*FREE_BALL_PINK_POTTED, stroke([])],
        {"penalty": 7, "score": [7, 8], "striker": 0, "ball_on": "red"},
    ),
    # The foul leaves the cue ball against a red with the pink beside it, cutting an extreme-edge path:
    # playing away from a touching ball on counts as hitting it (3.8(c)(i)), so nothing not on can
    # stop a hit on a ball on: not snookered, no free ball; TOUCHING BALL is called (3.8(a)).
    (
        "2/3.8(c)(i)/3.10",
        "after a foul the cue ball rests against a red, the pink beside it: no free ball, touching ball",
        [match(), safe("black", positions={"after": AGAINST_A_RED_PINK_BESIDE})],
        {"free_ball": False, "touching": ["red-1"], "announcements": ["FOUL", "SEVEN AWAY", "TOUCHING BALL"]},
    ),
    # Against the pink (not on) with the only red straight behind it: snookered, a free ball; the
    # pink can then be on (as the free ball), so it is named (3.8(a)).
    (
        "2/3.10/3.8(a)",
        "after a foul the cue ball rests against the pink, the red behind it: free ball, the pink named",
        [match(), safe("black", positions={"after": AGAINST_THE_PINK_RED_BEHIND})],
        {
            "free_ball": True,
            "touching": ["pink"],
            "announcements": ["FOUL", "SEVEN AWAY", "FREE BALL", "TOUCHING BALL"],
        },
    ),
    # Yellow on, free ball blue: Ben leaves the cue ball against the yellow with the blue beside it.
    # Against a ball on he is not snookered (3.8(c)(i)), so the free ball snookers nobody (3.10(b)(ii)):
    # no foul, Ann to play, the yellow named.
    (
        "3.10(b)(ii)/3.8(c)(i)",
        "free ball blue leaves the cue ball against the yellow, the blue beside: no free-ball snooker",
        [
            *FREE_ON_YELLOW,
            nominate("blue"),
            safe("blue", positions={"after": AGAINST_THE_YELLOW_BLUE_BESIDE}),
        ],
        {"foul": False, "score": [48, 4], "striker": 0, "free_ball": False, "touching": ["yellow"]},
    ),
    # One red left, free ball pink (Ben 7): the last red potted off the pink scores 1 and stays down
    # (3.10(d)); Ben is then on any colour: 7 + 27 = 34 left (Section 2).
    (
        "3.10(d)/3.3(f)",
        "one red left, the last red potted off the free ball: one, then any colour, 34 left",
        [*ONE_RED_LEFT, safe("black", free_ball=True), nominate("pink"), stroke(["pink"], ["red"])],
        {"score": [40, 8], "reds": 0, "ball_on": "colour", "points_remaining": 34, "respotted": []},
    ),
    # Then the black: 7, re-spotted; the colours in order from the yellow, 27 left; break 8.
    (
        "3.3(f)",
        "then the black after that last red: seven, re-spotted, the yellow on",
        [
            *ONE_RED_LEFT,
            safe("black", free_ball=True),
            nominate("pink"),
            stroke(["pink"], ["red"]),
            pot("black"),
        ],
        {"score": [40, 15], "break": 8, "ball_on": "yellow", "points_remaining": 27, "respotted": ["black"]},
    ),
    # Yellow on with a free ball: 27 + 2 = 29 left; Ben 44 behind needs (44 - 29) / 4 -> 4 snookers.
    (
        "2/3.10",
        "yellow on with a free ball: 29 left, four snookers needed",
        FREE_ON_YELLOW,
        {"points_remaining": 29, "snookers_required": [0, 4]},
    ),
    # Green on: a yellow the tracked positions still show between the cue ball and the green is not
    # on the table (potted for good, 3.3(f)), so it snookers nothing: no free ball (Section 2).
    (
        "2/3.10",
        "a potted-for-good yellow still in the positions, between the cue ball and the green: no free ball",
        [*ON_GREEN, safe("brown", positions={"after": STALE_YELLOW_HIDING_THE_GREEN})],
        {"penalty": 4, "free_ball": False, "announcements": ["FOUL", "FOUR AWAY"]},
    ),
    # 3.7 re-spotting with the positions known ------------------------------------------------------
    # The yellow spot covered by the cue ball, the black off its spot: the yellow goes on the
    # highest free spot, the black's (3.7(d)); the green on its own.
    (
        "3.7(d)",
        "the yellow's spot covered, the black's spot free: the yellow on the black spot",
        [
            match(),
            stroke(
                ["red"],
                ["yellow", "green"],
                positions=after(layout(list(SPOTS["yellow"]), black=AWAY_FROM_SPOTS[0]), ["yellow", "green"]),
            ),
        ],
        {
            "penalty": 4,
            "respotted": [spotted("green", list(SPOTS["green"])), spotted("yellow", list(SPOTS["black"]))],
        },
    ),
    # Pink and black potted; the cue ball on the pink spot, the blue away: the black goes on its own
    # spot, the pink on the highest spot still free, the blue's (3.7(d)).
    (
        "3.7(d)",
        "the pink's spot covered: the black on its spot, the pink on the blue spot",
        [
            match(),
            stroke(
                ["red"],
                ["pink", "black"],
                positions=after(layout(list(SPOTS["pink"]), blue=AWAY_FROM_SPOTS[0]), ["pink", "black"]),
            ),
        ],
        {
            "penalty": 7,
            "respotted": [spotted("black", list(SPOTS["black"])), spotted("pink", list(SPOTS["blue"]))],
        },
    ),
    # Both own spots covered (cue ball on the black spot, a red on the pink spot), the blue and the
    # brown away: the black first (3.7(e)) on the highest free spot, the blue's; the pink on the brown's.
    (
        "3.7(e)",
        "pink and black both displaced: the black takes the blue spot, the pink the brown spot",
        [
            match(),
            stroke(
                ["red"],
                ["pink", "black"],
                positions=after(
                    layout(
                        list(SPOTS["black"]),
                        blue=AWAY_FROM_SPOTS[0],
                        brown=AWAY_FROM_SPOTS[1],
                        **{"red-2": list(SPOTS["pink"])},
                    ),
                    ["pink", "black"],
                ),
            ),
        ],
        {
            "penalty": 7,
            "respotted": [spotted("black", list(SPOTS["blue"])), spotted("pink", list(SPOTS["brown"]))],
        },
    ),
    # Every spot taken, the cue ball on the yellow spot: the yellow as near as possible to its spot
    # between it and the top cushion (3.7(f)), i.e. straight up, clear of the cue ball (3.7(h)).
    (
        "3.7(f)/(h)",
        "every spot taken and the cue ball on the yellow spot: the yellow just above its spot",
        [
            match(),
            stroke(
                ["red"],
                ["yellow"],
                positions=after(layout(list(SPOTS["yellow"])), ["yellow"]),
            ),
        ],
        {
            "penalty": 4,
            "respotted": [spotted("yellow", [SPOTS["yellow"][0], SPOTS["yellow"][1] + CLEARANCE])],
        },
    ),
    # Every spot taken, the cue ball on the pink spot: the pink straight up from its spot, clear of the
    # cue ball (3.7(f), (h)).
    (
        "3.7(f)/(h)",
        "every spot taken and the cue ball on the pink spot: the pink just above its spot",
        [match(), stroke(["red"], ["pink"], positions=after(layout(list(SPOTS["pink"])), ["pink"]))],
        {"penalty": 6, "respotted": [spotted("pink", [CX, SPOTS["pink"][1] + CLEARANCE])]},
    ),
    # ... and with the line from the pink spot up to the top cushion filled as well: on the centre
    # line, as near as possible below the pink spot (3.7(g)).
    (
        "3.7(g)",
        "every spot and the line above the pink spot taken: the pink just below its spot",
        [match(), stroke(["red"], ["pink"], positions=after(pink_line_filled(), ["pink"]))],
        {"penalty": 6, "respotted": [spotted("pink", [CX, SPOTS["pink"][1] - CLEARANCE])]},
    ),
    # Green on (the yellow potted for good); the tracked positions still place a yellow on the black
    # spot. A ball off the table occupies no spot: the black potted in a foul goes on its own (3.7).
    (
        "3.7/3.3(f)",
        "a potted-for-good yellow still in the positions, on the black spot: the black on its own spot",
        [
            *ON_GREEN,
            stroke(["green"], ["black"], positions=after(STALE_YELLOW_ON_THE_BLACK_SPOT, ["black"])),
        ],
        {"penalty": 7, "respotted": [spotted("black", list(SPOTS["black"]))]},
    ),
    # 3.4 end of frame ----------------------------------------------------------------------------
    # Only the black left: forcing it off the table is a foul (7) and ends the frame; Ann 68 wins.
    (
        "3.4(a)/3.12(b)",
        "black on, the black forced off the table: seven, the frame over",
        [*ON_BLACK, stroke(["black"], off_table=["black"])],
        {"penalty": 7, "score": [68, 7], "frame_over": True, "winner": 0, "respotted": []},
    ),
    # Only the black left: never a miss (3.14), even with a clear path; the foul ends the frame.
    (
        "3.4(a)/3.14",
        "black on, nothing hit with a clear path: seven, no miss, the frame over",
        [*ON_BLACK, miss_stroke()],
        {"penalty": 7, "miss": False, "score": [68, 7], "frame_over": True, "winner": 0},
    ),
    # Re-spotted black: Ann (lot) pots the black but goes in-off: a foul (7) ends it, Ben wins 43-36.
    (
        "3.4(b)/3.12(a)",
        "re-spotted black potted with an in-off: seven to the other player, who wins",
        [*TIE, lot(0), stroke(["black"], ["black"], cue_ball="potted")],
        {"penalty": 7, "score": [36, 43], "frame_over": True, "winner": 1, "frames": [0, 1]},
    ),
    # No lot logged: nobody is to play before the lot (3.4(b)), so Ann striking first on the re-spotted
    # black shows the lot fell to her: not out of turn; her pot ends the frame, Ann 43-36.
    (
        "3.4(b)",
        "no lot logged, Ann strikes first on the re-spotted black and pots it: no foul, Ann wins",
        [*TIE, stroke(["black"], ["black"], player=0)],
        {"foul": False, "score": [43, 36], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(b)",
        "no lot logged, Ann strikes first on the re-spotted black and plays safe: Ben to play",
        [*TIE, stroke(["black"], player=0)],
        {"foul": False, "score": [36, 36], "striker": 1, "frame_over": False},
    ),
    # Four-handed, no lot logged: Dan (3) strikes first on the re-spotted black, chosen by his side
    # (3.17(d)): no foul; the frame's order then continues after him, Ann (0) to play.
    (
        "3.4(b)/3.17(d)",
        "four-handed, no lot logged, Dan strikes first on the re-spotted black: no foul, Ann next",
        [match(players=4, reds=6), *TIE[1:], stroke(["black"], player=3)],
        {"foul": False, "score": [36, 36], "striker": 0},
    ),
    # Before the lot nobody is to play: a concession or a foul not naming its player cannot be
    # given to anyone (3.4(b)); the referee says so rather than guess.
    (
        "3.4(b)/3.1(f)",
        "a concession naming nobody before the lot for a re-spotted black: refused",
        [*TIE, {"type": "concede"}],
        {"error": f"concede: {NO_LOT_YET}"},
    ),
    (
        "3.4(b)/3.11",
        "a foul naming nobody before the lot for a re-spotted black: refused",
        [*TIE, foul("touched_ball", "black")],
        {"error": f"foul: {NO_LOT_YET}"},
    ),
    # A foul by a named player before the lot: penalised as if striker; with only the black left it
    # ends the frame (3.4(a)-(b)): Ann touches the black, Ben wins 43-36.
    (
        "3.4(b)/3.11",
        "Ann touches the black before the lot: seven, Ben wins",
        [*TIE, foul("touched_ball", "black", player=0)],
        {"penalty": 7, "score": [36, 43], "frame_over": True, "winner": 1},
    ),
    # Section 2 points remaining: with the colour after the last red on, 7 + 27 = 34.
    (
        "2",
        "the colour after the last red: 34 points remaining",
        LAST_RED_DOWN,
        {"points_remaining": 34, "reds": 0, "ball_on": "colour", "score": [41, 0]},
    ),
    # Pink on, Ann 62: 13 left; Ben 62 behind needs (62 - 13) / 6 -> 9 snookers (a snooker on the
    # pink earns 6).
    (
        "2",
        "pink on, 62 behind: 13 left, nine snookers needed",
        ON_PINK,
        {"points_remaining": 13, "snookers_required": [0, 9]},
    ),
    # Black on, Ann 68: 7 left; Ben needs (68 - 7) / 7 -> 9 snookers.
    (
        "2",
        "black on, 68 behind: 7 left, nine snookers needed",
        ON_BLACK,
        {"points_remaining": 7, "snookers_required": [0, 9]},
    ),
    # 3.14 miss --------------------------------------------------------------------------------
    # Ann 16 ahead fails three times with a full ball open: the frame is awarded to Ben (3.14(c)),
    # though he is behind on points (3.1(f)(iii)).
    (
        "3.14(c)/3.1(f)",
        "the third miss awards the frame to the non-offender even when he is behind",
        [
            *ANN_16_AHEAD_ON_RED,
            miss_stroke(full_ball=True),
            REPLACE,
            miss_stroke(full_ball=True),
            REPLACE,
            miss_stroke(full_ball=True),
        ],
        {"score": [16, 12], "frame_over": True, "winner": 1, "frames": [0, 1], "miss": True},
    ),
    # With a free ball, every ball could be on (3.14(b)): a nominated free ball not hit, nothing hit,
    # with a clear line: foul and a miss (nobody needs snookers).
    (
        "3.14(b)/3.10",
        "free ball pink nominated, nothing hit with a clear line: foul and a miss, four",
        [*FREE_ON_RED, nominate("pink"), miss_stroke()],
        {"penalty": 4, "miss": True, "score": [4, 7], "options": ["play", "play_again", "replace"]},
    ),
    # After the miss is replaced, Ben plays again with the free ball (3.14(a)).
    (
        "3.14(a)/3.10",
        "that miss replaced: Ben plays again with the free ball",
        [*FREE_ON_RED, nominate("pink"), miss_stroke(), REPLACE],
        {"striker": 1, "free_ball": True, "ball_on": "red", "score": [4, 7]},
    ),
    # Pink on, Ann 62 up: Ben needs snookers before the stroke, so Ann's miss is no miss (3.14(b)).
    (
        "3.14(b)",
        "pink on, the opponent needs snookers: the striker's failure with a clear line is no miss",
        [*ON_PINK, miss_stroke()],
        {"penalty": 6, "miss": False, "score": [62, 6], "options": ["play", "play_again"]},
    ),
    # 3.8 touching ball ----------------------------------------------------------------------------
    # After a red the cue ball rests on the black: it can be on, so TOUCHING BALL (3.8(a)).
    (
        "3.8(a)",
        "after a red, the cue ball rests against the black: touching ball called",
        [match(), pot("red", touching=["black"])],
        {"touching": ["black"], "ball_on": "colour", "striker": 0},
    ),
    # The black named and nominated, played away, nothing hit: no foul (3.8(c)(ii)); turn over.
    (
        "3.8(c)(ii)",
        "touching the black, nominated, played away, nothing hit: no foul",
        [match(), pot("red", touching=["black"]), nominate("black"), stroke([])],
        {"foul": False, "score": [1, 0], "striker": 1, "ball_on": "red"},
    ),
    # The blue nominated while touching the yellow: the yellow moved is a push (3.8(b)); the ball on 5.
    (
        "3.8(b)/3.12(b)",
        "touching the yellow, the blue nominated, a push moves the yellow: five",
        [
            match(),
            pot("red", touching=["yellow"]),
            nominate("blue"),
            safe("blue", fouls=[{"reason": "push_stroke", "ball": "yellow"}]),
        ],
        {"penalty": 5, "fouls": ["push_stroke"], "score": [1, 5]},
    ),
    # A foul outside a stroke ----------------------------------------------------------------------
    # Green on (3): the striker touches the pink with his sleeve: the ball concerned, 6.
    (
        "3.11(a)/3.12(b)",
        "green on, the pink touched outside a stroke: six, the turn ends",
        [*ON_GREEN, foul("touched_ball", "pink")],
        {"penalty": 6, "score": [50, 6], "striker": 1, "ball_on": "green"},
    ),
    # What the log cannot say ------------------------------------------------------------------------
    # There is one pink: it cannot be hit "twice at once"; the referee says so rather than call 3.6.
    (
        "3.6/log",
        "the pink listed twice as hit first: refused, not ruled as two balls at once",
        [match(), stroke(["pink", "pink"])],
        {"error": "first_contact: the pink is listed twice (there is one such ball)"},
    ),
    # A red named by its id is one ball: potting it twice cannot score two (3.3(e)).
    (
        "3.3(e)/log",
        "the same red (by its id) listed twice as potted: refused, not two points",
        [match(), stroke(["red-1"], ["red-1", "red-1"])],
        {"error": "potted and off_table: the red-1 is listed twice (there is one such ball)"},
    ),
    # Plain "red" names any red: two reds potted in one stroke both score (3.3(e)).
    (
        "3.3(e)",
        "two reds potted, each named plainly: two",
        [match(), stroke(["red", "red"], ["red", "red"])],
        {"foul": False, "score": [2, 0], "reds": 13},
    ),
    # Ann on a break of 8; Ben touches the pink: penalised as if striker (6), the order of play and
    # Ann's break unchanged (3.2(b), 3.14(h)).
    (
        "3.2(b)/3.14(h)",
        "during Ann's break Ben touches the pink: six to Ann, Ann still to play, her break stands",
        [match(), pot("red"), pot("black"), foul("touched_ball", "pink", player=1)],
        {"penalty": 6, "score": [14, 0], "striker": 0, "break": 8, "ball_on": "red"},
    ),
    # Ann touches a red while placing the cue ball in hand: 4, Ben plays, still from in hand (3.11(f)).
    (
        "3.11(a)/(f)",
        "a red touched while the cue ball is in hand: four, the next player in hand",
        [match(), foul("touched_ball", "red")],
        {"penalty": 4, "score": [0, 4], "striker": 1, "in_hand": True},
    ),
    # Blue on (Ann 57): a double hit, the ball on's value 5; Ben 52 behind with 18 left needs
    # (52 - 18) / 5 -> 7 snookers.
    (
        "3.12(a)/2",
        "blue on, a double hit: five; seven snookers needed",
        [*ON_BLUE_ASCENDING, safe("blue", fouls=["double_hit"])],
        {"penalty": 5, "score": [57, 5], "points_remaining": 18, "snookers_required": [0, 7]},
    ),
    # After a red, blue nominated, nothing hit (5): the turn ends, Ben on a red, 14 x 8 + 27 = 139 left.
    (
        "2/3.12(a)",
        "blue nominated after a red, nothing hit: five, 139 left for Ben on a red",
        [*ON_COLOUR, nominate("blue"), stroke([])],
        {"penalty": 5, "score": [1, 5], "points_remaining": 139, "ball_on": "red", "striker": 1},
    ),
    # Decisions ------------------------------------------------------------------------------------
    # After a foul, 'play': the next player plays from where the cue ball lies (not in hand).
    (
        "3.11(f)/3.11(h)",
        "after a foul leaving the cue ball on the table, play: not in hand",
        [match(), safe("pink"), PLAY],
        {"in_hand": False, "striker": 1, "score": [0, 6], "options": []},
    ),
]


@over_checklist(CHECKLIST)
def test_fourth_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)
