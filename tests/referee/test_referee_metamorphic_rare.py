"""Metamorphic relations on the rarer lines (the thirty-second audit): the relations of
test_referee_metamorphic.py run over rare_logs.py's logs — four-handed matches (3.17), matches on
aggregate points (3.1(g)), spotting errors (3.7), balls moved by others (3.15), concessions of the
frame and the match (3.1(f)-(g)), re-racks (3.16), fouls outside strokes by a player out of turn or a
partner conferring (3.11(a), 3.17(e)), condoned strokes (3.11(c)) and strokes partly unwatched.

- The table mirrored left-right: the same rulings (the yellow's and the green's own spots aside, as
  there), line by line from the state and its mirror image too.
- The players renamed; the players' places permuted, each side's players kept in their order
  (3.17(a): "kolejność [...] ustalona na początku frejma", the sides alternating — the default
  order reads the listed order within a side), the ``sides`` following them: every player index
  follows, the per-side fields stay; the sides' labels exchanged (``sides`` 0 ↔ 1): every per-side
  field exchanged, nothing else.
- Times shifted and scaled, keys reordered, defaults written out (the player to play, the order
  of play a ``new_frame`` takes): the same rulings.
- Cut anywhere and continued from the state, or resumed from the match record: the same rulings.
- Every place moved by 0.01 mm (the ``position`` of a ``spot_error`` or ``ball_moved`` line too): the
  same rulings.
- Lines whose effect the rules undo: a ball moved by another and put back where it was (3.15), a
  re-rack (3.16: the frame as before its start), a spotting error put right at once (3.7(b)-(c)):
  ruled as the log without them.
- Re-racks, frames conceded, balls moved and matches on aggregate points (1(F)-(G), 3.15, 3.16,
  4(A)/(C)) against the second scorer, extended for them from the Polish text.

Hypothesis runs are derandomized and bounded; the seeded runs must reach every rare line applied
(not refused), so no relation is checked vacuously on them.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
import test_referee_metamorphic as base
from differential_logs import Chooser, Line, disagreements, generate
from hypothesis import given, settings
from hypothesis import strategies as st
from rare_logs import generate_rare

Ruling = dict[str, Any]
SETTINGS = settings(base.SETTINGS, max_examples=6)
SEEDS = tuple(range(12))
"""The seeded rare logs (plain ``random``), with and without layouts."""
RECORD_SEEDS = tuple(range(3))
"""The seeded logs cut and resumed through the match record (each cut opens two sqlite files)."""


@st.composite
def rare_logs(draw, layouts: bool = False) -> list[Line]:
    return generate_rare(base._chooser(draw), max_lines=50, layouts=layouts)


def seeded(seed: int, layouts: bool) -> list[Line]:
    rng = random.Random(seed)
    return generate_rare(Chooser(lambda seq: rng.choice(list(seq)), rng.randint), layouts=layouts)


# ---- the mirror --------------------------------------------------------------------------------


@SETTINGS
@given(rare_logs(layouts=True))
def test_the_mirrored_table_gives_the_same_rulings_on_the_rare_lines(lines):
    base.check_mirror(lines)
    base.check_mirror_line_by_line(lines)


# ---- the players -------------------------------------------------------------------------------


def _sides(match: Line) -> list[int]:
    n = len(match["players"])
    return list(match.get("sides") or [i % 2 for i in range(n)])


def side_keeping_permutation(match: Line) -> list[int]:
    """``perm[i]``: the new place of player ``i``. Each side's k-th listed player takes the other
    side's k-th place, so every side's players keep their listed order."""
    sides = _sides(match)
    members = [[p for p in range(len(sides)) if sides[p] == s] for s in (0, 1)]
    perm = [0] * len(sides)
    for a, b in zip(*members, strict=True):
        perm[a], perm[b] = b, a
    return perm


def permuted(line: Line, perm: list[int], sides: list[int]) -> Line:
    """The line with every player index moved by ``perm`` (the match line's players and sides with
    them)."""
    out = copy.deepcopy(line)
    if out["type"] == "match":
        players = [""] * len(perm)
        new_sides = [0] * len(perm)
        for i, p in enumerate(perm):
            players[p] = out["players"][i]
            new_sides[p] = sides[i]
        out["players"], out["sides"] = players, new_sides
        out["breaker"] = perm[out.get("breaker", 0)]
    for key in ("player", "striker", "first"):
        if isinstance(out.get(key), int) and not isinstance(out.get(key), bool):
            out[key] = perm[out[key]]
    if out["type"] == "new_frame" and out.get("order") is not None:
        out["order"] = [perm[i] for i in out["order"]]
    return out


def _moved(values: list[Any], perm: list[int]) -> list[Any]:
    out = list(values)
    for i, v in enumerate(values):
        out[perm[i]] = v
    return out


def _idx(value: int | None, perm: list[int]) -> int | None:
    return None if value is None else perm[value]


def expected_permuted(ruling: Ruling, perm: list[int]) -> Ruling:
    conceded = ruling["match_conceded"]
    return {
        **ruling,
        "striker": _idx(ruling["striker"], perm),
        "offender": _idx(ruling["offender"], perm),
        "match_conceded": None if conceded is None else {**conceded, "player": perm[conceded["player"]]},
    }


def expected_board_permuted(board: dict[str, Any], perm: list[int]) -> dict[str, Any]:
    last, conceded = board["last_foul"], board["match_conceded"]
    return {
        **board,
        "players": _moved(board["players"], perm),
        "sides": _moved(board["sides"], perm),
        "match_highest_break": _moved(board["match_highest_break"], perm),
        "striker": _idx(board["striker"], perm),
        "breaker": _idx(board["breaker"], perm),
        "order": [perm[i] for i in board["order"]],
        "last_foul": None if last is None else {**last, "offender": perm[last["offender"]]},
        "match_conceded": None if conceded is None else {**conceded, "player": perm[conceded["player"]]},
    }


def check_mapped(
    lines: list[Line],
    other: list[Line],
    what: str,
    want: Callable[[Ruling], Ruling],
    want_board: Callable[[Ruling], Ruling],
) -> None:
    """Each line of ``other`` (``lines`` transformed) rules as ``want`` maps the ruling of the line
    it came from, its scoreboard as ``want_board`` maps that one's; a line refused in one run is
    refused in the other."""
    for number, ((a, board_a), (b, board_b)) in enumerate(
        zip(base.run(lines), base.run(other), strict=True), start=1
    ):
        where = f"line {number}: {lines[number - 1]} ({what})"
        if "error" in a or "error" in b:
            base._same("error" in a, "error" in b, where)
            continue
        base._same(b, want(a), where)
        base._same(board_b, want_board(board_a), where + " (scoreboard)")


def check_permuted(lines: list[Line]) -> None:
    perm = side_keeping_permutation(lines[0])
    sides = _sides(lines[0])
    other = [permuted(line, perm, sides) for line in lines]
    check_mapped(
        lines,
        other,
        f"players moved {perm}",
        lambda a: expected_permuted(a, perm),
        lambda board: expected_board_permuted(board, perm),
    )


def relabelled(line: Line) -> Line:
    """The line with the sides' labels exchanged: the match line's ``sides`` 0 ↔ 1, a ``table``
    line's scores per side reversed."""
    out = copy.deepcopy(line)
    if out["type"] == "match":
        out["sides"] = [1 - s for s in _sides(out)]
    if out["type"] == "table" and out.get("score") is not None:
        out["score"] = list(reversed(out["score"]))
    return out


