"""A second, independent scorer of Section 3, written from the rules' text alone (the Polish source,
../shared/rules/section3-rules-pl.txt), for differential tests against ``snooker.referee``.

It shares no code with the referee: it reads the same frame-log lines (CONTRACTS.md §1,
docs/FRAME_LOG.md) and says, after each, the score, the player to play, the ball on, the balls left,
the points remaining and snookers required, the points and penalty of the line and the foul counted,
the break and the highest breaks, the colours re-spotted (and where, when the stroke gives the
balls' places: 3.7(d)-(h)), the free ball, the miss, its warning and award, the options, and the
frame's and the match's end.

Covered: a two-player match on frames (``best_of``, ``reds``); ``stroke`` lines described by
``first_contact``, ``potted``, ``off_table``, ``cue_ball``, ``nominated`` and ``fouls`` (codes, or
``{"reason", "ball"}``), with ``free_ball``, ``miss`` and ``full_ball`` / ``clear_path`` as the log
states them; ``foul`` lines (a foul outside a stroke by the player to play); ``nominate``,
``decision`` (``play``, ``play_again``, ``replace``), ``respotted_black``, ``new_frame``; and
``table`` lines stating ``reds``, ``colours``, ``score`` and ``striker`` (``ball_on`` stated, or
left out: ``either``, ruled under both readings as FRAME_LOG.md says); ``rerack`` (3.16),
``concede`` of a frame (1(F)), ``ball_moved`` (3.15) and matches on aggregate points (1(G), 4(A)/(C):
a level frame drawn, a re-spotted black only when the totals are level after the last frame; one
conceded or awarded so is not modelled), from the Polish text (the thirty-second audit).

Left out (``apply`` answers ``None``, "not covered", for a line type it does not model): what needs
geometry the log does not state — a miss, a snooker (free ball) or a full ball judged from
positions, touching balls (3.8), placement in the D (3.5), balls moved or replaced by their places —
and conceding the match, four-handed play, spotting errors, edge falls, condoned fouls, 3.14(d)
fouls while a replaced stroke is prepared, and ``table`` lines without ``score``. The generator
(differential_logs.py) therefore states ``miss``, ``full_ball``, ``free_ball`` and ``touching``
wherever it gives positions.

Where the texts leave a question open the scorer follows the reading documented in
``snooker.referee.rules`` or FRAME_LOG.md, each marked where it is used.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any

# 1(A): red 1, yellow 2, green 3, brown 4, blue 5, pink 6, black 7.
VALUES = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")

# 2(A) and the standard 12 ft table (mm, origin baulk-left cushion nose, y up the table).
LENGTH = 3569.0
WIDTH = 1778.0
DIAMETER = 52.5
RADIUS = DIAMETER / 2.0
BAULK_Y = 737.0
D_RADIUS = 292.0
SPOTS = {
    "yellow": (WIDTH / 2 + D_RADIUS, BAULK_Y),
    "green": (WIDTH / 2 - D_RADIUS, BAULK_Y),
    "brown": (WIDTH / 2, BAULK_Y),
    "blue": (WIDTH / 2, LENGTH / 2),
    "pink": (WIDTH / 2, (LENGTH / 2 + LENGTH) / 2),
    "black": (WIDTH / 2, LENGTH - 324.0),
}
TOUCH_MM = 1.0
"""Two balls within a diameter plus this touch (the positions' noise); a spot is occupied so."""
PLACEMENT_GAP_MM = 0.1
"""A colour spotted next to a ball keeps this much beyond the touching distance."""

# 3.12: the fouls by the value they are penalised with.
BY_BALL_ON = {
    "double_hit",
    "no_foot_on_floor",
    "out_of_turn",
    "improper_in_hand",
    "missed_all_balls",
    "cue_ball_potted",
    "free_ball_snooker",
    "jump_shot",
    "illegal_cue",
    "conferring",
}
BY_BALL_CONCERNED = {
    "balls_moving",
    "before_spotting",
    "potted_ball_not_on",
    "wrong_ball_first",
    "push_stroke",
    "touched_ball",
    "ball_off_table",
    "cue_ball_off_table",
}
SEVEN = {
    "used_ball_off_table",
    "measured_gap",
    "reds_in_successive_strokes",
    "wrong_cue_ball",
    "failed_to_declare",
    "foul_before_nomination",
}


def _name(entry: Any) -> str:
    name = entry["ball"] if isinstance(entry, dict) else entry
    return "red" if name.startswith("red") else name


def _value(ball: str | None) -> int:
    return VALUES.get(ball, 0) if ball else 0


def _penalty(code: str, on_value: int, concerned: int) -> int:
    """3.12(a)-(d) before the minimum of four: the ball on's value, the higher of it and the ball
    concerned's, or seven."""
    if code in SEVEN:
        return 7
    if code in BY_BALL_CONCERNED:
        return max(on_value, concerned)
    if code in BY_BALL_ON:
        return on_value
    raise ValueError(f"a foul this scorer does not know: {code!r}")


@dataclass
class Frame:
    """One frame's state as the scorer keeps it."""

    reds: int
    colours: list[str] = field(default_factory=lambda: list(COLOURS))
    score: list[int] = field(default_factory=lambda: [0, 0])
    striker: int = 0
    ball_on: str = "red"
    brk: int = 0
    in_hand: bool = True
    free_ball: bool = False
    decision: bool = False
    offender: int | None = None
    over: bool = False
    winner: int | None = None
    lot: bool = False
    respotted_black: bool = False
    nominated: str | None = None
    highest: list[int] = field(default_factory=lambda: [0, 0])
    misses: int = 0
    """Misses in a row from one position (3.14(c)), by the same offender, replaced each time."""
    chain_full: bool = False
    """A full ball was open at the first of them."""
    chain_offender: int | None = None
    warning: bool = False
    replaced: bool = False
    before_miss: Frame | None = None
    miss: bool = False


@dataclass
class Result:
    """What the scorer says after one line (the fields compared with the referee's ruling)."""

    score: list[int]
    striker: int
    ball_on: str
    reds: int
    colours: list[str]
    points_remaining: int | None
    brk: int
    points: int
    foul: bool
    penalty: int
    fouls: list[str]
    free_ball: bool
    options: list[str]
    respotted: list[Any]
    in_hand: bool
    frame_over: bool
    winner: int | None
    frames: list[int]
    match_over: bool
    match_winner: int | None
    status: str
    snookers_required: list[int] | None
    highest_break: list[int]
    match_highest_break: list[int]
    miss: bool
    warning: bool


class ReferenceScorer:
    """Folds frame-log lines one at a time (``apply``) into a ``Result``, or ``None`` when the line
    is outside what this scorer models."""

    def __init__(self) -> None:
        self.best_of = 1
        self.breaker = 0
        self.frames = [0, 0]
        self.frame_no = 1
        self.match_over = False
        self.match_highest = [0, 0]
        self.match_highest_before = [0, 0]
        """Each player's highest break before the frame in play (a re-rack cancels the rack's)."""
        self.aggregate = False
        self.totals = [0, 0]
        """The scores of the frames over (a match on aggregate points, 1(G))."""
        self.match_winner: int | None = None
        self.unmodelled = False
        """Set once the log reaches what this scorer leaves out: every answer is then ``None``."""
        self.f = Frame(reds=15)
        self.last_points = 0
        self.last_penalty = 0
        self.last_fouls: list[str] = []
        self.last_respotted: list[Any] = []
        self.last_miss = False
        self.last_on: set[str] = set()
        self._before_stroke: Frame | None = None

    # ---- lines -------------------------------------------------------------------------------

    def apply(self, line: dict[str, Any]) -> Result | None:
        self.last_points = 0
        self.last_penalty = 0
        self.last_fouls = []
        self.last_respotted = []
        self.last_miss = False
        kind = line["type"]
        if self.f.lot and kind in ("respotted_black", "stroke", "foul"):
            self.f.brk = 0  # 3.4(b): the re-spotted black's play is a new visit.
        if kind in ("stroke", "foul", "nominate") and self.f.ball_on == "either" and not self.f.over:
            self._either(line)
        elif kind == "match":
            self.aggregate = bool(line.get("aggregate", False))
            self.best_of = line.get("best_of", 1)
            self.breaker = line.get("breaker", 0)
            self.reds_total = line.get("reds", 15)
            self._new_frame()
        elif kind == "new_frame":
            self.frame_no += 1
            self._new_frame()
        elif kind == "decision":
            self._decision(line["choice"])
        elif kind == "respotted_black":
            self._lot(line["first"])
        elif kind == "table":
            self._join(line)
        elif kind == "foul":
            self._foul_line(line)
        elif kind == "nominate":
            if self.f.decision:  # a nomination by the player to play: he plays on.
                self._decision("play")
            self.f.nominated = line["ball"]  # 3.3(f), 3.10(a): declared before the stroke.
        elif kind == "stroke":
            self._stroke(line)
        elif kind == "rerack":
            self._rerack()
        elif kind == "concede" and not line.get("match", False):
            # 1(F): the frame goes to the side it was conceded to; with it over, no choice after a
            # foul, free ball or miss stands.
            self.f.decision = self.f.free_ball = self.f.miss = False
            self.f.nominated = None
            self._award(1 - line.get("player", self.f.striker))
        elif kind == "ball_moved":
            # 3.15: a ball moved by someone other than the striker is replaced, without penalty:
            # nothing in the score, the turn or the break changes.
            pass
        else:
            return None
        if self.unmodelled:
            return None
        return self.result()

    def _new_frame(self) -> None:
        # 3.3(b): the players break frames in turn.
        self.f = Frame(reds=self.reds_total, striker=(self.breaker + self.frame_no - 1) % 2)
        self.match_highest_before = list(self.match_highest)

    def _rerack(self) -> None:
        """3.16: "sędzia anuluje wszystkie zdobyte punkty, ustawia bile jak przed rozpoczęciem
        frejmu oraz (A) ten sam zawodnik wykonuje zagranie otwierające": the frame starts again,
        its points (and so the breaks that made them, FRAME_LOG.md's scoreboard) cancelled."""
        self.match_highest = list(self.match_highest_before)
        self.f = Frame(reds=self.reds_total, striker=(self.breaker + self.frame_no - 1) % 2)

    def _either(self, line: dict[str, Any]) -> None:
        """The ball on not known after a ``table`` line (FRAME_LOG.md, joining a frame): the line is
        ruled under each reading — a red or a colour after a red; with no red left, the lowest
        colour or any colour after the last red — keeping the one most favourable to the striker:
        fair over foul, then the smaller penalty, then the likelier reading."""
        f = self.f
        likely = "red" if f.reds else f.colours[0]
        readings = [likely, "colour"]
        if line["type"] == "nominate" and line["ball"] != likely:
            readings = ["colour"]  # else only a colour after a red is nominated (no free ball now)
        best = None
        for reading in readings:
            trial = copy.deepcopy(self)
            trial.f.ball_on = reading
            result = trial.apply(line)
            key = (result.foul, result.penalty, reading != likely)
            if best is None or key < best[0]:
                best = (key, trial)
        self.__dict__.update(best[1].__dict__)

    def _join(self, line: dict[str, Any]) -> None:
        """A frame joined in play: the balls, the ball on, the score and the striker as stated."""
        f = self.f
        f.reds = line["reds"]
        f.colours = [c for c in COLOURS if c in line["colours"]]
        f.ball_on = line.get("ball_on", "either")
        f.score = list(line["score"])
        f.striker = line["striker"]
        f.in_hand = bool(line.get("cue_in_hand", False))
        f.brk = 0
        f.nominated = None
        f.free_ball = False

    def _decision(self, choice: str) -> None:
        f = self.f
        f.decision = False
        if choice == "replace":
            # 3.14(a): the offender plays again from the position before the miss, the same ball on.
            before = f.before_miss
            f.reds, f.colours, f.ball_on, f.in_hand = (
                before.reds,
                list(before.colours),
                before.ball_on,
                before.in_hand,
            )
            f.striker = f.offender
            f.free_ball = before.free_ball  # the position as it was, a free ball awarded included
            f.warning = f.chain_full and f.misses >= 2  # 3.14(c): warned as the balls are replaced
            f.replaced = True
            f.offender = None
            f.before_miss = None
            f.miss = False
            return
        f.misses = 0
        f.warning = False
        f.before_miss = None
        f.miss = False
        if choice == "play_again":
            # 3.11(h), 3.10(f): the offender plays; the free ball lapses.
            f.striker = f.offender
            f.free_ball = False
        f.offender = None

    def _lot(self, first: int) -> None:
        # 3.4(b): black on its spot, the lot decides who plays, from in hand.
        f = self.f
        f.lot = False
        f.over = False
        f.winner = None
        f.respotted_black = True
        f.colours = ["black"]
        f.ball_on = "black"
        f.striker = first
        f.in_hand = True
        f.brk = 0

    # ---- the stroke --------------------------------------------------------------------------

    def _stroke(self, line: dict[str, Any]) -> None:
        f = self.f
        if f.decision:
            # 3.11(h): a stroke by the next player: he plays on; by the offender (FRAME_LOG.md,
            # ``player``): he was asked to play again.
            self._decision("play_again" if line.get("player", f.striker) == f.offender else "play")
        from_replaced = f.replaced
        f.replaced = False
        self._before_stroke = copy.deepcopy(f)
        before = self._before_stroke if line.get("miss") else None
        out_of_turn = line.get("player", f.striker) != f.striker
        if out_of_turn:
            # 3.12(a): playing out of turn — his foul, as if he were the striker (two players: the
            # other is to play next either way).
            f.striker = line["player"]
        first = [_name(b) for b in line.get("first_contact", [])]
        potted = [_name(b) for b in line.get("potted", [])]
        off = [_name(b) for b in line.get("off_table", [])]
        cue = line.get("cue_ball", "on_table")
        nominated = line.get("nominated", f.nominated)
        declared = nominated
        f.nominated = None
        free = f.free_ball
        f.free_ball = False
        # The log's convention (FRAME_LOG.md, ``unwatched_s``): no contact logged, yet a ball went
        # down or off — only a contact does that, so it was unseen: no foul for missing every ball,
        # and the one colour (or free ball) sent away is taken as the striker's choice.
        unseen = not first and bool(potted or off)
        sent = sorted(set(potted + off))

        # The ball(s) on and the value of the ball on (3.3(e)/(f), 3.10(a)).
        if f.ball_on == "red":
            on = {"red"}
            on_value = 1
        elif f.ball_on == "colour":
            # After a red the striker's chosen colour: nominated, or the single colour hit first.
            nom = nominated if nominated in COLOURS else None
            if nom is None and len(first) == 1 and first[0] in COLOURS:
                nom = first[0]
            sent_colours = [b for b in sent if b in COLOURS]
            if nom is None and unseen and len(sent_colours) == 1:
                nom = sent_colours[0]
            on = {nom} if nom else set()
            on_value = _value(nom)
        else:
            on = {f.ball_on}
            on_value = _value(f.ball_on)
        not_on_first = [b for b in (first or (sent if unseen else [])) if b not in on]
        if (
            free
            and nominated is None
            and len(not_on_first) == 1
            and len(first) <= 2
            and f.ball_on != "colour"
        ):
            # The log's convention (FRAME_LOG.md, ``nominated``): the first ball hit names the free
            # ball when no nomination is stated — alone, or hit with the ball on at once (3.10(b)).
            nominated = not_on_first[0]
        free_ball = (
            nominated if free and nominated and nominated not in on and f.ball_on != "colour" else None
        )
        legal_on = on | ({free_ball} if free_ball else set())

        def worth(ball: str | None) -> int:
            # 3.10(a): the declared free ball takes the ball on's value — for penalties too, the
            # reading rules.py documents.
            return on_value if ball is not None and ball == free_ball else _value(ball)

        fouls: list[tuple[str, int]] = []
        # First contact (3.10(b), 3.6, 3.12(a)-(c)).
        if unseen:
            pass
        elif not first:
            fouls.append(("missed_all_balls", on_value))
        elif free_ball:
            ok = first == [free_ball] or (
                len(first) == 2 and free_ball in first and (set(first) - {free_ball}) <= on
            )
            if not ok:
                if len(first) == 2 and len(set(first)) == 2:
                    fouls.append(("two_balls_at_once", max(on_value, *(worth(b) for b in first))))
                else:
                    fouls.append(("wrong_ball_first", max(on_value, worth(first[0]))))
        else:
            ok = all(b in on for b in first) and (len(first) == 1 or all(b == "red" for b in first))
            if not ok:
                if len(first) == 2 and not all(b == "red" for b in first):
                    fouls.append(("two_balls_at_once", max(on_value, *(worth(b) for b in first))))
                else:
                    wrong = next((b for b in first if b not in on), first[0])
                    fouls.append(("wrong_ball_first", max(on_value, worth(wrong))))
        # Pots (3.12(b)); a red after a red, a second colour after a red: not on.
        seen_colour = 0
        for b in potted:
            fine = b in legal_on
            if f.ball_on == "colour" and b in COLOURS:
                seen_colour += 1
                fine = fine and seen_colour == 1
            if not fine:
                fouls.append(("potted_ball_not_on", max(on_value, worth(b))))
        for b in off:
            fouls.append(("ball_off_table", max(on_value, worth(b))))
        if cue == "potted":
            fouls.append(("cue_ball_potted", on_value))
        elif cue == "off_table":
            fouls.append(("cue_ball_off_table", on_value))
        # The two sevens after a red are the fouls of the striker who potted it, never of a player
        # out of turn (FRAME_LOG.md, ``fouls``): 3.12(d) speaks of the striker's successive strokes.
        after_red = f.ball_on == "colour" and not out_of_turn
        if after_red and "red" in first and declared is None:
            # 3.12(d): playing at reds in successive strokes (a red after a red). With a colour
            # declared the striker played at it: a red hit first is a ball not on (3.12(b)), the
            # reading rules.py documents.
            fouls.append(("reds_in_successive_strokes", 7))
        if out_of_turn:
            fouls.append(("out_of_turn", on_value))
        for entry in line.get("fouls", []):
            code = entry["reason"] if isinstance(entry, dict) else entry
            concerned = _name(entry["ball"]) if isinstance(entry, dict) and entry.get("ball") else None
            if concerned == "white":
                concerned = None
            fouls.append((code, _penalty(code, on_value, worth(concerned))))

        if fouls and after_red and not on and not unseen:
            # 3.12(d): a foul after a red before a colour was nominated (none stated, none hit alone).
            fouls.append(("foul_before_nomination", 7))
        reds_gone = potted.count("red") + off.count("red")
        f.reds -= reds_gone
        cue_off = cue != "on_table"
        f.in_hand = cue_off

        self.last_on = legal_on
        if (
            fouls
            and "miss" not in line
            and from_replaced
            and f.misses
            and f.chain_full
            and not unseen
            and not any(b in legal_on for b in first)
        ):
            # 3.14(c): after a miss with a full ball open, the next failure to hit a ball on first
            # from the same position is a foul and a miss whatever the scores — whoever makes it
            # ("następna nieudana próba ... z tej samej pozycji"), as rules.py documents.
            before = copy.deepcopy(self._before_stroke)
            line = {**line, "full_ball": True}
        if fouls:
            self._foul(line, fouls, potted, off, before, from_replaced)
            return
        f.misses = 0
        f.warning = False

        # A fair stroke (3.3(e)/(f), 3.10(c)-(e)).
        points = 0
        gone_for_good: str | None = None
        to_spot = [b for b in potted if b in COLOURS]
        if f.respotted_black:
            if "black" in potted:
                points = 7
                gone_for_good = "black"
        elif f.ball_on == "red":
            points = potted.count("red") + (1 if free_ball and free_ball in potted else 0)
        elif f.ball_on == "colour":
            nom = next(iter(on), None)
            if nom and nom in potted:
                points = _value(nom)
        else:
            if f.ball_on in potted:
                points = _value(f.ball_on)
                gone_for_good = f.ball_on
            elif free_ball and free_ball in potted:
                points = on_value
        if gone_for_good:
            to_spot = [b for b in to_spot if b != gone_for_good]
            f.colours.remove(gone_for_good)
        self.last_points = points
        self._respot(to_spot, line)
        if points:
            f.score[f.striker] += points
            f.brk += points
            f.highest[f.striker] = max(f.highest[f.striker], f.brk)
            self.match_highest[f.striker] = max(self.match_highest[f.striker], f.brk)
            if f.respotted_black:
                self._end_frame()
                return
            if f.ball_on == "red":
                f.ball_on = "colour"  # 3.3(f): a colour after a red, the last red too.
            elif f.ball_on == "colour":
                f.ball_on = "red" if f.reds else f.colours[0]
            elif gone_for_good:
                if not f.colours:
                    self._end_frame()
                    return
                f.ball_on = f.colours[0]
        else:
            self._turn_passes()

    def _foul_line(self, line: dict[str, Any]) -> None:
        """A foul outside a stroke by the player to play (3.11(a): his visit ends at once)."""
        f = self.f
        if f.decision:
            self._decision("play")
        f.replaced = False
        declared = f.nominated
        f.nominated = None
        if f.ball_on == "red":
            on_value = 1
        elif f.ball_on == "colour":
            on_value = _value(declared) if declared in COLOURS else 0
        else:
            on_value = _value(f.ball_on)
        free_ball = (
            declared if f.free_ball and declared and f.ball_on != "colour" and declared != f.ball_on else None
        )
        f.free_ball = False
        code = line["reason"]
        ball = line.get("ball")
        concerned = None if ball in (None, "white") else _name({"ball": ball})
        worth = on_value if concerned is not None and concerned == free_ball else _value(concerned)
        fouls = [(code, _penalty(code, on_value, worth))]
        if f.ball_on == "colour" and declared is None:
            fouls.append(("foul_before_nomination", 7))  # 3.12(d): after a red, nothing declared
        self._foul(line, fouls, [], [], None, False)

    def _turn_passes(self) -> None:
        f = self.f
        f.striker = 1 - f.striker
        f.brk = 0
        if f.ball_on == "colour" or (f.ball_on == "red" and not f.reds):
            f.ball_on = "red" if f.reds else f.colours[0]

    def _foul(
        self,
        line: dict[str, Any],
        fouls: list[tuple[str, int]],
        potted: list[str],
        off: list[str],
        before: Frame | None,
        from_replaced: bool,
    ) -> None:
        f = self.f
        top = max(value for _, value in fouls)
        penalty = max(4, top)  # 3.12: four at least; 3.11(g): the highest foul counts.
        self.last_penalty = penalty
        ordered = sorted(fouls, key=lambda item: -item[1])
        self.last_fouls = [code for code, _ in ordered]
        last_black = f.respotted_black or (f.reds == 0 and f.colours == ["black"] and f.ball_on == "black")
        # Colours potted or forced off in a foul are re-spotted (3.7) before the next stroke: none
        # follows the frame's end. Reds stay off (3.3(g)).
        if not last_black:
            self._respot([b for b in potted + off if b in COLOURS], line)
        offender = f.striker
        f.score[1 - offender] += penalty  # 1(D)
        f.striker = 1 - offender
        f.brk = 0
        f.ball_on = "red" if f.reds else f.colours[0]
        if last_black:  # 3.4(a)/(b): a foul on the last black ends the frame.
            self._end_frame()
            return
        f.decision = True
        f.offender = offender
        f.free_ball = bool(line.get("free_ball", line.get("snookered", False)))
        f.miss = before is not None
        self.last_miss = f.miss
        f.before_miss = before
        if before is None:
            f.misses = 0
            f.warning = False
            return
        # 3.14(c): a full ball open (the log's ``full_ball``; open unless stated or no clear path).
        full = line.get("full_ball", line.get("clear_path", True) is not False)
        if from_replaced and f.misses and f.chain_offender == offender:
            f.misses += 1  # his again, from the same position: its full ball as at the first miss
        else:
            f.misses = 1
            f.chain_full = bool(full)
            f.chain_offender = offender
        if (
            f.chain_full and f.misses >= 3
        ):  # the third such miss from one position: the frame to the opponent.
            f.decision = False
            f.free_ball = False
            f.miss = False
            self.last_respotted = []  # nothing is spotted for a frame that has ended
            self._award(1 - offender)
            return
        # 3.14(c): the warning is given when the balls are replaced after the second miss.
        f.warning = False

    def _award(self, winner: int) -> None:
        f = self.f
        if self.aggregate and self._last_frame() and self._totals_level():
            # 4(C) after a frame conceded or awarded: not modelled (who wins the frame the black
            # then decides is not in the texts).
            self.unmodelled = True
        f.over = True
        f.winner = winner
        f.warning = False
        self.frames[winner] += 1
        self._frame_done()

    def _last_frame(self) -> bool:
        return self.frame_no >= self.best_of

    def _totals_level(self) -> bool:
        return self.totals[0] + self.f.score[0] == self.totals[1] + self.f.score[1]

    def _frame_done(self) -> None:
        """The frame over: on aggregate points (1(G): "uzyskujący największą ogólną liczbę punktów,
        jeśli tak zostało ustalone") its scores join the totals and the match ends once every frame
        is played; on frames, once a player has more than half or all are played."""
        f = self.f
        if self.aggregate:
            self.totals = [t + s for t, s in zip(self.totals, f.score, strict=True)]
            self.match_over = self._last_frame()
            if self.match_over:
                self.match_winner = 0 if self.totals[0] > self.totals[1] else 1
        else:
            self.match_over = max(self.frames) > self.best_of // 2 or sum(self.frames) >= self.best_of
            if self.match_over and self.frames[0] != self.frames[1]:
                self.match_winner = 0 if self.frames[0] > self.frames[1] else 1
        if not self.match_over:  # the next frame's breaker (3.3(b)); at the match's end, as it was.
            f.striker = (self.breaker + self.frame_no) % 2

    def _end_frame(self) -> None:
        f = self.f
        f.decision = False
        f.free_ball = False
        # 4(A): the re-spotted black when the scores are level "oraz sumaryczne punkty nie mają
        # znaczenia"; 4(C): on aggregate points, when the totals are level after the last frame.
        if self.aggregate:
            tie = self._last_frame() and self._totals_level() and not f.respotted_black
        else:
            tie = f.score[0] == f.score[1]
        if tie:
            f.lot = True  # 3.4(a)/(b): level, a re-spotted black by lot, played from in hand.
            f.over = False
            f.in_hand = True
            # The visit ends: the lot says who plays next; its break stands until then.
            self.last_respotted = ["black"]
            f.ball_on = "black"
            f.colours = []
            return
        f.over = True
        # 1(F): the frame to the side with more points; on aggregate points a level frame is drawn.
        f.winner = None if f.score[0] == f.score[1] else (0 if f.score[0] > f.score[1] else 1)
        if f.winner is not None:
            self.frames[f.winner] += 1
        self._frame_done()

    # ---- 3.7: where a colour is spotted ------------------------------------------------------

    def _respot(self, colours: list[str], line: dict[str, Any]) -> None:
        if not colours:
            return
        after = (line.get("positions") or {}).get("after")
        if after is None:
            self.last_respotted = sorted(colours, key=COLOURS.index)
            return
        gone = {_name(b) for b in line.get("potted", []) + line.get("off_table", []) if _name(b) != "red"}
        gone_ids = {
            b["ball"] if isinstance(b, dict) else b
            for b in line.get("potted", []) + line.get("off_table", [])
        }
        obstacles = []
        for ball, place in after.items():
            if ball in colours or ball in gone or ball in gone_ids:
                continue
            if ball == "white" and line.get("cue_ball", "on_table") != "on_table":
                continue
            if ball in COLOURS and ball not in self.f.colours:
                continue
            obstacles.append((float(place[0]), float(place[1])))
        placed: dict[str, tuple[float, float]] = {}
        waiting = []
        for c in colours:  # 3.7(d): a colour whose own spot is free goes there.
            if not _occupied(SPOTS[c], obstacles):
                placed[c] = SPOTS[c]
            else:
                waiting.append(c)
        for c in placed.values():
            obstacles.append(c)
        for c in sorted(waiting, key=lambda b: -VALUES[b]):  # 3.7(e): the higher value first.
            spot = next((SPOTS[s] for s in reversed(COLOURS) if not _occupied(SPOTS[s], obstacles)), None)
            if spot is None:
                spot = _along(c, obstacles)
            placed[c] = spot
            obstacles.append(spot)
        self.last_respotted = [
            {"ball": c, "position": list(placed[c])} for c in sorted(placed, key=COLOURS.index)
        ]

    # ---- output ------------------------------------------------------------------------------

    def result(self) -> Result:
        f = self.f
        over = f.over
        if over:
            ball_on = "none"
            remaining = 0
        elif f.lot:
            ball_on = "black"
            remaining = 7
        else:
            # After a red, a nominated colour is shown as the ball on.
            ball_on = f.nominated if f.ball_on == "colour" and f.nominated else f.ball_on
            remaining = self._points_remaining()
        status = (
            "match_over"
            if self.match_over
            else "frame_over"
            if over
            else ("respotted_black_lot" if f.lot else "decision" if f.decision else "in_play")
        )
        return Result(
            score=list(f.score),
            striker=f.striker,
            ball_on=ball_on,
            reds=f.reds,
            colours=list(f.colours) if not f.lot else ["black"],
            points_remaining=remaining,
            brk=f.brk,
            points=self.last_points,
            foul=bool(self.last_penalty),
            penalty=self.last_penalty,
            fouls=self.last_fouls,
            free_ball=f.free_ball,
            options=(["play", "play_again", "replace"] if f.miss else ["play", "play_again"])
            if f.decision
            else [],
            miss=self.last_miss,
            warning=f.warning and not over,
            respotted=self.last_respotted,
            in_hand=f.in_hand,
            frame_over=over,
            winner=f.winner,
            frames=list(self.frames),
            match_over=self.match_over,
            match_winner=self.match_winner,
            status=status,
            snookers_required=self._snookers(remaining),
            highest_break=list(f.highest),
            match_highest_break=list(self.match_highest),
        )

    def _points_remaining(self) -> int:
        f = self.f
        if f.respotted_black:
            return 7
        # A free ball pending adds what it can score: a red and a colour, or the ball on's value.
        extra = (8 if f.ball_on == "red" else _value(f.ball_on)) if f.free_ball else 0
        if f.ball_on in ("red", "colour", "either"):
            # While the ball on is not known, as if a colour were on (FRAME_LOG.md).
            after_red = 7 if f.ball_on in ("colour", "either") else 0
            return extra + f.reds * 8 + after_red + sum(VALUES[c] for c in f.colours)
        return extra + sum(VALUES[c] for c in f.colours)

    def _snookers(self, remaining: int) -> list[int]:
        f = self.f
        if f.over or f.respotted_black or f.lot:
            return [0, 0]
        lowest = max(4, _value(f.ball_on) if f.ball_on in VALUES else 0)
        out = []
        for side in (0, 1):
            behind = f.score[1 - side] - f.score[side] - remaining
            out.append(math.ceil(behind / lowest) if behind > 0 else 0)
        return out


def _occupied(spot: tuple[float, float], obstacles: list[tuple[float, float]]) -> bool:
    return any(math.dist(spot, o) <= DIAMETER + TOUCH_MM for o in obstacles)


def _along(colour: str, obstacles: list[tuple[float, float]]) -> tuple[float, float]:
    """3.7(f)/(g): as near its own spot as possible, between it and the top cushion; the pink and the
    black, failing that, on the centre line as near as possible below their spots."""
    x, y0 = SPOTS[colour]
    reach = DIAMETER + TOUCH_MM
    blocked = []
    for ox, oy in obstacles:
        dx = abs(ox - x)
        if dx < reach:
            h = math.sqrt(reach * reach - dx * dx)
            blocked.append((oy - h, oy + h))

    def free(y: float) -> bool:
        return all(not (lo <= y <= hi) for lo, hi in blocked)

    # 3.7(h): touching no ball — a touch is within the tolerance, so a place keeps a gap beyond it.
    up = sorted([y0] + [hi + PLACEMENT_GAP_MM for _, hi in blocked if hi >= y0])
    for y in up:
        if y <= LENGTH - RADIUS and free(y):
            return (x, y)
    down = sorted([lo - PLACEMENT_GAP_MM for lo, _ in blocked if lo <= y0], reverse=True)
    for y in down:
        if y >= RADIUS and free(y):
            return (x, y)
    raise ValueError(f"nowhere to spot the {colour}")
