"""Metamorphic relations (the thirty-first audit): transformations of a frame log whose effect on the
rulings the rules fix, checked over random logs (differential_logs.py's generator; with
``layouts=True`` every stroke gives the balls' places and the referee judges the free ball, the
miss, the full ball, the touching ball and the placement from hand itself).

- The table mirrored left-right (x → width − x, the pockets' left and right exchanged): the baulk
  line, the D, the cushions and the pockets are symmetric, so every ruling is the same — but for
  the yellow and the green, whose spots are not each other's (3.2(A): "Żółta w prawym rogu strefy
  "D"", "Zielona w lewym rogu strefy "D""), so a colour re-spotted where their spots are asked about
  (3.7) ends the comparison of the whole log there (the rest stands on a table that is no longer a
  mirror image); line by line, from the referee's state and its mirror image, every line is
  compared.
- The players renamed, or their places in the match line exchanged (every index in the log with
  them): the same rulings, the names (and the sides' per-side fields) following.
- Timestamps shifted or scaled (strictly increasing kept; ``unwatched_s``, a duration, scaled with
  them), the keys of every JSON object reordered, the optional fields that state their default
  written out: the same rulings.
- A log cut after any line and resumed — the fold continued from the referee's state, or the match
  record (``snooker.record``) closed and resumed with ``--resume``'s code — equals the uncut run;
  cut where only the balls and the scores stand and joined again with the ``table`` line a camera
  switched on there writes (docs/FRAME_LOG.md, joining a frame in play), the rest of the frame is
  ruled the same.
- A foul's ball concerned replaced with one of higher value (3.12(B): "wartością wyższą z wartości:
  bili rozgrywanej lub bili branej pod uwagę", four at least, seven at most): the penalty becomes
  min(7, max(penalty, value)), the non-offender gets the difference, and nothing else changes on
  that line (a line that ends the frame aside: who wins it follows the scores, 3.4).
- A stroke that pots a ball on turned into the same stroke missing every ball: a foul (3.12(A):
  "ominięcie wszystkich bil do rozgrywania przez bilę białą", the value of the ball on, four at
  least; after a red with no colour nominated, seven: 3.12(D) "po wbiciu Czerwonej [...] popełni
  faul przed zadeklarowaniem bili kolorowej"), the break over, the turn passing with the balls as
  they stood before the stroke; called a miss (3.14(B): "sędzia ogłasza FAUL I CHYBIENIE"), the
  balls may be replaced too.
- Every place moved by 0.01 mm (far below the touching, cushion and in-hand tolerances, and the
  layouts keep away from those boundaries): the same rulings.

Hypothesis runs are derandomized and bounded; the seeded runs must between them reach the colours,
free balls, misses, the re-spotted black and the frame's end, so no relation is checked vacuously.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from differential_logs import Chooser, Line, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scorer import COLOURS, VALUES, WIDTH

from snooker.calibration.table import STANDARD_TABLE
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord
from snooker.referee import Referee
from snooker.referee.announce import frame_call, match_call, penalty_call
from snooker.referee.state import Table

Ruling = dict[str, Any]
SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SEEDS = (*range(7), 14)
"""The seeded logs (plain ``random``), with and without layouts (14 reaches a re-spotted black)."""
CUT_EVERY = 3
"""The fold is cut after every third line of the seeded logs (and continued from its state)."""
TINY_MOVE_MM = 0.01
"""How far every place is moved for the tiny-move relation (mm)."""
SAME_PLACE_MM = 0.1
"""A re-spotted colour's place may move with the balls it is placed beside (3.7(g)) by this (mm)."""


def _chooser(draw) -> Chooser:
    return Chooser(lambda seq: draw(st.sampled_from(list(seq))), lambda a, b: draw(st.integers(a, b)))


@st.composite
def frame_logs(draw, layouts: bool = False) -> list[Line]:
    return generate(_chooser(draw), max_lines=50, layouts=layouts)


def seeded(seed: int, layouts: bool) -> list[Line]:
    rng = random.Random(seed)
    return generate(Chooser(lambda seq: rng.choice(list(seq)), rng.randint), layouts=layouts)


def run(lines: list[Any]) -> list[tuple[Ruling, dict[str, Any]]]:
    """Each line's ruling with the scoreboard after it."""
    referee = Referee()
    return [(referee.apply(line), referee.scoreboard()) for line in lines]


def states(lines: list[Line]) -> list[Any]:
    """The referee's state before each line (None before the first)."""
    referee = Referee()
    out = []
    for line in lines:
        out.append(referee.state)
        referee.apply(line)
    return out


def from_state(state: Any, lines_before: int) -> Referee:
    referee = Referee()
    referee.state = state
    referee.lines = lines_before
    return referee


