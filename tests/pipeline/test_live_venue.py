"""A venue runs several tables in one process (DESIGN.md: no global mutable state).

Two live tables, each with its own camera (a shared Task2 clip read as a live file source), detector,
referee, SQLite record and feed publisher, run at once on two threads of one process: each table's
record holds exactly what the same table records running alone, and each feed carries only its own
table. Skips where ../shared/data is absent.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from snooker.broadcast.feed import FeedPublisher, FeedSubscriber
from snooker.datasets.shared import bucharest_training
from snooker.pipeline.live import LiveTable, LiveTableConfig
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord
from snooker.vision.sources import LiveConfig, VideoFileSource

DATA = bucharest_training("Task2")
CLIPS = {"table-1": 3, "table-2": 12}
"""Each table's camera: a Task2 clip with a pot (clip 3 a far black into a top pocket, 12 a red)."""
MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["Ann", "Bob"], "best_of": 1, "breaker": 0}
EVERY_FRAME = LiveTableConfig(
    frames=LiveConfig(pace_files=False, drop_when_full=False),
    rule_truncated_strokes=True,  # the clips end as the balls still roll: their strokes are ruled
)
JOIN_S = 60.0
"""How long a table's thread may take (s)."""

pytestmark = pytest.mark.footage


def _run_table(table_id: str, record_path: Path, endpoint: str = "tcp://127.0.0.1:*") -> dict[str, Any]:
    """One table's live run: what its record holds, its status, and what its feed published."""
    from snooker.vision.detector import make_detector

    with MatchRecord(record_path) as record, FeedPublisher(endpoint, table_id) as publisher:
        session = MatchSession(record)
        session.add_listener(publisher.on_change)
        session.apply(MATCH, origin="live")
        table = LiveTable(
            session, make_detector("classic"), view=None, config=EVERY_FRAME, report=lambda _: None
        )
        status = table.run(VideoFileSource(DATA / f"{CLIPS[table_id]}.mp4"))
        rows = [(entry.origin, entry.kind, entry.line, entry.ruling) for entry in record.entries()]
        return {"rows": rows, "frames": status.frames_processed, "score": session.scoreboard()["score"]}


@pytest.fixture(scope="module")
def alone(tmp_path_factory) -> dict[str, dict[str, Any]]:
    if not DATA.is_dir():
        pytest.skip(f"shared footage not found at {DATA}")
    folder = tmp_path_factory.mktemp("alone")
    return {table_id: _run_table(table_id, folder / f"{table_id}.sqlite") for table_id in CLIPS}


def test_tables_run_at_once_in_one_process_record_what_each_records_alone(alone, tmp_path: Path):
    assert all(run["score"] != [0, 0] for run in alone.values())  # each table ruled a pot
    ports = {table_id: _free_endpoint() for table_id in CLIPS}
    together: dict[str, dict[str, Any]] = {}
    heard: dict[str, set[str]] = {table_id: set() for table_id in CLIPS}
    stop_listening = threading.Event()

    def listen(table_id: str) -> None:
        with FeedSubscriber(ports[table_id]) as subscriber:
            while not stop_listening.is_set():
                message = subscriber.receive(0.1)
                if message is not None and message.error is None:
                    heard[table_id].add(message.table)

    def run(table_id: str) -> None:
        together[table_id] = _run_table(table_id, tmp_path / f"{table_id}.sqlite", ports[table_id])

    listeners = [threading.Thread(target=listen, args=(t,)) for t in CLIPS]
    for listener in listeners:
        listener.start()
    tables = [threading.Thread(target=run, args=(t,)) for t in CLIPS]
    for thread in tables:
        thread.start()
    for thread in tables:
        thread.join(JOIN_S)
    stop_listening.set()
    for listener in listeners:
        listener.join(JOIN_S)
    assert not any(thread.is_alive() for thread in tables)
    assert together == alone
    for table_id in CLIPS:
        assert heard[table_id] == {table_id}  # each feed carries its own table, and only it


def _free_endpoint() -> str:
    """A TCP endpoint on 127.0.0.1 with a port free now (ZeroMQ picks it, then lets it go)."""
    probe = FeedPublisher("tcp://127.0.0.1:*", "probe").start()
    endpoint = probe.bound_endpoint
    probe.close()
    return endpoint
