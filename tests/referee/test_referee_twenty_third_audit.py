"""A twenty-third audit of the referee: a fresh read of the Polish text
(``../shared/rules/section3-rules-pl.txt``, the authority; the Chinese where the Polish is unclear)
aimed at combinations earlier audits likely missed.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling), worked out by hand
from the texts. Scores are ``[Ann, Ben]``; Ann breaks frame 1.

Fault found and fixed (rows marked "fault" fail on the code before):

- 3.5(b)/3.12(b): a ``foul`` line calling the cue ball touched while it was in hand was ruled a foul
  (four away, the options to the next player). 3.12(b) penalises "dotknięcie bili w grze inne, niż
  dotknięcie bili białej końcówką kija podczas wykonywania zagrania" (touching a ball *in play*),
  and 3.5(b) says of the cue ball in hand touched with the tip while it is placed "bila biała nie
  jest jeszcze w grze" (it is not yet in play; the Chinese: "則仍會被視為未生效狀態", still in hand,
  and 12(b)(vi) "碰觸到生效球", touching a ball in play). A cue ball in hand is not in play, so touching
  it (with the tip while placing it, by hand, by anyone) is no foul: the line is refused, the state
  unchanged, as ``edge_fall`` and ``ball_moved`` refuse a cue ball in hand. A stroke the referee
  judged attempted from hand is a stroke line, ruled as one.

- 3.17(e)/3.12(a): conferring with a partner "gdy jeden z nich jest rozgrywającym i znajduje się
  przy stole, oraz od rozpoczęcia przez rozgrywającego pierwszego zagrania do zakończenia breaku"
  takes the striker: a ``foul`` line naming the striker's partner was ruled as the foul of a player
  not to play (the penalty, the striker's break going on, no options). The partner confers with the
  striker, so it is the striker's own foul: his visit ends, the next player may ask him to play again.
  Whether the other side's partners may confer during his break the Polish leaves open ("od
  rozpoczęcia przez rozgrywającego pierwszego zagrania": the striker's, or his partner's?); that
  line keeps its ruling as a foul by a player not to play, documented in rules.py.

Confirmed (rows that pass before and after): the last red potted in a foul (no colour follows, the
yellow on), a free ball after the last red and the points remaining with it, a free ball as a red
potted with the last red, fouls potting several balls with a free ball (3.10, 3.12(b)), the foul on
the last black and on the re-spotted black (3.4), four-handed re-spotted black (3.17(d)), a foul that
leaves the striker needing snookers (3.14(b) "w wyniku wykonania tego zagrania"), two balls at once
after a red (3.12(c)), re-spotting when the black's spot is taken and the pink's own is free (3.7(d),
(e): a colour whose spot is free goes there first), and the black put below its spot on the centre
line when its line to the top cushion is taken (3.7(g)).
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    foul,
    lot,
    match,
    nominate,
    over_checklist,
    pot,
    rule,
    safe,
    stroke,
    table,
)

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import RefereeConfig

SPOTS = STANDARD_TABLE.spots
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
GEOMETRY = RefereeConfig().geometry
CLEAR = STANDARD_TABLE.ball_diameter_mm + GEOMETRY.touch_tolerance_mm + GEOMETRY.placement_gap_mm
"""How far from a ball a colour is re-spotted when it may not touch it (3.7(h)), mm."""
CX = STANDARD_TABLE.centre_x_mm
BLACK_Y = SPOTS["black"][1]
TOUCHED_WHITE = foul("touched_ball", "white")


def place(**balls: tuple[float, float]) -> dict[str, list[float]]:
    """Places in mm keyed by ball id (``red_1`` → ``red-1``)."""
    return {name.replace("_", "-"): [float(x), float(y)] for name, (x, y) in balls.items()}


def on_spots(*colours: str) -> dict[str, list[float]]:
    return {c: [float(SPOTS[c][0]), float(SPOTS[c][1])] for c in colours}


# --- 1. 3.5(b)/3.12(b): the cue ball in hand is not in play -------------------------------------
# Ann safe on a red, Ben goes in-off it: four to Ann, who plays on from hand (3.3(h)).
IN_OFF = [match(), safe("red"), stroke(["red"], ["white"]), {"type": "decision", "choice": "play"}]
IN_HAND_REFUSED = [
    (
        "3.5(b) 3.12(b) fault",
        "the break-off: Ann touches the cue ball in hand while placing it in the D: no foul, refused",
        [match(), TOUCHED_WHITE],
    ),
    (
        "3.5(b) 3.12(b) fault",
        "after Ann's in-off, Ben plays on and touches the cue ball in hand placing it: refused",
        [match(), stroke(["red"], ["white"]), {"type": "decision", "choice": "play"}, TOUCHED_WHITE],
    ),
    (
        "3.5(b) 3.12(b) fault",
        "after Ann's in-off, before Ben decides, Ann touches the cue ball in hand: refused",
        [match(), stroke(["red"], ["white"]), foul("touched_ball", "white", player=0)],
    ),
    (
        "3.5(b) 3.12(b) fault",
        "the break-off: Ben (not to play) touches the cue ball in hand: refused",
        [match(), foul("touched_ball", "white", player=1)],
    ),
]


@over_checklist([(r, n, lines, {}) for r, n, lines in IN_HAND_REFUSED])
def test_touching_the_cue_ball_in_hand_is_no_foul(lines: list[Any], expected: dict[str, Any]) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings[:-1]), rulings
    assert "error" in rulings[-1], rulings[-1]
    assert "3.5(b)" in rulings[-1]["error"]


IN_HAND = [
    (
        "3.5(b) fault",
        "the touch refused, Ann breaks off hitting a red: the state as if it never was, 0-0, Ben on",
        [match(), TOUCHED_WHITE, safe("red")],
        {"score": [0, 0], "striker": 1, "foul": False, "ball_on": "red", "in_hand": False},
    ),
    (
        "3.12(b)",
        "the cue ball on the table (Ann on a red) touched: a ball in play, four, the options to Ben",
        [match(), safe("red"), safe("red"), TOUCHED_WHITE],
        {"score": [0, 4], "striker": 1, "foul": True, "penalty": 4, "options": ["play", "play_again"]},
    ),
    (
        "3.12(b)",
        "in hand, Ann touches the pink (in play) while placing the cue ball: six",
        [match(), foul("touched_ball", "pink")],
        {"score": [0, 6], "striker": 1, "foul": True, "penalty": 6, "fouls": ["touched_ball"]},
    ),
    (
        "3.12(b)",
        "Ann in hand after Ben's in-off pots a red from the D: scores, in play",
        [*IN_OFF, pot("red")],
        {"score": [5, 0], "striker": 0, "in_hand": False, "ball_on": "colour"},
    ),
]


@over_checklist(IN_HAND)
def test_the_cue_ball_in_hand_and_in_play(lines: list[Any], expected: dict[str, Any]) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r, line in zip(rulings, lines, strict=True) if line is not TOUCHED_WHITE)
    assert "error" not in rulings[-1], rulings[-1]
    assert {key: rulings[-1].get(key) for key in expected} == expected


# --- 1b. 3.17(e)/3.12(a): conferring takes the striker ---------------------------------------------
# Four-handed: Ann and Cat (side 0) against Ben and Dan (side 1), the order Ann, Ben, Cat, Dan.
FOUR = match(players=4)
ANN_ON_BLACK = [FOUR, pot("red"), nominate("black")]  # Ann 1-0, the black nominated

CONFERRING = [
    (
        "3.17(e) 3.12(a) fault",
        "Ann on the black (nominated) confers with Cat, the line naming Cat: Ann's foul, seven, Ben on",
        [*ANN_ON_BLACK, foul("conferring", player=2)],
        {"score": [1, 7], "striker": 1, "break": 0, "offender": 0, "options": ["play", "play_again"]},
    ),
    (
        "3.17(e) 3.11(h) fault",
        "... Ben asks the offender to play again: Ann (the striker who conferred), on a red",
        [*ANN_ON_BLACK, foul("conferring", player=2), {"type": "decision", "choice": "play_again"}],
        {"score": [1, 7], "striker": 0, "ball_on": "red"},
    ),
    (
        "3.17(e) 3.12(a) fault",
        "Ann about to break off confers with Cat (named): four to Ben's side, Ben to play",
        [FOUR, foul("conferring", player=2)],
        {"score": [0, 4], "striker": 1, "offender": 0, "status": "decision"},
    ),
    (
        "3.17(e) 3.12(a)",
        "Ann on the black confers with Cat, the line naming nobody: the striker's foul, seven",
        [*ANN_ON_BLACK, foul("conferring")],
        {"score": [1, 7], "striker": 1, "offender": 0},
    ),
    (
        "3.17(e) 3.14(h) (documented)",
        "Ben and Dan (not to play) confer during Ann's break: as if striker, four to Ann, Ann plays on",
        [*ANN_ON_BLACK, foul("conferring", player=1)],
        {"score": [8, 0], "striker": 0, "break": 1, "offender": 1, "options": []},
    ),
    (
        "3.17(e) 3.14(h) (documented)",
        "... after Ann's conferring foul, Dan confers while Ben decides (not yet at the table): as if"
        " striker, four to Ann's side, Ben's decision still open",
        [*ANN_ON_BLACK, foul("conferring", player=2), foul("conferring", player=3)],
        {
            "score": [5, 7],
            "striker": 1,
            "offender": 3,
            "status": "decision",
            "options": ["play", "play_again"],
        },
    ),
]


@over_checklist(CONFERRING)
def test_conferring_is_the_strikers_foul(lines: list[Any], expected: dict[str, Any]) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings), [r for r in rulings if "error" in r]
    assert {key: rulings[-1].get(key) for key in expected} == expected


# --- 2. combinations: the last red, free balls, several balls potted in a foul -----------------
LAST_RED_ANN = table(reds=1, ball_on="red", score=[0, 0], striker=0)
LAST_RED_BEN = table(reds=1, ball_on="red", score=[0, 0], striker=1)
FREE_BALL_ON_RED = [match(), safe("red"), stroke([], free_ball=True)]  # Ben missed: 4-0, Ann's free ball
FREE_BALL_LAST_RED = [match(), LAST_RED_BEN, stroke([], free_ball=True)]  # 4-0, one red, Ann's free ball
FREE_BALL_ON_YELLOW = [
    match(),
    table(reds=0, ball_on="yellow", score=[0, 0], striker=1),
    stroke([], free_ball=True),
]  # Ben missed the yellow: 4-0, Ann's free ball on the yellow

COMBINATIONS = [
    (
        "3.3(f) 3.11(e)",
        "the last red potted with the cue ball: no score, no colour follows, Ben on the yellow, 27 left",
        [match(), LAST_RED_ANN, stroke(["red"], ["red", "white"])],
        {"score": [0, 4], "reds": 0, "ball_on": "yellow", "points_remaining": 27, "in_hand": True},
    ),
    (
        "3.3(f) 3.10",
        "... Ben snookered on the yellow: a free ball, 29 left (the free ball counts as the yellow)",
        [match(), LAST_RED_ANN, stroke(["red"], ["red", "white"], free_ball=True)],
        {"free_ball": True, "ball_on": "yellow", "points_remaining": 29},
    ),
    (
        "3.3(f) 3.10(c)",
        "the last red potted, a foul on the colour, Ben's free ball (green) potted: two, the green back",
        [
            match(),
            LAST_RED_ANN,
            pot("red"),
            stroke(["black"], [], nominated="pink", free_ball=True),
            stroke(["green"], ["green"], nominated="green"),
        ],
        {"score": [1, 9], "points": 2, "respotted": ["green"], "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.3(e) 3.10(e)",
        "one red left: the free ball (blue) as a red potted with the last red: two, a colour next, 34 left",
        [*FREE_BALL_LAST_RED, stroke(["blue"], ["blue", "red"], nominated="blue")],
        {"points": 2, "reds": 0, "ball_on": "colour", "respotted": ["blue"], "points_remaining": 34},
    ),
    (
        "3.3(e) 3.10(c)",
        "one red left: the free ball (blue) alone potted as a red: one, a colour next, the red and 42 left",
        [*FREE_BALL_LAST_RED, stroke(["blue"], ["blue"], nominated="blue")],
        {"points": 1, "reds": 1, "ball_on": "colour", "points_remaining": 42},
    ),
    (
        "3.10 points remaining",
        "one red left and a free ball: 43 (the red and black, the colours, the free ball as a red and black)",
        FREE_BALL_LAST_RED,
        {"points_remaining": 43, "free_ball": True, "ball_on": "red"},
    ),
    (
        "3.10(a) 3.12(b) 3.3(g)",
        "the free ball (blue), a red and the black potted: seven, the red stays down, black and blue back",
        [*FREE_BALL_ON_RED, stroke(["blue"], ["blue", "red", "black"], nominated="blue")],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "reds": 14, "respotted": ["black", "blue"]},
    ),
    (
        "3.10(a) 3.12(a) 3.3(g)",
        "the free ball (blue), the last red and the cue ball potted: four, no reds, Ben on the yellow",
        [*FREE_BALL_LAST_RED, stroke(["blue"], ["blue", "red", "white"], nominated="blue")],
        {"penalty": 4, "score": [4, 4], "reds": 0, "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.10(a) 3.12(c)",
        "yellow on: the pink as free ball and the black hit at once: the black's seven",
        [*FREE_BALL_ON_YELLOW, stroke(["pink", "black"], [], nominated="pink")],
        {"penalty": 7, "fouls": ["two_balls_at_once"], "score": [4, 7]},
    ),
    (
        "3.10(a) 3.12(b)",
        "yellow on: the pink as free ball hit, pink, yellow and brown potted: the brown's four, all back",
        [*FREE_BALL_ON_YELLOW, stroke(["pink"], ["pink", "yellow", "brown"], nominated="pink")],
        {"penalty": 4, "score": [4, 4], "respotted": ["pink", "brown", "yellow"], "ball_on": "yellow"},
    ),
    (
        "3.12(c)",
        "after a red, the green nominated: the green and the black hit at once: seven",
        [match(), pot("red"), stroke(["green", "black"], [], nominated="green")],
        {"penalty": 7, "fouls": ["two_balls_at_once"], "score": [1, 7]},
    ),
    (
        "3.12(c) 3.3(g)",
        "on a red: a red and the black hit at once, the red potted: seven, the red stays down",
        [match(), stroke(["red", "black"], ["red"])],
        {"penalty": 7, "score": [0, 7], "reds": 14, "points": 0},
    ),
    (
        "3.12(a)/(b) 3.11(g)",
        "on a red: a jump shot over a red onto the black: the black's seven (the highest foul)",
        [match(), stroke(["black"], [], fouls=["jump_shot"])],
        {"penalty": 7, "fouls": ["wrong_ball_first", "jump_shot"]},
    ),
    (
        "3.14(b)",
        "yellow on, 0-24, 27 left: Ann misses with a line open; the four make her need snookers: no miss",
        [
            match(),
            table(reds=0, ball_on="yellow", score=[0, 24], striker=0),
            stroke([], clear_path=True, full_ball=False),
        ],
        {"miss": False, "score": [0, 28], "snookers_required": [1, 0], "options": ["play", "play_again"]},
    ),
    (
        "3.14(b)",
        "... 0-23: nobody needs snookers before or after: foul and a miss",
        [
            match(),
            table(reds=0, ball_on="yellow", score=[0, 23], striker=0),
            stroke([], clear_path=True, full_ball=False),
        ],
        {"miss": True, "score": [0, 27], "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.12(d) 3.10(a)",
        "Ann's free ball nominated as the pink, then she touches the yellow: four (not before a colour)",
        [*FREE_BALL_ON_RED, nominate("pink"), foul("touched_ball", "yellow")],
        {"penalty": 4, "fouls": ["touched_ball"], "score": [4, 4]},
    ),
    (
        "3.12(d)",
        "Ann's free ball potted as a red, then she touches the yellow before nominating: seven",
        [*FREE_BALL_ON_RED, stroke(["blue"], ["blue"], nominated="blue"), foul("touched_ball", "yellow")],
        {"penalty": 7, "score": [5, 7]},
    ),
]


@over_checklist(COMBINATIONS)
def test_combinations_of_fouls_free_balls_and_the_last_red(
    lines: list[Any], expected: dict[str, Any]
) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings), [r for r in rulings if "error" in r]
    assert {key: rulings[-1].get(key) for key in expected} == expected


# --- 3. 3.4 the end of the frame on fouls; 3.17(d) the re-spotted black four-handed -------------
# Only the black left, Ben 7 ahead, Ben to play.
LAST_BLACK = table(reds=0, colours=["black"], ball_on="black", score=[0, 7], striker=1)
TIED = [match(), LAST_BLACK, stroke([])]  # Ben misses the black: 7-7, a re-spotted black

FRAME_END = [
    (
        "3.4(a)/(b)",
        "Ben misses the last black: seven to Ann, 7-7: a re-spotted black, the lot to draw",
        TIED,
        {"score": [7, 7], "respotted_black": True, "status": "respotted_black_lot", "in_hand": True},
    ),
    (
        "3.4(a)",
        "Ben goes in-off the last black 10 ahead: seven to Ann, 7-10, frame to Ben",
        [
            match(),
            table(reds=0, colours=["black"], ball_on="black", score=[0, 10], striker=1),
            stroke(["black"], ["black", "white"]),
        ],
        {"score": [7, 10], "frame_over": True, "winner": 1, "points_remaining": 0},
    ),
    (
        "3.4(b)",
        "the re-spotted black, Ann first by lot, misses it: 7-14, frame to Ben",
        [*TIED, lot(0), stroke([])],
        {"score": [7, 14], "frame_over": True, "winner": 1},
    ),
    (
        "3.4(b) 3.14",
        "the re-spotted black, Ann pots it and the cue ball: seven to Ben, frame to Ben, no miss",
        [*TIED, lot(0), stroke(["black"], ["black", "white"])],
        {"score": [7, 14], "winner": 1, "miss": False, "points": 0},
    ),
    (
        "3.4(b) 3.14(h)",
        "the re-spotted black, Ann first, Ben touches the black: penalised as striker, frame to Ann",
        [*TIED, lot(0), foul("touched_ball", "black", player=1)],
        {"score": [14, 7], "winner": 0, "offender": 1},
    ),
    (
        "3.4(b)",
        "the re-spotted black, Ann first, safe: Ben to play, neither scored",
        [*TIED, lot(0), safe("black")],
        {"score": [7, 7], "striker": 1, "frame_over": False, "points_remaining": 7},
    ),
    (
        "3.17(d)",
        "four-handed: the pair that plays first picks Cat, safe: the order goes on, Dan to play",
        [match(players=4), LAST_BLACK, stroke([]), lot(2), safe("black")],
        {"striker": 3, "respotted_black": True},
    ),
    (
        "3.17(d)",
        "four-handed: Ben's pair wins the lot and picks Ben, safe: Cat to play",
        [match(players=4), LAST_BLACK, stroke([]), lot(1), safe("black")],
        {"striker": 2, "respotted_black": True},
    ),
]


@over_checklist(FRAME_END)
def test_the_end_of_the_frame_on_fouls(lines: list[Any], expected: dict[str, Any]) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings), [r for r in rulings if "error" in r]
    assert {key: rulings[-1].get(key) for key in expected} == expected


# --- 4. 3.7(d)-(g): re-spotting several colours on occupied spots -------------------------------
# Five reds up the table off the centre line, every colour on its spot, the white open; Ann on a red.
START = {
    **on_spots(*COLOURS),
    **place(red_1=(300, 3000), red_2=(1500, 3000), red_3=(300, 2900), red_4=(1500, 2900)),
    **place(red_5=(300, 2800), red_6=(1500, 2800), white=(800, 2000)),
}
# The black's line up to the top cushion, and its spot, taken by six reds spaced a clearance apart.
COLUMN = {f"red-{k + 1}": [float(CX), BLACK_Y + k * CLEAR] for k in range(6)}


def respot_table(places: dict[str, list[float]]) -> dict[str, Any]:
    return table(reds=6, ball_on="red", cue_in_hand=False, positions=places, striker=0, score=[0, 0])


def foul_after(potted: list[str], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Ann hits the first of ``potted`` (not on: she is on a red) and pots them all."""
    left = {k: v for k, v in after.items() if k not in potted}
    return stroke([potted[0]], potted, positions={"before": before, "after": left})


