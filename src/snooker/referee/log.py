"""Frame-log lines (CONTRACTS.md §1) parsed into typed, validated events.

A line is a JSON object (or its text). ``parse_line`` returns one of the event dataclasses below or
raises ``LogError`` naming the problem. Positions are millimetres on the cloth, origin at the
baulk-left cushion-nose corner (x along the baulk cushion, y up the table).

Fields this referee adds to the contract (all optional):

- match: ``sides`` (side index of each player; by default alternate entries form a side for four
  players); a frame's order of play is set by ``new_frame``.
- stroke: ``player`` (index of who actually struck: a different player from the one to play is a
  foul for playing out of turn); ``free_ball`` (bool, a referee's call that the next player is
  snookered after this foul — overrides the geometry; ``snookered`` is accepted for it too);
  ``miss`` (bool, a referee's call of foul and a miss — overrides the geometry and the score
  test; with no ``full_ball`` given a full ball is taken as open where no places show otherwise
  (with positions the geometry judges it) — unless ``clear_path`` is false — so repeated called
  misses lead to the warning and the award, 3.14(c));
  ``clear_path`` (bool, a straight line to any part of a ball on was open before the stroke: the
  referee then applies 3.14(b) itself, snookers test included); ``full_ball`` (bool, a full-ball
  contact was open before the stroke; ``true`` is a straight line open too, over the geometry);
  ``fell_from_edge`` (balls that fell from the edge of a pocket before a ball in the stroke could
  hit them, 3.9(b)); ``moving_at_strike`` (object balls still moving when the cue ball was struck:
  a foul, 3.12(b)); ``touching_moved`` (object balls the cue ball rested against that moved with
  the strike: a push stroke, 3.8(b)); ``fouls`` entries may be codes or
  ``{"reason", "ball"}`` (a ``push_stroke`` without a ball, the cue ball resting against one
  ball, concerns that ball, 3.8(b)); ``"white"`` among ``potted`` or ``off_table`` sets ``cue_ball``
  (the white in both, or a ``cue_ball`` saying otherwise, is refused). Without positions and
  without these fields no free ball and no miss is called. Unknown fields (e.g. ``expect`` in
  golden logs) are ignored.
- decision: ``choice`` as in the contract.
- foul: ``reason``, optional ``ball`` (the ball concerned, the cue ball too), optional ``player`` (the
  offender when someone other than the player to play is penalised as if striker, 3.2(b)/3.14(h)).
- concede: optional ``player`` (index of the player conceding; default the player to play);
  ``match`` (bool): the whole match is conceded (3.1(f)-(g)).
- stroke ``condoned`` (bool): the stroke's foul was not called before the next stroke (3.11(c)).
- spot_error: ``ball`` (a colour), ``error`` (``wrongly_spotted`` | ``not_spotted``), ``corrected``
  (bool), optional ``position`` [x, y]: a colour the referee spotted wrongly or left off (3.7).
- respotted_black: ``first`` (index of the player who plays first, by lot).
- new_frame: optional ``order`` (player indices in order of play, the first breaks; 3.17(b)).
- rerack: the referee re-racks a stalemate (3.16): scores cancelled, same breaker, same order.
- edge_fall: ``ball`` (the cue ball too) fell into a pocket by itself, outside a stroke (3.9(a)): replaced,
  no score.
- ball_moved: ``ball`` moved by someone other than the striker (3.15): replaced, no penalty;
  optional ``position`` [x, y] where the referee puts it.
- table: the table as the log found it, a frame already in play (a camera or a scorer joining
  mid-frame): ``reds`` (on the table), ``colours`` (default: all six), ``ball_on`` (``red``,
  ``colour``, the colour on in the ascending phase, or ``either``: not known whether a red or a
  colour is on; default ``either``), ``cue_in_hand`` (default false), optional ``positions``
  (ball id → [x, y]), ``score`` [a, b] and ``striker``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from snooker.balls import BALL_VALUES, COLOURS, CUE_BALL, POCKET_NAMES, RED, ball_kind
from snooker.calibration.table import STANDARD_TABLE

LOG_SCHEMA = "snooker.log/1"
CUE_BALL_STATES = ("on_table", "potted", "off_table")
DECISION_CHOICES = ("play", "play_again", "replace")
MISS_RULES = ("wpbsa", "off")
SHORT_RACKS = (15, 10, 6)
BALL_ON_EITHER = "either"
"""A table line's ``ball_on`` when the log does not know whether a red or a colour is on."""