def _same(a: Any, b: Any, where: str) -> None:
    assert a == b, where


# ---- the table mirrored ------------------------------------------------------------------------

MIRRORED_POCKET = {
    "baulk_left": "baulk_right",
    "baulk_right": "baulk_left",
    "middle_left": "middle_right",
    "middle_right": "middle_left",
    "top_left": "top_right",
    "top_right": "top_left",
}
CENTRE_LINE_SPOTS = ("brown", "blue", "pink", "black")
"""The spots on the long centre line (3.2(A)): a mirror keeps each where it is."""


def _mirror_map(places: dict[str, list[float]]) -> dict[str, list[float]]:
    return {ball: [WIDTH - x, y] for ball, (x, y) in places.items()}


def mirrored(line: Line) -> Line:
    out = copy.deepcopy(line)
    positions = out.get("positions")
    if out["type"] == "stroke" and isinstance(positions, dict):
        for key in ("before", "after"):
            if positions.get(key) is not None:
                positions[key] = _mirror_map(positions[key])
    if out["type"] == "table" and positions is not None:
        out["positions"] = _mirror_map(positions)
    if out.get("position") is not None:
        out["position"] = [WIDTH - out["position"][0], out["position"][1]]
    if out["type"] == "stroke":
        out["potted"] = [
            {**p, "pocket": MIRRORED_POCKET[p["pocket"]]} if isinstance(p, dict) and p.get("pocket") else p
            for p in out.get("potted") or []
        ]
    return out


def _centre_line_only(respotted: list[Any]) -> bool:
    """Every colour re-spotted with a place went to a spot on the centre line, its own or a higher
    one, so the yellow's and the green's spots were never asked about (3.7(d)-(e))."""
    spots = STANDARD_TABLE.spots
    for entry in respotted:
        if isinstance(entry, dict):
            if entry["ball"] not in CENTRE_LINE_SPOTS:
                return False
            if not any(math.dist(entry["position"], spots[s]) < 1e-9 for s in CENTRE_LINE_SPOTS):
                return False
    return True


def check_mirror(lines: list[Line]) -> int:
    """The mirrored log's rulings equal the log's; returns how many lines were compared."""
    ours = run(lines)
    theirs = run([mirrored(line) for line in lines])
    compared = 0
    for number, ((a, board_a), (b, board_b)) in enumerate(zip(ours, theirs, strict=True), start=1):
        where = f"line {number}: {lines[number - 1]}"
        if "error" in a or "error" in b:
            _same("error" in a, "error" in b, where)
            continue
        symmetric = _centre_line_only(a["respotted"]) and _centre_line_only(b["respotted"])
        if not symmetric:
            # The yellow or the green went to its own spot, which the mirror does not map: what
            # follows from the places after the re-spot (a free ball, a snooker) is no longer
            # mirrored; what the stroke itself scored and cost is.
            _same({k: b[k] for k in UNPLACED}, {k: a[k] for k in UNPLACED}, where)
            break
        _same(b, {**a, "respotted": _mirror_respotted(a["respotted"])}, where)
        _same(board_b, board_a, where)
        compared += 1
    return compared


def mirrored_state(value: Any) -> Any:
    """A referee state with every place in it (the table's, and those a replacement would restore)
    mirrored: the state a mirrored log would have reached on a mirrored table."""
    if isinstance(value, Table):
        places = value.positions
        return dataclasses.replace(
            value, positions=None if places is None else tuple((b, (WIDTH - x, y)) for b, (x, y) in places)
        )
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value,
            **{f.name: mirrored_state(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init},
        )
    if isinstance(value, tuple):
        return tuple(mirrored_state(v) for v in value)
    return value


def check_mirror_line_by_line(lines: list[Line]) -> int:
    """Line by line, from the state before it and its mirror image: the same ruling (re-spots
    mirrored), every line — the yellow's and the green's own spots aside (see ``check_mirror``).
    Returns how many lines were compared whole."""
    before = states(lines)
    compared = 0
    for index, line in enumerate(lines[1:], start=1):
        a = from_state(before[index], index).apply(line)
        b = from_state(mirrored_state(before[index]), index).apply(mirrored(line))
        where = f"line {index + 1}: {line}"
        if "error" in a or "error" in b:
            _same("error" in a, "error" in b, where)
            continue
        if not (_centre_line_only(a["respotted"]) and _centre_line_only(b["respotted"])):
            _same({k: b[k] for k in UNPLACED}, {k: a[k] for k in UNPLACED}, where)
            continue
        _same(b, {**a, "respotted": _mirror_respotted(a["respotted"])}, where)
        compared += 1
    return compared


def _mirror_respotted(respotted: list[Any]) -> list[Any]:
    return [
        e if isinstance(e, str) else {**e, "position": [WIDTH - e["position"][0], e["position"][1]]}
        for e in respotted
    ]


