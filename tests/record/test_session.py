"""The match record and session: one committed row per line, corrections, resume, bad input."""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.record.session import Change, MatchSession, SessionConfig, open_session, unwritten_path
from snooker.record.store import MatchRecord, RecordConfig, RecordError
from snooker.referee import Referee

MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["A", "B"], "best_of": 3, "breaker": 0}
POT_RED = {"type": "stroke", "first_contact": ["red"], "potted": ["red"], "cue_ball": "on_table"}
POT_BLACK = {"type": "stroke", "first_contact": ["black"], "potted": ["black"], "cue_ball": "on_table"}
IN_OFF = {"type": "stroke", "first_contact": ["red"], "potted": [], "cue_ball": "potted"}


class BuggyReferee(Referee):
    """The real referee, made to raise on a marked line (a stand-in for a referee bug)."""

    def apply(self, line):
        if isinstance(line, dict) and line.get("simulate_bug"):
            raise RuntimeError("simulated referee bug")
        return super().apply(line)


def _session(path: Path) -> MatchSession:
    return MatchSession(MatchRecord(path).open(), referee_factory=BuggyReferee)


def test_every_line_is_committed_and_visible_to_another_connection(tmp_path: Path):
    path = tmp_path / "match.sqlite"
    session = _session(path)
    for line in (MATCH, POT_RED, POT_BLACK):
        session.apply(line, origin="test")
        other = sqlite3.connect(path)  # a second reader sees the row at once: it was committed
        rows = other.execute("SELECT line FROM entries").fetchall()
        other.close()
        assert len(rows) == len(session.applied_lines)
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert session.scoreboard()["score"] == [8, 0]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('{"type": "stroke", ', "not JSON"),
        ("[1, 2]", "JSON object"),
        ({"type": "decision", "choice": "replace"}, "no decision is open"),
        ({"type": "what"}, "unknown line type"),
        ({"type": "stroke", "simulate_bug": True}, "referee failed"),
    ],
    ids=["truncated_json", "not_an_object", "decision_when_none_open", "unknown_type", "referee_raises"],
)
def test_bad_lines_are_answered_recorded_and_change_nothing(tmp_path: Path, line, error: str):
    session = _session(tmp_path / "m.sqlite")
    session.apply(MATCH)
    session.apply(POT_RED)
    before = session.scoreboard()
    ruling = session.apply(line, origin="console")
    assert error in ruling["error"]
    assert session.scoreboard() == before
    assert len(session.record) == 3
    assert session.apply(POT_BLACK)["score"] == [8, 0]  # the referee keeps running


