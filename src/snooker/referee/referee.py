"""The referee: a fold over the frame log, one ruling (CONTRACTS.md §2) per line.

Players are indices into the match line's ``players``; ``score``, ``frames``, ``winner`` and
``snookers_required`` are per side (in singles a side is one player; in four-handed snooker the
sides are given by ``sides``, by default players 0 & 2 against 1 & 3).

``Referee.apply(line)`` rules one line and returns the ruling dict; a line that cannot be applied
gets ``{"error": ...}`` and leaves the state as it was. ``replay(lines)`` rules a whole log. The
state is immutable: ``apply`` replaces ``self.state`` with a new value and never edits the old one,
so a state can be kept, compared or replayed from at will.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TypedDict

from snooker.referee.log import EVENT_TYPES, LogError, MatchLine, StrokeLine, parse_line, unusable_place
from snooker.referee.rules import Outcome, apply_event, default_match
from snooker.referee.state import MatchState, RefereeConfig

RULING_SCHEMA = "snooker.ruling/1"
SCOREBOARD_SCHEMA = "snooker.scoreboard/1"


class Referee:
    """Rules a frame log line by line. ``state`` is the immutable MatchState after the last line."""

    def __init__(self, config: RefereeConfig | None = None) -> None:
        self.config = config or RefereeConfig()
        self.state: MatchState | None = None
        self.lines = 0

    def apply(self, line: dict[str, Any] | str) -> dict[str, Any]:
        """Rule one frame-log line; returns its ruling, or ``{"error": ...}`` (state unchanged).

        A stroke whose positions the rule geometry cannot use (not finite, far off the table,
        impossible) is ruled without them, and its ruling says so in ``positions_ignored``: the
        stroke is not lost.
        """
        self.lines += 1
        note = None
        try:
            event = parse_line(line)
            state = self.state
            if state is not None and isinstance(event, MatchLine):
                raise LogError("match: the match has already begun; a match line comes first in the log")
            if state is None and not isinstance(event, MatchLine):
                state = default_match(self.config)
            if isinstance(event, StrokeLine) and event.positions is not None:
                note = unusable_place(event.positions.before, "positions.before") or unusable_place(
                    event.positions.after, "positions.after"
                )
                if note is not None:
                    event = replace(event, positions=None)
            try:
                new_state, outcome = apply_event(state, event, self.config)  # type: ignore[arg-type]
            except LogError:
                raise
            except ValueError as exc:
                if not isinstance(event, StrokeLine) or event.positions is None:
                    raise
                note = str(exc)
                event = replace(event, positions=None)
                new_state, outcome = apply_event(state, event, self.config)  # type: ignore[arg-type]
        except ValueError as exc:  # LogError included: the line cannot be applied
            return {"error": str(exc), "line": self.lines}
        ended = new_state.frame.over and not (
            state is not None and state.frame.over and state.frame.number == new_state.frame.number
        )
        self.state = new_state
        result = ruling(new_state, outcome, self.lines, EVENT_TYPES[type(event)], ended)
        if note is not None:
            return {**result, "positions_ignored": note}
        return dict(result)

    def scoreboard(self) -> dict[str, Any]:
        """The whole scoreboard for the feed (CONTRACTS.md §4 ``state`` body, less seq/epoch)."""
        state = self.state if self.state is not None else default_match(self.config)
        return scoreboard(state)


def replay(
    lines: Iterable[str | dict[str, Any]], config: RefereeConfig | None = None
) -> list[dict[str, Any]]:
    """Rule every line of a frame log; one ruling (or error) per line, in order."""
    referee = Referee(config)
    return [referee.apply(line) for line in lines]


def _respotted(outcome: Outcome) -> list[Any]:
    """Colours to re-spot: plain names, or ``{"ball", "position"}`` where positions are known."""
    out: list[Any] = []
    for ball, position in outcome.respotted:
        out.append(ball if position is None else {"ball": ball, "position": [position[0], position[1]]})
    return out


Ruling = TypedDict(
    "Ruling",
    {
        "schema": str,
        "line": int,
        "type": str,
        "frame": int,
        "score": list[int],
        "score_known": bool,
        "striker": int,
        "player": str,
        "ball_on": str,
        "nominated": str | None,
        "reds": int,
        "colours": list[str],
        "points_remaining": int,
        "break": int,
        "points": int,
        "scored": list[str],
        "foul": bool,
        "penalty": int,
        "fouls": list[str],
        "offender": int | None,
        "miss": bool,
        "free_ball": bool,
        "options": list[str],
        "warning": bool,
        "warning_due": bool,
        "respotted": list[Any],
        "in_hand": bool,
        "touching": list[str],
        "respotted_black": bool,
        "snookers_required": list[int],
        "status": str,
        "frame_over": bool,
        "winner": int | None,
        "frames": list[int],
        "match_over": bool,
        "match_winner": int | None,
        "announcements": list[str],
        "corrections": list[str],
        "condoned": list[str],
        "wrongly_spotted": list[str],
        "not_spotted": list[str],
        "match_conceded": dict[str, int] | None,
        "decision": str | None,
        "frame_ended": bool,
    },
)
"""One ruling (CONTRACTS.md §2, schema ``snooker.ruling/1``): the line's outcome and the state after.

