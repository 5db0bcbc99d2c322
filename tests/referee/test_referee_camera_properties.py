"""Invariants over random CAMERA-STYLE logs (hypothesis): what the referee must never do, whatever a
tracker writes.

A camera's log (``snooker.tracker.types.StrokeEvents.to_log_line``) is a match line, perhaps a
``table`` line joining a frame in play, then strokes only: ``first_contact``, ``potted`` (with
pockets), ``off_table``, ``cue_ball``, ``touching``, ``positions`` before and after (table mm, reds by
id), ``position_tolerance_mm`` and the tracker's flags (``unwatched_s``, ``strike_unseen``,
``truncated``, ``moving_at_strike``). No nomination, decision, lot or ``new_frame`` line.

The strategy draws MOSTLY plausible strokes (it follows the referee as it goes, so the balls named
are mostly on the table and the positions mostly inside it) and, now and then, an odd one: a ball not
on the table, a ball named twice, places off the cloth, NaN / infinite / string coordinates, a
negative tolerance, a potted ball still placed after, a cue ball potted yet placed after, empty or
missing lists. Each line carries what the log itself promises about it (``Expect``): a line that is
malformed whatever the state must be refused, and a refusal of a line with one known fault must
name that field.

Properties (CONTRACTS.md §1-§2, docs/FRAME_LOG.md):

- ``apply`` never raises; every line gets a ruling or ``{"error", "line"}``; a ruling is strict JSON;
- a refused line changes nothing (the same state object, the same scoreboard), so the log with its
  refused lines dropped is ruled the same;
- per line: a foul's penalty is 4-7 and goes to the offender's opponent, a fair stroke's points (the
  values of the balls ``scored``) to the striker; scores never fall within a frame;
- reds never rise (except when balls are replaced after a miss), never go below 0 or above the rack;
  a stroke takes off exactly the reds it pots or forces off; colours are the highest ones, all six
  while reds remain, and never come back except by a replacement or the re-spotted black;
- the ball on, the points remaining and the snookers required agree with the reds and colours left;
- the camera's flags: an unseen contact is no foul for missing every ball and no miss; a ball still
  running at the strike is ``balls_moving``; a cue ball potted or off the table is a foul, in hand;
- a frame over names the leader as winner (unless awarded after three misses, or the score unknown),
  and every later stroke is refused (a camera writes no ``new_frame``);
- replaying a log twice, or as JSON text, gives identical rulings.

Deterministic in CI (``derandomize``; see test_referee_fourteenth_audit on why a run of a
folder sees other examples). To hunt: ``CAMERA_PROPERTY_HUNT=1
CAMERA_PROPERTY_EXAMPLES=2000 pytest tests/referee/test_referee_camera_properties.py
--hypothesis-seed=N``.

Faults these properties found are kept below as explicit logs (each fixed since): a place far off
the cloth reached scipy's hull and crashed ``apply``; a coordinate too large for a float raised
``OverflowError``; a non-finite place after a stroke, or in a ``table`` line, was kept and made every
later stroke that consults the places refused.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_logs import match
from test_referee_audit import CONTRACT_FIELDS

from snooker.balls import BALL_VALUES, COLOURS, POCKET_NAMES
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee, replay

WIDTH, LENGTH = STANDARD_TABLE.width_mm, STANDARD_TABLE.length_mm
D_CX, D_CY, D_R = WIDTH / 2.0, STANDARD_TABLE.baulk_line_from_baulk_cushion_mm, STANDARD_TABLE.d_radius_mm
SPOTS = {c: [round(x, 1), round(y, 1)] for c, (x, y) in STANDARD_TABLE.spots.items()}
ALL_COLOURS = list(COLOURS)
BAD_NUMBERS = [math.nan, math.inf, -math.inf]
REPLACED = "BALLS REPLACED"
RESPOTTED_BLACK = "RE-SPOTTED BLACK"

HUNT = bool(os.environ.get("CAMERA_PROPERTY_HUNT"))
SETTINGS = settings(
    max_examples=int(os.environ.get("CAMERA_PROPERTY_EXAMPLES", "40")),
    deadline=None,
    derandomize=not HUNT,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Expect:
    """What a line promises whatever the state: ``refuse`` (malformed: must be refused) and
    ``field`` (the one field at fault: a refusal must name it)."""

    refuse: bool = False
    field: str | None = None
    plausible: bool = False
    """A stroke drawn from the table as the referee holds it, nothing odd: never refused in play."""


Log = tuple[list[Any], list[Expect]]


# --- drawing plausible places ---------------------------------------------------------------------


def _mm(draw, low: float, high: float) -> float:
    return draw(st.integers(int(low * 10), int(high * 10))) / 10.0


def _on_cloth(draw) -> list[float]:
    return [_mm(draw, 30.0, WIDTH - 30.0), _mm(draw, 30.0, LENGTH - 30.0)]


def _in_d(draw) -> list[float]:
    angle = draw(st.integers(0, 180)) * math.pi / 180.0
    radius = draw(st.integers(0, int(D_R) - 5))
    return [round(D_CX + radius * math.cos(angle), 1), round(D_CY - radius * math.sin(angle), 1)]


class _Table:
    """The generator's picture of the table: ball id -> place (mm), kept in step with the rulings."""

    def __init__(self) -> None:
        self.places: dict[str, list[float]] = {}
        self.before_miss: dict[str, list[float]] = {}

    def sync(self, draw, ruling: dict[str, Any]) -> None:
        reds = [b for b in self.places if b.startswith("red-")]
        for extra in reds[ruling["reds"] :]:
            del self.places[extra]
        n = 1
        while sum(1 for b in self.places if b.startswith("red-")) < ruling["reds"]:
            while f"red-{n}" in self.places:
                n += 1
            self.places[f"red-{n}"] = _on_cloth(draw)
        for colour in ALL_COLOURS:
            if colour not in ruling["colours"]:
                self.places.pop(colour, None)
            elif colour not in self.places:
                self.places[colour] = list(SPOTS[colour])
        for item in ruling.get("respotted", []):
            if isinstance(item, dict) and all(math.isfinite(v) for v in item["position"]):
                self.places[item["ball"]] = list(item["position"])
        if ruling["in_hand"]:
            self.places.pop("white", None)
        elif "white" not in self.places:
            self.places["white"] = _on_cloth(draw)


