"""A seventh audit of the referee against Section 3: rules in combination rather than alone.

The first six audits cover each clause of Section 3 that a frame log can express in its plain form.
This one takes the clause checklist again and, for each clause, the situations where it meets
another: fouls with several balls concerned (3.11(g), 3.12), fouls while a free ball is in force
(3.10 with 3.12), misses when snookered (3.14(b) with Section 2), the last red with the colour that
follows (3.3(f)), the re-spotted black in four-handed frames (3.4(b) with 3.17(d)), a touching ball
together with a free ball (3.8 with 3.10), pushes and jump shots that also pot balls, the cue ball
off the table with a pot, the end of a frame and snookers required, and the three-miss rule (3.14(c))
with the non-offender's other choices.

The clause checklist this audit started from (where each clause a frame log can express is tested;
``audit`` = ``test_referee_audit.py``, the others by ordinal, ``golden`` = whole frames):

- 3.1(f)-(g) frame and match winners, concession, award: audit, second, third, fifth, this, golden.
- 3.2(a) the rack, breaker in hand: audit; 3.2(b) a marker touched by a non-striker: fourth.
- 3.3(a)-(h) order of play, reds and colours, reds staying down, in hand after leaving the table:
  audit, third, fifth, ``test_referee_play.py``. 3.3(c) (when the frame starts) has no log form.
- 3.4(a)-(c) the last black, the re-spotted black, aggregate: audit, second, third, fourth, sixth,
  this (four-handed), golden.
- 3.5 in hand, the D: audit, second, sixth. 3.6 two balls at once: audit, third, fourth, sixth, this.
- 3.7(d)-(h) spotting: third, fourth, sixth, golden (a spot from positions). 3.7(a)-(c) are the
  referee's own errors and have no log form.
- 3.8(a)-(e) touching ball: audit, second, third, fourth, sixth, this (with a free ball); 3.8(f)-(g)
  (a touching ball moved through no fault, a ball found touching later) are judgements that the log
  expresses by logging no foul (or ``ball_moved``).
- 3.9(a)-(c) ball on the edge of a pocket: audit, second, fifth, sixth.
- 3.10(a)-(f) free ball: every audit; this one with penalties, touching balls and misses.
- 3.11(a)-(b), (e)-(h) fouls: audit, third, fourth, fifth, this; 3.11(c)-(d) (condoned fouls,
  wrongly spotted colours) have no log form.
- 3.12(a)-(d) penalty values, every reason code: audit, ``test_referee_fouls.py``, third, fourth,
  sixth, this (several balls concerned).
- 3.13 play again: audit, second. 3.14(a)-(d), (h) foul and a miss: audit, second, third, fifth,
  sixth, this; 3.14(e)-(g), (i) are the referee's discretion (the log's ``miss`` and the reading
  that a replacement restores every ball).
- 3.15 ball moved by others: audit, fifth. 3.16 stalemate: audit, second, fifth.
- 3.17(a)-(d) four-handed: audit, second, this, golden; 3.17(e) conferring: ``test_referee_fouls.py``.
- 3.18 equipment and 3.19 interpretation have no log form (no foul is logged).

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative; Section 2's definitions as summarised in ``RULES-EN.md``), not from the referee's
output; the comment above each row gives the working. Scores are ``[Ann, Ben]`` (``[side 0, side
1]`` four-handed). Set-ups are the first audit's (``ON_YELLOW``: Ann 48, yellow on, 27 left;
``ON_PINK``: Ann 62; ``ON_BLACK``: Ann 68; ``LAST_RED_DOWN``: Ann 41, the last red just potted;
``FREE_ON_RED``: Ann fouled the break-off on the black, Ben 7 with a free ball; ``FREE_ON_YELLOW``:
Ann 48, Ben 4, free ball on the yellow; ``FREE_ON_PINK``: Ann 62, Ben 6, free ball on the pink).

Readings chosen where the texts leave room (kept, not "fixed"):

- 3.10(a)(ii) with 3.12: the nominated free ball "acquires the value of the ball on", for a penalty
  too (the module docstring of ``snooker.referee.rules``): a push stroke that moves a touching pink
  nominated as the free ball while reds are on costs four, where the same push with the pink not
  nominated costs six (the pink is then a ball not on, concerned at its own value).
- 3.8(c) with 3.10: with a free ball, a touching colour "can be on" but is on only when nominated;
  played away from without naming it, and nothing else hit, the cue ball hit no ball on: four.
- 3.8(c)(ii) with 3.10(d): playing away from the touching colour nominated as the free ball counts as
  hitting it first, so a red potted after it scores (3.10(d)) as after any first contact with it.
- 3.14(c): "from the same position": once the non-offender chooses to have the offender play again
  from where the balls came to rest (``play_again``), the position is a new one; a later miss there
  starts the count again, with no warning until it is the second from that position.
"""

