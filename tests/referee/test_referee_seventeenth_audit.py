"""A seventeenth audit of the referee: metamorphic relations between the rulings of related logs.

Without knowing the right ruling of a log, some relations between the rulings of two logs must hold.
Each property below draws a log (the camera-style logs with positions of
test_referee_camera_properties, or the random legal matches of the fourteenth audit), transforms it
in a way the texts say changes nothing (or changes one thing in a known direction), replays both and
compares the rulings line by line:

- MIRROR: the table mirrored left-right (x -> width - x in every place, ``*_left`` <-> ``*_right``
  pockets). The D, the baulk line and the spots of brown, blue, pink and black are symmetric; yellow's
  and green's spots swap sides, so a yellow or green re-spotted where places are kept is compared
  from its own spot (its place is not the mirror image) and the logs are compared up to that line;
- NAMES: reds' ids renamed by a permutation, the lists (``first_contact``, ``potted``, ``off_table``,
  ``touching``, ``moving_at_strike``) reordered, plain names <-> ``{"ball", "pocket"}`` objects with
  any pocket, an unknown field added to every line, other player names: identical rulings (but the
  ``player`` name);
- JITTER: every place moved by far less than any tolerance of the geometry (a micrometre): identical
  rulings, where no place lies on a boundary (the camera logs' places are on a 0.1 mm grid, so none
  sits within a micrometre of a tolerance boundary except by design; a difference is reported);
- SPLIT: a log ruled in two referees, the second given the state the first left: identical;
- FOULS: a foul reason worth no more than the stroke's existing penalty (``double_hit``: the ball on)
  added to a fouled stroke keeps its penalty and every other field; a ``touched_ball`` on a ball of
  value v raises the penalty to max(penalty, v) and no further (3.12(b)).

- JOIN: the log from line k on, after a ``table`` line saying the frame as the head left it (reds,
  colours, ball on, cue in hand, places, score, striker), is ruled as the whole log (but the break);
- SIDES: the two players listed the other way round (breaker, ``player``, ``first``, ``order``,
  ``striker`` and a table line's score mapped): the rulings with the per-side fields swapped back;
- the rule geometry (snookered, any part, full ball, the snookering balls; on the table and in
  hand) answers the same on the mirror image of the fifteenth audit's near-boundary layouts.

The generators are derandomised (no example database, no shrinking: a failure is reported as found)
so a run of the whole suite sees the same logs each time (a folder's run sees others: see
test_referee_fourteenth_audit); to hunt, raise ``max_examples`` (several thousand logs were run
while writing this audit: mirror 400, names 360, jitter 300, fouls 300, sides 210, join 600).

Outcome: no fault. What the relations turned up, each the referee's design or the texts':

- 3.10(a) "bila tak deklarowana nabiera znaczenia i wartości bili rozgrywanej": a ``touched_ball``
  on the free ball (nominated, or read from the first contact when no nomination is logged) is
  worth the ball on's value, not its own; the FOULS relation leaves the free ball out;
- ``scored`` lists the balls in the log's order of ``potted`` (compared as a multiset);
- four-handed, the default order of frame 1 is not the match line's list read on from the breaker:
  the other side starts with its lowest-listed player (``rules.default_order``). 3.17(a) "Kolejność
  gry ustalana jest na początku każdego frejmu": the order is the players' to set, so a listing
  rotated by one is another order, not the same match (no relation; ``new_frame.order`` says it);
- the referee keeps a potted red's place when the log pots it as a plain ``red`` while the places
  after still show it (``rules._without_balls_off_the_table``: which red a stale place is of cannot
  be told); such a table cannot be said by a ``table`` line, so JOIN skips it;
- a yellow or green re-spotted where places are kept goes to its own spot, which is not the mirror
  image of the other's: MIRROR compares up to that line.
"""

from __future__ import annotations

import copy
import json
import math
import re
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_referee_camera_properties import camera_logs
from test_referee_fourteenth_audit import Driver, Model, _check, match_line

from snooker.balls import BALL_VALUES, COLOURS
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee, replay