# --- the ball on, as a ruling says --------------------------------------------------------------


def _on(ruling: dict[str, Any]) -> list[str]:
    on = ruling["ball_on"]
    if on == "red":
        return ["red"]
    if on == "colour":
        return list(ruling["colours"])
    if on == "either":
        return (["red"] if ruling["reds"] else []) + list(ruling["colours"])
    if on == "none":
        return []
    return [on]


def _balls_on_table(ruling: dict[str, Any]) -> list[str]:
    return (["red"] if ruling["reds"] else []) + list(ruling["colours"])


def _not_on_table(ruling: dict[str, Any]) -> list[str]:
    gone = [c for c in ALL_COLOURS if c not in ruling["colours"]]
    return gone + ([] if ruling["reds"] else ["red"])


# --- lines ---------------------------------------------------------------------------------------


def _match_line(draw) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "match", "schema": "snooker.log/1", "players": ["Ann", "Ben"]}
    line["best_of"] = draw(st.sampled_from([1, 1, 3]))
    line["breaker"] = draw(st.sampled_from([0, 1]))
    reds = draw(st.sampled_from([None, 15, 10, 6, 6]))
    if reds is not None:
        line["reds"] = reds
    if draw(st.integers(0, 4)) == 0:
        line["miss_rule"] = draw(st.sampled_from(["wpbsa", "off"]))
    return line


def _table_line(draw, rack: int) -> tuple[dict[str, Any], Expect]:
    reds = draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3, rack]))
    if reds:
        colours = list(ALL_COLOURS)
        ball_on = draw(st.sampled_from(["red", "colour", "either", "either"]))
    else:
        colours = ALL_COLOURS[draw(st.integers(0, 5)) :]
        ball_on = draw(st.sampled_from([colours[0], "either"] + (["colour"] if len(colours) == 6 else [])))
    cue_in_hand = draw(st.integers(0, 4)) == 0
    line: dict[str, Any] = {"type": "table", "reds": reds, "colours": colours, "ball_on": ball_on}
    if cue_in_hand:
        line["cue_in_hand"] = True
    if draw(st.booleans()):
        places = {f"red-{i + 1}": _on_cloth(draw) for i in range(reds)}
        places.update({c: list(SPOTS[c]) for c in colours})
        if not cue_in_hand:
            places["white"] = _on_cloth(draw)
        line["positions"] = places
    if draw(st.booleans()):
        line["score"] = [draw(st.integers(0, 80)), draw(st.integers(0, 80))]
    if draw(st.booleans()):
        line["striker"] = draw(st.sampled_from([0, 1]))
    expect = Expect()
    odd = draw(st.integers(0, 7))
    if odd == 0:
        line["reds"] = -1
        expect = Expect(refuse=True, field="table.reds")
    elif odd == 1:
        line["colours"] = ["pink", "pink"]
        expect = Expect(refuse=True, field="table.colours")
    elif odd == 2:
        line["score"] = [-3, 5]
        expect = Expect(refuse=True, field="table.score")
    elif odd == 3 and line.get("positions"):
        ball = draw(st.sampled_from(sorted(line["positions"])))
        line["positions"][ball] = [draw(st.sampled_from(BAD_NUMBERS)), 1000.0]
        expect = Expect(refuse=True, field="table.positions")
    return line, expect


