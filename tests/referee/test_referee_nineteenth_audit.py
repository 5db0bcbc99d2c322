"""A nineteenth audit of the referee: situations from match play and referees' examinations.

Whole frames or sequences of strokes a referee meets at the table (free balls potted with the ball
on, free-ball snookers, the colours phase with fouls, the last red, the last black and the
re-spotted black, concessions, fouls by the player not at the table, play again and the three-miss
rule, touching balls, push and jump shots, balls on taken spots, four-handed order), each worked out
from the texts (``../shared/rules``: the Polish text is the authority) with the expected ruling AND
the state after every stroke that matters: both scores, who is to play, the ball on, the free ball,
the options, the miss warning, points remaining, re-spotted balls, frame over and winner.

Every row is a list of steps ``(line, expected fields of its ruling)``; ``None`` only checks that the
line is accepted. Rows are independent and small: the whole file runs in a few seconds.

Outcome: one fault, fixed in ``rules._contact_fouls``. 3.6 "Nie jest dozwolone jednoczesne uderzenie
... dwóch bil innych niż bile Czerwone lub bila wolna i bila rozgrywana": two reds hit at once are
never a 3.12(c) foul. On a colour after a red (the colour declared), or with a free ball nominated
(3.10(b)(i) "nie ma pierwszego kontaktu z bilą deklarowaną"), first hitting two reds at once is a
first contact with balls not on (3.12(b) "spowodowanie pierwszego kontaktu bili białej z bilą
nierozgrywaną"), as one red would be: ``wrong_ball_first``. The referee called it
``two_balls_at_once``, whose own display text says "not two reds". The penalty was right (the
values are the same), the stable reason code and its rule were not. Two rows fail before the fix.

Read as design, not faults (each the referee's documented judgement or the texts' silence):

- 3.3(g) names the exceptions to "Bile Czerwone ... nie są ustawiane ponownie" as 2(B), 9, 14(H)
  and 15 (the Chinese text adds 14(f)); the referee replaces every ball after a miss (3.14(a), the
  documented reading), a red potted in the missed stroke included.
- 3.17(c), four-handed, a player out of turn: the next player is the one after the offender in the
  order (the order kept from the stroke actually played; the partner of the offender whose turn it
  was loses it, as 3.17(c) says he may).
- The miss warning (3.14(c)) is shown from the second miss on, while the replacement is still only
  offered; it is announced with the replacement.
- ``snookers_required`` is the deficit beyond the points remaining over the lowest penalty, whatever
  the state: with only the black left (where a foul ends the frame, so no snooker can help), on an
  aggregate match's re-spotted black (where the frame's score no longer matters) and on the ruling
  that ends the frame (a 155 clearance leaves the loser "40 snookers" behind). The golden logs and
  the camera properties' invariant hold it so; a scoreboard may want 0 once the frame is over.
  (Since the twenty-second audit it is 0 once the frame is over, with no ball on and no points
  remaining: no snooker can help in a frame that has ended.)

What the frame log cannot say (a field it would need):

- 3.11(c) a foul that nobody called before the next stroke is void: the log can leave out a foul
  someone calls, but not one the referee derives (a stroke naming another ``player`` is always out
  of turn; a ball not on potted always fouls). A stroke field ``condoned: true`` would say it.
- 3.14(f) the referee may leave disturbed balls where they are, and 3.3(g) leaves reds down: a
  ``replace`` decision puts every ball back. ``decision.left`` (balls not replaced) would say it; a
  ``table`` line after the decision can restate the table but restarts the miss count.
- 3.7(b)/(c) a colour wrongly spotted or wrongly missing (a referee's error): no line corrects the
  colours on the table without restarting the frame's counts (``table``).
- Section 4.2 / 3.1(g) a match awarded (or conceded) as a whole: one ``concede`` per frame is needed.
- 3.9(a) a ball that falls in by itself between strokes: the log has ``edge_fall``, but ``analyze`` and
  ``live`` never write it (the tracker keeps such a fall among ``outside_stroke_events``); the
  rulings are the same (the ball is replaced), only BALL REPLACED is not announced.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import (
    clear_reds,
    decision,
    foul,
    lot,
    match,
    nominate,
    pot,
    safe,
    stroke,
    table,
    to_colours,
)

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee

SPOTS = STANDARD_TABLE.spots
CX = STANDARD_TABLE.centre_x_mm
CONCEDE = {"type": "concede"}
NEW_FRAME = {"type": "new_frame"}
WARNING = "WARNING: A THIRD MISS WILL AWARD THE FRAME TO YOUR OPPONENT"
COLOURS_FROM_YELLOW = ["yellow", "green", "brown", "blue", "pink", "black"]

Step = tuple[dict[str, Any], dict[str, Any] | None]


def at(line: dict[str, Any], **expected: Any) -> Step:
    """A step: the line and the fields its ruling must have (none: the line is accepted;
    ``error=True``: the line is refused and the state left as it was)."""
    return (line, expected or None)


def ok(line: dict[str, Any]) -> Step:
    return (line, None)


def steps(lines: list[dict[str, Any]]) -> list[Step]:
    """Set-up lines, each only required to be accepted."""
    return [ok(line) for line in lines]


def place(**balls: tuple[float, float]) -> dict[str, list[float]]:
    """Places in mm keyed by ball id (``red_1`` → ``red-1``)."""
    return {name.replace("_", "-"): [float(x), float(y)] for name, (x, y) in balls.items()}


def on_spots(*colours: str) -> dict[str, list[float]]:
    return {c: [float(SPOTS[c][0]), float(SPOTS[c][1])] for c in colours}


def moved(before: dict[str, list[float]], **balls: tuple[float, float]) -> dict[str, list[float]]:
    return {**before, **place(**balls)}


# Six-red frames: Ann clears the reds with blacks (48-0), yellow on. With a table line: the frame
# joined at a known score, the striker named.
SIX_RED_CLEARED = to_colours(6)
PINK_BLACK = {"reds": 0, "colours": ["pink", "black"], "ball_on": "pink"}
BLACK_ONLY = {"reds": 0, "colours": ["black"], "ball_on": "black"}
FROM_BROWN = {"reds": 0, "colours": ["brown", "blue", "pink", "black"], "ball_on": "brown"}
FROM_GREEN = {"reds": 0, "colours": ["green", "brown", "blue", "pink", "black"], "ball_on": "green"}

# --- free-ball layouts with places (mm): one red left up the table, colours on their spots --------
ONE_RED = {**on_spots(*COLOURS_FROM_YELLOW), **place(red_1=(1300, 3000), white=(400, 1500))}
ANN_FOULS = moved(ONE_RED, white=(1300, 2200), blue=(1300, 2800))
BEN_HIDES = moved(ANN_FOULS, white=(1300, 2500), blue=(1300, 2700))  # the blue between white and red
BEHIND_PINK = {**on_spots(*COLOURS_FROM_YELLOW), **place(red_1=(CX, 3000), white=(CX, 2400))}
PB_START = {**on_spots("pink", "black"), **place(white=(400, 1500))}
PB_FOUL = {**on_spots("pink"), **place(black=(CX, 3100), white=(CX, 2400))}
PB_HIDE = {**on_spots("pink"), **place(black=(CX, 2550), white=(CX, 2400))}
BPB_START = {**on_spots("blue", "pink", "black"), **place(white=(400, 1500))}
BPB_FOUL = {**on_spots("blue", "pink"), **place(black=(CX, 3100), white=(CX, 1000))}
BPB_HIDE = {**on_spots("blue", "black"), **place(pink=(CX, 1700), white=(CX, 1600))}
GREEN_ON = {**on_spots("green", "brown", "blue", "pink", "black"), **place(white=(CX + 60, 737))}
GREEN_ON_OPEN = moved(GREEN_ON, white=(1100, 1200))
AFTER_BROWN = moved(GREEN_ON, white=(CX + 60, 600))


def frame_with(places: dict[str, list[float]], **fields: Any) -> dict[str, Any]:
    return table(cue_in_hand=False, positions=places, **fields)


SITUATIONS: list[tuple[str, str, list[Step]]] = [
    # --- free ball potted together with the ball on ----------------------------------------------
    (
        "3.10(e)",
        "free ball (green as a red) potted with a red: both score, green re-spotted, then the black",
        [
            ok(match()),
            at(safe("red"), score=[0, 0], striker=1),
            at(
                stroke(["blue"], free_ball=True),
                score=[5, 0],
                striker=0,
                free_ball=True,
                points_remaining=155,
            ),
            ok(nominate("green")),
            at(
                stroke(["green"], ["green", "red"]),
                score=[7, 0],
                points=2,
                ball_on="colour",
                reds=14,
                respotted=["green"],
                free_ball=False,
                points_remaining=146,
            ),
            at(pot("black"), score=[14, 0], **{"break": 9}, ball_on="red"),
        ],
    ),
    (
        "3.10(e)",
        "free ball and two reds potted together: three points",
        [
            ok(match()),
            ok(stroke([], free_ball=True)),
            ok(nominate("pink")),
            at(
                stroke(["pink"], ["pink", "red", "red"]),
                score=[0, 7],
                reds=13,
                respotted=["pink"],
                ball_on="colour",
            ),
        ],
    ),
    (
        "3.6",
        "free ball and a red hit at once, the red potted: one point, no foul",
        [
            ok(match()),
            ok(stroke([], free_ball=True)),
            ok(nominate("green")),
            at(stroke(["green", "red"], ["red"]), foul=False, score=[0, 5], ball_on="colour", reds=14),
        ],
    ),
    (
        "3.10(e)",
        "colours: the free ball (blue) and the yellow potted together: only the yellow scores",
        [
            *steps(SIX_RED_CLEARED),
            at(
                stroke(["pink"], free_ball=True),
                score=[48, 6],
                striker=1,
                free_ball=True,
                points_remaining=29,
            ),
            ok(nominate("blue")),
            at(
                stroke(["blue"], ["blue", "yellow"]),
                score=[48, 8],
                points=2,
                scored=["yellow"],
                respotted=["blue"],
            ),
            at(pot("green"), score=[48, 11], ball_on="brown"),
        ],
    ),
    (
        "3.10(c)",
        "colours: the free ball (blue) alone potted scores the yellow's two, the yellow still on",
        [
            *steps(SIX_RED_CLEARED),
            ok(stroke(["pink"], free_ball=True)),
            ok(nominate("blue")),
            at(pot("blue"), score=[48, 8], ball_on="yellow", respotted=["blue"], points_remaining=27),
            at(pot("yellow"), score=[48, 10], ball_on="green", **{"break": 4}),
        ],
    ),
    (
        "3.10(d)",
        "colours: the black as free ball hit first pots the brown: four, the brown stays down",
        [
            ok(match()),
            ok(table(**FROM_BROWN, score=[30, 30], striker=0)),
            at(stroke([], free_ball=True), score=[30, 34], striker=1, free_ball=True),
            ok(nominate("black")),
            at(
                stroke(["black"], ["brown"]),
                score=[30, 38],
                ball_on="blue",
                respotted=[],
                points_remaining=18,
            ),
        ],
    ),
    (
        "3.10(b)(i)",
        "colours: the blue nominated as free ball, the yellow hit first and potted: four, yellow back",
        [
            *steps(SIX_RED_CLEARED),
            ok(stroke(["pink"], free_ball=True)),
            ok(nominate("blue")),
            at(
                stroke(["yellow"], ["yellow"]),
                foul=True,
                penalty=4,
                fouls=["wrong_ball_first"],
                score=[52, 6],
                striker=0,
                respotted=["yellow"],
                ball_on="yellow",
            ),
        ],
    ),
    (
        "3.10(f)",
        "the offender asked to play again has no free ball: a colour hit first is a foul",
        [
            ok(match()),
            at(stroke(["blue"], free_ball=True), score=[0, 5], free_ball=True),
            at(decision("play_again"), striker=0, free_ball=False, points_remaining=147),
            at(stroke(["green"]), foul=True, penalty=4, score=[0, 9], striker=1),
        ],
    ),
    (
        "3.12(d)",
        "the free ball potted as a red, then a red hit first: reds in successive strokes, seven",
        [
            ok(match()),
            ok(safe("red")),
            ok(stroke(["blue"], free_ball=True)),
            ok(nominate("green")),
            at(pot("green"), score=[6, 0], ball_on="colour"),
            at(
                pot("red"),
                foul=True,
                penalty=7,
                fouls=["reds_in_successive_strokes", "potted_ball_not_on"],
                score=[6, 7],
            ),
        ],
    ),
    (
        "3.12(d)",
        "the free ball potted as a red, then an in-off before any colour is named: seven",
        [
            ok(match()),
            ok(safe("red")),
            ok(stroke(["blue"], free_ball=True)),
            ok(nominate("green")),
            ok(pot("green")),
            at(
                stroke([], cue_ball="potted"),
                penalty=7,
                fouls=["foul_before_nomination", "missed_all_balls", "cue_ball_potted"],
            ),
        ],
    ),
    (
        "3.10(b)(ii)",
        "the blue as free ball left between the white and the last red: foul (four), and a free ball back",
        [
            ok(match()),
            ok(frame_with(ONE_RED, reds=1, ball_on="red", score=[20, 20], striker=0)),
            at(
                stroke(["pink"], free_ball=True, positions={"before": ONE_RED, "after": ANN_FOULS}),
                score=[20, 26],
                striker=1,
                free_ball=True,
                points_remaining=43,
            ),
            ok(nominate("blue")),
            at(
                stroke(["blue"], positions={"before": ANN_FOULS, "after": BEN_HIDES}),
                foul=True,
                penalty=4,
                fouls=["free_ball_snooker"],
                score=[24, 26],
                striker=0,
                free_ball=True,
            ),
            ok(decision("play")),
            # Ann has a free ball: every ball could be on, so missing them all is a foul and a miss.
            at(
                stroke([], positions={"before": BEN_HIDES, "after": moved(BEN_HIDES, white=(1250, 2450))}),
                miss=True,
                penalty=4,
                score=[24, 30],
                options=["play", "play_again", "replace"],
            ),
        ],
    ),
    (
        "3.10(b)(ii)",
        "pink and black only: the black as free ball may hide the pink (the exception)",
        [
            ok(match()),
            ok(frame_with(PB_START, **PINK_BLACK, score=[40, 30], striker=0)),
            ok(stroke(["black"], free_ball=True, positions={"before": PB_START, "after": PB_FOUL})),
            ok(nominate("black")),
            at(
                stroke(["black"], positions={"before": PB_FOUL, "after": PB_HIDE}),
                foul=False,
                score=[40, 37],
                striker=0,
                ball_on="pink",
            ),
        ],
    ),
    (
        "3.10(b)(ii)",
        "blue, pink and black: the pink as free ball hiding the blue is a foul of the blue's five",
        [
            ok(match()),
            ok(
                frame_with(
                    BPB_START,
                    reds=0,
                    colours=["blue", "pink", "black"],
                    ball_on="blue",
                    score=[40, 30],
                    striker=0,
                )
            ),
            ok(stroke(["black"], free_ball=True, positions={"before": BPB_START, "after": BPB_FOUL})),
            ok(nominate("pink")),
            at(
                stroke(["pink"], positions={"before": BPB_FOUL, "after": BPB_HIDE}),
                foul=True,
                penalty=5,
                fouls=["free_ball_snooker"],
                score=[45, 37],
                free_ball=True,
            ),
        ],
    ),
    (
        "3.10(c)",
        "pink and black: the black as free ball potted scores six, then pink and black end the frame",
        [
            ok(match()),
            ok(table(**PINK_BLACK, score=[40, 30], striker=1)),
            at(
                stroke(["black"], free_ball=True),
                score=[47, 30],
                striker=0,
                free_ball=True,
                points_remaining=19,
            ),
            ok(nominate("black")),
            at(pot("black"), score=[53, 30], respotted=["black"], ball_on="pink", points_remaining=13),
            at(pot("pink"), score=[59, 30], ball_on="black", points_remaining=7),
            at(pot("black"), score=[66, 30], frame_over=True, winner=0, **{"break": 19}),
        ],
    ),
    (
        "3.12(a)",
        "the free ball (blue) potted, the white in-off: four, the blue re-spotted",
        [
            ok(match()),
            ok(stroke([], free_ball=True)),
            ok(nominate("blue")),
            at(
                stroke(["blue"], ["blue"], cue_ball="potted"),
                penalty=4,
                fouls=["cue_ball_potted"],
                score=[4, 4],
                respotted=["blue"],
                in_hand=True,
            ),
        ],
    ),
    (
        "3.12(b)",
        "the free ball (blue) hit first pots the pink: six",
        [
            ok(match()),
            ok(stroke([], free_ball=True)),
            ok(nominate("blue")),
            at(
                stroke(["blue"], ["pink"]),
                penalty=6,
                fouls=["potted_ball_not_on"],
                score=[6, 4],
                respotted=["pink"],
            ),
        ],
    ),
    # --- fouls with the reds gone and the colours partly cleared -----------------------------------
    (
        "3.12",
        "colours: yellow and green potted together (4, both back), blue hit first on the yellow (5)",
        [
            *steps(SIX_RED_CLEARED),
            at(
                stroke(["yellow"], ["yellow", "green"]),
                penalty=4,
                fouls=["potted_ball_not_on"],
                score=[48, 4],
                striker=1,
                respotted=["green", "yellow"],
                ball_on="yellow",
            ),
            ok(decision("play")),
            at(safe("blue"), penalty=5, fouls=["wrong_ball_first"], score=[53, 4], striker=0),
        ],
    ),
    (
        "3.12",
        "on the brown: missing every ball is four; on the pink the black first is seven",
        [
            ok(match()),
            ok(table(**FROM_BROWN, score=[30, 30], striker=0)),
            at(stroke([]), penalty=4, score=[30, 34], striker=1, ball_on="brown"),
            ok(decision("play")),
            at(pot("brown"), score=[30, 38]),
            at(pot("blue"), score=[30, 43], ball_on="pink"),
            at(safe("black"), penalty=7, score=[37, 43], striker=0, ball_on="pink"),
        ],
    ),
    (
        "3.7",
        "pink and black: the pink potted with an in-off (six, the pink back); both potted (seven)",
        [
            ok(match()),
            ok(table(**PINK_BLACK, score=[40, 30], striker=0)),
            at(
                stroke(["pink"], ["pink"], cue_ball="potted"),
                penalty=6,
                score=[40, 36],
                respotted=["pink"],
                ball_on="pink",
            ),
            ok(decision("play")),
            at(
                stroke(["pink"], ["pink", "black"]),
                penalty=7,
                score=[47, 36],
                respotted=["black", "pink"],
                points_remaining=13,
            ),
        ],
    ),
    # --- the last red ----------------------------------------------------------------------------
    (
        "3.3(f)",
        "the last red potted with the blue: a foul (five), the red stays down, the yellow is on",
        [
            ok(match(reds=6)),
            *steps(clear_reds(5)),
            at(
                stroke(["red"], ["red", "blue"]),
                penalty=5,
                score=[40, 5],
                reds=0,
                ball_on="yellow",
                points_remaining=27,
            ),
        ],
    ),
    (
        "3.14(a)",
        "after the last red a miss of every colour replaced: any colour on, then the yellow",
        [
            ok(match(reds=6)),
            *steps(clear_reds(5)),
            at(pot("red"), ball_on="colour", points_remaining=34),
            at(stroke([], miss=True), miss=True, penalty=7, score=[41, 7], ball_on="yellow"),
            at(decision("replace"), striker=0, ball_on="colour", points_remaining=34),
            at(pot("pink"), score=[47, 7], ball_on="yellow", respotted=["pink"]),
            at(pot("yellow"), score=[49, 7], ball_on="green"),
        ],
    ),
    (
        "3.3(f)",
        "after the last red the blue hit and the black potted: seven, the yellow on for the opponent",
        [
            ok(match(reds=6)),
            *steps(clear_reds(5)),
            ok(pot("red")),
            at(
                stroke(["blue"], ["black"]),
                penalty=7,
                score=[41, 7],
                striker=1,
                ball_on="yellow",
                respotted=["black"],
            ),
        ],
    ),
    (
        "3.10(e)",
        "the last red and the free ball potted together: both score, then a colour, then the yellow",
        [
            ok(match(reds=6)),
            *steps(clear_reds(5)),
            ok(safe("red")),
            ok(stroke(["blue"], free_ball=True)),
            ok(nominate("green")),
            at(
                stroke(["green"], ["green", "red"]),
                score=[47, 0],
                reds=0,
                ball_on="colour",
                points_remaining=34,
            ),
            at(pot("black"), score=[54, 0], ball_on="yellow"),
        ],
    ),
    # --- the last black and the re-spotted black -------------------------------------------------
    (
        "3.4(a)",
        "the last black potted with an in-off seven behind: the penalty ties, a re-spotted black",
        [
            ok(match()),
            ok(table(**BLACK_ONLY, score=[50, 43], striker=0)),
            at(
                stroke(["black"], ["black"], cue_ball="potted"),
                penalty=7,
                score=[50, 50],
                respotted_black=True,
                status="respotted_black_lot",
                frame_over=False,
                in_hand=True,
            ),
        ],
    ),
    (
        "3.4(b)",
        "re-spotted black: by lot Ann first, she plays safe, Ben misses it: seven and the frame to Ann",
        [
            ok(match(best_of=3)),
            ok(table(**BLACK_ONLY, score=[50, 43], striker=1)),
            at(pot("black"), score=[50, 50], status="respotted_black_lot", respotted=["black"]),
            at(lot(0), striker=0, in_hand=True, respotted_black=True),
            at(safe("black"), striker=1, foul=False),
            at(stroke([]), penalty=7, score=[57, 50], frame_over=True, winner=0, frames=[1, 0]),
            # 3.3(b): the breaker alternates, whoever the lot favoured.
            at(NEW_FRAME, striker=1, score=[0, 0], frame=2),
        ],
    ),
    (
        "3.4(b)",
        "re-spotted black: Ben first by lot pots the black and goes in-off: the frame to Ann",
        [
            ok(match(best_of=3)),
            ok(table(**BLACK_ONLY, score=[50, 43], striker=1)),
            ok(pot("black")),
            ok(lot(1)),
            at(
                stroke(["black"], ["black"], cue_ball="potted"),
                penalty=7,
                score=[57, 50],
                winner=0,
                frames=[1, 0],
                respotted=[],
            ),
        ],
    ),
    # --- concessions ---------------------------------------------------------------------------
    (
        "3.1(f)",
        "a concession by the player needing snookers: the frame to the other, scores as they stand",
        [
            ok(match(best_of=3)),
            at(table(**PINK_BLACK, score=[60, 30], striker=1), snookers_required=[0, 3]),
            at(CONCEDE, frame_over=True, winner=0, frames=[1, 0], score=[60, 30]),
            at(NEW_FRAME, striker=1, frame=2),
        ],
    ),
    (
        "3.1(f)",
        "a concession by the player ahead: the frame is still the other's",
        [
            ok(match(best_of=3)),
            ok(table(**PINK_BLACK, score=[60, 30], striker=1)),
            at({"type": "concede", "player": 0}, winner=1, frames=[0, 1]),
        ],
    ),
    # --- fouls by the player not at the table ----------------------------------------------------
    (
        "3.14(h)",
        "only the black left: the player not striking touches it: seven, the frame over",
        [
            ok(match()),
            ok(table(**BLACK_ONLY, score=[50, 47], striker=1)),
            at(
                foul("touched_ball", "black", player=0),
                penalty=7,
                score=[50, 54],
                striker=1,
                frame_over=True,
                winner=1,
            ),
        ],
    ),
    (
        "3.14(h)",
        "only the black left, seven ahead: the leader's foul as non-striker levels the scores: re-spotted",
        [
            ok(match()),
            ok(table(**BLACK_ONLY, score=[50, 43], striker=1)),
            at(
                foul("touched_ball", "black", player=0),
                score=[50, 50],
                respotted_black=True,
                frame_over=False,
            ),
        ],
    ),
    (
        "3.2(b)",
        "during Ann's break Ben touches a red: four to Ann, her break goes on, no options",
        [
            ok(match()),
            ok(pot("red")),
            ok(pot("black")),
            at(foul("touched_ball", "red", player=1), score=[12, 0], striker=0, options=[], **{"break": 8}),
            at(pot("red"), score=[13, 0], **{"break": 9}),
        ],
    ),
    (
        "3.4(a)",
        "the pink potted, then the striker touches the black (only ball left): seven, the frame over",
        [
            ok(match()),
            ok(table(**PINK_BLACK, score=[40, 30], striker=0)),
            at(pot("pink"), score=[46, 30], ball_on="black"),
            at(foul("touched_ball", "black"), penalty=7, score=[46, 37], frame_over=True, winner=0),
        ],
    ),
    # --- a foul worth more than the points remaining ----------------------------------------------
    (
        "3.12(b)",
        "pink and black, three ahead: the black hit first gives seven, more than the pink on",
        [
            ok(match()),
            ok(table(**PINK_BLACK, score=[60, 57], striker=0)),
            at(safe("black"), penalty=7, score=[60, 64], striker=1, ball_on="pink", points_remaining=13),
            ok(decision("play")),
            at(pot("pink"), score=[60, 70], snookers_required=[1, 0], points_remaining=7),
        ],
    ),
    # --- out of turn ------------------------------------------------------------------------------
    (
        "3.12(a)",
        "a red potted out of turn: four, no score, the red stays down; played again it scores",
        [
            ok(match()),
            ok(safe("red")),
            at(
                stroke(["red"], ["red"], player=0),
                penalty=4,
                fouls=["out_of_turn"],
                score=[0, 4],
                reds=14,
                striker=1,
            ),
            at(decision("play_again"), striker=0),
            at(pot("red"), score=[1, 4], reds=13, ball_on="colour"),
        ],
    ),
    (
        "3.17(c)",
        "four-handed: the breaker's partner breaks out of turn; the next after him decides and plays",
        [
            ok(match(players=4)),
            at(stroke(["red"], player=2), penalty=4, score=[0, 4], striker=3, offender=2),
            ok(decision("play")),
            at(safe("red"), striker=0),
        ],
    ),
    # --- play again and the three misses -----------------------------------------------------------
    (
        "3.14(c)",
        "three misses from the same position, a full ball open: warned after two, the frame awarded",
        [
            ok(match()),
            ok(safe("red")),
            at(
                stroke([], miss=True, full_ball=True),
                miss=True,
                score=[4, 0],
                options=["play", "play_again", "replace"],
            ),
            at(decision("replace"), striker=1, warning=False),
            at(stroke([], miss=True, full_ball=True), score=[8, 0], warning=False, warning_due=True),
            at(decision("replace"), announcements=["BALLS REPLACED", WARNING]),
            at(
                stroke(["blue"], miss=True, full_ball=True),
                penalty=5,
                score=[13, 0],
                frame_over=True,
                winner=0,
            ),
        ],
    ),
    (
        "3.13",
        "a foul, play again, then three misses from the replaced position: the frame awarded",
        [
            ok(match()),
            ok(safe("red")),
            at(stroke(["blue"]), penalty=5, score=[5, 0], options=["play", "play_again"]),
            ok(decision("play_again")),
            at(stroke([], miss=True, full_ball=True), score=[9, 0], warning=False),
            ok(decision("replace")),
            at(stroke([], miss=True, full_ball=True), score=[13, 0], warning=False, warning_due=True),
            ok(decision("replace")),
            at(stroke([], miss=True, full_ball=True), score=[17, 0], winner=0, frame_over=True),
        ],
    ),
    (
        "3.14(c)",
        "two misses, then play again from where the balls lie: a new position, the count restarts",
        [
            ok(match()),
            ok(safe("red")),
            ok(stroke([], miss=True, full_ball=True)),
            ok(decision("replace")),
            at(stroke([], miss=True, full_ball=True), warning=False, warning_due=True),
            at(decision("play_again"), warning=False, striker=1),
            at(stroke([], miss=True, full_ball=True), score=[12, 0], warning=False, frame_over=False),
        ],
    ),
    (
        "3.13",
        "play again cannot be withdrawn; no replacement after a foul that was not a miss",
        [
            ok(match()),
            ok(safe("red")),
            at(stroke(["blue"]), penalty=5, options=["play", "play_again"]),
            at(decision("replace"), error=True),
            at(decision("play_again"), striker=1, options=[]),
            at(decision("play"), error=True),
            at(pot("red"), score=[5, 1], striker=1),
        ],
    ),
    # --- the miss when the ball on cannot be hit ---------------------------------------------------
    (
        "3.14(b)",
        "the green on, the white tight behind the brown: hitting the brown is a foul, no miss",
        [
            ok(match()),
            ok(frame_with(GREEN_ON, **FROM_GREEN, score=[30, 30], striker=0)),
            at(
                stroke(["brown"], positions={"before": GREEN_ON, "after": AFTER_BROWN}),
                penalty=4,
                miss=False,
                options=["play", "play_again"],
            ),
        ],
    ),
    (
        "3.14(b)",
        "the green on and in view: hitting the brown is a foul and a miss",
        [
            ok(match()),
            ok(frame_with(GREEN_ON_OPEN, **FROM_GREEN, score=[30, 30], striker=0)),
            at(
                stroke(["brown"], positions={"before": GREEN_ON_OPEN, "after": AFTER_BROWN}),
                penalty=4,
                miss=True,
                options=["play", "play_again", "replace"],
            ),
        ],
    ),
    (
        "3.14(b)",
        "the last red hidden by the pink: missing every ball is no miss, and a free ball follows",
        [
            ok(match()),
            ok(frame_with(BEHIND_PINK, reds=1, ball_on="red", score=[20, 20], striker=0)),
            at(
                stroke([], positions={"before": BEHIND_PINK, "after": moved(BEHIND_PINK, white=(CX, 2300))}),
                penalty=4,
                miss=False,
                free_ball=True,
                points_remaining=43,
            ),
        ],
    ),
    # --- touching ball, push and jump -------------------------------------------------------------
    (
        "3.8(d)",
        "the white at rest against the blue, a red on: the blue moved by the stroke is a push, five",
        [
            ok(match()),
            at(stroke(["red"], touching=["blue"]), touching=[]),
            at(stroke(["red"], fouls=["push_stroke"]), penalty=5, fouls=["push_stroke"], score=[5, 0]),
        ],
    ),
    (
        "3.8(c)",
        "touching a red: playing away is no foul, nor then hitting the blue; potting the blue is",
        [
            ok(match()),
            at(stroke(["red"], touching=["red-3"]), touching=["red-3"], announcements=["TOUCHING BALL"]),
            at(
                stroke(["blue"], ["blue"]),
                penalty=5,
                fouls=["potted_ball_not_on"],
                respotted=["blue"],
                score=[5, 0],
            ),
        ],
    ),
    (
        "3.8(c)",
        "touching a red: playing away hitting the blue and potting nothing ends the turn, no foul",
        [
            ok(match()),
            ok(stroke(["red"], touching=["red-3"])),
            at(safe("blue"), foul=False, score=[0, 0], striker=0),
        ],
    ),
    (
        "3.12(a)",
        "a jump shot that pots the red: four, the red stays down; on the blue: five, the blue back",
        [
            *steps(SIX_RED_CLEARED),
            ok(pot("yellow")),
            ok(pot("green")),
            ok(pot("brown")),
            at(
                stroke(["blue"], ["blue"], fouls=["jump_shot"]),
                penalty=5,
                score=[57, 5],
                respotted=["blue"],
                ball_on="blue",
            ),
        ],
    ),
    (
        "3.12(a)",
        "a jump shot potting a red on the red: four, no score, the red not replaced",
        [
            ok(match()),
            at(
                stroke(["red"], ["red"], fouls=["jump_shot"]), penalty=4, score=[0, 4], reds=14, ball_on="red"
            ),
        ],
    ),
    # --- two reds at once (the fault) -------------------------------------------------------------
    (
        "3.6",
        "after a red, the blue declared, two reds hit at once: a ball not on first (five), not 3.12(c)",
        [
            ok(match()),
            ok(pot("red")),
            ok(nominate("blue")),
            at(stroke(["red", "red"]), penalty=5, fouls=["wrong_ball_first"], score=[1, 5], striker=1),
        ],
    ),
    (
        "3.10(b)(i)",
        "the pink nominated as free ball, two reds hit at once: not the free ball first (four)",
        [
            ok(match()),
            ok(stroke([], free_ball=True)),
            ok(nominate("pink")),
            at(stroke(["red", "red"], ["red"]), penalty=4, fouls=["wrong_ball_first"], score=[4, 4], reds=14),
        ],
    ),
    (
        "3.12(d)",
        "after a red, no colour declared, two reds hit at once: reds in successive strokes (seven)",
        [
            ok(match()),
            ok(pot("red")),
            at(stroke(["red", "red"]), penalty=7, fouls=["reds_in_successive_strokes"], score=[1, 7]),
        ],
    ),
    (
        "3.12(c)",
        "after a red, the blue declared, the blue and the pink at once: six",
        [
            ok(match()),
            ok(pot("red")),
            ok(nominate("blue")),
            at(stroke(["blue", "pink"]), penalty=6, fouls=["two_balls_at_once"]),
        ],
    ),
    # --- breaks and counting ---------------------------------------------------------------------
    (
        "3.10",
        "a free ball on the break-off's foul, then a total clearance: a break of 155",
        [
            ok(match()),
            at(stroke([], free_ball=True), score=[0, 4], points_remaining=155),
            ok(nominate("pink")),
            ok(pot("pink")),
            ok(pot("black")),
            *steps(clear_reds(15)),
            *steps([pot(c) for c in COLOURS_FROM_YELLOW[:-1]]),
            at(pot("black"), score=[0, 159], **{"break": 155}, frame_over=True, winner=1),
        ],
    ),
    (
        "3.3(e)",
        "two reds in one stroke score two; then one colour only",
        [
            ok(match()),
            at(stroke(["red"], ["red", "red"]), score=[2, 0], reds=13, ball_on="colour"),
            at(pot("black"), score=[9, 0], ball_on="red"),
            at(pot("black"), penalty=7, fouls=["wrong_ball_first", "potted_ball_not_on"], score=[9, 7]),
        ],
    ),
    (
        "3.12(d)",
        "failing to declare the ball on when asked: seven",
        [
            ok(match()),
            ok(pot("red")),
            at(foul("failed_to_declare"), penalty=7, score=[1, 7], striker=1, ball_on="red"),
        ],
    ),
    (
        "3.16",
        "a stalemate re-racked: the scores cancelled, the same player breaks",
        [
            ok(match(best_of=3)),
            ok(safe("red")),
            ok(pot("red")),
            ok(pot("black")),
            at({"type": "rerack"}, score=[0, 0], striker=0, reds=15, frame=1, frames=[0, 0]),
        ],
    ),
    (
        "3.9(a)",
        "a red hanging in the jaws falls after the stroke: replaced, no score, the turn has passed",
        [
            ok(match()),
            ok(safe("red")),
            at(
                {"type": "edge_fall", "ball": "red"},
                score=[0, 0],
                striker=1,
                reds=15,
                announcements=["BALL REPLACED"],
            ),
        ],
    ),
    # --- a whole frame ---------------------------------------------------------------------------
    (
        "3",
        "a six-red frame: free ball, an in-off, two misses and a warning, a clearance to a tie, the"
        " re-spotted black lost by a foul",
        [
            ok(match(reds=6)),
            at(safe("red"), score=[0, 0], striker=1, points_remaining=75),
            at(pot("red"), score=[0, 1], ball_on="colour", points_remaining=74),
            at(pot("black"), score=[0, 8], points_remaining=67),
            at(safe("red"), score=[0, 8], striker=0),
            at(
                stroke(["blue"], free_ball=True),
                score=[0, 13],
                striker=1,
                free_ball=True,
                points_remaining=75,
            ),
            ok(nominate("green")),
            at(pot("green"), score=[0, 14], reds=5, respotted=["green"], ball_on="colour"),
            at(pot("pink"), score=[0, 20], ball_on="red"),
            at(pot("red"), score=[0, 21], reds=4),
            at(
                stroke(["black"], ["black"], cue_ball="potted"),
                penalty=7,
                score=[7, 21],
                striker=0,
                in_hand=True,
            ),
            ok(decision("play")),
            at(stroke([], miss=True, full_ball=True), miss=True, score=[7, 25], striker=1, warning=False),
            at(decision("replace"), striker=0, in_hand=True),
            at(stroke([], miss=True, full_ball=True), score=[7, 29], warning=False, warning_due=True),
            at(decision("play"), striker=1, warning=False),
            at(pot("red"), score=[7, 30]),
            at(pot("pink"), score=[7, 36]),
            at(pot("red"), score=[7, 37], reds=2),
            at(pot("black"), score=[7, 44], **{"break": 15}),
            at(safe("red"), striker=0, points_remaining=43, snookers_required=[0, 0]),
            at(pot("red"), score=[8, 44]),
            at(pot("green"), score=[11, 44]),
            at(pot("red"), score=[12, 44], reds=0, ball_on="colour", points_remaining=34),
            at(pot("blue"), score=[17, 44], ball_on="yellow", points_remaining=27, respotted=["blue"]),
            *steps([pot(c) for c in ("yellow", "green", "brown", "blue")]),
            at(pot("pink"), score=[37, 44], ball_on="black", points_remaining=7, **{"break": 30}),
            at(
                pot("black"),
                score=[44, 44],
                status="respotted_black_lot",
                respotted=["black"],
                **{"break": 37},
            ),
            at(lot(1), striker=1, in_hand=True, **{"break": 0}),
            at(safe("black"), striker=0, score=[44, 44]),
            at(stroke([]), penalty=7, score=[44, 51], frame_over=True, winner=1, frames=[0, 1]),
        ],
    ),
    # --- re-spotting on taken spots ---------------------------------------------------------------
    (
        "3.7(f)",
        "the black potted, every spot taken: as near its spot as it can, towards the top cushion",
        [
            ok(match()),
            ok(pot("red")),
            at(
                stroke(
                    ["black"],
                    ["black"],
                    positions={
                        "after": {
                            **on_spots("yellow", "green", "brown", "blue", "pink"),
                            **place(white=(CX + 300, 2000), red_1=SPOTS["black"]),
                        }
                    },
                ),
                score=[8, 0],
                respotted=[{"ball": "black", "position": [CX, 3298.6]}],
            ),
        ],
    ),
    (
        "3.7(d)",
        "the pink potted, its spot taken: on the highest free spot, the black's",
        [
            ok(match()),
            ok(pot("red")),
            at(
                stroke(
                    ["pink"],
                    ["pink"],
                    positions={
                        "after": {
                            **on_spots("yellow", "green", "brown", "blue"),
                            **place(white=(CX + 300, 2000), red_1=SPOTS["pink"], black=(CX + 400, 3300)),
                        }
                    },
                ),
                score=[7, 0],
                respotted=[{"ball": "pink", "position": [CX, float(SPOTS["black"][1])]}],
            ),
        ],
    ),
]


def _close(got: Any, want: Any) -> bool:
    """Equal, numbers within 0.05 (a place in mm)."""
    if isinstance(want, float) and isinstance(got, int | float):
        return abs(got - want) <= 0.05
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want, strict=True))
    if isinstance(want, dict) and isinstance(got, dict):
        return got.keys() == want.keys() and all(_close(got[k], want[k]) for k in want)
    return bool(got == want)


@pytest.mark.parametrize("row", [s[2] for s in SITUATIONS], ids=[f"{s[0]} {s[1]}" for s in SITUATIONS])
def test_nineteenth_audit(row: list[Step]) -> None:
    referee = Referee()
    for number, (line, expected) in enumerate(row):
        ruling = referee.apply(line)
        if expected is not None and expected.get("error"):
            assert "error" in ruling, f"step {number} accepted: {ruling}"
            continue
        assert "error" not in ruling, f"step {number} refused: {ruling}"
        if expected is None:
            continue
        got = {field: ruling.get(field) for field in expected}
        assert _close(got, expected), f"step {number} ({line.get('type')}): got {got}, expected {expected}"


def test_situations_counted() -> None:
    """The audit's size as reported: at least forty situations, most of several strokes."""
    assert len(SITUATIONS) >= 40
    assert sum(1 for s in SITUATIONS if sum(1 for line, _ in s[2] if line.get("type") == "stroke") > 1) >= 25