WIDTH = STANDARD_TABLE.width_mm
SWAP_SIDE = {"left": "right", "right": "left"}
ASYMMETRIC_SPOTS = tuple(c for c in COLOURS if STANDARD_TABLE.spots[c][0] != WIDTH / 2.0)
"""Colours whose spots are not on the long axis (yellow, green): their re-spotted places do not mirror."""
RED_ID = re.compile(r"\"(red-\d+)\"")
JITTER_MM = 1e-3
"""Far below every tolerance of the geometry (the smallest are tenths of a millimetre)."""
POSITION_LISTS = ("first_contact", "potted", "off_table", "touching", "moving_at_strike", "fell_from_edge")

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    # a failure is reported as found: shrinking these long logs takes minutes
    phases=(Phase.explicit, Phase.generate),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- transforms ----------------------------------------------------------------------------------


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _map_places(places: Any, f) -> Any:
    if not isinstance(places, dict):
        return places
    out = {}
    for ball, xy in places.items():
        if isinstance(xy, list) and len(xy) == 2 and all(_is_number(v) and abs(v) < 1e300 for v in xy):
            out[ball] = f(xy)  # (a coordinate too large for a float is left for the line's refusal)
        else:
            out[ball] = xy
    return out


def _map_positions(line: dict[str, Any], f) -> None:
    positions = line.get("positions")
    if line.get("type") == "table":
        line["positions"] = _map_places(positions, f)
    elif isinstance(positions, dict):
        for side in ("before", "after"):
            if side in positions:
                positions[side] = _map_places(positions[side], f)
    if isinstance(line.get("position"), list) and all(_is_number(v) for v in line["position"]):
        line["position"] = f(line["position"])


def _mirror_pocket(pocket: Any) -> Any:
    if not isinstance(pocket, str) or "_" not in pocket:
        return pocket
    end, side = pocket.rsplit("_", 1)
    return f"{end}_{SWAP_SIDE.get(side, side)}"


def mirror(log: list[Any]) -> list[Any]:
    out = copy.deepcopy(log)
    for line in out:
        if not isinstance(line, dict):
            continue
        _map_positions(line, lambda xy: [WIDTH - xy[0], xy[1]])
        if isinstance(line.get("potted"), list):
            line["potted"] = [
                {**e, "pocket": _mirror_pocket(e.get("pocket"))} if isinstance(e, dict) else e
                for e in line["potted"]
            ]
    return out


def jitter(log: list[Any], dx: float, dy: float) -> list[Any]:
    out = copy.deepcopy(log)
    for line in out:
        if isinstance(line, dict):
            _map_positions(line, lambda xy: [xy[0] + dx, xy[1] + dy])
    return out


def _rename(name: Any, ids: dict[str, str]) -> Any:
    return ids.get(name, name) if isinstance(name, str) else name


def rename(log: list[Any], rnd, extra_field: bool = True) -> tuple[list[Any], dict[str, str]]:
    """Red ids permuted, lists reordered, names <-> pocket objects, an unknown field, other names;
    returns the new log and the ids and names renamed (old -> new)."""
    out = copy.deepcopy(log)
    reds = sorted({m for line in out if isinstance(line, dict) for m in RED_ID.findall(json.dumps(line))})
    targets = [f"red-{n}" for n in rnd.sample(range(100, 100 + 3 * max(len(reds), 1)), len(reds))]
    ids = dict(zip(reds, targets, strict=True))
    renamed = dict(ids)
    for line in out:
        if not isinstance(line, dict):
            continue
        if line is out[0] and line.get("type") == "match" and isinstance(line.get("players"), list):
            new = [f"Z{i}" for i in range(len(line["players"]))]
            renamed.update({str(a).upper(): b.upper() for a, b in zip(line["players"], new, strict=True)})
            line["players"] = new
        for key in POSITION_LISTS:
            value = line.get(key)
            if not isinstance(value, list):
                continue
            value = [
                {**e, "ball": _rename(e.get("ball"), ids)} if isinstance(e, dict) else _rename(e, ids)
                for e in value
            ]
            if key == "potted":
                value = [_flip_entry(e, rnd) for e in value]
            rnd.shuffle(value)
            line[key] = value
        if line.get("type") == "table" and isinstance(line.get("positions"), dict):
            line["positions"] = {_rename(b, ids): xy for b, xy in line["positions"].items()}
        positions = line.get("positions")
        if line.get("type") == "stroke" and isinstance(positions, dict):
            for side in ("before", "after"):
                if isinstance(positions.get(side), dict):
                    places = list(positions[side].items())
                    rnd.shuffle(places)
                    positions[side] = {_rename(b, ids): xy for b, xy in places}
        if extra_field:
            line["x_unknown_field"] = {"note": "ignored"}
    return out, renamed