def _pot_entry(draw, ball: str, table: _Table, used: set[str]) -> Any:
    if ball == "red" and draw(st.integers(0, 5)) == 0:
        ids = [b for b in table.places if b.startswith("red-") and b not in used]
        if ids:
            ball = draw(st.sampled_from(ids))
            used.add(ball)
    if draw(st.integers(0, 4)) == 0:
        return ball
    return {"ball": ball, "pocket": draw(st.sampled_from(POCKET_NAMES))}


def _entry_ball(entry: Any) -> Any:
    return entry.get("ball") if isinstance(entry, dict) else entry


def _plausible_stroke(draw, ruling: dict[str, Any], table: _Table) -> dict[str, Any]:
    on = _on(ruling)
    present = _balls_on_table(ruling)
    not_on = [b for b in present if b not in on]
    kinds = ["pot", "pot", "pot", "pot2", "safe", "safe", "wrong", "none", "in_off", "pot_not_on", "any"]
    if not ruling["reds"]:
        kinds += ["pot", "pot", "pot"]
    kind = draw(st.sampled_from(kinds))
    first: list[str] = []
    potted: list[str] = []
    off: list[str] = []
    cue_ball = "on_table"
    if kind in ("pot", "pot2") and on:
        ball = draw(st.sampled_from(on))
        potted = [ball]
        if kind == "pot2" and ball == "red" and ruling["reds"] >= 2:
            potted = ["red", "red"]
        first = [ball]
    elif kind == "safe" and on:
        first = [draw(st.sampled_from(on))]
    elif kind == "wrong" and not_on:
        first = [draw(st.sampled_from(not_on))]
    elif kind == "in_off" and on:
        first = [draw(st.sampled_from(on))]
        cue_ball = draw(st.sampled_from(["potted", "potted", "off_table"]))
    elif kind == "pot_not_on" and on and not_on:
        first = [draw(st.sampled_from(on))]
        potted = [draw(st.sampled_from(not_on))]
    elif kind == "any" and present:
        first = draw(st.lists(st.sampled_from(present), max_size=2, unique=True))
        potted = draw(st.lists(st.sampled_from(present), max_size=2))
        potted = [b for i, b in enumerate(potted) if b == "red" or b not in potted[:i]]
        if potted.count("red") > ruling["reds"]:
            potted = [b for b in potted if b != "red"]
        if draw(st.integers(0, 5)) == 0 and present:
            off = [draw(st.sampled_from([b for b in present if b not in potted] or ["red"]))]
            if off == ["red"] and potted.count("red") + 1 > ruling["reds"]:
                off = []
        cue_ball = draw(st.sampled_from(["on_table", "on_table", "on_table", "potted", "off_table"]))
    used: set[str] = set()
    line: dict[str, Any] = {
        "type": "stroke",
        "first_contact": first,
        "potted": [_pot_entry(draw, b, table, used) for b in potted],
        "off_table": off,
        "cue_ball": cue_ball,
        "touching": [],
    }
    if draw(st.integers(0, 3)) > 0:
        _add_positions(draw, line, ruling, table, potted + off)
    if draw(st.integers(0, 5)) == 0:
        line["unwatched_s"] = round(draw(st.integers(1, 300)) / 100.0, 2)
    if draw(st.integers(0, 7)) == 0:
        line["strike_unseen"] = True
    if draw(st.integers(0, 9)) == 0:
        line["truncated"] = True
    if draw(st.integers(0, 11)) == 0 and present:
        line["moving_at_strike"] = [draw(st.sampled_from(present))]
    if draw(st.integers(0, 7)) == 0 and cue_ball == "on_table":
        left = [b for b in present if b not in potted and b not in off]
        if left:
            line["touching"] = [draw(st.sampled_from(left))]
    return line


def _add_positions(
    draw, line: dict[str, Any], ruling: dict[str, Any], table: _Table, gone: list[str]
) -> None:
    before = {b: list(xy) for b, xy in table.places.items()}
    if "replace" in ruling["options"] and table.before_miss and draw(st.booleans()):
        before = {b: list(xy) for b, xy in table.before_miss.items()}  # the balls put back
    if ruling["in_hand"] or "white" not in before:
        before["white"] = _in_d(draw) if draw(st.integers(0, 9)) else _on_cloth(draw)
    after = {}
    for ball, xy in before.items():
        moves = ball == "white" or draw(st.integers(0, 3)) == 0
        after[ball] = _on_cloth(draw) if moves else list(xy)
    for ball in gone:
        ids = [b for b in after if b == ball or (ball == "red" and b.startswith("red-"))]
        if ids:
            del after[ids[0]]
    if line["cue_ball"] != "on_table":
        after.pop("white", None)
    line["positions"] = {"before": before, "after": after}
    if draw(st.booleans()):
        line["position_tolerance_mm"] = round(draw(st.integers(10, 400)) / 10.0, 1)


