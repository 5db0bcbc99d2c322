"""The referee's immutable state: the table, the frame and the match (frozen dataclasses).

Positions are millimetres on the cloth (origin baulk-left cushion-nose corner, x along the baulk
cushion, y up the table), keyed by ball id (``white``, ``red-3``, ``pink``). Scores, frames won and
aggregate totals are per side: in singles a side is one player, in four-handed snooker two.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from snooker.balls import BALL_VALUES, COLOURS, CUE_BALL, FULL_RACK_REDS, RED, ball_kind
from snooker.referee.geometry import DEFAULT_GEOMETRY_CONFIG, GeometryConfig
from snooker.referee.log import BALL_ON_EITHER, MISS_RULES
from snooker.referee.reasons import MIN_PENALTY

Point = tuple[float, float]
RED_AND_BLACK = BALL_VALUES[RED] + BALL_VALUES["black"]
"""The most one red is worth in a break (the red, then the black): 8 points. Also what a free ball
can add while reds are on (the free ball as a red, then the black)."""


@dataclass(frozen=True)
class RefereeConfig:
    """Rule options and tolerances. The match line may override ``miss_rule``, ``reds``, ``aggregate``.

    - ``miss_rule``: ``"wpbsa"`` (3.14 as written) or ``"off"`` (amateur play: never a miss).
    - ``reds``: reds in the rack (15, or 10/6 for short formats).
    - ``aggregate``: the match is decided on aggregate points (3.4(c)); frames may then be drawn.
    - ``best_of``: frames in the match when a log starts without a match line.
    - ``in_hand_tolerance_mm``: how far outside the lines of the D (mm) a cue ball placed from
      in-hand may be measured before it counts as improperly placed (measurement noise).
    - ``default_players``: names used when a log starts without a match line.
    - ``geometry``: tolerances of the rule geometry (snookered, clear path, spotting, touching).
    - ``replaced_within_mm``: with no decision logged after a foul and a miss (a camera's log), a
      stroke whose cue ball starts within this distance (mm; or the log's own measurement
      tolerance, if larger) of where it was before the miss, which had moved it more than twice as
      far, shows the balls replaced (3.14): the offender plays again from there.
    - ``moved_beyond_mm``: an object ball whose places before and after a stroke lie further apart
      than this (mm; or twice the log's measurement tolerance, if larger) was moved by the stroke,
      which only a contact does: with no first contact logged, the contact went unseen.
    """

    miss_rule: str = "wpbsa"
    reds: int = FULL_RACK_REDS
    aggregate: bool = False
    best_of: int = 1
    in_hand_tolerance_mm: float = 2.0
    default_players: tuple[str, ...] = ("Player 1", "Player 2")
    geometry: GeometryConfig = DEFAULT_GEOMETRY_CONFIG
    replaced_within_mm: float = 30.0
    moved_beyond_mm: float = 25.0

    def __post_init__(self) -> None:
        if self.miss_rule not in MISS_RULES:
            raise ValueError(f"miss_rule must be one of {', '.join(MISS_RULES)}, got {self.miss_rule!r}")
        if self.reds < 1:
            raise ValueError(f"reds must be positive, got {self.reds}")
        if self.in_hand_tolerance_mm < 0:
            raise ValueError("in_hand_tolerance_mm must not be negative")
        if self.replaced_within_mm < 0:
            raise ValueError("replaced_within_mm must not be negative")
        if self.moved_beyond_mm < 0:
            raise ValueError("moved_beyond_mm must not be negative")


class Phase(Enum):
    """What the striker is on: a red, any colour after a red, or the colours in ascending order."""

    RED = "red"
    COLOUR = "colour"
    ASCENDING = "ascending"


@dataclass(frozen=True)
class Table:
    """The balls on the table. ``positions`` is None when not known (no positions in the log)."""

    reds: int
    colours: tuple[str, ...] = COLOURS
    cue_in_hand: bool = True
    positions: tuple[tuple[str, Point], ...] | None = None
    wrongly_spotted: tuple[str, ...] = ()
    """Colours potted for good that the referee spotted again (3.7(b)): on the cloth, never on, not
    among ``colours``; potted or forced off, they leave for good; removed when the error is found."""
    not_spotted: tuple[str, ...] = ()
    """Colours among ``colours`` (still in play, counted in the points remaining) that the referee
    left off the cloth (3.7(c)): no stroke can reach them until they are spotted."""

    def has(self, ball: str) -> bool:
        """Whether a ball of this kind (``red-3`` counts as a red) is on the cloth: a colour in play
        and not left off by a spotting error, or one wrongly spotted (3.7)."""
        kind = ball_kind(ball)
        if kind == RED:
            return self.reds > 0
        return (kind in self.colours and kind not in self.not_spotted) or kind in self.wrongly_spotted

    @property
    def colours_on_cloth(self) -> tuple[str, ...]:
        """The colours standing on the cloth, spotting errors included (3.7): ``colours`` less those
        left off, with those wrongly spotted; what blocks a line or takes a spot."""
        standing = [c for c in self.colours if c not in self.not_spotted] + list(self.wrongly_spotted)
        return tuple(c for c in COLOURS if c in standing)

    @property
    def lowest_colour(self) -> str | None:
        """The lowest-value colour on the table (the ball on in the ascending phase), or None."""
        return self.colours[0] if self.colours else None

    @property
    def colour_points(self) -> int:
        """Points of the colours on the table, each counted once."""
        return sum(BALL_VALUES[c] for c in self.colours)

    @property
    def only_black_left(self) -> bool:
        """Only the black is left: its first score or foul ends the frame (3.4(a))."""
        return self.reds == 0 and self.colours == ("black",)

    @property
    def empty(self) -> bool:
        """No object ball is left."""
        return self.reds == 0 and not self.colours

    def position_map(self) -> dict[str, Point] | None:
        """Positions as a new dict (mm, keyed by ball id), or None when not known."""
        return None if self.positions is None else dict(self.positions)

    def cue_position(self) -> Point | None:
        """The cue ball's position, or None when it is in hand or not known."""
        if self.cue_in_hand or self.positions is None:
            return None
        return dict(self.positions).get(CUE_BALL)


@dataclass(frozen=True)
class Snapshot:
    """What a 3.14 replacement (or a 3.9 replacement) restores: the table and what was on."""

    table: Table
    phase: Phase
    touching: tuple[str, ...]
    striker: int
    break_points: int
    free_ball: bool = False


@dataclass(frozen=True)
class PendingDecision:
    """A foul has been called; the next player chooses one of ``options`` (3.11(h), 3.14(a))."""

    offender: int
    options: tuple[str, ...]
    snapshot: Snapshot | None
    position_kept: bool = False
    """The foul came before any stroke of a replay after a miss (3.14(d)) and left the cue ball where
    it was: the balls still lie where the replacement put them (``snapshot``), the same ball on, so
    the offender asked to play again from the position left plays from that same position, and an
    earlier warning stays in force (3.14(d)(iii): "仍然有效", remains in effect). A foul that moved
    the cue ball left another position (3.14(d)(i) "z pozycji zastanej na stole"): not kept."""


MISS_WARNING_AT = 2
"""3.14(c): after the second such failure the offender is warned when asked to replay."""


@dataclass(frozen=True)
class MissChain:
    """Consecutive misses from the same position (3.14(c)): ``full_ball`` if a full ball was open;
    ``line_open`` if a straight line to a ball on was open at the last of them (or not known), the
    case 3.14(b) replaces under and 3.14(d) speaks of."""

    count: int
    full_ball: bool
    offender: int
    line_open: bool = True

    @property
    def warning_due(self) -> bool:
        """3.14(c): misses from the same position with a full ball open have reached the warning
        that a third awards the frame (given when the balls are replaced)."""
        return self.full_ball and self.count >= MISS_WARNING_AT


@dataclass(frozen=True)
class LastFoul:
    """The last foul of the frame, for the scoreboard: who, how many points, why, and if a miss."""

    offender: int
    penalty: int
    reasons: tuple[str, ...]
    miss: bool


@dataclass(frozen=True)
class FrameState:
    """One frame, after the lines so far. ``striker`` is a player index; ``scores`` are per side.

    ``on_undecided``: the log joined the frame in play (a ``table`` line) without knowing whether a
    red or a colour is on (or, with no red left and every colour on, the colour after the last red
    or the lowest colour); ``phase`` holds the likelier reading and the next stroke's first contact
    settles it. ``scores_unknown``: the log joined the frame without its score; ``scores`` count
    from the join, so no snookers are required and a frame's end names no winner.
    ``settled_by_stroke``: what the last stroke settled that nobody logged — the choice it was
    taken as after a foul (``play``, ``play_again``, ``replace``), or ``lot`` for a re-spotted
    black's first player; None if nothing. It only explains a decision or a lot logged too late.
    """

    number: int
    order: tuple[int, ...]
    scores: tuple[int, int]
    striker: int
    table: Table
    phase: Phase = Phase.RED
    break_points: int = 0
    nominated: str | None = None
    free_ball: bool = False
    pending: PendingDecision | None = None
    touching: tuple[str, ...] = ()
    miss_chain: MissChain | None = None
    replayed_from: Snapshot | None = None
    warning: bool = False
    respotted_black: bool = False
    awaiting_lot: bool = False
    over: bool = False
    winner: int | None = None
    last_foul: LastFoul | None = None
    highest_break: tuple[int, int] = (0, 0)
    player_highest: tuple[int, ...] = ()
    """Each player's highest break of this rack, by player index (players past its end: none yet):
    what the frame in play adds to the match's highest breaks (``MatchState.highest_breaks``). A
    re-rack (3.16) starts it afresh with the scores."""
    on_undecided: bool = False
    scores_unknown: bool = False
    settled_by_stroke: str | None = None
    spotting: tuple[str, ...] = ()
    """The colours the referee spotted after the last stroke (3.7: re-spotted, or a missing colour
    spotted), until the next stroke: the balls a ``before_spotting`` foul concerns (3.12(b))."""
    left_table: tuple[str, ...] = ()
    """The object balls the last stroke potted or forced off the table (as logged), until the next
    stroke: one still running from it when the next was struck (``moving_at_strike``, 3.12(b)) may
    have gone in, or off, only after that strike, so the next stroke may name it though the table
    no longer holds it (a red once none is left, a colour potted for good)."""

    @property
    def breaker(self) -> int:
        return self.order[0]

    @property
    def warning_due(self) -> bool:
        """3.14(c): the choice open after a miss would, by replacing the balls, have the referee warn
        the offender that a third miss from the position awards the frame ("jeśli zostanie nakazana
        gra z pozycji poprzedniej, faulujący musi być ostrzeżony"). ``warning`` says the warning given
        and in force; this, the warning not yet given but due on a replacement."""
        pending, chain = self.pending, self.miss_chain
        return (
            pending is not None
            and pending.snapshot is not None
            and "replace" in pending.options
            and chain is not None
            and chain.warning_due
        )

    def next_after(self, player: int) -> int:
        """The player after ``player`` in this frame's order of play (3.3(a), 3.17)."""
        i = self.order.index(player)
        return self.order[(i + 1) % len(self.order)]

    @property
    def ball_on(self) -> str:
        """``red``, ``colour`` (any colour, after a red; the colour once nominated) or the colour on
        in ascending order; ``either`` while not known (``on_undecided``); ``none`` once the frame is
        over (the last ball gone, or the frame conceded or awarded with balls left: nothing is on)."""
        if self.over:
            return "none"
        if self.on_undecided:
            return BALL_ON_EITHER
        if self.phase is Phase.RED:
            return RED
        if self.phase is Phase.COLOUR:
            return self.nominated or "colour"
        return self.table.lowest_colour or "none"

    def points_remaining(self) -> int:
        """Points still available (Section 2 definition), plus what a free ball can add; while the
        ball on is undecided, as if a colour were on (the larger reading). None once the frame is
        over: balls a concession or an award left on the table can score nothing more in it."""
        if self.over:
            return 0
        table = self.table
        if self.phase is Phase.COLOUR or self.on_undecided:
            points = BALL_VALUES["black"] + RED_AND_BLACK * table.reds + table.colour_points
        elif self.phase is Phase.RED:
            points = RED_AND_BLACK * table.reds + table.colour_points
        else:
            points = table.colour_points
        if self.free_ball:
            if self.phase is Phase.RED:
                points += RED_AND_BLACK
            elif table.lowest_colour is not None:
                points += BALL_VALUES[table.lowest_colour]
        return points

    def lowest_penalty(self) -> int:
        """The smallest penalty a snooker can earn now (4, or the value of the ball on if higher)."""
        if self.phase is Phase.ASCENDING and self.table.lowest_colour is not None:
            return max(MIN_PENALTY, BALL_VALUES[self.table.lowest_colour])
        return MIN_PENALTY

    def needs_snookers(self, side: int) -> bool:
        """Whether ``side`` is behind by more than the points remaining (never said where the
        scores are not known, nor once the frame is over: no snooker can help then, nor on a
        re-spotted black: it is played because the sides are level, in the frame or on aggregate
        points, and its next pot or foul decides, 3.4(b)-(c), whatever the frame's scores)."""
        if self.scores_unknown or self.over or self.respotted_black:
            return False
        return self.scores[1 - side] - self.scores[side] > self.points_remaining()

    def snookers_required(self, side: int) -> int:
        """Snookers ``side`` needs: the deficit beyond the points remaining over the lowest penalty
        a snooker earns now, rounded up (0 when no snookers are needed: see :meth:`needs_snookers`)."""
        if not self.needs_snookers(side):
            return 0
        deficit = self.scores[1 - side] - self.scores[side] - self.points_remaining()
        step = self.lowest_penalty()
        return -(-deficit // step)


@dataclass(frozen=True)
class MatchState:
    """The match: players, sides, frames won, aggregate points and the frame in play.

    ``conceded``: see the field.
    ``totals_unknown``: a frame of the match ended with its scores not known (a log that joined it
    without them, ``FrameState.scores_unknown``), so ``totals`` are not the aggregate: a match on
    aggregate points then ends after its last frame with no winner and no re-spotted black.
    """

    players: tuple[str, ...]
    sides: tuple[int, ...]
    best_of: int
    first_breaker: int
    aggregate: bool
    miss_rule: str
    reds: int
    frame: FrameState
    frames: tuple[int, int] = (0, 0)
    totals: tuple[int, int] = (0, 0)
    frames_played: int = 0
    over: bool = False
    winner: int | None = None
    history: tuple[tuple[int, int], ...] = field(default=())
    geometry: GeometryConfig = DEFAULT_GEOMETRY_CONFIG
    totals_unknown: bool = False
    conceded: tuple[int, int, int] | None = None
    """The match was conceded (``concede`` with ``match``): (the player who conceded, his side, the
    frames awarded to the other side beyond the frame in play); None otherwise."""
    earlier_highest: tuple[int, ...] = ()
    """Each player's highest break in the frames before the one in play, by player index (players
    past its end: none yet); see :meth:`highest_breaks`."""

    def side_of(self, player: int) -> int:
        return self.sides[player]

    @property
    def frames_to_win(self) -> int:
        return self.best_of // 2 + 1

    def highest_breaks(self) -> tuple[int, ...]:
        """Each player's highest break of the match so far (by player index): the frames before the
        one in play and the frame in play (its rack standing: a re-rack cancels its points, 3.16)."""
        return tuple(
            max(_at(self.earlier_highest, player), _at(self.frame.player_highest, player))
            for player in range(len(self.players))
        )


def _at(values: tuple[int, ...], index: int) -> int:
    """``values[index]``, or 0 past its end."""
    return values[index] if index < len(values) else 0


def with_frame(match: MatchState, **changes: object) -> MatchState:
    """A copy of ``match`` whose frame has ``changes`` applied."""
    return replace(match, frame=replace(match.frame, **changes))