def _flip_entry(entry: Any, rnd) -> Any:
    pockets = ["baulk_left", "baulk_right", "middle_left", "middle_right", "top_left", "top_right"]
    if isinstance(entry, dict) and set(entry) == {"ball", "pocket"} and entry["pocket"] in pockets:
        return entry["ball"] if rnd.random() < 0.5 else {"ball": entry["ball"], "pocket": rnd.choice(pockets)}
    if isinstance(entry, str):
        return {"ball": entry, "pocket": rnd.choice(pockets)}
    return entry


def swap_sides(log: list[Any]) -> list[Any]:
    """Two players listed the other way round: every player index i becomes 1 - i."""
    out = copy.deepcopy(log)
    for line in out:
        if not isinstance(line, dict):
            continue
        kind = line.get("type")
        if kind == "match" and isinstance(line.get("players"), list):
            line["players"] = list(reversed(line["players"]))
            line["breaker"] = 1 - line.get("breaker", 0)
        for key in ("player", "first", "striker"):
            if isinstance(line.get(key), int) and not isinstance(line.get(key), bool):
                line[key] = 1 - line[key]
        if isinstance(line.get("order"), list):
            line["order"] = [1 - i for i in line["order"]]
        if kind == "table" and isinstance(line.get("score"), list):
            line["score"] = list(reversed(line["score"]))
    return out


PER_SIDE = ("score", "frames", "snookers_required")
PLAYER_INDEX = ("striker", "offender", "winner", "match_winner")


def _swapped_back(ruling: dict[str, Any]) -> dict[str, Any]:
    if "error" in ruling:
        return ruling
    out = dict(ruling)
    for key in PER_SIDE:
        out[key] = list(reversed(ruling[key]))
    for key in PLAYER_INDEX:
        if isinstance(ruling[key], int):
            out[key] = 1 - ruling[key]
    return out


def check_sides(log: list[Any]) -> None:
    whole, swapped = replay(log), replay(swap_sides(log))
    for n, (a, b) in enumerate(zip(whole, swapped, strict=True)):
        diff = _same(a, _swapped_back(b))
        assert not diff, f"sides: line {n} differs in {diff}: {_d(a, _swapped_back(b), diff)}; log {log}"


@st.composite
def legal_logs(draw, players: int = 2) -> list[Any]:
    """A random legal match of the fourteenth audit (its model checked as it goes), as a log."""
    best_of, rack = draw(st.sampled_from([1, 3])), draw(st.sampled_from([6, 10, 15]))
    aggregate = draw(st.integers(0, 3)) == 0
    model = Model(best_of=best_of, rack=rack, players=players, aggregate=aggregate)
    data = _Data(draw)
    driver = Driver(data, model)
    referee = Referee()
    log: list[Any] = [match_line(players, best_of, rack, aggregate)]
    referee.apply(log[0])
    for _ in range(draw(st.integers(20, 120))):
        if model.match_over:
            break
        line, expect = driver.next_line()
        log.append(line)
        _check(line, referee.apply(line), expect, model, log)
    return log


class _Data:
    """``st.data()``'s ``draw`` for the fourteenth audit's driver, inside a composite strategy."""

    def __init__(self, draw) -> None:
        self.draw = draw


# --- comparing -----------------------------------------------------------------------------------


def _mirror_respotted(item: Any) -> Any:
    if isinstance(item, dict) and isinstance(item.get("position"), list):
        x, y = item["position"]
        return {"ball": item["ball"], "position": [WIDTH - x, y]}
    return item


def _close(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], tol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b, strict=True))
    if _is_number(a) and _is_number(b) and a != b:
        return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= tol
    return a == b