Point = tuple[float, float]


class LogError(ValueError):
    """A frame-log line that cannot be applied; the message names the problem."""


@dataclass(frozen=True)
class MatchLine:
    players: tuple[str, ...]
    best_of: int
    breaker: int
    aggregate: bool | None
    miss_rule: str | None
    reds: int | None
    sides: tuple[int, ...] | None


@dataclass(frozen=True)
class FoulCall:
    """A foul named by a person or a special detector: a reason and, optionally, the ball concerned."""

    reason: str
    ball: str | None = None


@dataclass(frozen=True)
class Positions:
    """Ball positions in mm keyed by ball id (``white``, ``red-3``, ``pink``), before and after a stroke."""

    before: tuple[tuple[str, Point], ...] | None
    after: tuple[tuple[str, Point], ...] | None


@dataclass(frozen=True)
class StrokeLine:
    first_contact: tuple[str, ...]
    potted: tuple[str, ...]
    pockets: tuple[str | None, ...]
    off_table: tuple[str, ...]
    cue_ball: str
    nominated: str | None
    fouls: tuple[FoulCall, ...]
    touching: tuple[str, ...] | None
    positions: Positions | None
    player: int | None
    free_ball: bool | None
    miss: bool | None
    clear_path: bool | None
    full_ball: bool | None
    fell_from_edge: tuple[str, ...]
    position_tolerance_mm: float | None = None
    """How far the logged places may be off (mm, the camera's measurement); None: not said."""
    unwatched_s: float = 0.0
    """Seconds of the stroke the camera did not show the table (a broadcast's cut): with no first
    contact logged, the contact was not seen, not missed."""
    strike_unseen: bool = False
    """The cue ball was first seen already running (the strike not seen): so too."""
    moving_at_strike: tuple[str, ...] = ()
    """Object balls the camera saw still moving when the cue ball was struck: a foul (3.12(b))."""
    touching_moved: tuple[str, ...] = ()
    """Object balls the cue ball rested against that the camera saw move with the strike: a push
    stroke (3.8(b), 3.12(b)) concerning each."""
    truncated: bool = False
    """The source ended before the balls stopped: the stroke's facts may be incomplete."""
    condoned: bool = False
    """The stroke's foul was neither called nor claimed before the next stroke (3.11(c)): it is
    condoned, the stroke ruled as if it broke no rule."""


@dataclass(frozen=True)
class DecisionLine:
    choice: str


@dataclass(frozen=True)
class NominateLine:
    ball: str


@dataclass(frozen=True)
class FoulLine:
    reason: str
    ball: str | None
    player: int | None
    free_ball: bool | None


@dataclass(frozen=True)
class ConcedeLine:
    player: int | None
    match: bool = False
    """The player concedes the whole match, not only the frame (1(F)-(G))."""


SPOT_ERRORS = ("wrongly_spotted", "not_spotted")
"""A ``spot_error`` line's ``error``: a colour spotted that was potted for good (3.7(b)), or a colour
left off the table that should have been spotted (3.7(c))."""


@dataclass(frozen=True)
class SpotErrorLine:
    """A colour wrongly spotted or wrongly left off the table by the referee (3.7(a)-(c)):
    ``corrected`` false as it happened (the balls stand so for the strokes after it), true when found
    and put right (removed, or spotted, without penalty)."""

    ball: str
    error: str
    corrected: bool
    position: Point | None


@dataclass(frozen=True)
class RespottedBlackLine:
    first: int


@dataclass(frozen=True)
class NewFrameLine:
    order: tuple[int, ...] | None


@dataclass(frozen=True)
class RerackLine:
    pass


@dataclass(frozen=True)
class EdgeFallLine:
    ball: str


@dataclass(frozen=True)
class BallMovedLine:
    ball: str
    position: Point | None