def test_undo_and_amend_are_rows_of_their_own_and_survive_resume(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    session = _session(path)
    for line in (MATCH, POT_RED, POT_BLACK):
        session.apply(line)
    assert session.undo_last()["scoreboard"]["score"] == [1, 0]
    assert session.amend(IN_OFF)["foul"] is True  # the red was really an in-off
    assert session.scoreboard()["score"] == [0, 4]
    assert session.amend({"type": "nonsense"})["error"]  # a bad amendment leaves the state alone
    assert session.scoreboard()["score"] == [0, 4]
    kinds = [e.kind for e in session.record.entries()]
    assert kinds.count("undo") == 3 and len(kinds) == 9
    session.record.close()

    resumed = _session(path)
    report = resumed.resume()
    assert resumed.scoreboard() == session.scoreboard()
    assert report.mismatches == [] and report.corrections == 3
    assert resumed.applied_lines == [MATCH, IN_OFF]


def test_a_ruling_s_line_number_is_never_given_twice_across_an_undo_or_a_resume(tmp_path: Path):
    """A ruling's ``line`` numbers the lines the referee was given (CONTRACTS.md §2), a refused one
    included: after an undo rebuilt the referee, or a resume replayed the record, the next line is
    numbered on from the last, as in a session that never stopped, not from the lines still standing."""
    path = tmp_path / "m.sqlite"
    session = _session(path)
    numbers = [
        session.apply(line)["line"] for line in (MATCH, {"type": "decision", "choice": "play"}, POT_RED)
    ]
    assert numbers == [1, 2, 3]  # the decision is refused (none is open), and numbered
    session.undo_last()
    assert session.apply(POT_BLACK)["line"] == 4
    session.close()

    resumed = _session(path)
    resumed.resume()
    assert resumed.apply(POT_RED)["line"] == 5
    lines = [e.ruling["line"] for e in resumed.record.entries() if e.kind == "line" and e.ruling]
    assert lines == [1, 2, 3, 4, 5]
    resumed.close()


class FailingRecord(MatchRecord):
    """A record whose disk fails on writes ``fail_from`` to ``fail_to`` (counted from 1; sqlite raises)."""

    fail_from = 3
    fail_to = 3

    def __init__(self, path, config=None):
        super().__init__(path, config)
        self.tries = 0

    def _insert(self, *args, **kwargs):
        self.tries += 1
        if self.fail_from <= len(self) + 1 <= self.fail_to and self.tries <= self.fail_to + 2:
            raise sqlite3.OperationalError("disk I/O error")
        return super()._insert(*args, **kwargs)


QUICK_RETRIES = SessionConfig(retry_initial_s=0.01, retry_max_s=0.02, close_wait_s=0.1)
WAIT_S = 10.0


def _until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"not within {WAIT_S} s: {what}"
        time.sleep(0.01)


def test_a_line_the_record_cannot_take_yet_is_ruled_kept_and_written_in_order(tmp_path: Path):
    said: list[str] = []
    record = FailingRecord(tmp_path / "m.sqlite").open()
    session = MatchSession(record, referee_factory=BuggyReferee, config=QUICK_RETRIES, report=said.append)
    session.apply(MATCH)
    session.apply(POT_RED)
    assert session.apply(POT_BLACK)["score"] == [8, 0]  # the referee does not go back on it
    assert session.applied_lines == [MATCH, POT_RED, POT_BLACK]
    _until(lambda: session.unwritten == 0, "the kept row written by the retries")
    assert [e.line for e in record.effective_lines()] == [MATCH, POT_RED, POT_BLACK]
    assert "disk I/O error" in said[0] and "keeps the rows in memory" in said[0]
    assert "up to date" in said[-1]
    session.close()


def test_rows_the_record_never_takes_are_saved_at_close_and_resume_writes_them(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    record = FailingRecord(path).open()
    record.fail_to = 10**6
    session = MatchSession(record, referee_factory=BuggyReferee, config=QUICK_RETRIES, report=lambda _: None)
    for line in (MATCH, POT_RED, POT_BLACK, POT_RED):
        session.apply(line)
    session.undo_last()
    with pytest.raises(RecordError, match=r"could not take 3 rows .*m\.sqlite\.unwritten\.jsonl"):
        session.close()
    said: list[str] = []
    resumed = open_session(str(path), resume=True, report=said.append, referee_factory=BuggyReferee)
    assert "wrote 3 rows" in said[0] and not unwritten_path(path).exists()
    assert resumed.scoreboard() == session.scoreboard() and resumed.applied_lines == [
        MATCH,
        POT_RED,
        POT_BLACK,
    ]
    resumed.close()


def test_a_record_with_rows_saved_beside_it_is_only_continued_with_resume(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    MatchRecord(path).open().close()
    unwritten_path(path).write_text("")
    with pytest.raises(RecordError, match="pass --resume"):
        open_session(str(path), resume=False, report=lambda _: None)


def test_an_undo_while_another_program_holds_the_record_is_kept_and_written_after(tmp_path: Path):
    """Before, the undo raised (a server error) after the referee had already dropped the line, so
    the referee and its record told two matches from then on."""
    path = tmp_path / "m.sqlite"
    session = MatchSession(
        MatchRecord(path).open(), referee_factory=BuggyReferee, config=QUICK_RETRIES, report=lambda _: None
    )
    session.apply(MATCH)
    session.apply(POT_RED)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    started = time.monotonic()
    assert session.undo_last()["scoreboard"]["score"] == [0, 0]
    assert session.apply(POT_RED)["score"] == [1, 0]
    assert time.monotonic() - started < WAIT_S / 2  # the table was not held up
    assert session.unwritten == 2
    other.execute("ROLLBACK")
    other.close()
    _until(lambda: session.unwritten == 0, "the undo and the line written once the lock was let go")
    session.close()
    resumed = open_session(str(path), resume=True, report=lambda _: None, referee_factory=BuggyReferee)
    assert resumed.scoreboard() == session.scoreboard() and resumed.applied_lines == [MATCH, POT_RED]
    resumed.close()


def test_a_second_writer_of_one_record_is_refused_by_name(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    with MatchRecord(path), pytest.raises(RecordError, match="in use by another process"):
        MatchRecord(path).open()
    MatchRecord(path).open().close()  # free again once the first is closed


def test_a_record_deleted_while_in_use_is_written_back_with_every_row(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    said: list[str] = []
    session = MatchSession(
        MatchRecord(path).open(), referee_factory=BuggyReferee, config=QUICK_RETRIES, report=said.append
    )
    session.apply(MATCH)
    session.apply(POT_RED)
    path.unlink()
    assert session.apply(POT_BLACK)["score"] == [8, 0]
    _until(lambda: session.unwritten == 0, "the row written into the record written back")
    session.close()
    assert "deleted while in use; written back" in said[0]
    resumed = open_session(str(path), resume=True, report=lambda _: None, referee_factory=BuggyReferee)
    assert resumed.applied_lines == [MATCH, POT_RED, POT_BLACK]
    resumed.close()


def test_a_record_replaced_while_in_use_is_left_alone_and_the_rows_saved_beside_it(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    session = MatchSession(
        MatchRecord(path).open(), referee_factory=BuggyReferee, config=QUICK_RETRIES, report=lambda _: None
    )
    session.apply(MATCH)
    path.unlink()
    path.write_text("someone else's file")
    session.apply(POT_RED)
    with pytest.raises(RecordError, match="replaced by another file while in use"):
        session.close()
    assert path.read_text() == "someone else's file"
    assert [json.loads(row)["line"] for row in unwritten_path(path).read_text().splitlines()] == [POT_RED]


def test_resuming_a_record_with_no_rows_is_refused_by_name(tmp_path: Path):
    path = tmp_path / "m.sqlite"
    MatchRecord(path).open().close()
    with pytest.raises(RecordError, match=r"holds no rows.*-wal"):
        open_session(str(path), resume=True, report=lambda _: None)


def test_undo_with_nothing_applied_is_an_error(tmp_path: Path):
    assert "nothing to undo" in _session(tmp_path / "m.sqlite").undo_last()["error"]


def test_listeners_hear_after_commit_and_a_failing_listener_is_contained(tmp_path: Path):
    session = _session(tmp_path / "m.sqlite")
    heard: list[tuple[Change, int]] = []

    def broken(change: Change) -> None:
        raise OSError("overlay went away")

    session.add_listener(broken)
    session.add_listener(lambda change: heard.append((change, len(session.record))))
    session.apply(MATCH)
    session.apply(IN_OFF)
    assert [c.line for c, _ in heard] == [MATCH, IN_OFF]
    assert all(rows >= change.seq for change, rows in heard)
    assert heard[-1][0].ruling["announcements"][0] == "FOUL"


def test_a_file_that_is_not_a_record_is_refused(tmp_path: Path):
    path = tmp_path / "notes.sqlite"
    path.write_text("hello, not a database" * 100)
    with pytest.raises(RecordError, match=r"notes\.sqlite"):
        MatchRecord(path).open()


LINES = [
    POT_RED,
    POT_BLACK,
    IN_OFF,
    {"type": "stroke", "first_contact": []},
    {"type": "stroke", "first_contact": ["pink"], "potted": ["pink"]},
    {"type": "decision", "choice": "play_again"},
    {"type": "decision", "choice": "replace"},
    {"type": "nominate", "ball": "blue"},
    {"type": "concede"},
    {"type": "new_frame"},
    '{"type": "stroke", ',
]
OPERATIONS = st.one_of(
    st.tuples(st.just("apply"), st.sampled_from(LINES)),
    st.tuples(st.just("amend"), st.sampled_from(LINES)),
    st.tuples(st.just("undo"), st.none()),
)


@settings(max_examples=25, deadline=None)
@given(operations=st.lists(OPERATIONS, max_size=14))
def test_resuming_any_record_gives_the_state_it_was_left_in(operations):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.sqlite"
        fast = RecordConfig(synchronous="NORMAL")  # as safe against a killed process; faster
        session = MatchSession(MatchRecord(path, fast).open(), referee_factory=BuggyReferee)
        session.apply(MATCH)
        for name, line in operations:
            if name == "apply":
                session.apply(line)
            elif name == "amend":
                session.amend(line)
            else:
                session.undo_last()
        rows = len(session.record)
        session.record.close()
        resumed = MatchSession(MatchRecord(path, fast).open(), referee_factory=BuggyReferee)
        report = resumed.resume()
        assert resumed.scoreboard() == session.scoreboard()
        assert resumed.applied_lines == session.applied_lines
        assert report.mismatches == []
        assert len(resumed.record) == rows  # resuming writes nothing
        resumed.record.close()


def test_a_record_in_a_folder_that_is_missing_is_refused_naming_the_folder(tmp_path: Path):
    with pytest.raises(RecordError, match=r"folder .*nowhere does not exist"):
        MatchRecord(tmp_path / "nowhere" / "m.sqlite").open()


def test_a_record_in_a_folder_that_is_not_writable_is_refused_naming_the_folder(tmp_path: Path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("this user writes into read-only folders (root)")
        with pytest.raises(RecordError, match="is not writable"):
            MatchRecord(locked / "m.sqlite").open()
    finally:
        locked.chmod(0o700)


def _stored_ruling_edited(path: Path, seq: int, edit) -> None:
    """Rewrite one stored ruling in place, as a record written by another version would hold it."""
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT ruling FROM entries WHERE seq = ?", (seq,)).fetchone()
        db.execute("UPDATE entries SET ruling = ? WHERE seq = ?", (json.dumps(edit(json.loads(text))), seq))


def _without_a_field(ruling: dict) -> dict:
    """A ruling from a version before ``corrections`` was added to rulings."""
    return {k: v for k, v in ruling.items() if k != "corrections"}


def _points_changed(ruling: dict) -> dict:
    """A ruling from a version that scored the stroke otherwise."""
    return {**ruling, "points": ruling["points"] + 1}


@pytest.mark.parametrize(
    ("edit", "mismatch"),
    [(_without_a_field, False), (_points_changed, True)],
    ids=["a-field-added-since-is-no-difference", "a-stored-field-that-differs-is-reported"],
)
def test_resume_compares_the_fields_the_stored_ruling_has(tmp_path: Path, edit, mismatch: bool):
    path = tmp_path / "m.sqlite"
    session = _session(path)
    session.apply(MATCH)
    session.apply(POT_RED)
    seq = session.record.last_seq()
    session.record.close()
    _stored_ruling_edited(path, seq, edit)
    resumed = _session(path)
    report = resumed.resume()
    assert report.mismatches == ([seq] if mismatch else [])
    resumed.record.close()
