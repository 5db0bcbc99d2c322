"""A second, independent audit of the referee against Section 3, for the cases the first left open.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling). The expected values
were worked out by hand from the texts (``../shared/rules/section3-rules-pl.txt`` and ``-zh.txt``,
authoritative where the English digest is terse), not from the referee's output. Scores are
``[Ann, Ben]`` (four-handed: ``[side 0, side 1]``). The set-ups are the first audit's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    lot,
    match,
    over_checklist,
    pot,
    referee_after,
    rule,
    safe,
    stroke,
)
from test_referee_audit import (
    CONCEDE,
    FREE_ON_RED,
    FREE_ON_YELLOW,
    NEW_FRAME,
    ON_BLACK,
    ON_COLOUR,
    ON_GREEN,
    ON_PINK,
    ON_YELLOW,
    PLAY,
    PLAY_AGAIN,
    REPLACE,
    TIE,
    foul,
    miss_stroke,
    nominate,
    tie_before_the_last_black,
)

from snooker.balls import COLOURS
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import announce
from snooker.referee.reasons import MAX_PENALTY, MIN_PENALTY, FoulReason

CX = STANDARD_TABLE.centre_x_mm
BAULK_Y = STANDARD_TABLE.baulk_line_y_mm
D_RADIUS = STANDARD_TABLE.d_radius_mm
BLACK_SPOT = list(STANDARD_TABLE.spots["black"])
OUTSIDE_D_MM = 10.0
"""How far beyond the D's lines an in-hand cue ball is put for the improper placements (well past
the referee's measurement tolerance)."""

BLUE_SPOT = list(STANDARD_TABLE.spots["blue"])
PARTLY_HIDDEN = {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [CX + 70.0, 1900.0]}
"""After Ann's safety: the blue hides part of the only red tracked, not all of it (3.14(b) path open)."""
FULL_WIDTH_OPEN = {"white": [CX, 1000.0], "blue": BLUE_SPOT, "red-1": [CX + 150.0, 1900.0]}
"""The same red moved clear of the blue's shadow: its full width is open (3.14(c))."""

# Ann misses the pink and leaves Ben a free ball: Ben 6, pink on, only pink and black left.
FREE_ON_PINK = [*ON_PINK, stroke([], free_ball=True)]
# Ben plays the free ball black and pots the pink off it: Ben 12, black on.
PINK_OFF_THE_FREE_BALL = [*FREE_ON_PINK, nominate("black"), stroke(["black"], ["pink"])]


def edge_fall(ball: str) -> dict[str, Any]:
    return {"type": "edge_fall", "ball": ball}


def in_hand_at(x: float, y: float, ball: str = "red") -> dict[str, Any]:
    """A stroke from in hand with the cue ball placed at (x, y) mm, hitting ``ball`` first."""
    return safe(ball, positions={"before": {"white": [x, y]}})


def tied_with_positions() -> list[dict[str, Any]]:
    """The first audit's tie, the black potted by a tracked stroke (positions known)."""
    return [
        *tie_before_the_last_black(),
        safe("black"),
        pot("black", positions={"after": {"white": [CX, 2000.0]}}),
    ]


CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # penalty values in combination (3.10(a), 3.12) ------------------------------------------------
    (
        "3.10(a)/3.12(b)",
        "free ball pink nominated with reds on, the pink touched before the stroke: four",
        [*FREE_ON_RED, nominate("pink"), foul("touched_ball", "pink")],
        {"penalty": 4, "score": [4, 7], "striker": 0, "fouls": ["touched_ball"]},
    ),
    (
        "3.12(b)",
        "free ball pink nominated with reds on, the black touched before the stroke: seven",
        [*FREE_ON_RED, nominate("pink"), foul("touched_ball", "black")],
        {"penalty": 7, "score": [7, 7]},
    ),
    (
        "3.10(a)/3.12(b)",
        "ascending, yellow on, free ball black nominated and touched before the stroke: four",
        [*FREE_ON_YELLOW, nominate("black"), foul("touched_ball", "black")],
        {"penalty": 4, "score": [52, 4], "striker": 0},
    ),
    (
        "3.10(a)/3.12(a)",
        "free ball black with reds on, an in-off off the black: four",
        [*FREE_ON_RED, nominate("black"), stroke(["black"], cue_ball="potted")],
        {"penalty": 4, "score": [4, 7], "fouls": ["cue_ball_potted"], "in_hand": True},
    ),
    (
        "3.10(a)/3.12(a)",
        "free ball black with reds on, potted with an in-off: four, the black re-spotted",
        [*FREE_ON_RED, nominate("black"), stroke(["black"], ["black"], cue_ball="potted")],
        {"penalty": 4, "score": [4, 7], "respotted": ["black"], "reds": 15},
    ),
    (
        "3.10/3.12(b)",
        "free ball pink with reds on, the yellow potted off it: four",
        [*FREE_ON_RED, nominate("pink"), stroke(["pink"], ["yellow"])],
        {"penalty": 4, "fouls": ["potted_ball_not_on"], "respotted": ["yellow"]},
    ),
    (
        "3.10/3.12(a)",
        "only pink and black, free ball black nominated, nothing hit: six",
        [*FREE_ON_PINK, nominate("black"), stroke([])],
        {"penalty": 6, "score": [68, 6], "ball_on": "pink", "striker": 0},
    ),
    (
        "3.10(a)/3.12(a)",
        "only pink and black, free ball black, an in-off off the black: six (the pink's value)",
        [*FREE_ON_PINK, nominate("black"), stroke(["black"], cue_ball="potted")],
        {"penalty": 6, "score": [68, 6], "in_hand": True},
    ),
    (
        "3.10(a)/3.12(a)",
        "ascending, yellow on, free ball blue potted with an in-off: four, the blue re-spotted",
        [*FREE_ON_YELLOW, nominate("blue"), stroke(["blue"], ["blue"], cue_ball="potted")],
        {"penalty": 4, "score": [52, 4], "respotted": ["blue"], "ball_on": "yellow"},
    ),
    (
        "3.10/3.12(a)",
        "ascending, yellow on, free ball green nominated, nothing hit: four",
        [*FREE_ON_YELLOW, nominate("green"), stroke([])],
        {"penalty": 4, "score": [52, 4]},
    ),
    (
        "3.12(d)",
        "after a red, two reds at once with no colour named: seven for playing at reds",
        [*ON_COLOUR, stroke(["red", "red"])],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"], "score": [1, 7]},
    ),
    (
        "3.12(d)",
        "after a red, a red and the blue at once with no colour named: seven",
        [*ON_COLOUR, stroke(["red", "blue"])],
        {"penalty": 7, "score": [1, 7]},
    ),
    (
        "3.12(a)",
        "out of turn after the opponent's red, a red hit first: four (he potted no red)",
        [*ON_COLOUR, safe("red", player=1)],
        {"penalty": 4, "score": [5, 0], "striker": 0, "options": ["play", "play_again"]},
    ),
    (
        "3.12(a)",
        "out of turn after the opponent's red, the black hit first: seven",
        [*ON_COLOUR, safe("black", player=1)],
        {"penalty": 7, "score": [8, 0]},
    ),
    (
        "3.12(b)",
        "yellow nominated, the black hit first: seven",
        [*ON_COLOUR, nominate("yellow"), safe("black")],
        {"penalty": 7, "score": [1, 7], "fouls": ["wrong_ball_first"]},
    ),
    (
        "3.12(b)",
        "black nominated, the yellow hit first: seven",
        [*ON_COLOUR, nominate("black"), safe("yellow")],
        {"penalty": 7, "score": [1, 7]},
    ),
    (
        "3.12(c)",
        "yellow nominated, yellow and green at once: four",
        [*ON_COLOUR, nominate("yellow"), stroke(["yellow", "green"])],
        {"penalty": 4, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.12(c)",
        "on a red, a red and the pink at once: six",
        [match(), stroke(["red", "pink"])],
        {"penalty": 6, "fouls": ["two_balls_at_once"], "score": [0, 6]},
    ),
    (
        "3.12(b)",
        "pink on, the cue ball touched before the stroke: six (the cue ball has no value)",
        [*ON_PINK, foul("touched_ball", "white")],
        {"penalty": 6, "score": [62, 6], "fouls": ["touched_ball"], "striker": 1},
    ),
    (
        "3.12(b)",
        "red on, the cue ball touched in the stroke: four",
        [match(), safe("red", fouls=[{"reason": "touched_ball", "ball": "white"}])],
        {"penalty": 4, "score": [0, 4]},
    ),
    (
        "3.12(a)",
        "after a red, the pink named in the stroke, nothing hit: six, not seven",
        [*ON_COLOUR, stroke([], nominated="pink")],
        {"penalty": 6, "fouls": ["missed_all_balls"]},
    ),
    (
        "3.12(d)",
        "after a red, no colour named, the cue ball off the table having hit nothing: seven",
        [*ON_COLOUR, stroke([], cue_ball="off_table")],
        {"penalty": 7, "in_hand": True, "striker": 1},
    ),
    # ball on and re-spotting after every kind of stroke ------------------------------------------
    (
        "3.10(d)",
        "only pink and black: the pink potted off the free ball scores and stays down",
        PINK_OFF_THE_FREE_BALL,
        {
            "score": [62, 12],
            "ball_on": "black",
            "colours": ["black"],
            "respotted": [],
            "striker": 1,
            "break": 6,
            "frame_over": False,
        },
    ),
    (
        "3.4(a)",
        "then the black potted ends the frame",
        [*PINK_OFF_THE_FREE_BALL, pot("black")],
        {"score": [62, 19], "frame_over": True, "winner": 0},
    ),
    (
        "3.10(e)",
        "only pink and black: free ball black and the pink both potted, only the pink scores",
        [*FREE_ON_PINK, nominate("black"), stroke(["black"], ["black", "pink"])],
        {"score": [62, 12], "respotted": ["black"], "ball_on": "black", "colours": ["black"]},
    ),
    (
        "3.10(d)",
        "reds on: two reds potted off the free ball score two, then a colour",
        [*FREE_ON_RED, nominate("blue"), stroke(["blue"], ["red", "red"])],
        {"score": [0, 9], "reds": 13, "ball_on": "colour", "respotted": [], "striker": 1},
    ),
    (
        "3.10(b)(i)/(d)",
        "ascending: free ball and the ball on hit together, the ball on potted: scores, stays down",
        [*FREE_ON_YELLOW, nominate("green"), stroke(["green", "yellow"], ["yellow"])],
        {"foul": False, "score": [48, 6], "ball_on": "green", "respotted": []},
    ),
    (
        "3.3(e)/3.13",
        "play again after a foul on a colour: a new turn, on a red",
        [*ON_COLOUR, nominate("blue"), safe("pink"), PLAY_AGAIN],
        {"striker": 0, "ball_on": "red", "score": [1, 6], "break": 0, "free_ball": False},
    ),
    (
        "3.3(f)/3.13",
        "play again in the ascending phase: on the lowest colour",
        [*ON_GREEN, safe("black"), PLAY_AGAIN],
        {"striker": 0, "ball_on": "green", "score": [50, 7]},
    ),
    (
        "3.4(b)",
        "a tie: the black is re-spotted now",
        TIE,
        {"respotted": ["black"], "respotted_black": True, "in_hand": True},
    ),
    (
        "3.4(b)",
        "a tie with the positions known: the black on its spot",
        tied_with_positions(),
        {"respotted": [{"ball": "black", "position": BLACK_SPOT}], "in_hand": True, "score": [36, 36]},
    ),
    (
        "3.4(a)",
        "the last black potted in a foul: the frame is over, nothing re-spotted",
        [*ON_BLACK, stroke(["black"], ["black"], cue_ball="potted")],
        {"frame_over": True, "winner": 0, "respotted": [], "score": [68, 7], "penalty": 7},
    ),
    (
        "3.4(b)",
        "the lot for a re-spotted black is drawn once",
        [*TIE, lot(0), lot(1)],
        {"error": "respotted_black: the lot for the re-spotted black has already been drawn (3.4(b))"},
    ),
    (
        "3.4(a)",
        "the non-striker touches the black when only the black is left: the frame is over",
        [*ON_BLACK, safe("black"), foul("touched_ball", "black", player=0)],
        {"frame_over": True, "winner": 0, "score": [68, 7], "penalty": 7},
    ),
    (
        "3.4(a)-(b)",
        "the non-striker's foul ties the scores on the last black: re-spotted black",
        [*tie_before_the_last_black(), safe("black"), foul("touched_ball", "black", player=0)],
        {"score": [36, 36], "frame_over": False, "respotted_black": True, "respotted": ["black"]},
    ),
    # 3.9 ball on the edge of a pocket ---------------------------------------------------------
    (
        "3.9(a)",
        "the cue ball falls in by itself: replaced, no foul",
        [match(), safe("red"), edge_fall("white")],
        {"foul": False, "striker": 1, "score": [0, 0], "in_hand": False, "announcements": ["BALL REPLACED"]},
    ),
    (
        "3.9(a)",
        "a cue ball in hand cannot fall from the edge",
        [match(), edge_fall("white")],
        {"error": "edge_fall: the cue ball is in hand, not on the table"},
    ),
    (
        "3.9(b)",
        "a ball not on the table cannot fall from the edge",
        [*ON_GREEN, stroke(["green"], ["green"], fell_from_edge=["yellow"])],
        {"error": "fell_from_edge: the yellow is not on the table"},
    ),
    (
        "3.9(b)",
        "no foul after a red: balls replaced, the striker plays again, still on a colour",
        [*ON_COLOUR, nominate("blue"), stroke(["blue"], ["blue"], fell_from_edge=["pink"])],
        {
            "score": [1, 0],
            "striker": 0,
            "ball_on": "colour",
            "announcements": ["BALLS REPLACED", "PLAY AGAIN"],
        },
    ),
    # 3.14 foul and a miss ----------------------------------------------------------------------
    (
        "3.14(a)/3.10",
        "replace after a missed free ball: the free ball stands, the same ball on",
        [*FREE_ON_RED, nominate("blue"), miss_stroke(), REPLACE],
        {"striker": 1, "free_ball": True, "score": [4, 7], "ball_on": "red", "points_remaining": 155},
    ),
    (
        "3.14/3.10",
        "a miss that leaves the next player snookered: FOUL AND A MISS, FREE BALL",
        [match(), miss_stroke(free_ball=True)],
        {
            "announcements": ["FOUL AND A MISS", "FOUR AWAY", "FREE BALL"],
            "free_ball": True,
            "options": ["play", "play_again", "replace"],
        },
    ),
    (
        "3.10(f)/3.14(a)",
        "that miss replaced: the offender plays again, no free ball",
        [match(), miss_stroke(free_ball=True), REPLACE],
        {"free_ball": False, "striker": 0, "points_remaining": 147},
    ),
    (
        "3.14(c)",
        "the warning is given when the offender is asked to replay after the second miss",
        [match(), *[miss_stroke(full_ball=True), REPLACE] * 2],
        {"warning": True, "announcements": [announce.BALLS_REPLACED, announce.MISS_WARNING]},
    ),
    (
        "3.14(c)",
        "the third miss awards the frame: nothing is left to re-spot",
        [
            match(best_of=3),
            *[miss_stroke(full_ball=True), REPLACE] * 2,
            miss_stroke(["pink"], potted=["pink"], full_ball=True),
        ],
        {"frame_over": True, "winner": 1, "respotted": [], "score": [0, 14]},
    ),
    (
        "3.14(c)",
        "positions: part of a red open behind the blue, not its full width: no award on the third miss",
        [match(), safe("red", positions={"after": PARTLY_HIDDEN}), *[stroke([]), REPLACE] * 2, stroke([])],
        {"miss": True, "frame_over": False, "warning": False, "score": [12, 0]},
    ),
    (
        "3.14(c)",
        "positions: the full width of a red open: the third miss awards the frame",
        [match(), safe("red", positions={"after": FULL_WIDTH_OPEN}), *[stroke([]), REPLACE] * 2, stroke([])],
        {"miss": True, "frame_over": True, "winner": 0, "score": [12, 0]},
    ),
    # 3.8 touching ball -----------------------------------------------------------------------
    (
        "3.8(c)(i)",
        "touching a red: played away, the black hit after it: no foul",
        [match(), safe("red", touching=["red"]), safe("black")],
        {"foul": False, "striker": 0, "score": [0, 0]},
    ),
    (
        "3.8(c)(i)",
        "touching a red: played away, a red potted: it scores",
        [match(), safe("red", touching=["red"]), stroke(["black"], ["red"])],
        {"foul": False, "score": [0, 1], "ball_on": "colour", "striker": 1},
    ),
    (
        "3.8/3.12(b)",
        "touching a red: played away, the black potted: seven",
        [match(), safe("red", touching=["red"]), stroke(["black"], ["black"])],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "respotted": ["black"], "score": [7, 0]},
    ),
    (
        "3.8(c)(ii)",
        "after a red, touching the yellow, nominated: played away, nothing hit: no foul",
        [match(), pot("red", touching=["yellow"]), nominate("yellow"), stroke([])],
        {"foul": False, "striker": 1, "score": [1, 0]},
    ),
    (
        "3.8(c)(iii)",
        "after a red, touching the yellow, the blue nominated and hit first: no foul",
        [match(), pot("red", touching=["yellow"]), nominate("blue"), safe("blue")],
        {"foul": False, "striker": 1},
    ),
    (
        "3.8(d)",
        "after a red, touching a red (not on), the pink nominated, nothing hit: six",
        [match(), pot("red", touching=["red"]), nominate("pink"), stroke([])],
        {"penalty": 6, "score": [1, 6]},
    ),
    (
        "3.8(d)",
        "touching a ball not on is not called",
        [match(), safe("red", touching=["pink"])],
        {"announcements": [], "touching": []},
    ),
    (
        "3.8(e)",
        "touching a ball on and a ball not on: only the ball on is named",
        [match(), safe("red", touching=["pink", "red-3"])],
        {"announcements": ["TOUCHING BALL"], "touching": ["red-3"]},
    ),
    (
        "3.8(a)/3.10",
        "after a foul with a free ball, a touching colour can be on: named",
        [match(), safe("black", free_ball=True, touching=["pink"])],
        {"announcements": ["FOUL", "SEVEN AWAY", "FREE BALL", "TOUCHING BALL"], "touching": ["pink"]},
    ),
    (
        "3.8(c)(ii)/3.10",
        "free ball: touching the pink, nominated as the free ball, played away: no foul",
        [match(), safe("black", free_ball=True, touching=["pink"]), nominate("pink"), stroke([])],
        {"foul": False, "striker": 0, "score": [0, 7]},
    ),
    # 3.5 in hand ----------------------------------------------------------------------------------
    (
        "3.5",
        "in hand on the arc of the D: proper",
        [match(), in_hand_at(CX, BAULK_Y - D_RADIUS)],
        {"foul": False},
    ),
    (
        "3.5",
        "in hand on the baulk line, inside the D: proper",
        [match(), in_hand_at(CX + 100.0, BAULK_Y)],
        {"foul": False},
    ),
    (
        "3.5/3.12(a)",
        "in hand beyond the baulk line: improper",
        [match(), in_hand_at(CX, BAULK_Y + OUTSIDE_D_MM)],
        {"penalty": 4, "fouls": ["improper_in_hand"]},
    ),
    (
        "3.5/3.12(a)",
        "in hand beyond the arc of the D: improper",
        [match(), in_hand_at(CX, BAULK_Y - D_RADIUS - OUTSIDE_D_MM)],
        {"penalty": 4, "fouls": ["improper_in_hand"]},
    ),
    (
        "3.5/3.12(a)",
        "in hand after an in-off, placed outside the D, pink on: six",
        [*ON_PINK, stroke(["pink"], cue_ball="potted"), PLAY, in_hand_at(CX, 900.0, "pink")],
        {"penalty": 6, "fouls": ["improper_in_hand"], "score": [68, 6]},
    ),
    (
        "3.5",
        "the D does not apply to a cue ball on the table",
        [match(), safe("red"), in_hand_at(CX, 1500.0)],
        {"foul": False, "striker": 0},
    ),
    # concessions, 3.16, 3.17 -----------------------------------------------------------------
    (
        "3.1(f)",
        "a concession while the lot for a re-spotted black is pending",
        [*TIE, {"type": "concede", "player": 0}],
        {"frame_over": True, "winner": 1},
    ),
    (
        "3.1(f)",
        "a concession after the frame is over is refused",
        [match(best_of=3), CONCEDE, CONCEDE],
        {"error": "the frame is over; a new_frame line starts the next"},
    ),
    (
        "3.1(f)/3.17",
        "four-handed: a player's concession gives the frame to the other side",
        [match(players=4, best_of=3), {"type": "concede", "player": 2}],
        {"frame_over": True, "winner": 1, "frames": [0, 1]},
    ),
    (
        "3.16",
        "a re-rack in the second frame: that frame's breaker breaks again, frames unchanged",
        [match(best_of=3), CONCEDE, NEW_FRAME, safe("red"), pot("red"), {"type": "rerack"}],
        {"striker": 1, "score": [0, 0], "frames": [0, 1], "reds": 15, "in_hand": True},
    ),
    (
        "3.17(d)",
        "four-handed re-spotted black: the side's chosen player plays first, in hand",
        [match(players=4, reds=6), *TIE[1:], lot(3)],
        {"striker": 3, "in_hand": True, "score": [36, 36], "respotted_black": True},
    ),
    (
        "3.17(d)",
        "four-handed re-spotted black: then the frame's order of play",
        [match(players=4, reds=6), *TIE[1:], lot(3), safe("black")],
        {"striker": 0, "frame_over": False},
    ),
]