def _flip(side: int | None) -> int | None:
    return None if side is None else 1 - side


PER_SIDE = ("score", "frames", "snookers_required")
BOARD_PER_SIDE = ("frames", "totals", "score", "scores", "highest_break", "snookers_required")


def expected_relabelled(ruling: Ruling, board: bool = False) -> Ruling:
    conceded = ruling["match_conceded"]
    out = {
        **ruling,
        **{k: ruling[k][::-1] for k in (BOARD_PER_SIDE if board else PER_SIDE)},
        "winner": _flip(ruling["winner"]),
        "match_winner": _flip(ruling["match_winner"]),
        "match_conceded": None if conceded is None else {**conceded, "side": 1 - conceded["side"]},
    }
    if board:
        out["sides"] = [1 - s for s in ruling["sides"]]
    return out


def check_relabelled(lines: list[Line]) -> None:
    other = [relabelled(line) for line in lines]
    check_mapped(
        lines, other, "sides relabelled", expected_relabelled, partial(expected_relabelled, board=True)
    )


def check_renamed(lines: list[Line]) -> None:
    old = lines[0]["players"]
    new = ["Zoë Ng", "Ó Súilleabháin", "Åsa Łukasz", "Nguyễn Văn"][: len(old)]
    names = dict(zip(old, new, strict=True))
    other = copy.deepcopy(lines)
    other[0]["players"] = new

    def rename(text: str) -> str:
        # Names stand in calls ("FRAME TO Pa & Rc"): the generator's names are words no call uses.
        # Calls are in capitals.
        called = {**names, **{k.upper(): v.upper() for k, v in names.items()}}
        return " ".join(called.get(word, word) for word in text.split(" "))

    check_mapped(
        lines,
        other,
        "renamed",
        lambda a: {**a, "player": names[a["player"]], "announcements": list(map(rename, a["announcements"]))},
        lambda board: {**board, "players": new, "striker_name": names[board["striker_name"]]},
    )


