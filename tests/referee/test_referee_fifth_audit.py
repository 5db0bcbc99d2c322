"""A fifth, independent audit of the referee against Section 3, for situations the first four left open.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative; Section 2's definitions as summarised in ``RULES-EN.md``), not from the referee's
output; the comment above each row gives the working. Scores are ``[Ann, Ben]``. The set-ups are
the first audit's (``ON_YELLOW``: Ann 48, yellow on, 27 left; ``LAST_RED_DOWN``: six reds, Ann 41
having just potted the last red, on any colour, 34 left; ``FREE_ON_RED``: Ben 7 with a free ball).

Readings chosen where the texts leave room (kept, not "fixed"):

- 3.14(b): the Polish text (and the official English) exempt a failure when either player needed
  snookers before *or as a result of* the stroke *and* the referee is satisfied the miss was not
  intentional; the Chinese text names only "before the stroke" *or* a miss judged unintentional.
  The referee follows the Polish reading (before or after; a called ``miss`` overrides it).
- 3.8(c)(ii) with Section 2's "obvious intention": after a red, a cue ball resting against one
  colour and played away with no colour declared is read as that colour nominated (no foul).
- 3.14(d)(iii): the Polish "wcześniejsze ostrzeżenie ... zostaje zrealizowane" could be read as the
  warning being carried out (the frame awarded); the Chinese "仍然有效" (remains in effect) and the
  official English say it stays in force. The referee keeps it in force (first audit's rows).
- 3.10(b)(i): with a free ball nominated, first hitting a plain ball on (a red) is a foul; it is
  never a miss, as a ball on was hit (3.14: a miss is a failure to hit a ball on).
- 3.1(g): a match decided on frames with an even ``best_of`` may end level: it is over, drawn, no
  match winner named (the texts know no drawn match; nothing else fits its set length).
- 3.4(c)/3.1(f): the last frame of an aggregate match conceded with the aggregate level is left
  over with no match winner and no further frame; whether a re-spotted black follows (3.4(c)) or
  the concession gives up the match is not settled by the texts.
- Contradictions the tracker may produce are read leniently, not refused: ``touching`` while the
  cue ball left the table is ignored; a touching ball potted for good in an earlier stroke (a stale
  ball) can never be on, so it changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import assert_last_ruling, match, over_checklist, pot, rule, safe, stroke
from test_referee_audit import (
    CONCEDE,
    FREE_ON_RED,
    FREE_ON_YELLOW,
    LAST_RED_DOWN,
    NEW_FRAME,
    ON_COLOUR,
    ON_GREEN,
    ON_PINK,
    ON_YELLOW,
    PLAY,
    REPLACE,
    miss_stroke,
    nominate,
)
from test_referee_third_audit import ONE_RED_LEFT

RERACK = {"type": "rerack"}
FELL_AND_HIT = "first_contact: the {} fell from the edge before a ball in the stroke could hit it (3.9(b))"

# --- set-ups ------------------------------------------------------------------------------------------
# Ann goes in-off on the break (Ben 4) and Ben takes the table: Ben to play from in hand, on a red.
BEN_IN_HAND = [match(), stroke(["red"], [], cue_ball="potted"), PLAY]
# Ann plays safe on the pink (62-0) and Ben, on the pink, hits nothing: six to Ann, 68-0, pink on.
ANN_68_ON_PINK = [*ON_PINK, safe("pink"), stroke([])]
# Best of two frames: each player concedes one; frames 1-1 and both frames played.
LEVEL_AFTER_TWO = [match(best_of=2), CONCEDE, NEW_FRAME, CONCEDE]

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.9(b): a ball that falls from the edge of a pocket during a stroke ------------------------------
    # On a red, Ann hits a red; the pink, on the lip, falls in before any ball in the stroke could
    # hit it (logged among ``potted`` as it did drop). The striker potted no ball not on and broke no
    # rule, so 3.9(b)(i): every ball goes back and the same striker plays again; no score, no foul.
    (
        "3.9(b)(i)",
        "on a red, the pink falls from the edge before being hit: no foul, replaced, Ann again",
        [match(), stroke(["red"], ["red", "pink"], fell_from_edge=["pink"])],
        {"foul": False, "penalty": 0, "score": [0, 0], "striker": 0, "reds": 15, "ball_on": "red"},
    ),
    # After a red (Ann 1), the blue nominated, hit and potted; a red falls in by itself. No foul by
    # the striker (the red was not his pot): all back, Ann plays again, still on a colour (14 reds).
    (
        "3.9(b)(i)",
        "blue nominated and potted, a red falls from the edge: no foul, replaced, still on a colour",
        [*ON_COLOUR, nominate("blue"), stroke(["blue"], ["blue", "red"], fell_from_edge=["red"])],
        {"foul": False, "score": [1, 0], "striker": 0, "reds": 14, "ball_on": "colour"},
    ),
    # Yellow on (Ann 48): the yellow is hit and the pink falls in by itself: no foul, the pink back.
    (
        "3.9(b)(i)",
        "yellow on, the pink falls from the edge: no foul, Ann again on the yellow",
        [*ON_YELLOW, stroke(["yellow"], ["pink"], fell_from_edge=["pink"])],
        {
            "foul": False,
            "score": [48, 0],
            "striker": 0,
            "ball_on": "yellow",
            "colours": ["yellow", "green", "brown", "blue", "pink", "black"],
        },
    ),
    # 3.9(b)(ii): with a foul (an in-off, 3.12(a): the value of the ball on, a red, so 4) the balls
    # are replaced and the next player has the options after a foul. The pink that fell by itself
    # is no "ball not on potted" by the striker, so the penalty is 4, not the pink's 6.
    (
        "3.9(b)(ii)/3.12(a)",
        "on a red, the pink falls from the edge and the cue ball goes in-off: four, not six",
        [match(), stroke(["red"], ["pink"], cue_ball="potted", fell_from_edge=["pink"])],
        {
            "foul": True,
            "penalty": 4,
            "fouls": ["cue_ball_potted"],
            "score": [0, 4],
            "options": ["play", "play_again"],
        },
    ),
    # Blue nominated; one red falls in by itself and the stroke pots another red: that second red is
    # a ball not on potted, 3.12(b): the blue's 5. Balls replaced (14 reds, as before the stroke).
    (
        "3.9(b)(ii)/3.12(b)",
        "blue nominated, one red falls from the edge, another is potted: five, replaced",
        [*ON_COLOUR, nominate("blue"), stroke(["blue"], ["red", "red"], fell_from_edge=["red"])],
        {"foul": True, "penalty": 5, "fouls": ["potted_ball_not_on"], "score": [1, 5], "reds": 14},
    ),
    # 3.11(g): several fouls in one stroke --------------------------------------------------------------
    # Green on (Ann 50): a double hit and a jump shot are (a) fouls, the green's 3 -> 4; the pink
    # potted is a (b) foul, the pink's 6. Only the highest counts: 6, listed first.
    (
        "3.11(g)/3.12(a)-(b)",
        "green on, a double hit, a jump shot and the pink potted: six",
        [*ON_GREEN, stroke(["green"], ["pink"], fouls=["double_hit", "jump_shot"])],
        {"penalty": 6, "fouls": ["potted_ball_not_on", "double_hit", "jump_shot"], "score": [50, 6]},
    ),
    # Fouls on a colour after the last red (3.3(f)(ii)) -------------------------------------------------
    # The pink nominated after the last red (Ann 41), hit, then an in-off: 3.12(a), the value of the
    # ball on = the nominated pink, 6. The next player is on the yellow (no reds, 3.3(f)(iii)), in
    # hand (3.3(h)). He is 35 behind with 27 left: 8 more over the 4 a snooker earns -> 2 snookers.
    (
        "3.12(a)/3.3(f)",
        "after the last red, the pink nominated, an in-off off the pink: six, then the yellow",
        [*LAST_RED_DOWN, nominate("pink"), stroke(["pink"], [], cue_ball="potted")],
        {
            "penalty": 6,
            "score": [41, 6],
            "ball_on": "yellow",
            "in_hand": True,
            "striker": 1,
            "snookers_required": [0, 2],
        },
    ),
    # After the last red, no colour declared, nothing hit and an in-off: a foul after potting a red
    # before a colour was nominated, 3.12(d): seven. Then the yellow.
    (
        "3.12(d)/3.3(f)",
        "after the last red, nothing named, nothing hit, an in-off: seven, then the yellow",
        [*LAST_RED_DOWN, stroke([], [], cue_ball="potted")],
        {
            "penalty": 7,
            "fouls": ["foul_before_nomination", "missed_all_balls", "cue_ball_potted"],
            "ball_on": "yellow",
        },
    ),
    # After the last red, the yellow nominated and potted but the cue ball follows it in: 3.11(e) no
    # score, 3.12(a) the yellow's 2 -> 4; the yellow, potted in a foul, is re-spotted (3.7) and is
    # the next player's ball on.
    (
        "3.11(e)/3.7",
        "after the last red, the yellow nominated and potted with an in-off: four, re-spotted, yellow on",
        [*LAST_RED_DOWN, nominate("yellow"), stroke(["yellow"], ["yellow"], cue_ball="potted")],
        {"penalty": 4, "score": [41, 4], "respotted": ["yellow"], "ball_on": "yellow", "points": 0},
    ),
    # After the last red, the blue nominated and hit, a push stroke and the black forced off the
    # table: 3.12(b) for both, the higher ball concerned is the black: 7. The black is re-spotted.
    (
        "3.11(g)/3.12(b)",
        "after the last red, the blue named, a push stroke forcing the black off: seven, re-spotted",
        [*LAST_RED_DOWN, nominate("blue"), stroke(["blue"], [], off_table=["black"], fouls=["push_stroke"])],
        {"penalty": 7, "score": [41, 7], "respotted": ["black"], "ball_on": "yellow"},
    ),
    # 3.14(b) after the last red: Ann 41, Ben 0, 7 + 27 = 34 left (Section 2). Ben is 41 behind: he
    # needs snookers before Ann's stroke, so her failure to hit the nominated pink, a straight line
    # open, is no miss unless the referee calls one. The foul (the pink's 6) stands; then the yellow.
    (
        "3.14(b)/3.3(f)",
        "after the last red, Ben needing snookers, Ann misses the pink with a clear line: no miss",
        [*LAST_RED_DOWN, nominate("pink"), miss_stroke()],
        {
            "miss": False,
            "penalty": 6,
            "score": [41, 6],
            "ball_on": "yellow",
            "options": ["play", "play_again"],
        },
    ),
    # The referee calls the miss (judged intentional): replaced, Ann plays again with "a colour of
    # his choice" as she was on a colour after a red (3.14(a)(iii)), though no red is left.
    (
        "3.14(a)(iii)",
        "after the last red, a called miss replaced: Ann on a colour of her choice, no reds",
        [*LAST_RED_DOWN, nominate("pink"), miss_stroke(miss=True), REPLACE],
        {"striker": 0, "ball_on": "colour", "reds": 0, "score": [41, 6], "points_remaining": 34},
    ),
    # 3.14 from in hand ---------------------------------------------------------------------------------
    # Ben plays from in hand after Ann's in-off (Ben 4) and hits nothing with a line to a red open:
    # foul and a miss, 4 to Ann. Replaced, Ben plays again from where he was: in hand (3.14(a)).
    (
        "3.14(a)/3.5",
        "a miss from in hand replaced: the offender plays again from in hand",
        [*BEN_IN_HAND, miss_stroke(), REPLACE],
        {"striker": 1, "in_hand": True, "score": [4, 4], "ball_on": "red"},
    ),
    # Section 2: snookers required after a foul --------------------------------------------------------
    # Ann 68, Ben 0, pink on: 13 left. Ben 68 behind: 55 more than remains; a snooker on the pink
    # earns at least 6 (3.12(a)-(b): the value of the ball on) -> ceil(55 / 6) = 10 snookers.
    (
        "2/3.12",
        "pink on, 68 behind after a foul: ten snookers required (six a snooker)",
        ANN_68_ON_PINK,
        {"score": [68, 0], "points_remaining": 13, "snookers_required": [0, 10]},
    ),
    # Free ball on the yellow (Ann 48, Ben 4): 27 + 2 for the free ball = 29 left (Section 2). Ben
    # 44 behind: 15 beyond what remains, 4 a snooker -> 4 snookers.
    (
        "2/3.10",
        "free ball on the yellow, 44 behind: 29 left, four snookers required",
        FREE_ON_YELLOW,
        {"score": [48, 4], "points_remaining": 29, "snookers_required": [0, 4]},
    ),
    # 3.16 stalemate --------------------------------------------------------------------------------------
    # A re-rack while Ben's decision after Ann's foul is open: every point cancelled, balls racked,
    # the same player (Ann) breaks from in hand; the decision lapses with the position.
    (
        "3.16",
        "a re-rack while a decision is open: scores cancelled, Ann breaks again, no options",
        [match(), safe("black"), RERACK],
        {"score": [0, 0], "striker": 0, "options": [], "status": "in_play", "in_hand": True, "reds": 15},
    ),
    # 3.1(f), 3.3(b): concessions in a longer match ------------------------------------------------------
    # Best of three: Ann (1 up) concedes frame 1: the frame to Ben, the match goes on.
    (
        "3.1(f)",
        "best of three, a concession: the frame to the other player, the match goes on",
        [match(best_of=3), pot("red"), CONCEDE],
        {"frame_over": True, "winner": 1, "frames": [0, 1], "match_over": False, "score": [1, 0]},
    ),
    # The next frame: the breaker alternates (3.3(b)): Ben breaks, from in hand.
    (
        "3.3(b)",
        "after a conceded frame, the other player breaks the next",
        [match(best_of=3), pot("red"), CONCEDE, NEW_FRAME],
        {"striker": 1, "score": [0, 0], "in_hand": True, "frames": [0, 1]},
    ),
    # Nominating (3.8(c), Section 2) --------------------------------------------------------------------
    # A nominated colour in the stroke line while Ben has a free ball is his free ball (3.10(a)): the
    # blue potted as a red scores one and is re-spotted; Ben is then on a colour.
    (
        "3.10(a)",
        "free ball: the blue named in the stroke and potted: one, re-spotted, then a colour",
        [*FREE_ON_RED, stroke(["blue"], ["blue"], nominated="blue")],
        {"foul": False, "score": [0, 8], "respotted": ["blue"], "ball_on": "colour", "striker": 1},
    ),
    # 3.8(a)/(c): after a red the cue ball rests against a red, which cannot be on (a colour is): no
    # TOUCHING BALL call, and a red cannot be declared as the ball on (3.3(f)): refused.
    (
        "3.8(a)/3.3(f)",
        "after a red, touching a red: declaring the red is refused",
        [match(), pot("red", touching=["red"]), nominate("red")],
        {"error": "nominate: after a red the nominated ball must be a colour"},
    ),
    # On a red (no free ball) the cue ball rests against the pink, which cannot be on: declaring the
    # pink is refused (3.3(e): only a red, or a free ball as a red, is on).
    (
        "3.8(d)/3.3(e)",
        "on a red, touching the pink: declaring the pink is refused",
        [match(), safe("red", touching=["pink"]), nominate("pink")],
        {"error": "nominate: the striker is on a red; there is nothing to nominate"},
    ),
    # Reds on, free ball black nominated (Ben 7): a jump shot is a 3.12(a) foul, the value of the ball
    # on; the free ball takes the ball on's value (3.10(a)(ii)), a red's 1, so 4, not 7.
    (
        "3.12(a)/3.10(a)",
        "free ball black with reds on, a jump shot: four",
        [*FREE_ON_RED, nominate("black"), stroke(["black"], [], fouls=["jump_shot"])],
        {"penalty": 4, "fouls": ["jump_shot"], "score": [4, 7], "striker": 0},
    ),
    # Doubtful reading (see the module doc): after a red, the cue ball against the yellow only, no
    # colour declared, played away, nothing hit: the yellow is taken as the obvious nomination and
    # 3.8(c)(ii) applies: no foul; Ben to play.
    (
        "3.8(c)(ii)/2",
        "after a red, touching only the yellow, nothing declared, played away: no foul",
        [match(), pot("red", touching=["yellow"]), stroke([])],
        {"foul": False, "score": [1, 0], "striker": 1},
    ),
    # Malformed or contradictory lines: refused, naming the problem, the state unchanged ---------------
    # One cue ball: it cannot both drop into a pocket and leave the table.
    (
        "log",
        "the white listed both potted and off the table: refused",
        [match(), stroke(["red"], ["white"], off_table=["white"])],
        {"error": "the cue ball cannot be both potted and off the table"},
    ),
    # ``cue_ball`` says on the table, ``potted`` lists the white: contradictory, refused.
    (
        "log",
        "cue_ball on the table but the white listed as potted: refused",
        [match(), stroke(["red"], ["white"], cue_ball="on_table")],
        {"error": "cue_ball: 'on_table', but the white is listed as potted"},
    ),
    (
        "log",
        "cue_ball off the table but the white listed as potted: refused",
        [match(), stroke(["red"], ["white"], cue_ball="off_table")],
        {"error": "cue_ball: 'off_table', but the white is listed as potted"},
    ),
    # ``off_table`` as one plain name reads like a list of one (as elsewhere): the white off the table
    # after hitting a red is 3.12(b) with no value of its own: 4, in hand.
    (
        "log/3.12(b)",
        "off_table given as the plain name white: the cue ball off the table, four",
        [match(), stroke(["red"], [], off_table="white")],
        {"penalty": 4, "fouls": ["cue_ball_off_table"], "in_hand": True},
    ),
    # The cue ball cannot come to rest against a ball that left the table in the same stroke (a
    # colour re-spotted is placed touching nothing, 3.7(h)).
    (
        "log/3.8",
        "touching names the pink potted in the same stroke: refused",
        [match(), stroke(["red"], ["pink"], touching=["pink"])],
        {"error": "touching: the pink left the table in this stroke; the cue ball cannot rest against it"},
    ),
    (
        "log/3.8",
        "touching names the red (by its id) potted in the same stroke: refused",
        [match(), pot("red-1", touching=["red-1"])],
        {"error": "touching: the red left the table in this stroke; the cue ball cannot rest against it"},
    ),
    (
        "log/3.8",
        "touching names a red when the last red was potted in the stroke: refused",
        [*ONE_RED_LEFT, pot("red", touching=["red"])],
        {"error": "touching: the red left the table in this stroke; the cue ball cannot rest against it"},
    ),
    # A foul's ball concerned must be on the table (a ``foul`` line is refused alike).
    (
        "log/3.12(b)",
        "a stroke's foul names the yellow already potted for good: refused",
        [*ON_GREEN, stroke(["green"], [], fouls=[{"reason": "touched_ball", "ball": "yellow"}])],
        {"error": "fouls.ball: the yellow is not on the table"},
    ),
    # A stroke's ``nominated`` is held to what a ``nominate`` line may name: on a red with no free
    # ball there is nothing to nominate (3.3(e)); in the ascending phase only the colour on (3.3(f)).
    (
        "log/3.3(e)",
        "a stroke on a red naming the blue (no free ball): refused",
        [match(), stroke(["red"], ["red"], nominated="blue")],
        {"error": "nominated: the striker is on a red; there is nothing to nominate"},
    ),
    (
        "log/3.3(f)",
        "yellow on, a stroke naming the blue (no free ball): refused",
        [*ON_YELLOW, stroke(["blue"], [], nominated="blue")],
        {"error": "nominated: the yellow is on; no other ball can be nominated"},
    ),
    # CONTRACTS §1: the match line is the first line; a second one would silently wipe the match.
    (
        "log",
        "a match line after play has begun: refused",
        [match(), pot("red"), match()],
        {"error": "match: the match has already begun; a match line comes first in the log"},
    ),
    # 3.1(g): a match decided on frames is won by the player who wins more frames or the required
    # number; a best of two at 1-1 has all its frames played and nobody won more: the match is over,
    # drawn (no winner named), and no third frame can start.
    (
        "3.1(g)",
        "best of two, both frames played at 1-1: the match is over with no winner",
        LEVEL_AFTER_TWO,
        {"frames": [1, 1], "match_over": True, "match_winner": None, "status": "match_over"},
    ),
    (
        "log/3.1(g)",
        "best of two, both frames played at 1-1: no third frame",
        [*LEVEL_AFTER_TWO, NEW_FRAME],
        {"error": "the match is over; no further frames"},
    ),
    # An aggregate best of one conceded at 0-0: the aggregate is level after the last frame, so no
    # match winner yet (3.4(c)); whatever follows, it is not a second frame of a one-frame match.
    # (The twelfth audit: what follows is the re-spotted black of 3.4(c), still in frame 1.)
    (
        "log/3.4(c)",
        "aggregate best of one conceded at 0-0: no second frame",
        [match(aggregate=True), CONCEDE, NEW_FRAME],
        {"error": "frame 1 is not over: a re-spotted black decides it (3.4(b)-(c))"},
    ),
    # 3.14(c): a full-ball contact is a straight line to the centre of a ball on; with no line to any
    # part of one (``clear_path`` false) it cannot be open: contradictory, refused.
    (
        "log/3.14(c)",
        "full_ball true with clear_path false: refused",
        [match(), stroke(["black"], [], clear_path=False, full_ball=True)],
        {"error": "full_ball: no full-ball contact is open without a clear path to a ball on"},
    ),
    # 3.15 concerns a ball on the table; the cue ball in hand (the break) cannot be moved on it.
    (
        "log/3.15",
        "the cue ball moved by someone else while it is in hand: refused",
        [match(), {"type": "ball_moved", "ball": "white", "position": [100.0, 100.0]}],
        {"error": "ball_moved: the cue ball is in hand, not on the table"},
    ),
    # 3.9(b): a ball that fell from the edge before any ball in the stroke could hit it cannot be
    # the ball the cue ball hit first: contradictory, refused (not ruled as the pink hit first, 6).
    (
        "log/3.9(b)",
        "the pink both fell from the edge and was hit first: refused",
        [match(), stroke(["pink"], ["pink"], fell_from_edge=["pink"])],
        {"error": FELL_AND_HIT.format("pink")},
    ),
    (
        "log/3.9(b)",
        "a red (by its id) both fell from the edge and was hit first: refused",
        [match(), stroke(["red-4"], ["red-4"], fell_from_edge=["red-4"])],
        {"error": FELL_AND_HIT.format("red")},
    ),
    # A plain ``red`` names any red: one red hit first while another fell is no contradiction.
    (
        "3.9(b)(i)",
        "a red hit first while another red falls from the edge: no foul, replaced, Ann again",
        [match(), stroke(["red"], ["red"], fell_from_edge=["red"])],
        {"foul": False, "striker": 0, "reds": 15, "score": [0, 0]},
    ),
]


@over_checklist(CHECKLIST)
def test_fifth_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)


def test_an_unknown_foul_code_in_a_stroke_is_refused_naming_the_known_codes():
    ruling = rule([match(), stroke(["red"], [], fouls=["kicked_table"])])[-1]
    assert ruling["error"].startswith("fouls: unknown foul reason 'kicked_table'; known reasons: double_hit")


@pytest.mark.parametrize(
    "refused",
    [
        stroke(["red"], ["white"], off_table=["white"]),
        stroke(["red"], ["pink"], touching=["pink"]),
        stroke(["red"], [], nominated="red"),
        match(),
    ],
    ids=["cue ball twice", "touching a potted ball", "nominating a red after a red", "second match line"],
)
def test_a_refused_line_leaves_the_state_as_it_was(refused):
    # Ann pots a red (1), the contradictory line is refused, then she pots the black: 8, on a red.
    rulings = rule([match(), pot("red"), refused, pot("black")])
    assert "error" in rulings[2]
    assert {k: rulings[3][k] for k in ("score", "break", "ball_on", "striker")} == {
        "score": [8, 0],
        "break": 8,
        "ball_on": "red",
        "striker": 0,
    }