UNPLACED = ("score", "points", "scored", "foul", "penalty", "fouls", "offender", "reds", "colours", "in_hand")
"""Ruling fields a stroke settles before any colour is re-spotted."""


@SETTINGS
@given(frame_logs(layouts=True))
def test_the_mirrored_table_gives_the_same_rulings(lines):
    check_mirror(lines)
    check_mirror_line_by_line(lines)


# ---- the players ---------------------------------------------------------------------------------


def renamed(lines: list[Line], names: list[str]) -> list[Line]:
    out = copy.deepcopy(lines)
    out[0]["players"] = list(names)
    return out


def test_renamed_players_change_only_the_names():
    for seed in SEEDS:
        lines = seeded(seed, layouts=False)
        new = ["Zoë Ng", "Ó Súilleabháin"]
        calls = {}
        for old, name in zip(lines[0]["players"], new, strict=True):
            calls[frame_call(old)] = frame_call(name)
            calls[match_call(old)] = match_call(name)
        names = dict(zip(lines[0]["players"], new, strict=True))
        for number, ((a, board_a), (b, board_b)) in enumerate(
            zip(run(lines), run(renamed(lines, new)), strict=True), start=1
        ):
            if "error" in a:
                _same("error" in b, True, f"seed {seed} line {number}")
                continue
            want = {
                **a,
                "player": names[a["player"]],
                "announcements": [calls.get(x, x) for x in a["announcements"]],
            }
            _same(b, want, f"seed {seed} line {number}")
            _same(
                board_b,
                {**board_a, "players": new, "striker_name": names[board_a["striker_name"]]},
                f"seed {seed} line {number}",
            )


def exchanged(line: Line) -> Line:
    """The line with the two players' places exchanged: every player index in it flipped, per-player
    pairs reversed."""
    out = copy.deepcopy(line)
    kind = out.get("type")
    if kind == "match":
        out["players"] = list(reversed(out["players"]))
        out["breaker"] = 1 - out.get("breaker", 0)
    for key in ("player", "striker", "first"):
        if isinstance(out.get(key), int) and not isinstance(out.get(key), bool):
            out[key] = 1 - out[key]
    if kind == "table" and out.get("score") is not None:
        out["score"] = list(reversed(out["score"]))
    if kind == "new_frame" and out.get("order") is not None:
        out["order"] = [1 - i for i in out["order"]]
    return out


def _flip(index: int | None) -> int | None:
    return None if index is None else 1 - index


def expected_exchanged(ruling: Ruling) -> Ruling:
    return {
        **ruling,
        "score": ruling["score"][::-1],
        "frames": ruling["frames"][::-1],
        "snookers_required": ruling["snookers_required"][::-1],
        "striker": _flip(ruling["striker"]),
        "offender": _flip(ruling["offender"]),
        "winner": _flip(ruling["winner"]),
        "match_winner": _flip(ruling["match_winner"]),
    }


def expected_board_exchanged(board: dict[str, Any]) -> dict[str, Any]:
    last = board["last_foul"]
    return {
        **board,
        "players": board["players"][::-1],
        "frames": board["frames"][::-1],
        "totals": board["totals"][::-1],
        "score": board["score"][::-1],
        "scores": board["scores"][::-1],
        "highest_break": board["highest_break"][::-1],
        "match_highest_break": board["match_highest_break"][::-1],
        "snookers_required": board["snookers_required"][::-1],
        "striker": _flip(board["striker"]),
        "breaker": _flip(board["breaker"]),
        "order": [1 - i for i in board["order"]],
        "winner": _flip(board["winner"]),
        "match_winner": _flip(board["match_winner"]),
        "last_foul": None if last is None else {**last, "offender": _flip(last["offender"])},
    }


def check_exchanged(lines: list[Line]) -> None:
    for number, ((a, board_a), (b, board_b)) in enumerate(
        zip(run(lines), run([exchanged(line) for line in lines]), strict=True), start=1
    ):
        where = f"line {number}: {lines[number - 1]}"
        if "error" in a or "error" in b:
            _same("error" in a, "error" in b, where)
            continue
        _same(b, expected_exchanged(a), where)
        _same(board_b, expected_board_exchanged(board_a), where)


@SETTINGS
@given(frame_logs())
def test_the_players_places_exchanged_exchange_every_per_player_field(lines):
    check_exchanged(lines)


# ---- timestamps, key order, defaults written out ------------------------------------------------