About the line: ``points`` scored, ``scored`` balls, ``foul``, ``penalty``, ``fouls`` (reason
codes, the counted one first), ``offender``, ``miss``, ``respotted`` (colour names, or
``{"ball", "position": [x_mm, y_mm]}`` where positions are known), ``touching`` (balls named
by TOUCHING BALL), ``announcements``, ``decision`` (the choice after a foul this line made or was
taken as, or None), ``frame_ended`` (the frame ended on this line, not before it),
``corrections`` (codes of ``Correction``: a foul condoned, a spotting error, a match conceded),
``condoned`` (the foul codes of a condoned stroke). The state
after it: everything else (``warning``: the 3.14(c) warning given and in force; ``warning_due``:
one due if the balls are replaced after a second miss; ``wrongly_spotted`` and ``not_spotted``:
colours standing on, or missing from, the cloth by a spotting error, 3.7; ``match_conceded``: who
conceded the match, see :func:`match_conceded`); ``striker`` and ``offender`` are player indices,
``score``/``frames``/``winner``/``snookers_required`` per side.
"""


def ruling(
    state: MatchState, outcome: Outcome, line_number: int, line_type: str, frame_ended: bool = False
) -> Ruling:
    """The CONTRACTS.md §2 ruling for one line: what happened on it and the state after it.
    ``frame_ended``: the frame ended on this line (``frame_over`` was not already true before it)."""
    frame = state.frame
    pending = frame.pending
    return {
        "schema": RULING_SCHEMA,
        "line": line_number,
        "type": line_type,
        "frame": frame.number,
        "score": list(frame.scores),
        "score_known": not frame.scores_unknown,
        "striker": frame.striker,
        "player": state.players[frame.striker],
        "ball_on": frame.ball_on,
        "nominated": frame.nominated,
        "reds": frame.table.reds,
        "colours": list(frame.table.colours),
        "points_remaining": frame.points_remaining(),
        "break": frame.break_points,
        "points": outcome.points,
        "scored": list(outcome.scored),
        "foul": outcome.foul,
        "penalty": outcome.penalty,
        "fouls": list(outcome.fouls),
        "offender": outcome.offender,
        "miss": outcome.miss,
        "free_ball": frame.free_ball,
        "options": list(pending.options) if pending else [],
        "warning": frame.warning,
        "warning_due": frame.warning_due,
        "respotted": _respotted(outcome),
        "in_hand": frame.table.cue_in_hand,
        "touching": list(outcome.touching_called),
        "respotted_black": frame.respotted_black,
        "snookers_required": [frame.snookers_required(0), frame.snookers_required(1)],
        "status": _status(state),
        "frame_over": frame.over,
        "winner": frame.winner,
        "frames": list(state.frames),
        "match_over": state.over,
        "match_winner": state.winner,
        "announcements": list(outcome.announcements),
        "corrections": list(outcome.corrections),
        "condoned": list(outcome.condoned),
        "wrongly_spotted": list(frame.table.wrongly_spotted),
        "not_spotted": list(frame.table.not_spotted),
        "match_conceded": match_conceded(state),
        "decision": outcome.decision,
        "frame_ended": frame_ended,
    }


def match_conceded(state: MatchState) -> dict[str, int] | None:
    """``{"player", "side", "frames_awarded"}`` when the match was conceded (``concede`` with
    ``match``): who conceded, his side, and the frames awarded to the other side beyond the frame in
    play; None otherwise."""
    if state.conceded is None:
        return None
    player, side, awarded = state.conceded
    return {"player": player, "side": side, "frames_awarded": awarded}


def _status(state: MatchState) -> str:
    """``in_play``, ``decision`` (a foul's options are open), ``respotted_black_lot``, ``frame_over``
    or ``match_over``."""
    frame = state.frame
    if frame.over:
        return "match_over" if state.over else "frame_over"
    if frame.awaiting_lot:
        return "respotted_black_lot"
    if frame.pending is not None:
        return "decision"
    return "in_play"


def scoreboard(state: MatchState) -> dict[str, Any]:
    """Everything a scoreboard shows, as one JSON-ready dict."""
    frame = state.frame
    pending = frame.pending
    last = frame.last_foul
    return {
        "schema": SCOREBOARD_SCHEMA,
        "players": list(state.players),
        "sides": list(state.sides),
        "best_of": state.best_of,
        "aggregate": state.aggregate,
        "frame": frame.number,
        "frames": list(state.frames),
        "totals": list(state.totals),
        "score": list(frame.scores),
        "score_known": not frame.scores_unknown,
        "scores": list(frame.scores),
        "break": frame.break_points,
        "highest_break": list(frame.highest_break),
        "match_highest_break": list(state.highest_breaks()),
        "striker": frame.striker,
        "striker_name": state.players[frame.striker],
        "breaker": frame.breaker,
        "order": list(frame.order),
        "ball_on": frame.ball_on,
        "nominated": frame.nominated,
        "reds": frame.table.reds,
        "colours": list(frame.table.colours),
        "in_hand": frame.table.cue_in_hand,
        "points_remaining": frame.points_remaining(),
        "snookers_required": [frame.snookers_required(0), frame.snookers_required(1)],
        "last_foul": None
        if last is None
        else {
            "offender": last.offender,
            "penalty": last.penalty,
            "fouls": list(last.reasons),
            "miss": last.miss,
        },
        "options": list(pending.options) if pending else [],
        "free_ball": frame.free_ball,
        "warning": frame.warning,
        "warning_due": frame.warning_due,
        "miss_count": frame.miss_chain.count if frame.miss_chain else 0,
        "touching": list(frame.touching),
        "respotted_black": frame.respotted_black,
        "status": _status(state),
        "frame_over": frame.over,
        "winner": frame.winner,
        "match_over": state.over,
        "match_winner": state.winner,
        "match_conceded": match_conceded(state),
        "wrongly_spotted": list(frame.table.wrongly_spotted),
        "not_spotted": list(frame.table.not_spotted),
    }
