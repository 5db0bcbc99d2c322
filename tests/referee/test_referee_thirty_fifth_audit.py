"""The thirty-fifth audit: Section 3 clause by clause, each row a frame log worded from the Polish
text (``../shared/rules/section3-rules-pl.txt``, the clause quoted above its rows) and the fields
the referee must announce on its last line. Scores are ``[Ann, Ben]`` (four-handed: ``[Ann & Cat,
Ben & Dan]``); Ann breaks; six reds unless a row says otherwise.

Disagreements found and fixed (each has its row):

- 3.7(c) / 3.12(b), ``before_spotting`` with no ball after several colours were spotted: a missing
  colour spotted after a stroke (``spot_error`` corrected) replaced the stroke's re-spotted colours
  instead of joining them, so the ball concerned was the later one, not the lowest of those the
  referee may still have been spotting (the green re-spotted, then the black: seven instead of four).
- 3.4(b), a match conceded during the lot for a re-spotted black: the tie's break was kept, where a
  frame conceded in the same place (and any line naming its player then) begins the re-spotted
  black's play from 0.

Checked and kept: four-handed play out of turn (3.17(c): the next after the offender decides, the
order goes on from him, the partner or the player due losing the turn), the lot's lines (3.4(b),
3.17(d)), free balls (3.10), misses and the needs-snookers test (3.14(b)), penalties (3.12).
"""

from __future__ import annotations

from typing import Any