@dataclass(frozen=True)
class TableLine:
    """The table as the log found it (a frame already in play): ``ball_on`` is ``red``,
    ``colour``, a colour name or ``either``; ``scores`` and ``striker`` None: not said."""

    reds: int
    colours: tuple[str, ...]
    ball_on: str
    cue_in_hand: bool
    positions: tuple[tuple[str, Point], ...] | None
    scores: tuple[int, int] | None
    striker: int | None


Event = (
    MatchLine
    | StrokeLine
    | DecisionLine
    | NominateLine
    | FoulLine
    | ConcedeLine
    | RespottedBlackLine
    | NewFrameLine
    | RerackLine
    | EdgeFallLine
    | BallMovedLine
    | TableLine
    | SpotErrorLine
)


BYTE_ORDER_MARK = "\ufeff"
"""What some editors write before a file's first line (UTF-8's byte order mark): not part of it."""


def parse_line(line: dict[str, Any] | str) -> Event:
    """Parse one frame-log line into its event; raises LogError naming the problem."""
    if isinstance(line, str):
        text = line.strip().removeprefix(BYTE_ORDER_MARK)
        if not text:
            raise LogError("empty line")
        try:
            line = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LogError(f"malformed JSON: {exc.msg} at column {exc.colno}") from None
        except RecursionError:
            raise LogError("malformed line: JSON nested too deeply to read") from None
        except ValueError as exc:  # e.g. an integer of more digits than Python converts
            raise LogError(f"malformed JSON: {exc}") from None
    if not isinstance(line, dict):
        raise LogError(f"a frame-log line must be a JSON object, got {type(line).__name__}")
    kind = line.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise LogError(f"unknown line type {kind!r}; expected one of {', '.join(_PARSERS)}")
    return parser(line)


def _ball_id(value: object, what: str, *, allow_cue: bool = False) -> str:
    if not isinstance(value, str):
        raise LogError(f"{what}: a ball name is a string, got {value!r}")
    try:
        kind = ball_kind(value)
    except ValueError as exc:
        raise LogError(f"{what}: {exc}") from None
    if kind == CUE_BALL and not allow_cue:
        raise LogError(f"{what}: the cue ball is not an object ball")
    return value


def _colour(value: object, what: str) -> str:
    ball = _ball_id(value, what)
    if ball_kind(ball) not in BALL_VALUES:
        raise LogError(f"{what}: {ball!r} is not an object ball")
    return ball


def _ball_list(line: dict, key: str) -> tuple[str, ...]:
    value = line.get(key, [])
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise LogError(f"{key}: expected a list of balls, got {value!r}")
    return tuple(_ball_id(v, key) for v in value)


def _optional_bool(line: dict, key: str) -> bool | None:
    value = line.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise LogError(f"{key}: expected true or false, got {value!r}")


def _optional_index(line: dict, key: str) -> int | None:
    value = line.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LogError(f"{key}: expected a player index (0, 1, ...), got {value!r}")
    return value


LARGEST_COUNT = 2**53 - 1
"""The largest count (frames in a match, points) a line may give: the largest integer a JSON
reader that holds numbers as doubles (the overlay's browser, most scoreboard software) reads
exactly. A larger one is a corrupt line, not a match."""


def _count(value: object, what: str, smallest: int) -> int:
    """``value`` as a count from ``smallest`` to ``LARGEST_COUNT``: a JSON integer, not a bool."""
    if isinstance(value, bool) or not isinstance(value, int) or not smallest <= value <= LARGEST_COUNT:
        raise LogError(f"{what}: expected a whole number from {smallest} to {LARGEST_COUNT}, got {value!r}")
    return value


FARTHEST_PLACE_MM = 10_000.0
"""A place further than this (mm) beyond the playing area's edges is no ball's: a measurement gone
wrong, which the rule geometry cannot use."""


