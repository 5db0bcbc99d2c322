"""CONTRACTS.md §2 as `snooker-referee replay --json` really prints it, on the shipped sample frame
(fouls, a foul and a miss, a free ball, touching ball, a re-spotted black, the frame's end): every
named field with its type and meaning on every line, and docs/FRAME_LOG.md's extra ruling fields
against what is printed. Bad lines: ``{"error": ...}`` and the state unchanged."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.cli import main
from snooker.referee import FoulReason

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "demo_frame.jsonl"
FRAME_LOG_DOC = REPO / "docs" / "FRAME_LOG.md"
BALL_ON = {"red", "colour", "yellow", "green", "brown", "blue", "pink", "black"}
CHOICES = {"play", "play_again", "replace"}
CODES = {reason.code for reason in FoulReason}


def _int(value: object) -> bool:
    return type(value) is int


def _pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_int(v) for v in value)


def _respotted(value: object) -> bool:
    def one(item: object) -> bool:
        if isinstance(item, str):
            return item in BALL_ON - {"red", "colour"}
        return isinstance(item, dict) and item.get("ball") in BALL_ON and len(item.get("position", [])) == 2

    return isinstance(value, list) and all(one(item) for item in value)


FIELDS = [
    ("score", _pair),
    ("striker", lambda v: v in (0, 1)),
    ("ball_on", lambda v: v in BALL_ON | {"none"}),  # "none": docs/FRAME_LOG.md, no ball left
    ("reds", lambda v: _int(v) and 0 <= v <= 6),
    ("points_remaining", lambda v: _int(v) and 0 <= v <= 6 * 8 + 27),
    ("break", lambda v: _int(v) and v >= 0),
    ("foul", lambda v: isinstance(v, bool)),
    ("penalty", lambda v: _int(v) and (v == 0 or 4 <= v <= 7)),
    ("fouls", lambda v: isinstance(v, list) and set(v) <= CODES),
    ("miss", lambda v: isinstance(v, bool)),
    ("free_ball", lambda v: isinstance(v, bool)),
    ("options", lambda v: isinstance(v, list) and set(v) <= CHOICES),
    ("warning", lambda v: isinstance(v, bool)),
    ("respotted", _respotted),
    ("frame_over", lambda v: isinstance(v, bool)),
    ("winner", lambda v: v is None or v in (0, 1)),
    ("frames", _pair),
    ("announcements", lambda v: isinstance(v, list) and all(isinstance(a, str) and a for a in v)),
]


def _replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    code = main(["replay", str(path), "--json"])
    captured = capsys.readouterr()
    return code, [json.loads(text) for text in captured.out.splitlines()], captured.err


@pytest.fixture
def rulings(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, printed, _ = _replay(SAMPLE, capsys)
    assert code == 0
    assert len(printed) == len(SAMPLE.read_text().splitlines())
    return printed


@pytest.mark.parametrize(("field", "valid"), FIELDS, ids=[f for f, _ in FIELDS])
def test_every_ruling_carries(rulings, field, valid):
    wrong = [(r["line"], r.get(field, "MISSING")) for r in rulings if field not in r or not valid(r[field])]
    assert not wrong


def test_a_fresh_six_red_frame_has_75_points_remaining_and_red_on(rulings):
    first = rulings[0]
    assert first["points_remaining"] == 6 * 8 + 2 + 3 + 4 + 5 + 6 + 7
    assert (first["reds"], first["ball_on"], first["score"], first["frames"]) == (6, "red", [0, 0], [0, 0])


def test_points_go_to_the_striker_and_penalties_to_the_opponent(rulings):
    """3.11: a foul scores the penalty to the opponent; otherwise points go to the striker."""
    for before, after in itertools.pairwise(rulings):
        gained = [a - b for a, b in zip(after["score"], before["score"], strict=True)]
        if after["foul"]:
            offender = after["offender"]
            assert gained[offender] == 0 and gained[1 - offender] == after["penalty"], after["line"]
        elif after["points"]:
            assert gained[before["striker"]] == after["points"] and sum(gained) == after["points"]


def test_foul_fields_agree(rulings):
    for r in rulings:
        assert r["foul"] == bool(r["fouls"]) == (r["penalty"] > 0), r["line"]
        if r["foul"]:
            assert any(a.startswith("FOUL") for a in r["announcements"]), r
        if r["miss"]:
            assert "FOUL AND A MISS" in r["announcements"] and r["foul"]
        if r["free_ball"] and r["foul"]:
            assert "FREE BALL" in r["announcements"]
        assert (r["winner"] is not None) == r["frame_over"]
        if r["ball_on"] == "none":
            assert r["frame_over"] and r["reds"] == 0 and r["colours"] == []


def test_the_sample_shows_each_named_announcement(rulings):
    said = {a for r in rulings for a in r["announcements"]}
    assert {"FOUL", "FREE BALL", "FOUL AND A MISS", "TOUCHING BALL", "SEVEN AWAY"} <= said
    last = rulings[-1]
    assert last["frame_over"] and last["winner"] == 1 and last["frames"] == [0, 1]


def test_options_are_open_only_after_a_foul_and_replace_only_after_a_miss(rulings):
    for r in rulings:
        if r["options"]:
            assert r["status"] == "decision" and "play" in r["options"]
        if "replace" in r["options"]:
            assert r["miss"]


def test_every_printed_field_is_named_by_the_contract_or_docs_frame_log(rulings):
    row = r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)?(?:, `([a-z_]+)`)?"
    documented = set(re.findall(row, _ruling_section(), re.M))
    extra = {name for group in documented for name in group if name}
    contract = {field for field, _ in FIELDS}
    printed = {key for r in rulings for key in r}
    assert printed <= contract | extra, printed - contract - extra
    assert extra - {"positions_ignored"} <= printed, extra - printed


def _ruling_section() -> str:
    text = FRAME_LOG_DOC.read_text()
    start = text.index("## Ruling fields beyond CONTRACTS.md §2")
    return text[start : text.index("\n## ", start + 1)]


BAD_LINES = [
    ("not_json", "{broken"),
    ("not_an_object", "[1, 2]"),
    ("unknown_type", json.dumps({"type": "shot"})),
    ("decision_with_none_open", json.dumps({"type": "decision", "choice": "play"})),
    ("unknown_ball", json.dumps({"type": "stroke", "first_contact": ["purple"]})),
]


@pytest.mark.parametrize("bad", [b for _, b in BAD_LINES], ids=[name for name, _ in BAD_LINES])
def test_a_bad_line_is_answered_with_an_error_and_changes_nothing(tmp_path, capsys, bad):
    lines = SAMPLE.read_text().splitlines()
    log = tmp_path / "frame.jsonl"
    log.write_text("\n".join([*lines[:3], bad, *lines[3:]]) + "\n")
    code, printed, err = _replay(log, capsys)
    assert code == 1
    assert err.strip() == f"snooker-referee replay: frame log {log} line 4: {printed[3]['error']}"
    error = printed[3]
    assert set(error) == {"error", "line"} and isinstance(error["error"], str) and error["error"]
    _, clean, _ = _replay(SAMPLE, capsys)

    def without_line(r: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in r.items() if k != "line"}

    assert [without_line(r) for r in printed[:3] + printed[4:]] == [without_line(r) for r in clean]


def test_respotted_colours_carry_their_spot_in_mm_where_positions_are_known(tmp_path, capsys):
    """3.7: a colour potted by a foul is re-spotted on its own spot; with positions the ruling says
    where, in table mm (the black spot: on the long axis, 324 mm from the top cushion)."""
    before = {"white": [900.0, 700.0], "black": list(STANDARD_TABLE.spots["black"]), "red-1": [800.0, 2000.0]}
    after = {"white": [900.0, 900.0], "red-1": [800.0, 2000.0]}
    lines = [
        {"type": "match", "players": ["A", "B"]},
        {"type": "stroke", "first_contact": ["black"], "potted": ["black"]},
        {"type": "decision", "choice": "play"},
        {
            "type": "stroke",
            "first_contact": ["black"],
            "potted": ["black"],
            "positions": {"before": before, "after": after},
        },
    ]
    log = tmp_path / "frame.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, printed, _ = _replay(log, capsys)
    assert code == 0
    assert printed[1]["respotted"] == ["black"]
    assert printed[3]["respotted"] == [{"ball": "black", "position": [889.0, 3245.0]}]


def test_line_is_the_line_of_the_file_blank_lines_counted(tmp_path, capsys):
    lines = SAMPLE.read_text().splitlines()
    log = tmp_path / "frame.jsonl"
    log.write_text("\n".join([lines[0], "", "   ", *lines[1:3]]) + "\n")
    code, printed, _ = _replay(log, capsys)
    assert code == 0
    assert [r["line"] for r in printed] == [1, 4, 5]
