"""`snooker-referee replay`: readable calls, --json rulings, bad lines ruled (exit 1), missing file exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from snooker.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "demo_frame.jsonl"


def test_replay_prints_calls_and_scores_for_people(capsys):
    assert main(["replay", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    for call in ("FOUL AND A MISS", "FREE BALL", "SEVEN AWAY", "RE-SPOTTED BLACK", "FRAME TO BEN BAKER"):
        assert call in out
    assert len(out.splitlines()) == len(SAMPLE.read_text().splitlines()) + 1


def test_replay_json_prints_one_ruling_per_line_and_rules_on_after_a_bad_line(tmp_path, capsys):
    log = tmp_path / "frame.jsonl"
    lines = [
        json.dumps({"type": "match", "players": ["A", "B"], "best_of": 1, "breaker": 0}),
        "{broken",
        json.dumps({"type": "decision", "choice": "play"}),
        json.dumps({"type": "stroke", "first_contact": ["red"], "potted": ["red"], "cue_ball": "on_table"}),
    ]
    log.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(log), "--json"]) == 1  # lines were refused: said, and not a success
    rulings = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert len(rulings) == 4
    assert "error" in rulings[1] and "error" in rulings[2]
    assert rulings[3]["score"] == [1, 0] and rulings[3]["ball_on"] == "colour"
    for key in (
        "score",
        "striker",
        "ball_on",
        "reds",
        "points_remaining",
        "break",
        "foul",
        "penalty",
        "fouls",
    ):
        assert key in rulings[3]
    for key in ("miss", "free_ball", "options", "warning", "respotted", "frame_over", "winner", "frames"):
        assert key in rulings[3]
    assert "announcements" in rulings[3]


def test_missing_file_is_a_clear_error_with_exit_status_two(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such frame log" in capsys.readouterr().err


def test_replay_says_the_warning_is_in_force_only_once_given(tmp_path, capsys):
    """3.14(c): the offender is warned when the balls are replaced after the second miss ("jeśli
    zostanie nakazana gra z pozycji poprzedniej, faulujący musi być ostrzeżony"): while the next
    player still chooses, the text does not say a warning is in force; after the replacement it does."""
    miss = {"type": "stroke", "first_contact": [], "miss": True, "full_ball": True}
    replace = {"type": "decision", "choice": "replace"}
    match = {
        "type": "match",
        "schema": "snooker.log/1",
        "players": ["Ann", "Ben"],
        "best_of": 1,
        "breaker": 0,
    }
    log = tmp_path / "frame.jsonl"
    log.write_text("\n".join(json.dumps(line) for line in (match, miss, replace, miss, replace)) + "\n")
    assert main(["replay", str(log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    second_miss, replaced = lines[3], lines[4]
    assert "FOUL AND A MISS" in second_miss and "warning in force" not in second_miss
    assert "if the balls are replaced, the offender is warned" in second_miss
    assert "WARNING" in replaced and "warning in force" in replaced