def _number(value: object, what: str) -> float:
    """``value`` as a float: a JSON number, not a bool, that a float can hold."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LogError(f"{what}: expected a number, got {value!r}")
    try:
        return float(value)
    except OverflowError:
        raise LogError(f"{what}: a number too large for a float") from None


def _point(value: object, what: str) -> Point:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise LogError(f"{what}: expected [x_mm, y_mm], got {value!r}")
    return (_number(value[0], what), _number(value[1], what))


def unusable_place(places: tuple[tuple[str, Point], ...] | None, what: str) -> str | None:
    """Why the rule geometry cannot use ``places`` (ball id → mm): the first that is not finite or
    lies further than :data:`FARTHEST_PLACE_MM` beyond the playing area; None when all can be used."""
    for ball, (x, y) in places or ():
        if not (math.isfinite(x) and math.isfinite(y)):
            return f"{what}.{ball}: a place must be finite, got [{x}, {y}]"
        inside_x = -FARTHEST_PLACE_MM <= x <= STANDARD_TABLE.width_mm + FARTHEST_PLACE_MM
        inside_y = -FARTHEST_PLACE_MM <= y <= STANDARD_TABLE.length_mm + FARTHEST_PLACE_MM
        if not (inside_x and inside_y):
            return f"{what}.{ball}: [{x}, {y}] mm lies further than {FARTHEST_PLACE_MM:g} mm off the table"
    return None


def _position_map(value: object, what: str) -> tuple[tuple[str, Point], ...] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise LogError(f"{what}: expected an object of ball id → [x_mm, y_mm]")
    return tuple(
        (_ball_id(ball, what, allow_cue=True), _point(xy, f"{what}.{ball}")) for ball, xy in value.items()
    )


def _usable(places: tuple[tuple[str, Point], ...] | None, what: str) -> tuple[tuple[str, Point], ...] | None:
    """``places``, refused when the rule geometry cannot use them (see :func:`unusable_place`)."""
    problem = unusable_place(places, what)
    if problem is not None:
        raise LogError(problem)
    return places


def _parse_match(line: dict) -> MatchLine:
    schema = line.get("schema", LOG_SCHEMA)
    if schema != LOG_SCHEMA:
        raise LogError(f"unsupported schema {schema!r}; this referee reads {LOG_SCHEMA}")
    players = line.get("players", ["Player 1", "Player 2"])
    if (
        not isinstance(players, list)
        or len(players) not in (2, 4)
        or not all(isinstance(p, str) for p in players)
    ):
        raise LogError("players: expected a list of 2 (singles) or 4 (four-handed) names")
    best_of = _count(line.get("best_of", 1), "best_of (frames in the match)", 1)
    breaker = _optional_index(line, "breaker") or 0
    if breaker >= len(players):
        raise LogError(f"breaker: no player {breaker} among {len(players)} players")
    miss_rule = line.get("miss_rule")
    if miss_rule is not None and miss_rule not in MISS_RULES:
        raise LogError(f"miss_rule: expected one of {', '.join(MISS_RULES)}, got {miss_rule!r}")
    reds = line.get("reds")
    if reds is not None and reds not in SHORT_RACKS:
        raise LogError(f"reds: expected one of {SHORT_RACKS}, got {reds!r}")
    sides = line.get("sides")
    if sides is not None:
        if (
            not isinstance(sides, list)
            or len(sides) != len(players)
            or sorted(sides) != sorted([0, 1] * (len(players) // 2))
        ):
            raise LogError("sides: expected the side (0 or 1) of each player, two players a side")
        sides = tuple(sides)
    return MatchLine(
        players=tuple(players),
        best_of=best_of,
        breaker=breaker,
        aggregate=_optional_bool(line, "aggregate"),
        miss_rule=miss_rule,
        reds=reds,
        sides=sides,
    )


def _parse_fouls(value: object) -> tuple[FoulCall, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise LogError(f"fouls: expected a list of reason codes, got {value!r}")
    calls = []
    for item in value:
        if isinstance(item, str):
            calls.append(FoulCall(item))
        elif isinstance(item, dict) and isinstance(item.get("reason"), str):
            ball = item.get("ball")
            concerned = None if ball is None else _ball_id(ball, "fouls.ball", allow_cue=True)
            calls.append(FoulCall(item["reason"], concerned))
        else:
            raise LogError(f"fouls: expected a reason code or {{'reason', 'ball'}}, got {item!r}")
    return tuple(calls)


def _parse_stroke(line: dict) -> StrokeLine:
    potted, pockets, off_table, cue_ball = _parse_gone(line)
    first_contact = _ball_list(line, "first_contact")
    fell_from_edge = _ball_list(line, "fell_from_edge")
    _check_fell_from_edge(fell_from_edge, off_table)
    nominated = line.get("nominated")
    if nominated is not None:
        nominated = _colour(nominated, "nominated")
    touching = line.get("touching")
    positions = _parse_positions(line.get("positions"))
    clear_path = _optional_bool(line, "clear_path")
    full_ball = _optional_bool(line, "full_ball")
    if clear_path is False and full_ball:
        raise LogError("full_ball: no full-ball contact is open without a clear path to a ball on")
    return StrokeLine(
        first_contact=first_contact,
        potted=tuple(potted),
        pockets=tuple(pockets),
        off_table=off_table,
        cue_ball=cue_ball,
        nominated=nominated,
        fouls=_parse_fouls(line.get("fouls")),
        touching=None if touching is None else _ball_list(line, "touching"),
        positions=positions,
        player=_optional_index(line, "player"),
        free_ball=_optional_bool(line, "free_ball" if "free_ball" in line else "snookered"),
        miss=_optional_bool(line, "miss"),
        clear_path=clear_path,
        full_ball=full_ball,
        fell_from_edge=fell_from_edge,
        position_tolerance_mm=_tolerance(line, "position_tolerance_mm"),
        unwatched_s=_duration(line, "unwatched_s"),
        strike_unseen=bool(_optional_bool(line, "strike_unseen")),
        moving_at_strike=_ball_list(line, "moving_at_strike"),
        touching_moved=_ball_list(line, "touching_moved"),
        truncated=bool(_optional_bool(line, "truncated")),
        condoned=_condoned(line),
    )


def _condoned(line: dict) -> bool:
    """A stroke's ``condoned``, refused beside a referee's call that only follows a called foul."""
    condoned = bool(_optional_bool(line, "condoned"))
    if condoned:
        for call in ("miss", "free_ball", "snookered"):
            if line.get(call):
                raise LogError(
                    f"condoned: a foul not called (3.11(c)) has no {call.replace('_', ' ')} called after it"
                )
    return condoned


def _parse_gone(line: dict) -> tuple[list[str], list[str | None], tuple[str, ...], str]:
    """A stroke's balls that left the table: (the object balls potted, the pocket of each where
    named, the balls forced off, where the cue ball ended). The cue ball may be listed among the
    potted or the balls off, or stated by ``cue_ball``; the ways must agree."""
    potted_raw = line.get("potted", [])
    if potted_raw is None:
        potted_raw = []
    if not isinstance(potted_raw, list):
        raise LogError(f"potted: expected a list, got {potted_raw!r}")
    potted: list[str] = []
    pockets: list[str | None] = []
    stated = line.get("cue_ball")
    if stated is not None and stated not in CUE_BALL_STATES:
        raise LogError(f"cue_ball: expected one of {', '.join(CUE_BALL_STATES)}, got {stated!r}")
    cue_ball = "on_table"
    for item in potted_raw:
        pocket = None
        if isinstance(item, dict):
            pocket = item.get("pocket")
            if pocket is not None and pocket not in POCKET_NAMES:
                raise LogError(
                    f"potted: unknown pocket {pocket!r}; expected one of {', '.join(POCKET_NAMES)}"
                )
            item = item.get("ball")
        ball = _ball_id(item, "potted", allow_cue=True)
        if ball == CUE_BALL:
            cue_ball = "potted"
            continue
        potted.append(ball)
        pockets.append(pocket)
    raw_off = line.get("off_table") or []
    if isinstance(raw_off, str):
        raw_off = [raw_off]
    if isinstance(raw_off, list) and CUE_BALL in raw_off:
        if cue_ball == "potted":
            raise LogError("the cue ball cannot be both potted and off the table")
        cue_ball = "off_table"
        raw_off = [b for b in raw_off if b != CUE_BALL]
    if stated is not None and cue_ball != "on_table" and stated != cue_ball:
        raise LogError(f"cue_ball: {stated!r}, but the white is listed as {cue_ball.replace('_', ' ')}")
    cue_ball = stated or cue_ball
    off_table = _ball_list({"off_table": raw_off}, "off_table")
    for ball in set(potted) & set(off_table):
        if ball != RED:
            raise LogError(f"{ball!r} cannot be both potted and off the table")
    return potted, pockets, off_table, cue_ball


def _parse_positions(value: object) -> Positions | None:
    """A stroke's ``positions``: the balls' places before and after it, each optional."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise LogError("positions: expected {'before': {...}, 'after': {...}}")
    return Positions(
        before=_position_map(value.get("before"), "positions.before"),
        after=_position_map(value.get("after"), "positions.after"),
    )