from referee_logs import (
    COLOURS,
    assert_last_ruling,
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

BEN_ON_RED = [match(reds=6), safe("red")]
"""Ann breaks off safely: Ben to play, on a red, 0-0."""

BEN_FREE_BALL = [match(reds=6), stroke([], free_ball=True)]
"""Ann misses every ball and leaves Ben snookered: 0-4, Ben has a free ball, reds on."""

ANN_ON_YELLOW = to_colours(6)
"""Ann clears six reds with six blacks: 48-0, Ann on the yellow."""

BEN_FREE_BALL_ON_YELLOW = [*ANN_ON_YELLOW, stroke([], free_ball=True)]
"""Ann misses the yellow and leaves Ben snookered: 48-4, Ben a free ball, the yellow on."""

ANN_ON_PINK = [*ANN_ON_YELLOW, pot("yellow"), pot("green"), pot("brown"), pot("blue")]
"""Ann, 62-0, on the pink."""

ANN_ON_LAST_RED = [match(reds=6), table(reds=1, colours=COLOURS, ball_on="red", score=[10, 10], striker=0)]
"""Joined 10-10, Ann to play on the last red."""

FOUR = match(players=4, reds=6)
"""Four-handed: Ann & Cat against Ben & Dan; the order Ann, Ben, Cat, Dan."""


def _black_alone(score: list[int], **extra: Any) -> list[Any]:
    """Only the black left, Ann to play, at ``score``."""
    return [match(reds=6, **extra), table(reds=0, colours=["black"], ball_on="black", score=score, striker=0)]


def _pink_and_black(score: list[int], striker: int) -> list[Any]:
    """Only the pink and the black left, the pink on, ``striker`` to play, at ``score``."""
    return [
        match(reds=6),
        table(reds=0, colours=["pink", "black"], ball_on="pink", score=score, striker=striker),
    ]


def _concede(**extra: Any) -> dict[str, Any]:
    return {"type": "concede", **extra}


def _spot_error(ball: str, error: str, **extra: Any) -> dict[str, Any]:
    return {"type": "spot_error", "ball": ball, "error": error, **extra}


ROWS = [
    # 3.3(e): "Wartość każdej bili Czerwonej [...] wbitej w tym samym uderzeniu jest zaliczana."
    (
        "3.3(e)",
        "Ann pots two reds at once on the break: two, a colour on",
        [match(reds=6), stroke(["red"], ["red", "red"])],
        {"points": 2, "score": [2, 0], "break": 2, "ball_on": "colour", "striker": 0, "reds": 4},
    ),
    # 3.3(f): "Jeżeli ta zostanie wbita, jest zaliczana i ustawiana ponownie na stole."
    (
        "3.3(f)",
        "a red then the black: eight, the black re-spotted, a red on",
        [match(reds=6), pot("red"), pot("black")],
        {"points": 7, "score": [8, 0], "break": 8, "respotted": ["black"], "ball_on": "red"},
    ),
    # 3.3(f): "po wbiciu ostatniej Czerwonej rozgrywana jest bila kolorowa"; then the colours in order.
    (
        "3.3(f)",
        "the last red then the pink: the pink re-spotted, the yellow on, 27 left",
        [*ANN_ON_LAST_RED, pot("red"), pot("pink")],
        {"score": [17, 10], "respotted": ["pink"], "ball_on": "yellow", "points_remaining": 27, "striker": 0},
    ),
    (
        "3.3(f)",
        "the last red, the pink missed: Ben on the yellow",
        [*ANN_ON_LAST_RED, pot("red"), safe("pink")],
        {"score": [11, 10], "ball_on": "yellow", "striker": 1, "foul": False, "points_remaining": 27},
    ),
    (
        "3.3(f)",
        "the last red, the pink nominated, an in-off: six, Ben on the yellow from hand",
        [*ANN_ON_LAST_RED, pot("red"), nominate("pink"), stroke(["pink"], [], cue_ball="potted")],
        {"penalty": 6, "score": [11, 16], "ball_on": "yellow", "striker": 1, "in_hand": True},
    ),
    # 3.3(g): "Bile Czerwone, wbite do kieszeni lub wybite poza stół, nie są ustawiane ponownie".
    (
        "3.3(g)",
        "Ann forces a red off the table: four, the red stays off",
        [match(reds=6), stroke(["red"], [], off_table=["red"])],
        {"fouls": ["ball_off_table"], "penalty": 4, "score": [0, 4], "reds": 5, "striker": 1},
    ),
    # 3.3(h): "lub z pozycji w ręce, jeżeli biała znajduje się poza polem gry".
    (
        "3.3(h)",
        "Ann forces the cue ball off the table: four, Ben from hand",
        [match(reds=6), stroke(["red"], [], off_table=["white"])],
        {"penalty": 4, "score": [0, 4], "striker": 1, "in_hand": True},
    ),
    # 3.4(a): "Jeżeli na stole pozostała tylko Czarna, jej pierwsze wbicie lub faul kończy frejma."
    (
        "3.4(a)",
        "the black alone, Ann 40-30 pots it: the frame to Ann",
        [*_black_alone([40, 30]), pot("black")],
        {"frame_over": True, "winner": 0, "score": [47, 30], "ball_on": "none"},
    ),
    (
        "3.4(a)",
        "the black alone, Ann 40-30 misses it: seven, the frame to Ann still",
        [*_black_alone([40, 30]), stroke([])],
        {"frame_over": True, "winner": 0, "score": [40, 37], "penalty": 7, "miss": False},
    ),
    # 3.4(a)-(b): a foul that levels the scores: "zawodnicy mają jednakową liczbę zdobytych punktów".
    (
        "3.4(a)",
        "the black alone, Ann 37-30 misses it: seven levels the frame, a re-spotted black",
        [*_black_alone([37, 30]), stroke([])],
        {"frame_over": False, "score": [37, 37], "respotted_black": True, "status": "respotted_black_lot"},
    ),
    (
        "3.4(a)",
        "the black alone, Ann 30-37 pots it: level, a re-spotted black",
        [*_black_alone([30, 37]), pot("black")],
        {"frame_over": False, "score": [37, 37], "respotted_black": True, "status": "respotted_black_lot"},
    ),
    # 3.4(b): "kolejny rozgrywający gra z pozycji biała w ręce; następne wbicie lub faul kończy frejma."
    (
        "3.4(b)",
        "the re-spotted black, Ben first by lot: Ben from hand, the black on",
        [*_black_alone([30, 37]), pot("black"), lot(1)],
        {"striker": 1, "in_hand": True, "ball_on": "black", "status": "in_play", "break": 0},
    ),
    (
        "3.4(b)",
        "the re-spotted black, Ben first, plays safe; Ann pots it: the frame to Ann",
        [*_black_alone([30, 37]), pot("black"), lot(1), safe("black"), pot("black")],
        {"frame_over": True, "winner": 0, "score": [44, 37]},
    ),
    (
        "3.4(b)",
        "the re-spotted black, Ben first, goes in-off: seven, the frame to Ann",
        [*_black_alone([30, 37]), pot("black"), lot(1), stroke(["black"], [], cue_ball="potted")],
        {"frame_over": True, "winner": 0, "score": [44, 37], "penalty": 7},
    ),
    (
        "3.4(b)",
        "the re-spotted black, Ben first, plays out of the D: seven, the frame to Ann",
        [*_black_alone([30, 37]), pot("black"), lot(1), stroke(["black"], [], fouls=["improper_in_hand"])],
        {"frame_over": True, "winner": 0, "penalty": 7},
    ),
    # 3.4(a): "sumaryczne punkty nie mają znaczenia" - on aggregate points a level frame simply ends.
    (
        "3.4(a)",
        "on aggregate, not the last frame: the black levels the frame, which ends level",
        [*_black_alone([30, 37], best_of=3, aggregate=True), pot("black")],
        {"frame_over": True, "respotted_black": False, "score": [37, 37], "match_over": False},
    ),
    # 3.4(c): "punkty sumaryczne mają jednakową wartość po zakończeniu ostatniego frejmu".
    (
        "3.4(c)",
        "on aggregate, the one frame ends level: a re-spotted black",
        [*_black_alone([30, 37], aggregate=True), pot("black")],
        {"frame_over": False, "respotted_black": True, "status": "respotted_black_lot"},
    ),
    # 3.4(b) with a concession during the lot: the same player conceding the frame or the match is
    # the same event for the break (the tie's break ends with the visit that tied the frame).
    (
        "3.4(b)",
        "the lot undrawn, Ann concedes the frame: the frame to Ben, the tie's break over",
        [*_black_alone([30, 37]), pot("black"), _concede(player=0)],
        {"frame_over": True, "winner": 1, "break": 0, "frames": [0, 1]},
    ),
    (
        "3.4(b)",
        "the lot undrawn, Ann concedes the match: the frame to Ben, the tie's break over as above",
        [*_black_alone([30, 37]), pot("black"), _concede(player=0, match=True)],
        {"frame_over": True, "winner": 1, "break": 0, "frames": [0, 1], "match_winner": 1},
    ),
    # 3.7(c): "z nałożeniem kary, jeśli rozgrywający zagrał, zanim sędzia zdążył ustawić bilę (bile)";
    # 3.12(b): the value of the ball on or of the ball concerned. Every colour the referee spotted
    # since the last stroke may be the one still unspotted: of several, the lowest (the benefit of the
    # doubt), whichever line spotted it.
    (
        "3.7(c)",
        "the pink and the black potted in a foul, Ann strikes before they are spotted: six",
        [*BEN_ON_RED, stroke(["red"], ["pink", "black"]), stroke(["red"], fouls=["before_spotting"])],
        {"fouls": ["before_spotting"], "penalty": 6, "score": [7, 6]},
    ),
    (
        "3.7(c)",
        "the green re-spotted, then the missing black spotted: struck before spotting, four (the green)",
        [
            match(reds=6),
            pot("red"),
            _spot_error("black", "not_spotted"),
            pot("green"),
            _spot_error("black", "not_spotted", corrected=True),
            stroke(["red"], fouls=["before_spotting"]),
        ],
        {"fouls": ["before_spotting"], "penalty": 4, "score": [4, 4], "striker": 1},
    ),
    (
        "3.7(c)",
        "the black re-spotted, then the missing green spotted: struck before spotting, four (the green)",
        [
            match(reds=6),
            pot("red"),
            _spot_error("green", "not_spotted"),
            pot("black"),
            _spot_error("green", "not_spotted", corrected=True),
            stroke(["red"], fouls=["before_spotting"]),
        ],
        {"fouls": ["before_spotting"], "penalty": 4, "score": [8, 4], "striker": 1},
    ),
    (
        "3.7(c)",
        "the missing black spotted after a stroke that re-spotted none: seven (the black)",
        [
            match(reds=6),
            _spot_error("black", "not_spotted"),
            safe("red"),
            _spot_error("black", "not_spotted", corrected=True),
            stroke(["red"], fouls=["before_spotting"]),
        ],
        {"fouls": ["before_spotting"], "penalty": 7, "score": [7, 0], "striker": 0},
    ),
    (
        "3.7(c)",
        "the pink re-spotted, a stroke that spots nothing, then struck before spotting: four",
        [match(reds=6), pot("red"), pot("pink"), safe("red"), stroke(["red"], fouls=["before_spotting"])],
        {"fouls": ["before_spotting"], "penalty": 4, "score": [11, 0]},
    ),
    # 3.6: "Nie jest dozwolone jednoczesne uderzenie [...] dwóch bil innych niż bile Czerwone lub bila
    # wolna i bila rozgrywana"; 3.12(c): "wartością wyższą z dwu bil branych pod uwagę".
    (
        "3.6",
        "on a red, the cue ball hits two reds at once: fair",
        [*BEN_ON_RED, stroke(["red", "red"], ["red"])],
        {"foul": False, "points": 1, "striker": 1},
    ),
    (
        "3.6",
        "on a red, the cue ball hits a red and the black at once: seven",
        [*BEN_ON_RED, stroke(["red", "black"])],
        {"fouls": ["two_balls_at_once"], "penalty": 7, "score": [7, 0], "striker": 0},
    ),
    (
        "3.6",
        "a free ball (the green) and a red hit at once: fair, the red potted scores",
        [*BEN_FREE_BALL, stroke(["green", "red"], ["red"], nominated="green")],
        {"foul": False, "points": 1, "score": [0, 5], "ball_on": "colour"},
    ),
    (
        "3.6",
        "on the yellow, the yellow and the blue hit at once: five",
        [*ANN_ON_YELLOW, stroke(["yellow", "blue"])],
        {"fouls": ["two_balls_at_once"], "penalty": 5, "score": [48, 5]},
    ),
    (
        "3.6",
        "a free ball (the pink) and the black hit at once, reds on: seven",
        [*BEN_FREE_BALL, stroke(["pink", "black"], nominated="pink")],
        {"fouls": ["two_balls_at_once"], "penalty": 7, "score": [7, 4]},
    ),
    (
        "3.6",
        "a free ball (the pink) and a red hit at once, the red potted: fair, one",
        [*BEN_FREE_BALL, stroke(["pink", "red"], ["red"], nominated="pink")],
        {"foul": False, "points": 1, "score": [0, 5], "ball_on": "colour"},
    ),
    (
        "3.12(c)",
        "a red, the blue nominated, the blue and the pink hit at once: six",
        [match(reds=6), pot("red"), nominate("blue"), stroke(["blue", "pink"])],
        {"fouls": ["two_balls_at_once"], "penalty": 6, "score": [1, 6]},
    ),
    (
        "3.12(d)",
        "a red, then two reds hit at once: seven (reds in successive strokes)",
        [match(reds=6), pot("red"), stroke(["red", "red"])],
        {"fouls": ["reds_in_successive_strokes"], "penalty": 7, "score": [1, 7]},
    ),
    (
        "3.12(b)",
        "on the yellow, the yellow and the green potted: four, both re-spotted, Ben on the yellow",
        [*ANN_ON_YELLOW, stroke(["yellow"], ["yellow", "green"])],
        {"penalty": 4, "score": [48, 4], "respotted": ["green", "yellow"], "ball_on": "yellow", "striker": 1},
    ),
    (
        "3.12(b)",
        "a red, the blue nominated, the blue and the yellow potted: five, both re-spotted",
        [match(reds=6), pot("red"), nominate("blue"), stroke(["blue"], ["blue", "yellow"])],
        {"penalty": 5, "score": [1, 5], "respotted": ["blue", "yellow"], "ball_on": "red"},
    ),
    # 3.10(a): "bila tak deklarowana nabiera znaczenia i wartości bili rozgrywanej, jednak po wbiciu
    # jest ustawiana na punkcie wyznaczonym według własnej wartości".
    (
        "3.10(a)",
        "a free ball, the pink nominated as a red and potted: one, the pink re-spotted, a colour on",
        [*BEN_FREE_BALL, stroke(["pink"], ["pink"], nominated="pink")],
        {"points": 1, "score": [0, 5], "respotted": ["pink"], "ball_on": "colour", "striker": 1, "reds": 6},
    ),
    (
        "3.10(c)",
        "on the yellow, a free ball: the black nominated and potted: two, the black re-spotted",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["black"], ["black"], nominated="black")],
        {"points": 2, "score": [48, 6], "respotted": ["black"], "ball_on": "yellow", "colours": COLOURS},
    ),
    # 3.10(d): "bila rozgrywana jest zaliczana i pozostaje poza polem gry".
    (
        "3.10(d)",
        "on the yellow, a free ball: the black hit first, the yellow potted: two, the green on",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["black"], ["yellow"], nominated="black")],
        {"points": 2, "score": [48, 6], "ball_on": "green", "colours": COLOURS[1:]},
    ),
    # 3.10(e): "zaliczana jest tylko bila rozgrywana, chyba że rozgrywaną jest bila Czerwona".
    (
        "3.10(e)",
        "on the yellow, a free ball: the black and the yellow potted: two only, the black re-spotted",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["black"], ["black", "yellow"], nominated="black")],
        {"points": 2, "score": [48, 6], "respotted": ["black"], "ball_on": "green"},
    ),
    (
        "3.10(e)",
        "reds on, a free ball: the green and a red potted: two, the green re-spotted, a colour on",
        [*BEN_FREE_BALL, stroke(["green"], ["green", "red"], nominated="green")],
        {"points": 2, "score": [0, 6], "respotted": ["green"], "reds": 5, "ball_on": "colour"},
    ),
    # 3.10(b): "nie ma pierwszego kontaktu z bilą deklarowaną" - the value of the ball on, or of the
    # ball hit (3.12(b)).
    (
        "3.10(b)",
        "reds on, a free ball nominated as the pink: the black hit first, seven",
        [*BEN_FREE_BALL, stroke(["black"], nominated="pink")],
        {"fouls": ["wrong_ball_first"], "penalty": 7, "score": [7, 4], "striker": 0},
    ),
    (
        "3.10(a)",
        "reds on, a free ball nominated as the black, nothing hit: four (the free ball is a red)",
        [*BEN_FREE_BALL, stroke([], nominated="black")],
        {"penalty": 4, "score": [4, 4]},
    ),
    (
        "3.10(a)",
        "on the pink, a free ball nominated as the black, nothing hit: six",
        [*ANN_ON_PINK, stroke([], free_ball=True), stroke([], nominated="black")],
        {"penalty": 6, "score": [68, 6]},
    ),
    # 3.10(f): "Jeżeli zawodnik faulujący otrzymał polecenie dalszej gry, ogłoszenie wolnej bili traci
    # ważność."
    (
        "3.10(f)",
        "a free ball called, Ann put in again: no free ball",
        [*BEN_FREE_BALL, decision("play_again")],
        {"free_ball": False, "striker": 0, "ball_on": "red"},
    ),
    # 3.11(e): "rozgrywający nie otrzymuje punktów za żadną bilę wbitą w zagraniu, w którym ogłoszony
    # został faul"; 3.11(g): "nakładana jest kara za najwyżej karany faul".
    (
        "3.11(g)",
        "on a red, a red and the black potted with an in-off: seven, nothing scores",
        [*BEN_ON_RED, stroke(["red"], ["red", "black"], cue_ball="potted")],
        {"penalty": 7, "points": 0, "score": [7, 0], "respotted": ["black"], "reds": 5, "in_hand": True},
    ),
    (
        "3.11(e)",
        "a break of nine stands when Ann then fouls before nominating: nine, then seven away",
        [match(reds=6), pot("red"), pot("black"), pot("red"), stroke([])],
        {"score": [9, 7], "penalty": 7, "striker": 1},
    ),
    # 3.12: penalties after a red are valued on the nominated colour.
    (
        "3.12(a)",
        "a red, the yellow nominated, nothing hit: four",
        [match(reds=6), pot("red"), nominate("yellow"), stroke([])],
        {"penalty": 4, "fouls": ["missed_all_balls"], "score": [1, 4]},
    ),
    (
        "3.12(a)",
        "a red, the black nominated, nothing hit: seven",
        [match(reds=6), pot("red"), nominate("black"), stroke([])],
        {"penalty": 7, "score": [1, 7]},
    ),
    (
        "3.12(b)",
        "a red, the blue nominated, the pink hit first: six",
        [match(reds=6), pot("red"), nominate("blue"), safe("pink")],
        {"penalty": 6, "fouls": ["wrong_ball_first"], "score": [1, 6]},
    ),
    (
        "3.12(b)",
        "a red, the blue nominated, the yellow hit first: five",
        [match(reds=6), pot("red"), nominate("blue"), safe("yellow")],
        {"penalty": 5, "score": [1, 5]},
    ),
    (
        "3.12(b)",
        "a red, the green nominated and hit, the black potted: seven",
        [match(reds=6), pot("red"), nominate("green"), stroke(["green"], ["black"])],
        {"penalty": 7, "fouls": ["potted_ball_not_on"], "score": [1, 7], "respotted": ["black"]},
    ),
    (
        "3.12(b)",
        "on the yellow, the blue potted: five, the blue re-spotted",
        [*ANN_ON_YELLOW, pot("blue")],
        {"penalty": 5, "score": [48, 5], "respotted": ["blue"], "ball_on": "yellow", "striker": 1},
    ),
    # 3.12(d): "gra bile Czerwone, lub Czerwoną po wolnej bili deklarowanej jako Czerwona, w kolejnych
    # zagraniach".
    (
        "3.12(d)",
        "a red, then a red hit again: seven",
        [match(reds=6), pot("red"), safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"], "score": [1, 7]},
    ),
    (
        "3.12(d)",
        "a free ball (the green) potted as a red, then a red hit: seven",
        [*BEN_FREE_BALL, stroke(["green"], ["green"], nominated="green"), safe("red")],
        {"penalty": 7, "fouls": ["reds_in_successive_strokes"], "score": [7, 5]},
    ),
    (
        "3.12(d)",
        "a red, then nothing hit with no colour nominated: seven",
        [match(reds=6), pot("red"), stroke([])],
        {"penalty": 7, "fouls": ["foul_before_nomination", "missed_all_balls"]},
    ),
    (
        "3.12(a)",
        "a break-off played from outside the D: four",
        [match(reds=6), stroke(["red"], fouls=["improper_in_hand"])],
        {"penalty": 4, "fouls": ["improper_in_hand"], "score": [0, 4], "striker": 1},
    ),
    (
        "3.12(a)",
        "on the pink, a jump shot: six",
        [*ANN_ON_PINK, stroke(["pink"], fouls=["jump_shot"])],
        {"penalty": 6, "score": [62, 6]},
    ),
    (
        "3.12(d)",
        "on the yellow, a measured gap: seven",
        [*ANN_ON_YELLOW, foul("measured_gap")],
        {"penalty": 7, "score": [48, 7], "striker": 1},
    ),
    (
        "3.12(b)",
        "a red, the yellow nominated, Ann touches the black with her sleeve: seven, Ben to decide",
        [match(reds=6), pot("red"), nominate("yellow"), foul("touched_ball", "black")],
        {"penalty": 7, "score": [1, 7], "striker": 1, "options": ["play", "play_again"], "ball_on": "red"},
    ),
    # 3.13: "Zawodnik faulujący, któremu nakazano ponowną grę, ma prawo [...] do zaliczenia punktów".
    (
        "3.13",
        "Ann put in again after a foul pots a red: one to Ann",
        [match(reds=6), stroke([]), decision("play_again"), pot("red")],
        {"points": 1, "score": [1, 4], "striker": 0, "ball_on": "colour"},
    ),
    # 3.14: "z wyjątkiem sytuacji, gdy na stole pozostała tylko Czarna".
    (
        "3.14",
        "the black alone, a miss called: no miss, the frame ends",
        [*_black_alone([40, 30]), stroke([], miss=True)],
        {"miss": False, "frame_over": True},
    ),
    (
        "3.14(b)",
        "Ben misses every red with a line open: foul and a miss, four",
        [*BEN_ON_RED, stroke([], clear_path=True)],
        {"miss": True, "penalty": 4, "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(c)",
        "three misses with a full ball open: the frame to Ann",
        [
            *BEN_ON_RED,
            stroke([], clear_path=True, full_ball=True),
            decision("replace"),
            stroke([], clear_path=True, full_ball=True),
            decision("replace"),
            stroke([], clear_path=True, full_ball=True),
        ],
        {"frame_over": True, "winner": 0, "score": [12, 0]},
    ),
    # 3.14(b): "chyba że którykolwiek z zawodników potrzebował snookerów przed lub w wyniku zagrania".
    (
        "3.14(b)",
        "on the pink, 40-30, Ben misses it with a line open: the six leaves him needing snookers, no miss",
        [*_pink_and_black([40, 30], 1), stroke([], clear_path=True)],
        {"miss": False, "penalty": 6, "score": [46, 30], "options": ["play", "play_again"]},
    ),
    (
        "3.14(b)",
        "on the pink, 40-33, Ben misses it with a line open: still in it after the six, a miss",
        [*_pink_and_black([40, 33], 1), stroke([], clear_path=True)],
        {"miss": True, "penalty": 6, "score": [46, 33], "options": ["play", "play_again", "replace"]},
    ),
    (
        "3.14(b)",
        "on the pink, 44-30, Ann (ahead) misses it with a line open: Ben needed snookers, no miss",
        [*_pink_and_black([44, 30], 0), stroke([], clear_path=True)],
        {"miss": False, "penalty": 6, "score": [44, 36]},
    ),
    # 3.14(a): "dowolnie wybraną bilę kolorową, jeżeli [...] bilą rozgrywaną była bila kolorowa po
    # wbiciu Czerwonej".
    (
        "3.14(a)",
        "a red, the blue nominated and missed: replaced, Ann on a colour of her choice again",
        [match(reds=6), pot("red"), nominate("blue"), stroke([], clear_path=True), decision("replace")],
        {
            "striker": 0,
            "ball_on": "colour",
            "nominated": None,
            "score": [1, 5],
            "announcements": ["BALLS REPLACED"],
        },
    ),
    # 3.13 / 3.11(h): the offender put in again after a foul on a colour begins a new visit, on a red.
    (
        "3.11(h)",
        "a red, the blue nominated and missed, no miss: Ann put in again is on a red",
        [match(reds=6), pot("red"), nominate("blue"), stroke([]), decision("play_again")],
        {"striker": 0, "ball_on": "red", "break": 0, "score": [1, 5]},
    ),
    # 3.9(b): "jeśli nie nastąpiło naruszenie niniejszych Przepisów, bile ustawiane są na poprzednich
    # pozycjach i ten sam rozgrywający powtarza to samo zagranie lub wykonuje inne".
    (
        "3.9(b)",
        "the pink falls from the lip before the red potted could reach it: replaced, Ann plays again",
        [match(reds=6), stroke(["red"], ["red", "pink"], fell_from_edge=["pink"])],
        {"foul": False, "points": 0, "score": [0, 0], "striker": 0, "reds": 6},
    ),
    # 3.9(a): "jest ponownie ustawiana w poprzedniej pozycji i żadne związane z nią punkty nie są
    # brane pod uwagę".
    (
        "3.9(a)",
        "the black falls in by itself between strokes: replaced, nothing changes",
        [*BEN_ON_RED, {"type": "edge_fall", "ball": "black"}],
        {"foul": False, "score": [0, 0], "striker": 1, "announcements": ["BALL REPLACED"]},
    ),
    # 3.8(c): "bila dotykana jest bilą rozgrywaną" - playing away from it is no foul.
    (
        "3.8(c)",
        "touching a red, Ben plays away and hits nothing: no foul",
        [*BEN_ON_RED, safe("red", touching=["red"]), stroke([])],
        {"foul": False, "striker": 1, "score": [0, 0]},
    ),
    (
        "3.8(c)",
        "after a red, touching the blue nominated, Ann plays away and hits nothing: no foul",
        [match(reds=6), pot("red", touching=["blue"]), nominate("blue"), stroke([])],
        {"foul": False, "striker": 1, "score": [1, 0], "ball_on": "red"},
    ),
    # 3.10(b) after a free ball on the colours: the nominated ball must be hit first.
    (
        "3.10(b)",
        "on the yellow, the black nominated as the free ball, the yellow hit first and potted: four",
        [*BEN_FREE_BALL_ON_YELLOW, stroke(["yellow"], ["yellow"], nominated="black")],
        {"foul": True, "penalty": 4, "score": [52, 4], "respotted": ["yellow"], "ball_on": "yellow"},
    ),
    (
        "3.10(c)",
        "the pink and the black left, the black as the free ball potted: six, the black re-spotted",
        [
            *_pink_and_black([40, 30], 0),
            stroke([], free_ball=True),
            stroke(["black"], ["black"], nominated="black"),
        ],
        {
            "points": 6,
            "score": [40, 42],
            "respotted": ["black"],
            "ball_on": "pink",
            "colours": ["pink", "black"],
        },
    ),
    (
        "3.10(e)",
        "the pink and the black left, the free ball (black) and the pink potted: six, the black on",
        [
            *_pink_and_black([40, 30], 0),
            stroke([], free_ball=True),
            stroke(["black"], ["black", "pink"], nominated="black"),
        ],
        {"points": 6, "score": [40, 42], "ball_on": "black", "colours": ["black"]},
    ),
    # 3.11(a): "Jeżeli rozgrywający nie wykonuje zagrania, jego podejście kończy się natychmiast".
    (
        "3.11(a)",
        "in a break of eight, Ann touches a red with her hand: four, her visit over, the eight stands",
        [match(reds=6), pot("red"), pot("black"), foul("touched_ball", "red")],
        {"penalty": 4, "score": [8, 4], "striker": 1, "break": 0, "options": ["play", "play_again"]},
    ),
    # 3.3(b): "Zawodnik lub strona otwierająca zmienia się w każdym frejmie".
    (
        "3.3(b)",
        "best of three, Ann wins the first frame: Ben breaks the second from hand",
        [*_black_alone([40, 30], best_of=3), pot("black"), {"type": "new_frame"}],
        {"frames": [1, 0], "striker": 1, "in_hand": True, "reds": 6, "score": [0, 0]},
    ),
    (
        "3.3(b)",
        "four-handed best of three: Ben & Dan break the second frame",
        [
            match(players=4, reds=6, best_of=3),
            table(reds=0, colours=["black"], ball_on="black", score=[40, 30], striker=0),
            pot("black"),
            {"type": "new_frame"},
        ],
        {"frames": [1, 0], "striker": 1, "in_hand": True},
    ),
    # 3.16: "sędzia anuluje wszystkie zdobyte punkty [...] ten sam zawodnik rozpoczyna".
    (
        "3.16",
        "a stalemate re-racked: scores cancelled, Ann breaks again",
        [match(reds=6), pot("red"), pot("black"), safe("red"), safe("red"), {"type": "rerack"}],
        {"score": [0, 0], "striker": 0, "reds": 6, "in_hand": True, "ball_on": "red"},
    ),
    # 3.17(c): "gra zawodnik, który spowodował faul, nawet gdy faul spowodowany został poza kolejnością
    # gry. Wówczas kolejność gry zostaje zachowana, ale partner faulującego może zostać pozbawiony
    # swojego podejścia."
    (
        "3.17(c)",
        "Cat plays when Ben was to play: four, Dan (next after Cat) decides",
        [FOUR, safe("red"), safe("red", player=2)],
        {"fouls": ["out_of_turn"], "offender": 2, "penalty": 4, "striker": 3, "score": [0, 4]},
    ),
    (
        "3.17(c)",
        "Cat out of turn, put in again, plays safe: Dan next, Ben has lost his turn",
        [FOUR, safe("red"), safe("red", player=2), decision("play_again"), safe("red")],
        {"striker": 3, "foul": False},
    ),
    (
        "3.17(c)",
        "Ann fouls, Dan strikes while Ben is choosing: four to Ann & Cat, Ann (next after Dan) decides",
        [FOUR, stroke([]), safe("red", player=3)],
        {"fouls": ["out_of_turn"], "offender": 3, "score": [4, 4], "striker": 0, "status": "decision"},
    ),
    (
        "3.17(c)",
        "Ann fouls, put in again, Cat strikes instead: four more to Ben & Dan, Dan decides",
        [FOUR, stroke([]), decision("play_again"), safe("red", player=2)],
        {"fouls": ["out_of_turn"], "offender": 2, "score": [0, 8], "striker": 3},
    ),
    (
        "3.4(b)",
        "four-handed re-spotted black, Ann first by lot, Ben strikes out of turn: seven, the frame ends",
        [
            FOUR,
            table(reds=0, colours=["black"], ball_on="black", score=[30, 37], striker=0),
            pot("black"),
            lot(0),
            safe("black", player=1),
        ],
        {"fouls": ["out_of_turn"], "penalty": 7, "frame_over": True, "winner": 0, "score": [44, 37]},
    ),
    # 3.17(d): "para wykonująca pierwsze zagranie wybiera, który z zawodników wykona to zagranie.
    # Dalsza kolejność gry musi być zachowana jak w całym frejmie."
    (
        "3.17(d)",
        "four-handed re-spotted black, Ann & Cat first, Cat chosen, plays safe: Dan next",
        [
            match(players=4, reds=6),
            table(reds=0, colours=["black"], ball_on="black", score=[30, 37], striker=0),
            pot("black"),
            lot(2),
            safe("black"),
        ],
        {"striker": 3, "respotted_black": True, "in_hand": False},
    ),
]


@over_checklist(ROWS)
def test_section_three_clause_by_clause(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)
