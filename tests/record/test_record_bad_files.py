"""Files a match record is given that are not what it wrote: another program's SQLite database
named by mistake as ``--record``, and a file of saved rows (``*.unwritten.jsonl``) half written or
edited by hand. Each is refused by name, before anything is written (another program's database
is left exactly as it was; the record keeps the rows it held), never a traceback. And a record
deleted while in use, its folder with it, written back with every row."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from snooker.cli import main
from snooker.record.session import MatchSession, SessionConfig, close_session, open_session, unwritten_path
from snooker.record.store import MatchRecord, RecordError

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"


def _database(path: Path, statements: list[str]) -> Path:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    db.close()
    return path


FOREIGN_DATABASES: list[tuple[str, list[str], bool, str]] = [
    # (id, the database's statements, resume, what the refusal names)
    (
        "another_programs_tables",
        ["CREATE TABLE photos(id, name)", "INSERT INTO photos VALUES (1, 'a')"],
        False,
        "it holds the tables photos",
    ),
    (
        "another_schema",
        [
            "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)",
            "INSERT INTO meta VALUES ('schema', 'scores/2')",
        ],
        False,
        "its schema is 'scores/2'",
    ),
    (
        "meta_of_other_columns",
        ["CREATE TABLE meta(a, b)"],
        False,
        "its table meta lacks the columns key, value",
    ),
    (
        "entries_of_other_columns",
        ["CREATE TABLE entries(x)", "INSERT INTO entries VALUES (1)"],
        True,
        "its table entries lacks the columns",
    ),
]


@pytest.mark.parametrize(
    ("statements", "resume", "named"),
    [c[1:] for c in FOREIGN_DATABASES],
    ids=[c[0] for c in FOREIGN_DATABASES],
)
def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path, statements, resume, named):
    # It was opened, switched to WAL mode and given the record's tables before anything was
    # checked (or, with --resume, an entries table of other columns raised sqlite3's own error).
    path = _database(tmp_path / "other.sqlite", statements)
    before = path.read_bytes()
    with pytest.raises(RecordError) as refused:
        open_session(str(path), resume, print)
    message = str(refused.value)
    assert str(path) in message and "not a match record" in message and named in message, message
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_live_with_another_programs_database_as_its_record_says_so(tmp_path, capsys):
    path = _database(tmp_path / "photos.sqlite", ["CREATE TABLE photos(id, name)"])
    before = path.read_bytes()
    assert main(["live", "--source", str(CLIP), "--table", "t1", "--record", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"snooker-referee live: match record {path} is a SQLite database but not a match record" in err
    assert path.read_bytes() == before


def test_a_record_of_an_earlier_match_still_opens(tmp_path):
    path = tmp_path / "m.sqlite"
    with MatchRecord(path) as record:
        record.append_line({"type": "match", "players": ["A", "B"]}, {"score": [0, 0]}, "test")
    with MatchRecord(path) as record:
        assert len(record) == 1


SAVED = {
    "seq": 2,
    "at_utc": "2026-01-01T00:00:00.000+00:00",
    "origin": "tracker",
    "kind": "line",
    "line": {"type": "stroke", "first_contact": ["red"], "potted": [{"ball": "red", "pocket": "top_left"}]},
    "ruling": {"score": [1, 0]},
    "retracts": None,
}
"""A row as ``MatchSession.close`` saves it beside a record that could not take it."""


def _spoiled(**changes: object) -> str:
    return json.dumps({**SAVED, **changes})


SAVED_FILES: list[tuple[str, Callable[[], str], str]] = [
    # (id, the file's text, what the refusal says); each refused before any row is written
    (
        "seq_is_text",
        lambda: _spoiled(seq="two") + "\n",
        "line 1 is not a saved row: seq is 'two', not a row number",
    ),
    ("seq_is_true", lambda: _spoiled(seq=True) + "\n", "seq is True, not a row number"),
    (
        "retracts_is_text",
        lambda: _spoiled(kind="undo", line=None, retracts="1") + "\n",
        "retracts is '1', not a row number",
    ),
    ("line_is_text", lambda: _spoiled(line="a stroke") + "\n", "line is not a JSON object"),
    ("ruling_is_a_list", lambda: _spoiled(ruling=[1, 0]) + "\n", "ruling is not a JSON object"),
    ("origin_is_a_number", lambda: _spoiled(origin=7) + "\n", "origin is not text"),
    ("kind_unknown", lambda: _spoiled(kind="delete") + "\n", "kind is 'delete', not 'line' or 'undo'"),
    (
        "nested_too_deeply",
        lambda: _spoiled() + "\n" + "[" * 100_000 + "\n",
        "line 2 is not a saved row: JSON nested too deeply",
    ),
    (
        "half_written_after_a_good_row",
        lambda: _spoiled() + "\n" + _spoiled(seq=3)[:40],
        "line 2 is not a saved row",
    ),
    ("a_list", lambda: "[1, 2]\n", "expected a JSON object, got list"),
]


@pytest.mark.parametrize(("text", "said"), [c[1:] for c in SAVED_FILES], ids=[c[0] for c in SAVED_FILES])
def test_saved_rows_that_are_not_what_was_saved_are_refused_by_name_and_nothing_written(tmp_path, text, said):
    # A row number that was text raised TypeError, a line nested too deeply RecursionError (each a
    # traceback through --resume); fields of the wrong type were written into the record; and the
    # good rows before a bad one were written before it was found.
    path = tmp_path / "m.sqlite"
    with MatchRecord(path) as record:
        record.append_line({"type": "match", "players": ["A", "B"]}, {"score": [0, 0]}, "test")
    saved = unwritten_path(path)
    saved.write_text(text(), encoding="utf-8")
    with pytest.raises(RecordError) as refused:
        open_session(str(path), True, print)
    assert str(saved) in str(refused.value) and said in str(refused.value), str(refused.value)
    with MatchRecord(path) as record:
        assert len(record) == 1  # the record as it was
    assert saved.read_text(encoding="utf-8") == text()  # and the saved rows kept, to be mended


def test_good_saved_rows_are_still_written(tmp_path):
    path = tmp_path / "m.sqlite"
    with MatchRecord(path) as record:
        record.append_line({"type": "match", "players": ["A", "B"]}, {"score": [0, 0]}, "test")
    unwritten_path(path).write_text(
        _spoiled() + "\n" + _spoiled(kind="undo", line=None, retracts=2, seq=3) + "\n"
    )
    said: list[str] = []
    session = open_session(str(path), True, said.append)
    try:
        assert said[0].startswith("wrote 2 rows saved in") and len(session.record) == 3
        assert not unwritten_path(path).exists()
    finally:
        session.close()


MATCH = {"type": "match", "players": ["A", "B"]}
POT_RED = {"type": "stroke", "first_contact": ["red"], "potted": [{"ball": "red", "pocket": "top_left"}]}
QUICK = SessionConfig(retry_initial_s=0.01, retry_max_s=0.05, close_wait_s=2.0)
"""Retries fast enough for a test (s)."""

DELETIONS = [
    # (id, what is deleted while the record is in use)
    ("the_file", lambda path: path.unlink()),
    ("its_folder", lambda path: shutil.rmtree(path.parent)),
]


@pytest.mark.parametrize("delete", [c[1] for c in DELETIONS], ids=[c[0] for c in DELETIONS])
def test_a_record_deleted_in_use_is_written_back_with_every_row_even_with_its_folder(tmp_path, delete):
    # With its folder gone the write-back failed (unable to open database file), the rows kept in
    # memory could not be saved beside it either, and the rows the record held were lost with it.
    path = tmp_path / "match" / "m.sqlite"
    path.parent.mkdir()
    said: list[str] = []
    session = MatchSession(MatchRecord(path).open(), config=QUICK, report=said.append)
    session.apply(MATCH)
    delete(path)
    assert session.apply(POT_RED)["score"] == [1, 0]
    problems: list[str] = []
    close_session(session, problems)
    assert problems == [] and "written back with all its rows" in said[0], (problems, said)
    with MatchRecord(path) as record:
        assert [entry.line for entry in record.effective_lines()] == [MATCH, POT_RED]


def test_a_line_nested_too_deeply_is_refused_and_recorded_as_it_came(tmp_path):
    with MatchRecord(tmp_path / "m.sqlite") as record:
        session = MatchSession(record)
        session.apply(MATCH)
        assert "nested too deeply" in session.apply("[" * 100_000)["error"]
        assert len(record) == 2 and len(record.effective_lines()) == 1


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda path: None, "nothing to resume: match record {path} does not exist"),
        (
            lambda path: unwritten_path(path).write_bytes(b'{"seq": 2, "origin": "Zo\xe9"}\n'),
            "cannot read {saved}",
        ),
    ],
    ids=["record_missing", "saved_rows_not_utf8"],
)
def test_resuming_what_cannot_be_resumed_says_why(tmp_path, make, said):
    path = tmp_path / "m.sqlite"
    if "saved" in said:
        with MatchRecord(path) as record:
            record.append_line(MATCH, {"score": [0, 0]}, "test")
    make(path)
    with pytest.raises(RecordError) as refused:
        open_session(str(path), True, print)
    assert said.format(path=path, saved=unwritten_path(path)) in str(refused.value), str(refused.value)
