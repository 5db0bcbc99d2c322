"""A match in progress: the referee, its record, and whoever listens for changes.

Every frame-log line — from the tracker, the console, a scorer's pipe — goes through
:meth:`MatchSession.apply`, which rules on it, stores line and ruling in the record (committed before
anyone hears of it) and then tells the listeners (feed, overlay). A line that cannot be applied gets
``{"error": ...}`` and leaves the state unchanged; an exception inside the referee is caught, answered
as an error and the referee rebuilt from the log, so bad input never stops the match.

Corrections are event-sourced too: :meth:`undo_last` retracts the last applied line by rebuilding the
referee from the remaining lines; :meth:`amend` is an undo followed by the corrected line.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from snooker.record.store import MatchRecord, RecordError

LOG = logging.getLogger(__name__)


class RefereeLike(Protocol):
    """What the session needs of ``snooker.referee.Referee``."""

    def apply(self, line: dict[str, Any] | str) -> dict[str, Any]: ...
    def scoreboard(self) -> dict[str, Any]: ...


RefereeFactory = Callable[[], RefereeLike]


@dataclass(frozen=True)
class Change:
    """What listeners hear after every applied line or correction.

    ``scoreboard`` is the whole state after the change; ``ruling`` and ``line`` are the ruling and the
    frame-log line that caused it (None for an undo); ``seq`` is the record row (0 without a record).
    """

    scoreboard: dict[str, Any]
    ruling: dict[str, Any] | None
    line: dict[str, Any] | None
    seq: int
    kind: str = "line"


Listener = Callable[[Change], None]


@dataclass
class ResumeReport:
    """What ``resume`` found: rows replayed, and rows whose ruling today differs from the stored one."""

    lines_replayed: int = 0
    corrections: int = 0
    mismatches: list[int] = field(default_factory=list)


def default_referee_factory() -> RefereeLike:
    """A fresh ``snooker.referee.Referee`` (imported here so the record never needs it at import)."""
    from snooker.referee import Referee

    return Referee()


BYTE_ORDER_MARK = "\ufeff"
"""What some editors write before a file's first line (UTF-8's byte order mark): not part of it."""


def parse_line(line: dict[str, Any] | str) -> tuple[dict[str, Any] | None, str | None]:
    """A frame-log line as a dict, or an error naming what is wrong with it."""
    if isinstance(line, dict):
        return line, None
    try:
        parsed = json.loads(line.lstrip().removeprefix(BYTE_ORDER_MARK) if isinstance(line, str) else line)
    except (TypeError, ValueError) as exc:
        return None, f"malformed line (not JSON): {exc}"
    except RecursionError:
        return None, "malformed line: JSON nested too deeply to read"
    if not isinstance(parsed, dict):
        return None, f"malformed line: expected a JSON object, got {type(parsed).__name__}"
    return parsed, None


class MatchSession:
    """The referee of one table, with its record and listeners; thread-safe."""

    def __init__(self, record: MatchRecord | None = None, referee_factory: RefereeFactory | None = None):
        self.record = record
        self._factory = referee_factory or default_referee_factory
        self._referee = self._factory()
        self._applied: list[tuple[int, dict[str, Any]]] = []
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()
        self._next_memory_seq = 1

    def add_listener(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def scoreboard(self) -> dict[str, Any]:
        with self._lock:
            return self._referee.scoreboard()

    @property
    def applied_lines(self) -> list[dict[str, Any]]:
        """The lines the current state is the fold of (applied without error, not retracted)."""
        with self._lock:
            return [line for _seq, line in self._applied]

    def _rule(self, line: dict[str, Any]) -> dict[str, Any]:
        try:
            ruling = self._referee.apply(line)
        except Exception as exc:  # a referee bug must not stop the match: answer, then rebuild
            LOG.exception("referee raised on %s", line)
            self._rebuild()
            return {"error": f"referee failed on this line: {type(exc).__name__}: {exc}"}
        if not isinstance(ruling, dict):
            return {"error": f"referee returned {type(ruling).__name__}, not a ruling"}
        return ruling

    def _rebuild(self) -> None:
        self._referee = self._factory()
        for _seq, line in self._applied:
            self._referee.apply(line)

    def _store_line(self, line: dict[str, Any], ruling: dict[str, Any], origin: str) -> int:
        if self.record is not None:
            return self.record.append_line(line, ruling, origin)
        seq, self._next_memory_seq = self._next_memory_seq, self._next_memory_seq + 1
        return seq

    def refuse(self, text: str, problem: str, origin: str = "unknown") -> dict[str, Any]:
        """Record a line that cannot be read as a frame-log line (``problem`` says why) without ruling
        it, so that what arrived is kept; returns the refusal."""
        ruling: dict[str, Any] = {"error": problem}
        with self._lock:
            self._store_line({"unparsed": text}, ruling, origin)
        return ruling

    def apply(self, line: dict[str, Any] | str, origin: str = "unknown") -> dict[str, Any]:
        """Rule on one frame-log line, record it, tell the listeners; returns the ruling."""
        parsed, problem = parse_line(line)
        if parsed is None:
            text = line if isinstance(line, str) else repr(line)
            return self.refuse(text, problem or "malformed line", origin)
        with self._lock:
            ruling = self._rule(parsed)
            try:
                seq = self._store_line(parsed, ruling, origin)
            except (sqlite3.Error, RecordError) as exc:  # never let the referee run ahead of its record
                LOG.error("could not record %s: %s", parsed, exc)
                self._rebuild()
                return {"error": f"the line could not be recorded ({exc}); it was not applied"}
            if "error" in ruling:
                return ruling
            self._applied.append((seq, parsed))
            change = Change(self._referee.scoreboard(), ruling, parsed, seq)
            self._notify(change)
            return ruling

    def undo_last(self, origin: str = "console") -> dict[str, Any]:
        """Retract the last applied line; returns the scoreboard after it, or an error."""
        with self._lock:
            if not self._applied:
                return {"error": "nothing to undo: no line has been applied"}
            retracted_seq, _line = self._applied.pop()
            self._rebuild()
            scoreboard = self._referee.scoreboard()
            if self.record is not None:
                seq = self.record.append_undo(retracted_seq, scoreboard, origin)
            else:
                seq, self._next_memory_seq = self._next_memory_seq, self._next_memory_seq + 1
            self._notify(Change(scoreboard, None, None, seq, kind="undo"))
            return {"undone": retracted_seq, "scoreboard": scoreboard}

    def amend(self, line: dict[str, Any] | str, origin: str = "console") -> dict[str, Any]:
        """Replace the last applied line with ``line`` (an undo, then the line); the corrected ruling.

        If the corrected line is refused, the undo is reverted by re-applying the original line, so
        a bad amendment leaves the state as it was.
        """
        parsed, problem = parse_line(line)
        if parsed is None:
            return {"error": problem}
        with self._lock:
            if not self._applied:
                return {"error": "nothing to amend: no line has been applied"}
            original = self._applied[-1][1]
            self.undo_last(origin)
            ruling = self.apply(parsed, origin)
            if "error" in ruling:
                self.apply(original, origin)
            return ruling

    def add_to_last_stroke(self, fouls: list[Any], origin: str = "console") -> dict[str, Any] | None:
        """Amend the last applied line with ``fouls`` (entries of a stroke's ``fouls``) when it is a
        stroke: a foul committed in that stroke and called as it ended. Returns the corrected ruling,
        or None (nothing changed) when the last applied line is not a stroke."""
        with self._lock:
            if not self._applied or self._applied[-1][1].get("type") != "stroke":
                return None
            stroke = dict(self._applied[-1][1])
            stroke["fouls"] = [*stroke.get("fouls", []), *fouls]
            return self.amend(stroke, origin)

    def resume(self) -> ResumeReport:
        """Rebuild the referee from the record's effective log (after a crash or a restart)."""
        report = ResumeReport()
        if self.record is None:
            return report
        with self._lock:
            self._referee = self._factory()
            self._applied = []
            entries = list(self.record.entries())
            report.corrections = sum(1 for e in entries if e.kind == "undo")
            for entry in self.record.effective_lines():
                assert entry.line is not None
                ruling = self._rule(entry.line)
                report.lines_replayed += 1
                if entry.ruling is not None and _comparable(ruling) != _comparable(entry.ruling):
                    report.mismatches.append(entry.seq)
                if "error" not in ruling:
                    self._applied.append((entry.seq, entry.line))
            self._notify(Change(self._referee.scoreboard(), None, None, 0, kind="resume"))
        return report

    def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # an output failing must not stop the referee
                LOG.exception("listener %r failed", listener)


RUNNING_COUNTERS = ("line",)
"""Ruling fields that count lines the referee has seen (refused and retracted ones included), which a
replay of the effective log legitimately numbers differently; left out when comparing rulings."""


def _comparable(ruling: dict[str, Any]) -> str:
    """A ruling as stored (JSON round trip, so tuples equal lists), without running counters."""
    return json.dumps(
        {k: v for k, v in ruling.items() if k not in RUNNING_COUNTERS}, sort_keys=True, default=str
    )


def open_session(
    record_path: str | None,
    resume: bool,
    report: Callable[[str], None],
    referee_factory: RefereeFactory | None = None,
) -> MatchSession:
    """The session a command runs: in memory, a new record, or a resumed one.

    A record that already holds rows is only continued with ``resume`` (so a typo never appends a
    second match to the first); ``resume`` without a record to resume is an error. Raises
    :class:`snooker.record.store.RecordError` with the reason.
    """
    if record_path is None:
        if resume:
            raise RecordError("--resume needs --record FILE: the record to continue")
        return MatchSession(None, referee_factory)
    exists = Path(record_path).exists()
    if resume and not exists:
        raise RecordError(f"nothing to resume: match record {record_path} does not exist")
    record = MatchRecord(record_path).open()
    rows = len(record)
    if rows and not resume:
        record.close()
        raise RecordError(
            f"match record {record_path} already holds {rows} rows; pass --resume to continue that match "
            "or choose a new file"
        )
    session = MatchSession(record, referee_factory)
    if resume:
        found = session.resume()
        report(
            f"resumed {record_path}: {found.lines_replayed} lines replayed, {found.corrections} corrections"
            + (f"; rulings differ today on rows {found.mismatches}" if found.mismatches else "")
        )
    return session
