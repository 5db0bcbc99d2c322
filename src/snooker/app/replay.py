"""``snooker-referee replay LOG.jsonl``: rule a frame log and print the calls and scores.

Without ``--json`` it prints one readable line per log line (what happened, what the referee
said, the score); with ``--json`` one ruling (CONTRACTS.md §2) per input line. A bad line gets an
``{"error": ...}`` ruling and the following lines are still ruled; each such line is also named
on stderr (the log, its line number and the problem) and the exit status is then 1. A missing,
unreadable or empty file is a clear error on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from snooker.app.inputs import log_lines
from snooker.balls import COLOURS
from snooker.referee import Referee, RefereeConfig
from snooker.referee.log import BALL_ON_EITHER

EXIT_OK = 0
EXIT_LINES_REFUSED = 1
EXIT_BAD_INPUT = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, help="frame log (JSON Lines, CONTRACTS.md §1); '-' reads stdin")
    parser.add_argument("--json", action="store_true", help="print one ruling (JSON) per input line")
    parser.add_argument(
        "--miss-rule",
        choices=("wpbsa", "off"),
        default=None,
        help="default miss rule when the match line does not set one (default: wpbsa)",
    )


def run(args: argparse.Namespace) -> int:
    config = RefereeConfig(miss_rule=args.miss_rule) if args.miss_rule else RefereeConfig()
    if str(args.log) == "-":
        return _rule(sys.stdin.buffer, config, args.json, sys.stdout, "the frame log on stdin")
    path: Path = args.log
    if path.is_dir():
        print(f"snooker-referee replay: {path} is a folder, not a frame log", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not path.is_file():
        print(f"snooker-referee replay: no such frame log: {path}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with path.open("rb") as stream:
            return _rule(stream, config, args.json, sys.stdout, f"frame log {path}")
    except OSError as exc:
        print(f"snooker-referee replay: cannot read {path}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _rule(stream: Iterable[bytes], config: RefereeConfig, as_json: bool, out: TextIO, name: str) -> int:
    """Rule every line of ``stream`` (bytes) onto ``out``; the exit status (``name`` says which log
    in messages on stderr). A line that is not UTF-8 is refused alone."""
    referee = Referee(config)
    refused = 0
    try:
        for number, raw, problem in log_lines(stream):
            before = referee.state
            actor = None if before is None else before.players[before.frame.striker]
            ruling = referee.apply(raw) if problem is None else {"error": problem}
            result = {**ruling, "line": number}  # the file's line, blank lines counted
            if "error" in result:
                refused += 1
                print(
                    f"snooker-referee replay: {name} line {number}: {result['error']}",
                    file=sys.stderr,
                )
            if as_json:
                out.write(json.dumps(result) + "\n")
            else:
                out.write(describe(raw, result, referee, actor) + "\n")
        if not as_json and referee.state is not None:
            out.write(summary(referee.scoreboard()) + "\n")
    except BrokenPipeError:  # the reader (e.g. `head`) stopped listening: not an error
        return EXIT_OK
    if referee.lines == 0 and not refused:
        print(f"snooker-referee replay: {name} is empty: no lines to rule", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_LINES_REFUSED if refused else EXIT_OK


def _event_text(raw: str) -> str:
    try:
        line = json.loads(raw)
    except json.JSONDecodeError:
        return "?"
    if not isinstance(line, dict):
        return "?"
    kind = line.get("type")
    if kind == "stroke":
        parts = []
        contact = line.get("first_contact") or []
        parts.append("hits " + " & ".join(contact) if contact else "hits nothing")
        potted = [p["ball"] if isinstance(p, dict) else p for p in line.get("potted") or []]
        if potted:
            parts.append("pots " + ", ".join(potted))
        if line.get("off_table"):
            parts.append("off table: " + ", ".join(line["off_table"]))
        if line.get("cue_ball", "on_table") != "on_table":
            parts.append("cue ball " + line["cue_ball"].replace("_", " "))
        if line.get("nominated"):
            parts.append(f"nominated {line['nominated']}")
        return "; ".join(parts)
    if kind == "decision":
        return f"chooses {str(line.get('choice', '?')).replace('_', ' ')}"
    if kind == "nominate":
        return f"nominates {line.get('ball')}"
    if kind == "foul":
        return f"foul ({line.get('reason')})"
    if kind == "table":
        colours = line.get("colours")
        some = isinstance(colours, list) and 0 < len(colours) < len(COLOURS)
        lowest = f", from the {colours[0]}" if some else ""
        return f"joins the frame: {line.get('reds')} reds{lowest}"
    return str(kind)


def describe(raw: str, result: dict[str, Any], referee: Referee, actor: str | None = None) -> str:
    """One human line: the line number, who did what, what the referee called, the score."""
    number = result.get("line", "?")
    if "error" in result:
        return f"{number:>4}  ERROR: {result['error']}"
    state = referee.state
    if result["type"] == "match":
        names = " v ".join(state.players) if state else ""
        return f"{number:>4}  MATCH {names}, best of {state.best_of if state else '?'}"
    players = state.players if state else []
    calls = ", ".join(result["announcements"])
    score = f"{result['score'][0]}-{result['score'][1]}"
    who = f"{actor}: " if actor and result["type"] in ("stroke", "decision", "nominate", "foul") else ""
    event = who + _event_text(raw)
    text = f"{number:>4}  {event:<52} {score:>7}  frames {result['frames'][0]}-{result['frames'][1]}"
    if result["break"]:
        text += f"  break {result['break']}"
    if calls:
        text += f"  | {calls}"
    if result["warning_due"] and not result["warning"]:
        # 3.14(c): the miss that makes the warning due is not the warning: the offender is warned
        # when the balls are replaced (the call is then in ``calls``).
        text += "  | if the balls are replaced, the offender is warned: a third miss awards the frame"
    elif result["warning"]:
        text += "  | warning in force: a third miss awards the frame"
    if result["status"] == "respotted_black_lot":
        text += "  | lots decide who plays first"
    elif result["options"]:
        text += f"  | {players[result['striker']]} to choose: {', '.join(result['options'])}"
    elif not result["frame_over"]:
        on = result["ball_on"]
        if on == BALL_ON_EITHER:
            on = "red or colour (not known yet)" if result["reds"] else "a colour (not known yet)"
        text += f"  | {players[result['striker']]} on {on}"
    return text


def summary(board: dict[str, Any]) -> str:
    players = board["players"]
    line = f"Frames {board['frames'][0]}-{board['frames'][1]}; frame {board['frame']} {board['status']}"
    if board["match_over"] and board["match_winner"] is not None:
        winners = [p for i, p in enumerate(players) if board["sides"][i] == board["match_winner"]]
        line += f"; match to {' & '.join(winners)}"
    return line
