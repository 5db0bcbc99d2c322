"""The referee console's commands: the decisions only a person makes, turned into frame-log lines.

A command is a JSON object ``{"command": NAME, ...}``. Each becomes one action on the
:class:`snooker.record.session.MatchSession`: a frame-log line (CONTRACTS.md §1) applied and
recorded, an undo of the last line, or an amendment replacing it. A command that is malformed or
unknown raises :class:`CommandError` with a message naming what is wrong; the referee never sees it.

Commands:

- ``decision`` ``choice``: ``play`` | ``play_again`` | ``replace`` (after a foul / foul and a miss)
- ``nominate`` ``ball``: a colour (before the stroke)
- ``concede`` [``player``] [``match``]: the player to play (or ``player``) concedes the frame; with
  ``match`` true, the whole match (the frame in play and the frames the opponent still needs go to the
  opponent, 1(F)-(G)), also between frames
- ``condone``: the foul the referee called in the last stroke was neither called by the human referee
  nor claimed before the next stroke, and play went on (3.11(c)): that stroke is amended with
  ``condoned`` and ruled as if it broke no rule — refused unless the last line is a stroke, and by the
  referee if that stroke broke no rule. It must come before the next stroke is logged.
- ``foul`` ``reason`` [``ball``] [``player``] [``in_last_stroke``]: a foul the camera cannot see
  (``touched_ball``, ``push_stroke`` …): a ``foul`` line of its own, by the player to play or
  ``player`` (penalised as if striker); or, with ``in_last_stroke`` true, one committed in the
  stroke the camera logged last (a push stroke, a double hit …), added to that stroke's ``fouls``
  (the stroke is then the foul, 3.11: nothing it potted scores) — refused unless the last line is a
  stroke. Only the referee knows which stroke he means: a foul called while the balls still run
  must wait for the camera's line.
- ``respotted_black`` ``first``: 0 | 1, the lot for a re-spotted black
- ``new_frame``
- ``line`` ``line``: any frame-log line as typed by a scorer (the match line, a stroke)
- ``undo``: retract the last applied line
- ``amend`` ``line``: replace the last applied line with this one
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from snooker.balls import COLOURS
from snooker.record.session import MatchSession
from snooker.referee import FoulReason

DECISION_CHOICES = ("play", "play_again", "replace")
FOUL_REASONS = tuple(reason.code for reason in FoulReason)
COMMANDS = (
    "decision",
    "nominate",
    "concede",
    "condone",
    "foul",
    "respotted_black",
    "new_frame",
    "line",
    "undo",
    "amend",
)


class CommandError(ValueError):
    """A console command that cannot be turned into an action; the message says why."""


@dataclass(frozen=True)
class Action:
    """What a command does: apply ``line``, undo the last line, amend it with ``line``, or join
    ``line`` (a foul entry) to the last stroke's ``fouls``."""

    kind: Literal["apply", "undo", "amend", "join", "condone"]
    line: dict[str, Any] | None = None


def _field(command: dict[str, Any], name: str, allowed: tuple[Any, ...] | None = None) -> Any:
    if name not in command:
        raise CommandError(f"command {command.get('command')!r} needs a {name!r} field")
    value = command[name]
    if allowed is not None and value not in allowed:
        expected = ", ".join(str(a) for a in allowed)
        raise CommandError(f"{name} {value!r} is not one of: {expected}")
    return value


def _with_player(command: dict[str, Any], line: dict[str, Any]) -> dict[str, Any]:
    """``line`` with the command's ``player`` (a player index), when it names one."""
    if "player" not in command:
        return line
    player = command["player"]
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        raise CommandError(f"player must be a player's index (0, 1, ...), got {player!r}")
    return {**line, "player": player}


def _line_field(command: dict[str, Any]) -> dict[str, Any]:
    line = _field(command, "line")
    if not isinstance(line, dict) or not isinstance(line.get("type"), str):
        raise CommandError("'line' must be a frame-log line: a JSON object with a 'type'")
    return line


def to_action(command: Any) -> Action:
    """The action a console command asks for; :class:`CommandError` if it is malformed or unknown."""
    if not isinstance(command, dict):
        raise CommandError(f"a command is a JSON object, got {type(command).__name__}")
    name = command.get("command")
    if name not in COMMANDS:
        raise CommandError(f"unknown command {name!r}; expected one of: {', '.join(COMMANDS)}")
    if name == "decision":
        return Action("apply", {"type": "decision", "choice": _field(command, "choice", DECISION_CHOICES)})
    if name == "nominate":
        return Action("apply", {"type": "nominate", "ball": _field(command, "ball", COLOURS)})
    if name == "concede":
        conceded = _with_player(command, {"type": "concede"})
        whole = command.get("match", False)
        if not isinstance(whole, bool):
            raise CommandError(f"match must be true or false, got {whole!r}")
        return Action("apply", {**conceded, "match": True} if whole else conceded)
    if name == "condone":
        return Action("condone")
    if name == "foul":
        line: dict[str, Any] = {"type": "foul", "reason": _field(command, "reason", FOUL_REASONS)}
        if command.get("ball"):
            line["ball"] = _field(command, "ball", ("red", *COLOURS, "white"))
        in_stroke = command.get("in_last_stroke", False)
        if not isinstance(in_stroke, bool):
            raise CommandError(f"in_last_stroke must be true or false, got {in_stroke!r}")
        if not in_stroke:
            return Action("apply", _with_player(command, line))
        if "player" in command:
            raise CommandError("a foul in the last stroke is its striker's: leave out 'player'")
        return Action("join", {key: value for key, value in line.items() if key != "type"})
    if name == "respotted_black":
        return Action("apply", {"type": "respotted_black", "first": _field(command, "first", (0, 1))})
    if name == "new_frame":
        return Action("apply", {"type": "new_frame"})
    if name == "line":
        return Action("apply", _line_field(command))
    if name == "undo":
        return Action("undo")
    return Action("amend", _line_field(command))


def execute(session: MatchSession, command: Any, origin: str = "console") -> dict[str, Any]:
    """Carry out a console command; the result and the scoreboard after it.

    A refusal is ``{"error": ..., "rejected_by": "console" | "referee"}``: ``console`` for a malformed
    or unknown command (the referee never saw it), ``referee`` for a line the referee would not apply.
    """
    try:
        action = to_action(command)
    except CommandError as exc:
        return {"error": str(exc), "rejected_by": "console", "scoreboard": session.scoreboard()}
    if action.kind == "undo":
        result = session.undo_last(origin)
    elif action.kind == "amend":
        assert action.line is not None
        result = session.amend(action.line, origin)
    elif action.kind == "condone":
        condoned = session.condone_last_stroke(origin)
        if condoned is None:
            message = "condone: the last line is not a stroke (condone the stroke whose foul was not called)"
            return {"error": message, "rejected_by": "console", "scoreboard": session.scoreboard()}
        result = condoned
    elif action.kind == "join":
        assert action.line is not None
        joined = session.add_to_last_stroke([action.line], origin)
        if joined is None:
            message = (
                "in_last_stroke: the last line is not a stroke (call it once the camera logs the stroke)"
            )
            return {"error": message, "rejected_by": "console", "scoreboard": session.scoreboard()}
        result = joined
    else:
        assert action.line is not None
        result = session.apply(action.line, origin)
    if "error" in result:
        return {"error": result["error"], "rejected_by": "referee", "scoreboard": session.scoreboard()}
    return {"ok": True, "result": result, "scoreboard": session.scoreboard()}
