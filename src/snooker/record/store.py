"""The match record: every frame-log line and its ruling, one SQLite row each, committed as it happens.

The database runs in WAL mode and commits every row on its own, so a process killed at any moment
loses nothing it has acknowledged. Nothing is ever deleted: a correction ("undo the last line") is a
row of its own that retracts an earlier row, and the *effective log* — the lines the referee folds —
is every ``line`` row the referee accepted and no undo retracted, in order. Replaying the effective
log through a fresh referee gives the state after the last row (CONTRACTS.md §1: the state is a pure
function of the log).

Table ``entries``: ``seq`` (row number, increasing), ``at_utc`` (ISO-8601 time the row was
written), ``origin`` (who sent it: ``tracker``, ``console``, ``stdin`` …), ``kind`` (``line`` or
``undo``), ``line`` (the frame-log line, JSON), ``ruling`` (the referee's answer, JSON; for an undo,
the scoreboard after it), ``retracts`` (for an undo, the ``seq`` it retracts).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

RECORD_SCHEMA = "snooker.record/1"

EntryKind = Literal["line", "undo"]

_CREATE = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at_utc TEXT NOT NULL,
    origin TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('line', 'undo')),
    line TEXT,
    ruling TEXT,
    retracts INTEGER REFERENCES entries(seq)
);
"""


class RecordError(RuntimeError):
    """The record file cannot be used (not a match record, locked, unreadable); the message says why."""


@dataclass(frozen=True)
class RecordConfig:
    """How the record writes.

    - ``synchronous``: SQLite's ``synchronous`` pragma. ``FULL`` survives power loss too; ``NORMAL``
      in WAL mode survives a crashed or killed process (what ``--resume`` needs) and is faster.
    - ``busy_timeout_ms``: how long opening waits for another connection's lock before failing (ms).
    - ``append_busy_timeout_ms``: how long one row's write waits for such a lock before it fails (ms);
      short, because the live frame loop writes its strokes and must not stall (a row that cannot
      be written yet is kept and written later, see ``snooker.record.session``).
    """

    synchronous: Literal["FULL", "NORMAL"] = "FULL"
    busy_timeout_ms: int = 5000
    append_busy_timeout_ms: int = 200

    def __post_init__(self) -> None:
        if self.busy_timeout_ms < 0 or self.append_busy_timeout_ms < 0:
            raise ValueError("busy timeouts must be >= 0 ms")


@dataclass(frozen=True)
class Entry:
    """One row of the record; ``line``/``ruling`` are decoded JSON (None where empty)."""

    seq: int
    at_utc: str
    origin: str
    kind: EntryKind
    line: dict[str, Any] | None
    ruling: dict[str, Any] | None
    retracts: int | None


