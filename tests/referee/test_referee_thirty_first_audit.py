"""The thirty-first audit: metamorphic relations (test_referee_metamorphic.py). The rows below are
the relations that failed, each at its smallest.

A JSON object is unordered (RFC 8259: "An object is an unordered collection of zero or more
name/value pairs"), and CONTRACTS.md §1 gives ``positions`` as objects of ball id → place: the same
stroke written with its keys in another order is the same stroke, and its ruling must be the same.
The cue ball resting against two balls equally near (a tracker rounds places to 0.1 mm, so equal
distances are common) was named in the order the log listed them, so ``touching`` (the ruling's
and the scoreboard's) changed with the key order. 3.8(A) ("sędzia ogłasza bilę dotykaną (DOTYK) i
wskazuje, którą bilę lub bile dotyka bila biała") names the balls touching, not an order, and the
geometry's "nearest first" says nothing of two as near: equally near balls are now named in the
order of their names.

The match record stores each line with its keys sorted (``snooker.record.store``), so the fault
showed on ``--resume`` too: the stroke replayed from the record named the balls in another order,
the resume reported its own stored ruling as differing ("rulings differ today on rows [...]") and
the scoreboard after the restart was not the one before it.
"""

from __future__ import annotations

import json

import pytest

from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord
from snooker.referee import Referee
from snooker.referee import geometry as geo

SPOTS = {
    "yellow": [1181.0, 737.0],
    "green": [597.0, 737.0],
    "brown": [889.0, 737.0],
    "blue": [889.0, 1784.5],
    "pink": [889.0, 2676.75],
    "black": [889.0, 3245.0],
}


def _touching_after(after: dict[str, list[float]], ball_on: str = "red") -> tuple[list[str], list[str]]:
    """The ruling's and the scoreboard's ``touching`` after a safety that leaves the places
    ``after`` (written to the referee as JSON text, keys in the order given)."""
    referee = Referee()
    referee.apply({"type": "match", "players": ["A", "B"], "best_of": 1, "breaker": 0, "reds": 6})
    referee.apply(
        {"type": "table", "reds": 3, "colours": list(SPOTS), "ball_on": "red", "score": [0, 0], "striker": 0}
    )
    stroke = {
        "type": "stroke",
        "first_contact": ["red"],
        "potted": [],
        "cue_ball": "on_table",
        "positions": {"after": after},
    }
    ruling = referee.apply(json.dumps(stroke))
    assert "error" not in ruling, ruling
    return ruling["touching"], referee.scoreboard()["touching"]


EQUALLY_NEAR = {
    "white": [800.0, 1500.0],
    "red-1": [800.0, 1552.8],
    "red-3": [852.8, 1500.0],
    "red-2": [300.0, 300.0],
    **SPOTS,
}
"""The cue ball 52.8 mm from two reds (touching within the 1 mm tolerance), equally near."""


@pytest.mark.parametrize(
    "order",
    [
        pytest.param(list(EQUALLY_NEAR), id="as-written"),
        pytest.param(list(reversed(EQUALLY_NEAR)), id="keys-reversed"),
        pytest.param(
            ["red-3", "white", "red-1", *[k for k in EQUALLY_NEAR if k not in ("red-3", "white", "red-1")]],
            id="keys-shuffled",
        ),
    ],
)
def test_balls_equally_near_are_named_the_same_whatever_the_key_order(order):
    ruling, board = _touching_after({k: EQUALLY_NEAR[k] for k in order})
    assert ruling == ["red-1", "red-3"]
    assert board == ["red-1", "red-3"]


def test_the_nearer_ball_is_still_named_first():
    """Not equally near: nearest first, as before (red-3 at 53.0 mm, red-1 at 52.8 mm)."""
    after = {**EQUALLY_NEAR, "red-3": [853.0, 1500.0]}
    for order in (list(after), list(reversed(after))):
        ruling, _ = _touching_after({k: after[k] for k in order})
        assert ruling == ["red-1", "red-3"]
    after = {**EQUALLY_NEAR, "red-1": [800.0, 1553.0]}
    for order in (list(after), list(reversed(after))):
        ruling, _ = _touching_after({k: after[k] for k in order})
        assert ruling == ["red-3", "red-1"]


def test_geometry_touching_orders_equal_distances_by_name_and_mirrors_alike():
    """The geometry itself: equal distances (also as a mirror image computes them, which may differ
    in the last bit) give the names in order; the mirror (x → width − x) names the same balls."""
    cue = (800.0, 1500.0)
    balls = {"red-9": (800.0, 1552.8), "red-10": (852.8, 1500.0), "blue": (747.2, 1500.0)}
    assert geo.touching(cue, balls) == ["blue", "red-10", "red-9"]
    assert geo.touching(cue, dict(reversed(balls.items()))) == ["blue", "red-10", "red-9"]
    width = 1778.0
    mirrored = {k: (width - x, y) for k, (x, y) in balls.items()}
    assert geo.touching((width - cue[0], cue[1]), mirrored) == ["blue", "red-10", "red-9"]


def test_a_record_resumed_rules_the_touching_balls_as_before(tmp_path):
    """Through the match record: the stroke written with ``white`` and ``red-3`` before ``red-1``
    (the record stores the keys sorted), resumed, is ruled as it was live."""
    path = tmp_path / "match.sqlite"
    after = {k: EQUALLY_NEAR[k] for k in ["white", "red-3", "red-2", "red-1", *SPOTS]}
    lines = [
        {"type": "match", "players": ["A", "B"], "best_of": 1, "breaker": 0, "reds": 6},
        {"type": "table", "reds": 3, "colours": list(SPOTS), "ball_on": "red", "score": [0, 0], "striker": 0},
        {
            "type": "stroke",
            "first_contact": ["red"],
            "potted": [],
            "cue_ball": "on_table",
            "positions": {"after": after},
        },
    ]
    live = MatchSession(MatchRecord(path).open())
    rulings = [live.apply(line, origin="test") for line in lines]
    board = live.scoreboard()
    live.close()
    resumed = MatchSession(MatchRecord(path).open())
    found = resumed.resume()
    assert found.mismatches == []
    assert resumed.scoreboard() == board
    assert rulings[-1]["touching"] == ["red-1", "red-3"]
    resumed.close()