def _odd(draw, line: dict[str, Any], ruling: dict[str, Any], left: list[str]) -> Expect:
    """Make ``line`` odd in one way; what the log itself then promises. ``left``: the kinds of the
    object balls the last stroke potted or forced off (one may still have been running at this
    strike, so ``moving_at_strike`` may name it though the table no longer holds it)."""
    positions = line.get("positions")
    options = [
        "ball_not_on_table",
        "colour_twice_potted",
        "colour_twice_first",
        "red_id_twice",
        "unknown_ball",
        "white_first",
        "bad_cue_ball",
        "bad_pocket",
        "negative_tolerance",
        "nan_tolerance",
        "negative_unwatched",
        "string_flag",
        "empty_lists",
        "missing_fields",
        "white_potted_and_off",
        "moving_not_on_table",
        "touching_potted",
    ]
    if positions is not None:
        options += [
            "nonfinite",
            "nonfinite",
            "string_xy",
            "short_xy",
            "off_cloth",
            "off_cloth",
            "potted_still_after",
            "cue_potted_placed",
            "unknown_position_key",
            "positions_not_object",
        ]
        options.append("huge_xy")
    odd = draw(st.sampled_from(options))
    missing = _not_on_table(ruling)
    if odd == "ball_not_on_table" and missing:
        key = draw(st.sampled_from(["first_contact", "potted", "off_table"]))
        line[key] = [*line.get(key, []), draw(st.sampled_from(missing))]
        return Expect()  # refused, naming the field (not checked: another fault may come first)
    if odd == "colour_twice_potted" and ruling["colours"]:
        colour = draw(st.sampled_from(ruling["colours"]))
        line["potted"] = [colour, {"ball": colour, "pocket": "top_left"}]
        return Expect(refuse=True)
    if odd == "colour_twice_first" and ruling["colours"]:
        colour = draw(st.sampled_from(ruling["colours"]))
        line["first_contact"] = [colour, colour]
        return Expect(refuse=True)
    if odd == "red_id_twice" and ruling["reds"] >= 2:
        line["potted"] = ["red-1", "red-1"]
        return Expect(refuse=True)
    if odd == "unknown_ball":
        key = draw(st.sampled_from(["first_contact", "potted", "off_table", "touching", "moving_at_strike"]))
        line[key] = ["purple"]
        return Expect(refuse=True, field=key)
    if odd == "white_first":
        line["first_contact"] = ["white"]
        return Expect(refuse=True, field="first_contact")
    if odd == "bad_cue_ball":
        line["cue_ball"] = draw(st.sampled_from(["sideways", "", 3, None]))
        return Expect(refuse=line["cue_ball"] is not None, field="cue_ball" if line["cue_ball"] else None)
    if odd == "bad_pocket":
        line["potted"] = [{"ball": "red", "pocket": draw(st.sampled_from(["corner", 7, ["top_left"]]))}]
        return Expect(refuse=True, field="potted")
    if odd == "negative_tolerance":
        line["position_tolerance_mm"] = -draw(st.integers(1, 50)) / 10.0
        return Expect(refuse=True, field="position_tolerance_mm")
    if odd == "nan_tolerance":
        line["position_tolerance_mm"] = draw(st.sampled_from([*BAD_NUMBERS, "5", True]))
        return Expect(refuse=True, field="position_tolerance_mm")
    if odd == "negative_unwatched":
        line["unwatched_s"] = draw(st.sampled_from([-0.5, math.nan, math.inf, "1"]))
        return Expect(refuse=True, field="unwatched_s")
    if odd == "string_flag":
        key = draw(st.sampled_from(["strike_unseen", "truncated"]))
        line[key] = draw(st.sampled_from(["yes", 1, 0.0]))
        return Expect(refuse=True, field=key)
    if odd == "empty_lists":
        for key in draw(st.lists(st.sampled_from(["first_contact", "potted", "off_table", "touching"]))):
            line[key] = draw(st.sampled_from([[], None]))
        return Expect()
    if odd == "missing_fields":
        for key in draw(
            st.lists(st.sampled_from(["first_contact", "potted", "off_table", "cue_ball", "touching"]))
        ):
            line.pop(key, None)
        return Expect()
    if odd == "white_potted_and_off":
        line["potted"] = [*line.get("potted", []), "white"]
        line["off_table"] = ["white"]
        line.pop("cue_ball", None)
        return Expect(refuse=True)
    never_running = [ball for ball in missing if ball not in left]
    if odd == "moving_not_on_table" and never_running:
        line["moving_at_strike"] = [draw(st.sampled_from(never_running))]
        return Expect(refuse=True, field="moving_at_strike")
    if odd == "touching_potted":
        potted = [_entry_ball(e) for e in line.get("potted", [])]
        colours = [b for b in potted if b in ALL_COLOURS]
        if colours:
            line["touching"] = [colours[0]]
            line["cue_ball"] = "on_table"
            return Expect(refuse=True, field="touching")
        return Expect()
    if positions is None:
        return Expect()
    side = draw(st.sampled_from(["before", "after"]))
    places = positions[side]
    if odd == "nonfinite" and places:
        ball = draw(st.sampled_from(sorted(places)))
        places[ball] = list(places[ball])
        places[ball][draw(st.integers(0, 1))] = draw(st.sampled_from(BAD_NUMBERS))
        return Expect()
    if odd == "huge_xy" and places:
        ball = draw(st.sampled_from(sorted(places)))
        huge = draw(st.sampled_from([1e308, -1e308, 1e20, 10**400]))
        places[ball] = [huge, places[ball][1]]
        # too large for a float: refused; a float far off the table: ruled without the places
        return Expect(refuse=True, field="positions") if isinstance(huge, int) else Expect()
    if odd == "string_xy" and places:
        ball = draw(st.sampled_from(sorted(places)))
        places[ball] = [str(places[ball][0]), places[ball][1]]
        return Expect(refuse=True, field="positions")
    if odd == "short_xy" and places:
        ball = draw(st.sampled_from(sorted(places)))
        places[ball] = draw(st.sampled_from([[1.0], [1.0, 2.0, 3.0], None, {"x": 1}]))
        return Expect(refuse=True, field="positions")
    if odd == "off_cloth" and places:
        ball = draw(st.sampled_from(sorted(places)))
        places[ball] = [
            draw(st.sampled_from([-200.0, -0.5, WIDTH + 1.0, 5000.0, 900.0])),
            draw(st.sampled_from([-300.0, LENGTH + 0.5, 9000.0, 1800.0])),
        ]
        return Expect()
    if odd == "potted_still_after":
        for entry in line.get("potted", []):
            ball = _entry_ball(entry)
            key = (
                ball
                if ball != "red"
                else next((b for b in positions["before"] if b.startswith("red-")), None)
            )
            if key is not None:
                positions["after"][key] = _on_cloth(draw)
        return Expect()
    if odd == "cue_potted_placed":
        line["cue_ball"] = "potted"
        positions["after"]["white"] = _on_cloth(draw)
        return Expect()
    if odd == "unknown_position_key":
        places["purple"] = [100.0, 100.0]
        return Expect(refuse=True, field="positions")
    if odd == "positions_not_object":
        line["positions"] = draw(st.sampled_from([[], "here", {"before": [1, 2]}]))
        return Expect(refuse=True, field="positions")
    return Expect()