@SETTINGS
@given(rare_logs())
def test_the_players_moved_or_the_sides_relabelled_move_only_their_fields(lines):
    check_permuted(lines)
    check_relabelled(lines)


# ---- times, key order, defaults ----------------------------------------------------------------


def with_player_and_order_written_out(lines: list[Line]) -> list[Line]:
    """Each stroke, foul and concession by the player to play naming him (but a stroke with places
    while a choice after a foul is open: they may show the balls replaced, 3.14, and the offender
    playing), each ``new_frame`` stating the order of play it takes by default (the scoreboard's
    after it in the run as logged)."""
    rulings = base.run(lines)
    out = []
    previous: Ruling = {}
    for line, (ruling, board) in zip(lines, rulings, strict=True):
        line = dict(line)
        status = previous.get("status")
        named = status == "in_play" or (status == "decision" and line.get("positions") is None)
        if line["type"] in ("stroke", "foul", "concede") and named:
            # After a foul, a camera's stroke with places may show the balls replaced: then the
            # offender is the one to play (FRAME_LOG.md, ``decision``), not the player choosing.
            line.setdefault("player", previous["striker"])
        if line["type"] == "new_frame" and "error" not in ruling:
            line.setdefault("order", list(board["order"]))
        out.append(line)
        if "error" not in ruling:
            previous = ruling
    return out


@settings(SETTINGS, max_examples=5)
@given(rare_logs(layouts=True), st.integers(0, 2**32 - 1))
def test_times_key_order_and_defaults_change_nothing_on_the_rare_lines(lines, seed):
    rng = random.Random(seed)
    timed = base.timed(lines, rng)
    check = base.check_same
    check(
        timed,
        base.retimed(timed, shift=rng.uniform(-1e4, 1e6), scale=rng.uniform(0.05, 20.0), fps=50.0),
        "retimed",
    )
    check(timed, [base.reordered_text(line, rng) for line in timed], "keys reordered")
    check(timed, [base.with_defaults(line) for line in timed], "defaults written out")
    check(timed, with_player_and_order_written_out(timed), "the player to play and the order written out")


# ---- tiny moves ----------------------------------------------------------------------------------


def nudged(line: Line, rng: random.Random) -> Line:
    """The stroke's places, and the place a ``spot_error`` or ``ball_moved`` line states, moved by
    ``TINY_MOVE_MM`` each in a random direction."""
    out = base.nudged(line, rng, base.TINY_MOVE_MM)
    if out.get("position") is not None:
        angle = rng.uniform(0.0, 2.0 * math.pi)
        x, y = out["position"]
        out["position"] = [x + base.TINY_MOVE_MM * math.cos(angle), y + base.TINY_MOVE_MM * math.sin(angle)]
    return out


def check_nudged(lines: list[Line], seed: int) -> None:
    rng = random.Random(seed)
    other = [nudged(line, rng) for line in lines]
    for number, ((a, board_a), (b, board_b)) in enumerate(
        zip(base.run(lines), base.run(other), strict=True), start=1
    ):
        where = f"line {number}: {lines[number - 1]} (nudged)"
        assert base._close_respots(a.get("respotted", []), b.get("respotted", [])), where
        base._same(base._as_named(b), base._as_named(a), where)
        base._same(base._as_named(board_b), base._as_named(board_a), where + " (scoreboard)")