def _same(a: dict[str, Any], b: dict[str, Any], skip: tuple[str, ...] = (), tol: float = 1e-6) -> list[str]:
    """The fields in which two rulings differ (an error is compared by its presence only)."""
    if ("error" in a) != ("error" in b):
        return ["error"]
    if "error" in a:
        return []
    if ("positions_ignored" in a) != ("positions_ignored" in b):
        return ["positions_ignored"]
    keys = (set(a) | set(b)) - set(skip) - {"positions_ignored"}  # its text names the places
    return sorted(k for k in keys if not _close(a.get(k), b.get(k), tol))


def _d(a: dict[str, Any], b: dict[str, Any], keys: list[str]) -> str:
    return "; ".join(f"{k}: {a.get(k)!r} vs {b.get(k)!r}" for k in keys)


def _respots_asymmetric(ruling: dict[str, Any]) -> bool:
    return any(isinstance(i, dict) and i.get("ball") in ASYMMETRIC_SPOTS for i in ruling.get("respotted", []))


AFTER_PLACES = (
    "respotted",
    "free_ball",
    "points_remaining",
    "snookers_required",
    "announcements",
    "touching",
)
"""What the places after a stroke decide (the free ball, and what it adds to the points remaining):
not compared on a line that re-spots yellow or green, whose spots are not mirror images."""


def check_mirror(log: list[Any]) -> None:
    whole, mirrored = replay(log), replay(mirror(log))
    for n, (a, b) in enumerate(zip(whole, mirrored, strict=True)):
        if "respotted" in b:
            b = {**b, "respotted": [_mirror_respotted(i) for i in b["respotted"]]}
        skip = AFTER_PLACES if _respots_asymmetric(a) or _respots_asymmetric(b) else ()
        diff = _same(a, b, skip=skip, tol=1e-6)
        assert not diff, f"mirror: line {n} differs in {diff}: {_d(a, b, diff)}; log {log}"
        if skip:
            return  # yellow or green re-spotted on its own spot: the tables are no longer mirror images


def check_names(log: list[Any], seed: int) -> None:
    import random

    other, names = rename(log, random.Random(seed))
    back = {new: old for old, new in names.items()}
    pattern = re.compile(
        "|".join(sorted((re.escape(n) + r"\b" for n in back), key=len, reverse=True)) or "$^"
    )
    whole, renamed = replay(log), replay(other)
    for n, (a, b) in enumerate(zip(whole, renamed, strict=True)):
        b = json.loads(pattern.sub(lambda m: back[m.group(0)], json.dumps(b)))
        a, b = {**a, "scored": sorted(a.get("scored", []))}, {**b, "scored": sorted(b.get("scored", []))}
        diff = _same(a, b, skip=("player",))
        assert not diff, f"names: line {n} differs in {diff}: {_d(a, b, diff)}; log {log}"


def check_jitter(log: list[Any], dx: float, dy: float) -> None:
    whole, moved = replay(log), replay(jitter(log, dx, dy))
    for n, (a, b) in enumerate(zip(whole, moved, strict=True)):
        diff = _same(a, b, tol=10 * JITTER_MM)
        assert not diff, f"jitter ({dx}, {dy}): line {n} differs in {diff}: {_d(a, b, diff)}; log {log}"


def check_split(log: list[Any], at: int) -> None:
    whole = replay(log)
    first = Referee()
    head = [first.apply(line) for line in log[:at]]
    second = Referee()
    second.state, second.lines = first.state, first.lines
    tail = [second.apply(line) for line in log[at:]]
    assert head + tail == whole


JOIN_SKIP = ("line", "break", "announcements")
"""What a join by a ``table`` line starts afresh (the break, so its announcements) or numbers apart."""


