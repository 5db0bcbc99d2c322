"""Random frame logs with the rarer lines (the thirty-second audit), for the metamorphic relations.

differential_logs.py's generator (whose draws stay as they are: the seeded tests keep their logs)
drives itself from the second scorer, which models neither four-handed play nor the lines below; this
one drives itself from the referee's own state (the relations compare the referee with itself) and
draws, besides everything that generator's strokes, nominations and decisions show:

- four-handed matches (3.17), the sides listed alternately or in pairs, with an order of play stated
  now and then (``new_frame`` ``order``), strokes and ``foul`` lines by a player out of turn (3.12(a),
  3.11(a)), a partner's ``conferring`` (3.17(e));
- matches on aggregate points (a frame may be drawn; 3.1(g), 3.4(c)), best of one to four frames;
- ``spot_error`` lines (3.7: a colour wrongly spotted or not spotted, then strokes played with the
  balls so; corrected now and then), at a stated place or not;
- ``ball_moved`` lines (3.15: a ball moved by someone else, replaced, at a stated place or not);
- ``concede`` of the frame and of the match (3.1(f)-(g)), by the player to play or named;
- ``rerack`` (3.16);
- condoned strokes (3.11(c): a foul stroke neither called nor claimed);
- strokes partly unwatched (``unwatched_s``, the contact not seen now and then) or struck unseen
  (``strike_unseen``);
- frames joined near their end (``table``), the scores stated or not (then not known, nor the
  totals of a match on aggregate points).

Every line is drawn to be one the rules make sensible in the state the referee is in (a refused line
is kept: the relations then check that the transformed line is refused too)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from differential_logs import COLOURS, Chooser, Line, _join, _layout, _stroke, _stroke_layouts

from snooker.referee import Referee

RARE_EVERY = 6
"""About one line in this many (drawn 0..RARE_EVERY-1 and hitting 0) is one of the rarer lines."""
RARE_KINDS = (
    "spot_error",
    "spot_error",
    "ball_moved",
    "ball_moved",
    "foul_out_of_turn",
    "foul_out_of_turn",
    "condoned",
    "condoned",
    "unwatched",
    "unwatched",
    "concede",
    "rerack",
    "concede_match",
)


@dataclass
class _View:
    """What differential_logs' stroke drawer reads from its scorer (``scorer.f``), taken from the
    referee's state."""

    ball_on: str
    reds: int
    colours: list[str]
    nominated: str | None
    free_ball: bool
    in_hand: bool
    striker: int
    decision: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Steer:
    f: _View
    reds_total: int
    """The reds the match racks (``MatchState.reds``), as the scorer's ``reds_total``."""


def _view(judge: Referee) -> _View | None:
    """The referee's state as the stroke drawer reads it, or None when no frame is in play."""
    state = judge.state
    if state is None or state.over or state.frame.over:
        return None
    frame = state.frame
    table = frame.table
    if frame.on_undecided:
        on = "either"
    elif frame.phase.value == "red":
        on = "red"
    elif frame.phase.value == "colour":
        on = "colour"
    else:
        on = table.lowest_colour or "black"
    colours = [c for c in table.colours if c not in table.not_spotted]
    return _View(
        ball_on=on,
        reds=table.reds,
        colours=colours or list(table.colours),
        nominated=frame.nominated,
        free_ball=frame.free_ball,
        in_hand=table.cue_in_hand,
        striker=frame.striker,
        decision=frame.pending is not None,
    )


def _match_line(c: Chooser) -> Line:
    four = c.integer(0, 2) == 0
    players = ["Pa", "Qb", "Rc", "Sd"] if four else ["Pa", "Qb"]
    line: Line = {
        "type": "match",
        "schema": "snooker.log/1",
        "players": players,
        "best_of": c.integer(1, 4),
        "breaker": c.integer(0, len(players) - 1),
        "reds": c.choice([6, 10, 15]),
    }
    if c.boolean():
        line["aggregate"] = True
    if four and c.boolean():
        line["sides"] = c.choice([[0, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1]])
    return line


def _sides(match: Line) -> list[int]:
    n = len(match["players"])
    return list(match.get("sides") or [i % 2 for i in range(n)])