class MatchRecord:
    """An append-only SQLite match record (a context manager; one writer per file).

    One writer per file is enforced: the open record holds an exclusive ``flock`` on its file (where
    the system has one), and a second process opening it is refused by name; two referees writing
    one record would interleave two matches. Each row is written with the ``seq`` the caller gives
    (the session numbers its rows as it rules them, so a row written late keeps its place), and
    every write first checks that the file is still the one opened, not rows written into a file
    nobody can find: a record deleted while in use is written back with all its rows, one replaced
    by another file is an error.
    """

    def __init__(self, path: str | Path, config: RecordConfig | None = None):
        self.path = Path(path)
        self.config = config or RecordConfig()
        self._db: sqlite3.Connection | None = None
        self._lock_fd: int | None = None
        self._identity: tuple[int, int] | None = None

    def open(self) -> Self:
        if self.path.exists() and not self.path.is_file():
            raise RecordError(f"match record {self.path} is not a file")
        folder = self.path.parent
        if not folder.is_dir():
            raise RecordError(f"match record {self.path}: its folder {folder} does not exist")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise RecordError(
                f"match record {self.path}: its folder {folder} is not writable (the record writes its "
                "-wal and -shm files beside it)"
            )
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute(f"PRAGMA busy_timeout = {int(self.config.busy_timeout_ms)}")
            foreign = _not_a_record(db)
            if foreign is not None:  # before anything is written into it (WAL mode, our tables)
                db.close()
                raise RecordError(
                    f"match record {self.path} is a SQLite database but not a match record ({foreign}); "
                    "give a new file or a record this program wrote"
                )
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            db.execute(f"PRAGMA synchronous = {self.config.synchronous}")
            db.executescript(_CREATE)
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (RECORD_SCHEMA,))
            schema = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            raise RecordError(f"match record {self.path} cannot be used: {exc}") from exc
        if str(mode).lower() != "wal":
            db.close()
            raise RecordError(f"match record {self.path}: SQLite refused WAL mode (got {mode})")
        if schema != RECORD_SCHEMA:
            db.close()
            raise RecordError(f"match record {self.path} has schema {schema!r}, expected {RECORD_SCHEMA!r}")
        try:
            self._lock_fd = _writer_lock(self.path)
        except RecordError:
            db.close()
            raise
        db.execute(f"PRAGMA busy_timeout = {int(self.config.append_busy_timeout_ms)}")
        self._identity = _identity(self.path)
        self._db = db
        return self

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._lock_fd is not None:  # after SQLite's descriptor: closing ours first drops its locks
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RecordError(f"match record {self.path} is not open")
        return self._db

    def _insert(
        self,
        origin: str,
        kind: EntryKind,
        line: dict[str, Any] | None,
        ruling: dict[str, Any] | None,
        retracts: int | None,
        seq: int | None,
        at_utc: str | None,
    ) -> int:
        if self._identity is not None and _identity(self.path) != self._identity:
            self._write_back()
        at = at_utc or utc_now()
        line_json = None if line is None else json.dumps(line, sort_keys=True)
        ruling_json = None if ruling is None else json.dumps(ruling, sort_keys=True, default=str)
        with self.db:  # one transaction, committed before returning
            cursor = self.db.execute(
                "INSERT INTO entries(seq, at_utc, origin, kind, line, ruling, retracts) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (seq, at, origin, kind, line_json, ruling_json, retracts),
            )
        return int(cursor.lastrowid or 0)

    def _write_back(self) -> None:
        """The file was deleted or replaced while open: a deleted record (and its folder, where that
        went too) is written back from this connection (which still reads it, every row included)
        and reopened; a replaced one is left to whoever replaced it. Raises RecordError either way,
        saying which, so the row being written is retried (and the session says what happened)."""
        if self.path.exists():
            raise RecordError(f"match record {self.path} was replaced by another file while in use")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # deleted with its folder: that too
            restored = sqlite3.connect(self.path)
            with restored:
                self.db.backup(restored)
            restored.close()
        except (sqlite3.Error, OSError) as exc:
            raise RecordError(
                f"match record {self.path} was deleted while in use, and cannot be written back: {exc}"
            ) from exc
        self.close()
        self.open()
        raise RecordError(
            f"match record {self.path} was deleted while in use; written back with all its rows"
        )

    def append_line(
        self,
        line: dict[str, Any],
        ruling: dict[str, Any],
        origin: str,
        seq: int | None = None,
        at_utc: str | None = None,
    ) -> int:
        """Store one frame-log line with its ruling (committed) as row ``seq`` (None: the next);
        returns its ``seq``. ``at_utc``: when it was ruled (None: now)."""
        return self._insert(origin, "line", line, ruling, None, seq, at_utc)

    def append_undo(
        self,
        retracts: int,
        scoreboard: dict[str, Any],
        origin: str,
        seq: int | None = None,
        at_utc: str | None = None,
    ) -> int:
        """Store a correction retracting row ``retracts`` (committed) as row ``seq`` (None: the
        next); returns its ``seq``."""
        return self._insert(origin, "undo", None, scoreboard, retracts, seq, at_utc)

    def append(self, entry: Entry) -> int:
        """Store ``entry`` (committed) as row ``entry.seq``, at its ``at_utc``; its ``seq``.
        RecordError where it lacks what its kind needs."""
        if entry.ruling is None:
            raise RecordError(f"row {entry.seq} has no ruling")
        if entry.kind == "undo" and entry.retracts is not None:
            return self.append_undo(entry.retracts, entry.ruling, entry.origin, entry.seq, entry.at_utc)
        if entry.kind == "line" and entry.line is not None:
            return self.append_line(entry.line, entry.ruling, entry.origin, entry.seq, entry.at_utc)
        raise RecordError(f"row {entry.seq}: a {entry.kind!r} row without what it retracts or holds")

    def last_seq(self) -> int:
        """The last row's ``seq`` (0 when there is none)."""
        return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0])

    def entries(self) -> Iterator[Entry]:
        """Every row, in order."""
        rows = self.db.execute(
            "SELECT seq, at_utc, origin, kind, line, ruling, retracts FROM entries ORDER BY seq"
        )
        for seq, at, origin, kind, line, ruling, retracts in rows.fetchall():
            yield Entry(
                seq=seq,
                at_utc=at,
                origin=origin,
                kind=kind,
                line=self._decoded(line, seq, "line"),
                ruling=self._decoded(ruling, seq, "ruling"),
                retracts=retracts,
            )

    def _decoded(self, text: str | None, seq: int, column: str) -> dict[str, Any] | None:
        """A stored JSON column, or a RecordError naming the file, the row and the column."""
        if text is None:
            return None
        try:
            return json.loads(text)
        except (TypeError, ValueError) as exc:
            raise RecordError(
                f"match record {self.path}: row {seq} has a malformed {column} ({exc})"
            ) from exc
        except RecursionError:
            raise RecordError(
                f"match record {self.path}: row {seq} has a malformed {column} "
                "(JSON nested too deeply to read)"
            ) from None

    def effective_lines(self) -> list[Entry]:
        """What the referee folds: the ``line`` rows it accepted and no undo retracted, in order.

        Refused rows (ruling ``{"error": ...}``) stay refused: they changed nothing when they came,
        and must not start counting because a correction later changed what came before them.
        """
        entries = list(self.entries())
        retracted = {e.retracts for e in entries if e.kind == "undo"}
        return [
            e
            for e in entries
            if e.kind == "line" and e.seq not in retracted and e.line is not None and not _refused(e.ruling)
        ]

    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])


