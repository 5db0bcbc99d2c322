"""A twenty-fourth audit of the referee: a fresh read of the Polish text
(``../shared/rules/section3-rules-pl.txt``, the authority; the Chinese where the Polish is unclear)
aimed at combinations the twenty-third audit did not take: several fouls in one stroke, two balls at
once with a free ball, nominations, a miss from in hand and its replacement, the re-spotted black
(four-handed, on aggregate points), frames conceded and awarded mid-break, the stalemate restart and
the points-remaining and snookers-required figures.

Every row is (rule, name, frame-log lines, expected fields of the LAST ruling), worked out by hand
from the texts. Scores are ``[Ann, Ben]``; Ann breaks frame 1.

Fault found and fixed (rows marked "fault" fail on the code before):

- 3.4(b)-(c): a match decided on aggregate points whose aggregate is level after the last frame
  ends with a re-spotted black, played whatever that frame's own scores: "Jeżeli zwycięzcę meczu
  lub rozgrywki wskazać mają punkty sumaryczne, i punkty sumaryczne mają jednakową wartość po
  zakończeniu ostatniego frejmu, zawodnicy grający ostatni frejm postępują według procedury o
  ponownym ustawieniu Czarnej" and "następne wbicie lub faul kończy frejma". The ruling and the
  scoreboard said the side behind in that frame needed snookers (40-60 with the black: two), though
  the sides are level where it counts and the next pot or foul decides, so no snooker can help
  (1(E): a deficit larger than the points remaining is what makes snookers needed). On a re-spotted
  black no snookers are required.

Confirmed (rows that pass before and after): the highest of several fouls in one stroke (3.11(g),
3.12(a)-(b)), two balls at once with a free ball (3.6, 3.10(b), 3.12(c)), a nomination changed or
not followed (3.12(b)), the foul before a colour is declared (3.12(d)), a miss from in hand replaced
(the cue ball in hand again, 3.14(a)), a free ball given back with the position replaced after a
miss on it, the re-spotted black four-handed (3.17(d)) and after a non-striker's foul, frames
conceded and awarded (scores and breaks kept), the stalemate restart (3.16) and the points remaining
with a free ball.
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    decision,
    foul,
    lot,
    match,
    nominate,
    over_checklist,
    pot,
    referee_after,
    rule,
    safe,
    stroke,
    table,
)

PLAY = decision("play")
REPLACE = decision("replace")
PLAY_AGAIN = decision("play_again")
RERACK = {"type": "rerack"}


def black_alone(score: list[int], striker: int) -> dict[str, Any]:
    """Only the black left, the scores ``score``, ``striker`` to play."""
    return table(reds=0, colours=["black"], ball_on="black", score=score, striker=striker)


def concede(player: int, **extra: Any) -> dict[str, Any]:
    return {"type": "concede", "player": player, **extra}


def assert_rows(lines: list[Any], expected: dict[str, Any]) -> None:
    rulings = rule(lines)
    assert all("error" not in r for r in rulings), [r for r in rulings if "error" in r]
    assert {key: rulings[-1].get(key) for key in expected} == expected


# --- 1. 3.4(b)-(c): the re-spotted black on aggregate points ---------------------------------------
# A match of two frames on aggregate points. Frame 1: Ben pots the last black, 60-40 to Ann.
AGGREGATE = [
    match(best_of=2, aggregate=True),
    black_alone([60, 33], striker=1),
    pot("black"),
    {"type": "new_frame"},
]
# Frame 2: Ann pots the last black, 40-60 to Ben: the aggregate 100-100, a re-spotted black.
LEVEL = [*AGGREGATE, black_alone([33, 60], striker=0), pot("black")]

RESPOTTED = [
    (
        "3.4(c) fault",
        "the aggregate level after the last frame (40-60 in it): a re-spotted black, no snookers required",
        LEVEL,
        {
            "status": "respotted_black_lot",
            "score": [40, 60],
            "points_remaining": 7,
            "snookers_required": [0, 0],
        },
    ),
    (
        "3.4(b)-(c) fault",
        "... the lot: Ann first, in hand; still no snookers required",
        [*LEVEL, lot(0)],
        {"striker": 0, "in_hand": True, "respotted_black": True, "snookers_required": [0, 0]},
    ),
    (
        "3.4(b)-(c)",
        "... Ann pots it: the frame is Ben's (60-47), the match Ann's (107-100)",
        [*LEVEL, lot(0), pot("black")],
        {"score": [47, 60], "winner": 1, "frames": [1, 1], "match_over": True, "match_winner": 0},
    ),
    (
        "3.4(b)-(c)",
        "... Ann safe, Ben then fouls: seven to Ann ends it, the match Ann's on aggregate",
        [*LEVEL, lot(0), safe("black"), stroke([], [])],
        {"score": [47, 60], "penalty": 7, "match_over": True, "match_winner": 0},
    ),
    (
        "3.4(c) 3.1(f)",
        "... Ann concedes the re-spotted black: the match Ben's",
        [*LEVEL, concede(0)],
        {"score": [40, 60], "match_over": True, "match_winner": 1},
    ),
    (
        "3.4(a) 3.4(c)",
        "the last frame tied 40-40 with the aggregate 100-80: no re-spotted black, the match Ann's",
        [*AGGREGATE, black_alone([40, 33], striker=1), pot("black")],
        {"respotted_black": False, "winner": None, "match_over": True, "match_winner": 0},
    ),
    (
        "3.4(a) 1(E) (documented)",
        "on aggregate, frame 2 with pink and black left, 10-60: snookers counted on the frame's scores",
        [*AGGREGATE, table(reds=0, colours=["pink", "black"], ball_on="pink", score=[10, 60], striker=0)],
        {"points_remaining": 13, "snookers_required": [7, 0]},
    ),
    (
        "3.4(a)-(b)",
        "only the black, Ben to play 50-57: Ann (not to play) touches it, seven to Ben, level: re-spotted",
        [match(), black_alone([57, 50], striker=1), foul("touched_ball", "black", player=0)],
        {"score": [57, 57], "status": "respotted_black_lot", "offender": 0, "in_hand": True},
    ),
]


@over_checklist(RESPOTTED)
def test_the_respotted_black(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


def test_the_scoreboard_requires_no_snookers_on_the_respotted_black() -> None:
    """3.4(c) fault: the scoreboard's figure, as the ruling's."""
    board = referee_after([*LEVEL, lot(1)]).scoreboard()
    assert board["respotted_black"] is True
    assert board["snookers_required"] == [0, 0]


# Four-handed: Ann and Cat (side 0) against Ben and Dan (side 1), the order Ann, Ben, Cat, Dan.
FOUR_TIED = [match(players=4), black_alone([50, 43], striker=1), pot("black")]
FOUR_HANDED = [
    (
        "3.17(d)",
        "the tie: Ben and Dan's side draws first and chooses Dan; Dan safe: Ann next, the order kept",
        [*FOUR_TIED, lot(3), safe("black")],
        {"striker": 0, "respotted_black": True},
    ),
    (
        "3.17(d)",
        "... Ann safe: Ben",
        [*FOUR_TIED, lot(3), safe("black"), safe("black")],
        {"striker": 1},
    ),
    (
        "3.17(d) 3.17(e)",
        "Dan to play the re-spotted black, his partner Ben confers: Dan's foul, seven, Ann's side wins",
        [*FOUR_TIED, lot(3), foul("conferring", player=1)],
        {"score": [57, 50], "winner": 0, "offender": 3},
    ),
]


@over_checklist(FOUR_HANDED)
def test_the_respotted_black_four_handed(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


# --- 2. 3.11(g), 3.12: several fouls in one stroke, the highest counts ----------------------------
SEVERAL = [
    (
        "3.11(g) 3.12(b)",
        "on a red, a push stroke that pots the pink: six (the pink, a ball not on), the pink re-spotted",
        [match(), stroke(["red"], ["pink"], fouls=["push_stroke"])],
        {"penalty": 6, "fouls": ["potted_ball_not_on", "push_stroke"], "respotted": ["pink"]},
    ),
    (
        "3.11(g) 3.12(a)-(b)",
        "on a red, the blue and the cue ball potted: five, Ben's cue ball in hand",
        [match(), stroke(["red"], ["blue", "white"])],
        {"penalty": 5, "fouls": ["potted_ball_not_on", "cue_ball_potted"], "in_hand": True},
    ),
    (
        "3.11(g) 3.12(b)",
        "on a red, the cue ball off the table and the blue potted: five",
        [match(), stroke(["red"], ["blue"], off_table=["white"])],
        {"penalty": 5, "fouls": ["potted_ball_not_on", "cue_ball_off_table"], "in_hand": True},
    ),
    (
        "3.11(g) 3.12(a)-(b)",
        "on a red, a jump shot that pots the black: seven",
        [match(), stroke(["red"], ["black"], fouls=["jump_shot"])],
        {"penalty": 7, "score": [0, 7]},
    ),
    (
        "3.11(g) 3.12(b)",
        "on a red, the pink touched in the stroke and the cue ball potted: six",
        [match(), stroke(["red"], ["white"], fouls=[{"reason": "touched_ball", "ball": "pink"}])],
        {"penalty": 6, "fouls": ["touched_ball", "cue_ball_potted"]},
    ),
    (
        "3.11(g) 3.12(b)",
        "on a red, struck while the blue still moved, and a jump shot: five",
        [match(), stroke(["red"], [], fouls=["jump_shot", {"reason": "balls_moving", "ball": "blue"}])],
        {"penalty": 5, "fouls": ["balls_moving", "jump_shot"]},
    ),
    (
        "3.3(g) 3.12(b)",
        "after a red, the pink declared, a red forced off the table: six, the red stays off",
        [match(), pot("red"), nominate("pink"), stroke(["pink"], [], off_table=["red"])],
        {"penalty": 6, "reds": 13, "score": [1, 6]},
    ),
    (
        "3.7 3.12(b)",
        "on the yellow, the yellow and the black potted: seven, both re-spotted, still on the yellow",
        [
            match(),
            table(reds=0, ball_on="yellow", score=[0, 0], striker=0),
            stroke(["yellow"], ["yellow", "black"]),
        ],
        {"penalty": 7, "respotted": ["black", "yellow"], "ball_on": "yellow", "points_remaining": 27},
    ),
]


@over_checklist(SEVERAL)
def test_several_fouls_in_one_stroke(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


# --- 3. 3.6, 3.10, 3.12(c): two balls at once with a free ball ------------------------------------
FREE_ON_RED = [match(), stroke([], [], free_ball=True), PLAY]  # Ann missed: 0-4, Ben's free ball
FREE_ON_YELLOW = [
    match(),
    table(reds=0, ball_on="yellow", score=[0, 0], striker=0),
    stroke([], [], free_ball=True),
    PLAY,
]  # Ann missed the yellow: 0-4, Ben's free ball on the yellow

TWO_AT_ONCE = [
    (
        "3.6 3.10(b)",
        "the green nominated as the free ball, the green and a red hit at once: fair, nothing potted",
        [*FREE_ON_RED, nominate("green"), stroke(["green", "red"], [])],
        {"foul": False, "striker": 0, "score": [0, 4]},
    ),
    (
        "3.10(e)",
        "... both potted: each counts as a red (two), the green re-spotted, Ben on a colour",
        [*FREE_ON_RED, nominate("green"), stroke(["green", "red"], ["green", "red"])],
        {"points": 2, "score": [0, 6], "respotted": ["green"], "ball_on": "colour", "reds": 14},
    ),
    (
        "3.6 3.12(c)",
        "the green nominated, the green and the blue hit at once: five",
        [*FREE_ON_RED, nominate("green"), stroke(["green", "blue"], [])],
        {"penalty": 5, "fouls": ["two_balls_at_once"], "score": [5, 4]},
    ),
    (
        "3.6 3.12(c) 3.10(a) (documented)",
        "the black nominated as the free ball (worth a red), the black and the yellow at once: four",
        [*FREE_ON_RED, nominate("black"), stroke(["black", "yellow"], [])],
        {"penalty": 4, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.6 3.10(b)",
        "on the yellow, the black nominated, the black and the yellow at once: fair",
        [*FREE_ON_YELLOW, nominate("black"), stroke(["black", "yellow"], [])],
        {"foul": False, "striker": 0},
    ),
    (
        "3.10(d)",
        "... the yellow potted: two, it stays down, Ben on the green",
        [*FREE_ON_YELLOW, nominate("black"), stroke(["black", "yellow"], ["yellow"])],
        {"points": 2, "ball_on": "green", "respotted": [], "points_remaining": 25},
    ),
    (
        "3.6 3.12(c)",
        "on the yellow, the black nominated, the black and the green at once: four",
        [*FREE_ON_YELLOW, nominate("black"), stroke(["black", "green"], [])],
        {"penalty": 4, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.10(e)",
        "on the yellow, the black nominated, the black and the yellow potted: the yellow's two only",
        [*FREE_ON_YELLOW, nominate("black"), stroke(["black"], ["black", "yellow"])],
        {"points": 2, "scored": ["yellow"], "respotted": ["black"]},
    ),
    (
        "3.6 3.12(c)",
        "after a red, the blue declared, the blue and the pink at once: six",
        [match(), pot("red"), nominate("blue"), stroke(["blue", "pink"], [])],
        {"penalty": 6, "fouls": ["two_balls_at_once"]},
    ),
    (
        "3.6 3.12(c)",
        "on a red, a red and the black at once: seven",
        [match(), stroke(["red", "black"], [])],
        {"penalty": 7, "fouls": ["two_balls_at_once"]},
    ),
]


@over_checklist(TWO_AT_ONCE)
def test_two_balls_at_once_with_a_free_ball(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


# --- 4. nominating (Section 2, 3.12(b), 3.12(d)) -------------------------------------------------
AFTER_RED = [match(), pot("red")]
NOMINATING = [
    (
        "3.12(b)",
        "the blue nominated, then the pink: the last nomination stands, the blue hit first: six",
        [*AFTER_RED, nominate("blue"), nominate("pink"), safe("blue")],
        {"penalty": 6, "fouls": ["wrong_ball_first"], "score": [1, 6]},
    ),
    (
        "3.12(b)",
        "the blue nominated, the pink hit first: six",
        [*AFTER_RED, nominate("blue"), safe("pink")],
        {"penalty": 6, "fouls": ["wrong_ball_first"]},
    ),
    (
        "3.12(b)",
        "the yellow nominated and hit, the black potted: seven, the black re-spotted",
        [*AFTER_RED, nominate("yellow"), stroke(["yellow"], ["black"])],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "respotted": ["black"]},
    ),
    (
        "3.12(b)",
        "the blue nominated and hit, the blue and the pink potted: six, no score",
        [*AFTER_RED, nominate("blue"), stroke(["blue"], ["blue", "pink"])],
        {"penalty": 6, "points": 0, "score": [1, 6]},
    ),
    (
        "3.12(d) (documented)",
        "nothing nominated, the blue and the pink hit at once: no colour declared, seven",
        [*AFTER_RED, stroke(["blue", "pink"], [])],
        {"penalty": 7, "fouls": ["foul_before_nomination", "two_balls_at_once"]},
    ),
    (
        "3.12(d)",
        "a free ball potted as a red (the green), then a red hit first: reds in successive strokes, seven",
        [*FREE_ON_RED, nominate("green"), pot("green"), safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"], "score": [7, 5]},
    ),
]


@over_checklist(NOMINATING)
def test_nominating(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


# --- 5. 3.14: a miss from in hand, the replacement, the warning with a free ball -------------------
IN_OFF = [match(), stroke(["red"], ["white"]), PLAY]  # Ann in-off: 0-4, Ben from hand
MISSES = [
    (
        "3.14(a)",
        "Ben from hand misses every red (a miss), Ann has it replaced: Ben in hand again, 4-4",
        [*IN_OFF, stroke([], [], miss=True), REPLACE],
        {"striker": 1, "in_hand": True, "score": [4, 4], "ball_on": "red"},
    ),
    (
        "3.14(c)",
        "... missed from hand three times, replaced each time: the frame awarded to Ann, 12-4 kept",
        [
            *IN_OFF,
            stroke([], [], miss=True),
            REPLACE,
            stroke([], [], miss=True),
            REPLACE,
            stroke([], [], miss=True),
        ],
        {"score": [12, 4], "frame_over": True, "winner": 0},
    ),
    (
        "3.14(a)",
        "Ann safe; Ben misses and goes in-off; Ann has it replaced: Ben on the table, not in hand",
        [match(), safe("red"), stroke([], ["white"], miss=True), REPLACE],
        {"striker": 1, "in_hand": False, "score": [4, 0]},
    ),
    (
        "3.14(a) 3.3(h)",
        "... Ann plays instead: from hand",
        [match(), safe("red"), stroke([], ["white"], miss=True), PLAY],
        {"striker": 0, "in_hand": True},
    ),
    (
        "3.14(a) 3.3(g)",
        "Ben's miss knocks a red in off the blue, replaced: fifteen reds again",
        [match(), safe("red"), stroke(["blue"], ["red"], miss=True), REPLACE],
        {"reds": 15, "score": [5, 0], "striker": 1},
    ),
    (
        "3.14(a) 3.10",
        "Ben's free ball (the blue) missed, replaced: the position Ben had, his free ball again",
        [*FREE_ON_RED, nominate("blue"), stroke([], [], miss=True), REPLACE],
        {"striker": 1, "free_ball": True, "points_remaining": 155, "score": [4, 4]},
    ),
    (
        "3.14(c) 3.10",
        "two misses from one position, the second leaving Ben snookered: the warning, a free ball open",
        [match(), stroke([], [], miss=True), REPLACE, stroke([], [], miss=True, free_ball=True)],
        {
            "warning": False,
            "warning_due": True,
            "free_ball": True,
            "options": ["play", "play_again", "replace"],
        },
    ),
    (
        "3.14(c) 3.10(f)",
        "... Ben has it replaced: Ann warned, no free ball (she was not snookered there)",
        [match(), stroke([], [], miss=True), REPLACE, stroke([], [], miss=True, free_ball=True), REPLACE],
        {"warning": True, "free_ball": False, "striker": 0},
    ),
    (
        "3.10(f)",
        "Ben's free ball, Ben asks Ann to play again: the free ball lapses",
        [match(), stroke([], [], free_ball=True), PLAY_AGAIN],
        {"striker": 0, "free_ball": False, "points_remaining": 147},
    ),
    (
        "3.14(a)",
        "the last red potted, the blue declared and missed, replaced: Ann on a colour again, 34 left",
        [
            match(),
            table(reds=1, ball_on="red", score=[0, 0], striker=0),
            pot("red"),
            nominate("blue"),
            stroke([], [], miss=True),
            REPLACE,
        ],
        {"striker": 0, "ball_on": "colour", "reds": 0, "points_remaining": 34},
    ),
]


@over_checklist(MISSES)
def test_misses_from_hand_and_with_free_balls(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


# --- 6. frames conceded and awarded, the stalemate restart, points remaining ---------------------
ANN_ON_8 = [match(best_of=3), pot("red"), pot("black")]  # Ann's break of 8
FRAMES = [
    (
        "3.1(f)",
        "Ben concedes during Ann's break of 8: the frame Ann's, 8-0 and her break kept",
        [*ANN_ON_8, concede(1)],
        {"score": [8, 0], "break": 8, "winner": 0, "frames": [1, 0], "points_remaining": 0},
    ),
    (
        "3.1(f)",
        "Ann concedes during her own break: the frame Ben's, 8-0 kept",
        [*ANN_ON_8, concede(0)],
        {"score": [8, 0], "winner": 1, "frames": [0, 1]},
    ),
    (
        "3.2(b) 3.14(h)",
        "Ben (not to play) touches the blue during Ann's break: five to Ann, her break goes on",
        [*ANN_ON_8, foul("touched_ball", "blue", player=1), pot("red")],
        {"score": [14, 0], "break": 9, "striker": 0},
    ),
    (
        "3.16(a)-(b)",
        "frame 2 (Ben breaks) re-racked after three strokes: 0-0, Ben breaks again from hand",
        [*ANN_ON_8, concede(1), {"type": "new_frame"}, safe("red"), safe("red"), safe("red"), RERACK],
        {"score": [0, 0], "striker": 1, "in_hand": True, "frames": [1, 0], "frame": 2, "reds": 15},
    ),
    (
        "3.16(a)-(b)",
        "four-handed, re-racked after three strokes: Ann breaks again",
        [match(players=4), safe("red"), safe("red"), safe("red"), RERACK],
        {"striker": 0, "score": [0, 0]},
    ),
    (
        "3.10 (Section 2)",
        "pink and black left, Ann 30-0 up: Ben misses the pink, Ann's free ball: 19 remaining",
        [
            match(),
            table(reds=0, colours=["pink", "black"], ball_on="pink", score=[30, 0], striker=1),
            stroke([], [], free_ball=True),
            PLAY,
        ],
        {"score": [36, 0], "points_remaining": 19, "snookers_required": [0, 3]},
    ),
    (
        "3.10(c)",
        "... the black nominated and potted as the pink: six, the black back, 13 remaining",
        [
            match(),
            table(reds=0, colours=["pink", "black"], ball_on="pink", score=[30, 0], striker=1),
            stroke([], [], free_ball=True),
            PLAY,
            nominate("black"),
            pot("black"),
        ],
        {"score": [42, 0], "respotted": ["black"], "points_remaining": 13, "snookers_required": [0, 5]},
    ),
    (
        "3.10 (Section 2)",
        "one red left, a free ball: 43 remaining (the free ball counts as a red and a black)",
        [match(), table(reds=1, ball_on="red", score=[0, 0], striker=0), stroke([], [], free_ball=True)],
        {"points_remaining": 43, "free_ball": True},
    ),
]


@over_checklist(FRAMES)
def test_frames_conceded_restarted_and_points_remaining(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_rows(lines, expected)


def test_the_highest_break_survives_a_concession_and_a_foul() -> None:
    """3.1(f): the scoreboard keeps Ann's break of 8 as the frame's highest when Ben concedes, and
    when her break ends on a foul."""
    conceded = referee_after([*ANN_ON_8, concede(1)]).scoreboard()
    assert conceded["highest_break"] == [8, 0]
    assert conceded["totals"] == [8, 0]
    fouled = referee_after([*ANN_ON_8, stroke(["red"], ["white"])]).scoreboard()
    assert (fouled["highest_break"], fouled["break"], fouled["score"]) == ([8, 0], 0, [8, 4])
