"""The thirty-third audit: what happens at the same time, or in an unusual order, within a stroke, as
a camera's frame log reports it (docs/FRAME_LOG.md). Every row is (rule, name, frame-log lines,
expected fields of the LAST ruling), worked out by hand from the Polish text
(``../shared/rules/section3-rules-pl.txt``). Scores are ``[Ann, Ben]``; Ann breaks. Rows marked
"fault" fail on the code before this audit.

What the log can say. A stroke line carries no times: ``first_contact`` with two entries is "hit at
the same time" (CONTRACTS.md §1), ``potted``/``off_table`` are sets (their order says nothing), and
the lines follow each other in the order things happened. The tracker decides "at once"
(``tracker.events.first_contacts``): the contacts within ``StrokeConfig.simultaneous_window_s``
(0.02 s, one frame at 50 fps) of the earliest, kept only where the ball rested within a diameter plus
``contact_tolerance_mm`` of the cue ball where its line of approach first met a ball
(``_touched_together``) and set off away from the cue ball (``_struck_ones``), plus balls set off with
the one hit on the same frame along the line of centres (``_set_off_with``). A pot or a ball off the
table is confirmed only after the ball stays unseen (``LifecycleConfig``): a ball that rattles in the
jaws and comes back, or one that flies off a cushion and lands back, stays on the table (Section 2:
a ball is potted or forced off where it comes to rest), so a pot "seen again" never reaches the
log. Reversing every list of every stroke of 500 generated logs (``differential_logs.generate``)
changed no ruling but the order of ``scored``, which follows ``potted``.

Fault found and fixed:

- 3.12(b), a stroke struck while a ball of the stroke before still ran, that stroke having potted
  (or forced off) the ball: "Karane są [...] wartością wyższą z wartości: bili rozgrywanej lub bili
  branej pod uwagę - uderzenia, gdy któraś z bil znajduje się jeszcze w ruchu". The tracker writes
  exactly this where the ball ran into a pocket hidden (under the player's arm) as the cue ball was
  struck again: the stroke before gets the pot (the ball never seen again, its pot inferred) and the
  new stroke ``moving_at_strike`` with it (checked on ``tests/tracker/tracker_scenarios``: a red
  hidden 0.4 s after the contact, the white struck again 1.2 s after it, the red reaching the top
  pocket 1.3 s after it). The referee refused the whole stroke ("moving_at_strike: the yellow is not
  on the table") wherever the table after the stroke before no longer held the ball: the last red,
  a colour potted for good, a ball forced off. The ball was on the cloth, running, when the cue ball
  was struck: the stroke is now ruled, the foul of striking while a ball moved with that ball's value
  (``FrameState.left_table``: the balls the last stroke potted or forced off, until the next stroke).
  A ball the table never held at the strike is still refused.

Read and kept (the log cannot say more):

- A touching ball (3.8) set moving at the strike is a push stroke (3.8(b): "rozgrywający musi odegrać
  od niej bilę białą bez wprawienia w ruch bili dotykanej, inaczej jest to pchnięcie"), unless the
  referee is sure the striker did not move it (3.8(f)). The tracker writes such a ball as the first
  contact (the cue ball's path is within a diameter of it on the strike's first step) and never
  writes ``push_stroke``; a cue ball played away that comes back off a cushion onto the touching ball
  is logged the same way. The referee reads it as the contact (a touching ball on: no foul; a ball
  not on: ``wrong_ball_first``, the same penalty as the push, 3.12(b)); a push must be called by a
  person (the console's ``foul`` ``push_stroke`` ``in_last_stroke``).
- A ball still running from the stroke before that drops during the next stroke is that stroke's pot
  in the log (the tracker reports the pot when it comes); the referee rules it so, beside the foul
  of striking while it ran.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    clear_reds,
    decision,
    lot,
    match,
    over_checklist,
    pot,
    rule,
    safe,
    stroke,
    table,
    to_colours,
)

COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]

BEN_ON_RED = [match(reds=6), safe("red")]
"""Ann plays safe on a red: Ben to play, on a red, 0-0."""

BEN_ON_COLOUR = [*BEN_ON_RED, pot("red")]
"""Ben pots a red: 0-1, Ben on a colour."""

BEN_FREE_BALL = [match(reds=6), stroke([], free_ball=True)]
"""Ann misses every ball, Ben snookered: four to Ben, a free ball, reds on."""

BEN_FREE_BALL_ON_YELLOW = [
    match(reds=6),
    table(reds=0, colours=COLOURS, ball_on="yellow", score=[10, 10], striker=0),
    stroke([], free_ball=True),
]
"""Joined 10-10, Ann on the yellow, misses every ball: 10-14, Ben on the yellow with a free ball."""

ANN_ON_LAST_RED = [match(reds=6), table(reds=1, colours=COLOURS, ball_on="red", score=[10, 10], striker=0)]
"""Joined 10-10, Ann to play on the last red."""

ANN_ON_YELLOW = to_colours(6)
"""Ann clears six reds with six blacks: 48-0, Ann on the yellow."""

ANN_ON_PINK = [*ANN_ON_YELLOW, pot("yellow"), pot("green"), pot("brown"), pot("blue")]
"""Ann, 62-0, on the pink (the pink and the black left)."""


def _black_alone(score: list[int]) -> list[Any]:
    return [match(reds=6), table(reds=0, colours=["black"], ball_on="black", score=score, striker=0)]


ROWS = [
    # --- Two balls at once (3.6, 3.12(c), 3.10) ----------------------------------------------------
    # 3.6: "Nie jest dozwolone jednoczesne uderzenie [...] dwóch bil innych niż bile Czerwone lub bila
    # wolna i bila rozgrywana" - two reds at once are fair; every red potted scores (3.3(e)).
    (
        "3.6",
        "two reds hit at once, both potted: two points",
        [*BEN_ON_RED, stroke(["red", "red"], ["red", "red"])],
        {"foul": False, "score": [0, 2], "scored": ["red", "red"], "ball_on": "colour", "reds": 4},
    ),
    (
        "3.6",
        "two reds named by their ids hit at once, one potted: fair",
        [*BEN_ON_RED, stroke(["red-1", "red-2"], ["red-2"])],
        {"foul": False, "score": [0, 1], "reds": 5},
    ),
    (
        "3.6",
        "one red named twice as hit at once: refused (there is one red-1)",
        [*BEN_ON_RED, stroke(["red-1", "red-1"], [])],
        {"error": "first_contact: the red-1 is listed twice (there is one such ball)", "line": 3},
    ),
    # 3.12(c): "wartością bili rozgrywanej lub wartością wyższą z dwu bil branych pod uwagę" - a red and
    # the blue at once: five; the red potted does not score (3.11(e)) and stays down (3.3(g)).
    (
        "3.12(c)",
        "a red and the blue hit at once, the red potted: five, nothing scores",
        [*BEN_ON_RED, stroke(["red", "blue"], ["red"])],
        {"fouls": ["two_balls_at_once"], "penalty": 5, "score": [5, 0], "scored": [], "reds": 5},
    ),
    (
        "3.12(c)",
        "the blue nominated after a red, the blue and the pink at once: six",
        [*BEN_ON_COLOUR, stroke(["blue", "pink"], [], nominated="blue")],
        {"fouls": ["two_balls_at_once"], "penalty": 6, "score": [6, 1]},
    ),
    (
        "3.12(c)",
        "the blue nominated, the blue and the yellow at once: five (the ball on)",
        [*BEN_ON_COLOUR, stroke(["blue", "yellow"], [], nominated="blue")],
        {"fouls": ["two_balls_at_once"], "penalty": 5, "score": [5, 1]},
    ),
    (
        "3.12(c)/3.7",
        "the blue nominated, the blue and a red at once, the blue potted: five, the blue re-spotted",
        [*BEN_ON_COLOUR, stroke(["blue", "red"], ["blue"], nominated="blue")],
        {"fouls": ["two_balls_at_once"], "penalty": 5, "score": [5, 1], "respotted": ["blue"]},
    ),
    # 3.12(d): "po wbiciu Czerwonej [...] popełni faul przed zadeklarowaniem bili kolorowej" - two colours
    # at once show no one colour as the obvious intention: seven.
    (
        "3.12(d)",
        "after a red, nothing nominated, the blue and the pink at once: seven",
        [*BEN_ON_COLOUR, stroke(["blue", "pink"], [])],
        {"fouls": ["foul_before_nomination", "two_balls_at_once"], "penalty": 7, "score": [7, 1]},
    ),
    (
        "3.12(d)",
        "after a red, nothing nominated, two reds at once: reds in successive strokes, seven",
        [*BEN_ON_COLOUR, stroke(["red", "red"], [])],
        {"fouls": ["reds_in_successive_strokes"], "penalty": 7, "score": [7, 1]},
    ),
    (
        "3.12(c)",
        "on the yellow, the yellow and the green at once: four",
        [*ANN_ON_YELLOW, stroke(["yellow", "green"], [])],
        {"fouls": ["two_balls_at_once"], "penalty": 4, "score": [48, 4], "ball_on": "yellow"},
    ),
    # 3.10(b)/(e): the free ball and the ball on at once are fair; "Jeżeli zostaną wbite obydwie bile
    # [...] zaliczana jest tylko bila rozgrywana, chyba że rozgrywaną jest bila Czerwona, kiedy zaliczana
    # jest każda wbita bila. W tym drugim przypadku wolna bila ustawiana jest ponownie".
    (
        "3.10(e)",
        "free ball green nominated on the reds, green and a red at once, both potted: two",
        [*BEN_FREE_BALL, stroke(["green", "red"], ["green", "red"], nominated="green")],
        {"foul": False, "score": [0, 6], "respotted": ["green"], "reds": 5, "ball_on": "colour"},
    ),
    (
        "3.10(c)",
        "free ball not declared, the blue and a red at once, the blue potted: one, re-spotted",
        [*BEN_FREE_BALL, stroke(["blue", "red"], ["blue"])],
        {"foul": False, "score": [0, 5], "scored": ["blue"], "respotted": ["blue"]},
    ),
    (
        "3.12(c)",
        "free ball not declared, the blue and the pink at once: six (no one ball is the free ball)",
        [*BEN_FREE_BALL, stroke(["blue", "pink"], [])],
        {"fouls": ["two_balls_at_once"], "penalty": 6, "score": [6, 4]},
    ),
    # 3.10(b): "Jest faulem, jeżeli bila biała: - nie ma pierwszego kontaktu z bilą deklarowaną albo
    # jednocześnie z bilą deklarowaną i rozgrywaną".
    (
        "3.10(b)",
        "free ball blue nominated, two reds at once: a foul, four",
        [*BEN_FREE_BALL, stroke(["red", "red"], [], nominated="blue")],
        {"fouls": ["wrong_ball_first"], "penalty": 4, "score": [4, 4]},
    ),
    (
        "3.10(e)",
        "on the yellow, free ball green, green and yellow at once, both potted: the yellow only",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green", "yellow"], ["green", "yellow"], nominated="green")],
        {"score": [10, 16], "scored": ["yellow"], "respotted": ["green"], "ball_on": "green"},
    ),
    (
        "3.10(d)",
        "on the yellow, free ball green, green and yellow at once, the yellow potted: it stays down",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["green", "yellow"], ["yellow"], nominated="green")],
        {"score": [10, 16], "scored": ["yellow"], "respotted": [], "ball_on": "green"},
    ),
    # 3.10(a): the free ball "nabiera znaczenia i wartości bili rozgrywanej": the black as free ball on
    # the yellow is worth two, so the black with the green at once costs the green's three, i.e. four.
    (
        "3.12(c)/3.10(a)",
        "on the yellow, free ball black, black and green at once: four",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["black", "green"], [], nominated="black")],
        {"fouls": ["two_balls_at_once"], "penalty": 4, "score": [14, 14]},
    ),
    # --- Pots at the same time as the in-off, a ball off, the stroke's end ------------------------------
    (
        "3.12(a)/3.3(g)",
        "a red potted and the cue ball in-off with it: four, the red stays down",
        [*BEN_ON_RED, stroke(["red"], ["red", "white"])],
        {"fouls": ["cue_ball_potted"], "penalty": 4, "score": [4, 0], "reds": 5, "in_hand": True},
    ),
    # 3.7: a colour potted in a foul is not potted for good (3.3(f)): re-spotted, still on.
    (
        "3.12(a)/3.7",
        "on the yellow, the yellow potted with an in-off: four, the yellow re-spotted and still on",
        [*ANN_ON_YELLOW, stroke(["yellow"], ["yellow", "white"])],
        {"penalty": 4, "respotted": ["yellow"], "ball_on": "yellow", "colours": COLOURS},
    ),
    (
        "3.12(b)",
        "a red potted and the pink forced off at the same time: six, the pink re-spotted",
        [*BEN_ON_RED, stroke(["red"], ["red"], off_table=["pink"])],
        {"fouls": ["ball_off_table"], "penalty": 6, "respotted": ["pink"], "reds": 5},
    ),
    (
        "3.12(b)",
        "one red by its id both potted and off the table: refused",
        [*BEN_ON_RED, stroke(["red-1"], ["red-1"], off_table=["red-1"])],
        {"error": "'red-1' cannot be both potted and off the table", "line": 3},
    ),
    # --- The last red and a colour together (3.3(f), 3.4) -----------------------------------------------
    # "Jeśli ma to zastosowanie, po wbiciu ostatniej Czerwonej rozgrywana jest bila kolorowa" - for the
    # striker who potted it fairly; after a foul the next player is on the colours in order.
    (
        "3.3(f)/3.12(b)",
        "the last red potted with the pink: six, the red down, Ben on the yellow",
        [*ANN_ON_LAST_RED, stroke(["red"], ["red", "pink"])],
        {"penalty": 6, "score": [10, 16], "reds": 0, "respotted": ["pink"], "ball_on": "yellow"},
    ),
    (
        "3.3(f)/3.12(a)",
        "the last red potted with an in-off: four, Ben on the yellow in hand",
        [*ANN_ON_LAST_RED, stroke(["red"], ["red", "white"])],
        {"penalty": 4, "reds": 0, "ball_on": "yellow", "in_hand": True},
    ),
    (
        "3.3(f)/3.12(c)",
        "the last red and the yellow hit at once, the red potted: four, Ben on the yellow",
        [*ANN_ON_LAST_RED, stroke(["red", "yellow"], ["red"])],
        {"fouls": ["two_balls_at_once"], "penalty": 4, "reds": 0, "ball_on": "yellow"},
    ),
    (
        "3.3(f)/3.12(b)",
        "the blue nominated after the last-but-one red, the blue and the last red potted: five",
        [
            match(reds=6),
            table(reds=2, colours=COLOURS, ball_on="red", score=[10, 10], striker=0),
            pot("red"),
            stroke(["blue"], ["blue", "red"], nominated="blue"),
        ],
        {"fouls": ["potted_ball_not_on"], "penalty": 5, "reds": 0, "ball_on": "yellow", "score": [11, 15]},
    ),
    (
        "3.10(e)/3.3(f)",
        "free ball blue as a red with the last red, both potted: two, then a colour",
        [
            *ANN_ON_LAST_RED,
            stroke([], free_ball=True),
            stroke(["blue"], ["blue", "red"], nominated="blue"),
        ],
        {"score": [10, 16], "scored": ["blue", "red"], "respotted": ["blue"], "reds": 0, "ball_on": "colour"},
    ),
    # --- The black with another ball (3.4) ------------------------------------------------------------
    (
        "3.12(b)/3.7",
        "on the pink, the pink and the black potted together: seven, both re-spotted",
        [*ANN_ON_PINK, stroke(["pink"], ["pink", "black"])],
        {"penalty": 7, "respotted": ["black", "pink"], "ball_on": "pink", "frame_over": False},
    ),
    # 3.4(a): "Jeżeli na stole pozostała tylko Czarna, jej pierwsze wbicie lub faul kończy frejma".
    (
        "3.4(a)",
        "the last black potted with an in-off: the foul ends the frame",
        [*_black_alone([40, 30]), stroke(["black"], ["black", "white"])],
        {"penalty": 7, "score": [40, 37], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(a)/(b)",
        "the last black potted with an in-off, the penalty levelling the scores: a re-spotted black",
        [*_black_alone([37, 30]), stroke(["black"], ["black", "white"])],
        {"score": [37, 37], "frame_over": False, "respotted_black": True, "status": "respotted_black_lot"},
    ),
    (
        "3.4(b)",
        "the re-spotted black potted with an in-off: the frame to the opponent",
        [
            *_black_alone([37, 30]),
            stroke(["black"], ["black", "white"]),
            lot(1),
            stroke(["black"], ["black", "white"]),
        ],
        {"score": [44, 37], "frame_over": True, "winner": 0},
    ),
    (
        "3.4(a)/3.7(b)",
        "the last black potted with a wrongly spotted pink: the foul ends the frame",
        [
            *_black_alone([40, 30]),
            {"type": "spot_error", "ball": "pink", "error": "wrongly_spotted"},
            stroke(["black"], ["black", "pink"]),
        ],
        {"fouls": ["potted_ball_not_on"], "penalty": 7, "score": [40, 37], "frame_over": True, "winner": 0},
    ),
    # --- Struck while a ball of the stroke before still ran (3.12(b)) ----------------------------------
    (
        "3.12(b) fault",
        "the yellow potted for good, the green struck while the yellow still ran: four",
        [*ANN_ON_YELLOW, pot("yellow"), stroke(["green"], ["green"], moving_at_strike=["yellow"])],
        {
            "fouls": ["balls_moving"],
            "penalty": 4,
            "score": [50, 4],
            "ball_on": "green",
            "respotted": ["green"],
        },
    ),
    (
        "3.12(b) fault",
        "the last red potted, the black potted while the red still ran: seven (the black on)",
        [*ANN_ON_LAST_RED, pot("red"), stroke(["black"], ["black"], moving_at_strike=["red"])],
        {"fouls": ["balls_moving"], "penalty": 7, "score": [11, 17], "reds": 0, "ball_on": "yellow"},
    ),
    (
        "3.12(b) fault",
        "the last red forced off, the yellow hit while it still ran: four",
        [
            *ANN_ON_LAST_RED,
            stroke(["red"], [], off_table=["red"]),
            stroke(["yellow"], [], moving_at_strike=["red"]),
        ],
        {"fouls": ["balls_moving"], "penalty": 4, "score": [14, 14]},
    ),
    (
        "3.12(b)/3.4(a) fault",
        "the pink potted for good, the black struck while the pink still ran: the foul ends the frame",
        [*ANN_ON_PINK, pot("pink"), stroke(["black"], [], moving_at_strike=["pink"])],
        {"fouls": ["balls_moving"], "penalty": 7, "score": [68, 7], "frame_over": True, "winner": 0},
    ),
    (
        "3.12(b)",
        "a ball potted two strokes before cannot still run at this strike: refused",
        [*ANN_ON_YELLOW, pot("yellow"), pot("green"), stroke(["brown"], [], moving_at_strike=["yellow"])],
        {"error": "moving_at_strike: the yellow is not on the table", "line": 16},
    ),
    (
        "3.12(b)",
        "two reds running at the strike, the stroke before having potted the last one: refused",
        [*ANN_ON_LAST_RED, pot("red-3"), stroke(["black"], [], moving_at_strike=["red-3", "red-4"])],
        {"error": "moving_at_strike: the red is not on the table", "line": 4},
    ),
    (
        "3.12(b)",
        "a ball that ran from the stroke before dropping in this one: its pot and the foul, six",
        [*BEN_ON_RED, stroke(["red"], ["red", "pink"], moving_at_strike=["pink"])],
        {"fouls": ["potted_ball_not_on", "balls_moving"], "penalty": 6, "respotted": ["pink"]},
    ),
    # --- The touching ball (3.8) ---------------------------------------------------------------------
    # 3.8(c): "Odegranie bili białej bez wprawienia w ruch bili dotykanej nie jest faulem, jeżeli: - bila
    # dotykana jest bilą rozgrywaną" - the log's contact with it is read as the contact (see above).
    (
        "3.8(c)",
        "touching a red, the red logged as the first contact and potted: one",
        [match(reds=6), stroke(["red"], [], touching=["red-1"]), stroke(["red-1"], ["red-1"])],
        {"foul": False, "score": [0, 1]},
    ),
    (
        "3.8(b)",
        "touching a red, a push called on the stroke: four",
        [
            match(reds=6),
            stroke(["red"], [], touching=["red-1"]),
            stroke(["red-1"], [], fouls=["push_stroke"]),
        ],
        {"fouls": ["push_stroke"], "penalty": 4, "score": [4, 0]},
    ),
    # 3.8(d): "Rozgrywający musi odegrać bilę białą bez poruszenia bili nierozgrywanej, jednak pierwszy
    # kontakt bili białej musi nastąpić z bilą rozgrywaną" - the blue moved at the strike: five either way.
    (
        "3.8(d)",
        "touching the blue (not on), the blue logged as the first contact: five",
        [match(reds=6), stroke(["red"], [], touching=["blue"]), stroke(["blue"], [])],
        {"fouls": ["wrong_ball_first"], "penalty": 5, "score": [5, 0]},
    ),
]


@over_checklist(ROWS)
def test_the_simultaneity_audit(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


ORDERED_LISTS = ("first_contact", "potted", "off_table", "moving_at_strike")

UNORDERED_STROKES = [
    [*BEN_ON_RED, stroke(["red", "blue"], ["red"])],
    [*BEN_ON_COLOUR, stroke(["blue", "red"], ["blue", "red"], nominated="blue")],
    [*BEN_FREE_BALL, stroke(["green", "red"], ["red", "green"], nominated="green")],
    [*BEN_FREE_BALL_ON_YELLOW, stroke(["green", "yellow"], ["yellow", "green"])],
    [*ANN_ON_LAST_RED, stroke(["red"], ["red", "pink", "white"], off_table=["blue", "black"])],
    [*ANN_ON_PINK, stroke(["pink"], ["black", "pink"], moving_at_strike=["blue", "black"])],
    [
        match(reds=6),
        *clear_reds(2),
        stroke(["red", "red"], ["red", "red"], off_table=["yellow"]),
        decision("play"),
    ],
]


def _reversed_lists(line: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(line)
    for key in ORDERED_LISTS:
        if isinstance(out.get(key), list):
            out[key].reverse()
    return out


@pytest.mark.parametrize("lines", UNORDERED_STROKES)
def test_the_order_of_balls_reported_at_once_changes_no_ruling(lines: list[Any]) -> None:
    """Balls reported in one stroke carry no order (CONTRACTS.md §1: two entries of ``first_contact``
    are hit at the same time; a camera's pots in one frame have none): every list reversed, each
    ruling is the same, ``scored`` as a set of balls (it follows ``potted``)."""
    plain, reversed_ = rule(lines), rule([_reversed_lists(line) for line in lines])
    for a, b in zip(plain, reversed_, strict=True):
        assert "error" not in a, a
        assert {k: v for k, v in a.items() if k != "scored"} == {k: v for k, v in b.items() if k != "scored"}
        assert sorted(a["scored"]) == sorted(b["scored"])