@over_checklist(CHECKLIST)
def test_second_audit_checklist(lines, expected):
    assert_last_ruling(lines, expected)


# --- the output contract (CONTRACTS.md §2) ------------------------------------------------------
KNOWN_CODES = {reason.code for reason in FoulReason}
OPTIONS = {"play", "play_again", "replace"}
BALL_ON_VALUES = {"red", "colour", *COLOURS}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair_of_ints(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)


def _check_respotted(entries: object) -> None:
    assert isinstance(entries, list)
    for entry in entries:
        if isinstance(entry, str):
            assert entry in COLOURS
        else:
            assert set(entry) == {"ball", "position"} and entry["ball"] in COLOURS
            position = entry["position"]
            assert len(position) == 2 and all(isinstance(v, float) for v in position)


CONTRACT_SCENARIOS = {
    "break-off, a red and a colour": [match(), pot("red"), pot("black"), safe("red")],
    "a foul, a free ball, play again": [*FREE_ON_RED, PLAY_AGAIN, safe("red")],
    "three misses": [
        match(best_of=3),
        *[miss_stroke(full_ball=True), REPLACE] * 2,
        miss_stroke(full_ball=True),
    ],
    "a tie and a re-spotted black": [*TIE, lot(1), safe("black"), pot("black")],
    "ascending phase with a free ball": [*FREE_ON_YELLOW, nominate("blue"), pot("blue"), pot("yellow")],
    "four-handed, concession, next frame": [match(players=4, best_of=3), safe("red"), CONCEDE, NEW_FRAME],
    "touching and positions": [*tied_with_positions(), lot(0), safe("black", touching=["black"])],
}


