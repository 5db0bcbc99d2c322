"""Random frame logs for the differential test, and the comparison of the referee's rulings with
the independent scorer's (tests/referee/reference_scorer.py).

The generator drives itself from the scorer's state (the ball on, the balls left, an open decision,
a free ball, a miss replaced), so every log is sensible: legal pots and safeties, fouls of every kind
a stroke can show (and strokes showing anything at all), fouls outside a stroke, nominations, free
balls, misses stated with and without a full ball, decisions (replacing the balls too), frames joined
near their end (``table``, the ball on stated or not), the end of the reds, the colours, the last
black, a tie's re-spotted black, the next frame and the match's end. Strokes that send colours off
the table sometimes give the balls' places after the stroke — on or near the spots, stale places of
balls off the table, every spot taken and the line up the table filled — so the re-spot places
(3.7(d)-(g)) are compared too; where places are given, the calls the scorer cannot judge from them
(``miss``, ``full_ball``, ``free_ball``, ``touching``) are stated.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from typing import Any

from reference_scorer import (
    COLOURS,
    DIAMETER,
    LENGTH,
    RADIUS,
    SPOTS,
    TOUCH_MM,
    WIDTH,
    ReferenceScorer,
    Result,
)

from snooker.referee import Referee

Line = dict[str, Any]


class Chooser:
    """What a generator needs from its source of randomness (hypothesis' ``draw`` or ``random``)."""

    def __init__(self, choice: Callable[[Sequence[Any]], Any], integer: Callable[[int, int], int]) -> None:
        self.choice = choice
        self.integer = integer

    def boolean(self) -> bool:
        return bool(self.integer(0, 1))


EXTRA_FOULS = (
    "push_stroke",
    "jump_shot",
    "double_hit",
    "measured_gap",
    "touched_ball",
    "balls_moving",
    "used_ball_off_table",
    "no_foot_on_floor",
)
SEVENS_AFTER_A_RED = ("reds_in_successive_strokes", "foul_before_nomination")
"""The striker's own fouls after potting a red: never called against a player out of turn."""
WITH_BALL = ("touched_ball", "balls_moving", "push_stroke")


def _on_balls(scorer: ReferenceScorer) -> list[str]:
    f = scorer.f
    if f.ball_on == "red":
        return ["red"]
    if f.ball_on == "colour":
        return list(f.colours)
    if f.ball_on == "either":
        return _table_balls(scorer)
    return [f.ball_on]


def _table_balls(scorer: ReferenceScorer) -> list[str]:
    f = scorer.f
    return (["red"] if f.reds else []) + list(f.colours)


def _off_table_balls(scorer: ReferenceScorer) -> list[str]:
    """The balls a striker may have used off the table (3.12(d)): a red once one has left it, a colour
    potted for good. The choice of a ball is drawn whatever it is, and named only when it is one of
    these, so the draws that follow are the same."""
    f = scorer.f
    return (["red"] if f.reds < scorer.reds_total else []) + [c for c in COLOURS if c not in f.colours]


def generate(c: Chooser, max_lines: int = 120, layouts: bool = False, rare: bool = False) -> list[Line]:
    """One random match log (best of three, 6, 10 or 15 reds).

    ``layouts``: every stroke gives the balls' places before and after it (:func:`_layout`: balls
    anywhere, the cue ball now and then just behind or against another ball, from hand in the D or,
    now and then, not), and the calls the geometry answers (``free_ball``, ``touching``, ``miss`` now
    and then, ``full_ball``) are left to the referee: for the metamorphic tests, which compare the
    referee with itself (the scorer, which does not judge places, only steers the log).

    ``rare``: a match of one to three frames, on aggregate points half the time, and now and then,
    besides, a line of the few the scorer models beyond these (the thirty-second audit: a re-rack, a
    frame conceded, a ball moved by someone else); without it no draw is made for them, so the logs
    of a seed stay as they were."""
    reds = c.choice([6, 10, 15])
    lines: list[Line] = [
        {
            "type": "match",
            "schema": "snooker.log/1",
            "players": ["A", "B"],
            "best_of": 3,
            "breaker": c.integer(0, 1),
            "reds": reds,
        }
    ]
    if rare:
        lines[0]["best_of"] = c.integer(1, 3)
        lines[0]["aggregate"] = c.boolean()
    scorer = ReferenceScorer()
    scorer.apply(lines[0])
    judge = Referee()
    judge.apply(lines[0])
    positioned = False
    fresh = True
    for _ in range(c.integer(1, max_lines)):
        f = scorer.f
        if scorer.match_over:
            break
        if f.over:
            line: Line = {"type": "new_frame"}
            positioned = False
            fresh = True
        elif fresh and c.boolean():
            line = _join(c)
            if layouts:
                cue = "in_hand" if line["cue_in_hand"] else "on_table"
                line["positions"] = _layout(c, line["reds"], line["colours"], cue)
                if line["cue_in_hand"]:
                    del line["positions"]["white"]  # in hand: not on the cloth
            fresh = False
        elif f.lot:
            line = {"type": "respotted_black", "first": c.integer(0, 1)}
        elif f.decision and c.boolean():
            options = ["play", "play_again", "replace", "replace"] if f.miss else ["play", "play_again"]
            line = {"type": "decision", "choice": c.choice(options)}
        elif rare and not f.lot and c.integer(0, RARE_ONE_IN - 1) == 0:
            line = _rare_line(c, scorer)
        elif not f.replaced and c.integer(0, 14) == 0:
            line = _foul_line(c, scorer)
        elif (
            (f.ball_on in ("colour", "either") or f.free_ball)
            and f.nominated is None
            and c.integer(0, 3) == 0
        ):
            on = _on_balls(scorer)
            pool = (
                list(f.colours)
                if f.ball_on in ("colour", "either")
                else [b for b in _table_balls(scorer) if b not in on]
            )
            line = {"type": "nominate", "ball": c.choice(pool)}
        else:
            line = _stroke(c, scorer)
            if f.decision and c.integer(0, 9) == 0:
                line = _stroke(c, _asked_to_play_again(scorer))
                line["player"] = f.offender  # the offender plays: he was asked to play again
            elif (
                not f.decision
                and not {e["reason"] if isinstance(e, dict) else e for e in line.get("fouls", [])}
                & set(SEVENS_AFTER_A_RED)
                and c.integer(0, 19) == 0
            ):
                line["player"] = 1 - f.striker  # played out of turn (3.12(a))
            elif c.integer(0, 9) == 0:
                line["player"] = f.striker
            if layouts:
                line["positions"] = _stroke_layouts(c, f.reds, f.colours, f.in_hand, line)
            elif _would_respot(scorer, line) and c.integer(0, 2) == 0:
                line["positions"] = {"after": _places(c, scorer, line)}
                line["touching"] = []
                positioned = True
            if positioned:
                line["miss"] = False
            if (
                _fails_to_hit(copy.deepcopy(scorer).apply(line))
                and not _hits_on(scorer, line)
                and (line["first_contact"] or not (line["potted"] or line.get("off_table")))
                and c.boolean()
            ):
                # A foul and a miss as the log states it (3.14), a full ball open now and then not.
                line["miss"] = True
                if c.integer(0, 3) == 0 and not layouts:
                    line["full_ball"] = False
                elif positioned:
                    line["full_ball"] = True

            trial = copy.deepcopy(scorer)
            if trial.apply(line).foul and not (trial.f.over or trial.f.lot or layouts):
                # A foul's free-ball call, stated: only while the frame goes on.
                line["free_ball"] = c.integer(0, 3) == 0
        if line["type"] != "new_frame":
            fresh = False
        lines.append(line)
        scorer.apply(_as_judged(judge, line) if layouts else line)
    return lines


RARE_ONE_IN = 12
"""With ``rare``, about one line in this many (while no lot is open) is a rare one."""


def _rare_line(c: Chooser, scorer: ReferenceScorer) -> Line:
    """A re-rack (3.16), a frame conceded by the player to play or named (1(F)), or an object ball
    moved by someone other than the striker and replaced (3.15)."""
    f = scorer.f
    kind = c.choice(["rerack", "concede", "ball_moved", "ball_moved"])
    if kind == "rerack":
        return {"type": "rerack"}
    if kind == "concede":
        line: Line = {"type": "concede"}
        if c.boolean():
            line["player"] = f.striker
        return line
    balls = _table_balls(scorer)
    return {"type": "ball_moved", "ball": c.choice(balls)} if balls else {"type": "rerack"}


def _as_judged(judge: Referee, line: Line) -> Line:
    """``line`` as the scorer is to read it: with what the referee ``judge`` (which rules the log
    alongside) decided from the places stated — the free ball, the miss and whether a full ball was
    open, the touching ball, a placement outside the D — so that the scorer, which judges no places,
    keeps step with it."""
    ruling = judge.apply(line)
    if line["type"] != "stroke" or "error" in ruling:
        return line
    stated = {k: v for k, v in line.items() if k != "positions"}
    stated["touching"] = list(ruling["touching"])
    stated["miss"] = ruling["miss"]
    chain = judge.state.frame.miss_chain if judge.state is not None else None
    if ruling["miss"]:
        stated["full_ball"] = bool(chain is not None and chain.full_ball)
    if ruling["foul"]:
        stated["free_ball"] = ruling["free_ball"]
    if "improper_in_hand" in ruling["fouls"]:
        stated["fouls"] = [*line.get("fouls", []), "improper_in_hand"]
    return stated


def _asked_to_play_again(scorer: ReferenceScorer) -> ReferenceScorer:
    """The scorer as it stands once the offender is asked to play again (to draw his stroke)."""
    trial = copy.deepcopy(scorer)
    trial.apply({"type": "decision", "choice": "play_again"})
    return trial


def _join(c: Chooser) -> Line:
    """A ``table`` line joining a frame near its end, the scores close: the end of the reds, the
    colours, the last black, a tie and its re-spotted black come up often."""
    reds = c.choice([0, 0, 0, 1, 2])
    colours = list(COLOURS) if reds else list(COLOURS[c.integer(0, 5) :])
    ball_on = c.choice(["red", "colour"]) if reds else colours[0]
    first = c.integer(0, 60)
    second = max(0, first + c.integer(-14, 14))
    line: Line = {
        "type": "table",
        "reds": reds,
        "colours": colours,
        "ball_on": ball_on,
        "score": [first, second],
        "striker": c.integer(0, 1),
        "cue_in_hand": c.integer(0, 3) == 0,
    }
    if len(colours) == len(COLOURS) and c.boolean():
        del line["ball_on"]  # not known: ``either``
    return line


MISSABLE = ("missed_all_balls", "wrong_ball_first", "two_balls_at_once", "reds_in_successive_strokes")


def _fails_to_hit(result: Result) -> bool:
    """A foul that fails to hit a ball on first, where a miss may be called (not on the last black)."""
    return (
        result.foul
        and bool(set(result.fouls) & set(MISSABLE))
        and not result.frame_over
        and result.status != "respotted_black_lot"
        and not result.match_over
    )


def _hits_on(scorer: ReferenceScorer, line: Line) -> bool:
    trial = copy.deepcopy(scorer)
    trial.apply(line)
    return any(b in trial.last_on for b in line.get("first_contact", []))


def _foul_line(c: Chooser, scorer: ReferenceScorer) -> Line:
    """A foul outside a stroke (3.11(a)): touching a ball, a push, measuring a gap, a ball off the
    table used; the next player's free ball called now and then."""
    f = scorer.f
    code = c.choice(["touched_ball", "touched_ball", "measured_gap", "used_ball_off_table", "push_stroke"])
    line: Line = {"type": "foul", "reason": code}
    if code == "touched_ball":
        balls = _table_balls(scorer) + ([] if f.in_hand else ["white"])
        line["ball"] = c.choice(balls)
    elif code == "used_ball_off_table":
        ball = c.choice(["red", *COLOURS])
        if ball in _off_table_balls(scorer):
            line["ball"] = ball
    trial = copy.deepcopy(scorer)
    trial.apply(line)
    if not (trial.f.over or trial.f.lot):
        line["free_ball"] = c.integer(0, 3) == 0  # stated: the places, where given, are not judged
    return line


def _left_after(reds: int, colours: Sequence[str], line: Line) -> tuple[int, list[str], str]:
    """The balls a stroke leaves on the cloth as a tracker sees them once they stop: the reds not
    potted or forced off, the colours neither (one to be re-spotted is not there yet), the cue ball
    where it ended."""
    gone = [_name(b) for b in line.get("potted", [])] + list(line.get("off_table", []))
    left = max(0, reds - gone.count("red"))
    return left, [b for b in colours if b not in gone], line.get("cue_ball", "on_table")


def _name(entry: Any) -> str:
    return entry["ball"] if isinstance(entry, dict) else entry


LAYOUT_TRIES = 40
"""Draws of a ball's place before one clear of the balls already placed is given up (kept anyway)."""
D_CENTRE = (WIDTH / 2.0, 737.0)
D_RADIUS_MM = 292.0


def _stroke_layouts(
    c: Chooser, reds: int, colours: Sequence[str], in_hand: bool, line: Line
) -> dict[str, Any]:
    """A stroke's ``positions``: the balls on the table before it (the cue ball in hand or on the
    table) and those its line leaves after it, drawn in that order."""
    return {
        "before": _layout(c, reds, colours, "in_hand" if in_hand else "on_table"),
        "after": _layout(c, *_left_after(reds, colours, line)),
    }


def _layout(c: Chooser, reds: int, colours: Sequence[str], cue: str) -> dict[str, list[float]]:
    """Places (mm, whole tenths as a tracker rounds them) for ``reds`` reds (``red-1`` …), the
    ``colours`` and, unless ``cue`` is ``potted`` or ``off_table``, the cue ball: ``in_hand`` puts it
    in the D (one time in eight a little outside it). A third of the time the cue ball lies a little
    beyond an object ball from another (a snooker, or near one), one time in eight against it
    (touching, 3.8), now and then against a second ball as near; balls are kept clear of each
    other by more than the touching distance."""
    places: dict[str, list[float]] = {}

    def clear(p: tuple[float, float], but: str | None = None) -> bool:
        return all(math.dist(p, q) > DIAMETER + TOUCH_MM + 2.0 for b, q in places.items() if b != but)

    def anywhere() -> tuple[float, float]:
        for _ in range(LAYOUT_TRIES):
            p = (c.integer(300, int(WIDTH * 10) - 300) / 10.0, c.integer(300, int(LENGTH * 10) - 300) / 10.0)
            if clear(p):
                break
        return p

    for ball in [f"red-{i}" for i in range(1, reds + 1)] + list(colours):
        places[ball] = list(anywhere())
    if cue in ("potted", "off_table"):
        return places
    white: tuple[float, float] | None = None
    if cue == "in_hand":
        for _ in range(LAYOUT_TRIES):
            angle = math.radians(c.integer(181, 359))
            reach = c.integer(0, 280) if c.integer(0, 7) else c.integer(300, 330)
            p = (
                round(D_CENTRE[0] + reach * math.cos(angle), 1),
                round(D_CENTRE[1] + reach * math.sin(angle), 1),
            )
            if clear(p):
                white = p
                break
    elif len(places) >= 2 and c.integer(0, 2) == 0:
        beside, beyond = _two(c, list(places))
        near, far = places[beside], places[beyond]
        length = math.dist(near, far) or 1.0
        ux, uy = (near[0] - far[0]) / length, (near[1] - far[1]) / length
        touching = c.integer(0, 7) == 0
        gap = 0.3 if touching else float(c.integer(8, 120))
        p = (round(near[0] + ux * (DIAMETER + gap), 1), round(near[1] + uy * (DIAMETER + gap), 1))
        inside = RADIUS + 1 < p[0] < WIDTH - RADIUS - 1 and RADIUS + 1 < p[1] < LENGTH - RADIUS - 1
        if inside and clear(p, but=beside if touching else None):
            white = p
            if touching and len(places) >= 3 and c.boolean():
                _second_touching(c, places, white, beside, beyond)
    if "white" not in places:
        places["white"] = list(white if white is not None else anywhere())
    return places


QUARTER_MM = 0.25
"""A grid binary fractions hold exactly: differences of places on it are exact, so two balls placed
as near the cue ball are equally near to the last bit."""


def _quarter(v: float) -> float:
    return round(v / QUARTER_MM) * QUARTER_MM


def _second_touching(
    c: Chooser, places: dict[str, list[float]], white: tuple[float, float], beside: str, beyond: str
) -> None:
    """Move ``beside`` and one more ball so that both touch the cue ball (at ``white``), equally near
    (3.8: the referee names both), on a grid where the two distances are equal exactly."""
    wx, wy = _quarter(white[0]), _quarter(white[1])
    bx, by = places[beside]
    length = math.dist((bx, by), white) or 1.0
    vx, vy = (
        _quarter((bx - white[0]) / length * (DIAMETER + 0.3)),
        _quarter((by - white[1]) / length * (DIAMETER + 0.3)),
    )
    if not DIAMETER + 0.05 < math.hypot(vx, vy) < DIAMETER + TOUCH_MM - 0.1:
        return
    other = c.choice([b for b in places if b not in (beside, beyond)])
    first, second = [wx + vx, wy + vy], [wx - vy, wy + vx]
    inside = all(
        RADIUS + 1 < q[0] < WIDTH - RADIUS - 1 and RADIUS + 1 < q[1] < LENGTH - RADIUS - 1
        for q in (first, second)
    )
    clear = all(
        math.dist(q, r) > DIAMETER + TOUCH_MM + 2.0
        for q in (first, second)
        for b, r in places.items()
        if b not in (other, beside)
    )
    if inside and clear:
        places[beside], places[other] = first, second
        white_at = (wx, wy)
        places["white"] = list(white_at)


def _two(c: Chooser, balls: list[str]) -> tuple[str, str]:
    first = c.choice(balls)
    return first, c.choice([b for b in balls if b != first])


def _would_respot(scorer: ReferenceScorer, line: Line) -> bool:
    gone = [b for b in line.get("potted", []) + line.get("off_table", []) if b in COLOURS]
    return bool(gone)


def _stroke(c: Chooser, scorer: ReferenceScorer) -> Line:
    f = scorer.f
    on = _on_balls(scorer)
    table = _table_balls(scorer)
    not_on = [b for b in table if b not in on]
    line: Line = {"type": "stroke", "first_contact": [], "potted": [], "cue_ball": "on_table"}
    if f.nominated:
        # Declared before the stroke: play it (or, now and then, something else).
        target = f.nominated if c.integer(0, 3) else c.choice(table)
        line["first_contact"] = [target]
        line["potted"] = c.choice([[], [target], [target]])
        return _fix_counts(line, f.reds)
    if f.free_ball and f.ball_on != "colour" and not_on and c.boolean():
        fb = c.choice(not_on)
        line["nominated"] = fb
        shape = c.integer(0, 5)
        line["first_contact"] = [fb] if shape else [fb, on[0]]
        pots = c.choice([[], [fb], [fb], [on[0]], [fb, on[0]]])
        if on[0] == "red" and "red" in pots and f.reds >= 2 and c.boolean():
            pots = [*pots, "red"]
        if on[0] == "red" and pots.count("red") > f.reds:
            pots = [b for b in pots if b != "red"]
        line["potted"] = pots
        if c.integer(0, 5) == 0:
            line["cue_ball"] = "potted"
        if set(table) != {"pink", "black"} and c.integer(0, 5) == 0:
            line["fouls"] = ["free_ball_snooker"]  # 3.10(b): snookering with the free ball
        return line
    kind = c.choice(
        [
            "pot",
            "pot",
            "pot",
            "pot",
            "safe",
            "wrong_first",
            "miss_all",
            "in_off",
            "pot_wrong",
            "two",
            "extra",
            "off",
            "nominate_colour",
            "messy",
            "messy",
        ]
    )
    target = c.choice(on)
    if kind in ("pot", "extra", "nominate_colour"):
        count = c.integer(1, min(3, f.reds)) if target == "red" else 1
        line["first_contact"] = [target]
        line["potted"] = [target] * count if c.integer(0, 4) else []
        if f.ball_on == "colour" and (kind == "nominate_colour" or c.boolean()):
            # Now and then a nomination the stroke does not follow (3.3(f): a foul).
            line["nominated"] = target if c.integer(0, 4) else c.choice(f.colours)
        if kind == "extra":
            code = c.choice(
                EXTRA_FOULS
                + (("reds_in_successive_strokes", "foul_before_nomination") if f.ball_on == "colour" else ())
            )
            if code == "foul_before_nomination":
                line.pop("nominated", None)
                line["first_contact"] = c.choice([[], ["red"]] if f.reds else [[]])
                line["potted"] = []
            if code in WITH_BALL and c.boolean():
                line["fouls"] = [{"reason": code, "ball": c.choice(table)}]
            elif code == "used_ball_off_table":
                ball = c.choice(["red", *COLOURS])
                line["fouls"] = [{"reason": code, "ball": ball} if ball in _off_table_balls(scorer) else code]
            else:
                line["fouls"] = [code]
    elif kind == "safe":
        line["first_contact"] = [target]
    elif kind == "wrong_first" and not_on:
        line["first_contact"] = [c.choice(not_on)]
        if c.boolean():
            line["potted"] = [c.choice(table)]
    elif kind == "in_off":
        line["first_contact"] = [target]
        line["cue_ball"] = c.choice(["potted", "off_table"])
        if c.boolean():
            line["potted"] = [target]
    elif kind == "pot_wrong" and not_on:
        line["first_contact"] = [target]
        line["potted"] = [c.choice(not_on)] + ([target] if c.boolean() else [])
    elif kind == "two" and len(table) >= 2:
        a = c.choice(table)
        b = c.choice([x for x in table if x != a] + (["red"] if a == "red" and f.reds >= 2 else []))
        line["first_contact"] = [a, b]
        if c.boolean():
            line["potted"] = [a]
    elif kind == "messy":
        # Anything a stroke can show: up to two balls hit at once, a handful potted or forced off,
        # the cue ball anywhere, a declared colour or free ball now and then.
        line["first_contact"] = [c.choice(table) for _ in range(c.integer(0, 2))]
        line["potted"] = [c.choice(table) for _ in range(c.integer(0, 3))]
        line["off_table"] = [c.choice(table) for _ in range(c.integer(0, 1))]
        line["cue_ball"] = c.choice(["on_table", "on_table", "potted", "off_table"])
        if (f.ball_on == "colour" or (f.free_ball and f.ball_on != "colour")) and c.boolean():
            line["nominated"] = c.choice(f.colours if f.ball_on == "colour" else not_on or table)
        if len(line["first_contact"]) == 2 and line["first_contact"][0] == line["first_contact"][1] != "red":
            line["first_contact"].pop()
    elif kind == "off":
        line["first_contact"] = [target]
        line["off_table"] = [c.choice(table)]
    return _fix_counts(line, f.reds)


def _fix_counts(line: Line, reds: int) -> Line:
    """No more reds potted or forced off than the table holds; no colour twice."""
    seen: set[str] = set()
    budget = reds
    for key in ("potted", "off_table"):
        kept = []
        for ball in line.get(key, []):
            if ball == "red":
                if budget <= 0:
                    continue
                budget -= 1
            elif ball in seen:
                continue
            seen.add(ball)
            kept.append(ball)
        if key in line:
            line[key] = kept
    return line


def _places(c: Chooser, scorer: ReferenceScorer, line: Line) -> dict[str, list[float]]:
    """The balls' places after the stroke: some standing on (or close to) spots, some on the line
    above a spot, the rest anywhere clear of a spot's edge (no distance that a millimetre's noise
    turns from occupied to free)."""
    f = scorer.f
    gone = [b for b in line.get("potted", []) + line.get("off_table", []) if b != "red"]
    reds_left = f.reds - line.get("potted", []).count("red") - line.get("off_table", []).count("red")
    movers = [b for b in f.colours if b not in gone] + [f"red-{i}" for i in range(1, reds_left + 1)]
    if line.get("cue_ball", "on_table") == "on_table":
        movers.append("white")
    places: dict[str, list[float]] = {}
    if reds_left >= 12 and c.integer(0, 2) == 0:
        return _crowded(c, movers)
    for ball in movers:
        mode = c.integer(0, 5)
        if ball in COLOURS and mode <= 2:
            places[ball] = list(SPOTS[ball])
            continue
        if mode <= 3:
            spot = SPOTS[c.choice(COLOURS)]
            places[ball] = [spot[0] + c.integer(-15, 15), spot[1] + c.integer(-15, 15)]
        elif mode == 4:
            spot = SPOTS[c.choice(COLOURS)]
            places[ball] = [spot[0] + c.integer(-10, 10), spot[1] + c.integer(40, 400)]
        else:
            places[ball] = [float(c.integer(40, int(WIDTH) - 40)), float(c.integer(40, int(LENGTH) - 40))]
    stale = [b for b in COLOURS if b not in f.colours] + gone
    if line.get("cue_ball", "on_table") != "on_table":
        stale.append("white")
    for ball in stale:
        # A tracker's stale place of a ball off the table: it takes no spot (FRAME_LOG.md).
        if c.integer(0, 2) == 0:
            spot = SPOTS[c.choice(COLOURS)]
            places[ball] = [spot[0], spot[1]]
    for ball, (x, y) in list(places.items()):
        x = min(max(x, RADIUS + 1), WIDTH - RADIUS - 1)
        y = min(max(y, RADIUS + 1), LENGTH - RADIUS - 1)
        near = min(math.dist((x, y), s) for s in SPOTS.values())
        if DIAMETER - 3 < near < DIAMETER + TOUCH_MM + 4:
            y -= 8.0 if y > 60 else -8.0
        places[ball] = [float(x), float(y)]
    return places


def _crowded(c: Chooser, movers: list[str]) -> dict[str, list[float]]:
    """Every spot taken (3.7(f)/(g)): the colours on their own spots, reds on the others, and reds in
    a row up the centre line from the pink or the black spot, now and then to the top cushion."""
    reds = [b for b in movers if b.startswith("red")]
    places: dict[str, list[float]] = {}
    for colour in COLOURS:
        holder = colour if colour in movers else (reds.pop() if reds else None)
        if holder is not None:
            places[holder] = list(SPOTS[colour])
    for start in ("pink", "black"):
        x, y = SPOTS[start]
        step = DIAMETER + TOUCH_MM + c.choice([0.5, 0.5, 30.0, 60.0])
        for k in range(1, c.integer(1, 6) + 1):
            if not reds or y + k * step > LENGTH - RADIUS:
                break
            places[reds.pop()] = [x, y + k * step]
    for ball in reds + [b for b in movers if not b.startswith("red") and b not in places]:
        places[ball] = [float(c.choice([120, 300, 1480, 1650])), float(c.integer(400, 3200))]
    return places


# ---- the comparison -------------------------------------------------------------------------

COMPARED = (
    "score",
    "striker",
    "ball_on",
    "reds",
    "colours",
    "break",
    "points",
    "foul",
    "penalty",
    "free_ball",
    "options",
    "in_hand",
    "frame_over",
    "winner",
    "frames",
    "match_over",
    "status",
)


def expected_fields(result: Result) -> dict[str, Any]:
    fields = {
        "score": result.score,
        "striker": result.striker,
        "ball_on": result.ball_on,
        "reds": result.reds,
        "colours": result.colours,
        "break": result.brk,
        "points": result.points,
        "foul": result.foul,
        "penalty": result.penalty,
        "free_ball": result.free_ball,
        "options": result.options,
        "in_hand": result.in_hand,
        "frame_over": result.frame_over,
        "winner": result.winner,
        "miss": result.miss,
        "warning": result.warning,
        "frames": result.frames,
        "match_over": result.match_over,
        "match_winner": result.match_winner,
        "status": result.status,
    }
    if result.points_remaining is not None:
        fields["points_remaining"] = result.points_remaining
    if result.snookers_required is not None:
        fields["snookers_required"] = result.snookers_required
    return fields


def _same_respotted(ours: list[Any], theirs: list[Any]) -> bool:
    def key(entry: Any) -> str:
        return entry["ball"] if isinstance(entry, dict) else entry

    if sorted(map(key, ours)) != sorted(map(key, theirs)):
        return False
    mine = {key(e): e.get("position") for e in ours if isinstance(e, dict)}
    for entry in theirs:
        if isinstance(entry, dict) and key(entry) in mine:
            if math.dist(mine[key(entry)], entry["position"]) > 1.0:
                return False
        elif key(entry) in mine:
            return False
    return True


def disagreements(lines: list[Line]) -> list[str]:
    """The first line where the referee and the scorer differ (described), or ``[]``: the ruling's
    fields and the scoreboard's highest breaks of the frame."""
    scorer = ReferenceScorer()
    referee = Referee()
    for number, line in enumerate(lines, start=1):
        ruling = referee.apply(line)
        result = scorer.apply(line)
        if result is None:
            return []
        if "error" in ruling:
            return [f"line {number} {line}: refused by the referee: {ruling['error']}"]
        want = expected_fields(result)
        wrong = {k: (v, ruling.get(k)) for k, v in want.items() if ruling.get(k) != v}
        counted = (ruling.get("fouls") or [None])[0]
        if result.foul and counted not in result.fouls:
            wrong["fouls"] = (result.fouls, ruling.get("fouls"))
        if not _same_respotted(result.respotted, ruling.get("respotted", [])):
            wrong["respotted"] = (result.respotted, ruling.get("respotted"))
        board = referee.scoreboard()
        for key, ours in (
            ("highest_break", result.highest_break),
            ("match_highest_break", result.match_highest_break),
        ):
            if "error" not in ruling and board[key] != ours:
                wrong[key] = (ours, board[key])
        if wrong:
            return [f"line {number} {line}: (scorer, referee) {wrong}"]
    return []
