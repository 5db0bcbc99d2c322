"""A match in progress: the referee, its record, and whoever listens for changes.

Every frame-log line — from the tracker, the console, a scorer's pipe — goes through
:meth:`MatchSession.apply`, which rules on it, stores line and ruling in the record (committed before
anyone hears of it, whenever the record takes it at once) and then tells the listeners (feed,
overlay). A line that cannot be applied gets ``{"error": ...}`` and leaves the state unchanged; an
exception inside the referee is caught, answered as an error and the referee rebuilt from the log,
so bad input never stops the match.

Corrections are event-sourced too: :meth:`undo_last` retracts the last applied line by rebuilding the
referee from the remaining lines; :meth:`amend` is an undo followed by the corrected line.

A row the record cannot take (another program holds its lock, the disk is full, the file was deleted)
is not dropped, and the referee does not go back on it: the session numbers its rows as it rules them,
keeps those not yet written in order, says so, and retries on a thread of its own (the live frame
loop never waits more than one short try). :meth:`MatchSession.close` saves any still unwritten
beside the record (:func:`unwritten_path`), and ``--resume`` writes them into it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from snooker.record.store import Entry, EntryKind, MatchRecord, RecordError, utc_now

LOG = logging.getLogger(__name__)


class RefereeLike(Protocol):
    """What the session needs of ``snooker.referee.Referee``: ``lines`` counts the lines it has been
    given (a ruling's ``line`` is its number), which the session carries across a rebuild."""

    lines: int

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


@dataclass(frozen=True)
class SessionConfig:
    """How the session keeps rows its record cannot take yet.

    - ``retry_initial_s``: wait before the first retry of rows left unwritten (s).
    - ``retry_backoff_factor``: each failed retry multiplies the wait by this.
    - ``retry_max_s``: the wait never grows past this (s).
    - ``close_wait_s``: at close, how long rows still unwritten are retried before they are saved
      beside the record instead (s).
    """

    retry_initial_s: float = 0.25
    retry_backoff_factor: float = 2.0
    retry_max_s: float = 4.0
    close_wait_s: float = 10.0

    def __post_init__(self) -> None:
        if min(self.retry_initial_s, self.retry_max_s, self.close_wait_s) < 0:
            raise ValueError("retry and close waits must be >= 0 seconds")
        if self.retry_backoff_factor < 1:
            raise ValueError("retry_backoff_factor must be >= 1")


def unwritten_path(record_path: str | Path) -> Path:
    """Where rows a record could not take are saved at close (JSON Lines, one ``Entry`` each)."""
    path = Path(record_path)
    return path.with_name(path.name + ".unwritten.jsonl")


class MatchSession:
    """The referee of one table, with its record and listeners; thread-safe.

    ``report`` hears what a person running the table must know about the record (rows kept in
    memory because it cannot take them, and when they were written after all)."""

    def __init__(
        self,
        record: MatchRecord | None = None,
        referee_factory: RefereeFactory | None = None,
        config: SessionConfig | None = None,
        report: Callable[[str], None] | None = None,
    ):
        self.record = record
        self.config = config or SessionConfig()
        self._report = report or LOG.warning
        self._factory = referee_factory or default_referee_factory
        self._referee = self._factory()
        self._applied: list[tuple[int, dict[str, Any]]] = []
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()
        self._last_seq = 0 if record is None else record.last_seq()
        self._unwritten: deque[Entry] = deque()
        self._write_failure: str | None = None
        self._retrying: threading.Thread | None = None
        self._closing = threading.Event()

    @property
    def unwritten(self) -> int:
        """Rows ruled that the record has not taken yet."""
        with self._lock:
            return len(self._unwritten)

    def _store(
        self,
        kind: EntryKind,
        line: dict[str, Any] | None,
        ruling: dict[str, Any],
        origin: str,
        retracts: int | None = None,
    ) -> int:
        """Number the row, write it if the record takes it (else keep it, in order, for the
        retries); its ``seq``. Call with the lock held."""
        self._last_seq += 1
        if self.record is None:
            return self._last_seq
        at = utc_now()
        self._unwritten.append(Entry(self._last_seq, at, origin, kind, line, ruling, retracts))
        if len(self._unwritten) == 1:  # rows already waiting are the retries' (one short try each)
            self._write_unwritten()
        if self._unwritten:
            self._start_retries()
        return self._last_seq

    def _write_unwritten(self) -> bool:
        """Write the rows kept, in order, until the record refuses one; whether all were written."""
        with self._lock:
            if self.record is None:
                self._unwritten.clear()
                return True
            while self._unwritten:
                try:
                    self.record.append(self._unwritten[0])
                except (sqlite3.Error, RecordError) as exc:
                    if self._write_failure is None:
                        self._report(
                            f"the match record cannot take a row ({exc}); the referee goes on and keeps "
                            "the rows in memory until it can"
                        )
                    self._write_failure = str(exc)
                    return False
                self._unwritten.popleft()
            if self._write_failure is not None:
                self._report("the match record took the rows kept in memory; it is up to date")
                self._write_failure = None
            return True

    def _start_retries(self) -> None:
        if self._retrying is not None and self._retrying.is_alive():
            return
        self._retrying = threading.Thread(target=self._retry, name="record-retries", daemon=True)
        self._retrying.start()

    def _retry(self) -> None:
        delay = self.config.retry_initial_s
        while not self._closing.wait(delay):
            if self._write_unwritten():
                return
            delay = min(delay * self.config.retry_backoff_factor, self.config.retry_max_s)

    def close(self) -> None:
        """Write the rows kept (retried for up to ``close_wait_s``) and close the record. Rows it
        still cannot take are saved to :func:`unwritten_path` and a RecordError says so."""
        if self.record is None:
            return
        self._closing.set()
        if self._retrying is not None:
            self._retrying.join()
        waited, delay = 0.0, self.config.retry_initial_s
        while not self._write_unwritten() and waited < self.config.close_wait_s:
            time.sleep(delay)
            waited += delay
            delay = min(delay * self.config.retry_backoff_factor, self.config.retry_max_s)
        with self._lock:
            rows, failure = list(self._unwritten), self._write_failure
            self._unwritten.clear()
            record, self.record = self.record, None
        record.close()
        if rows:
            raise RecordError(_save_unwritten(record.path, rows, failure))

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
        """A fresh referee folded over the applied lines, numbering the lines after them as the one it
        replaces would have: a ruling's ``line`` is never given twice in a match."""
        given = self._referee.lines
        self._referee = self._factory()
        for _seq, line in self._applied:
            self._referee.apply(line)
        self._referee.lines = max(self._referee.lines, given)

    def refuse(self, line: dict[str, Any] | str, problem: str, origin: str = "unknown") -> dict[str, Any]:
        """Record a line without ruling it (``problem`` says why: it cannot be read as a frame-log
        line, or it is not to be ruled as it stands), so that what arrived is kept and can be
        amended; returns the refusal. Refused rows are not in the effective log."""
        ruling: dict[str, Any] = {"error": problem}
        stored = line if isinstance(line, dict) else {"unparsed": line}
        with self._lock:
            self._store("line", stored, ruling, origin)
        return ruling

    def apply(self, line: dict[str, Any] | str, origin: str = "unknown") -> dict[str, Any]:
        """Rule on one frame-log line, record it, tell the listeners; returns the ruling."""
        parsed, problem = parse_line(line)
        if parsed is None:
            text = line if isinstance(line, str) else repr(line)
            return self.refuse(text, problem or "malformed line", origin)
        with self._lock:
            ruling = self._rule(parsed)
            seq = self._store("line", parsed, ruling, origin)
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
            seq = self._store("undo", None, scoreboard, origin, retracts=retracted_seq)
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

    def condone_last_stroke(self, origin: str = "console") -> dict[str, Any] | None:
        """Amend the last applied line, when it is a stroke, with ``condoned``: its foul was neither
        called nor claimed before the next stroke (3.11(c)), so it is ruled as if it broke no rule.
        Returns the corrected ruling (an error if the stroke broke no rule: the amendment is then
        reverted), or None (nothing changed) when the last applied line is not a stroke."""
        with self._lock:
            if not self._applied or self._applied[-1][1].get("type") != "stroke":
                return None
            return self.amend({**self._applied[-1][1], "condoned": True}, origin)

    def resume(self) -> ResumeReport:
        """Rebuild the referee from the record's effective log (after a crash or a restart)."""
        report = ResumeReport()
        if self.record is None:
            return report
        with self._lock:
            self._referee = self._factory()
            self._applied = []
            try:
                entries = list(self.record.entries())
                effective = self.record.effective_lines()
                self._last_seq = self.record.last_seq()
            except sqlite3.DatabaseError as exc:
                raise RecordError(f"match record {self.record.path} cannot be read: {exc}") from exc
            report.corrections = sum(1 for e in entries if e.kind == "undo")
            for entry in effective:
                assert entry.line is not None
                ruling = self._rule(entry.line)
                report.lines_replayed += 1
                stored = entry.ruling
                if stored is not None and _comparable(ruling, stored) != _comparable(stored, stored):
                    report.mismatches.append(entry.seq)
                if "error" not in ruling:
                    self._applied.append((entry.seq, entry.line))
            # The lines after the crash are numbered on from the last the record holds (refused and
            # retracted lines were numbered too), as if the session had never stopped.
            self._referee.lines = max(self._referee.lines, _last_line_number(entries))
            self._notify(Change(self._referee.scoreboard(), None, None, 0, kind="resume"))
        return report

    def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # an output failing must not stop the referee
                LOG.exception("listener %r failed", listener)


def _last_line_number(entries: list[Entry]) -> int:
    """The highest ``line`` a stored ruling was given (0 when none has one)."""
    numbers = [e.ruling.get("line") for e in entries if e.kind == "line" and e.ruling is not None]
    return max((n for n in numbers if isinstance(n, int) and not isinstance(n, bool)), default=0)


RUNNING_COUNTERS = ("line",)
"""Ruling fields that count lines the referee has seen (refused and retracted ones included), which a
replay of the effective log legitimately numbers differently; left out when comparing rulings."""


def _comparable(ruling: dict[str, Any], stored: dict[str, Any]) -> str:
    """A ruling as stored (JSON round trip, so tuples equal lists), on the fields the ``stored`` ruling
    has (a field a later version added to rulings is not a difference), without running counters."""
    return json.dumps(
        {k: v for k, v in ruling.items() if k in stored and k not in RUNNING_COUNTERS},
        sort_keys=True,
        default=str,
    )


def close_session(session: MatchSession, problems: list[str]) -> None:
    """Close ``session`` (see :meth:`MatchSession.close`), adding what went wrong to ``problems``
    instead of raising: a command closing its session on the way out still says it, and fails."""
    try:
        session.close()
    except RecordError as exc:
        problems.append(str(exc))


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
    try:
        return _session_of(record, resume, report, referee_factory)
    except BaseException:
        record.close()  # and its writer's lock with it
        raise


def _session_of(
    record: MatchRecord, resume: bool, report: Callable[[str], None], referee_factory: RefereeFactory | None
) -> MatchSession:
    record_path = record.path
    saved = unwritten_path(record_path)
    if saved.exists() and not resume:
        raise RecordError(
            f"{saved} holds rows match record {record_path} could not take; pass --resume to write them "
            "into it and continue that match"
        )
    if resume and saved.exists():
        report(_write_saved_rows(record, saved))
    try:
        rows = len(record)
    except sqlite3.DatabaseError as exc:
        raise RecordError(f"match record {record_path} cannot be read: {exc}") from exc
    if rows and not resume:
        raise RecordError(
            f"match record {record_path} already holds {rows} rows; pass --resume to continue that match "
            "or choose a new file"
        )
    if resume and not rows:
        raise RecordError(
            f"nothing to resume: match record {record_path} holds no rows (a record is three files: a copy "
            "made after a crash needs the -wal file beside it)"
        )
    session = MatchSession(record, referee_factory, report=report)
    if resume:
        found = session.resume()
        report(
            f"resumed {record_path}: {found.lines_replayed} lines replayed, {found.corrections} corrections"
            + (f"; rulings differ today on rows {found.mismatches}" if found.mismatches else "")
        )
    return session


def _save_unwritten(record_path: Path, rows: list[Entry], failure: str | None) -> str:
    """Append ``rows`` to :func:`unwritten_path`; the message saying where they are (or, where even
    that fails, the rows themselves as JSON, so the message keeps them)."""
    saved = unwritten_path(record_path)
    text = "".join(json.dumps(asdict(row), sort_keys=True, default=str) + "\n" for row in rows)
    why = f"match record {record_path} could not take {len(rows)} rows ({failure})"
    try:
        with saved.open("a", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        return f"{why}, nor could they be saved in {saved} ({exc}); the rows:\n{text}"
    return f"{why}; they are saved in {saved}, and --resume writes them into the record"


def _saved_row(text: str) -> Entry:
    """One line of a file :func:`_save_unwritten` wrote, as the row it saved; ValueError saying what
    is wrong where it is not one (half written, edited by hand, nested too deeply to read), so that
    nothing but a row as the session kept it is written into the record."""
    try:
        fields = json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
    if not isinstance(fields, dict):
        raise ValueError(f"expected a JSON object, got {type(fields).__name__}")
    try:
        row = Entry(**fields)
    except TypeError as exc:
        raise ValueError(str(exc)) from None
    problems = [
        *(
            f"{name} is {getattr(row, name)!r}, not a row number"
            for name in ("seq", "retracts")
            if not _row_number(getattr(row, name), may_be_none=name == "retracts")
        ),
        *(f"{name} is not text" for name in ("at_utc", "origin") if not isinstance(getattr(row, name), str)),
        *(
            f"{name} is not a JSON object"
            for name in ("line", "ruling")
            if not isinstance(getattr(row, name), dict | None)
        ),
    ]
    if row.kind not in ("line", "undo"):
        problems.append(f"kind is {row.kind!r}, not 'line' or 'undo'")
    if problems:
        raise ValueError("; ".join(problems))
    return row


def _row_number(value: Any, may_be_none: bool) -> bool:
    """Whether ``value`` is a record row's ``seq`` (a whole number from 1; None where allowed)."""
    if value is None:
        return may_be_none
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _write_saved_rows(record: MatchRecord, saved: Path) -> str:
    """Write the rows a session saved beside ``record`` into it (rows already there are skipped),
    then remove the file; what was done. RecordError where a row is malformed (checked before any
    is written: a file refused leaves the record as it was) or cannot be written."""
    try:
        lines = saved.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {saved}: {exc}") from exc
    rows = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            rows.append(_saved_row(text))
        except ValueError as exc:
            raise RecordError(f"{saved} line {number} is not a saved row: {exc}") from exc
    written = 0
    for row in rows:
        try:
            if row.seq <= record.last_seq():
                continue
            record.append(row)
        except (sqlite3.Error, RecordError) as exc:
            raise RecordError(f"match record {record.path} cannot take the rows of {saved}: {exc}") from exc
        written += 1
    saved.unlink()
    return f"wrote {written} rows saved in {saved} into match record {record.path}"
