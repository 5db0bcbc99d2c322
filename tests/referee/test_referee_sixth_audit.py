"""A sixth, independent audit of the referee against Section 3, for situations the first five left open.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative; Section 2's definitions as summarised in ``RULES-EN.md``), not from the referee's
output; the comment above each row gives the working. Scores are ``[Ann, Ben]``. The set-ups are
the earlier audits' (``ON_YELLOW``: Ann 48, yellow on, 27 left; ``ON_BLACK``: Ann 68, only the black;
``FREE_ON_RED``: Ann fouled the break-off, Ben 7 with a free ball; ``TIE``: 36-36, re-spotted black).

Readings chosen where the texts leave room (kept, not "fixed"):

- 3.9(b): the classic case, a ball on that falls from the lip before the cue ball reaches it, leaves
  the cue ball hitting nothing. The fall is no fault of the striker's, so that is no "missed all
  balls" foul (3.9(b)(i): replaced, the striker plays again); his other fouls stand (an in-off:
  3.9(b)(ii)). Only a fallen ball that is on excuses the missing contact: with a ball not on fallen
  the cue ball was not heading for a ball on. After a red with no colour declared, the one colour
  that fell is the obvious nomination. A cue ball that, after the fall, runs on into a ball not on is
  still ruled on that contact (the texts do not excuse it).
- 3.14: ``miss: true`` on a stroke that broke no rule, or whose first contact is a ball on, is a
  contradiction (a foul and a miss is a foul, and a failure to hit a ball on first): refused, like
  the other contradictory lines, rather than silently ignored.
- 3.10(b)(ii): a free-ball snooker is judged on the balls on for the next player: every red while
  reds remain, else the lowest colour (blue on: the blue); the exception is only pink and black left.
- ``free_ball: true`` (alias ``snookered``) on a stroke that broke no rule is not refused: the alias
  can say that the opponent is left snookered, which is no free ball; it changes nothing.
- Section 2 "needs snookers": behind by exactly the points remaining is not behind by more; no
  snooker is required (a tie is still possible, then a re-spotted black).
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import assert_last_ruling, lot, match, over_checklist, pot, rule, safe, stroke
from test_referee_audit import (
    BLUE_SPOT,
    CX,
    FREE_ON_PINK,
    FREE_ON_RED,
    FREE_ON_YELLOW,
    ON_BLACK,
    ON_BLUE,
    ON_COLOUR,
    ON_GREEN,
    ON_YELLOW,
    PLAY,
    PLAY_AGAIN,
    REPLACE,
    SPOTS,
    TIE,
    foul,
    nominate,
)
from test_referee_fourth_audit import ON_BLUE_ASCENDING
from test_referee_third_audit import LEVEL_WITH_WHAT_IS_LEFT

from snooker.calibration.table import STANDARD_TABLE

DIAMETER = STANDARD_TABLE.ball_diameter_mm
FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""


# --- set-ups with positions ---------------------------------------------------------------------
# Ann goes in-off a red on the break-off (Ben 4); a red in plain view of the whole D, the black on its
# spot. Ben takes the table in hand.
BEN_IN_HAND_RED_IN_VIEW = [
    match(),
    stroke(
        ["red"],
        cue_ball="potted",
        positions={"after": {"red-1": [300.0, 2700.0], "black": list(SPOTS["black"])}},
    ),
    PLAY,
]
# The cue ball below the blue spot, the only tracked red straight behind the blue.
RED_BEHIND_BLUE = {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [CX, 2700.0]}
# The same with a second red off to the side, in plain view.
A_RED_IN_VIEW_TOO = {**RED_BEHIND_BLUE, "red-2": [300.0, 2700.0]}
# Blue on (blue, pink, black left): the pink between the cue ball and the blue.
PINK_HIDES_THE_BLUE = {
    "white": [CX, 1000.0],
    "pink": [CX, 1500.0],
    "blue": [CX, 2500.0],
    "black": list(SPOTS["black"]),
}
PINK_BESIDE_THE_BLUE = {**PINK_HIDES_THE_BLUE, "blue": [300.0, 2500.0]}
# Only pink and black: the black between the cue ball and the pink.
BLACK_HIDES_THE_PINK = {"white": [CX, 1000.0], "black": [CX, 1500.0], "pink": [CX, 2500.0]}
# The yellow potted: the cue ball on the yellow spot, a red on the black spot, the pink off its spot,
# the other colours on theirs.
YELLOW_AND_BLACK_SPOTS_TAKEN = {
    "white": list(SPOTS["yellow"]),
    "red-1": list(SPOTS["black"]),
    "green": list(SPOTS["green"]),
    "brown": list(SPOTS["brown"]),
    "blue": list(SPOTS["blue"]),
    "pink": [300.0, 2000.0],
}
# The same with the red just over a ball's diameter above the black spot: the spot is free.
RED_CLEAR_OF_THE_BLACK_SPOT = {
    **YELLOW_AND_BLACK_SPOTS_TAKEN,
    "red-1": [SPOTS["black"][0], SPOTS["black"][1] + DIAMETER + 5.0],
}
FREE_ON_BLUE = [*ON_BLUE_ASCENDING, stroke([], free_ball=True)]  # Ann 57 misses the blue: Ben 5, free ball

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.9(b): the ball aimed at falls from the edge before the cue ball reaches it ---------------------
    # On a red, Ann plays at a red on the lip; it drops before the cue ball arrives and the cue ball
    # touches nothing. No foul of hers (3.9(b)(i)): every ball back, Ann plays again, no score.
    (
        "3.9(b)(i)",
        "on a red, the red aimed at falls before the cue ball reaches it, nothing hit: no foul, Ann again",
        [match(), stroke([], ["red"], fell_from_edge=["red"])],
        {"foul": False, "penalty": 0, "score": [0, 0], "striker": 0, "reds": 15, "ball_on": "red"},
    ),
    # The same, but the cue ball runs on into the pocket: an in-off is her foul, 3.12(a) the value of
    # the ball on (a red: 4); the missing contact is not. Balls replaced; Ben has the options.
    (
        "3.9(b)(ii)/3.12(a)",
        "on a red, the red falls before contact and the cue ball goes in-off: four, in-off only",
        [match(), stroke([], ["red"], cue_ball="potted", fell_from_edge=["red"])],
        {
            "foul": True,
            "penalty": 4,
            "fouls": ["cue_ball_potted"],
            "score": [0, 4],
            "striker": 1,
            "reds": 15,
            "options": ["play", "play_again"],
        },
    ),
    # Only the black (Ann 68-0): it drops before the cue ball arrives. No score and no foul, so the
    # frame does not end (3.4(a) needs a score or a foul): the black back, Ann again.
    (
        "3.9(b)(i)/3.4(a)",
        "only the black, it falls before the cue ball reaches it: no foul, the frame goes on",
        [*ON_BLACK, stroke([], ["black"], fell_from_edge=["black"])],
        {"foul": False, "score": [68, 0], "striker": 0, "frame_over": False, "colours": ["black"]},
    ),
    # With an in-off: a foul on the last black (7, the value of the ball on) ends the frame, 68-7.
    (
        "3.9(b)(ii)/3.4(a)",
        "only the black, it falls and the cue ball goes in-off: seven, the frame is over",
        [*ON_BLACK, stroke([], ["black"], cue_ball="potted", fell_from_edge=["black"])],
        {"foul": True, "penalty": 7, "score": [68, 7], "frame_over": True, "winner": 0},
    ),
    # After a red (Ann 1) nothing is declared; the blue on the lip, obviously the colour played at,
    # drops before contact. No foul, so no seven for a foul before nominating: Ann again on a colour.
    (
        "3.9(b)(i)/3.12(d)",
        "after a red, the undeclared blue falls before contact: no foul, still on a colour",
        [*ON_COLOUR, stroke([], ["blue"], fell_from_edge=["blue"])],
        {"foul": False, "score": [1, 0], "striker": 0, "ball_on": "colour", "reds": 14},
    ),
    # Yellow on (Ann 48): the yellow drops before the cue ball reaches it: no foul, the yellow back on
    # its place (it was not potted by the striker, so it does not stay down), Ann again on it.
    (
        "3.9(b)(i)/3.3(f)",
        "yellow on, the yellow falls before the cue ball reaches it: no foul, Ann again on the yellow",
        [*ON_YELLOW, stroke([], ["yellow"], fell_from_edge=["yellow"])],
        {
            "foul": False,
            "score": [48, 0],
            "striker": 0,
            "ball_on": "yellow",
            "colours": ["yellow", "green", "brown", "blue", "pink", "black"],
        },
    ),
    # Ben (free ball) nominates the pink; it drops before the cue ball arrives: no foul, Ben plays
    # again and his free ball stands (the balls are as they were).
    (
        "3.9(b)(i)/3.10",
        "the nominated free ball falls before the cue ball reaches it: no foul, the free ball stands",
        [*FREE_ON_RED, nominate("pink"), stroke([], ["pink"], fell_from_edge=["pink"])],
        {"foul": False, "striker": 1, "free_ball": True, "score": [0, 7]},
    ),
    # On a red the pink (not on) drops and the cue ball hits nothing: the fall did not keep it from a
    # ball on, so missing every ball is a foul (3.12(a), the red's value: 4); balls replaced.
    (
        "3.9(b)(ii)/3.12(a)",
        "on a red, the pink falls and the cue ball hits nothing: four",
        [match(), stroke([], ["pink"], fell_from_edge=["pink"])],
        {"foul": True, "penalty": 4, "fouls": ["missed_all_balls"], "score": [0, 4]},
    ),
    # Contradictions about the fall and the miss call: refused, the state kept.
    (
        "log/3.9(b)",
        "the pink listed twice as fallen from the edge: refused",
        [match(), stroke(["red"], ["pink"], fell_from_edge=["pink", "pink"])],
        {"error": "fell_from_edge: the pink is listed twice (there is one such ball)"},
    ),
    (
        "log/3.9(b)",
        "the pink fallen from the edge and forced off the table: refused",
        [match(), stroke(["red"], [], off_table=["pink"], fell_from_edge=["pink"])],
        {"error": "fell_from_edge: the pink fell into a pocket (3.9(b)), so it cannot also be off the table"},
    ),
    (
        "log/3.14",
        "a miss called on a clean pot: refused",
        [match(), pot("red", miss=True)],
        {"error": "miss: the stroke broke no rule, and a foul and a miss is a foul (3.14)"},
    ),
    (
        "log/3.14",
        "a miss called when the red (on) was hit first and the cue ball went in-off: refused",
        [match(), stroke(["red"], cue_ball="potted", miss=True)],
        {
            "error": "miss: the cue ball first hit the red (or played away from it, touching), a ball on;"
            " a foul and a miss is a failure to hit a ball on first (3.14)"
        },
    ),
    # 3.14: foul and a miss --------------------------------------------------------------------------
    # Full-ball misses: 1st (Ben 4), replaced; 2nd (8), replaced with the warning; a foul while
    # preparing (12, 3.14(d): no miss, the warning stays in force), replaced; the 3rd miss from the
    # same position awards the frame to Ben (3.14(c)), 0-16.
    (
        "3.14(c)-(d)",
        "a foul while preparing between the second and third misses: the third still awards the frame",
        [
            match(),
            stroke([], **FULL),
            REPLACE,
            stroke([], **FULL),
            REPLACE,
            foul("touched_ball", "red"),
            REPLACE,
            stroke([], **FULL),
        ],
        {"frame_over": True, "winner": 1, "score": [0, 16], "miss": True},
    ),
    # Ben in hand with a red in view of the whole D hits nothing: a straight line to part of a ball on
    # was open from the D (3.14(b)), nobody needs snookers: foul and a miss, 4 to Ann (4-4).
    (
        "3.14(b)/3.5",
        "in hand with a red in view, nothing hit: foul and a miss",
        [*BEN_IN_HAND_RED_IN_VIEW, stroke([])],
        {"miss": True, "penalty": 4, "score": [4, 4], "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(a)/3.5",
        "that miss replaced: Ben plays again from in hand, on a red",
        [*BEN_IN_HAND_RED_IN_VIEW, stroke([]), REPLACE],
        {"striker": 1, "in_hand": True, "ball_on": "red", "score": [4, 4]},
    ),
    # 3.10: free ball ---------------------------------------------------------------------------------
    # Ben (7, free ball) nominates the blue and plays it, leaving the cue ball with the blue between it
    # and the only red (tracked): snookered on all reds by the free ball, 3.10(b)(ii): foul, the value
    # of the ball on (a red: 4), Ann to play. 4-7.
    (
        "3.10(b)(ii)/3.12(a)",
        "reds on, the free ball blue left between the cue ball and the only red: foul, four",
        [
            match(),
            safe("black", free_ball=True, positions={"after": RED_BEHIND_BLUE}),
            nominate("blue"),
            safe("blue", positions={"after": RED_BEHIND_BLUE}),
        ],
        {"foul": True, "penalty": 4, "fouls": ["free_ball_snooker"], "score": [4, 7], "striker": 0},
    ),
    # Another red in plain view: not snookered on ALL reds, no foul; Ann to play, 0-7.
    (
        "3.10(b)(ii)",
        "reds on, the free ball hides one red but another is in view: no foul",
        [
            match(),
            safe("black", free_ball=True, positions={"after": A_RED_IN_VIEW_TOO}),
            nominate("blue"),
            safe("blue", positions={"after": A_RED_IN_VIEW_TOO}),
        ],
        {"foul": False, "score": [0, 7], "striker": 0, "ball_on": "red"},
    ),
    # Blue on (Ann 57, Ben 5 after Ann's foul, free ball): Ben plays the pink as the free ball and leaves
    # it between the cue ball and the blue: foul, the value of the ball on, the blue (5): 62-5.
    (
        "3.10(b)(ii)/3.12(a)",
        "blue on, the free ball pink left between the cue ball and the blue: foul, five",
        [*FREE_ON_BLUE, nominate("pink"), safe("pink", positions={"after": PINK_HIDES_THE_BLUE})],
        {"foul": True, "penalty": 5, "fouls": ["free_ball_snooker"], "score": [62, 5], "ball_on": "blue"},
    ),
    (
        "3.10(b)(ii)",
        "blue on, the free ball pink left beside the blue's line: no foul",
        [*FREE_ON_BLUE, nominate("pink"), safe("pink", positions={"after": PINK_BESIDE_THE_BLUE})],
        {"foul": False, "score": [57, 5], "striker": 0, "ball_on": "blue"},
    ),
    # Only pink and black (Ann 62, Ben 6, free ball): the black played as the free ball and left in
    # front of the pink is the exception of 3.10(b)(ii): no foul, Ann on the pink.
    (
        "3.10(b)(ii)",
        "only pink and black, the free ball black left in front of the pink: no foul",
        [*FREE_ON_PINK, nominate("black"), safe("black", positions={"after": BLACK_HIDES_THE_PINK})],
        {"foul": False, "score": [62, 6], "striker": 0, "ball_on": "pink"},
    ),
    # Blue on, free ball black potted: scores the value of the ball on (5) and is re-spotted (3.10(c));
    # Ben stays on the blue; 18 left (blue, pink, black).
    (
        "3.10(c)",
        "blue on, the free ball black potted: five, re-spotted, the blue still on",
        [*FREE_ON_BLUE, nominate("black"), pot("black")],
        {"score": [57, 10], "striker": 1, "ball_on": "blue", "respotted": ["black"], "points_remaining": 18},
    ),
    # Reds on, free ball blue: the blue and the pink potted. The pink is not on: 3.12(b), the higher of
    # the ball on (1) and the pink (6): six to Ann, 6-7.
    (
        "3.10/3.12(b)",
        "reds on, free ball blue, the blue and the pink potted: six",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["blue", "pink"])],
        {"foul": True, "penalty": 6, "fouls": ["potted_ball_not_on"], "score": [6, 7], "striker": 0},
    ),
    # Reds on, free ball black: the black and a red potted: both score as reds (3.10(e)): 2, the black
    # re-spotted, the red stays down; Ben on a colour. 0-9.
    (
        "3.10(e)",
        "reds on, free ball black and a red potted: two, the black re-spotted",
        [*FREE_ON_RED, nominate("black"), stroke(["black"], ["black", "red"])],
        {
            "foul": False,
            "score": [0, 9],
            "reds": 14,
            "ball_on": "colour",
            "respotted": ["black"],
            "striker": 1,
        },
    ),
    # The black potted as a red (1), then the black as the colour (7): a break of 8, Ben 15, on a red.
    (
        "3.10(a)/3.3(f)",
        "free ball black potted as a red, then the black: a break of eight",
        [*FREE_ON_RED, nominate("black"), pot("black"), nominate("black"), pot("black")],
        {"score": [0, 15], "break": 8, "ball_on": "red", "reds": 15},
    ),
    # Yellow on (Ann 48, Ben 4, free ball): pink nominated, the pink and the yellow potted: only the ball
    # on scores (3.10(e)): 2, the yellow stays down, the pink re-spotted; Ben on the green.
    (
        "3.10(e)",
        "yellow on, free ball pink and the yellow potted: two, the pink re-spotted, green on",
        [*FREE_ON_YELLOW, nominate("pink"), stroke(["pink"], ["pink", "yellow"])],
        {
            "foul": False,
            "score": [48, 6],
            "ball_on": "green",
            "colours": ["green", "brown", "blue", "pink", "black"],
            "respotted": ["pink"],
        },
    ),
    # The pink potted as a red (Ben 8), the pink nominated as the colour, nothing hit: 3.12(a), the
    # value of the ball on, the nominated pink: six to Ann, 6-8.
    (
        "3.10(a)/3.12(a)",
        "free ball pink potted as a red, then the pink nominated and nothing hit: six",
        [*FREE_ON_RED, nominate("pink"), pot("pink"), nominate("pink"), stroke([])],
        {"penalty": 6, "score": [6, 8], "striker": 0},
    ),
    # The pink potted as a red, then a red hit with no colour named: 3.12(d), playing at a red after a
    # free ball nominated as a red: seven, 7-8.
    (
        "3.12(d)/3.10(a)",
        "free ball pink potted as a red, then a red hit first: seven",
        [*FREE_ON_RED, nominate("pink"), pot("pink"), stroke(["red"])],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"], "score": [7, 8]},
    ),
    # Ben, with the free ball, fouls (the black hit first with the pink nominated: 3.12(b), 7: 7-7);
    # Ann asks him to play again: a new turn on a red, and a free ball only ever follows Ann's foul.
    (
        "3.11(h)/3.10(f)",
        "Ben fouls with his free ball and is asked to play again: on a red, no free ball",
        [*FREE_ON_RED, nominate("pink"), stroke(["black"]), PLAY_AGAIN],
        {"striker": 1, "free_ball": False, "ball_on": "red", "score": [7, 7]},
    ),
    # Free ball pink hit together with two reds (3.6: the free ball with the ball on), a red potted: 1.
    (
        "3.6/3.10(d)",
        "free ball pink hit together with two reds, a red potted: no foul, one",
        [*FREE_ON_RED, nominate("pink"), stroke(["pink", "red", "red"], ["red"])],
        {"foul": False, "score": [0, 8], "ball_on": "colour"},
    ),
    # Nothing declared, the pink hit first (the obvious free ball, Section 2) and a red potted off it:
    # 3.10(d), the red scores (1) and stays down; Ben on a colour, 0-8.
    (
        "3.10(d)/2",
        "free ball undeclared, the pink hit first and a red potted off it: one",
        [*FREE_ON_RED, stroke(["pink"], ["red"])],
        {"foul": False, "score": [0, 8], "reds": 14, "ball_on": "colour"},
    ),
    # Nothing declared, the pink and the black hit at once: no single obvious free ball, and neither is
    # a red: 3.12(c), the higher of the two, seven to Ann (7-7).
    (
        "3.6/3.12(c)",
        "free ball undeclared, the pink and the black hit at once: seven",
        [*FREE_ON_RED, stroke(["pink", "black"])],
        {"foul": True, "penalty": 7, "fouls": ["two_balls_at_once"], "score": [7, 7]},
    ),
    # Ben, with his free ball, fails three times from the same position with a full ball open, each
    # failure replaced (the free ball standing each time, 3.14(a)): the third awards the frame to Ann.
    (
        "3.14(c)/3.10",
        "three full-ball misses with a free ball, each replaced: the frame to Ann",
        [*FREE_ON_RED, stroke([], **FULL), REPLACE, stroke([], **FULL), REPLACE, stroke([], **FULL)],
        {"frame_over": True, "winner": 0, "score": [12, 7]},
    ),
    # 3.4: the re-spotted black ------------------------------------------------------------------------
    # 36-36; the lot goes to Ann, but Ben strikes and pots the black: playing out of turn, 3.12(a), the
    # value of the ball on (7), and a foul ends the re-spotted black (3.4(b)): Ann wins 43-36.
    (
        "3.4(b)/3.12(a)",
        "re-spotted black, the lot to Ann, Ben strikes out of turn and pots it: seven, Ann wins",
        [*TIE, lot(0), pot("black", player=1)],
        {
            "foul": True,
            "penalty": 7,
            "fouls": ["out_of_turn"],
            "score": [43, 36],
            "frame_over": True,
            "winner": 0,
        },
    ),
    (
        "3.4(b)",
        "re-spotted black, the lot to Ben, Ben plays safe and Ann pots it: Ann wins",
        [*TIE, lot(1), safe("black"), pot("black")],
        {"score": [43, 36], "frame_over": True, "winner": 0},
    ),
    # 3.12: penalty values ----------------------------------------------------------------------------
    # Yellow on (Ann 48): Ann strikes before the black is spotted (a foul line naming it): 3.12(b), the
    # higher of the yellow (2) and the black (7): seven, Ben to play.
    (
        "3.12(b)",
        "yellow on, striking before the black is spotted: seven",
        [*ON_YELLOW, foul("before_spotting", "black")],
        {"penalty": 7, "score": [48, 7], "striker": 1},
    ),
    # Another ball used as the cue ball, and a red potted: 3.12(d) seven; nothing scores (3.11(e)); the
    # red stays down (3.3(g)).
    (
        "3.12(d)/3.3(g)",
        "on a red, a ball other than the white used as the cue ball, a red potted: seven, no score",
        [match(), stroke(["red"], ["red"], fouls=["wrong_cue_ball"])],
        {"penalty": 7, "score": [0, 7], "reds": 14, "striker": 1},
    ),
    # Blue nominated (Ann 1), two reds hit at once: neither is on; 3.12(c): the ball on (5) or the higher
    # of the two (1): five.
    (
        "3.6/3.12(c)",
        "blue nominated, two reds hit at once: five",
        [*ON_BLUE, stroke(["red", "red"])],
        {"penalty": 5, "score": [1, 5]},
    ),
    # The cue ball forced off the table after hitting a red: 4; the next player in hand (3.3(h)).
    (
        "3.12(b)/3.3(h)",
        "on a red, the cue ball forced off the table: four, in hand",
        [match(), stroke(["red"], cue_ball="off_table")],
        {"penalty": 4, "in_hand": True, "striker": 1},
    ),
    # Green on (Ann 50), Ann hits the pink first (6: 50-6); Ben asks her to play again: the green is on.
    (
        "3.11(h)/3.3(f)",
        "ascending, a foul on the green, the offender asked to play again: still the green",
        [*ON_GREEN, stroke(["pink"]), PLAY_AGAIN],
        {"striker": 0, "ball_on": "green", "score": [50, 6]},
    ),
    # 3.7: spotting ----------------------------------------------------------------------------------
    # The yellow potted as a ball not on (4); its spot holds the cue ball and the black spot a red: the
    # highest-value free spot is the pink's (3.7(d)).
    (
        "3.7(d)",
        "the yellow's and the black's spots taken: the yellow on the pink spot",
        [match(), stroke(["red"], ["yellow"], positions={"after": YELLOW_AND_BLACK_SPOTS_TAKEN})],
        {"penalty": 4, "respotted": [{"ball": "yellow", "position": pytest.approx(list(SPOTS["pink"]))}]},
    ),
    # A red just over a ball's width from the black spot does not occupy it (Section 2: a ball placed
    # there would not touch it): the yellow on the black spot.
    (
        "3.7(d)/2",
        "a red just clear of the black spot: the yellow on the black spot",
        [match(), stroke(["red"], ["yellow"], positions={"after": RED_CLEAR_OF_THE_BLACK_SPOT})],
        {"respotted": [{"ball": "yellow", "position": pytest.approx(list(SPOTS["black"]))}]},
    ),
    # 3.8(e): touching a red (on) and the pink (not on): only the red is named.
    (
        "3.8(e)",
        "on a red, the cue ball against a red and the pink: only the red named",
        [match(), safe("red", touching=["red-3", "pink"])],
        {"touching": ["red-3"]},
    ),
    # 3.9(a): a ball falling by itself while Ben's decision is open: replaced; the decision stays open.
    (
        "3.9(a)/3.11(h)",
        "a ball falls by itself while a decision is open: the options stay",
        [match(), stroke([]), {"type": "edge_fall", "ball": "pink"}],
        {"options": ["play", "play_again"], "striker": 1, "score": [0, 4]},
    ),
    # Section 2: points remaining and snookers required -------------------------------------------
    # Ten reds: 10 x 8 + 27 = 107.
    ("2", "ten reds: 107 points remaining at the start", [match(reds=10)], {"points_remaining": 107}),
    # Ann 35, one red left (35 points): Ben behind by exactly the points remaining needs no snookers.
    (
        "2",
        "behind by exactly the points remaining: no snookers required",
        LEVEL_WITH_WHAT_IS_LEFT,
        {"points_remaining": 35, "snookers_required": [0, 0]},
    ),
    # Ann pots the last red (36), on a colour: 34 left, Ben 2 more behind: one snooker (4 a snooker).
    (
        "2",
        "then the last red potted: 34 left, 36 behind, one snooker required",
        [*LEVEL_WITH_WHAT_IS_LEFT, pot("red")],
        {"points_remaining": 34, "snookers_required": [0, 1]},
    ),
]


@over_checklist(CHECKLIST)
def test_sixth_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)


@pytest.mark.parametrize(
    "refused",
    [
        pot("black", miss=True),
        stroke(["black"], cue_ball="potted", miss=True),
        stroke(["red"], ["pink"], fell_from_edge=["pink", "pink"]),
        stroke(["red"], [], off_table=["pink"], fell_from_edge=["pink"]),
    ],
    ids=["miss on a clean pot", "miss with the ball on hit", "fallen twice", "fallen and off the table"],
)
def test_a_refused_miss_or_fall_leaves_the_state_as_it_was(refused):
    # Ann pots a red (1), the contradictory line is refused, then she pots the black: 8, on a red.
    rulings = rule([match(), pot("red"), refused, pot("black")])
    assert "error" in rulings[2]
    assert {k: rulings[3][k] for k in ("score", "break", "ball_on", "striker")} == {
        "score": [8, 0],
        "break": 8,
        "ball_on": "red",
        "striker": 0,
    }