def _check_fell_from_edge(fell_from_edge: tuple[str, ...], off_table: tuple[str, ...]) -> None:
    """Refuse ``fell_from_edge`` naming one ball twice where there is one of it (a colour, a red by its
    id), or a ball also forced off the table: a ball that fell into a pocket did not leave the table."""
    named = [b for b in fell_from_edge if b != RED]
    twice = next((b for b in named if named.count(b) > 1), None)
    if twice is not None:
        raise LogError(f"fell_from_edge: the {twice} is listed twice (there is one such ball)")
    for ball in named:
        if ball in off_table:
            raise LogError(
                f"fell_from_edge: the {ball} fell into a pocket (3.9(b)), so it cannot also be off the table"
            )


def _tolerance(line: dict, key: str) -> float | None:
    """An optional length in mm that must be a finite number >= 0."""
    value = line.get(key)
    if value is None:
        return None
    number = _number(value, key)
    if not math.isfinite(number) or number < 0:
        raise LogError(f"{key}: expected a length in mm, a number >= 0, got {value!r}")
    return number


def _duration(line: dict, key: str) -> float:
    """An optional duration in seconds that must be a finite number >= 0 (0 when not given)."""
    number = _number(line.get(key, 0.0), key)
    if not math.isfinite(number) or number < 0:
        raise LogError(f"{key}: expected a duration in seconds, a number >= 0, got {line.get(key)!r}")
    return number