@SETTINGS
@given(rare_logs(layouts=True), st.integers(0, 2**32 - 1))
def test_places_moved_a_hair_change_nothing_on_the_rare_lines(lines, seed):
    check_nudged(lines, seed)


# ---- cut and resumed -------------------------------------------------------------------------------


def check_cut(lines: list[Line], where: str) -> None:
    whole = [ruling for ruling, _ in base.run(lines)]
    before = base.states(lines)
    for cut in range(1, len(lines), base.CUT_EVERY):
        referee = base.from_state(before[cut], cut)
        base._same(
            [referee.apply(line) for line in lines[cut:]], whole[cut:], f"{where} cut after line {cut}"
        )


@pytest.mark.parametrize("layouts", [False, True])
def test_a_rare_log_cut_and_resumed_from_the_match_record_equals_the_uncut_run(tmp_path, layouts):
    for seed in RECORD_SEEDS:
        lines = seeded(seed, layouts)
        cuts = sorted({len(lines) // 3, 2 * len(lines) // 3, len(lines) - 1})
        base.check_resumed_through_the_record(lines, cuts, tmp_path, f"seed {seed} layouts {layouts}")


# ---- lines that put back what stood -------------------------------------------------------------

PER_LINE = ("line", "type")
"""What a log with a line more or less numbers differently."""


def _same_from(lines: list[Line], start: int, other: list[Line], other_start: int, where: str) -> None:
    """The rulings (and scoreboards) of ``lines[start:]`` equal those of ``other[other_start:]``."""
    ours, theirs = base.run(lines)[start:], base.run(other)[other_start:]
    for number, ((a, board_a), (b, board_b)) in enumerate(zip(ours, theirs, strict=True), start=start + 1):
        at = f"{where}, line {number}: {lines[number - 1]}"
        base._same("error" in b, "error" in a, at)
        base._same(
            {k: v for k, v in b.items() if k not in PER_LINE},
            {k: v for k, v in a.items() if k not in PER_LINE},
            at,
        )
        base._same(board_b, board_a, at + " (scoreboard)")


def check_put_back(lines: list[Line]) -> int:
    """Lines whose effect the rules undo, checked against the log without them; returns how many.

    - A ``ball_moved`` with no place: the referee puts the ball back where it was, no penalty (3.15:
      "ustawiona przez sędziego w miejscu zajmowanym poprzednio [...] bez orzekania kary"): the log
      without the line is ruled the same from there on.
    - A ``rerack``: "sędzia anuluje wszystkie zdobyte punkty, ustawia bile jak przed rozpoczęciem
      frejmu oraz (A) ten sam zawodnik wykonuje zagranie otwierające; (B) obowiązuje ta sama
      kolejność gry" (3.16): the frame's lines before it dropped, the rest is ruled the same.
    - A spotting error (no places stated) found and put right at once (3.7(b)-(c): removed, or
      spotted, without penalty, play going on): the same as no error at all."""
    rulings = [r for r, _ in base.run(lines)]
    checked = 0
    for i, line in enumerate(lines):
        if "error" in rulings[i]:
            continue
        where = f"{line['type']} at line {i + 1}"
        if line["type"] == "ball_moved" and line.get("position") is None:
            _same_from(lines, i + 1, lines[:i] + lines[i + 1 :], i, where)
            checked += 1
        elif line["type"] == "rerack":
            start = max(j for j in range(i) if lines[j]["type"] in ("match", "new_frame"))
            head = lines[: start + 1]
            _same_from(lines, i + 1, head + lines[i + 1 :], len(head), where)
            checked += 1
        elif line["type"] == "spot_error" and not line.get("corrected") and not _placed(lines):
            fixed = {"type": "spot_error", "ball": line["ball"], "error": line["error"], "corrected": True}
            _same_from([*lines[: i + 1], fixed, *lines[i + 1 :]], i + 2, lines[:i] + lines[i + 1 :], i, where)
            checked += 1
    return checked


def _placed(lines: list[Line]) -> bool:
    return any(line.get("positions") is not None or line.get("position") is not None for line in lines)


@SETTINGS
@given(rare_logs())
def test_a_ball_moved_a_rerack_and_a_spotting_error_put_right_are_ruled_as_the_rules_put_back(lines):
    check_put_back(lines)


# ---- the second scorer on the rare lines it models ---------------------------------------------------


@st.composite
def scorer_logs(draw) -> list[Line]:
    return generate(base._chooser(draw), max_lines=80, rare=True)


@SETTINGS
@given(scorer_logs())
def test_the_referee_agrees_with_the_second_scorer_on_reracks_concessions_and_balls_moved(lines):
    assert disagreements(lines) == []


DIFFERENTIAL_SEEDS = tuple(range(10))


def seeded_with_scorer(seed: int) -> list[Line]:
    rng = random.Random(seed)
    return generate(Chooser(lambda seq: rng.choice(list(seq)), rng.randint), rare=True)


def test_seeded_logs_with_reracks_concessions_and_balls_moved_agree_with_the_second_scorer():
    kinds: set[str] = set()
    for seed in DIFFERENTIAL_SEEDS:
        lines = seeded_with_scorer(seed)
        assert disagreements(lines) == [], f"seed {seed}"
        kinds |= {line["type"] for line in lines}
    assert kinds >= {"rerack", "concede", "ball_moved"}, kinds


# ---- seeded runs, and what they reach --------------------------------------------------------------


def reached(line: Line, ruling: Ruling, match: Line) -> set[str]:
    """The rare cases a line applied (not refused) shows."""
    if "error" in ruling:
        return set()
    out = set()
    kind = line["type"]
    four = len(match["players"]) == 4
    if kind == "stroke":
        if ruling["condoned"]:
            out.add("condoned stroke")
        if line.get("unwatched_s"):
            out.add("unwatched stroke")
        if four and "out_of_turn" in ruling["fouls"]:
            out.add("four-handed stroke out of turn")
        if four and ruling["foul"]:
            out.add("four-handed foul")
    if kind == "spot_error":
        out.add(f"spot_error {line['error']}" + (" corrected" if line.get("corrected") else ""))
    if kind == "ball_moved":
        out.add("ball_moved" + (" at a place" if line.get("position") else ""))
    if kind == "foul" and line.get("player") is not None:
        out.add("conferring" if line["reason"] == "conferring" else "foul line by another player")
    if kind == "concede":
        out.add("match conceded" if line.get("match") else "frame conceded")
    if kind == "rerack":
        out.add("rerack")
    if kind == "new_frame" and four:
        out.add("four-handed new frame")
    if match.get("aggregate") and ruling["frame_ended"]:
        out.add("aggregate frame ended")
    if ruling["wrongly_spotted"] and kind == "stroke":
        out.add("stroke with a colour wrongly spotted")
    if ruling["not_spotted"] and kind == "stroke":
        out.add("stroke with a colour not spotted")
    return out


RARE_CASES = {
    "condoned stroke",
    "unwatched stroke",
    "four-handed stroke out of turn",
    "four-handed foul",
    "spot_error wrongly_spotted",
    "spot_error wrongly_spotted corrected",
    "spot_error not_spotted",
    "spot_error not_spotted corrected",
    "ball_moved",
    "ball_moved at a place",
    "foul line by another player",
    "conferring",
    "frame conceded",
    "match conceded",
    "rerack",
    "four-handed new frame",
    "aggregate frame ended",
    "stroke with a colour wrongly spotted",
    "stroke with a colour not spotted",
}


def test_seeded_rare_logs_keep_every_relation_and_reach_every_rare_line():
    seen: set[str] = set()
    put_back = 0
    for seed in SEEDS:
        for layouts in (False, True):
            lines = seeded(seed, layouts)
            for line, (ruling, _) in zip(lines, base.run(lines), strict=True):
                seen |= reached(line, ruling, lines[0])
            where = f"seed {seed} layouts {layouts}"
            check_cut(lines, where)
            check_permuted(lines)
            check_relabelled(lines)
            check_renamed(lines)
            put_back += check_put_back(lines)
            if layouts:
                base.check_mirror(lines)
                base.check_mirror_line_by_line(lines)
                check_nudged(lines, seed)
    assert seen >= RARE_CASES, sorted(RARE_CASES - seen)
    assert put_back >= 15, put_back
