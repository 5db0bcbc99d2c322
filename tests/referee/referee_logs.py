"""Small builders of frame-log lines for the referee tests (plain dicts, CONTRACTS.md §1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee, RefereeConfig

Line = dict[str, Any]

COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
"""The colours in ascending value."""
SPOTS = {name: [x, y] for name, (x, y) in STANDARD_TABLE.spots.items()}
"""Each colour's spot, table mm, as a log writes a place."""
CX = STANDARD_TABLE.centre_x_mm
"""The table's long axis, table mm."""


def match(players: int = 2, **extra: Any) -> Line:
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    return {"type": "match", "schema": "snooker.log/1", "players": names, "best_of": 1, "breaker": 0, **extra}


def stroke(first: list[str] | None = None, potted: list[Any] | None = None, **extra: Any) -> Line:
    line: Line = {"type": "stroke", "first_contact": list(first or []), "potted": list(potted or [])}
    line.update(extra)
    return line


def pot(ball: str, **extra: Any) -> Line:
    """A clean pot of ``ball`` (hit it first, pot it)."""
    return stroke([ball], [ball], **extra)


def safe(ball: str, **extra: Any) -> Line:
    """A stroke that hits ``ball`` first and pots nothing."""
    return stroke([ball], [], **extra)


def table(**fields: Any) -> Line:
    """A ``table`` line: the log joins a frame in play (as ``analyze`` writes one)."""
    return {"type": "table", **fields}


def at(before: dict[str, list[float]] | None, after: dict[str, list[float]] | None) -> dict[str, Any]:
    """``positions`` of a stroke (mm), leaving out an unknown side."""
    positions: dict[str, Any] = {}
    if before is not None:
        positions["before"] = before
    if after is not None:
        positions["after"] = after
    return positions


def row(rule_: str, name: str, lines: list[Any], expected: dict[str, Any]) -> Any:
    """One checklist row of an audit: the log and the expected fields of its last ruling."""
    return pytest.param(lines, expected, id=f"{rule_} {name}")


def decision(choice: str) -> Line:
    return {"type": "decision", "choice": choice}


def nominate(ball: str) -> Line:
    return {"type": "nominate", "ball": ball}


def foul(reason: str, ball: str | None = None, **extra: Any) -> Line:
    """A ``foul`` line called by the referee (``reason`` a code), on ``ball`` where given."""
    line: Line = {"type": "foul", "reason": reason, **extra}
    if ball is not None:
        line["ball"] = ball
    return line


def lot(first: int) -> Line:
    """The re-spotted black's lot: player ``first`` plays first."""
    return {"type": "respotted_black", "first": first}


def clear_reds(reds: int, colour: str = "black") -> list[Line]:
    """Pot every red, each followed by ``colour`` (one break)."""
    lines: list[Line] = []
    for _ in range(reds):
        lines += [pot("red"), pot(colour)]
    return lines


def to_colours(reds: int = 6) -> list[Line]:
    """A ``reds``-red match where the breaker clears the reds with blacks: yellow is next on."""
    return [match(reds=reds), *clear_reds(reds)]


def rule(lines: list[Line | str], config: RefereeConfig | None = None) -> list[dict[str, Any]]:
    referee = Referee(config)
    return [referee.apply(line) for line in lines]


def last(lines: list[Line | str], config: RefereeConfig | None = None) -> dict[str, Any]:
    return rule(lines, config)[-1]


def referee_after(lines: list[Line | str], config: RefereeConfig | None = None) -> Referee:
    referee = Referee(config)
    for line in lines:
        referee.apply(line)
    return referee


def assert_last_ruling(
    lines: list[Line | str], expected: dict[str, Any], required_fields: tuple[str, ...] = ()
) -> None:
    """Every set-up line is accepted and the last ruling has the ``expected`` fields (and, when it is
    not an error, all of ``required_fields``)."""
    rulings = rule(lines)
    for number, ruling in enumerate(rulings[:-1]):
        assert "error" not in ruling, f"set-up line {number} refused: {ruling}"
    ruling = rulings[-1]
    if "error" not in expected:
        assert "error" not in ruling, ruling
        for field in required_fields:
            assert field in ruling
    got = {field: ruling.get(field) for field in expected}
    assert got == expected


def over_checklist(checklist: Sequence[tuple[Any, ...]]) -> pytest.MarkDecorator:
    """Parametrize a test over an audit's rows (rule, name, lines, expected fields of the last
    ruling) as ``lines`` and ``expected``, each row named by its rule and name."""
    return pytest.mark.parametrize(
        ("lines", "expected"),
        [case[2:] for case in checklist],
        ids=[f"{case[0]} {case[1]}" for case in checklist],
    )


def assert_rows_distinct(rows: Sequence[tuple[Any, ...]]) -> None:
    """An audit's rows (clause, name, lines, expected) are each their own situation: no two share
    the same log."""
    logs = [repr(lines) for _, _, lines, _ in rows]
    assert len(logs) == len(set(logs))


def assert_rows_cite_clauses(rows: Sequence[tuple[Any, ...]]) -> None:
    """Every audit row cites the Section 3 clause its expectation is worked from."""
    assert all(clause.startswith("3.") for clause, *_ in rows)
