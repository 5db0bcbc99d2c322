"""Golden frame logs: whole frames whose expected outcome is in the file name.

Each line of a golden log may carry an ``expect`` object (ignored by the referee): the fields of
that line's ruling, written by hand from the rules. The name ends ``__winner-<side>_<a>-<b>``: the
frame's winner and final score.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from snooker.referee import replay

GOLDEN = Path(__file__).resolve().parent / "golden"
LOGS = sorted(GOLDEN.glob("*.jsonl"))
NAME = re.compile(r"__winner-(?P<winner>\d)_(?P<a>\d+)-(?P<b>\d+)")


def test_there_are_golden_logs():
    assert len(LOGS) >= 3


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_golden_log(path):
    lines = [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
    rulings = replay(lines)
    checked = 0
    for number, (line, ruling) in enumerate(zip(lines, rulings, strict=True), start=1):
        assert "error" not in ruling, f"line {number}: {ruling}"
        for key, expected in line.get("expect", {}).items():
            assert ruling[key] == expected, f"line {number} {key}: {ruling[key]!r} != {expected!r}"
            checked += 1
    assert checked >= len(lines)
    outcome = NAME.search(path.stem)
    assert outcome is not None, "the outcome belongs in the file name"
    final_frame = [r for r in rulings if r["frame"] == 1][-1]
    assert final_frame["winner"] == int(outcome["winner"])
    assert final_frame["score"] == [int(outcome["a"]), int(outcome["b"])]


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_replaying_a_golden_log_twice_gives_identical_rulings(path):
    lines = path.read_text().splitlines()
    assert replay(lines) == replay(lines)
