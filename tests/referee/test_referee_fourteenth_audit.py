"""A fourteenth audit of the referee: invariants checked by hypothesis over random LEGAL matches.

The thirteen earlier audits went clause by clause and through composite sequences worked by hand.
This one drives the referee through random but legal matches (singles and four-handed, best of one
to three, on frames or on aggregate points, 6, 10 or 15 reds): pots of one or several reds, colours
nominated by a line, by the stroke or by the obvious intention, the colours phase, safeties, fouls
of every penalty class (wrong ball first, missing every ball, in-offs, a ball not on potted, a red
potted with a colour on, fouls called outside a stroke), free balls taken and declined, fouls and
misses (called by the referee, or left to 3.14(b) by a clear path with the scores deciding),
replacements and play-again requests, touching balls played away from, several fouls in a stroke,
balls forced off or fallen from a pocket's edge, strokes out of turn, fouls by a player not at the
table, camera strokes whose contact went unseen, ``table`` lines joining a frame late (close scores,
the ball on undecided), concessions, re-racks, re-spotted blacks and the next frames; now and then
an illegal line. Alongside the referee runs a small model written from the texts
(section3-rules-pl.txt authoritative; RULES-EN.md for Section 2's definitions), and after every
line the ruling must agree with it on these invariants (each named by its clause in the assertion
message):

- 3.1/3.4/3.12: each side's score is the value of the balls it potted legally plus the penalties
  awarded to it (only the striker scores from pots, the other side only from penalties);
- Section 2: ``points_remaining`` and ``snookers_required`` are recomputed from the ruling's own
  reds, colours, ball on and free ball (8r + 27 with a red on; 7 + 8r + 27 with a colour on after a
  red; the colours left in ascending order; a free ball adds what it can score);
- 3.12: a penalty is never below 4 nor above 7, and is the highest value involved;
- 3.3/3.10: the ball on after each line (a colour after a red, a red after a colour while reds
  remain, the lowest colour in the colours phase);
- 3.4/3.1: a frame ends exactly when the last ball is potted or fouled, on a concession, on the
  re-spotted black, or on the third miss with a full ball open (3.14(c)); the match when a player
  has won more than half the frames;
- 3.14: a miss only where 3.14 allows it (never with only the black left or on the re-spotted
  black; under 3.14(b) not when either player needs snookers before or after the stroke);
- any line: never a crash; an illegal line is refused with a reason and leaves the state as it
  was.

A last property runs the camera-style logs of test_referee_camera_properties (positions, the
referee judging free balls and misses itself) against 3.14's limits on a miss.

The generator is derandomised (no example database). That repeats the same matches only for the same
tests run in the same order: Hypothesis mixes in constants read from the local modules loaded when a
strategy first draws (``hypothesis.internal.conjecture.providers._get_local_constants``), so this
file alone, ``tests/referee`` and the whole suite each see other matches; CI runs the whole suite.
To hunt, run ``_play`` under ``settings(derandomize=False, max_examples=N)``.

Outcome: one fault. A push stroke called by a ``foul`` line without its ball, while the cue ball
rested against one ball, took the value of the ball on only; called in a stroke it concerned the
touching ball (3.8(b): playing away must not move it, "inaczej jest to pchnięcie"; 3.12(b)). Fixed
in ``rules._foul_line``; the minimised logs are the first rows of ``CHECKLIST`` below. The model's
own mistakes on the way, where the referee was right: a stroke by the offender while a decision is
open is his play-again (FRAME_LOG.md), a foul by a player not at the table leaves a decision open,
and a touching ball that is on (or the nominated free ball) lets any ball be hit first (3.8(c)).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_logs import assert_last_ruling, foul, match, nominate, over_checklist, pot, stroke
from test_referee_camera_properties import camera_logs

from snooker.referee import Referee, replay

COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
VALUE = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
MIN_PENALTY = 4
MAX_PENALTY = 7
RED_THEN_BLACK = VALUE["red"] + VALUE["black"]

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------------------------------------
# The model: the frame as the texts describe it, kept apart from the referee's own code.


@dataclass(frozen=True)
class Position:
    """What a replacement after a miss restores (3.14(a)): the balls, what was on, who played."""

    reds: int
    colours: tuple[str, ...]
    phase: str
    in_hand: bool
    touching: tuple[str, ...]
    free_ball: bool


@dataclass
class Model:
    best_of: int
    rack: int
    players: int = 2
    aggregate: bool = False
    totals: list[int] = field(default_factory=lambda: [0, 0])
    order: tuple[int, ...] = (0, 1)
    frame: int = 1
    frames: list[int] = field(default_factory=lambda: [0, 0])
    played: int = 0
    match_over: bool = False
    match_winner: int | None = None
    # the frame
    breaker: int = 0
    reds: int = 0
    colours: tuple[str, ...] = COLOURS
    phase: str = "red"  # red | colour (after a red) | ascending
    nominated: str | None = None
    free_ball: bool = False
    striker: int = 0
    potted_points: list[int] = field(default_factory=lambda: [0, 0])
    penalties: list[int] = field(default_factory=lambda: [0, 0])
    over: bool = False
    winner: int | None = None
    pending: tuple[int, tuple[str, ...], Position | None, bool] | None = None
    in_hand: bool = True
    touching: tuple[str, ...] = ()
    respotted_black: bool = False
    awaiting_lot: bool = False
    chain: tuple[int, bool, int, bool] | None = None  # count, full ball open, offender, line open
    replayed: Position | None = None
    break_points: int = 0
    warned: bool = False  # 3.14(c): the warning given (the balls replaced after the second miss)

    def __post_init__(self) -> None:
        self.reds = self.rack
        self.order = tuple(range(self.players))

    @staticmethod
    def side(player: int) -> int:
        """Sides alternate in the match line's player list (0 & 2 against 1 & 3)."""
        return player % 2

    def next_after(self, player: int) -> int:
        """3.3(a), 3.17: the order of play is kept for the frame."""
        return self.order[(self.order.index(player) + 1) % len(self.order)]

    # -- what the texts define ------------------------------------------------------------------
    @property
    def scores(self) -> list[int]:
        return [self.potted_points[s] + self.penalties[s] for s in (0, 1)]

    @property
    def lowest(self) -> str | None:
        return self.colours[0] if self.colours else None

    @property
    def only_black(self) -> bool:
        return self.reds == 0 and self.colours == ("black",)

    def ball_on(self) -> str:
        if self.phase == "either":
            return "either"
        if self.phase == "red":
            return "red"
        if self.phase == "colour":
            return self.nominated or "colour"
        return self.lowest or "none"

    def on_value(self, nominated: str | None) -> int:
        """3.12: the value of the ball on (after a red, the nominated colour's)."""
        if self.phase == "red":
            return VALUE["red"]
        if self.phase == "colour":
            return VALUE[nominated] if nominated else VALUE["red"]
        return VALUE[self.lowest] if self.lowest else VALUE["black"]

    def position(self) -> Position:
        return Position(self.reds, self.colours, self.phase, self.in_hand, self.touching, self.free_ball)

    def new_turn_phase(self) -> str:
        return "red" if self.reds else "ascending"

    def balls_on_table(self) -> list[str]:
        return (["red"] if self.reds else []) + list(self.colours)