def _parse_decision(line: dict) -> DecisionLine:
    choice = line.get("choice")
    if choice not in DECISION_CHOICES:
        raise LogError(f"decision: choice must be one of {', '.join(DECISION_CHOICES)}, got {choice!r}")
    return DecisionLine(choice)


def _parse_nominate(line: dict) -> NominateLine:
    return NominateLine(_colour(line.get("ball"), "nominate.ball"))


def _parse_foul(line: dict) -> FoulLine:
    reason = line.get("reason")
    if not isinstance(reason, str):
        raise LogError("foul: a reason code is required (e.g. 'touched_ball')")
    ball = line.get("ball")
    return FoulLine(
        reason=reason,
        ball=None if ball is None else _ball_id(ball, "foul.ball", allow_cue=True),
        player=_optional_index(line, "player"),
        free_ball=_optional_bool(line, "free_ball"),
    )


def _parse_concede(line: dict) -> ConcedeLine:
    value = line.get("match")
    if value is not None and not isinstance(value, bool):
        raise LogError(f"concede.match: expected true or false, got {value!r}")
    return ConcedeLine(_optional_index(line, "player"), bool(value))


def _parse_spot_error(line: dict) -> SpotErrorLine:
    ball = _ball_id(line.get("ball"), "spot_error.ball")
    if ball_kind(ball) not in COLOURS:
        raise LogError(f"spot_error.ball: only a colour is spotted (3.7), got {ball!r}")
    error = line.get("error")
    if error not in SPOT_ERRORS:
        raise LogError(f"spot_error.error: expected one of {', '.join(SPOT_ERRORS)}, got {error!r}")
    position = line.get("position")
    place = None
    if position is not None:
        place = _point(position, "spot_error.position")
        _usable(((ball, place),), "spot_error.position")
    return SpotErrorLine(ball, error, bool(_optional_bool(line, "corrected")), place)


def _parse_respotted_black(line: dict) -> RespottedBlackLine:
    first = _optional_index(line, "first")
    if first is None:
        raise LogError("respotted_black: 'first' (the player who won the lot) is required")
    return RespottedBlackLine(first)