@pytest.mark.parametrize("lines", list(CONTRACT_SCENARIOS.values()), ids=list(CONTRACT_SCENARIOS))
def test_every_ruling_carries_the_contract_fields_with_their_types(lines):
    for ruling in rule(lines):
        assert "error" not in ruling, ruling
        assert _is_pair_of_ints(ruling["score"]) and _is_pair_of_ints(ruling["frames"])
        for field in ("striker", "reds", "points_remaining", "break", "penalty"):
            assert _is_int(ruling[field]), field
        assert ruling["points_remaining"] >= 0 and ruling["break"] >= 0
        for field in ("foul", "miss", "free_ball", "warning", "frame_over"):
            assert isinstance(ruling[field], bool), field
        assert ruling["ball_on"] in BALL_ON_VALUES or ruling["frame_over"]
        assert ruling["winner"] is None or _is_int(ruling["winner"])
        assert ruling["winner"] is None or ruling["frame_over"]
        assert isinstance(ruling["fouls"], list) and set(ruling["fouls"]) <= KNOWN_CODES
        assert isinstance(ruling["options"], list) and set(ruling["options"]) <= OPTIONS
        _check_respotted(ruling["respotted"])
        assert all(isinstance(a, str) and a == a.upper() for a in ruling["announcements"])
        if ruling["foul"]:
            assert MIN_PENALTY <= ruling["penalty"] <= MAX_PENALTY and ruling["fouls"]
            assert announce.penalty_call(ruling["penalty"]) in ruling["announcements"]
        else:
            assert ruling["penalty"] == 0 and ruling["fouls"] == []