from __future__ import annotations

from typing import Any

from referee_logs import assert_last_ruling, clear_reds, lot, match, over_checklist, pot, safe, stroke
from test_referee_audit import (
    CONCEDE,
    FREE_ON_PINK,
    FREE_ON_RED,
    FREE_ON_YELLOW,
    LAST_RED_DOWN,
    ON_BLACK,
    ON_BLUE,
    ON_COLOUR,
    ON_PINK,
    ON_YELLOW,
    PLAY,
    PLAY_AGAIN,
    REPLACE,
    TIE,
    foul,
    nominate,
)

FULL = {"clear_path": True, "full_ball": True}
"""A failure to hit the ball on with a full-ball contact open (3.14(b)-(c))."""
SNOOKERED = {"clear_path": False}
"""No straight line to any part of a ball on (Section 2: snookered)."""


# --- set-ups ------------------------------------------------------------------------------------
# Four-handed, six reds, players 0 & 2 (side 0) against 1 & 3 (side 1): the first audit's TIE played
# by four: side 0 36, side 1 36 after player 1 pots the last black; the lot is to be drawn.
FOUR_TIE = [match(players=4, reds=6), *TIE[1:]]
# Ann fouls the break-off on the black (Ben 7) and the cue ball rests against the pink: free ball.
FREE_TOUCHING_PINK = [match(), safe("black", free_ball=True, touching=["pink"])]
# Ann (48) plays safe on the yellow and leaves the cue ball against it: Ben to play, touching the yellow.
BEN_TOUCHING_YELLOW = [*ON_YELLOW, safe("yellow", touching=["yellow"])]
# Ann misses a red twice with a full ball open, Ben asking each time for the balls to be replaced.
TWO_FULL_MISSES = [match(), stroke([], **FULL), REPLACE, stroke([], **FULL)]  # Ben 8, the warning

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.11(g)/3.12: several balls concerned, the highest value counts, at least four ---------------
    # On a red, a red hit first; a red and the brown potted, the blue forced off the table. Potting the
    # brown (ball not on) 4, the blue off the table 5: only the highest, 5. Nothing scores; the red stays
    # down (3.3(g)); both colours re-spotted, the blue first (3.7(e)).
    (
        "3.11(g)/3.12(b)",
        "on a red, a red and the brown potted, the blue forced off: five, the red stays down",
        [match(), stroke(["red"], ["red", "brown"], off_table=["blue"])],
        {
            "foul": True,
            "penalty": 5,
            "score": [0, 5],
            "reds": 14,
            "respotted": ["blue", "brown"],
            "striker": 1,
        },
    ),
    # Blue nominated after a red (Ann 1): blue hit, the blue and the pink potted, the cue ball in-off.
    # Pink not on 6, in-off the value of the ball on 5: 6. Both colours re-spotted; Ben on a red in hand.
    (
        "3.11(g)/3.12(a)-(b)",
        "blue nominated, the blue and the pink potted with an in-off: six, both re-spotted",
        [*ON_BLUE, stroke(["blue"], ["blue", "pink"], cue_ball="potted")],
        {
            "penalty": 6,
            "score": [1, 6],
            "respotted": ["pink", "blue"],
            "ball_on": "red",
            "in_hand": True,
            "striker": 1,
        },
    ),
    # Yellow on (Ann 48): the green hit first (4), the yellow potted, the black forced off (7): 7. The
    # yellow potted in a foul is re-spotted (3.7), so is the black; Ben on the yellow, 27 left.
    (
        "3.11(g)/3.12(b)",
        "yellow on, the green hit first, the yellow potted and the black forced off: seven",
        [*ON_YELLOW, stroke(["green"], ["yellow"], off_table=["black"])],
        {"penalty": 7, "score": [48, 7], "ball_on": "yellow", "points_remaining": 27, "striker": 1},
    ),
    # On a red, the cue ball hits nothing and leaves the table: both fouls are four (3.12(a), (b)).
    (
        "3.11(g)/3.12(a)-(b)",
        "on a red, nothing hit and the cue ball off the table: four, in hand",
        [match(), stroke([], cue_ball="off_table")],
        {"penalty": 4, "score": [0, 4], "in_hand": True, "striker": 1},
    ),
    # Black nominated after a red: the yellow and the green hit at once. 3.12(c): the value of the ball
    # on (7) or the higher of the two (3): 7.
    (
        "3.6/3.12(c)",
        "black nominated, the yellow and the green hit at once: seven",
        [*ON_COLOUR, nominate("black"), stroke(["yellow", "green"])],
        {"penalty": 7, "score": [1, 7], "fouls": ["two_balls_at_once"]},
    ),
    # On a red, a jump shot (value of the ball on, 4) that also pots the pink (6): 6, pink re-spotted.
    (
        "3.11(g)/3.12(a)-(b)",
        "on a red, a jump shot that pots the pink: six",
        [match(), stroke(["red"], ["pink"], fouls=["jump_shot"])],
        {"penalty": 6, "score": [0, 6], "respotted": ["pink"], "reds": 15},
    ),
    # On a red, a red hit, the pink and the black potted, the cue ball in-off: the black, 7.
    (
        "3.11(g)/3.12(b)",
        "on a red, the pink and the black potted with an in-off: seven",
        [match(), stroke(["red"], ["pink", "black"], cue_ball="potted")],
        {"penalty": 7, "score": [0, 7], "respotted": ["black", "pink"], "in_hand": True},
    ),
    # 3.10 with 3.12: fouls while a free ball is in force -----------------------------------------
    # Ben (7) nominates the yellow as the free ball, pots it and the cue ball leaves the table. The
    # yellow is on (as a red, value 1); the cue ball off the table: the ball on or concerned, 4. The
    # yellow re-spotted, nothing scores; Ann in hand.
    (
        "3.10(a)/3.12(b)",
        "reds on, free ball yellow potted, the cue ball off the table: four, re-spotted",
        [*FREE_ON_RED, stroke(["yellow"], ["yellow"], nominated="yellow", cue_ball="off_table")],
        {"penalty": 4, "score": [4, 7], "respotted": ["yellow"], "in_hand": True, "striker": 0, "reds": 15},
    ),
    # Yellow on, free ball pink (Ben 4): the pink hit first, the black potted (not on): 7 to Ann (55).
    (
        "3.10(a)/3.12(b)",
        "yellow on, free ball pink hit first, the black potted: seven",
        [*FREE_ON_YELLOW, stroke(["pink"], ["black"], nominated="pink")],
        {"penalty": 7, "score": [55, 4], "respotted": ["black"], "ball_on": "yellow", "striker": 0},
    ),
    # Pink and black left, free ball black (Ann 62, Ben 6): the black hit, the pink potted, the cue ball
    # in-off. The pink is on, so no "ball not on"; the in-off is the value of the ball on, 6. The pink
    # potted in a foul is re-spotted; the frame goes on (more than the black is left).
    (
        "3.10(d)/3.12(a)",
        "pink and black, free ball black, the pink potted with an in-off: six, the pink re-spotted",
        [*FREE_ON_PINK, stroke(["black"], ["pink"], nominated="black", cue_ball="potted")],
        {
            "penalty": 6,
            "score": [68, 6],
            "colours": ["pink", "black"],
            "respotted": ["pink"],
            "frame_over": False,
            "striker": 0,
        },
    ),
    # Free ball pink nominated with reds on: the pink and the black hit at once. 3.12(c): the ball on (1),
    # the pink as the ball on (1), the black (7): 7.
    (
        "3.10(b)(i)/3.12(c)",
        "reds on, free ball pink, the pink and the black hit at once: seven",
        [*FREE_ON_RED, stroke(["pink", "black"], nominated="pink")],
        {"penalty": 7, "score": [7, 7], "fouls": ["two_balls_at_once"]},
    ),
    # Free ball pink: the pink hit, the pink, a red and the black potted. The black is not on: 7;
    # nothing scores; the red stays down, the pink and the black are re-spotted.
    (
        "3.10(e)/3.12(b)",
        "reds on, free ball pink, the pink, a red and the black potted: seven, the red stays down",
        [*FREE_ON_RED, stroke(["pink"], ["pink", "red", "black"], nominated="pink")],
        {"penalty": 7, "score": [7, 7], "reds": 14, "respotted": ["black", "pink"], "striker": 0},
    ),
    # 3.8 with 3.10: a touching ball and a free ball ----------------------------------------------
    # The cue ball rests against the pink after Ann's foul, free ball: the pink can be on, so it is named.
    (
        "3.8(a)/3.10",
        "a foul leaves the cue ball against the pink with a free ball: touching ball and free ball",
        FREE_TOUCHING_PINK,
        {"touching": ["pink"], "free_ball": True, "score": [0, 7], "striker": 1},
    ),
    # Ben does not nominate, plays away from the pink (not on unless nominated) and hits nothing: the
    # cue ball hit no ball on (3.8(c) does not apply): the value of the ball on, 4.
    (
        "3.8(c)/3.10/3.12(a)",
        "free ball, the touching pink not nominated, played away, nothing hit: four",
        [*FREE_TOUCHING_PINK, stroke([])],
        {"foul": True, "penalty": 4, "score": [4, 7]},
    ),
    # Ben nominates the touching pink as the free ball, plays away and the cue ball pots a red: the
    # free ball counts as hit first (3.8(c)(ii)), so the red potted after it scores (3.10(d)): 1.
    (
        "3.8(c)(ii)/3.10(d)",
        "free ball, the touching pink nominated, played away, a red potted: one, then a colour",
        [*FREE_TOUCHING_PINK, stroke([], ["red"], nominated="pink")],
        {"foul": False, "score": [0, 8], "reds": 14, "ball_on": "colour", "break": 1, "striker": 1},
    ),
    # Ben, the pink not nominated, hits a red but his push moves the touching pink (3.8(b)): the pink is
    # the ball concerned, a ball not on: 6.
    (
        "3.8(b)/3.10/3.12(b)",
        "free ball, the touching pink not nominated, a push stroke moves it: six",
        [*FREE_TOUCHING_PINK, stroke(["red"], fouls=["push_stroke"])],
        {"penalty": 6, "score": [6, 7]},
    ),
    # The same with the pink nominated as the free ball: it has the value of the ball on (1): 4.
    (
        "3.8(b)/3.10(a)/3.12(b)",
        "free ball, the touching pink nominated, a push stroke moves it: four",
        [*FREE_TOUCHING_PINK, stroke([], nominated="pink", fouls=["push_stroke"])],
        {"penalty": 4, "score": [4, 7]},
    ),
    # Ben (touching the yellow, yellow on) pushes the yellow: the yellow is the ball on and the ball
    # concerned, 2: four. Ann 48 + 4.
    (
        "3.8(b)/3.12(b)",
        "yellow on, touching the yellow, a push stroke moves it: four",
        [*BEN_TOUCHING_YELLOW, stroke([], fouls=["push_stroke"])],
        {"penalty": 4, "score": [52, 0], "striker": 0},
    ),
    # Pushes and jump shots that pot ---------------------------------------------------------------
    # Blue nominated (Ann 1): a jump shot lands on the blue and pots it: 5, no score, blue re-spotted.
    (
        "3.12(a)/3.11(e)",
        "blue nominated, a jump shot that pots the blue: five, re-spotted",
        [*ON_BLUE, stroke(["blue"], ["blue"], fouls=["jump_shot"])],
        {"penalty": 5, "score": [1, 5], "respotted": ["blue"], "break": 0, "striker": 1},
    ),
    # Black nominated, a double hit and the black potted: 7, no score.
    (
        "3.12(a)/3.11(e)",
        "black nominated, a double hit that pots the black: seven",
        [*ON_COLOUR, stroke(["black"], ["black"], nominated="black", fouls=["double_hit"])],
        {"penalty": 7, "score": [1, 7], "respotted": ["black"]},
    ),
    # On a red, a push stroke pots a red: 4, no score, the red stays down (3.3(g)).
    (
        "3.12(b)/3.3(g)",
        "on a red, a push stroke that pots a red: four, the red stays down",
        [match(), stroke(["red"], ["red"], fouls=["push_stroke"])],
        {"penalty": 4, "score": [0, 4], "reds": 14, "ball_on": "red", "striker": 1},
    ),
    # The cue ball off the table with a pot ------------------------------------------------------
    # Pink on (Ann 62): the pink potted, the cue ball off the table: 6, re-spotted, Ben in hand on it.
    (
        "3.12(b)/3.7",
        "pink on, the pink potted and the cue ball off the table: six, Ben in hand on the pink",
        [*ON_PINK, stroke(["pink"], ["pink"], cue_ball="off_table")],
        {"penalty": 6, "score": [62, 6], "ball_on": "pink", "in_hand": True, "respotted": ["pink"]},
    ),
    # Only the black (Ann 68): the black potted, the cue ball off the table: a foul on the last black
    # ends the frame (3.4(a)): Ben 7, Ann wins 68-7.
    (
        "3.4(a)/3.12(b)",
        "only the black, potted with the cue ball off the table: seven, the frame to Ann",
        [*ON_BLACK, stroke(["black"], ["black"], cue_ball="off_table")],
        {"penalty": 7, "score": [68, 7], "frame_over": True, "winner": 0},
    ),
    # After a red, nothing declared, the pink hit and potted (the obvious nomination), the cue ball off
    # the table: the value of the pink, 6 (not the seven of an undeclared colour).
    (
        "3.12(b)/2",
        "after a red, the pink hit and potted, the cue ball off the table: six",
        [*ON_COLOUR, stroke(["pink"], ["pink"], cue_ball="off_table")],
        {"penalty": 6, "score": [1, 6], "respotted": ["pink"]},
    ),
    # Yellow on, free ball green (Ben 4): the green potted, the cue ball off the table: the green has the
    # yellow's value (2): four to Ann (52); the green re-spotted, Ann in hand on the yellow.
    (
        "3.10(a)/3.12(b)",
        "yellow on, free ball green potted, the cue ball off the table: four",
        [*FREE_ON_YELLOW, stroke(["green"], ["green"], nominated="green", cue_ball="off_table")],
        {"penalty": 4, "score": [52, 4], "respotted": ["green"], "ball_on": "yellow", "in_hand": True},
    ),
    # 3.3(f): the last red and the colour that follows --------------------------------------------
    # The last red down (Ann 41): the blue nominated and hit, the blue and the pink potted. The pink is
    # not on: 6; both re-spotted; Ben on the yellow with 27 left.
    (
        "3.3(f)/3.12(b)",
        "after the last red, the blue nominated, the blue and the pink potted: six, then the yellow",
        [*LAST_RED_DOWN, stroke(["blue"], ["blue", "pink"], nominated="blue")],
        {"penalty": 6, "score": [41, 6], "ball_on": "yellow", "points_remaining": 27, "striker": 1},
    ),
    # The last red down: the black potted (the obvious nomination): 48, re-spotted, the yellow on.
    (
        "3.3(f)",
        "after the last red, the black potted: 48, re-spotted, the yellow on",
        [*LAST_RED_DOWN, pot("black")],
        {"score": [48, 0], "respotted": ["black"], "ball_on": "yellow", "break": 48, "points_remaining": 27},
    ),
    # The last red down: the pink hit first, nothing potted: no foul, Ben on the yellow.
    (
        "3.3(f)",
        "after the last red, the pink hit and missed: no foul, Ben on the yellow",
        [*LAST_RED_DOWN, safe("pink")],
        {"foul": False, "score": [41, 0], "ball_on": "yellow", "striker": 1, "points_remaining": 27},
    ),
    # The last red down (Ann 41, 34 left): nothing named, nothing hit with a full ball open. Ben is 41
    # behind with 34 left: he needs snookers before the stroke, so no miss (3.14(b)). The foul is one
    # after a red before a colour was nominated: 7 (3.12(d)). Ben then on the yellow.
    (
        "3.14(b)/3.12(d)",
        "after the last red, the opponent needing snookers, nothing hit: seven, no miss",
        [*LAST_RED_DOWN, stroke([], **FULL)],
        {
            "penalty": 7,
            "miss": False,
            "score": [41, 7],
            "ball_on": "yellow",
            "options": ["play", "play_again"],
        },
    ),
    # 3.14(b): misses when snookered ----------------------------------------------------------------
    # On a red, snookered (no straight line to any red), the black hit first: 7, no miss (no line open,
    # and no miss called).
    (
        "3.14(b)/2",
        "snookered on the reds, the black hit first: seven, no miss",
        [match(), stroke(["black"], **SNOOKERED)],
        {"penalty": 7, "miss": False, "options": ["play", "play_again"]},
    ),
    # Ben with a free ball (reds on) has a full ball on a colour he could nominate and hits nothing;
    # nobody needs snookers: foul and a miss, four (his free ball would have been a red).
    (
        "3.14(b)/3.10",
        "with a free ball, a full ball open on a colour that could be on, nothing hit: a miss",
        [*FREE_ON_RED, stroke([], nominated="blue", **FULL)],
        {"penalty": 4, "miss": True, "score": [4, 7], "options": ["play", "play_again", "replace"]},
    ),
    # 3.4(b) with 3.17(d): the re-spotted black in a four-handed frame ----------------------------
    # Side 1 wins the lot and picks player 3; he plays safe; the order of the frame puts player 0 next;
    # he pots the black: side 0 wins 43-36.
    (
        "3.4(b)/3.17(d)",
        "four-handed re-spotted black: player 3 plays safe, player 0 pots it: side 0 43-36",
        [*FOUR_TIE, lot(3), safe("black"), pot("black")],
        {"score": [43, 36], "frame_over": True, "winner": 0},
    ),
    # Side 0 wins the lot and picks player 2; he goes in-off the black: 7 to side 1, the frame over.
    (
        "3.4(b)/3.17(d)/3.12(a)",
        "four-handed re-spotted black: player 2 goes in-off: side 1 wins 43-36",
        [*FOUR_TIE, lot(2), stroke(["black"], cue_ball="potted")],
        {"penalty": 7, "score": [36, 43], "frame_over": True, "winner": 1},
    ),
    # Side 1 picks player 1; he plays safe; next in the frame's order is player 2 (0, 1, 2, 3).
    (
        "3.4(b)/3.17(d)",
        "four-handed re-spotted black: player 1 plays safe, player 2 is next",
        [*FOUR_TIE, lot(1), safe("black")],
        {"striker": 2, "frame_over": False, "score": [36, 36], "in_hand": False},
    ),
    # End of frame and snookers required -------------------------------------------------------
    # Ann clears the colours: 48 + 2 + 3 + 4 + 5 + 6 + 7 = 75 in one break; the frame over.
    (
        "3.4(a)/3.1(f)",
        "the last black potted in a clearance: 75-0, a break of 75, the frame over",
        [*ON_BLACK, pot("black")],
        {"score": [75, 0], "break": 75, "frame_over": True, "winner": 0, "points_remaining": 0},
    ),
    # Pink on (Ann 62), Ann plays safe: Ben 62 behind with 13 left needs (62 - 13) / 6 = 8.2, nine
    # snookers (six a snooker on the pink).
    (
        "2",
        "pink on, 62 behind with 13 left: nine snookers required",
        [*ON_PINK, safe("pink")],
        {"snookers_required": [0, 9], "striker": 1, "points_remaining": 13},
    ),
    # Then Ben concedes: the frame to Ann at 62-0.
    (
        "3.1(f)",
        "then the player needing snookers concedes: the frame to Ann 62-0",
        [*ON_PINK, safe("pink"), CONCEDE],
        {"score": [62, 0], "frame_over": True, "winner": 0},
    ),
    # A foul by the player needing snookers with the pink on does not end the frame (more than the black
    # is left): Ann 62 + 6 = 68, Ann's decision.
    (
        "3.4(a)/3.12(a)",
        "pink on, the player behind misses the pink: six, the frame goes on",
        [*ON_PINK, safe("pink"), stroke([])],
        {"penalty": 6, "score": [68, 0], "frame_over": False, "options": ["play", "play_again"]},
    ),
    # 3.14(c): the three-miss rule and the other choices -----------------------------------------
    # After two full-ball misses (Ben 8, the warning), Ben plays from the position left: no warning,
    # no options, Ben to play.
    (
        "3.14(c)",
        "after two full-ball misses, Ben plays himself: the warning lapses",
        [*TWO_FULL_MISSES, PLAY],
        {"warning": False, "options": [], "striker": 1, "score": [0, 8]},
    ),
    # After two full-ball misses Ben asks Ann to play again from where the balls lie: a new position.
    # Her miss there is the first from it: no warning, no award.
    (
        "3.14(c)",
        "after two full-ball misses, play again from the position left, a third miss: no award",
        [*TWO_FULL_MISSES, PLAY_AGAIN, stroke([], **FULL)],
        {"miss": True, "warning": False, "frame_over": False, "score": [0, 12]},
    ),
    # Then replaced and missed again: the second from that position, the warning.
    (
        "3.14(c)",
        "then replaced and missed again: the second from that position, the warning",
        [*TWO_FULL_MISSES, PLAY_AGAIN, stroke([], **FULL), REPLACE, stroke([], **FULL)],
        {"miss": True, "warning": False, "warning_due": True, "frame_over": False, "score": [0, 16]},
    ),
    # After the warning the third failure is the black hit first: a miss whatever it hits, 7, and the
    # frame is awarded to Ben (0-15).
    (
        "3.14(c)/3.12(b)",
        "the third failure hits the black first: seven, the frame to Ben",
        [*TWO_FULL_MISSES, REPLACE, stroke(["black"], **FULL)],
        {"miss": True, "penalty": 7, "score": [0, 15], "frame_over": True, "winner": 1},
    ),
    # Four-handed: player 0 misses three times from the same position with a full ball open, player 1
    # asking each time for the balls to be replaced: the frame to side 1 (0-12).
    (
        "3.14(c)/3.17",
        "four-handed: three full-ball misses by player 0, each replaced: the frame to side 1",
        [
            match(players=4),
            stroke([], **FULL),
            REPLACE,
            stroke([], **FULL),
            REPLACE,
            stroke([], **FULL),
        ],
        {"score": [0, 12], "frame_over": True, "winner": 1},
    ),
    # Four-handed: after player 0's miss is replaced, player 0 (not his partner) plays again.
    (
        "3.14(a)/3.17(c)",
        "four-handed: a miss replaced, the offender plays again",
        [match(players=4), stroke([], **FULL), REPLACE],
        {"striker": 0, "score": [0, 4]},
    ),
    # 3.14(h)/3.2(b): after the replacement, the non-offender touches a ball during the consultation: he
    # is penalised as if striker (4 to Ann), the order is unchanged (Ann plays the replayed stroke) and
    # the warning stands.
    (
        "3.14(h)",
        "after two misses and a replacement, Ben touches a ball: four to Ann, Ann still to play, warned",
        [*TWO_FULL_MISSES, REPLACE, foul("touched_ball", "red", player=1)],
        {"penalty": 4, "score": [4, 8], "striker": 0, "warning": True},
    ),
    # And Ann's third miss from that position still awards the frame to Ben.
    (
        "3.14(c)/(h)",
        "then Ann's third miss still awards the frame to Ben",
        [*TWO_FULL_MISSES, REPLACE, foul("touched_ball", "red", player=1), stroke([], **FULL)],
        {"score": [4, 12], "frame_over": True, "winner": 1},
    ),
    # 3.16 during a miss sequence: the re-rack cancels the scores and starts the frame again; the
    # warning goes with it (a new rack is a new position), Ann breaks again.
    (
        "3.16/3.14(c)",
        "a re-rack after two full-ball misses: scores cancelled, no warning, Ann breaks",
        [*TWO_FULL_MISSES, REPLACE, {"type": "rerack"}],
        {"score": [0, 0], "warning": False, "striker": 0, "options": [], "reds": 15},
    ),
    # 3.1(f) during a miss sequence: Ann, warned, concedes instead: the frame to Ben at 0-8.
    (
        "3.1(f)/3.14(c)",
        "warned after two misses, Ann concedes: the frame to Ben 0-8",
        [*TWO_FULL_MISSES, REPLACE, CONCEDE],
        {"score": [0, 8], "frame_over": True, "winner": 1},
    ),
    # 3.2(b)/3.4(b)/3.17: on the four-handed re-spotted black (player 3 to play), player 2 touches the
    # black: penalised as if striker, 7 to side 1, and a foul on the re-spotted black ends the frame.
    (
        "3.4(b)/3.17/3.12(b)",
        "four-handed re-spotted black: a non-striker of side 0 touches the black: the frame to side 1",
        [*FOUR_TIE, lot(3), foul("touched_ball", "black", player=2)],
        {"penalty": 7, "score": [36, 43], "frame_over": True, "winner": 1},
    ),
]


@over_checklist(CHECKLIST)
def test_seventh_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)


def test_the_four_handed_tie_is_level_before_the_lot():
    """The set-up: 36-36, the black re-spotted, nobody to play until the lot."""
    assert_last_ruling(
        FOUR_TIE, {"score": [36, 36], "respotted_black": True, "status": "respotted_black_lot"}
    )


def test_a_clearance_after_the_last_red_is_scored_colour_by_colour():
    """Ann 41 after the last red; the black (48), then yellow to black: 48 + 27 = 75."""
    lines = [*LAST_RED_DOWN, pot("black"), *(pot(c) for c in ("yellow", "green", "brown", "blue", "pink"))]
    assert_last_ruling(lines, {"score": [68, 0], "ball_on": "black", "points_remaining": 7, "break": 68})
    assert_last_ruling([*lines, pot("black")], {"score": [75, 0], "frame_over": True, "winner": 0})


def test_clear_reds_set_up():
    """LAST_RED_DOWN is five reds and blacks (40) and the last red (41)."""
    assert_last_ruling([match(reds=6), *clear_reds(5)], {"score": [40, 0], "reds": 1})
