"""Invariants over random frames (hypothesis): scores, points remaining, determinism."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snooker.referee import Referee, replay

COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
RAISES_POINTS_REMAINING = ("replace", "rerack", "new_frame")


def _on_balls(ruling: dict[str, Any]) -> list[str]:
    if ruling["ball_on"] == "red":
        return ["red"]
    if ruling["ball_on"] == "colour":
        return list(ruling["colours"])
    return [ruling["ball_on"]]


def _not_on(ruling: dict[str, Any]) -> list[str]:
    on = set(_on_balls(ruling))
    balls = (["red"] if ruling["reds"] else []) + list(ruling["colours"])
    return [b for b in balls if b not in on]


@st.composite
def frame_logs(draw) -> list[dict[str, Any]]:
    """A plausible log: legal pots, safeties, fouls of every kind, decisions, nominations."""
    reds = draw(st.sampled_from([6, 10, 15]))
    lines: list[dict[str, Any]] = [
        {"type": "match", "players": ["A", "B"], "best_of": 3, "breaker": 0, "reds": reds}
    ]
    referee = Referee()
    ruling = referee.apply(lines[0])
    for _ in range(draw(st.integers(1, 90))):
        if ruling.get("match_over"):
            break
        if ruling["frame_over"]:
            line: dict[str, Any] = {"type": "new_frame"}
        else:
            line = _draw_line(draw, ruling)
        result = referee.apply(line)
        lines.append(line)
        if "error" not in result:
            ruling = result
    return lines


def _draw_line(draw, ruling: dict[str, Any]) -> dict[str, Any]:
    if ruling["options"] and draw(st.booleans()):
        return {"type": "decision", "choice": draw(st.sampled_from(ruling["options"]))}
    on = _on_balls(ruling)
    not_on = _not_on(ruling)
    kind = draw(
        st.sampled_from(
            [
                "pot",
                "pot",
                "pot",
                "safe",
                "wrong_first",
                "miss_all",
                "in_off",
                "pot_wrong",
                "foul_line",
                "rare",
            ]
        )
    )
    stroke: dict[str, Any] = {"type": "stroke", "first_contact": [], "potted": [], "cue_ball": "on_table"}
    flags = draw(
        st.fixed_dictionaries({}, optional={"free_ball": st.booleans(), "clear_path": st.booleans()})
    )
    if kind == "pot" and on:
        ball = draw(st.sampled_from(on))
        count = 2 if ball == "red" and ruling["reds"] >= 2 and draw(st.booleans()) else 1
        stroke.update(first_contact=[ball], potted=[ball] * count)
    elif kind == "safe" and on:
        stroke.update(first_contact=[draw(st.sampled_from(on))])
    elif kind == "wrong_first" and not_on:
        stroke.update(first_contact=[draw(st.sampled_from(not_on))], **flags)
    elif kind == "miss_all":
        stroke.update(**flags)
    elif kind == "in_off" and on:
        stroke.update(
            first_contact=[draw(st.sampled_from(on))], cue_ball=draw(st.sampled_from(["potted", "off_table"]))
        )
    elif kind == "pot_wrong" and on and not_on:
        stroke.update(first_contact=[draw(st.sampled_from(on))], potted=[draw(st.sampled_from(not_on))])
    elif kind == "foul_line":
        return {
            "type": "foul",
            "reason": draw(st.sampled_from(["touched_ball", "push_stroke", "measured_gap"])),
        }
    elif kind == "rare":
        return draw(
            st.sampled_from(
                [
                    {"type": "rerack"},
                    {"type": "concede"},
                    {"type": "edge_fall", "ball": "black"},
                    {"type": "ball_moved", "ball": "white"},
                    {"type": "respotted_black", "first": 1},
                ]
            )
        )
    return stroke


def _pairs(lines):
    rulings = replay(lines)
    previous = None
    for line, ruling in zip(lines, rulings, strict=True):
        if "error" in ruling:
            continue
        yield previous, line, ruling
        previous = ruling


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(frame_logs())
def test_scores_never_fall_within_a_frame_and_a_legal_pot_adds_its_points(lines):
    for previous, line, ruling in _pairs(lines):
        if previous is None or previous["frame"] != ruling["frame"] or line["type"] == "rerack":
            continue
        assert ruling["score"][0] >= previous["score"][0]
        assert ruling["score"][1] >= previous["score"][1]
        if line["type"] == "stroke" and not ruling["foul"] and ruling["points"]:
            gained = [ruling["score"][i] - previous["score"][i] for i in (0, 1)]
            assert sorted(gained) == [0, ruling["points"]]
        if ruling["foul"]:
            assert 4 <= ruling["penalty"] <= 7
            assert sum(ruling["score"]) - sum(previous["score"]) == ruling["penalty"]


@SETTINGS
@given(frame_logs())
def test_points_remaining_never_rise_within_a_frame_except_by_a_free_ball(lines):
    for previous, line, ruling in _pairs(lines):
        if previous is None or previous["frame"] != ruling["frame"]:
            continue
        if line["type"] in RAISES_POINTS_REMAINING or line.get("choice") in RAISES_POINTS_REMAINING:
            continue
        if ruling["free_ball"] and not previous["free_ball"]:
            continue
        assert ruling["points_remaining"] <= previous["points_remaining"], (line, previous, ruling)


@SETTINGS
@given(frame_logs())
def test_replaying_a_log_twice_gives_identical_rulings(lines):
    assert replay(lines) == replay(lines)


COORD_X = st.floats(min_value=-50.0, max_value=1830.0, allow_nan=False)
COORD_Y = st.floats(min_value=-50.0, max_value=3620.0, allow_nan=False)


@st.composite
def positioned_strokes(draw) -> list[dict[str, Any]]:
    """Strokes with arbitrary (even impossible) positions: the referee rules or refuses, never crashes."""
    ids = ["white", "red-1", "red-2", "yellow", "blue", "pink", "black"]
    lines: list[dict[str, Any]] = [{"type": "match", "players": ["A", "B"], "best_of": 1, "breaker": 0}]
    for _ in range(draw(st.integers(1, 8))):
        present = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=len(ids), unique=True))
        before = {b: [draw(COORD_X), draw(COORD_Y)] for b in present}
        after = {b: [draw(COORD_X), draw(COORD_Y)] for b in present}
        lines.append(
            {
                "type": "stroke",
                "first_contact": draw(st.lists(st.sampled_from(["red", "pink", "blue"]), max_size=2)),
                "potted": draw(st.lists(st.sampled_from(["red", "black"]), max_size=1)),
                "cue_ball": draw(st.sampled_from(["on_table", "potted"])),
                "positions": {"before": before, "after": after},
            }
        )
        if draw(st.booleans()):
            lines.append(
                {"type": "decision", "choice": draw(st.sampled_from(["play", "play_again", "replace"]))}
            )
    return lines


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positioned_strokes())
def test_arbitrary_positions_are_ruled_or_refused_never_a_crash(lines):
    for ruling in replay(lines):
        assert isinstance(ruling, dict)
        assert "error" in ruling or "score" in ruling