def table_line_for(frame) -> dict[str, Any] | None:
    """The ``table`` line saying the frame as it stands, where one can say all of it (no decision,
    free ball, touching ball, miss count or re-spotted black open; the score known)."""
    if (
        frame.over
        or frame.pending is not None
        or frame.awaiting_lot
        or frame.free_ball
        or frame.touching
        or frame.miss_chain is not None
        or frame.replayed_from is not None
        or frame.warning
        or frame.respotted_black
        or frame.on_undecided
        or frame.scores_unknown
    ):
        return None
    table = frame.table
    line: dict[str, Any] = {
        "type": "table",
        "reds": table.reds,
        "colours": list(table.colours),
        "ball_on": frame.ball_on if frame.ball_on in ("red", "colour", *COLOURS) else "colour",
        "cue_in_hand": table.cue_in_hand,
        "score": list(frame.scores),
        "striker": frame.striker,
    }
    if frame.nominated is not None:
        return None
    if table.positions is not None:
        if sum(1 for b, _ in table.positions if b.startswith("red")) > table.reds:
            return None  # stale places of reds potted as plain "red" (rules._without_balls_off_the_table)
        line["positions"] = {b: [x, y] for b, (x, y) in table.positions}
    return line


def check_join(log: list[Any], at: int) -> None:
    """The log from line ``at`` on, after a ``table`` line saying the frame as the head left it,
    is ruled as in the whole log (but the break, which starts afresh)."""
    whole = replay(log)
    head = Referee()
    for line in log[:at]:
        head.apply(line)
    if head.state is None or not any(isinstance(x, dict) and x.get("type") == "match" for x in log[:1]):
        return
    if head.state.frame.number != 1:
        return  # a table line joins the frame in play, not the match's earlier frames
    join = table_line_for(head.state.frame)
    if join is None:
        return
    joined = replay([log[0], join, *log[at:]])
    assert "error" not in joined[1], (joined[1], join, log)
    for n, (a, b) in enumerate(zip(whole[at:], joined[2:], strict=True)):
        diff = _same(a, b, skip=JOIN_SKIP)
        assert not diff, (
            f"join at {at}: line {at + n} differs in {diff}: {_d(a, b, diff)}; join {join}; log {log}"
        )


def _fouled(line: dict[str, Any], call: dict[str, Any]) -> dict[str, Any]:
    fouls = line.get("fouls") if isinstance(line.get("fouls"), list) else []
    return {**line, "fouls": [*fouls, call]}


def check_added_fouls(log: list[Any]) -> None:
    """Add a foul call to each accepted stroke in turn (the rest of the log as it was)."""
    whole = replay(log)
    for i, line in enumerate(log):
        ruling = whole[i]
        if not isinstance(line, dict) or line.get("type") != "stroke" or "error" in ruling:
            continue
        if ruling["foul"]:
            # worth no more than the penalty already given: every field the same but the reasons
            changed = replay([*log[:i], _fouled(line, {"reason": "double_hit"})])[-1]
            diff = _same(ruling, changed, skip=("fouls", "announcements"))
            assert not diff, f"double_hit added: line {i} differs in {diff}: {ruling} vs {changed}; log {log}"
            assert "double_hit" in changed["fouls"]
        before = ruling_before(whole, i)
        free_balls: set[str] = set()
        if before.get("free_ball"):  # nominated, or read from the first contact (no nomination logged)
            first = line.get("first_contact") if isinstance(line.get("first_contact"), list) else []
            free_balls = {str(b) for b in (line.get("nominated"), before.get("nominated"), *first) if b}
        for ball in ("red", *COLOURS):
            if ball == "red" and not before.get("reds"):
                continue
            if ball != "red" and ball not in before.get("colours", COLOURS):
                continue
            if ball in free_balls:
                continue  # 3.10(a): the nominated free ball has the value of the ball on
            changed = replay([*log[:i], _fouled(line, {"reason": "touched_ball", "ball": ball})])[-1]
            if "error" in changed:
                continue
            value = BALL_VALUES[ball]
            assert changed["foul"], (i, ball, log)
            assert changed["penalty"] >= max(value, ruling["penalty"], 4), (i, ball, changed, ruling, log)
            if ruling["foul"] and ruling["penalty"] >= value:
                assert changed["penalty"] == ruling["penalty"], (i, ball, changed, ruling, log)
            elif ruling["foul"]:
                assert changed["penalty"] == value, (i, ball, changed, ruling, log)


def ruling_before(rulings: list[dict[str, Any]], i: int) -> dict[str, Any]:
    for r in reversed(rulings[:i]):
        if "error" not in r:
            return r
    return {}


# --- the properties -------------------------------------------------------------------------------


@SETTINGS
@given(camera_logs())
def test_mirroring_the_table_changes_no_ruling(log):
    lines, _ = log
    check_mirror(lines)