def _parse_new_frame(line: dict) -> NewFrameLine:
    order = line.get("order")
    if order is not None:
        if not isinstance(order, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in order
        ):
            raise LogError(f"new_frame.order: expected a list of player indices, got {order!r}")
        order = tuple(order)
    return NewFrameLine(order)


def _parse_edge_fall(line: dict) -> EdgeFallLine:
    return EdgeFallLine(_ball_id(line.get("ball"), "edge_fall.ball", allow_cue=True))


def _parse_ball_moved(line: dict) -> BallMovedLine:
    ball = _ball_id(line.get("ball"), "ball_moved.ball", allow_cue=True)
    position = line.get("position")
    if position is None:
        return BallMovedLine(ball, None)
    place = _point(position, "ball_moved.position")
    _usable(((ball, place),), "ball_moved.position")
    return BallMovedLine(ball, place)


def _parse_table(line: dict) -> TableLine:
    reds = line.get("reds")
    if isinstance(reds, bool) or not isinstance(reds, int) or reds < 0:
        raise LogError(f"table.reds: expected the number of reds on the table (0 or more), got {reds!r}")
    colours = line.get("colours", list(COLOURS))
    if not isinstance(colours, list) or not all(isinstance(c, str) and c in COLOURS for c in colours):
        raise LogError(f"table.colours: expected a list of colours ({', '.join(COLOURS)}), got {colours!r}")
    if len(set(colours)) != len(colours):
        raise LogError("table.colours: a colour is named twice")
    ball_on = line.get("ball_on", BALL_ON_EITHER)
    if ball_on not in (RED, "colour", BALL_ON_EITHER, *COLOURS):
        raise LogError(f"table.ball_on: expected red, colour, a colour or {BALL_ON_EITHER}, got {ball_on!r}")
    score = line.get("score")
    if score is not None:
        if not isinstance(score, list) or len(score) != 2:
            raise LogError(f"table.score: expected [points, points], got {score!r}")
        score = [_count(v, "table.score", 0) for v in score]
    cue_in_hand = _optional_bool(line, "cue_in_hand")
    return TableLine(
        reds=reds,
        colours=tuple(c for c in COLOURS if c in colours),
        ball_on=ball_on,
        cue_in_hand=bool(cue_in_hand),
        positions=_usable(_position_map(line.get("positions"), "table.positions"), "table.positions"),
        scores=None if score is None else (score[0], score[1]),
        striker=_optional_index(line, "striker"),
    )


EVENT_TYPES: dict[type, str] = {
    MatchLine: "match",
    StrokeLine: "stroke",
    DecisionLine: "decision",
    NominateLine: "nominate",
    FoulLine: "foul",
    ConcedeLine: "concede",
    RespottedBlackLine: "respotted_black",
    NewFrameLine: "new_frame",
    RerackLine: "rerack",
    EdgeFallLine: "edge_fall",
    BallMovedLine: "ball_moved",
    TableLine: "table",
    SpotErrorLine: "spot_error",
}
"""The frame-log ``type`` of each event."""

_PARSERS = {
    "match": _parse_match,
    "stroke": _parse_stroke,
    "decision": _parse_decision,
    "nominate": _parse_nominate,
    "foul": _parse_foul,
    "concede": _parse_concede,
    "respotted_black": _parse_respotted_black,
    "new_frame": _parse_new_frame,
    "rerack": lambda line: RerackLine(),
    "edge_fall": _parse_edge_fall,
    "ball_moved": _parse_ball_moved,
    "table": _parse_table,
    "spot_error": _parse_spot_error,
}

__all__ = [
    "BALL_ON_EITHER",
    "EVENT_TYPES",
    "LOG_SCHEMA",
    "BallMovedLine",
    "ConcedeLine",
    "DecisionLine",
    "EdgeFallLine",
    "Event",
    "FoulCall",
    "FoulLine",
    "LogError",
    "MatchLine",
    "NewFrameLine",
    "NominateLine",
    "Positions",
    "RerackLine",
    "RespottedBlackLine",
    "SpotErrorLine",
    "StrokeLine",
    "TableLine",
    "parse_line",
]