def _apply(referee: Referee, line: Any) -> dict[str, Any]:
    """The generator's own step: a crash is left for the properties to find."""
    try:
        return referee.apply(line)
    except Exception as exc:
        return {"error": repr(exc)}


@st.composite
def camera_logs(draw) -> Log:
    """A match line, perhaps a table line, then 1-40 camera strokes (mostly plausible)."""
    referee = Referee()
    first = _match_line(draw)
    lines: list[Any] = [first]
    expects = [Expect()]
    ruling = referee.apply(first)
    rack = first.get("reds", 15)
    table = _Table()
    table.sync(draw, ruling)
    if draw(st.booleans()):
        line, expect = _table_line(draw, rack)
        lines.append(line)
        expects.append(expect)
        result = _apply(referee, line)
        if "error" not in result:
            ruling = result
            table.places = {}
            table.places.update({b: list(xy) for b, xy in (line.get("positions") or {}).items()})
            table.sync(draw, ruling)
    after_over = 0
    left: list[str] = []
    for _ in range(draw(st.integers(1, 40))):
        if ruling["frame_over"]:
            after_over += 1
            if after_over > 2:
                break
        line = _plausible_stroke(draw, ruling, table)
        expect = _odd(draw, line, ruling, left) if draw(st.integers(0, 6)) == 0 else Expect(plausible=True)
        lines.append(line)
        expects.append(expect)
        result = _apply(referee, line)
        if "error" not in result:
            ruling = result
            left = [k for k in _kinds(line.get("potted")) + _kinds(line.get("off_table")) if k != "white"]
            positions = line.get("positions")
            before = positions.get("before") if isinstance(positions, dict) else None
            if result["miss"] and isinstance(before, dict):
                table.before_miss = before
            after = positions.get("after") if isinstance(positions, dict) else None
            if isinstance(after, dict):
                table.places = {
                    b: list(xy)
                    for b, xy in after.items()
                    if isinstance(xy, list)
                    and all(isinstance(v, float | int) and math.isfinite(v) for v in xy)
                }
            table.sync(draw, ruling)
    return lines, expects