@SETTINGS
@given(camera_logs(), st.integers(0, 2**16))
def test_renaming_reordering_and_unknown_fields_change_no_ruling(log, seed):
    lines, _ = log
    check_names(lines, seed)


@SETTINGS
@given(camera_logs(), st.sampled_from([-1, 1]), st.sampled_from([-1, 0, 1]))
def test_places_moved_by_a_micrometre_change_no_ruling(log, sx, sy):
    lines, _ = log
    check_jitter(lines, sx * JITTER_MM, sy * JITTER_MM)


@SETTINGS
@given(camera_logs(), st.integers(0, 60))
def test_a_log_ruled_in_two_parts_is_ruled_as_one(log, at):
    lines, _ = log
    check_split(lines, min(at, len(lines)))


@settings(SETTINGS, max_examples=25)
@given(camera_logs())
def test_a_foul_added_to_a_stroke_raises_the_penalty_only_to_its_value(log):
    lines, _ = log
    check_added_fouls(lines)


@SETTINGS
@given(camera_logs())
def test_the_players_listed_the_other_way_round_change_no_ruling_camera(log):
    lines, _ = log
    check_sides(lines)


@SETTINGS
@given(legal_logs())
def test_the_players_listed_the_other_way_round_change_no_ruling(log):
    check_sides(log)


@SETTINGS
@given(legal_logs(), st.integers(0, 2**16))
def test_renaming_and_reordering_change_no_ruling_in_legal_matches(log, seed):
    check_names(log, seed)


@settings(SETTINGS, max_examples=30)
@given(legal_logs(), st.integers(2, 40))
def test_a_frame_joined_by_a_table_line_is_ruled_as_the_whole_log(log, at):
    for k in range(min(at, len(log)), len(log), 7):
        check_join(log, k)


@settings(SETTINGS, max_examples=30)
@given(camera_logs(), st.integers(2, 40))
def test_a_camera_log_joined_by_a_table_line_is_ruled_as_the_whole_log(log, at):
    lines, _ = log
    for k in range(min(at, len(lines)), len(lines), 7):
        check_join(lines, k)


MIRROR_LAYOUTS = 60
"""Layouts per kind of the fifteenth audit (random, near a path, a gap, the jaws; the D) mirrored."""


def test_the_rule_geometry_is_mirror_symmetric_on_hard_layouts():
    """The snookered, any-part and full-ball questions (and the snookering balls) on the fifteenth
    audit's near-boundary layouts (edges grazed within 1e-4 mm, gaps within 1e-3 mm of a ball's
    width, the cue ball in the jaws, walls in front of the D) answer the same on the mirror image."""
    import test_referee_fifteenth_audit as F

    from snooker.referee import geometry as G

    def mirrored(p):
        return (float(WIDTH - p[0]), float(p[1]))

    questions = (G.snookered, G.clear_path_to_any_part, G.full_ball_available)
    seen: dict[str, int] = {}
    layouts = []
    for kind, layout in F._fixed_layouts():
        if seen.get(kind, 0) < MIRROR_LAYOUTS:
            seen[kind] = seen.get(kind, 0) + 1
            layouts.append(layout)
    maker = F.Layouts(1515)
    layouts += [maker.in_hand(wall=bool(k % 2)) for k in range(MIRROR_LAYOUTS // 2)]
    differ = []
    for cue, balls, on in layouts:
        plain = F._plain(balls)
        at = None if cue is None else (float(cue[0]), float(cue[1]))
        mirror_plain = {b: mirrored(xy) for b, xy in plain.items()}
        mirror_at = None if at is None else mirrored(at)
        for question in questions:
            if question(at, plain, on) != question(mirror_at, mirror_plain, on):
                differ.append((question.__name__, at, plain, on))
        snookering = G.snookering_balls
        if at is not None and G.snookered(at, plain, on):
            named, mirror_named = snookering(at, plain, on), snookering(mirror_at, mirror_plain, on)
            if sorted(named) != sorted(mirror_named):
                differ.append(("snookering_balls", at, plain, on))
    assert len(layouts) >= 4 * MIRROR_LAYOUTS
    assert not differ, differ[:3]
