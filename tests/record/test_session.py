"""The match record and session: one committed row per line, corrections, resume, bad input."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.record.session import Change, MatchSession
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


class FailingRecord(MatchRecord):
    """A record whose disk fails once, on the third write (sqlite raises)."""

    fail_on_write = 3
    failed = False

    def append_line(self, line, ruling, origin):
        if len(self) + 1 == self.fail_on_write and not self.failed:
            self.failed = True
            raise sqlite3.OperationalError("disk I/O error")
        return super().append_line(line, ruling, origin)


def test_a_line_that_cannot_be_recorded_is_not_applied(tmp_path: Path):
    session = MatchSession(FailingRecord(tmp_path / "m.sqlite").open(), referee_factory=BuggyReferee)
    session.apply(MATCH)
    session.apply(POT_RED)
    before = session.scoreboard()
    ruling = session.apply(POT_BLACK)
    assert "could not be recorded" in ruling["error"] and "disk I/O error" in ruling["error"]
    assert session.scoreboard() == before and session.applied_lines == [MATCH, POT_RED]
    assert session.apply(POT_BLACK)["score"] == [8, 0]  # the disk came back: play goes on


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