# --- the checks ----------------------------------------------------------------------------------


def _kinds(entries: Any) -> list[str]:
    if not isinstance(entries, list):
        entries = [] if entries is None else [entries]
    return [str(_entry_ball(e)).split("-", 1)[0] for e in entries]


def _gone_reds(line: dict[str, Any]) -> int:
    return sum(1 for k in _kinds(line.get("potted")) + _kinds(line.get("off_table")) if k == "red")


def _points_remaining(ruling: dict[str, Any]) -> int:
    reds, colours = ruling["reds"], ruling["colours"]
    colour_points = sum(BALL_VALUES[c] for c in colours)
    on = ruling["ball_on"]
    if on in ("colour", "either") or (reds and on in ALL_COLOURS):
        return 7 + 8 * reds + colour_points
    if on == "red":
        return 8 * reds + colour_points + (8 if ruling["free_ball"] else 0)
    return colour_points + (BALL_VALUES[colours[0]] if ruling["free_ball"] and colours else 0)


def _check_state(ruling: dict[str, Any], rack: int) -> None:
    """What every accepted line's ruling must say about the state after it."""
    json.dumps(ruling, allow_nan=False)  # strict JSON: no NaN or infinity anywhere
    for field in CONTRACT_FIELDS:
        assert field in ruling, field
    score = ruling["score"]
    assert all(isinstance(s, int) and s >= 0 for s in score)
    reds, colours = ruling["reds"], ruling["colours"]
    assert 0 <= reds <= rack
    assert colours == ALL_COLOURS[len(ALL_COLOURS) - len(colours) :], "colours are the highest ones"
    if reds:
        assert colours == ALL_COLOURS, "every colour is on while reds remain"
    on = ruling["ball_on"]
    if ruling["frame_over"]:
        # Nothing is on once the frame is over, whatever balls a concession or an award left.
        assert on == "none" and ruling["nominated"] is None, on
        assert ruling["points_remaining"] == 0
    elif reds:
        assert on in ("red", "colour", "either") or on == ruling["nominated"], on
    elif colours:
        assert on in ("colour", "either", colours[0]) or on == ruling["nominated"], on
        if on == "colour":
            assert colours == ALL_COLOURS
    else:
        raise AssertionError("no ball left, yet the frame is not over")
    if not ruling["frame_over"]:
        assert ruling["points_remaining"] == _points_remaining(ruling)
    for side in (0, 1):
        deficit = score[1 - side] - score[side] - ruling["points_remaining"]
        needed = ruling["snookers_required"][side]
        if not ruling["score_known"] or ruling["frame_over"]:
            assert needed == 0
        else:
            assert (needed > 0) == (deficit > 0)
    status = ruling["status"]
    assert ruling["frame_over"] == (status in ("frame_over", "match_over"))
    assert bool(ruling["options"]) == (status == "decision")
    assert set(ruling["options"]) <= {"play", "play_again", "replace"}
    if ruling["match_over"]:
        assert ruling["frame_over"]
    if ruling["frame_over"]:
        assert not ruling["free_ball"] and not ruling["options"]
        if not ruling["score_known"]:
            assert ruling["winner"] is None
        elif ruling["winner"] is not None and not ruling["miss"] and ruling["type"] == "stroke":
            winner = ruling["winner"]
            assert score[winner] > score[1 - winner], "the frame goes to the leader"
    assert sum(ruling["frames"]) <= 3