def _order(c: Chooser, breaker: int, match: Line) -> list[int]:
    """A stated order of play for the next frame, whose breaker (by the match's default order) is
    ``breaker`` (3.17(a)): the breaking side's players in either order against the other side's, the
    sides alternating; for two players the default one."""
    sides = _sides(match)
    n = len(sides)
    if n == 2:
        return [breaker, 1 - breaker]
    lead = [p for p in range(n) if sides[p] == sides[breaker]]
    other = [p for p in range(n) if sides[p] != sides[breaker]]
    if c.boolean():
        lead.reverse()
    if c.boolean():
        other.reverse()
    return [lead[0], other[0], lead[1], other[1]]


def _spot_error(c: Chooser, judge: Referee, layouts: bool) -> Line | None:
    table = judge.state.frame.table
    gone = [x for x in COLOURS if x not in table.colours and x not in table.wrongly_spotted]
    standing = [x for x in table.colours if x not in table.not_spotted]
    options: list[Line] = []
    if gone:
        options.append({"type": "spot_error", "ball": c.choice(gone), "error": "wrongly_spotted"})
    for _ in range(2 if table.wrongly_spotted else 0):  # found and put right, more often than made
        options.append(
            {
                "type": "spot_error",
                "ball": c.choice(table.wrongly_spotted),
                "error": "wrongly_spotted",
                "corrected": True,
            }
        )
    if standing and (table.reds or len(standing) > 1):
        # A colour to be re-spotted left off: while reds remain any, else one above the lowest.
        pool = standing if table.reds else standing[1:]
        options.append({"type": "spot_error", "ball": c.choice(pool), "error": "not_spotted"})
    if table.not_spotted:
        options.append(
            {
                "type": "spot_error",
                "ball": c.choice(table.not_spotted),
                "error": "not_spotted",
                "corrected": True,
            }
        )
    if not options:
        return None
    line = c.choice(options)
    if line["error"] == "wrongly_spotted" and not line.get("corrected") and (layouts or c.integer(0, 3) == 0):
        line["position"] = [float(c.integer(200, 1578)), float(c.integer(300, 3300))]
    return line


def _ball_moved(c: Chooser, judge: Referee, layouts: bool) -> Line | None:
    table = judge.state.frame.table
    balls = [x for x in table.colours if x not in table.not_spotted] + list(table.wrongly_spotted)
    if table.reds:
        balls += ["red", f"red-{c.integer(1, table.reds)}"] if layouts else ["red"]
    if not table.cue_in_hand:
        balls.append("white")
    if not balls:
        return None
    line: Line = {"type": "ball_moved", "ball": c.choice(balls)}
    if layouts and c.boolean():
        line["position"] = [float(c.integer(200, 1578)), float(c.integer(300, 3300))]
    return line


def _foul_out_of_turn(c: Chooser, judge: Referee, n: int, sides: list[int]) -> Line:
    """A foul outside a stroke (3.11(a)), by someone other than the player to play (penalised as if
    striker, the order of play unchanged) or, four-handed, the striker conferring with his partner
    (3.17(e))."""
    frame = judge.state.frame
    table = frame.table
    striker = frame.striker
    code = c.choice(["touched_ball", "touched_ball", "measured_gap", "conferring"])
    line: Line = {"type": "foul", "reason": code}
    if code == "conferring" and n == 4:
        partner = [p for p in range(n) if sides[p] == sides[striker] and p != striker]
        line["player"] = c.choice([*partner, striker])
        return line
    line["player"] = c.choice([p for p in range(n) if p != striker])
    if code == "conferring":
        line["reason"] = "touched_ball"
    if line["reason"] == "touched_ball":
        balls = [x for x in table.colours if x not in table.not_spotted] + (["red"] if table.reds else [])
        balls += [] if table.cue_in_hand else ["white"]
        line["ball"] = c.choice(balls or ["white"])
    return line


def table_errors(judge: Referee) -> bool:
    """A spotting error stands (3.7)."""
    table = judge.state.frame.table
    return bool(table.wrongly_spotted or table.not_spotted)


def _is_foul(judge: Referee, line: Line) -> dict[str, Any]:
    return copy.deepcopy(judge).apply(line)


