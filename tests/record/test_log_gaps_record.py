"""The console and the match record carry the new log lines: a foul condoned (3.11(c)), a spotting
error (3.7), a match conceded (1(F)-(G)). Each row is console commands and camera strokes through one
:class:`MatchSession` on a real record, then a restart (a new session on the same database, resumed)
that must come back to the same scoreboard. Every row failed before these lines existed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_console_camera_interleavings import cam

from snooker.broadcast.console import execute, to_action
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord

MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["Ann", "Bob"], "best_of": 5, "breaker": 0}


ROWS = [
    # Ann hits the blue first (on a red): the camera's referee calls FOUL; the human referee did
    # not, and Bob played on. The console's condone rules it as no foul: nothing scored, Bob to play.
    (
        "condone the last stroke's foul",
        [("cam", cam(["blue"])), ("con", {"command": "condone"})],
        {"score": [0, 0], "striker": 1, "status": "in_play", "options": [], "last_foul": None},
        {"ok": True},
    ),
    # A red potted after hitting the pink first, condoned: Ann's red, her break goes on.
    (
        "condoned stroke keeps the break",
        [("cam", cam(["pink"], ("red",))), ("con", {"command": "condone"})],
        {"score": [1, 0], "striker": 0, "break": 1, "ball_on": "colour"},
        {"ok": True},
    ),
    # Nothing to condone: the stroke broke no rule; the referee refuses and the stroke stands.
    (
        "condone a fair stroke is refused",
        [("cam", cam(["red"], ("red",))), ("con", {"command": "condone"})],
        {"score": [1, 0], "striker": 0},
        {"rejected_by": "referee"},
    ),
    # The last line is not a stroke: the console refuses (nothing is amended).
    (
        "condone with no stroke last is refused",
        [
            ("cam", cam(["blue"])),
            ("con", {"command": "decision", "choice": "play"}),
            ("con", {"command": "condone"}),
        ],
        {"score": [0, 5], "striker": 1},
        {
            "rejected_by": "console",
            "error": "condone: the last line is not a stroke (condone the stroke whose foul was not called)",
        },
    ),
    # Bob concedes the match in frame 1 at 1-0 down in the frame: 3-0, the match Ann's.
    (
        "concede the match",
        [("cam", cam(["red"], ("red",))), ("con", {"command": "concede", "player": 1, "match": True})],
        {
            "frames": [3, 0],
            "match_over": True,
            "match_winner": 0,
            "status": "match_over",
            "match_conceded": {"player": 1, "side": 1, "frames_awarded": 2},
        },
        {"ok": True},
    ),
    # The pink left off the table by the referee (typed as a line), then found and spotted.
    (
        "spotting error and its correction",
        [
            ("cam", cam(["red"], ("red",))),
            ("cam", cam(["pink"], ("pink",))),
            (
                "con",
                {"command": "line", "line": {"type": "spot_error", "ball": "pink", "error": "not_spotted"}},
            ),
            (
                "con",
                {
                    "command": "line",
                    "line": {"type": "spot_error", "ball": "pink", "error": "not_spotted", "corrected": True},
                },
            ),
        ],
        {"score": [7, 0], "not_spotted": [], "striker": 0},
        {"ok": True},
    ),
    (
        "a colour left off the table is on the scoreboard",
        [
            ("cam", cam(["red"], ("red",))),
            ("cam", cam(["pink"], ("pink",))),
            (
                "con",
                {"command": "line", "line": {"type": "spot_error", "ball": "pink", "error": "not_spotted"}},
            ),
        ],
        {"not_spotted": ["pink"], "wrongly_spotted": []},
        {"ok": True},
    ),
]


@pytest.mark.parametrize(("steps", "board", "answer"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_console_and_record_carry_the_new_lines(tmp_path: Path, steps, board, answer):
    path = tmp_path / "match.sqlite"
    session = MatchSession(MatchRecord(path).open())
    session.apply(MATCH, origin="live")
    last: dict[str, Any] = {}
    for kind, step in steps:
        last = session.apply(step, origin="tracker") if kind == "cam" else execute(session, step)
    for key, value in answer.items():
        assert last.get(key) == value, last
    scoreboard = session.scoreboard()
    assert {key: scoreboard.get(key) for key in board} == board
    lines = session.applied_lines
    session.record.close()
    resumed = MatchSession(MatchRecord(path).open())
    report = resumed.resume()
    try:
        assert report.mismatches == []
        assert resumed.scoreboard() == scoreboard
        assert resumed.applied_lines == lines
    finally:
        resumed.record.close()


@pytest.mark.parametrize(
    ("command", "action"),
    [
        ({"command": "concede", "match": True}, ("apply", {"type": "concede", "match": True})),
        (
            {"command": "concede", "player": 1, "match": True},
            ("apply", {"type": "concede", "player": 1, "match": True}),
        ),
        ({"command": "condone"}, ("condone", None)),
    ],
    ids=["concede_match", "concede_match_player", "condone"],
)
def test_console_commands_for_the_new_lines(command, action):
    got = to_action(command)
    assert (got.kind, got.line) == action


def test_a_frame_concession_is_as_before():
    """A guard (it passed before too): ``match`` false is the frame's concession, the line unchanged."""
    got = to_action({"command": "concede", "match": False})
    assert (got.kind, got.line) == ("apply", {"type": "concede"})


def test_console_refuses_a_malformed_match_flag():
    from snooker.broadcast.console import CommandError

    with pytest.raises(CommandError, match="match must be true or false"):
        to_action({"command": "concede", "match": "yes"})