BAD_LINES = [
    ("a decision while the lot for a re-spotted black is pending", TIE, PLAY),
    ("a stroke hitting a colour already potted", ON_GREEN, safe("yellow")),
    ("a nomination of a colour already potted", ON_GREEN, nominate("yellow")),
    ("a concession by a player not in the match", ON_COLOUR, {"type": "concede", "player": 5}),
    ("a red potted when none is left", ON_YELLOW, stroke(["yellow"], ["red"])),
    ("a foul naming a ball not on the table", ON_GREEN, foul("touched_ball", "yellow")),
    ("a line that is not JSON", ON_COLOUR, '{"type": "stroke", "potted": [}'),
    ("an unknown line type", ON_COLOUR, {"type": "timeout"}),
]


@pytest.mark.parametrize(("setup", "line"), [c[1:] for c in BAD_LINES], ids=[c[0] for c in BAD_LINES])
def test_a_bad_line_is_answered_with_an_error_and_the_state_is_kept(setup, line):
    referee = referee_after(setup)
    state = referee.state
    before = json.dumps(referee.scoreboard(), sort_keys=True)
    ruling = referee.apply(line)
    assert isinstance(ruling.get("error"), str) and ruling["error"]
    assert referee.state is state
    assert json.dumps(referee.scoreboard(), sort_keys=True) == before