def snookers_required(deficit_beyond: int, lowest_penalty: int) -> int:
    return 0 if deficit_beyond <= 0 else -(-deficit_beyond // lowest_penalty)


# ---------------------------------------------------------------------------------------------
# Lines


def _stroke(first: list[str], potted: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "stroke", "first_contact": first, "potted": potted, **extra}


@dataclass
class Expect:
    """What the texts say this line does (checked against its ruling)."""

    foul: bool = False
    penalty: int = 0
    points: int = 0
    miss: bool | None = False  # None: not checked
    offender: int | None = None
    error: bool = False
    clause: str = ""


class Driver:
    """Draws legal lines for the model's state, predicts their rulings, and advances the model."""

    def __init__(self, data: Any, model: Model) -> None:
        self.data = data
        self.m = model

    def draw(self, strategy: Any) -> Any:
        return self.data.draw(strategy)

    def choose(self, options: list[Any]) -> Any:
        return self.draw(st.sampled_from(options))

    # -- the next line ----------------------------------------------------------------------------
    def next_line(self) -> tuple[dict[str, Any], Expect]:
        m = self.m
        if m.over:
            if self.draw(st.integers(0, 9)) == 0:
                return self.illegal()
            return self.line_new_frame()
        if m.awaiting_lot:
            first = self.choose(list(range(m.players)))
            m.striker, m.awaiting_lot, m.in_hand, m.break_points = first, False, True, 0
            return {"type": "respotted_black", "first": first}, Expect(clause="3.4(b) lot")
        if m.phase == "either":
            return self.line_either()
        if m.pending is not None and self.draw(st.integers(0, 3)) > 0:
            options = list(m.pending[1])
            if "replace" in options and self.draw(st.booleans()):
                return self.decide("replace")  # steer towards 3.14(c) chains
            return self.decide(self.choose(options))
        kinds = [
            "pot",
            "pot",
            "pot",
            "pot",
            "safe",
            "wrong_first",
            "miss_all",
            "in_off",
            "pot_not_on",
            "foul_line",
            "nominate",
            "touching_away",
            "free_ball",
            "rare",
            "illegal",
            "table",
            "out_of_turn",
            "multi",
            "multi",
            "called_foul",
            "off_table",
            "edge_in_stroke",
            "unseen",
            "moving",
        ]
        if m.replayed is not None:
            kinds += ["miss_all", "wrong_first"] * 4  # a replaced position: fail again (3.14(c))
        kind = self.choose(kinds)
        if m.pending is not None and kind == "table":
            kind = "pot"
        strokes = (
            "pot",
            "safe",
            "multi",
            "called_foul",
            "unseen",
            "moving",
            "off_table",
            "edge_in_stroke",
            "wrong_first",
            "miss_all",
            "in_off",
            "pot_not_on",
            "touching_away",
            "nominate",
        )
        if m.pending is None and m.free_ball and m.nominated is not None and kind in strokes:
            kind = "free_ball"  # 3.10(a)(iii): the nominated free ball must be hit first
        return getattr(self, "line_" + kind)()

    # -- decisions --------------------------------------------------------------------------------
    def decide(self, choice: str) -> tuple[dict[str, Any], Expect]:
        self.apply_choice(choice)
        return {"type": "decision", "choice": choice}, Expect(clause=f"3.11(h)/3.14 {choice}")

    def apply_choice(self, choice: str) -> None:
        m = self.m
        assert m.pending is not None
        offender, _, snapshot, kept = m.pending
        m.pending = None
        if choice == "play":
            m.chain, m.replayed = None, None
        elif choice == "play_again" and kept:
            # 3.14(d)(i)/(iii): a foul before any stroke of a replay left the replaced position; played
            # again from it, the misses go on counting and the warning stays in force
            m.striker, m.free_ball, m.replayed = offender, False, snapshot
            m.warned = m.chain is not None and m.chain[1] and m.chain[0] >= 2
        elif choice == "play_again":
            m.striker, m.free_ball, m.chain, m.replayed = offender, False, None, None
        else:
            assert snapshot is not None
            m.striker, m.break_points = offender, 0
            m.warned = m.chain is not None and m.chain[1] and m.chain[0] >= 2
            m.reds, m.colours, m.phase = snapshot.reds, snapshot.colours, snapshot.phase
            m.in_hand, m.touching, m.free_ball = snapshot.in_hand, snapshot.touching, snapshot.free_ball
            m.replayed = snapshot

    def settle_implicit(self) -> None:
        """A stroke with a decision open: the next player chose to play (3.11(h))."""
        if self.m.pending is not None:
            self.apply_choice("play")

    # -- strokes ------------------------------------------------------------------------------------
    def nomination(self, extra: dict[str, Any]) -> str | None:
        """In a colour-after-a-red phase: a colour named (by the stroke, a line before it, or none)."""
        m = self.m
        if m.phase != "colour":
            return None
        if m.nominated is not None:
            return m.nominated
        if self.draw(st.booleans()):
            colour = self.choose(list(m.colours))
            extra["nominated"] = colour
            return colour
        return None

    def line_pot(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        extra: dict[str, Any] = {}
        if m.phase == "red":
            count = self.draw(st.integers(1, min(3, m.reds)))
            line = _stroke(["red"], ["red"] * count, **extra)
            return line, self.fair(points=count, reds_gone=count, clause="3.3(c) reds score")
        if m.phase == "colour":
            named = self.nomination(extra)
            colour = named or self.choose(list(m.colours))
            line = _stroke([colour], [colour], **extra)
            return line, self.fair(points=VALUE[colour], clause="3.3(d) the nominated colour scores")
        colour = m.lowest
        assert colour is not None
        line = _stroke([colour], [colour])
        return line, self.fair(points=VALUE[colour], colour_down=colour, clause="3.3(e) ascending")

    def line_safe(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        extra: dict[str, Any] = {}
        if m.phase == "red":
            ball = "red"
        elif m.phase == "colour":
            ball = self.nomination(extra) or self.choose(list(m.colours))
        else:
            ball = m.lowest
        touching = self.draw_touching(potted=[])
        if touching:
            extra["touching"] = touching
        return _stroke([ball], [], **extra), self.fair(
            points=0, touching=tuple(touching), clause="3.3 safety"
        )

    def line_free_ball(self) -> tuple[dict[str, Any], Expect]:
        """With a free ball: the free ball nominated (by the stroke or by a line before it, or shown
        by hitting it) and potted or played safe (3.10)."""
        m = self.m
        if not m.free_ball:
            return self.line_pot()
        self.settle_implicit()
        if not m.free_ball:
            return self.line_pot()
        on = "red" if m.phase == "red" else m.lowest
        candidates = [c for c in m.colours if c != on]
        if not candidates:
            return self.line_pot()
        ball = m.nominated if m.nominated in candidates else self.choose(candidates)
        extra: dict[str, Any] = {}
        if m.nominated is None and self.draw(st.booleans()):
            extra["nominated"] = ball
        value = m.on_value(None)
        mode = self.choose(["pot", "safe", "with_on", "together", "wrong"])
        if mode == "with_on":
            # 3.10(a)(iv)-(v): the free ball hit first and the ball on potted, perhaps with it: with a
            # red on every ball potted scores; in the colours phase only the ball on, which stays
            # down, and the free ball is re-spotted.
            both = self.draw(st.booleans())
            potted = [on, ball] if both else [on]
            if m.phase == "red":
                line = _stroke([ball], potted, **extra)
                return line, self.fair(points=len(potted), reds_gone=1, clause="3.10 free ball then a red")
            line = _stroke([ball], potted, **extra)
            return line, self.fair(points=value, colour_down=on, clause="3.10 free ball then the ball on")
        if mode == "together":
            line = _stroke([ball, on], [], **extra)
            return line, self.fair(points=0, clause="3.6 the free ball and the ball on at once")
        if mode == "wrong":
            # 3.10(a)(iii): the nominated free ball not hit first; it takes the value of the ball on
            others = [b for b in m.balls_on_table() if b != ball]
            wrong = self.choose(others)
            extra["nominated"] = ball
            if m.touching[:1] == (ball,) and not m.in_hand:
                # 3.8(c): the nominated free ball touching: playing away from it counts as hitting it
                line = _stroke([wrong], [], **extra)
                return line, self.fair(points=0, clause="3.8(c) away from the touching free ball")
            self.foul_flags(extra, missable=wrong != on)
            line = _stroke([wrong], [], **extra)
            penalty = max(MIN_PENALTY, value, VALUE[wrong])
            return line, self.foul(
                line, penalty, "3.10(a)(iii) free ball not hit first", missed_on=wrong != on
            )
        if mode == "pot":
            # 3.10(a)(ii)-(iii): the free ball potted scores the value of the ball on, is re-spotted.
            line = _stroke([ball], [ball], **extra)
            return line, self.fair(points=value, free_ball_potted=True, clause="3.10 free ball potted")
        return _stroke([ball], [], **extra), self.fair(points=0, clause="3.10 free ball played safe")

    def fair(
        self,
        points: int,
        clause: str,
        reds_gone: int = 0,
        colour_down: str | None = None,
        free_ball_potted: bool = False,
        touching: tuple[str, ...] = (),
    ) -> Expect:
        m = self.m
        side = m.side(m.striker)
        m.potted_points[side] += points
        m.break_points = m.break_points + points if points else 0
        before_only_black = m.only_black
        m.reds -= reds_gone
        if colour_down is not None:
            m.colours = tuple(c for c in m.colours if c != colour_down)
        ended = points and (before_only_black or m.respotted_black or (not m.reds and not m.colours))
        if points:
            if free_ball_potted:
                m.phase = "colour" if m.phase == "red" else m.phase
            elif m.phase == "red":
                m.phase = "colour"
            elif m.phase == "colour":
                m.phase = m.new_turn_phase()
        else:
            m.phase = m.new_turn_phase()
            m.striker = m.next_after(m.striker)
        m.nominated, m.free_ball, m.chain, m.replayed = None, False, None, None
        m.touching = touching
        if colour_down is not None and reds_gone:
            raise AssertionError("one ball on at a time")
        m.in_hand = False
        if ended:
            self.frame_end()
        return Expect(points=points, clause=clause)

    def draw_touching(self, potted: list[str]) -> list[str]:
        """Sometimes the cue ball comes to rest against a ball left on the table (3.8)."""
        m = self.m
        if self.draw(st.booleans()):
            return []
        left = [b for b in m.balls_on_table() if b not in potted]
        if "red" in left and m.reds - potted.count("red") <= 0:
            left.remove("red")
        return [self.choose(left)] if left else []

    def foul_flags(self, extra: dict[str, Any], missable: bool) -> None:
        """Free ball and miss calls on a foul: the referee's call of a miss, a clear path left to
        3.14(b), or nothing."""
        if self.draw(st.integers(0, 2)) == 0:
            extra["free_ball"] = True
        if not missable:
            return
        mode = self.choose(["none", "miss", "miss", "clear", "clear_full", "no_path"])
        if mode == "miss":
            extra["miss"] = True
        elif mode == "clear":
            extra["clear_path"] = True
        elif mode == "clear_full":
            extra.update(clear_path=True, full_ball=True)
        elif mode == "no_path" and self.m.replayed is None:
            extra["clear_path"] = False

    def touching_is_on(self, named: str | None, contact: bool) -> bool:
        """3.8(c): the cue ball rests against a ball on (after a red with no colour named, a
        touching colour played away from is the colour named; not when another ball is hit)."""
        m = self.m
        if m.in_hand or not m.touching:
            return False
        touched = m.touching[0]
        if m.phase == "red":
            return touched == "red"
        if m.phase == "colour":
            return touched != "red" and (touched == named if named is not None else not contact)
        return touched == m.lowest

    def line_wrong_first(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        if m.free_ball:
            return self.line_pot()
        extra: dict[str, Any] = {}
        named = self.nomination(extra)
        if self.touching_is_on(named, contact=True):
            ball = self.choose(m.balls_on_table())
            line = _stroke([ball], [], **extra)
            return line, self.fair(points=0, clause="3.8(c) touching a ball on: any ball may be hit")
        if m.phase == "red":
            not_on = list(m.colours)
        elif m.phase == "colour":
            not_on = ["red"] if m.reds else []
            if named is not None:
                not_on += [c for c in m.colours if c != named]
        else:
            not_on = [c for c in m.colours if c != m.lowest]
        if not not_on:
            return self.line_miss_all()
        ball = self.choose(not_on)
        self.foul_flags(extra, missable=True)
        line = _stroke([ball], [], **extra)
        if m.phase == "colour" and named is None:
            penalty, clause = MAX_PENALTY, "3.12(d) reds in successive strokes"
        else:
            penalty = max(MIN_PENALTY, m.on_value(named), VALUE[ball])
            clause = "3.12(b) wrong ball first"
        return line, self.foul(line, penalty, clause, missed_on=True)

    def line_miss_all(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        if m.touching and not m.in_hand:
            return self.line_touching_away()
        extra: dict[str, Any] = {}
        named = self.nomination(extra)
        self.foul_flags(extra, missable=True)
        line = _stroke([], [], **extra)
        if m.phase == "colour" and named is None:
            penalty, clause = MAX_PENALTY, "3.12(d) foul before nominating"
        else:
            penalty, clause = max(MIN_PENALTY, m.on_value(named)), "3.12(a) missed all balls"
        return line, self.foul(line, penalty, clause, missed_on=True)

    def line_in_off(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        extra: dict[str, Any] = {}
        named = self.nomination(extra)
        if m.phase == "red":
            ball = "red"
        elif m.phase == "colour":
            ball = named or self.choose(list(m.colours))
            named = ball
        else:
            ball = m.lowest
        potted = [ball] if self.draw(st.booleans()) else []
        if potted and ball == "red":
            potted *= self.draw(st.integers(1, min(3, m.reds)))  # 3.3: reds potted in a foul stay down
        extra["cue_ball"] = self.choose(["potted", "off_table"])
        self.foul_flags(extra, missable=False)
        line = _stroke([ball], potted, **extra)
        penalty = max(MIN_PENALTY, m.on_value(named))
        return line, self.foul(line, penalty, "3.12(a)/(b) cue ball in-off", in_hand=True)

    def ball_on_for_stroke(self, extra: dict[str, Any]) -> tuple[str, str | None]:
        """The ball the striker hits first, on (a colour named after a red), and the nomination."""
        m = self.m
        named = self.nomination(extra)
        if m.phase == "red":
            return "red", None
        if m.phase == "colour":
            ball = named or self.choose(list(m.colours))
            return ball, ball
        assert m.lowest is not None
        return m.lowest, None

    def line_called_foul(self) -> tuple[dict[str, Any], Expect]:
        """A foul called in a stroke that hit and perhaps potted the ball on (3.11(b)): nothing potted
        scores; reds stay down, colours (the ball on in the colours phase too) are re-spotted."""
        self.settle_implicit()
        m = self.m
        extra: dict[str, Any] = {}
        ball, named = self.ball_on_for_stroke(extra)
        potted = [ball] if self.draw(st.booleans()) else []
        if self.draw(st.booleans()):
            concerned = self.choose(m.balls_on_table())
            extra["fouls"] = [{"reason": "push_stroke", "ball": concerned}]
            penalty = max(MIN_PENALTY, m.on_value(named), VALUE[concerned])
        else:
            extra["fouls"] = [self.choose(["double_hit", "jump_shot", "no_foot_on_floor"])]
            penalty = max(MIN_PENALTY, m.on_value(named))
        self.foul_flags(extra, missable=False)
        line = _stroke([ball], potted, **extra)
        return line, self.foul(line, penalty, "3.11(b)/3.12 a foul called in a stroke")

    def line_off_table(self) -> tuple[dict[str, Any], Expect]:
        """3.12(b): a ball forced off the table: a red stays off, a colour is re-spotted (3.7)."""
        self.settle_implicit()
        m = self.m
        extra: dict[str, Any] = {}
        ball, named = self.ball_on_for_stroke(extra)
        off = self.choose(m.balls_on_table())
        self.foul_flags(extra, missable=False)
        line = _stroke([ball], [], off_table=[off], **extra)
        penalty = max(MIN_PENALTY, m.on_value(named), VALUE[off])
        m.reds -= 1 if off == "red" else 0
        expect = self.foul(line, penalty, "3.12(b) a ball forced off the table")
        return line, expect

    def line_edge_in_stroke(self) -> tuple[dict[str, Any], Expect]:
        """3.9(b): a ball falls from the edge of a pocket before a ball in the stroke reaches it: all
        balls are replaced; without a foul the striker plays again, with one the penalty stands and
        the next player has the usual options."""
        self.settle_implicit()
        m = self.m
        if m.free_ball:
            return self.line_pot()
        extra: dict[str, Any] = {}
        ball, named = self.ball_on_for_stroke(extra)
        fell = [c for c in m.colours if c != ball]
        if not fell:
            return self.line_pot()
        fallen = self.choose(fell)
        potted = [fallen] if self.draw(st.booleans()) else []
        if self.draw(st.booleans()):
            line = _stroke([ball], potted, fell_from_edge=[fallen], **extra)
            m.nominated = None
            return line, Expect(clause="3.9(b) balls replaced, the striker plays again")
        extra["cue_ball"] = "potted"
        self.foul_flags(extra, missable=False)
        line = _stroke([ball], potted, fell_from_edge=[fallen], **extra)
        in_hand, touching = m.in_hand, m.touching
        penalty = max(MIN_PENALTY, m.on_value(named))
        expect = self.foul(line, penalty, "3.9(b) balls replaced after a foul")
        m.in_hand, m.touching = in_hand, touching  # the cue ball replaced too
        return line, expect

    def line_multi(self) -> tuple[dict[str, Any], Expect]:
        """3.11(g): several fouls in one stroke: only the highest penalty (3.12) counts."""
        self.settle_implicit()
        m = self.m
        if m.free_ball or (m.touching and not m.in_hand):
            return self.line_pot()
        extra: dict[str, Any] = {}
        ball, named = self.ball_on_for_stroke(extra)
        if m.phase == "colour" and named is not None and "nominated" not in extra and m.nominated is None:
            extra["nominated"] = named
        values = [m.on_value(named)]
        first = self.choose(m.balls_on_table())
        on = first == ball
        if not on:
            values.append(VALUE[first])
        wrong = [b for b in m.balls_on_table() if b != ball]
        potted: list[str] = []
        if wrong and self.draw(st.booleans()):
            potted.append(self.choose(wrong))
            values.append(VALUE[potted[-1]])
        if self.draw(st.booleans()):
            extra["cue_ball"] = self.choose(["potted", "off_table"])
        if self.draw(st.booleans()):
            concerned = self.choose(m.balls_on_table())
            extra["fouls"] = [{"reason": "touched_ball", "ball": concerned}]
            values.append(VALUE[concerned])
        if on and not potted and "cue_ball" not in extra and "fouls" not in extra:
            extra["fouls"] = ["jump_shot"]
        line = _stroke([first], potted, **extra)
        return line, self.foul(
            line, max(MIN_PENALTY, *values), "3.11(g) the highest foul counts", missed_on=not on
        )

    def line_unseen(self) -> tuple[dict[str, Any], Expect]:
        """A camera's stroke whose contact was not seen (a cut, a source that ended, a cue ball first
        seen running): no foul for missing every ball, no miss; what was seen is ruled, and after a
        red the one colour potted names the colour (the striker has the benefit of the doubt)."""
        self.settle_implicit()
        m = self.m
        if m.free_ball or (m.touching and not m.in_hand):
            return self.line_pot()
        unseen = self.choose([{"unwatched_s": 1.5}, {"truncated": True}, {"strike_unseen": True}])
        mode = self.choose(["nothing", "pot", "in_off"])
        if mode == "nothing":
            return _stroke([], [], **unseen), self.fair(points=0, clause="unseen contact: no foul")
        if mode == "pot":
            if m.phase == "red":
                return _stroke([], ["red"], **unseen), self.fair(
                    points=1, reds_gone=1, clause="unseen: a red"
                )
            colour = (m.nominated or self.choose(list(m.colours))) if m.phase == "colour" else m.lowest
            assert colour is not None
            line = _stroke([], [colour], **unseen)
            down = colour if m.phase == "ascending" else None
            return line, self.fair(points=VALUE[colour], colour_down=down, clause="unseen: the colour potted")
        line = _stroke([], [], cue_ball="potted", **unseen)
        # the value of the ball on; after a red with no colour named, the striker's benefit of the
        # doubt: no foul before nominating, and no colour's value
        penalty = max(MIN_PENALTY, m.on_value(m.nominated))
        return line, self.foul(line, penalty, "unseen contact: the cue ball potted", in_hand=True)

    def line_moving(self) -> tuple[dict[str, Any], Expect]:
        """3.12(b): striking while a ball was still moving (seen by the camera), a foul each."""
        self.settle_implicit()
        m = self.m
        if m.free_ball:
            return self.line_pot()
        extra: dict[str, Any] = {}
        ball, named = self.ball_on_for_stroke(extra)
        moving = self.choose(m.balls_on_table())
        line = _stroke([ball], [], moving_at_strike=[moving], **extra)
        penalty = max(MIN_PENALTY, m.on_value(named), VALUE[moving])
        return line, self.foul(line, penalty, "3.12(b) striking while a ball moved")

    def line_pot_not_on(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        if m.free_ball:
            return self.line_pot()
        extra: dict[str, Any] = {}
        named = self.nomination(extra)
        if m.phase == "red":
            ball, not_on = "red", list(m.colours)
        elif m.phase == "colour":
            ball = named or self.choose(list(m.colours))
            named = ball
            not_on = (["red"] if m.reds else []) + [c for c in m.colours if c != ball]
        else:
            ball = m.lowest
            not_on = [c for c in m.colours if c != ball]
        if not not_on:
            return self.line_in_off()
        wrong = self.choose(not_on)
        self.foul_flags(extra, missable=False)
        potted = [wrong]
        if self.draw(st.booleans()) and not (ball == "red" and wrong == "red"):
            # the ball on potted too: nothing scores in a foul; reds stay down, colours are re-spotted
            # (the ball on in the colours phase included: it was not potted legally, 3.7)
            potted = [ball, wrong]
            if ball == "red" and m.reds >= 2 and self.draw(st.booleans()):
                potted = ["red", "red", wrong]
        line = _stroke([ball], potted, **extra)
        penalty = max(MIN_PENALTY, m.on_value(named), VALUE[wrong])
        clause = "3.12(b) a red potted with a colour on" if wrong == "red" else "3.12(b) potted a ball not on"
        return line, self.foul(line, penalty, clause)

    def line_touching_away(self) -> tuple[dict[str, Any], Expect]:
        """3.8(c): playing away from a touching ball that is on counts as hitting it; from one not on
        it is missing every ball."""
        self.settle_implicit()
        m = self.m
        if not m.touching or m.in_hand or (m.free_ball and m.nominated is not None):
            return self.line_safe()
        extra: dict[str, Any] = {}
        named = self.nomination(extra)
        on = self.touching_is_on(named, contact=False)
        line = _stroke([], [], **extra)
        if on:
            return line, self.fair(points=0, clause="3.8(c) played away from a touching ball on")
        self.foul_flags(extra, missable=False)
        line = _stroke([], [], **extra)
        if m.phase == "colour" and named is None:
            return line, self.foul(line, MAX_PENALTY, "3.12(d) foul before nominating")
        penalty = max(MIN_PENALTY, m.on_value(named))
        # a failure to hit a ball on: from a replaced position after a miss with a full ball open,
        # a miss whatever the score (3.14(c))
        return line, self.foul(line, penalty, "3.8 away from a ball not on: missed all balls", missed_on=True)

    def foul(
        self,
        line: dict[str, Any],
        penalty: int,
        clause: str,
        missed_on: bool = False,
        in_hand: bool = False,
    ) -> Expect:
        m = self.m
        offender = line.get("player", m.striker)
        before = m.position()
        before_scores = m.scores
        frame_ends = m.only_black or m.respotted_black
        before_points = self.remaining()
        # the balls after the stroke: reds potted stay down, colours are re-spotted (3.3, 3.7)
        m.reds -= line["potted"].count("red")
        m.penalties[1 - m.side(offender)] += penalty
        m.break_points = 0
        m.phase = m.new_turn_phase()
        m.nominated = None
        m.striker = m.next_after(offender)
        m.in_hand = in_hand or line.get("cue_ball", "on_table") != "on_table"
        m.touching = tuple(line.get("touching", ()))
        replayed, m.replayed = m.replayed, None
        m.free_ball = bool(line.get("free_ball")) and not frame_ends
        expect = Expect(foul=True, penalty=penalty, clause=clause, offender=offender)
        miss, full, line_open = False, False, True
        if missed_on and not frame_ends:
            # 3.14: a miss as the referee calls it, else 3.14(b)-(c) from the clear path
            explicit = line.get("miss")
            clear = line.get("clear_path")
            full_flag = line.get("full_ball")
            line_open = clear is not False
            if explicit is not None:
                miss = explicit
                full = False if clear is False else (full_flag if full_flag is not None else True)
            elif replayed is not None and m.chain is not None and m.chain[1]:
                miss, full = True, True
            elif clear:
                after_points = self.remaining()
                after_scores = m.scores
                needs = any(
                    s[1 - side] - s[side] > pts
                    for s, pts in ((before_scores, before_points), (after_scores, after_points))
                    for side in (0, 1)
                )
                miss, full = (not needs), bool(full_flag) and not needs
        expect.miss = miss
        if frame_ends:
            m.pending, m.chain = None, None
            self.frame_end()
            return expect
        if miss:
            m.warned = False  # given only when the balls are replaced after it
            previous = m.chain if replayed is not None else None
            if previous is not None and previous[2] == offender:
                m.chain = (previous[0] + 1, previous[1], offender, line_open)
            else:
                m.chain = (1, full, offender, line_open)
            if m.chain[1] and m.chain[0] >= 3:
                expect.clause += "; 3.14(c) third miss awards the frame"
                self.give_frame(1 - m.side(offender))
                return expect
            m.pending = (offender, ("play", "play_again", "replace"), before, False)
        else:
            m.chain = None
            m.pending = (offender, ("play", "play_again"), None, False)
        return expect

    def remaining(self) -> int:
        m = self.m
        return points_remaining_model(m)

    # -- lines outside a stroke ---------------------------------------------------------------------
    def line_foul_line(self) -> tuple[dict[str, Any], Expect]:
        m = self.m
        reason = self.choose(["touched_ball", "touched_ball", "push_stroke", "measured_gap", "double_hit"])
        line: dict[str, Any] = {"type": "foul", "reason": reason}
        ball: str | None = None
        if reason == "touched_ball" or (reason == "push_stroke" and self.draw(st.booleans())):
            ball = self.choose([*m.balls_on_table(), "white"])
            line["ball"] = ball
        if reason == "touched_ball" and ball == "white" and m.in_hand:
            # 3.5(b), 3.12(b): the cue ball in hand is not yet in play; touching it is no foul
            return line, Expect(error=True, clause="3.5(b) the cue ball in hand is not in play")
        bystander = reason in ("touched_ball", "measured_gap") and self.draw(st.integers(0, 4)) == 0
        if reason == "push_stroke" and ball is None and len(m.touching) == 1 and not m.in_hand:
            ball = m.touching[0]  # 3.8(b): moving the touching ball is the push: it is concerned
        if not bystander:
            # a foul by the next player with a decision open: he chose to play (3.11(h)); another
            # player's foul leaves the decision open
            self.settle_implicit()
        if self.draw(st.integers(0, 2)) == 0:
            line["free_ball"] = True
        offender = self.choose([p for p in range(m.players) if p != m.striker]) if bystander else m.striker
        if bystander:
            line["player"] = offender
        value = m.on_value(m.nominated)
        concerned = (
            0 if ball in (None, "white") else value if (m.free_ball and ball == m.nominated) else VALUE[ball]
        )
        if m.phase == "colour" and m.nominated is None and not bystander:
            penalty, clause = MAX_PENALTY, "3.12(d) foul before nominating"
        elif reason == "measured_gap":
            penalty, clause = MAX_PENALTY, "3.12(d) measuring a gap"
        elif reason == "double_hit":
            penalty, clause = max(MIN_PENALTY, value), "3.12(a) value of the ball on"
        else:
            penalty, clause = max(MIN_PENALTY, value, concerned), "3.12(b) ball on or ball concerned"
        if bystander:
            # 3.2(b), 3.14(h): penalised as if striker; the order of play is unchanged
            m.penalties[1 - m.side(offender)] += penalty
            if m.only_black or m.respotted_black:
                m.break_points = 0
                self.frame_end()
            return line, Expect(
                foul=True,
                penalty=penalty,
                miss=False,
                clause=clause + " (not the striker)",
                offender=offender,
            )
        frame_ends = m.only_black or m.respotted_black
        replayable = m.replayed is not None and (m.chain is None or m.chain[3])
        m.penalties[1 - m.side(offender)] += penalty
        m.break_points = 0
        m.phase = m.new_turn_phase()
        m.nominated = None
        m.striker = m.next_after(offender)
        m.free_ball = bool(line.get("free_ball")) and not frame_ends
        snapshot, m.replayed = m.replayed, None
        if not replayable:
            m.chain = None
        if frame_ends:
            m.pending = None
            self.frame_end()
        else:
            options = ("play", "play_again", "replace") if replayable else ("play", "play_again")
            kept = (
                replayable
                and snapshot is not None
                and snapshot.phase == m.phase
                and not snapshot.free_ball
                and m.chain is not None
            )
            m.pending = (offender, options, snapshot if replayable else None, kept)
        return line, Expect(foul=True, penalty=penalty, miss=False, clause=clause, offender=offender)

    def line_nominate(self) -> tuple[dict[str, Any], Expect]:
        self.settle_implicit()
        m = self.m
        if m.phase == "colour" and m.nominated is None:
            colour = self.choose(list(m.colours))
        elif m.free_ball and m.nominated is None:
            on = "red" if m.phase == "red" else m.lowest
            candidates = [c for c in m.colours if c != on]
            if not candidates:
                return self.line_pot()
            colour = self.choose(candidates)
        else:
            return self.line_pot()
        m.nominated = colour
        return {"type": "nominate", "ball": colour}, Expect(clause="3.3(f)/3.10 nomination")

    def line_rare(self) -> tuple[dict[str, Any], Expect]:
        m = self.m
        kind = self.choose(["concede", "rerack", "edge_fall", "ball_moved"])
        if kind == "concede":
            player = self.choose(list(range(m.players)))
            self.give_frame(1 - m.side(player))
            return {"type": "concede", "player": player}, Expect(clause="3.1(f) concession")
        if kind == "rerack":
            self.rack(m.breaker)
            return {"type": "rerack"}, Expect(clause="3.16 re-rack")
        if kind == "ball_moved" and not m.in_hand:
            return {"type": "ball_moved", "ball": "white"}, Expect(clause="3.15 ball moved")
        ball = self.choose(m.balls_on_table() + ([] if m.in_hand else ["white"]))
        return {"type": "edge_fall", "ball": ball}, Expect(clause="3.9(a) edge fall")

    def line_either(self) -> tuple[dict[str, Any], Expect]:
        """After a table line that did not say what is on: the next stroke is ruled under each reading
        and the most favourable to the striker kept (fair over foul, then the smaller penalty, then
        the likelier: a red while reds remain, else the lowest colour)."""
        m = self.m
        likelier = "red" if m.reds else "ascending"
        mode = self.choose(["likelier", "colour", "miss"])
        if mode == "likelier":
            m.phase = likelier
            return self.line_pot()
        if mode == "colour":
            colours = [c for c in m.colours if m.reds or c != m.lowest]
            colour = self.choose(colours)
            m.phase = "colour"
            return _stroke([colour], [colour]), self.fair(
                points=VALUE[colour], clause="after a red: any colour"
            )
        m.phase = likelier
        line = _stroke([], [])
        return line, self.foul(line, MIN_PENALTY, "either reading: the smaller penalty", missed_on=True)

    def line_table(self) -> tuple[dict[str, Any], Expect]:
        """A ``table`` line: the log joins a frame in play, late in the frame with close scores, so
        that ties (3.4(b)), needs-snookers (3.14(b)) and the last balls come often."""
        m = self.m
        if m.awaiting_lot:
            return self.line_pot()
        if self.draw(st.booleans()):
            # only the black left, seven apart: its pot by the one behind, or a foul by the one
            # ahead, ties the frame (3.4(b)); anything else ends it.
            mine = self.draw(st.integers(0, 60))
            striker = self.choose(list(range(m.players)))
            scores = [mine, mine + self.choose([-7, 7, 0, 3, -4])]
            line = {
                "type": "table",
                "reds": 0,
                "colours": ["black"],
                "ball_on": "black",
                "cue_in_hand": False,
                "score": [max(0, x) for x in scores],
                "striker": striker,
            }
            m.reds, m.colours, m.phase, m.nominated, m.free_ball = 0, ("black",), "ascending", None, False
            m.potted_points, m.penalties = list(line["score"]), [0, 0]
            m.striker, m.in_hand, m.touching, m.chain, m.replayed = striker, False, (), None, None
            m.break_points = 0
            m.respotted_black = False
            return line, Expect(clause="table: only the black left")
        reds = self.draw(st.integers(0, min(m.rack, 2)))
        colours = COLOURS if reds else COLOURS[-self.draw(st.integers(1, 6)) :]
        if reds:
            phase = self.choose(["red", "colour", "either"])
        elif len(colours) == len(COLOURS):
            phase = self.choose(["ascending", "colour", "either"])
        else:
            phase = "ascending"
        ball_on = {"red": "red", "colour": "colour", "either": "either"}.get(phase, colours[0])
        mine = self.draw(st.integers(0, 60))
        theirs = max(0, mine + self.draw(st.integers(-20, 20)))
        striker = self.choose(list(range(m.players)))
        in_hand = self.draw(st.booleans())
        line = {
            "type": "table",
            "reds": reds,
            "colours": list(colours),
            "ball_on": ball_on,
            "cue_in_hand": in_hand,
            "score": [mine, theirs],
            "striker": striker,
        }
        m.reds, m.colours, m.phase, m.nominated, m.free_ball = reds, tuple(colours), phase, None, False
        m.potted_points, m.penalties = [mine, theirs], [0, 0]
        m.striker, m.in_hand, m.touching, m.chain, m.replayed = striker, in_hand, (), None, None
        m.break_points = 0
        m.respotted_black = False
        return line, Expect(clause="table: joined a frame in play")

    def line_illegal(self) -> tuple[dict[str, Any], Expect]:
        return self.illegal()

    def illegal(self) -> tuple[dict[str, Any], Expect]:
        m = self.m
        candidates: list[dict[str, Any]] = [{"type": "decision", "choice": "play"}]
        gone = [c for c in COLOURS if c not in m.colours]
        if gone and not m.over:
            candidates.append(_stroke([gone[0]], [gone[0]]))
        if not m.over:
            candidates.append({"type": "new_frame"})
            if m.phase == "red" and not m.free_ball:
                candidates.append({"type": "nominate", "ball": "black"})
            if not m.reds:
                candidates.append(_stroke(["red"], []))
        if not m.over and not m.awaiting_lot:
            on = (
                "red"
                if m.phase == "red"
                else (m.nominated or m.colours[-1])
                if m.phase == "colour"
                else m.lowest
            )
            candidates += [
                {"type": "decision", "choice": "replace"},
                _stroke([on], [], miss=True),  # 3.14: a miss is a failure to hit a ball on first
                _stroke([], [], clear_path=False, full_ball=True),
                _stroke([on], [m.colours[-1]], touching=[m.colours[-1]]),
                {"type": "foul", "reason": "no_such_foul"},
                _stroke([on], [], player=9),
                {"type": "match", "players": ["X", "Y"], "best_of": 1},
            ]
            if m.reds:
                candidates.append(_stroke(["red"], ["red"] * (m.reds + 1)))
            if gone:
                candidates.append({"type": "nominate", "ball": gone[-1]})
            if not m.respotted_black:
                candidates.append({"type": "respotted_black", "first": 0})
        if m.pending is not None:
            candidates = [c for c in candidates if c["type"] != "decision" or c["choice"] not in m.pending[1]]
            candidates.append({"type": "table", "reds": 0, "colours": ["black"], "ball_on": "black"})
        if m.over:
            wrong_breaker = m.side(m.breaker)  # the side that broke this frame cannot break the next
            order = (
                [wrong_breaker, 1 - wrong_breaker]
                if m.players == 2
                else [wrong_breaker, 1 - wrong_breaker, 2 + wrong_breaker, 3 - wrong_breaker]
            )
            candidates.append({"type": "new_frame", "order": order})
            candidates.append(_stroke(["red"], ["red"]))
            candidates.append({"type": "concede"})
        return self.choose(candidates), Expect(error=True, clause="refused with a reason")

    # -- frame and match ------------------------------------------------------------------------
    def rack(self, breaker: int) -> None:
        m = self.m
        m.breaker, m.striker, m.break_points = breaker, breaker, 0
        m.reds, m.colours, m.phase, m.nominated, m.free_ball = m.rack, COLOURS, "red", None, False
        m.potted_points, m.penalties = [0, 0], [0, 0]
        m.over, m.winner, m.pending, m.in_hand, m.touching = False, None, None, True, ()
        m.respotted_black, m.awaiting_lot, m.chain, m.replayed = False, False, None, None

    def frame_end(self) -> None:
        """3.4: the frame ends on the scores; level scores bring the re-spotted black (3.4(b)), but
        in a match on aggregate points only a level aggregate after the last frame does (3.4(c))."""
        m = self.m
        a, b = m.scores
        if m.aggregate:
            last = m.played + 1 >= m.best_of
            level = m.totals[0] + a == m.totals[1] + b
            respot = last and level
        else:
            respot = a == b
        if respot:
            m.reds, m.colours, m.phase, m.nominated, m.free_ball = 0, ("black",), "ascending", None, False
            m.respotted_black, m.awaiting_lot, m.in_hand, m.touching = True, True, True, ()
            # the break that tied the frame stands until the lot (3.4(b))
            m.pending, m.chain, m.replayed = None, None, None
            return
        self.close_frame(None if a == b else 0 if a > b else 1)

    def give_frame(self, winner: int) -> None:
        """A concession (3.1(f)) or an award (3.14(c)); in a match on aggregate points a last frame so
        ended with the aggregate level still brings the re-spotted black (3.4(c))."""
        m = self.m
        a, b = m.scores
        last = m.played + 1 >= m.best_of
        if m.aggregate and not m.respotted_black and last and m.totals[0] + a == m.totals[1] + b:
            self.frame_end()
            return
        self.close_frame(winner)

    def close_frame(self, winner: int | None) -> None:
        m = self.m
        m.over, m.winner, m.pending, m.free_ball, m.awaiting_lot = True, winner, None, False, False
        if winner is not None:
            m.frames[winner] += 1
        m.played += 1
        m.totals = [m.totals[s] + m.scores[s] for s in (0, 1)]
        if m.aggregate:
            if m.played >= m.best_of:
                if m.totals[0] != m.totals[1]:
                    m.match_over, m.match_winner = True, 0 if m.totals[0] > m.totals[1] else 1
                elif m.respotted_black and winner is not None:
                    m.match_over, m.match_winner = True, winner
        elif winner is not None and m.frames[winner] > m.best_of // 2:
            m.match_over, m.match_winner = True, winner
        elif m.played >= m.best_of:
            m.match_over = True

    def line_new_frame(self) -> tuple[dict[str, Any], Expect]:
        """3.3(b), 3.17(a): the breakers (four-handed, the sides) alternate; the order of play may be
        given, the sides playing alternately."""
        m = self.m
        breaking_side = 1 - m.side(m.breaker)
        line: dict[str, Any] = {"type": "new_frame"}
        if m.players == 2:
            order: tuple[int, ...] = (breaking_side, 1 - breaking_side)
            if self.draw(st.booleans()):
                line["order"] = list(order)
        else:
            lead = self.draw(st.permutations([p for p in range(4) if m.side(p) == breaking_side]))
            other = self.draw(st.permutations([p for p in range(4) if m.side(p) != breaking_side]))
            order = (lead[0], other[0], lead[1], other[1])
            line["order"] = list(order)
        m.frame += 1
        m.order = order
        self.rack(order[0])
        return line, Expect(clause="3.3(b) next frame")

    def line_out_of_turn(self) -> tuple[dict[str, Any], Expect]:
        """3.12(a): a stroke by someone other than the player to play; with a decision open, a
        stroke by the offender shows he was asked to play again (3.11(h), 3.13)."""
        m = self.m
        offender_open = m.pending[0] if m.pending is not None else None
        others = [p for p in range(m.players) if p not in (m.striker, offender_open)]
        if m.pending is not None and (not others or self.draw(st.booleans())):
            offender = m.pending[0]
            if offender != m.striker:
                self.apply_choice("play_again")
                line, expect = self.line_safe()
                line["player"] = offender
                return line, expect
        self.settle_implicit()
        if m.free_ball and m.nominated is not None:
            return self.line_free_ball()
        extra: dict[str, Any] = {}
        if m.phase == "red":
            ball, named = "red", None
        elif m.phase == "colour":
            named = m.nominated or self.choose(list(m.colours))
            ball = named
            if m.nominated is None:
                extra["nominated"] = named
        else:
            ball, named = m.lowest, None
        player = self.choose([p for p in range(m.players) if p not in (m.striker, offender_open)])
        line = _stroke([ball], [], player=player, **extra)
        penalty = max(MIN_PENALTY, m.on_value(named))
        return line, self.foul(line, penalty, "3.12(a) out of turn")


def points_remaining_model(m: Model) -> int:
    """Section 2 from the model's own state (see :func:`points_remaining_of`)."""
    return points_remaining_of(m.reds, list(m.colours), m.phase, m.free_ball)


def points_remaining_of(reds: int, colours: list[str], phase: str, free_ball: bool) -> int:
    """Section 2: 8r + 27 with a red on; 7 + 8r + 27 with a colour on after a red (and while the ball
    on is undecided, as if a colour were on); the colours left in the colours phase. A free ball
    adds what it can score: a red and the black while reds are on, else the lowest colour."""
    colour_sum = sum(VALUE[c] for c in colours)
    if phase == "red":
        points = RED_THEN_BLACK * reds + colour_sum
    elif phase in ("colour", "either"):  # undecided: counted as if a colour were on
        points = VALUE["black"] + RED_THEN_BLACK * reds + colour_sum
    else:
        points = colour_sum
    if free_ball:
        points += RED_THEN_BLACK if phase == "red" else (VALUE[colours[0]] if colours else 0)
    return points


# ---------------------------------------------------------------------------------------------
# The checks


def _check(line: dict[str, Any], ruling: dict[str, Any], expect: Expect, m: Model, log: list[Any]) -> None:
    where = f"after {line} ({expect.clause}); log so far: {log}"
    if expect.error:
        assert ruling.get("error"), f"an illegal line must be refused with a reason: {where}"
        return
    assert "error" not in ruling, f"a legal line was refused: {ruling.get('error')}: {where}"
    # 3.12: the penalty, and never below four nor above seven
    assert ruling["foul"] == expect.foul, f"3.12 foul: {ruling['foul']} != {expect.foul}: {where}"
    if expect.foul:
        assert MIN_PENALTY <= ruling["penalty"] <= MAX_PENALTY, f"3.12 range: {ruling['penalty']}: {where}"
        assert ruling["penalty"] == expect.penalty, (
            f"3.12 penalty {ruling['penalty']} != {expect.penalty}: {where}"
        )
        assert ruling["offender"] == expect.offender, f"3.12 offender {ruling['offender']}: {where}"
    assert ruling["points"] == expect.points, f"3.3 points {ruling['points']} != {expect.points}: {where}"
    if expect.miss is not None:
        assert ruling["miss"] == expect.miss, f"3.14 miss {ruling['miss']} != {expect.miss}: {where}"
    # 3.1/3.4/3.12: the score is pots plus penalties, side by side
    assert ruling["score"] == m.scores, f"3.1/3.12 score {ruling['score']} != {m.scores}: {where}"
    # 3.4: the frame's end and the match's
    assert ruling["frame_over"] == m.over, f"3.4 frame over {ruling['frame_over']} != {m.over}: {where}"
    if m.over:
        assert ruling["winner"] == m.winner, f"3.4 winner {ruling['winner']} != {m.winner}: {where}"
    assert ruling["frames"] == m.frames, f"3.4 frames {ruling['frames']} != {m.frames}: {where}"
    assert ruling["match_over"] == m.match_over, f"3.1 match over: {where}"
    assert ruling["match_winner"] == m.match_winner, f"3.1 match winner: {where}"
    assert ruling["frame"] == m.frame, f"frame number: {where}"
    if m.over:
        return
    assert ruling["respotted_black"] == m.respotted_black, f"3.4(b) re-spotted black: {where}"
    assert ruling["break"] == m.break_points, f"3.3 break {ruling['break']} != {m.break_points}: {where}"
    # the table and what is on (3.3, 3.7, 3.10)
    assert ruling["reds"] == m.reds, f"3.3 reds {ruling['reds']} != {m.reds}: {where}"
    assert ruling["colours"] == list(m.colours), f"3.7 colours {ruling['colours']} != {m.colours}: {where}"
    assert ruling["ball_on"] == m.ball_on(), f"3.3/3.10 ball on {ruling['ball_on']} != {m.ball_on()}: {where}"
    assert ruling["free_ball"] == m.free_ball, (
        f"3.10 free ball {ruling['free_ball']} != {m.free_ball}: {where}"
    )
    assert ruling["in_hand"] == m.in_hand, f"3.3/3.5 in hand {ruling['in_hand']} != {m.in_hand}: {where}"
    if not m.awaiting_lot:
        assert ruling["striker"] == m.striker, f"3.3 striker {ruling['striker']} != {m.striker}: {where}"
    options = list(m.pending[1]) if m.pending else []
    assert ruling["options"] == options, f"3.11(h)/3.14 options {ruling['options']} != {options}: {where}"
    due = m.chain is not None and m.chain[1] and m.chain[0] >= 2
    warning = due and m.warned
    assert ruling["warning"] == warning, f"3.14(c) warning {ruling['warning']} != {warning}: {where}"
    # Section 2: points remaining and snookers required, from the ruling's own fields
    phase = m.phase
    expected_remaining = points_remaining_of(ruling["reds"], ruling["colours"], phase, ruling["free_ball"])
    assert ruling["points_remaining"] == expected_remaining, (
        f"Section 2 points remaining {ruling['points_remaining']} != {expected_remaining}: {where}"
    )
    lowest_penalty = (
        max(MIN_PENALTY, VALUE[ruling["colours"][0]])
        if phase == "ascending" and ruling["colours"]
        else MIN_PENALTY
    )
    score = ruling["score"]
    for side in (0, 1):
        need = snookers_required(score[1 - side] - score[side] - expected_remaining, lowest_penalty)
        assert ruling["snookers_required"][side] == need, (
            f"Section 2 snookers required {ruling['snookers_required']}, side {side} needs {need}: {where}"
        )


def match_line(players: int, best_of: int, rack: int, aggregate: bool) -> dict[str, Any]:
    """The match line a generated match opens with: ``players`` named players, player 0 breaking."""
    line: dict[str, Any] = {
        "type": "match",
        "players": ["Ann", "Ben", "Cat", "Dan"][:players],
        "best_of": best_of,
        "breaker": 0,
        "reds": rack,
    }
    if aggregate:
        line["aggregate"] = True
    return line


def _play(data: Any, players: int, best_of: int, rack: int, steps: int, aggregate: bool = False) -> None:
    model = Model(best_of=best_of, rack=rack, players=players, aggregate=aggregate)
    driver = Driver(data, model)
    referee = Referee()
    log: list[Any] = [match_line(players, best_of, rack, aggregate)]
    first = referee.apply(log[0])
    assert "error" not in first
    for _ in range(steps):
        if model.match_over:
            break
        before_state = referee.state
        was_over = model.over
        line, expect = driver.next_line()
        log.append(line)
        ruling = referee.apply(line)
        _check(line, ruling, expect, model, log)
        if expect.error:
            assert referee.state is before_state, f"a refused line changed the state: {line}; log: {log}"
        assert was_over or not model.over or line["type"] in ("stroke", "foul", "concede"), log
    if model.match_over:
        for after in ({"type": "new_frame"}, _stroke(["red"], ["red"]), {"type": "concede"}):
            state = referee.state
            ruling = referee.apply(after)
            assert "error" in ruling and referee.state is state, f"3.1 the match is over: {after}; log: {log}"


@SETTINGS
@given(st.data(), st.sampled_from([2, 2, 4]), st.sampled_from([1, 3]), st.sampled_from([6, 10, 15]))
def test_random_legal_matches_keep_the_invariants_of_section_3(data, players, best_of, rack):
    _play(data, players, best_of, rack, steps=data.draw(st.integers(20, 160)))


@SETTINGS
@given(st.data(), st.sampled_from([2, 4]), st.sampled_from([1, 2, 3]), st.sampled_from([6, 10]))
def test_random_aggregate_matches_keep_the_invariants_of_section_3(data, players, best_of, rack):
    """3.4(c): a match on aggregate points: frames may be drawn; a level aggregate after the last
    frame (however it ended) brings the re-spotted black, which decides the match."""
    _play(data, players, best_of, rack, steps=data.draw(st.integers(20, 160)), aggregate=True)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(camera_logs())
def test_a_miss_judged_from_positions_only_where_3_14_allows_it(log):
    """3.14 over camera logs (positions, no decisions): the referee judges the miss itself. Never
    with only the black left or on the re-spotted black; under 3.14(b) never when either player
    needed snookers before the stroke or as its result ("chyba że któryś z zawodników potrzebuje
    snookera przed wykonaniem lub w wyniku wykonania tego zagrania") — but for a failure from a
    position replaced after a miss with a full ball open (3.14(c): "whatever the score")."""
    lines, _ = log
    previous: dict[str, Any] | None = None
    for line, ruling in zip(lines, replay(lines), strict=True):
        if "error" in ruling:
            continue
        if previous is not None and previous["frame"] == ruling["frame"] and ruling["miss"]:
            where = f"{line}; log: {lines}"
            assert ruling["foul"], where
            assert not (previous["reds"] == 0 and previous["colours"] == ["black"]), (
                f"3.14 only the black: {where}"
            )
            assert not previous["respotted_black"], f"3.14 re-spotted black: {where}"
            replaced = "BALLS REPLACED" in ruling["announcements"] or previous["warning"]
            if "miss" not in line and not replaced and not previous.get("_replaced"):
                assert not any(previous["snookers_required"]), f"3.14(b) needed snookers before: {where}"
                assert not any(ruling["snookers_required"]), f"3.14(b) needs snookers after: {where}"
        previous = ruling


# ---------------------------------------------------------------------------------------------
# Faults the invariants found, minimised (scores [Ann, Ben]; Ann breaks; six reds), with guards.

M6 = match(reds=6)
# Ann pots a red, then plays the yellow safe; the cue ball comes to rest against the blue. Ben is on
# a red, 1-0.
BLUE_TOUCHING = [M6, pot("red"), stroke(["yellow"], touching=["blue"])]
# Ann clears the reds with blacks, then pots the yellow and plays the green safe, the cue ball at
# rest against the pink. Ben is on the green, 50-0 (Ann 48 + 2).
PINK_TOUCHING = [
    M6,
    *[line for _ in range(6) for line in (pot("red"), pot("black"))],
    pot("yellow"),
    stroke(["green"], touching=["pink"]),
]
# Ann, on a red, hits the blue first and leaves the cue ball against it: a foul (5) and a free ball.
FREE_BLUE_TOUCHING = [M6, stroke(["blue"], touching=["blue"], free_ball=True)]

CHECKLIST: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    # 3.8(b) "rozgrywający musi odegrać od niej bilę białą bez wprawienia w ruch bili dotykanej,
    # inaczej jest to pchnięcie": a push stroke from a touching ball moves that ball, the ball
    # concerned; 3.12(b) "spowodowanie pchnięcia" costs the value of the ball on or of the ball
    # concerned, whichever is higher. A push stroke called by a foul line without its ball concerned
    # the touching ball, as it does in a stroke (rules.py: _pushed_touching_ball) — FAILED before:
    # the foul line took the value of the ball on only (4).
    (
        "3.8(b)/3.12(b)",
        "push stroke foul line from the touching blue, red on: five",
        [*BLUE_TOUCHING, foul("push_stroke")],
        {"foul": True, "penalty": 5, "fouls": ["push_stroke"], "offender": 1, "score": [6, 0]},
    ),
    (
        "3.8(b)/3.12(b)",
        "push stroke foul line from the touching pink, green on: six",
        [*PINK_TOUCHING, foul("push_stroke")],
        {"foul": True, "penalty": 6, "fouls": ["push_stroke"], "offender": 1, "score": [56, 0]},
    ),
    # guards: the same push stroke in a stroke line (five before and after); with the ball named;
    # the touching ball the nominated free ball (it takes the value of the ball on, 3.10(a)); a
    # foul line of another kind, which concerns no touching ball (the value of the ball on).
    (
        "3.8(b)/3.12(b)",
        "push stroke in a stroke from the touching blue: five",
        [*BLUE_TOUCHING, stroke(["red"], fouls=["push_stroke"])],
        {"foul": True, "penalty": 5, "score": [6, 0]},
    ),
    (
        "3.8(b)/3.12(b)",
        "push stroke foul line naming the blue: five",
        [*BLUE_TOUCHING, foul("push_stroke", "blue")],
        {"foul": True, "penalty": 5, "score": [6, 0]},
    ),
    (
        "3.10(a)/3.12(b)",
        "push stroke foul line from the touching free ball blue: four",
        [*FREE_BLUE_TOUCHING, nominate("blue"), foul("push_stroke")],
        {"foul": True, "penalty": 4, "score": [4, 5]},
    ),
    (
        "3.12(a)",
        "double hit foul line beside the touching blue: four",
        [*BLUE_TOUCHING, foul("double_hit")],
        {"foul": True, "penalty": 4, "score": [5, 0]},
    ),
]


@over_checklist(CHECKLIST)
def test_fourteenth_audit(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)