def timed(lines: list[Line], rng: random.Random) -> list[Line]:
    """The log with the times a tracker writes (``t`` and the stroke's ``t_start``/``t_end``,
    frame numbers, strictly increasing) and, on some strokes, ``unwatched_s``."""
    out = copy.deepcopy(lines)
    t = 0.0
    for line in out[1:]:
        t += rng.uniform(0.5, 30.0)
        line["t"] = round(t, 3)
        if line["type"] == "stroke":
            line["t_start"] = round(t - 0.4, 3)
            line["t_end"] = line["t"]
            line["start_frame"] = int(line["t_start"] * 25)
            line["end_frame"] = int(line["t_end"] * 25)
            if rng.random() < 0.2:
                line["unwatched_s"] = round(rng.uniform(0.04, 2.0), 2)
    return out


def retimed(lines: list[Line], shift: float, scale: float, fps: float) -> list[Line]:
    out = copy.deepcopy(lines)
    for line in out:
        for key in ("t", "t_start", "t_end"):
            if key in line:
                line[key] = shift + scale * line[key]
        for key in ("start_frame", "end_frame"):
            if key in line:
                line[key] = round(line["t" if key == "end_frame" else "t_start"] * fps)
        if "unwatched_s" in line:
            line["unwatched_s"] = scale * line["unwatched_s"]
    return out