RESPOT = [
    (
        "3.7(d)/(e)",
        "black and pink potted, a red on the black spot, the pink's free, the blue's too: pink home, "
        "black on the blue spot (the highest free once the pink is home)",
        [
            match(),
            respot_table(START),
            foul_after(["pink", "black"], START, {**START, **place(red_1=SPOTS["black"], blue=(300, 1500))}),
        ],
        {
            "penalty": 7,
            "respotted": [
                {"ball": "black", "position": [SPOTS["blue"][0], SPOTS["blue"][1]]},
                {"ball": "pink", "position": [SPOTS["pink"][0], SPOTS["pink"][1]]},
            ],
        },
    ),
    (
        "3.7(g)",
        "the black potted, its spot and its line up to the top cushion taken by reds, every spot taken: "
        "on the centre line as near as it can below its spot",
        [
            match(),
            respot_table({**START, **COLUMN}),
            foul_after(["black"], {**START, **COLUMN}, {**START, **COLUMN}),
        ],
        {"respotted": [{"ball": "black", "position": [float(CX), round(BLACK_Y - CLEAR, 2)]}]},
    ),
]


@over_checklist(RESPOT)
def test_respotting_on_occupied_spots(lines: list[Any], expected: dict[str, Any]) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings), [r for r in rulings if "error" in r]
    got = {key: rulings[-1].get(key) for key in expected}
    if "respotted" in got:
        got["respotted"] = [
            {"ball": r["ball"], "position": [round(v, 2) for v in r["position"]]} for r in got["respotted"]
        ]
    assert got == expected
