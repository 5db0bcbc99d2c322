"""The thirty-seventh audit: Section 3 read clause by clause in the Chinese text
(``../shared/rules/section3-rules-zh.txt``) against the referee, where it is more precise than the
Polish (``section3-rules-pl.txt``) or the English digest, or where the earlier audits left a case
out. Each row is a frame log and the fields of its last ruling, worked out from the clause quoted
above it (the Chinese, and the Polish where both are quoted). Scores are ``[Ann, Ben]``
(four-handed: ``[Ann & Cat, Ben & Dan]``); Ann breaks; six reds unless a row says otherwise; places
are mm on the cloth (``snooker.calibration.table``).

Disagreement found and fixed (its rows failed before):

- 3.12(d)(i), a ball off the table used for any purpose: a ``used_ball_off_table`` call (a ``foul``
  line or a stroke's ``fouls``) naming a ball in play on the cloth was accepted (seven points), a red
  at the break-off, the black on its spot, the blue in a stroke. The Chinese names the ball exactly,
  "利用巳被擊進袋中或巳離開球桌範圍而無需重置的球" (a ball potted or off the table that is not to be
  re-spotted), the Polish "używa bili poza stołem" (a ball off the table): neither is a ball on the
  cloth in play, so the call is refused, as other calls the texts exclude are.

Checked and kept, each with its rows: from hand the stroke may go any way (3.5, "擊球方向則無限制",
which the Polish leaves unsaid), the free ball may be any ball, the ball on itself included, which
then stays the plain ball on (3.10(a)(i)), the free ball with the ball on (3.6, 3.10(d)-(e)), a ball
falling from a pocket's edge (3.9(b)), the reds a replaced miss brings back (3.3(g) lists 3.14(f) in
the Chinese), the full ball on a red that only colours hide (3.14(c)), the re-spotted black's order
(3.17(d)), a new visit after a play-again (3.12(d)(iii), "在同一輪擊球中"), the cleaned ball's marker
(3.2(b)), needing snookers before the stroke (3.14(b)).

Where the two texts part, the referee keeps its reading and no row relies on either: a colour the
last stroke potted, being re-spotted, used off the table is the foul in the Polish (off the table)
and not in the Chinese ("無需重置", not to be re-spotted): the call stands, as before (its row pins
that the fix refuses no more than both texts exclude). Elsewhere the referee follows the Polish,
unchanged: 3.14(b) (the Chinese names snookers needed before the stroke only, "擊球前", and joins the
referee's satisfaction with "或", or), 3.14(c) (the Chinese asks a full ball on the ball on only, not
on one that could be on), 3.14(a)(iii) (the Chinese "所選擇為應擊球的顏色球" may read as the colour
chosen before) and 3.8(c)(iii) (the Chinese asks only that the other ball be declared, the Polish
that it be hit first).
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    COLOURS,
    CX,
    SPOTS,
    assert_last_ruling,
    assert_rows_cite_clauses,
    assert_rows_distinct,
    at,
    decision,
    foul,
    lot,
    match,
    nominate,
    over_checklist,
    pot,
    safe,
    stroke,
    table,
    to_colours,
)

BAULK_Y = SPOTS["brown"][1]

USED = "used_ball_off_table"

ANN_ON_YELLOW = to_colours(6)
"""Ann clears six reds with six blacks: 48-0, Ann on the yellow."""

BEN_FREE_BALL_ON_YELLOW = [*ANN_ON_YELLOW, stroke([], free_ball=True)]
"""Ann misses every ball on the yellow and leaves Ben snookered: 48-4, Ben has a free ball."""

BEN_FREE_BALL = [match(reds=6), stroke([], free_ball=True)]
"""Ann misses every ball at the break-off and leaves Ben snookered: 0-4, Ben has a free ball, reds on."""

IN_THE_D = [CX, BAULK_Y - 150.0]
"""A place for the cue ball inside the D, on the long centre line 150 mm below the baulk line."""

FOUR = match(players=4, reds=6)
FOUR_TIED = [FOUR, table(reds=0, colours=["black"], ball_on="black", score=[40, 33], striker=1), pot("black")]
"""Four-handed, Ben & Dan 33 pot the last black to tie 40-40: a re-spotted black, the lot to draw."""

RED_BEHIND_RED = {
    "white": [CX, 1000.0],
    "red-1": [CX + 30.0, 1500.0],
    "red-2": [CX, 2000.0],
    "blue": [CX + 70.0, 1250.0],
}
"""Ben's cue ball; red-1 half across the straight path to red-2's centre; the blue halfway to red-1,
across the paths to red-1's right-hand edge but clear of every path across red-2's full width."""

PINK_BEFORE_RED = {**{k: v for k, v in RED_BEHIND_RED.items() if k != "red-1"}, "pink": [CX + 30.0, 1500.0]}
"""The same with the pink where red-1 was, and red-2 the only red."""


NO_RED_LEFT = "no red has left the table"
IN_PLAY = "it is in play on the table"


def _refused(field: str, ball: str, why: str) -> dict[str, str]:
    """The error refusing a ``used_ball_off_table`` call on ``ball``, in play on the cloth."""
    return {"error": f"{field}: {USED}: the {ball} is not off the table: {why} (3.12(d))"}


def _two_misses_from(places: dict[str, list[float]]) -> list[Any]:
    """Joined 0-0, the reds ``places`` gives left, Ben to play from ``places``: he hits the blue
    first, the balls are replaced, and he hits the blue first again (the referee judging the lines
    from the places)."""
    reds = sum(1 for ball in places if ball.startswith("red"))
    return [
        match(reds=6),
        table(reds=reds, colours=COLOURS, ball_on="red", score=[0, 0], striker=1, positions=places),
        safe("blue", positions=at(places, None)),
        decision("replace"),
        safe("blue", positions=at(places, None)),
    ]


ROWS: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # --- 3.12(d)(i): the ball used must be off the table (fixed) ----------------------------------
    # "利用巳被擊進袋中或巳離開球桌範圍而無需重置的球作任何用途" (a ball potted or off the table, not to
    # be re-spotted); the Polish "używa bili poza stołem w dowolnym celu".
    (
        "3.12(d)",
        "at the break-off a red named as used off the table: refused, every red is on the table",
        [match(reds=6), foul(USED, "red")],
        _refused("foul.ball", "red", NO_RED_LEFT),
    ),
    (
        "3.12(d)",
        "at the break-off the black named as used off the table: refused, it is in play on its spot",
        [match(reds=6), foul(USED, "black")],
        _refused("foul.ball", "black", IN_PLAY),
    ),
    (
        "3.12(d)",
        "a stroke on a red calling the blue, in play, used off the table: refused",
        [match(reds=6), safe("red", fouls=[{"reason": USED, "ball": "blue"}])],
        _refused("fouls.ball", "blue", IN_PLAY),
    ),
    (
        "3.12(d)",
        "joined with all six reds on the table, a red named as used off it: refused",
        [match(reds=6), table(reds=6, ball_on="red", score=[0, 0], striker=0), foul(USED, "red-4")],
        _refused("foul.ball", "red", NO_RED_LEFT),
    ),
    (
        "3.12(d)",
        "joined with four of six reds left, a red used off the table: seven to Ben, Ben to play",
        [match(reds=6), table(reds=4, ball_on="red", score=[10, 10], striker=0), foul(USED, "red-4")],
        {"foul": True, "penalty": 7, "fouls": [USED], "score": [10, 17], "striker": 1},
    ),
    (
        "3.12(d)",
        "Ann on the pink uses the green, potted for good, in her stroke: seven, Ben to play",
        [
            *ANN_ON_YELLOW,
            pot("yellow"),
            pot("green"),
            pot("brown"),
            pot("blue"),
            safe("pink", fouls=[{"reason": USED, "ball": "green"}]),
        ],
        {"penalty": 7, "fouls": [USED], "score": [62, 7], "striker": 1, "ball_on": "pink"},
    ),
    # Where the texts part: the pink just potted, being re-spotted, is off the table in the Polish;
    # the Chinese "無需重置" leaves it out. The call stands, as before the fix.
    (
        "3.12(d)",
        "after a red and the pink, the pink named as used while being re-spotted: the call stands",
        [match(reds=6), pot("red"), pot("pink"), foul(USED, "pink")],
        {"penalty": 7, "fouls": [USED], "score": [7, 7], "striker": 1},
    ),
    # --- 3.5: from in hand, "擊球方向則無限制" (the stroke may go in any direction) ---------------
    # The Polish says only where the cue ball is placed (on or inside the lines of the D).
    (
        "3.5",
        "in hand on the yellow, the cue ball in the D pots the yellow lying on its spot: two, green on",
        [
            *ANN_ON_YELLOW,
            stroke(["yellow"], cue_ball="potted"),
            pot("yellow", positions=at({"white": IN_THE_D, "yellow": SPOTS["yellow"]}, None)),
        ],
        {"foul": False, "score": [48, 6], "ball_on": "green", "striker": 1, "in_hand": False},
    ),
    (
        "3.5",
        "in hand on a red, a red in baulk below the D hit and potted: one, Ben on a colour",
        [
            match(reds=6),
            stroke([], cue_ball="potted"),
            pot("red-1", positions=at({"white": IN_THE_D, "red-1": [CX + 400.0, 300.0]}, None)),
        ],
        {"foul": False, "score": [0, 5], "ball_on": "colour", "striker": 1, "reds": 5},
    ),
    # 3.10(a) with 3.5: the free ball from hand, a colour on its spot on the baulk line.
    (
        "3.10(a)",
        "in hand with a free ball, the green nominated on its spot and potted: one, re-spotted",
        [
            match(reds=6),
            stroke([], cue_ball="potted", free_ball=True),
            nominate("green"),
            pot("green", positions=at({"white": IN_THE_D, "green": SPOTS["green"]}, None)),
        ],
        {"foul": False, "score": [0, 5], "scored": ["green"], "respotted": ["green"], "ball_on": "colour"},
    ),
    # --- 3.10(a)(i): "他可點名任何一個球為應擊球" (he may nominate any ball) -----------------------
    # The ball on itself nominated is still the ball on: potted in the ascending order it stays down
    # (3.3(f)(iii), 3.7), not re-spotted as a free ball (3.10(c)).
    (
        "3.10(a)",
        "a free ball on the yellow, the yellow itself nominated and potted: two, stays down, green on",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("yellow"), pot("yellow")],
        {
            "foul": False,
            "score": [48, 6],
            "scored": ["yellow"],
            "respotted": [],
            "colours": COLOURS[1:],
            "ball_on": "green",
        },
    ),
    # 3.10(b)(i): "未有首先擊中點名球" — the yellow nominated, the green hit first: the value of the
    # ball on or of the ball concerned, whichever is higher (3.12(b)): three, so four.
    (
        "3.10(b)",
        "a free ball on the yellow, the yellow nominated, the green hit first: four to Ann",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green"], nominated="yellow")],
        {"foul": True, "penalty": 4, "fouls": ["wrong_ball_first"], "score": [52, 4], "striker": 0},
    ),
    # 3.3(e): "紅球及被點名為紅球的自由球均按紅球分值計算；在同一擊內擊進均會獲加分".
    (
        "3.10(a)",
        "a free ball with reds on, a red nominated, two reds potted: two, Ben on a colour",
        [*BEN_FREE_BALL, stroke(["red"], ["red", "red"], nominated="red")],
        {"foul": False, "score": [0, 6], "reds": 4, "ball_on": "colour", "striker": 1},
    ),
    # 3.10(d)-(e): "如白球先擊中點名球...而令應擊球入袋，可獲得該應擊球的分數而該應擊球將無須重置";
    # "如點名球及應擊球均被打入，將祇能獲得應擊球的分數，除非當應擊球為紅球時，則會獲得每一個入袋球
    # 的分數。點名球需放回置球點而應擊球則不需放回".
    (
        "3.10(e)",
        "a free ball on the yellow, the green nominated, hit first, both potted: two, green re-spotted",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green"], ["yellow", "green"], nominated="green")],
        {
            "score": [48, 6],
            "scored": ["yellow"],
            "respotted": ["green"],
            "colours": COLOURS[1:],
            "ball_on": "green",
            "striker": 1,
        },
    ),
    (
        "3.10(e)",
        "a free ball with reds on, the blue nominated, it and two reds potted: three, blue re-spotted",
        [*BEN_FREE_BALL, stroke(["blue"], ["red", "red", "blue"], nominated="blue")],
        {"score": [0, 7], "points": 3, "respotted": ["blue"], "reds": 4, "ball_on": "colour"},
    ),
    # 3.6: "除非該兩個目標球為紅球或者其中一個是自由球而另一個是應擊球"; 3.12(c) the higher value.
    (
        "3.6",
        "a free ball on the yellow, the green nominated, the green and the yellow hit at once: fair",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green", "yellow"], nominated="green")],
        {"foul": False, "score": [48, 4], "striker": 0, "ball_on": "yellow"},
    ),
    (
        "3.12(c)",
        "a free ball on the yellow, the green nominated, the green and the brown hit at once: four",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green", "brown"], nominated="green")],
        {"foul": True, "penalty": 4, "fouls": ["two_balls_at_once"], "score": [52, 4], "striker": 0},
    ),
    # --- 3.9(b): a ball falling from the pocket's edge before it is hit -----------------------------
    # (i) "在沒有犯規的情形下，牽涉入該擊球動作的所有球應被放回原位，同一球手可照原定的打法重打":
    # mid-break the points already scored stand (3.11(e) speaks of fouls; here there is none).
    (
        "3.9(b)",
        "Ann, a red up, on a colour; the pink falls before the cue ball reaches it: replaced, Ann again",
        [match(reds=6), pot("red"), stroke([], ["pink"], fell_from_edge=["pink"])],
        {
            "foul": False,
            "score": [1, 0],
            "break": 1,
            "striker": 0,
            "ball_on": "colour",
            "announcements": ["BALLS REPLACED", "PLAY AGAIN"],
        },
    ),
    # (ii) "如有犯規，則按認可的條例對球手作出罰分，而牽涉入該擊球動作的所有球應被放回原位": the
    # cue ball replaced too, so not in hand although it left the table.
    (
        "3.9(b)",
        "Ben on a red: a red falls first, the cue ball leaves the table: four, all replaced, not in hand",
        [match(reds=6), safe("red"), stroke([], ["red"], fell_from_edge=["red"], cue_ball="off_table")],
        {"foul": True, "penalty": 4, "score": [4, 0], "reds": 6, "in_hand": False, "striker": 0},
    ),
    # --- 3.3(g): reds stay down, "例外情況將根據...第14條(f)..." -----------------------------------
    # The Chinese lists 3.14(f) among the exceptions (the Polish: 2(B), 9, 14(H), 15): the balls
    # replaced after a miss bring back a red the miss potted.
    (
        "3.3(g)",
        "Ben misses the reds, pots a red and the pink off the pink; replaced: six reds, 6-0, Ben again",
        [
            match(reds=6),
            safe("red"),
            stroke(["pink"], ["red", "pink"], clear_path=True, full_ball=True),
            decision("replace"),
        ],
        {"score": [6, 0], "reds": 6, "striker": 1, "ball_on": "red", "decision": "replace"},
    ),
    # --- 3.14(c): the full ball on a red, "任何沒有被顏色球遮擋紅球的整個直徑" ----------------------
    # Only colours count against a red's full diameter: red-2, behind red-1, is open full ball, so
    # the second miss from the position has the warning due; a colour where red-1 was hides it.
    (
        "3.14(c)",
        "a red hidden from full ball only by another red: the second miss has the warning due",
        _two_misses_from(RED_BEHIND_RED),
        {"miss": True, "warning_due": True, "penalty": 5, "score": [10, 0]},
    ),
    (
        "3.14(c)",
        "the same with the pink in front of the only red: a miss, but no full ball, no warning due",
        _two_misses_from(PINK_BEFORE_RED),
        {"miss": True, "warning_due": False, "penalty": 5, "score": [10, 0]},
    ),
    # --- 3.17(d): "以後的擊球應依該局原本之次序進行" (then the frame's order) ------------------------
    (
        "3.17(d)",
        "the re-spotted black, Ben chosen to play first, plays safe: Cat next, the frame's order",
        [*FOUR_TIED, lot(1), safe("black")],
        {"striker": 2, "player": "Cat", "score": [40, 40], "respotted_black": True},
    ),
    # --- 3.12(d)(iii): "在同一輪擊球中，於擊入紅球或自由球後繼續打擊紅球" (in the same visit) -------
    # Asked to play again after her foul, Ann begins a new visit: a red is on, so potting one is fair.
    (
        "3.12(d)",
        "Ann pots a red, fouls with no colour named, is asked to play again and pots a red: one",
        [match(reds=6), pot("red"), stroke([]), decision("play_again"), pot("red")],
        {"foul": False, "score": [2, 7], "striker": 0, "ball_on": "colour", "reds": 4},
    ),
    # --- 3.2(b)(ii): the marker has the value of the ball being cleaned; "如有非擊球手對該器材作出碰觸
    # 或干擾，將被當作擊球手般被判罰分，而球手仍按照原定擊球次序進行比賽" ------------------------------
    (
        "3.2(b)",
        "Ben, a red up, has the black cleaned; Ann moves its marker: seven to Ben, Ben plays on",
        [match(reds=6), safe("red"), pot("red"), foul("touched_ball", "black", player=0)],
        {"penalty": 7, "score": [0, 8], "striker": 1, "ball_on": "colour", "break": 1, "offender": 0},
    ),
    # --- 3.14(b): "除非當任何一方球手在擊球前需要以阻礙球得分方能取勝" ------------------------------
    # Needing snookers before the stroke (both texts): no miss, the plain foul.
    (
        "3.14(b)",
        "Ann, 70 behind with one red left, hits the pink first with a full ball open: six, no miss",
        [
            match(reds=6),
            table(reds=1, colours=COLOURS, ball_on="red", score=[0, 70], striker=0),
            stroke(["pink"], clear_path=True, full_ball=True),
        ],
        {"foul": True, "penalty": 6, "miss": False, "score": [0, 76], "striker": 1},
    ),
]


@over_checklist(ROWS)
def test_chinese_text_clause(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


def test_no_row_repeats_another() -> None:
    assert_rows_distinct(ROWS)


def test_every_row_names_its_clause() -> None:
    assert_rows_cite_clauses(ROWS)