def _reordered(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _reordered(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_reordered(v, rng) for v in value]
    return value


def reordered_text(line: Line, rng: random.Random) -> str:
    """The line as JSON text, the keys of every object in it in a random order."""
    return json.dumps(_reordered(line, rng))


DEFAULTS: dict[str, dict[str, Any]] = {
    "match": {
        "schema": "snooker.log/1",
        "aggregate": False,
        "miss_rule": "wpbsa",
        "reds": 15,
        "best_of": 1,
        "breaker": 0,
        "sides": None,
    },
    "stroke": {
        "first_contact": [],
        "potted": [],
        "off_table": [],
        "cue_ball": "on_table",
        "nominated": None,
        "fouls": [],
        "touching": None,
        "positions": None,
        "player": None,
        "free_ball": None,
        "miss": None,
        "clear_path": None,
        "full_ball": None,
        "fell_from_edge": [],
        "position_tolerance_mm": None,
        "unwatched_s": 0.0,
        "strike_unseen": False,
        "moving_at_strike": [],
        "touching_moved": [],
        "truncated": False,
        "condoned": False,
    },
    "foul": {"ball": None, "player": None, "free_ball": None},
    "concede": {"player": None, "match": False},
    "table": {
        "colours": list(COLOURS),
        "ball_on": "either",
        "cue_in_hand": False,
        "positions": None,
        "score": None,
        "striker": None,
    },
    "new_frame": {"order": None},
    "spot_error": {"corrected": False, "position": None},
    "ball_moved": {"position": None},
}
"""What each optional field means when left out (docs/FRAME_LOG.md, CONTRACTS.md §1)."""


def with_defaults(line: Line) -> Line:
    out = dict(line)
    for key, value in DEFAULTS.get(line["type"], {}).items():
        out.setdefault(key, copy.deepcopy(value))
    if line["type"] == "stroke" and "cue_ball" not in line:
        gone = [b["ball"] if isinstance(b, dict) else b for b in line.get("potted", [])] + line.get(
            "off_table", []
        )
        if "white" in gone:
            del out["cue_ball"]  # the white listed there says where it went
    return out


def with_player_written_out(lines: list[Line]) -> list[Line]:
    """Each stroke, foul and concede by the player to play naming him (``player``; but a stroke
    with places while a choice after a foul is open: they may show the balls replaced, 3.14, and
    the offender playing), each ``new_frame`` stating the default order of play (the breaker the
    ruling before names, then the other player): the defaults the lines leave out."""
    out = []
    for line, (previous, _) in zip(lines, [({}, None), *run(lines)[:-1]], strict=True):
        line = dict(line)
        status = previous.get("status")
        named = status == "in_play" or (status == "decision" and line.get("positions") is None)
        if line["type"] in ("stroke", "foul", "concede") and named:
            # After a foul, a camera's stroke with places may show the balls replaced: then the
            # offender is the one to play (FRAME_LOG.md, ``decision``), not the player choosing.
            line.setdefault("player", previous["striker"])
        if line["type"] == "new_frame" and status == "frame_over":
            line.setdefault("order", [previous["striker"], 1 - previous["striker"]])
        out.append(line)
    return out


def check_same(lines: list[Any], other: list[Any], what: str) -> None:
    for number, ((a, board_a), (b, board_b)) in enumerate(zip(run(lines), run(other), strict=True), start=1):
        _same(b, a, f"{what}, line {number}: {other[number - 1]}")
        _same(board_b, board_a, f"{what}, line {number} (scoreboard)")


@settings(SETTINGS, max_examples=8)
@given(frame_logs(layouts=True), st.integers(0, 2**32 - 1))
def test_times_key_order_and_defaults_written_out_change_nothing(lines, seed):
    rng = random.Random(seed)
    base = timed(lines, rng)
    check_same(
        base, retimed(base, shift=rng.uniform(-1e4, 1e6), scale=rng.uniform(0.05, 20.0), fps=50.0), "retimed"
    )
    check_same(base, [reordered_text(line, rng) for line in base], "keys reordered")
    check_same(base, [with_defaults(line) for line in base], "defaults written out")
    check_same(base, with_player_written_out(base), "the player to play and the order written out")


# ---- cut and resumed -----------------------------------------------------------------------------


def test_a_log_cut_anywhere_and_continued_from_the_state_equals_the_uncut_run():
    for seed in SEEDS:
        for layouts in (False, True):
            lines = seeded(seed, layouts)
            whole = [ruling for ruling, _ in run(lines)]
            before = states(lines)
            for cut in range(1, len(lines), CUT_EVERY):
                referee = from_state(before[cut], cut)
                rest = [referee.apply(line) for line in lines[cut:]]
                _same(rest, whole[cut:], f"seed {seed} cut after line {cut}")


RUNNING_COUNTERS = ("line",)
"""The ruling's running count of lines: a resumed record replays only the lines it ruled
(``snooker.record.session.RUNNING_COUNTERS``), so a refused line before the cut is not counted."""


def _without_counters(ruling: Ruling) -> Ruling:
    return {k: v for k, v in ruling.items() if k not in RUNNING_COUNTERS}


def check_resumed_through_the_record(lines: list[Line], cuts: list[int], folder: Path, label: str) -> None:
    """The log applied through a match record up to each cut, the record closed and reopened
    (``MatchSession.resume``: its stored rulings the same on replay), the rest applied: every ruling
    and scoreboard as in the uncut run (the running counters aside)."""
    whole = run(lines)
    for cut in cuts:
        path = folder / f"{label}-{cut}.sqlite"
        first = MatchSession(MatchRecord(path).open())
        head = [first.apply(line, origin="test") for line in lines[:cut]]
        first.close()
        resumed = MatchSession(MatchRecord(path).open())
        found = resumed.resume()
        assert found.mismatches == [], f"{label} cut {cut}: stored rulings differ on replay"
        tail = [(resumed.apply(line, origin="test"), resumed.scoreboard()) for line in lines[cut:]]
        resumed.close()
        _same(head, [r for r, _ in whole[:cut]], f"{label}: the session before the cut")
        for number, ((a, board_a), (b, board_b)) in enumerate(
            zip(whole[cut:], tail, strict=True), start=cut + 1
        ):
            where = f"{label} cut {cut} line {number}: {lines[number - 1]}"
            _same(_without_counters(b), _without_counters(a), where)
            _same(board_b, board_a, where)


@pytest.mark.parametrize("layouts", [False, True])
def test_a_log_cut_and_resumed_from_the_match_record_equals_the_uncut_run(tmp_path, layouts):
    for seed in range(4):
        lines = seeded(seed, layouts)
        cuts = sorted({1, len(lines) // 3, len(lines) // 2, len(lines) - 1})
        check_resumed_through_the_record(lines, cuts, tmp_path, f"seed {seed} layouts {layouts}")


def table_line(previous: Ruling, state: Any) -> Line:
    """The ``table`` line a camera switched on now would write (docs/FRAME_LOG.md, joining a frame
    in play): the balls, what is on, the scores, the player to play, the cue ball, the places."""
    line: Line = {
        "type": "table",
        "reds": previous["reds"],
        "colours": previous["colours"],
        "ball_on": previous["ball_on"],
        "score": previous["score"],
        "striker": previous["striker"],
        "cue_in_hand": previous["in_hand"],
    }
    places = state.frame.table.positions
    if places is not None:
        line["positions"] = {ball: list(xy) for ball, xy in places}
    return line


def _joinable(previous: Ruling, state: Any) -> bool:
    """Nothing stands that a ``table`` line starts afresh (the break, a nomination, a free ball, a
    touching ball, a miss count, a decision) and the ball on is known: the first frame, in play."""
    return (
        "error" not in previous
        and previous["frame"] == 1
        and previous["status"] == "in_play"
        and previous["break"] == 0
        and not (
            previous["free_ball"] or previous["touching"] or previous["nominated"] or previous["warning"]
        )
        and previous["ball_on"] not in ("either", "none", "colour")
        and not previous["respotted_black"]
        and state.frame.miss_chain is None
        and not state.frame.scores_unknown
    )


JOIN_FIELDS_AFRESH = ("line", "type")
"""What a joined log numbers differently: its lines."""


def check_joined(lines: list[Line]) -> int:
    """A log cut where nothing but the balls and the scores stands, its head replaced by the ``table``
    line that says where it stood: the rest of the frame is ruled the same. Returns the cuts made."""
    whole = run(lines)
    before = states(lines)
    cuts = 0
    for cut in range(2, len(lines)):
        previous = whole[cut - 1][0]
        if not _joinable(previous, before[cut]):
            continue
        joined = run([lines[0], table_line(previous, before[cut]), *lines[cut:]])
        assert "error" not in joined[1][0], joined[1][0]
        cuts += 1
        for number, ((a, _), (b, _)) in enumerate(zip(whole[cut:], joined[2:], strict=True), start=cut + 1):
            if a.get("frame", 1) != 1:
                break
            where = f"cut {cut}, line {number}: {lines[number - 1]}"
            if "error" in a or "error" in b:
                _same("error" in a, "error" in b, where)
                continue
            _same(
                {k: v for k, v in b.items() if k not in JOIN_FIELDS_AFRESH},
                {k: v for k, v in a.items() if k not in JOIN_FIELDS_AFRESH},
                where,
            )
    return cuts


def test_a_log_cut_and_joined_with_a_table_line_equals_the_uncut_run():
    cuts = sum(check_joined(seeded(seed, layouts)) for seed in SEEDS[:4] for layouts in (False, True))
    assert cuts >= 40, cuts


# ---- a foul's ball concerned raised --------------------------------------------------------------

RAISED_FOULS = ("touched_ball", "push_stroke", "balls_moving")
"""3.12(b) fouls a line names with their ball concerned."""


def _ball(entry: Any) -> str:
    return entry["ball"] if isinstance(entry, dict) else entry


def _on_table(ruling: Ruling) -> list[str]:
    return (["red"] if ruling["reds"] else []) + list(ruling["colours"])


def _raise_candidates(line: Line, before: Ruling) -> list[tuple[Line, int, tuple[str, str] | None]]:
    """Copies of ``line`` with one foul's ball concerned replaced by a ball of higher value on the
    table, each with that value and, where the ball replaced left the table (and is re-spotted),
    (that ball, its replacement). In a stroke on a red (no free ball, no places: the places would
    have to move with the ball), a colour hit first, potted or forced off (3.12(b)) is replaced by a
    higher colour the stroke does not name already."""
    out: list[tuple[Line, int, tuple[str, str] | None]] = []
    balls = _on_table(before)
    if (
        line["type"] == "stroke"
        and before["ball_on"] == "red"
        and not before["free_ball"]
        and before["status"] == "in_play"
        and line.get("positions") is None
    ):
        named = {_ball(b) for key in ("first_contact", "potted", "off_table") for b in line.get(key) or []}
        for key in ("first_contact", "potted", "off_table"):
            entries = line.get(key) or []
            for i, entry in enumerate(entries if isinstance(entries, list) else []):
                ball = _ball(entry)
                for higher in before["colours"]:
                    if ball in COLOURS and VALUES[higher] > VALUES[ball] and higher not in named:
                        changed = list(entries)
                        changed[i] = {**entry, "ball": higher} if isinstance(entry, dict) else higher
                        gone = None if key == "first_contact" else (ball, higher)
                        out.append(({**line, key: changed}, VALUES[higher], gone))
    if line["type"] == "foul" and line.get("reason") in RAISED_FOULS and line.get("ball") in VALUES:
        for ball in balls:
            if VALUES[ball] > VALUES[line["ball"]]:
                out.append(({**line, "ball": ball}, VALUES[ball], None))
    if line["type"] == "stroke":
        for i, entry in enumerate(line.get("fouls", [])):
            if isinstance(entry, dict) and entry["reason"] in RAISED_FOULS and entry.get("ball") in VALUES:
                for ball in balls:
                    if VALUES[ball] > VALUES[entry["ball"]] and ball not in line.get("potted", []):
                        fouls = list(line["fouls"])
                        fouls[i] = {**entry, "ball": ball}
                        out.append(({**line, "fouls": fouls}, VALUES[ball], None))
    return out


def check_raised(lines: list[Line]) -> int:
    """Every raise of a foul's ball concerned on a line that does not end the frame; returns how
    many were checked."""
    before = states(lines)
    rulings = [r for r, _ in run(lines)]
    checked = 0
    for index, line in enumerate(lines[1:], start=1):
        a = rulings[index]
        previous = rulings[index - 1]
        if "error" in a or not a["foul"] or a["frame_over"] or a["status"] == "respotted_black_lot":
            continue
        if "error" in previous or a["condoned"]:
            continue
        for raised, value, gone in _raise_candidates(line, previous):
            b = from_state(before[index], index).apply(raised)
            where = f"line {index + 1}: {line} raised to {raised}"
            assert "error" not in b, where
            penalty = min(7, max(a["penalty"], value))
            side = 1 - a["offender"]
            score = list(a["score"])
            score[side] += penalty - a["penalty"]
            want = {
                **a,
                "penalty": penalty,
                "score": score,
                "announcements": [
                    penalty_call(penalty) if x == penalty_call(a["penalty"]) else x
                    for x in a["announcements"]
                ],
                "fouls": sorted(b["fouls"]),
                "snookers_required": b["snookers_required"],
            }
            if gone is not None:
                # The higher ball is re-spotted instead (3.7), the colours ordered as ever.
                respotted = sorted([gone[1] if x == gone[0] else x for x in a["respotted"]], key=VALUES.get)
                want["respotted"] = sorted(b["respotted"], key=VALUES.get)
                _same(want["respotted"], respotted, f"line {index + 1}: {line} raised to {raised}")
            if b["frame_over"] or b["status"] == "respotted_black_lot":
                continue
            got = {**b, "fouls": sorted(b["fouls"])}
            if gone is not None:
                got["respotted"] = sorted(b["respotted"], key=VALUES.get)
            _same(got, {**want, "fouls": sorted(a["fouls"])}, where)
            checked += 1
    return checked


@SETTINGS
@given(frame_logs())
def test_a_foul_on_a_ball_of_higher_value_raises_the_penalty_by_the_table_and_nothing_else(lines):
    check_raised(lines)


# ---- a pot turned into missing every ball ---------------------------------------------------------


def _missed(line: Line, miss: bool = False) -> Line:
    out: Line = {"type": "stroke", "first_contact": [], "potted": [], "cue_ball": "on_table", "miss": miss}
    if line.get("nominated") is not None:
        out["nominated"] = line["nominated"]
    return out


def expected_missed(previous: Ruling, line: Line) -> dict[str, Any]:
    """What 3.12 and 3.3 give for a stroke that hits nothing, from the state before it. With a free
    ball the value of the ball on is the same (3.10(a): the free ball "acquires the value of the ball
    on"); the free ball is gone with the stroke."""
    on = previous["ball_on"]
    nominated = line.get("nominated") or previous["nominated"]
    if on == "red" or on == "either":
        penalty, counted = 4, "missed_all_balls"
    elif on == "colour":
        if nominated is None:
            penalty, counted = 7, "foul_before_nomination"  # 3.12(d): a foul before nominating
        else:
            penalty, counted = max(4, VALUES[nominated]), "missed_all_balls"
    else:
        penalty, counted = max(4, VALUES[on]), "missed_all_balls"
    score = list(previous["score"])
    score[1 - previous["striker"]] += penalty
    want: dict[str, Any] = {
        "foul": True,
        "penalty": penalty,
        "points": 0,
        "scored": [],
        "counted": counted,
        "offender": previous["striker"],
        "score": score,
        "break": 0,
        "reds": previous["reds"],
        "colours": previous["colours"],
        "in_hand": False,
        "miss": False,
        "respotted": [],
    }
    last_black = previous["colours"] == ["black"] and previous["reds"] == 0
    if last_black:
        # 3.4(a)-(b): with only the black left a foul ends the frame; level scores, a re-spotted black
        # (none after a re-spotted black: its first foul decides it).
        if previous["respotted_black"] or score[0] != score[1]:
            want["frame_over"] = True
            want["winner"] = (
                1 - previous["striker"] if previous["respotted_black"] else score.index(max(score))
            )
        else:
            want.update(status="respotted_black_lot", respotted=["black"], in_hand=True)
    else:
        want.update(
            striker=1 - previous["striker"],
            ball_on="red" if previous["reds"] else previous["colours"][0],
            options=["play", "play_again"],
            free_ball=False,
            frame_over=False,
            status="decision",
        )
    return want


def check_missed(lines: list[Line]) -> int:
    before = states(lines)
    rulings = [r for r, _ in run(lines)]
    checked = 0
    for index, line in enumerate(lines[1:], start=1):
        a, previous = rulings[index], rulings[index - 1]
        if line["type"] != "stroke" or "error" in a or "error" in previous or a["foul"] or a["points"] <= 0:
            continue
        if (
            previous["status"] not in ("in_play", "decision")
            or line.get("player", previous["striker"]) != previous["striker"]
        ):
            continue
        if before[index].frame.table.positions is not None or line.get("positions") is not None:
            continue  # a miss (3.14) or a free ball judged from places: not this relation's
        # The pot itself: the break goes on (3.3(F)) by the points scored, the striker playing on
        # (once the frame is over, the next frame's breaker is named).
        _same(a["break"], previous["break"] + a["points"], f"line {index + 1}")
        if not a["frame_over"]:
            _same(a["striker"], previous["striker"], f"line {index + 1}")
        b = from_state(before[index], index).apply(_missed(line))
        want = expected_missed(previous, line)
        counted = want.pop("counted")
        if previous["status"] == "decision":
            want["decision"] = "play"  # the player to play struck: he chose to play (3.11(h))
        where = f"line {index + 1}: {line} turned into a miss of every ball after {previous}"
        assert "error" not in b, where
        _same({k: b[k] for k in want}, want, where)
        _same(b["fouls"][0], counted, where)
        checked += 1
        if not want.get("frame_over") and want.get("status") != "respotted_black_lot":
            # The referee calls a foul and a miss (3.14(a), overriding the score test): the same,
            # and the balls may be replaced.
            c = from_state(before[index], index).apply(_missed(line, miss=True))
            if previous["warning"]:
                # 3.14(c): warned when the balls were replaced, the striker misses from the same
                # position a third time: the frame is awarded to the opponent.
                want = {k: want[k] for k in ("foul", "penalty", "points", "offender", "score")}
                want.update(miss=True, frame_over=True, winner=1 - previous["striker"])
            else:
                want.update(miss=True, options=["play", "play_again", "replace"])
            _same({k: c[k] for k in want}, want, where + " (called a miss)")
            assert "FOUL AND A MISS" in c["announcements"], where
    return checked


@SETTINGS
@given(frame_logs())
def test_a_pot_turned_into_missing_every_ball_is_the_foul_of_3_12(lines):
    check_missed(lines)


# ---- places moved a hair ----------------------------------------------------------------------------


def nudged(line: Line, rng: random.Random, by: float) -> Line:
    out = copy.deepcopy(line)

    def move(places: dict[str, list[float]]) -> dict[str, list[float]]:
        moved = {}
        for ball, (x, y) in places.items():
            angle = rng.uniform(0.0, 2.0 * math.pi)
            moved[ball] = [x + by * math.cos(angle), y + by * math.sin(angle)]
        return moved

    positions = out.get("positions")
    if isinstance(positions, dict):
        for key in ("before", "after"):
            if positions.get(key) is not None:
                positions[key] = move(positions[key])
    return out


def _close_respots(a: list[Any], b: list[Any]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return False
        elif x["ball"] != y["ball"] or math.dist(x["position"], y["position"]) > SAME_PLACE_MM:
            return False
    return True


def _as_named(ruling: dict[str, Any]) -> dict[str, Any]:
    """A ruling (or scoreboard) with its re-spots left out (compared apart) and the balls touching
    as a set: they are named nearest first, and two balls equally near (the layouts place some so)
    change places with a hair's move; which balls are named must not."""
    out = {**ruling, "respotted": None}
    if "touching" in out:
        out["touching"] = sorted(out["touching"])
    return out


def check_nudged(lines: list[Line], seed: int) -> None:
    rng = random.Random(seed)
    other = [nudged(line, rng, TINY_MOVE_MM) for line in lines]
    for number, ((a, board_a), (b, board_b)) in enumerate(zip(run(lines), run(other), strict=True), start=1):
        where = f"line {number}: {lines[number - 1]}"
        assert _close_respots(a.get("respotted", []), b.get("respotted", [])), where
        _same(_as_named(b), _as_named(a), where)
        _same(_as_named(board_b), _as_named(board_a), where + " (scoreboard)")


@SETTINGS
@given(frame_logs(layouts=True), st.integers(0, 2**32 - 1))
def test_places_moved_a_hair_change_nothing(lines, seed):
    check_nudged(lines, seed)


# ---- seeded runs, and what they reach -------------------------------------------------------------

LANDMARKS: dict[str, Callable[[Ruling], bool]] = {
    "colours phase": lambda r: r["reds"] == 0 and r["ball_on"] in COLOURS[:-1],
    "free ball": lambda r: r["free_ball"],
    "miss": lambda r: r["miss"],
    "re-spotted black": lambda r: r["respotted_black"],
    "frame over": lambda r: r["frame_over"],
}


def test_seeded_logs_keep_every_relation_and_reach_the_cases_that_matter():
    seen: dict[bool, set[str]] = {False: set(), True: set()}
    mirrored_lines = raised = missed = 0
    for seed in SEEDS:
        for layouts in (False, True):
            lines = seeded(seed, layouts)
            for ruling, _ in run(lines):
                if "error" not in ruling:
                    seen[layouts].update(name for name, reached in LANDMARKS.items() if reached(ruling))
            check_exchanged(lines)
            raised += check_raised(lines)
            missed += check_missed(lines)
            if layouts:
                mirrored_lines += check_mirror_line_by_line(lines)
                check_mirror(lines)
                check_nudged(lines, seed)
    assert seen[True] >= {"free ball", "miss", "frame over"}, seen
    assert seen[False] >= set(LANDMARKS), seen
    assert mirrored_lines >= 150 and raised >= 40 and missed >= 12, (mirrored_lines, raised, missed)
