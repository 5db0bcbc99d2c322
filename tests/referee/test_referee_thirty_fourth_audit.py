"""The thirty-fourth audit: the referee's examination. Each row is a situation an examiner sets a
trainee referee, a whole sequence of strokes worded from the Polish text
(``../shared/rules/section3-rules-pl.txt``, the clause quoted above the rows it rules), played as a
frame log through the fold; the expected fields are everything the referee announces on the last
line: the foul and its value, who plays next, the free ball (and what is then on), the miss and the
replacement, the re-spotted colours and where, the score and the points remaining, the snookers
required, the frame's end and a re-spotted black, the warning. Scores are ``[Ann, Ben]``; Ann
breaks; six reds unless a row says otherwise.

Result: 137 situations (121 of two strokes or more) agree with the Polish text; no fault was found,
so the referee is unchanged. Judgements the texts leave open, read and kept (each has its row):

- 3.8(c): "Odegranie bili białej bez wprawienia w ruch bili dotykanej nie jest faulem, jeżeli bila
  dotykana jest bilą rozgrywaną" - playing away from a touching ball on counts as hitting it; a ball
  not on hit afterwards is no foul (``rules`` module docstring).
- 3.8(a) after a replacement (3.14(a), 3.9(b)): the cue ball put back against a ball that is or can be
  on keeps the touching ball (the next stroke is ruled with it; the scoreboard's ``touching`` shows
  it), but TOUCHING BALL is not called anew on the replacement's line: the call was made when the cue
  ball came to rest there ("ostatecznie nieruchomieje"). Likewise a free ball restored by a
  replacement is not called anew (``free_ball`` is true again).
- 3.12(d): after a red, a foul with no colour declared and none obvious (nothing hit first, a red hit
  first) is seven: "po wbiciu Czerwonej [...] popełni faul przed zadeklarowaniem bili kolorowej".
- 3.14(b): a player needing snookers is taken not to have missed on purpose unless a person calls
  ``miss``; 3.14(c) then calls the next failure from the same position a miss whatever the scores.
- 3.17(c): a player out of turn is the offender; the next after him in the order decides, and after
  his visit the order goes on from him ("partner faulującego może zostać pozbawiony swojego
  podejścia").
- 3.7(c), ``before_spotting`` after a stroke that potted two colours: the lower is the ball concerned
  (the log does not say which one was still unspotted).

Where the log cannot express a situation (the list below), the row rules what the log can say.

What the log cannot say, and what the tracker writes today:

- 3.5(b), the cue ball touched by the tip while being placed in the D, the striker not attempting a
  stroke: no line at all (the cue ball is not yet in play); a ``foul`` ``touched_ball`` on ``white``
  while in hand is refused. The tracker writes nothing until a stroke starts.
- 3.14(b), "a sędzia jest przekonany, że chybienie nie było zamierzone": the referee's conviction
  that a miss by a player needing snookers was not intended cannot be seen; the fold takes it as
  given (no miss) unless a person calls ``miss``. The tracker writes no ``miss``.
- 3.14(f)-(i), which balls other than the cue ball the referee puts back after a miss, and the
  consultation: a ``replace`` decision restores the whole position as the log last knew it; a
  ball the referee chose to leave is a ``ball_moved`` line with its ``position``.
- 3.8(f), the referee sure the striker did not move a touching ball: the tracker writes
  ``touching_moved`` for any touching ball it saw move; a person removes it.
- 3.12(d), "używa bili poza stołem", "nie zadeklaruje bili rozgrywanej, gdy jest o to proszony",
  a measuring device, a jump shot, a double hit, conferring (3.17(e)), a foot off the floor: only a
  person's call (``fouls`` / ``foul``); the tracker writes none of them.
- 3.2(b), the marker of a ball taken for cleaning touched by a player not striking: the log has no
  marker; a ``foul`` ``touched_ball`` on the ball it stands for, with that ``player``, rules it (the
  marker takes the ball's value, the order of play unchanged), as the 3.2(b) row does for a ball.
- 3.15, a ball moved by someone other than the striker: a person's ``ball_moved`` line; the tracker
  writes the move as an outside event only (it cannot tell who moved it).
- The lot (3.4(b)) and the order of play (3.17(a)): a person's ``respotted_black`` and ``new_frame``
  lines; without them a stroke naming its ``player`` shows the lot.
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    assert_last_ruling,
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

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee.geometry import DEFAULT_GEOMETRY_CONFIG

COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
SPOTS = {name: [x, y] for name, (x, y) in STANDARD_TABLE.spots.items()}
CX = STANDARD_TABLE.centre_x_mm
RESPOT_STEP = (
    STANDARD_TABLE.ball_diameter_mm + DEFAULT_GEOMETRY_CONFIG.touch_tolerance_mm
) + DEFAULT_GEOMETRY_CONFIG.placement_gap_mm
"""How far above its spot a colour goes when every spot is taken and a ball sits on its own spot
(3.7(f)): the nearest free point straight up, towards the top cushion."""


def _above_spot(colour: str) -> list[float]:
    return [CX, SPOTS[colour][1] + RESPOT_STEP]


BEN_ON_RED = [match(reds=6), safe("red")]
"""Ann breaks off safely: Ben to play, on a red, 0-0."""

BEN_FREE_BALL = [match(reds=6), stroke([], free_ball=True)]
"""Ann misses every ball and leaves Ben snookered: 0-4, Ben has a free ball, reds on."""

ANN_ON_YELLOW = to_colours(6)
"""Ann clears six reds with six blacks: 48-0, Ann on the yellow."""

BEN_FREE_BALL_ON_YELLOW = [*ANN_ON_YELLOW, stroke([], free_ball=True)]
"""Ann misses every ball on the yellow and leaves Ben snookered: 48-4, Ben a free ball."""

ANN_ON_BLUE = [*ANN_ON_YELLOW, pot("yellow"), pot("green"), pot("brown")]
"""Ann, 57-0, on the blue."""

ANN_ON_PINK = [*ANN_ON_BLUE, pot("blue")]
"""Ann, 62-0, on the pink."""

ANN_ON_LAST_RED = [match(reds=6), table(reds=1, colours=COLOURS, ball_on="red", score=[10, 10], striker=0)]
"""Joined 10-10, Ann to play on the last red (35 remaining)."""

MISS = {"clear_path": True, "full_ball": True}
"""A failure to hit a ball on with a full ball open (3.14(b)-(c))."""

REPLACED = "BALLS REPLACED"


def _black_alone(score: list[int]) -> list[Any]:
    return [match(reds=6), table(reds=0, colours=["black"], ball_on="black", score=score, striker=0)]


def _concede(**extra: Any) -> dict[str, Any]:
    return {"type": "concede", **extra}


def _spot_error(ball: str, error: str, **extra: Any) -> dict[str, Any]:
    return {"type": "spot_error", "ball": ball, "error": error, **extra}


ROWS = [
    # --- The break-off and the cue ball in hand (3.3(c), 3.5, 3.11(f), 3.12(a)) ---------------------
    # 3.3(h): "Jeżeli rozgrywający w wykonanym zagraniu nie zdobywa punktów [...] jego podejście kończy
    # się i następny zawodnik gra bilę białą z pozycji, w której biała zatrzymała się".
    (
        "3.3(h)",
        "a safe break-off: Ben on a red, nothing scored",
        BEN_ON_RED,
        {
            "foul": False,
            "striker": 1,
            "ball_on": "red",
            "score": [0, 0],
            "break": 0,
            "in_hand": False,
            "points_remaining": 75,
            "announcements": [],
        },
    ),
    # 3.11(f): "lub z pozycji w ręce, jeżeli biała opuściła pole gry"; 3.12(a): "spowodowanie
    # wpadnięcia bili białej do kieszeni" - the value of the ball on, a red: four.
    (
        "3.11(f)",
        "an in-off on the break: four, Ben from hand, may put Ann in again",
        [match(reds=6), stroke(["red"], [], cue_ball="potted")],
        {
            "fouls": ["cue_ball_potted"],
            "penalty": 4,
            "score": [0, 4],
            "striker": 1,
            "in_hand": True,
            "free_ball": False,
            "options": ["play", "play_again"],
            "announcements": ["FOUL", "FOUR AWAY"],
        },
    ),
    # 3.11(h): "musi grać następne zagranie, jeśli życzy sobie tego następny w kolejności".
    (
        "3.11(h)",
        "an in-off on the break, Ann put in again: Ann plays from hand",
        [match(reds=6), stroke(["red"], [], cue_ball="potted"), decision("play_again")],
        {"striker": 0, "in_hand": True, "score": [0, 4], "decision": "play_again", "ball_on": "red"},
    ),
    # 3.5: "Bila biała, grana z pozycji w ręce, musi być ustawiona w strefie 'D'"; 3.12(a)
    # "nieprawidłowa gra z pozycji biała w ręce" - the value of the ball on: four.
    (
        "3.5",
        "in-off, Ben plays from hand with the cue ball placed above the baulk line: four back",
        [
            match(reds=6),
            stroke(["red"], [], cue_ball="potted"),
            safe("red", positions=at({"white": [CX, SPOTS["brown"][1] + 150.0]}, None)),
        ],
        {"fouls": ["improper_in_hand"], "penalty": 4, "score": [4, 4], "striker": 0, "in_hand": False},
    ),
    (
        "3.5",
        "in-off, Ben plays from hand from the brown spot (on the line of the D): fair",
        [
            match(reds=6),
            stroke(["red"], [], cue_ball="potted"),
            safe("red", positions=at({"white": [CX + 100.0, SPOTS["brown"][1]]}, None)),
        ],
        {"foul": False, "score": [0, 4], "striker": 0},
    ),
    (
        "3.11(f)",
        "Ben forces the cue ball off the table: four, Ann from hand",
        [*BEN_ON_RED, stroke(["red"], [], cue_ball="off_table")],
        {"fouls": ["cue_ball_off_table"], "penalty": 4, "score": [4, 0], "striker": 0, "in_hand": True},
    ),
    # --- Red, colour, red (3.3(e)-(f)) ------------------------------------------------------------------
    # 3.3(f): "ten sam zawodnik wykonuje następne zagranie, w którym bilą rozgrywaną jest dowolnie
    # wybrana przez rozgrywającego bila kolorowa. Jeżeli ta zostanie wbita, jest zaliczana i ustawiana
    # ponownie na stole."
    (
        "3.3(f)",
        "fifteen reds: red then black, eight, the black re-spotted, a red on",
        [match(), pot("red"), pot("black")],
        {
            "foul": False,
            "score": [8, 0],
            "break": 8,
            "striker": 0,
            "ball_on": "red",
            "reds": 14,
            "respotted": ["black"],
            "points_remaining": 139,
            "announcements": ["EIGHT"],
        },
    ),
    (
        "3.3(f)",
        "red then the pink without a nomination, the pink the obvious intention: seven",
        [match(reds=6), pot("red"), pot("pink")],
        {"foul": False, "score": [7, 0], "break": 7, "respotted": ["pink"], "ball_on": "red"},
    ),
    # 3.12(b): "wartością wyższą z wartości: bili rozgrywanej lub bili branej pod uwagę -
    # spowodowanie pierwszego kontaktu bili białej z bilą nierozgrywaną".
    (
        "3.12(b)",
        "red, the blue nominated, the pink hit first: six (the pink's value)",
        [match(reds=6), pot("red"), nominate("blue"), safe("pink")],
        {
            "fouls": ["wrong_ball_first"],
            "penalty": 6,
            "score": [1, 6],
            "striker": 1,
            "ball_on": "red",
            "announcements": ["FOUL", "SIX AWAY"],
        },
    ),
    (
        "3.12(b)",
        "red, the green nominated, the blue hit first and the green potted: five, green re-spotted",
        [match(reds=6), pot("red"), nominate("green"), stroke(["blue"], ["green"])],
        {"fouls": ["wrong_ball_first"], "penalty": 5, "score": [1, 5], "respotted": ["green"], "scored": []},
    ),
    (
        "3.12(b)",
        "red, the blue nominated, the pink potted: six, the pink re-spotted",
        [match(reds=6), pot("red"), nominate("blue"), pot("pink")],
        {"penalty": 6, "score": [1, 6], "respotted": ["pink"], "scored": [], "ball_on": "red"},
    ),
    # 3.12(d): "wartością siedmiu punktów karnych, jeżeli rozgrywający [...] nie zadeklaruje bili
    # rozgrywanej, gdy jest o to proszony przez sędziego".
    (
        "3.12(d)",
        "red, asked to nominate, Ann does not, then plays the black: seven",
        [match(reds=6), pot("red"), safe("black", fouls=["failed_to_declare"])],
        {"penalty": 7, "score": [1, 7], "striker": 1, "announcements": ["FOUL", "SEVEN AWAY"]},
    ),
    # 3.12(d): "po wbiciu Czerwonej [...] popełni faul przed zadeklarowaniem bili kolorowej" - seven.
    (
        "3.12(d)",
        "red, then the yellow touched by the sleeve before a colour is nominated: seven",
        [match(reds=6), pot("red"), foul("touched_ball", "yellow")],
        {"penalty": 7, "score": [1, 7], "striker": 1, "ball_on": "red"},
    ),
    (
        "3.12(d)",
        "red, the pink nominated, then the yellow touched: the higher of pink and yellow, six",
        [match(reds=6), pot("red"), nominate("pink"), foul("touched_ball", "yellow")],
        {"penalty": 6, "score": [1, 6], "striker": 1},
    ),
    # --- Free ball (3.10) ----------------------------------------------------------------------------
    # 3.10(a): "bila tak deklarowana nabiera znaczenia i wartości bili rozgrywanej, jednak po wbiciu
    # jest ustawiana na punkcie wyznaczonym według własnej wartości"; 3.10(c).
    (
        "3.10(a)",
        "a free ball with reds on: the green nominated and potted as a red, one, a colour on",
        [*BEN_FREE_BALL, nominate("green"), pot("green")],
        {
            "foul": False,
            "score": [0, 5],
            "break": 1,
            "ball_on": "colour",
            "respotted": ["green"],
            "reds": 6,
            "free_ball": False,
            "points_remaining": 82,
        },
    ),
    (
        "3.10(a)",
        "the free ball as a red, then the black: eight in the break, a red on",
        [*BEN_FREE_BALL, nominate("green"), pot("green"), pot("black")],
        {"score": [0, 12], "break": 8, "ball_on": "red", "reds": 6, "points_remaining": 75},
    ),
    # 3.10(e): "zaliczana jest tylko bila rozgrywana, chyba że rozgrywaną jest bila Czerwona, kiedy
    # zaliczana jest każda wbita bila. W tym drugim przypadku wolna bila ustawiana jest ponownie".
    (
        "3.10(e)",
        "the free ball (green) and a red potted together with reds on: two, green re-spotted",
        [*BEN_FREE_BALL, nominate("green"), stroke(["green"], ["green", "red"])],
        {"foul": False, "score": [0, 6], "break": 2, "reds": 5, "respotted": ["green"], "ball_on": "colour"},
    ),
    (
        "3.10(e)",
        "on the yellow, the free ball (green) and the yellow potted: only the yellow counts",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("green"), stroke(["green"], ["green", "yellow"])],
        {
            "foul": False,
            "score": [48, 6],
            "break": 2,
            "respotted": ["green"],
            "ball_on": "green",
            "points_remaining": 25,
        },
    ),
    (
        "3.10(c)",
        "on the yellow, the brown nominated and potted: the yellow's two, brown re-spotted, yellow on",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("brown"), pot("brown")],
        {"score": [48, 6], "respotted": ["brown"], "ball_on": "yellow", "points_remaining": 27, "striker": 1},
    ),
    # 3.10(d): "po pierwszym kontakcie bili białej [...] jednocześnie z bilą deklarowaną i rozgrywaną,
    # bila rozgrywana jest zaliczana i pozostaje poza polem gry".
    (
        "3.10(d)",
        "on the yellow, the brown nominated, brown and yellow hit at once, yellow potted: two",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("brown"), stroke(["brown", "yellow"], ["yellow"])],
        {"foul": False, "score": [48, 6], "ball_on": "green", "respotted": [], "colours": COLOURS[1:]},
    ),
    # 3.10(b): "Jest faulem, jeżeli bila biała nie ma pierwszego kontaktu z bilą deklarowaną albo
    # jednocześnie z bilą deklarowaną i rozgrywaną".
    (
        "3.10(b)",
        "on the yellow, the brown nominated, the yellow hit first: four",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("brown"), safe("yellow")],
        {"foul": True, "penalty": 4, "score": [52, 4], "striker": 0, "ball_on": "yellow"},
    ),
    (
        "3.10(b)",
        "on the yellow, the black nominated as the free ball, the pink hit first: six",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("black"), safe("pink")],
        {"foul": True, "penalty": 6, "score": [54, 4], "striker": 0},
    ),
    # 3.10(f): "Jeżeli zawodnik faulujący otrzymał polecenie dalszej gry, ogłoszenie wolnej bili traci
    # ważność."
    (
        "3.10(f)",
        "a free ball declined: Ann put in again, no free ball, the points remaining without it",
        [*BEN_FREE_BALL, decision("play_again")],
        {"striker": 0, "free_ball": False, "points_remaining": 75, "ball_on": "red", "score": [0, 4]},
    ),
    (
        "3.12(d)",
        "a free ball potted as a red, then a red played at: seven",
        [*BEN_FREE_BALL, nominate("green"), pot("green"), safe("red", fouls=["reds_in_successive_strokes"])],
        {"fouls": ["reds_in_successive_strokes"], "penalty": 7, "score": [7, 5], "striker": 0},
    ),
    # --- Foul and a miss; the replacement; the warning (3.14) ------------------------------------------
    # 3.14(b): "nie trafia pierwszym uderzeniem bili rozgrywanej, a możliwe jest trafienie w linii
    # prostej [...] sędzia ogłasza FAUL I CHYBIENIE".
    (
        "3.14(b)",
        "Ben misses every red with a line open: foul and a miss, four",
        [*BEN_ON_RED, stroke([], **MISS)],
        {
            "miss": True,
            "penalty": 4,
            "score": [4, 0],
            "striker": 0,
            "options": ["play", "play_again", "replace"],
            "announcements": ["FOUL AND A MISS", "FOUR AWAY"],
        },
    ),
    # 3.14(a): "następny zawodnik może nakazać faulującemu ponowną grę z pozycji [...] poprzedniej".
    (
        "3.14(a)",
        "the miss, the balls replaced: Ben again, on a red",
        [*BEN_ON_RED, stroke([], **MISS), decision("replace")],
        {
            "striker": 1,
            "score": [4, 0],
            "ball_on": "red",
            "decision": "replace",
            "warning": False,
            "announcements": [REPLACED],
        },
    ),
    (
        "3.14(a)",
        "the miss, Ben put in again from the position left: Ben on a red",
        [*BEN_ON_RED, stroke([], **MISS), decision("play_again")],
        {"striker": 1, "score": [4, 0], "ball_on": "red", "decision": "play_again"},
    ),
    # 3.14(a): "bilą kolorową do wyboru rozgrywającego, jeśli bilą rozgrywaną była bila kolorowa po
    # wbiciu Czerwonej".
    (
        "3.14(a)",
        "a red, the blue nominated, every colour missed with a line open, replaced: Ann on a colour",
        [match(reds=6), pot("red"), nominate("blue"), stroke([], **MISS), decision("replace")],
        {"striker": 0, "ball_on": "colour", "nominated": None, "score": [1, 5], "reds": 5, "break": 0},
    ),
    (
        "3.14(a)",
        "a red, no colour nominated, every ball missed (a foul before nominating, seven), Ann put in "
        "again from the position left: a red on",
        [match(reds=6), pot("red"), stroke([], **MISS), decision("play_again")],
        {"striker": 0, "ball_on": "red", "score": [1, 7], "reds": 5},
    ),
    # 3.14(c): "faulujący musi być ostrzeżony przez sędziego, że trzeci taki faul spowoduje przyznanie
    # frejmu przeciwnikowi".
    (
        "3.14(c)",
        "two misses with a full ball open: the warning due, not yet given",
        [*BEN_ON_RED, stroke([], **MISS), decision("replace"), stroke([], **MISS)],
        {"miss": True, "score": [8, 0], "warning": False, "warning_due": True},
    ),
    (
        "3.14(c)",
        "two misses, the balls replaced again: the warning given",
        [*BEN_ON_RED, stroke([], **MISS), decision("replace"), stroke([], **MISS), decision("replace")],
        {"warning": True, "warning_due": False, "striker": 1, "score": [8, 0]},
    ),
    (
        "3.14(c)",
        "the third miss after the warning: the frame to Ann",
        [
            *BEN_ON_RED,
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
        ],
        {"frame_over": True, "winner": 0, "frames": [1, 0], "score": [12, 0], "frame_ended": True},
    ),
    (
        "3.14(c)",
        "two misses, Ann plays on herself: the warning lapses unsaid",
        [*BEN_ON_RED, stroke([], **MISS), decision("replace"), stroke([], **MISS), decision("play")],
        {"warning": False, "warning_due": False, "striker": 0, "score": [8, 0]},
    ),
    # 3.14(d): "chybienie nie może być ogłoszone, jeśli zagranie nie zostało wykonane [...] wcześniejsze
    # ostrzeżenie o możliwości przyznania frejmu przeciwnikowi zostaje zrealizowane".
    (
        "3.14(d)",
        "warned, Ben touches a red while preparing: four, no miss, the warning stands",
        [
            *BEN_ON_RED,
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
            decision("replace"),
            foul("touched_ball", "red"),
        ],
        {
            "miss": False,
            "penalty": 4,
            "score": [12, 0],
            "warning": True,
            "options": ["play", "play_again", "replace"],
        },
    ),
    # 3.14(b): "chyba że któryś z zawodników potrzebuje snookera przed wykonaniem [...] tego zagrania".
    (
        "3.14(b)",
        "Ben, needing snookers on the yellow, misses it with a line open: four, no miss",
        [*ANN_ON_YELLOW, safe("yellow"), stroke([], clear_path=True)],
        {"miss": False, "penalty": 4, "score": [52, 0], "options": ["play", "play_again"]},
    ),
    # 3.14: "z wyjątkiem przypadków, gdy na stole pozostała tylko bila Czarna"; 3.4(a).
    (
        "3.14",
        "the black alone, Ann leading by ten misses it: no miss, the frame to Ann",
        [*_black_alone([20, 10]), stroke([], miss=True)],
        {"miss": False, "frame_over": True, "winner": 0, "score": [20, 17], "penalty": 7},
    ),
    (
        "3.14",
        "miss rule off (amateur play): a failure with a line open is only a foul",
        [match(reds=6, miss_rule="off"), safe("red"), stroke([], **MISS)],
        {"miss": False, "penalty": 4, "options": ["play", "play_again"]},
    ),
    # --- Re-spotting (3.7) -------------------------------------------------------------------------------
    # 3.7(d): "Jeżeli bila kolorowa ma być ustawiona na swoim punkcie wyznaczonym i punkt ten jest
    # zajęty, należy ją ustawić na najwyższym wolnym punkcie wyznaczonym."
    (
        "3.7(d)",
        "red, black potted, a red on the black spot: the black goes on the pink spot",
        [
            match(reds=6),
            pot("red"),
            pot("black", positions=at(None, {"white": [CX, 2000.0], "red-1": SPOTS["black"]})),
        ],
        {"score": [8, 0], "respotted": [{"ball": "black", "position": SPOTS["pink"]}]},
    ),
    # 3.7(e): "Jeżeli do ustawienia jest więcej niż jedna bila kolorowa i ich punkty wyznaczone są
    # zajęte, pierwszeństwo ma bila (bile) o większej wartości." The pink's own spot is free.
    (
        "3.7(e)",
        "pink and black potted in a foul, a red on the black spot: pink on its own, black on the blue's",
        [
            *BEN_ON_RED,
            stroke(
                ["red"],
                ["pink", "black"],
                positions=at(None, {"white": [CX, 1000.0], "red-1": SPOTS["black"], "blue": [300.0, 1784.5]}),
            ),
        ],
        {
            "penalty": 7,
            "score": [7, 0],
            "respotted": [
                {"ball": "black", "position": SPOTS["blue"]},
                {"ball": "pink", "position": SPOTS["pink"]},
            ],
        },
    ),
    # 3.7(f): "Jeżeli wszystkie punkty wyznaczone są zajęte, bile kolorowe ustawia się możliwie
    # najbliżej punktów własnych, pomiędzy punktem własnym a najbliższą częścią górnej bandy."
    (
        "3.7(f)",
        "red, black potted, every spot taken and a red on the black spot: the black above its spot",
        [
            match(reds=6),
            pot("red"),
            pot(
                "black",
                positions=at(
                    None,
                    {
                        "white": [300.0, 2000.0],
                        "red-1": SPOTS["black"],
                        **{c: SPOTS[c] for c in COLOURS[:-1]},
                    },
                ),
            ),
        ],
        {"respotted": [{"ball": "black", "position": _above_spot("black")}]},
    ),
    # 3.7(c): "z nałożeniem kary, jeśli rozgrywający zagrał, zanim sędzia zdążył ustawić bilę"; 3.12(b)
    # "uderzenia, zanim sędzia zakończył ustawianie bil kolorowych" - the higher value: the pink's six.
    (
        "3.7(c)",
        "red, pink, and Ann strikes at a red before the pink is re-spotted: six",
        [match(reds=6), pot("red"), pot("pink"), safe("red", fouls=["before_spotting"])],
        {"fouls": ["before_spotting"], "penalty": 6, "score": [7, 6], "striker": 1},
    ),
    # 3.7(c): "bez kary, jeśli zostanie stwierdzone, że brak bili na stole wynika z poprzedniego
    # przeoczenia".
    (
        "3.7(c)",
        "red, blue, the blue left off, a red potted, then the blue spotted: no penalty, Ann on",
        [
            match(reds=6),
            pot("red"),
            pot("blue"),
            _spot_error("blue", "not_spotted"),
            pot("red"),
            _spot_error("blue", "not_spotted", corrected=True),
        ],
        {
            "foul": False,
            "penalty": 0,
            "score": [7, 0],
            "break": 7,
            "striker": 0,
            "ball_on": "colour",
            "corrections": ["missing_colour_spotted"],
            "not_spotted": [],
        },
    ),
    # 3.7(b): "Jeżeli bila kolorowa została błędnie ustawiona na stole po ostatecznym wbiciu [...] jest
    # usuwana ze stołu bez kary zaraz po wykryciu błędu i gra jest kontynuowana."
    (
        "3.7(b)",
        "the yellow potted for good and wrongly spotted, the error found: removed, Ann on the green",
        [
            *ANN_ON_YELLOW,
            pot("yellow"),
            _spot_error("yellow", "wrongly_spotted"),
            _spot_error("yellow", "wrongly_spotted", corrected=True),
        ],
        {
            "foul": False,
            "score": [50, 0],
            "break": 50,
            "striker": 0,
            "ball_on": "green",
            "corrections": ["wrongly_spotted_removed"],
            "wrongly_spotted": [],
            "points_remaining": 25,
        },
    ),
    # --- The end of the frame and the re-spotted black (3.4) ------------------------------------------
    # 3.4(a): "Jeżeli na stole pozostała tylko Czarna, jej pierwsze wbicie lub faul kończy frejma."
    (
        "3.4(a)",
        "the black alone, Ann 40-30 pots it: the frame to Ann, 47-30",
        [*_black_alone([40, 30]), pot("black")],
        {
            "frame_over": True,
            "frame_ended": True,
            "winner": 0,
            "score": [47, 30],
            "frames": [1, 0],
            "points_remaining": 0,
            "ball_on": "none",
        },
    ),
    (
        "3.4(a)",
        "the black alone, Ann 33-30 misses it: seven to Ben, the frame to Ben",
        [*_black_alone([33, 30]), stroke([])],
        {"frame_over": True, "winner": 1, "score": [33, 37], "penalty": 7},
    ),
    # 3.4(b): "Czarna ustawiana jest na Punkcie Głównym; zawodnicy losują kolejność gry".
    (
        "3.4(b)",
        "the black alone, Ann 30-37 pots it to tie: a re-spotted black, the lot",
        [*_black_alone([30, 37]), pot("black")],
        {
            "score": [37, 37],
            "frame_over": False,
            "respotted_black": True,
            "status": "respotted_black_lot",
            "respotted": ["black"],
            "snookers_required": [0, 0],
        },
    ),
    (
        "3.4(b)",
        "the black alone, Ann 37-30 misses it to tie: a re-spotted black",
        [*_black_alone([37, 30]), stroke([])],
        {"score": [37, 37], "frame_over": False, "respotted_black": True, "status": "respotted_black_lot"},
    ),
    # 3.4(b): "kolejny rozgrywający gra z pozycji biała w ręce".
    (
        "3.4(b)",
        "a re-spotted black, Ben wins the lot: Ben from hand, break 0",
        [*_black_alone([30, 37]), pot("black"), lot(1)],
        {"striker": 1, "in_hand": True, "break": 0, "ball_on": "black", "status": "in_play"},
    ),
    # 3.4(b): "następne wbicie lub faul kończy frejma".
    (
        "3.4(b)",
        "a re-spotted black, Ben pots it: the frame to Ben",
        [*_black_alone([30, 37]), pot("black"), lot(1), pot("black")],
        {"frame_over": True, "winner": 1, "score": [37, 44]},
    ),
    (
        "3.4(b)",
        "a re-spotted black, Ben goes in-off hitting it: seven to Ann, the frame to Ann",
        [*_black_alone([30, 37]), pot("black"), lot(1), stroke(["black"], [], cue_ball="potted")],
        {"frame_over": True, "winner": 0, "score": [44, 37], "penalty": 7},
    ),
    # Section 2's snookers required: the deficit beyond the points remaining over the lowest penalty.
    (
        "3.1(e)",
        "Ann 48-0 on the yellow, 27 left: Ben needs six snookers",
        ANN_ON_YELLOW,
        {"points_remaining": 27, "snookers_required": [0, 6], "ball_on": "yellow", "break": 48},
    ),
    (
        "3.1(e)",
        "Ann 62-0, safe on the pink, 13 left: Ben needs nine snookers of six",
        [*ANN_ON_PINK, safe("pink")],
        {"points_remaining": 13, "snookers_required": [0, 9], "striker": 1, "break": 0},
    ),
    (
        "3.3(f)",
        "Ann clears the colours to the black: 68, seven left, then the black: 75 and the frame",
        [*ANN_ON_PINK, pot("pink"), pot("black")],
        {"score": [75, 0], "break": 75, "frame_over": True, "winner": 0, "respotted": []},
    ),
    # 3.1(f): "któremu frejm został poddany".
    (
        "3.1(f)",
        "Ben, to play on a red, concedes the frame: to Ann",
        [*BEN_ON_RED, _concede()],
        {"frame_over": True, "winner": 0, "frames": [1, 0], "ball_on": "none", "points_remaining": 0},
    ),
    (
        "3.1(g)",
        "best of five, Ben concedes the match in the first frame: that frame and two more to Ann",
        [match(reds=6, best_of=5), safe("red"), _concede(match=True)],
        {
            "match_over": True,
            "match_winner": 0,
            "frames": [3, 0],
            "match_conceded": {"player": 1, "side": 1, "frames_awarded": 2},
        },
    ),
    # --- The touching ball (3.8) -----------------------------------------------------------------------
    # 3.8(a): "sędzia ogłasza bilę dotykaną (DOTYK)"; 3.8(c): "bila dotykana jest bilą rozgrywaną".
    (
        "3.8(a)",
        "Ann leaves the cue ball against a red: TOUCHING BALL",
        [match(reds=6), safe("red", touching=["red"])],
        {"touching": ["red"], "announcements": ["TOUCHING BALL"], "striker": 1},
    ),
    (
        "3.8(c)",
        "touching a red, Ben plays away and hits nothing: no foul, Ann to play",
        [match(reds=6), safe("red", touching=["red"]), stroke([])],
        {"foul": False, "striker": 0, "score": [0, 0]},
    ),
    # 3.8(e): "sędzia wskazuje tylko bilę rozgrywaną jako bilę dotykaną".
    (
        "3.8(e)",
        "the cue ball against a red and the pink, a red on: only the red is named",
        [match(reds=6), safe("red", touching=["red", "pink"])],
        {"touching": ["red"], "announcements": ["TOUCHING BALL"]},
    ),
    # 3.8(d): "pierwszy kontakt bili białej musi nastąpić z bilą rozgrywaną".
    (
        "3.8(d)",
        "against the pink with a red on: not announced; Ben misses every red: four",
        [match(reds=6), safe("red", touching=["pink"]), stroke([])],
        {"penalty": 4, "fouls": ["missed_all_balls"], "score": [4, 0]},
    ),
    # 3.8(c): "bila dotykana może być bilą rozgrywaną i rozgrywający deklaruje ją jako rozgrywaną".
    (
        "3.8(c)",
        "a red potted, the cue ball against the blue, the blue declared, played away: no foul",
        [match(reds=6), pot("red", touching=["blue"]), nominate("blue"), stroke([])],
        {"foul": False, "striker": 1, "score": [1, 0]},
    ),
    # 3.8(b): "musi odegrać od niej bilę białą bez wprawienia w ruch bili dotykanej, inaczej jest to
    # pchnięcie"; 3.12(b): the higher of the ball on and the ball concerned.
    (
        "3.8(b)",
        "against the pink, a red on, the pink moved at the strike: a push, six",
        [match(reds=6), safe("red", touching=["pink"]), safe("red", touching_moved=["pink"])],
        {"penalty": 6, "score": [6, 0], "striker": 0},
    ),
    # 3.8(f): "Jeżeli sędzia ma pewność, że poruszenie bili dotykanej w momencie zagrywania nie zostało
    # spowodowane przez rozgrywającego, nie ogłasza faulu" - the log then names no touching ball moved.
    (
        "3.8(f)",
        "against the pink, the pink moved at the strike but not by Ben: no foul, Ben's red counts",
        [match(reds=6), safe("red", touching=["pink"]), pot("red")],
        {"foul": False, "score": [0, 1], "striker": 1, "ball_on": "colour"},
    ),
    # --- A ball moved by someone other than the striker (3.15, 3.2(b), 3.9(a)) --------------------------
    # 3.15: "będzie ona ustawiona przez sędziego w miejscu zajmowanym poprzednio [...] bez orzekania
    # kary".
    (
        "3.15",
        "Ben to play, a spectator moves the pink: replaced, no penalty, Ben still to play",
        [*BEN_ON_RED, {"type": "ball_moved", "ball": "pink"}],
        {"foul": False, "penalty": 0, "score": [0, 0], "striker": 1, "ball_on": "red"},
    ),
    (
        "3.15",
        "in a break, a red moved by the referee: no penalty, Ann's break goes on",
        [match(reds=6), pot("red"), pot("black"), {"type": "ball_moved", "ball": "red"}],
        {"foul": False, "score": [8, 0], "break": 8, "striker": 0, "ball_on": "red"},
    ),
    # 3.9(a): "Jeżeli bila wpadnie do kieszeni nie będąc dotkniętą przez inną bilę [...] jest ponownie
    # ustawiana w poprzedniej pozycji i żadne związane z nią punkty nie są brane pod uwagę."
    (
        "3.9(a)",
        "the pink falls into a pocket by itself between strokes: replaced, no score",
        [*BEN_ON_RED, {"type": "edge_fall", "ball": "pink"}],
        {"foul": False, "score": [0, 0], "striker": 1, "colours": COLOURS},
    ),
    # 3.9(b): "jeśli nie nastąpiło naruszenie niniejszych Przepisów, bile ustawiane są na poprzednich
    # pozycjach i ten sam rozgrywający powtarza to samo zagranie lub wykonuje inne".
    (
        "3.9(b)",
        "Ben's red on its way, the pink on the edge falls first: replaced, Ben plays again",
        [*BEN_ON_RED, stroke(["red"], ["pink"], fell_from_edge=["pink"])],
        {"foul": False, "score": [0, 0], "striker": 1, "ball_on": "red"},
    ),
    (
        "3.9(b)",
        "Ben pots a red as the pink on the edge falls first: all replaced, the red too, Ben again",
        [*BEN_ON_RED, stroke(["red"], ["red", "pink"], fell_from_edge=["pink"])],
        {
            "foul": False,
            "score": [0, 0],
            "reds": 6,
            "striker": 1,
            "respotted": [],
            "announcements": ["BALLS REPLACED", "PLAY AGAIN"],
        },
    ),
    # --- The strokes themselves (3.12(a)-(b)) ----------------------------------------------------------
    # 3.12(a): "spowodowanie przeskoku" - the value of the ball on.
    (
        "3.12(a)",
        "Ben jumps a red over the blue and pots it: four, the red stays down",
        [*BEN_ON_RED, stroke(["red"], ["red"], fouls=["jump_shot"])],
        {"penalty": 4, "score": [4, 0], "reds": 5, "scored": [], "striker": 0, "ball_on": "red"},
    ),
    (
        "3.12(a)",
        "a red, the black nominated, jumped and potted: seven, the black re-spotted",
        [match(reds=6), pot("red"), nominate("black"), stroke(["black"], ["black"], fouls=["jump_shot"])],
        {"penalty": 7, "score": [1, 7], "respotted": ["black"], "striker": 1},
    ),
    (
        "3.12(a)",
        "a red, the blue nominated, struck twice: five",
        [match(reds=6), pot("red"), nominate("blue"), safe("blue", fouls=["double_hit"])],
        {"penalty": 5, "score": [1, 5]},
    ),
    (
        "3.12(b)",
        "Ben strikes while the pink still moves: six",
        [*BEN_ON_RED, safe("red", moving_at_strike=["pink"])],
        {"fouls": ["balls_moving"], "penalty": 6, "score": [6, 0]},
    ),
    # 3.12(c): "wartością wyższą z dwu bil branych pod uwagę, przy spowodowaniu pierwszego kontaktu
    # bili białej jednocześnie z dwiema bilami innymi niż bile Czerwone".
    (
        "3.12(c)",
        "a red, the blue nominated, blue and pink hit at once: six",
        [match(reds=6), pot("red"), nominate("blue"), stroke(["blue", "pink"], [])],
        {"fouls": ["two_balls_at_once"], "penalty": 6, "score": [1, 6]},
    ),
    (
        "3.12(b)",
        "Ben pots a red and the blue off it: five, the blue re-spotted, the red stays down",
        [*BEN_ON_RED, stroke(["red"], ["red", "blue"])],
        {"fouls": ["potted_ball_not_on"], "penalty": 5, "score": [5, 0], "reds": 5, "respotted": ["blue"]},
    ),
    (
        "3.12(b)",
        "Ben forces the pink off the table: six, the pink re-spotted",
        [*BEN_ON_RED, stroke(["red"], [], off_table=["pink"])],
        {"fouls": ["ball_off_table"], "penalty": 6, "score": [6, 0], "respotted": ["pink"]},
    ),
    (
        "3.12(a)",
        "Ann plays when Ben was to play: four, Ben decides",
        [*BEN_ON_RED, stroke(["red"], [], player=0)],
        {"fouls": ["out_of_turn"], "penalty": 4, "score": [0, 4], "striker": 1, "offender": 0},
    ),
    (
        "3.12(d)",
        "a red, the black nominated, a gap measured with the cue: seven",
        [match(reds=6), pot("red"), nominate("black"), foul("measured_gap")],
        {"penalty": 7, "score": [1, 7], "striker": 1},
    ),
    # --- The last red and its colour (3.3(f)) ------------------------------------------------------------
    # 3.3(f): "Jeśli ma to zastosowanie, po wbiciu ostatniej Czerwonej rozgrywana jest bila kolorowa."
    (
        "3.3(f)",
        "the last red potted: a colour on, 34 left",
        [*ANN_ON_LAST_RED, pot("red")],
        {"ball_on": "colour", "reds": 0, "points_remaining": 34, "score": [11, 10]},
    ),
    (
        "3.3(f)",
        "the last red and the black: the black re-spotted, the yellow on, 27 left",
        [*ANN_ON_LAST_RED, pot("red"), pot("black")],
        {"ball_on": "yellow", "respotted": ["black"], "points_remaining": 27, "score": [18, 10], "break": 8},
    ),
    (
        "3.3(f)",
        "the last red, then the colour missed: Ben on the yellow",
        [*ANN_ON_LAST_RED, pot("red"), safe("pink")],
        {"ball_on": "yellow", "striker": 1, "points_remaining": 27, "score": [11, 10]},
    ),
    # 3.3(g): "Bile Czerwone, wbite do kieszeni [...] nie są ustawiane ponownie na stole, niezależnie
    # od tego, że zawodnik może odnieść korzyść z faulu."
    (
        "3.3(g)",
        "the last red potted with an in-off: four, the red stays down, Ben on the yellow from hand",
        [*ANN_ON_LAST_RED, stroke(["red"], ["red"], cue_ball="potted")],
        {
            "penalty": 4,
            "reds": 0,
            "ball_on": "yellow",
            "in_hand": True,
            "score": [10, 14],
            "points_remaining": 27,
        },
    ),
    (
        "3.10",
        "the last red potted off the pink hit first, Ben snookered: six, a free ball on the yellow",
        [*ANN_ON_LAST_RED, stroke(["pink"], ["red"], free_ball=True)],
        {
            "penalty": 6,
            "reds": 0,
            "ball_on": "yellow",
            "free_ball": True,
            "points_remaining": 29,
            "score": [10, 16],
        },
    ),
    # --- The colours in sequence (3.3(f), 3.12(b)) -----------------------------------------------------
    # 3.3(f): "Bile kolorowe zostają bilami rozgrywanymi w kolejności ich rosnących wartości".
    (
        "3.3(f)",
        "on the yellow, Ann pots the green hit first: four, the green re-spotted, Ben on the yellow",
        [*ANN_ON_YELLOW, pot("green")],
        {"penalty": 4, "score": [48, 4], "respotted": ["green"], "ball_on": "yellow", "striker": 1},
    ),
    (
        "3.3(f)",
        "on the blue, the pink hit first and the blue potted: six, the blue re-spotted",
        [*ANN_ON_BLUE, stroke(["pink"], ["blue"])],
        {"penalty": 6, "score": [57, 6], "respotted": ["blue"], "ball_on": "blue", "points_remaining": 18},
    ),
    (
        "3.3(f)",
        "on the pink, pink and black potted together: seven, both re-spotted, Ben on the pink",
        [*ANN_ON_PINK, stroke(["pink"], ["pink", "black"])],
        {
            "penalty": 7,
            "score": [62, 7],
            "respotted": ["black", "pink"],
            "ball_on": "pink",
            "points_remaining": 13,
        },
    ),
    (
        "3.3(f)",
        "on the yellow, the yellow potted and an in-off: four, the yellow re-spotted",
        [*ANN_ON_YELLOW, stroke(["yellow"], ["yellow"], cue_ball="potted")],
        {"penalty": 4, "score": [48, 4], "respotted": ["yellow"], "ball_on": "yellow", "in_hand": True},
    ),
    # --- Four-handed (3.17(c)) ---------------------------------------------------------------------------
    # 3.17(c): "gra zawodnik, który spowodował faul [...] kolejność gry zostaje zachowana, ale partner
    # faulującego może zostać pozbawiony swojego podejścia".
    (
        "3.17(c)",
        "four-handed: Ann fouls, is put in again, plays safe: Ben, not Ann's partner, plays next",
        [match(players=4, reds=6), stroke([]), decision("play_again"), safe("red")],
        {"striker": 1, "score": [0, 4], "player": "Ben"},
    ),
    # --- The stalemate (3.16) ----------------------------------------------------------------------------
    # 3.16: "sędzia anuluje wszystkie zdobyte punkty [...] ten sam zawodnik wykonuje zagranie otwierające".
    (
        "3.16",
        "a stalemate re-racked: scores cancelled, Ann breaks again from hand",
        [match(reds=6), pot("red"), pot("black"), safe("red"), {"type": "rerack"}],
        {
            "score": [0, 0],
            "striker": 0,
            "reds": 6,
            "in_hand": True,
            "break": 0,
            "points_remaining": 75,
            "announcements": ["RE-RACK"],
        },
    ),
    # --- Longer examination sequences --------------------------------------------------------------------
    # 3.14(a) with 3.10: the position before the miss had a free ball; replaced, it has one again.
    (
        "3.14(a)",
        "Ben, with a free ball, nominates the green and misses everything: a miss, four",
        [*BEN_FREE_BALL, nominate("green"), stroke([], **MISS)],
        {"miss": True, "penalty": 4, "score": [4, 4], "free_ball": False, "striker": 0},
    ),
    (
        "3.14(a)",
        "the free-ball miss replaced: Ben again, with his free ball",
        [*BEN_FREE_BALL, nominate("green"), stroke([], **MISS), decision("replace")],
        {"striker": 1, "free_ball": True, "points_remaining": 83, "ball_on": "red", "score": [4, 4]},
    ),
    (
        "3.14(a)",
        "the free-ball miss replaced, Ben pots the green as a red: one, a colour on",
        [
            *BEN_FREE_BALL,
            nominate("green"),
            stroke([], **MISS),
            decision("replace"),
            nominate("green"),
            pot("green"),
        ],
        {"score": [4, 5], "break": 1, "ball_on": "colour", "respotted": ["green"], "free_ball": False},
    ),
    (
        "3.10(f)",
        "the free-ball miss, Ben put in again from the position left: no free ball",
        [*BEN_FREE_BALL, nominate("green"), stroke([], **MISS), decision("play_again")],
        {"striker": 1, "free_ball": False, "points_remaining": 75},
    ),
    (
        "3.14(a)",
        "Ben's miss leaves Ann snookered: a miss and a free ball, announced together",
        [*BEN_ON_RED, stroke([], free_ball=True, **MISS)],
        {
            "miss": True,
            "free_ball": True,
            "options": ["play", "play_again", "replace"],
            "announcements": ["FOUL AND A MISS", "FOUR AWAY", "FREE BALL"],
            "points_remaining": 83,
        },
    ),
    (
        "3.14(a)",
        "that miss replaced: Ben plays, no free ball for anyone",
        [*BEN_ON_RED, stroke([], free_ball=True, **MISS), decision("replace")],
        {"striker": 1, "free_ball": False, "points_remaining": 75},
    ),
    (
        "3.14(a)",
        "Ben misses, the pink hit first and potted: six, pink re-spotted; replaced: Ben on a red",
        [*BEN_ON_RED, stroke(["pink"], ["pink"], **MISS), decision("replace")],
        {"striker": 1, "score": [6, 0], "ball_on": "red", "announcements": [REPLACED]},
    ),
    (
        "3.14(a)",
        "Ben misses and goes in-off; replaced: the cue ball back on the table, not in hand",
        [*BEN_ON_RED, stroke(["pink"], [], cue_ball="potted", **MISS), decision("replace")],
        {"striker": 1, "in_hand": False, "score": [6, 0]},
    ),
    (
        "3.14(a)",
        "Ben misses and goes in-off; put in again from the position left: from hand",
        [*BEN_ON_RED, stroke(["pink"], [], cue_ball="potted", **MISS), decision("play_again")],
        {"striker": 1, "in_hand": True, "score": [6, 0]},
    ),
    (
        "3.14(a)",
        "on the last red Ben hits the pink, which knocks the red in: a miss; replaced, the red is back",
        [
            match(reds=6),
            table(reds=1, colours=COLOURS, ball_on="red", score=[10, 10], striker=1),
            stroke(["pink"], ["red"], **MISS),
            decision("replace"),
        ],
        {"striker": 1, "reds": 1, "ball_on": "red", "points_remaining": 35, "score": [16, 10]},
    ),
    (
        "3.3(g)",
        "the same, Ann plays on from the position left: the red stays down, Ann on the yellow",
        [
            match(reds=6),
            table(reds=1, colours=COLOURS, ball_on="red", score=[10, 10], striker=1),
            stroke(["pink"], ["red"], **MISS),
            decision("play"),
        ],
        {"striker": 0, "reds": 0, "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.14(a)",
        "the last red potted, the blue nominated and every ball missed: replaced, Ann on a colour",
        [*ANN_ON_LAST_RED, pot("red"), nominate("blue"), stroke([], **MISS), decision("replace")],
        {"striker": 0, "ball_on": "colour", "reds": 0, "points_remaining": 34, "score": [11, 15]},
    ),
    (
        "3.14(a)",
        "the same miss, Ben plays on: Ben on the yellow",
        [*ANN_ON_LAST_RED, pot("red"), nominate("blue"), stroke([], **MISS), decision("play")],
        {"striker": 1, "ball_on": "yellow", "points_remaining": 27},
    ),
    # 3.14(c): "następna nieudana próba [...] w zagraniu wykonywanym z tej samej pozycji" - a position
    # played on from is a new one: the count starts again.
    (
        "3.14(c)",
        "miss, put in again from the position left, miss, replaced, miss: only the second from one place",
        [
            *BEN_ON_RED,
            stroke([], **MISS),
            decision("play_again"),
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
        ],
        {"frame_over": False, "miss": True, "warning_due": True, "score": [12, 0]},
    ),
    (
        "3.14(c)",
        "after the warning Ben hits a red: the warning is spent",
        [
            *BEN_ON_RED,
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
            decision("replace"),
            safe("red"),
        ],
        {"foul": False, "warning": False, "warning_due": False, "striker": 0},
    ),
    (
        "3.14(c)",
        "a red, two misses on the colours with different nominations: still one position, warning due",
        [
            match(reds=6),
            pot("red"),
            nominate("blue"),
            stroke([], **MISS),
            decision("replace"),
            nominate("pink"),
            stroke([], **MISS),
        ],
        {"miss": True, "penalty": 6, "score": [1, 11], "warning_due": True},
    ),
    # 3.14(c): "następna nieudana próba [...] jest ogłaszana jako FAUL I CHYBIENIE niezależnie od
    # różnicy punktowej".
    (
        "3.14(c)",
        "Ben 0-20 on the yellow misses (no snookers needed); replaced, misses again now needing them",
        [
            match(reds=6),
            table(reds=0, colours=COLOURS, ball_on="yellow", score=[20, 0], striker=1),
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
        ],
        {"miss": True, "score": [28, 0], "warning_due": True, "snookers_required": [0, 1]},
    ),
    (
        "3.14(c)",
        "the same, warned and missing a third time: the frame to Ann",
        [
            match(reds=6),
            table(reds=0, colours=COLOURS, ball_on="yellow", score=[20, 0], striker=1),
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
            decision("replace"),
            stroke([], **MISS),
        ],
        {"frame_over": True, "winner": 0, "score": [32, 0], "ball_on": "none"},
    ),
    # 3.14(h): "którykolwiek z zawodników dotknie bili [...] jest karany tak, jakby to on był
    # rozgrywającym, przy czym nie zmienia to kolejności gry".
    (
        "3.14(h)",
        "the balls being replaced after Ben's miss, Ann touches a red: four to Ben, Ben still to play",
        [*BEN_ON_RED, stroke([], **MISS), decision("replace"), foul("touched_ball", "red", player=0)],
        {"score": [4, 4], "striker": 1, "offender": 0, "options": [], "status": "in_play"},
    ),
    (
        "3.14(h)",
        "Ben, the offender, touches a red while Ann decides: four more to Ann, her choice still open",
        [*BEN_ON_RED, stroke([], **MISS), foul("touched_ball", "red", player=1)],
        {"score": [8, 0], "striker": 0, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.2(b)",
        "in Ann's break, Ben penalised as if striker for the pink: six to Ann, her break goes on",
        [match(reds=6), pot("red"), pot("black"), foul("touched_ball", "pink", player=1), pot("red")],
        {"score": [15, 0], "break": 9, "striker": 0, "ball_on": "colour"},
    ),
    # 3.8(c): the touching ball on counts as the ball hit; 3.8(c)(ii): a touching colour after a red.
    (
        "3.8(c)",
        "touching a red, Ben plays away and then hits the pink: the red counts as hit, no foul",
        [match(reds=6), safe("red", touching=["red"]), safe("pink")],
        {"foul": False, "striker": 0},
    ),
    (
        "3.8(a)",
        "Ann's foul leaves the cue ball against a red: six, and TOUCHING BALL for Ben",
        [match(reds=6), stroke(["pink"], [], touching=["red"])],
        {"penalty": 6, "touching": ["red"], "announcements": ["FOUL", "SIX AWAY", "TOUCHING BALL"]},
    ),
    (
        "3.8(c)",
        "a free ball with the cue ball against the pink: the pink declared, played away: no foul",
        [match(reds=6), stroke([], free_ball=True, touching=["pink"]), nominate("pink"), stroke([])],
        {"foul": False, "striker": 0, "score": [0, 4]},
    ),
    # 3.10 with the last red.
    (
        "3.10(a)",
        "the last red on, a free ball: the pink as a red, then the black: eight, the last red on again",
        [*ANN_ON_LAST_RED, stroke([], free_ball=True), nominate("pink"), pot("pink"), pot("black")],
        {"score": [10, 22], "break": 8, "reds": 1, "ball_on": "red", "points_remaining": 35},
    ),
    (
        "3.10(e)",
        "the last red on, the free ball (pink) and the last red potted together: two, then the black",
        [
            *ANN_ON_LAST_RED,
            stroke([], free_ball=True),
            nominate("pink"),
            stroke(["pink"], ["pink", "red"]),
            pot("black"),
        ],
        {"score": [10, 23], "break": 9, "reds": 0, "ball_on": "yellow", "points_remaining": 27},
    ),
    (
        "3.10(b)",
        "only pink and black left, a free ball: the black nominated and potted, six, pink still on",
        [*ANN_ON_PINK, stroke([], free_ball=True), nominate("black"), pot("black")],
        {"score": [62, 12], "respotted": ["black"], "ball_on": "pink", "points_remaining": 13},
    ),
    (
        "3.10(b)",
        "on the yellow, the brown as the free ball sends the black in: seven",
        [*BEN_FREE_BALL_ON_YELLOW, nominate("brown"), stroke(["brown"], ["black"])],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "score": [55, 4], "respotted": ["black"]},
    ),
    (
        "3.10(b)",
        "the free ball (pink) left in front of the cue ball, the yellow hidden: a snooker with it, four",
        [
            *BEN_FREE_BALL_ON_YELLOW,
            nominate("pink"),
            safe("pink", positions=at(None, {"white": [CX, 2800.0], **{c: SPOTS[c] for c in COLOURS}})),
        ],
        {"fouls": ["free_ball_snooker"], "penalty": 4, "score": [52, 4]},
    ),
    (
        "3.10(c)",
        "the free ball (pink) potted and re-spotted in front of the cue ball: no snooker foul",
        [
            *BEN_FREE_BALL_ON_YELLOW,
            nominate("pink"),
            pot(
                "pink",
                positions=at(None, {"white": [CX, 2800.0], **{c: SPOTS[c] for c in COLOURS if c != "pink"}}),
            ),
        ],
        {"foul": False, "score": [48, 6], "respotted": [{"ball": "pink", "position": SPOTS["pink"]}]},
    ),
    # 3.7(d)/(h): the cue ball takes a spot too; (d): the highest free spot, the green's above the
    # yellow's.
    (
        "3.7(h)",
        "the cue ball on the black spot after red and black: the black on the pink spot",
        [match(reds=6), pot("red"), pot("black", positions=at(None, {"white": SPOTS["black"]}))],
        {"respotted": [{"ball": "black", "position": SPOTS["pink"]}], "break": 8},
    ),
    (
        "3.7(d)",
        "the brown's spot taken, black, pink and blue on theirs, yellow and green away: the green spot",
        [
            match(reds=6),
            pot("red"),
            pot(
                "brown",
                positions=at(
                    None,
                    {
                        "white": [300.0, 2000.0],
                        "red-1": SPOTS["brown"],
                        **{c: SPOTS[c] for c in ("blue", "pink", "black")},
                        "yellow": [1500.0, 300.0],
                        "green": [200.0, 300.0],
                    },
                ),
            ),
        ],
        {"respotted": [{"ball": "brown", "position": SPOTS["green"]}]},
    ),
    (
        "3.7(f)",
        "every spot taken, a red on the brown's: the brown just above its spot, towards the top cushion",
        [
            match(reds=6),
            pot("red"),
            pot(
                "brown",
                positions=at(
                    None,
                    {
                        "white": [300.0, 2000.0],
                        "red-1": SPOTS["brown"],
                        **{c: SPOTS[c] for c in COLOURS if c != "brown"},
                    },
                ),
            ),
        ],
        {"respotted": [{"ball": "brown", "position": _above_spot("brown")}]},
    ),
    (
        "3.7(c)",
        "pink and black potted in Ben's foul, Ann plays on before the spotting: the lower, six",
        [
            *BEN_ON_RED,
            stroke(["red"], ["pink", "black"]),
            decision("play"),
            safe("red", fouls=["before_spotting"]),
        ],
        {"penalty": 6, "score": [7, 6], "striker": 1},
    ),
    (
        "3.7(c)",
        "the yellow wrongly spotted and not found, Ann (on the green) hits it first: four",
        [*ANN_ON_YELLOW, pot("yellow"), _spot_error("yellow", "wrongly_spotted"), safe("yellow")],
        {"fouls": ["wrong_ball_first"], "penalty": 4, "score": [50, 4], "ball_on": "green"},
    ),
    # 3.4 with the last black and aggregate points.
    (
        "3.4(a)",
        "the black alone, Ann 40-30 pots it and goes in-off: seven to Ben, the frame still Ann's",
        [*_black_alone([40, 30]), stroke(["black"], ["black"], cue_ball="potted")],
        {"frame_over": True, "winner": 0, "score": [40, 37], "penalty": 7, "respotted": []},
    ),
    (
        "3.4(b)",
        "a re-spotted black, Ann wins the lot and places the cue ball outside the D: the frame to Ben",
        [
            *_black_alone([30, 37]),
            pot("black"),
            lot(0),
            safe("black", positions=at({"white": [CX, 900.0]}, None)),
        ],
        {"frame_over": True, "winner": 1, "fouls": ["improper_in_hand"], "score": [37, 44]},
    ),
    (
        "3.4(a)",
        "aggregate points, not the last frame: a frame tied on the black ends level, no re-spotted black",
        [
            match(reds=6, aggregate=True, best_of=2),
            table(reds=0, colours=["black"], ball_on="black", score=[30, 37], striker=0),
            pot("black"),
        ],
        {"frame_over": True, "winner": None, "respotted_black": False, "frames": [0, 0], "score": [37, 37]},
    ),
    # 3.4(c): "punkty sumaryczne mają jednakową wartość po zakończeniu ostatniego frejmu".
    (
        "3.4(c)",
        "aggregate points, the last frame ends 17-34 with the aggregate level: a re-spotted black",
        [
            match(reds=6, aggregate=True, best_of=2),
            table(reds=0, colours=["black"], ball_on="black", score=[40, 30], striker=0),
            pot("black"),
            {"type": "new_frame"},
            table(reds=0, colours=["black"], ball_on="black", score=[10, 34], striker=1),
            safe("black"),
            pot("black"),
        ],
        {
            "score": [17, 34],
            "respotted_black": True,
            "status": "respotted_black_lot",
            "snookers_required": [0, 0],
            "announcements": ["SEVEN", "RE-SPOTTED BLACK"],
        },
    ),
    # 3.17(d): "para wykonująca pierwsze zagranie wybiera, który z zawodników wykona to zagranie.
    # Dalsza kolejność gry musi być zachowana jak w całym frejmie."
    (
        "3.17(d)",
        "four-handed, a re-spotted black: Dan's side plays first and chooses Dan; after Dan, Ann",
        [
            match(players=4, reds=6),
            table(reds=0, colours=["black"], ball_on="black", score=[30, 37], striker=0),
            pot("black"),
            lot(3),
            safe("black"),
        ],
        {"striker": 0, "player": "Ann", "respotted_black": True, "in_hand": False},
    ),
    (
        "3.17(c)",
        "four-handed: Cat plays out of turn for Ann: four, Dan (next after Cat) decides",
        [match(players=4, reds=6), stroke(["red"], [], player=2)],
        {"fouls": ["out_of_turn"], "offender": 2, "striker": 3, "score": [0, 4]},
    ),
    (
        "3.17(c)",
        "Cat put in again plays safe: Dan next, Ann (Cat's partner) loses her visit",
        [match(players=4, reds=6), stroke(["red"], [], player=2), decision("play_again"), safe("red")],
        {"striker": 3, "player": "Dan", "score": [0, 4]},
    ),
    # 3.11(c): "jest uznany za niebyły".
    (
        "3.11(c)",
        "Ben pots a red and the blue, the foul not called before Ann's claim could come: condoned",
        [*BEN_ON_RED, stroke(["red"], ["red", "blue"], condoned=True)],
        {
            "foul": False,
            "penalty": 0,
            "score": [0, 1],
            "striker": 1,
            "respotted": ["blue"],
            "corrections": ["condoned"],
        },
    ),
    (
        "3.12(a)",
        "a red, then the pink hit first (its obvious intention) and an in-off: six, not seven",
        [match(reds=6), pot("red"), stroke(["pink"], [], cue_ball="potted")],
        {"penalty": 6, "score": [1, 6], "in_hand": True},
    ),
    # 3.8(c)(ii) after 3.14(a): the replacement puts the cue ball back against the blue; the touching
    # ball stands (the call was made when the cue ball first came to rest there, 3.8(a), and is not
    # made anew, as after 3.9(b)'s replacement); the blue declared and played away from: no foul.
    (
        "3.8(c)",
        "a red, the cue ball against the blue; the pink declared, every ball missed: a miss, six",
        [match(reds=6), pot("red", touching=["blue"]), nominate("pink"), stroke([], **MISS)],
        {"miss": True, "penalty": 6, "score": [1, 6]},
    ),
    (
        "3.8(c)",
        "replaced against the blue, Ann declares the blue and plays away, hitting nothing: no foul",
        [
            match(reds=6),
            pot("red", touching=["blue"]),
            nominate("pink"),
            stroke([], **MISS),
            decision("replace"),
            nominate("blue"),
            stroke([]),
        ],
        {"foul": False, "striker": 1, "score": [1, 6]},
    ),
    # 3.9(b): "jeśli nastąpił faul [...] bile ustawiane są na poprzednich pozycjach i następny zawodnik
    # ma do dyspozycji opcje jak po faulu".
    (
        "3.9(b)",
        "Ben hits the blue first while the pink on the edge falls by itself: five, balls replaced",
        [*BEN_ON_RED, stroke(["blue"], ["pink"], fell_from_edge=["pink"])],
        {
            "penalty": 5,
            "score": [5, 0],
            "respotted": [],
            "options": ["play", "play_again"],
            "announcements": ["FOUL", "FIVE AWAY", "BALLS REPLACED"],
        },
    ),
    # 3.12(d): "używa bili poza stołem w dowolnym celu"; "używa innej bili niż Biała jako bili
    # rozgrywającej".
    (
        "3.12(d)",
        "in a break, Ann uses a potted red to judge a gap: seven, Ben decides",
        [match(reds=6), pot("red"), pot("black"), foul("used_ball_off_table", "red")],
        {"penalty": 7, "score": [8, 7], "striker": 1, "options": ["play", "play_again"]},
    ),
    (
        "3.12(d)",
        "in a break, Ann strikes a red with the cue: seven",
        [match(reds=6), pot("red"), pot("black"), stroke(["red"], [], fouls=["wrong_cue_ball"])],
        {"penalty": 7, "fouls": ["wrong_cue_ball"], "score": [8, 7]},
    ),
    # 3.17(e): "Partnerzy mogą konsultować się podczas frejmu, ale nie [...] od rozpoczęcia przez
    # rozgrywającego pierwszego zagrania do zakończenia breaku"; 3.12(a) the value of the ball on.
    (
        "3.17(e)",
        "four-handed, Ann in a break on the blue, her partner Cat confers with her: five, Ben decides",
        [match(players=4, reds=6), pot("red"), nominate("blue"), foul("conferring", player=2)],
        {"penalty": 5, "fouls": ["conferring"], "offender": 0, "striker": 1, "score": [1, 5]},
    ),
]


@over_checklist(ROWS)
def test_the_examination(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)