def utc_now() -> str:
    """The time a row is written or ruled: ISO-8601, UTC, to the millisecond (``at_utc``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


RECORD_COLUMNS: dict[str, frozenset[str]] = {
    "meta": frozenset({"key", "value"}),
    "entries": frozenset({"seq", "at_utc", "origin", "kind", "line", "ruling", "retracts"}),
    "sqlite_sequence": frozenset({"name", "seq"}),
}
"""The tables a match record holds (``_CREATE``; ``sqlite_sequence`` is SQLite's, for AUTOINCREMENT)
and the columns each must have: a database with any other table, or one of these without its
columns, is another program's, and is refused rather than written into."""


def _not_a_record(db: sqlite3.Connection) -> str | None:
    """Why the database open on ``db`` is not a match record (None: it is one, or it is empty and
    becomes one). Reads only: another program's database given by mistake is left as it was."""
    tables = [
        row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ]
    foreign = [name for name in tables if name not in RECORD_COLUMNS]
    if foreign:
        return f"it holds the tables {', '.join(foreign)}"
    for name in tables:
        columns = {row[1] for row in db.execute(f'PRAGMA table_info("{name}")')}
        missing = RECORD_COLUMNS[name] - columns
        if missing:
            return f"its table {name} lacks the columns {', '.join(sorted(missing))}"
    if "meta" in tables:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is not None and row[0] != RECORD_SCHEMA:
            return f"its schema is {row[0]!r}, not {RECORD_SCHEMA!r}"
    return None


def _identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` (device and inode), None where there is none."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _writer_lock(path: Path) -> int | None:
    """An exclusive ``flock`` on the record's file, held by the returned descriptor (None where the
    system has no ``flock``); RecordError where another process holds it. ``flock`` and SQLite's own
    (``fcntl``) locks do not meet on a local file system."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise RecordError(
            f"match record {path} is in use by another process (one referee writes a record at a time)"
        ) from None
    return fd


def _refused(ruling: dict[str, Any] | None) -> bool:
    return ruling is not None and "error" in ruling