def _check_outcome(line: dict[str, Any], ruling: dict[str, Any]) -> None:
    """What an accepted stroke's ruling must say about the stroke itself."""
    if ruling["foul"]:
        assert 4 <= ruling["penalty"] <= 7
        assert ruling["fouls"] and ruling["offender"] in (0, 1)
        assert ruling["points"] == 0 and ruling["scored"] == []
        assert ruling["break"] == 0
        assert {"FOUL", "FOUL AND A MISS"} & set(ruling["announcements"])
    else:
        assert ruling["penalty"] == 0 and ruling["fouls"] == [] and not ruling["miss"]
        assert ruling["offender"] is None
        assert not ruling["free_ball"]
    assert ruling["points"] == sum(BALL_VALUES[k] for k in _kinds(ruling["scored"]))
    potted = _kinds(line.get("potted"))
    for kind in set(_kinds(ruling["scored"])):
        assert _kinds(ruling["scored"]).count(kind) <= potted.count(kind)
    if ruling["points"] == 0:
        assert ruling["break"] == 0
    if ruling["miss"]:
        assert ruling["foul"]
    if ruling["status"] == "decision" and "replace" in ruling["options"]:
        assert ruling["miss"]
    if ruling["free_ball"]:
        assert "FREE BALL" in ruling["announcements"]
    cue = line.get("cue_ball")
    if cue is None:
        cue = "potted" if "white" in _kinds(line.get("potted")) else "on_table"
        cue = "off_table" if "white" in _kinds(line.get("off_table")) else cue
    if cue == "potted":
        assert "cue_ball_potted" in ruling["fouls"]
    if cue == "off_table":
        assert "cue_ball_off_table" in ruling["fouls"]
    if cue != "on_table" and not ruling["frame_over"]:
        assert ruling["in_hand"]
    if cue == "on_table" and RESPOTTED_BLACK not in ruling["announcements"]:
        assert not ruling["in_hand"]
    if line.get("moving_at_strike"):
        assert "balls_moving" in ruling["fouls"]
        assert not ruling["miss"]
    unseen = line.get("unwatched_s", 0) or line.get("strike_unseen") or line.get("truncated")
    sent = [k for k in _kinds(line.get("potted")) + _kinds(line.get("off_table")) if k != "white"]
    if not line.get("first_contact") and (unseen or sent):
        assert "missed_all_balls" not in ruling["fouls"]
        assert not ruling["miss"]


def _check_step(previous: dict[str, Any], line: dict[str, Any], ruling: dict[str, Any]) -> None:
    """What an accepted stroke may change from the ruling before it (the same frame)."""
    before, after = previous["score"], ruling["score"]
    gained = [after[0] - before[0], after[1] - before[1]]
    assert gained[0] >= 0 and gained[1] >= 0, "scores never fall within a frame"
    if ruling["foul"]:
        offender = ruling["offender"]
        assert gained[1 - offender] == ruling["penalty"] and gained[offender] == 0
    else:
        assert sorted(gained) == [0, ruling["points"]]
        if ruling["points"] and not ruling["frame_over"]:
            # once the frame is over the player to play is the next frame's breaker, not the potter
            assert gained[ruling["striker"]] == ruling["points"], "the striker scores his pots"
    replaced = REPLACED in ruling["announcements"]
    respotted_black = RESPOTTED_BLACK in ruling["announcements"]
    if not replaced and not respotted_black:
        assert ruling["reds"] == previous["reds"] - _gone_reds(line), "a stroke takes off the reds it pots"
        assert set(ruling["colours"]) <= set(previous["colours"]), "colours never come back"
        if not ruling["free_ball"] and previous["ball_on"] != "either" and not ruling["frame_over"]:
            assert ruling["points_remaining"] <= previous["points_remaining"]
    if not replaced:
        assert ruling["reds"] <= previous["reds"], "reds never rise"
    assert ruling["frames"][0] >= previous["frames"][0] and ruling["frames"][1] >= previous["frames"][1]


def _rack(lines: list[Any]) -> int:
    return lines[0].get("reds", 15)


def _check_log(lines: list[Any], expects: list[Expect]) -> list[dict[str, Any]]:
    referee = Referee()
    rack = _rack(lines)
    previous: dict[str, Any] | None = None
    rulings = []
    for number, (line, expect) in enumerate(zip(lines, expects, strict=True), start=1):
        state = referee.state
        board = json.dumps(referee.scoreboard(), sort_keys=True, default=str)
        ruling = referee.apply(line)  # never raises
        rulings.append(ruling)
        assert isinstance(ruling, dict)
        if "error" in ruling:
            assert set(ruling) == {"error", "line"}, ruling
            assert ruling["line"] == number
            assert isinstance(ruling["error"], str) and ruling["error"]
            frame_over = previous is not None and previous["frame_over"]
            if expect.field is not None and not frame_over:  # else refused as after the frame
                assert expect.field in ruling["error"], (expect.field, ruling["error"])
            assert not (expect.plausible and not frame_over), f"a plausible stroke was refused: {ruling}"
            assert referee.state is state, "a refused line changes nothing"
            assert json.dumps(referee.scoreboard(), sort_keys=True, default=str) == board
            continue
        assert not expect.refuse, f"line {number} should have been refused: {line}"
        if previous is not None and previous["frame_over"]:
            raise AssertionError(f"a stroke after the frame ended was ruled: {ruling}")
        assert ruling["line"] == number and ruling["type"] == line["type"]
        assert ruling["schema"] == "snooker.ruling/1"
        _check_state(ruling, rack)
        if line["type"] == "table":
            assert ruling["reds"] == line["reds"]
            assert ruling["score"] == line.get("score", [0, 0])
            assert ruling["score_known"] == ("score" in line)
        if line["type"] == "stroke":
            _check_outcome(line, ruling)
            assert previous is not None
            if previous["frame"] == ruling["frame"]:
                _check_step(previous, line, ruling)
        previous = ruling
    return rulings