def generate_rare(c: Chooser, max_lines: int = 90, layouts: bool = False) -> list[Line]:
    """One random match log with the rarer lines (module docstring). ``layouts``: every stroke gives
    the balls' places before and after it (differential_logs' ``_layout``), the referee judging the
    calls they answer."""
    match = _match_line(c)
    n = len(match["players"])
    lines: list[Line] = [match]
    judge = Referee()
    ruling = judge.apply(match)
    fresh = True
    for _ in range(c.integer(10, max_lines)):
        state = judge.state
        if state is None or state.over:
            break
        frame = state.frame
        view = _view(judge)
        line: Line | None = None
        if frame.over:
            line = {"type": "new_frame"}
            if c.integer(0, 2) == 0:
                line["order"] = _order(c, ruling["striker"], match)
            elif c.integer(0, 5) == 0:
                line = {"type": "concede", "match": True, "player": c.integer(0, n - 1)}
        elif fresh and c.boolean():
            line = _join(c)  # near the frame's end: colours potted for good, the last black
            line["striker"] = c.integer(0, n - 1)
            if c.integer(0, 3) == 0:
                del line["score"]  # the scores not known: counted from the join (and the totals)
            if layouts:
                line["positions"] = _layout(c, line["reds"], line["colours"], "on_table")
                line["cue_in_hand"] = False
        elif frame.awaiting_lot:
            line = {"type": "respotted_black", "first": c.integer(0, n - 1)}
        elif view is not None and view.decision and c.boolean():
            options = list(frame.pending.options)
            line = {"type": "decision", "choice": c.choice(options)}
        elif view is not None and (table_errors(judge) and c.integer(0, 5) == 0):
            line = _spot_error(c, judge, layouts)  # an error standing is found now and then
        elif view is not None and c.integer(0, RARE_EVERY - 1) == 0:
            line = _rare(c, judge, view, match, layouts)
        if line is None and view is not None:
            line = _ordinary(c, judge, view, n, layouts)
        if line is None:
            break
        fresh = line["type"] == "new_frame"
        lines.append(line)
        applied = judge.apply(line)
        if "error" not in applied:
            ruling = applied
    return lines


def _rare(c: Chooser, judge: Referee, view: _View, match: Line, layouts: bool) -> Line | None:
    n = len(match["players"])
    kind = c.choice(RARE_KINDS)
    if kind == "spot_error":
        return _spot_error(c, judge, layouts)
    if kind == "ball_moved":
        return _ball_moved(c, judge, layouts)
    if kind == "foul_out_of_turn":
        return _foul_out_of_turn(c, judge, n, _sides(match))
    if kind == "concede":
        line: Line = {"type": "concede"}
        if c.boolean():
            line["player"] = view.striker
        return line
    if kind == "concede_match":
        return {"type": "concede", "match": True, "player": c.choice([view.striker, c.integer(0, n - 1)])}
    if kind == "rerack":
        return {"type": "rerack"}
    stroke = _ordinary(c, judge, view, n, layouts, plain=True)
    if kind == "condoned":
        ruling = _is_foul(judge, stroke)
        if "error" not in ruling and ruling["foul"]:
            stroke.pop("miss", None)
            stroke.pop("free_ball", None)
            stroke["condoned"] = True
        return stroke
    stroke["unwatched_s"] = float(c.integer(1, 40)) / 10.0
    if c.boolean():
        stroke["first_contact"] = []
    if c.integer(0, 2) == 0:
        stroke["strike_unseen"] = True
    return stroke


def _ordinary(c: Chooser, judge: Referee, view: _View, n: int, layouts: bool, plain: bool = False) -> Line:
    """A stroke or a nomination as differential_logs draws them, played now and then by another
    player (out of turn, 3.12(a)) or, with a decision open, by the offender (asked to play again)."""
    frame = judge.state.frame
    if (
        not plain
        and (view.ball_on in ("colour", "either") or view.free_ball)
        and view.nominated is None
        and c.integer(0, 3) == 0
    ):
        pool = list(view.colours)
        if pool:
            return {"type": "nominate", "ball": c.choice(pool)}
    line = _stroke(c, _Steer(view, judge.state.reds))
    missing = frame.table.not_spotted
    for key in ("first_contact", "potted", "off_table"):
        # A colour left off the cloth (3.7(c)) is not there to be hit, potted or forced off.
        if key in line:
            line[key] = [b for b in line[key] if b not in missing]
    if view.decision and frame.pending is not None and c.integer(0, 5) == 0:
        line["player"] = frame.pending.offender
    elif c.integer(0, 11) == 0:
        line["player"] = c.choice([p for p in range(n) if p != view.striker])
    elif c.integer(0, 5) == 0:
        line["player"] = view.striker
    if layouts:
        line["positions"] = _stroke_layouts(c, view.reds, view.colours, view.in_hand, line)
    elif not plain and c.integer(0, 3) == 0:
        ruling = _is_foul(judge, line)
        if "error" not in ruling and ruling["foul"] and not ruling["frame_over"]:
            line["free_ball"] = c.integer(0, 3) == 0
    return line