# --- the property tests --------------------------------------------------------------------------


@SETTINGS
@given(camera_logs())
def test_camera_logs_are_ruled_or_refused_and_every_ruling_keeps_the_invariants(log):
    lines, expects = log
    _check_log(lines, expects)


@SETTINGS
@given(camera_logs())
def test_camera_logs_rule_the_same_twice_as_text_and_without_their_refused_lines(log):
    lines, _ = log
    rulings = replay(lines)
    assert replay(lines) == rulings
    assert replay([json.dumps(line) for line in lines]) == rulings
    kept = [line for line, ruling in zip(lines, rulings, strict=True) if "error" not in ruling]
    strip = [{k: v for k, v in r.items() if k != "line"} for r in rulings if "error" not in r]
    assert [{k: v for k, v in r.items() if k != "line"} for r in replay(kept)] == strip


# --- faults the properties found (kept as explicit logs) ------------------------------------------


IN_OFF_WITH_A_RED_FAR_OFF = [
    match(),
    {
        "type": "stroke",
        "first_contact": ["red"],
        "potted": [],
        "off_table": [],
        "cue_ball": "potted",
        "touching": [],
        "positions": {
            "before": {"white": [889.0, 600.0], "red-1": [889.0, 2800.0], "blue": [889.0, 1784.5]},
            "after": {"red-1": [1e20, 2800.0], "blue": [889.0, 1784.5]},
        },
    },
]


def test_an_in_off_with_a_red_placed_far_off_the_cloth_is_ruled_or_refused():
    referee = Referee()
    referee.apply(IN_OFF_WITH_A_RED_FAR_OFF[0])
    ruling = referee.apply(IN_OFF_WITH_A_RED_FAR_OFF[1])
    assert ruling["foul"] and ruling["positions_ignored"].startswith("positions.after.red-1")


HUGE_INTEGER_PLACE = [
    match(),
    json.dumps({"type": "stroke", "first_contact": ["red"], "potted": [], "cue_ball": "on_table"})[:-1]
    + ', "positions": {"before": {"white": [1'
    + "0" * 400
    + ', 600.0]}, "after": {}}}',
]


def test_a_coordinate_too_large_for_a_float_is_refused():
    referee = Referee()
    referee.apply(HUGE_INTEGER_PLACE[0])
    ruling = referee.apply(HUGE_INTEGER_PLACE[1])
    assert "positions.before.white" in ruling["error"]


NAN = float("nan")
MISSED_EVERY_BALL = {
    "type": "stroke",
    "first_contact": [],
    "potted": [],
    "off_table": [],
    "cue_ball": "on_table",
    "touching": [],
}
A_NAN_PLACE_AFTER_A_SAFETY = [
    match(),
    {
        "type": "stroke",
        "first_contact": ["red"],
        "potted": [],
        "off_table": [],
        "cue_ball": "on_table",
        "touching": [],
        "positions": {
            "before": {"white": [889.0, 600.0], "red-1": [889.0, 2800.0]},
            "after": {"white": [889.0, 1500.0], "red-1": [NAN, 2800.0]},
        },
    },
    MISSED_EVERY_BALL,
]
AN_INFINITE_PLACE_IN_A_TABLE_LINE = [
    match(),
    {"type": "table", "reds": 1, "positions": {"white": [889.0, 600.0], "red-1": [math.inf, 2800.0]}},
    MISSED_EVERY_BALL,
]


def test_a_nan_place_after_a_stroke_does_not_block_the_strokes_that_follow():
    rulings = replay(A_NAN_PLACE_AFTER_A_SAFETY)
    assert "error" not in rulings[2], rulings[2]
    assert rulings[1]["positions_ignored"].startswith("positions.after.red-1")
    assert rulings[2]["foul"] and rulings[2]["score"] == [4, 0]  # Ben missed: four to Ann


def test_a_table_line_with_an_infinite_place_is_refused_and_does_not_block_the_strokes():
    rulings = replay(AN_INFINITE_PLACE_IN_A_TABLE_LINE)
    assert "table.positions.red-1" in rulings[1]["error"]
    assert "error" not in rulings[2], rulings[2]


def test_a_ball_moved_to_a_place_that_cannot_be_is_refused_by_name():
    for place in ([math.nan, 1000.0], [1e20, 1000.0], [10**400, 1000.0]):
        ruling = replay([match(), {"type": "ball_moved", "ball": "pink", "position": place}])[-1]
        assert "ball_moved.position" in ruling["error"]
