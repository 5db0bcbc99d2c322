"""Section 3 as pure functions: (match state, frame-log event) → (new match state, outcome).

Nothing here mutates: every function returns new frozen values, so the referee's state is a fold
over the frame log (CONTRACTS.md §1). Rule numbers refer to Section 3 of the official rules (the
texts in ``../shared/rules``). Positions are mm on the cloth (see ``snooker.referee.state``).

Judgements a camera cannot make are taken from the log when a person gives them (``fouls``,
``miss``, ``free_ball`` …, see ``snooker.referee.log``); otherwise the geometry of
``snooker.referee.geometry`` decides from ``positions``; with neither, the referee calls no free
ball and no miss (it never calls what it cannot see).

Judgements documented here because the texts leave them open:

- The nominated free ball "acquires the value of the ball on" (3.10(a)(ii)) for penalties too:
  missing a free ball nominated as the pink while reds are on costs four, not six.
- After a red, a stroke whose colour is neither declared nor obvious (no colour hit first) and
  that fouls is a foul before nominating (3.12(d), seven); first hitting a red then, with no colour
  declared, is playing at reds in successive strokes (3.12(d), seven).
- When a touching ball that is on (or the nominated colour) is named, playing away from it counts
  as hitting it first (3.8(c)); the stroke is otherwise ruled as usual.
- With a free ball, playing away from a touching ball not on with nothing declared is not read as
  nominating it (after a red, one touching colour is, Section 2's obvious intention): 3.8(c)(ii)
  asks that the striker "deklaruje ją jako rozgrywaną", and a striker with a free ball may as well be
  playing a plain ball on (a red, the colour on), so no intention is obvious; with nothing hit it is
  the foul of missing every ball.
- Snookering with the free ball (3.10(b)) is judged only when the stroke scored nothing: the
  cue ball is snookered on the next player's balls on and the free ball is the effective
  snookering ball (of the obstructing balls, the one nearest the cue ball; with reds on, one that is
  so for every red: reds obstructed by different balls leave none, Section 2, 16(c), see
  ``snooker.referee.geometry``). The Polish 10(B) names
  no opponent ("znajdzie się w pozycji snooker, wymuszonej przez bilę deklarowaną jako wolna bila,
  wobec wszystkich bil Czerwonych lub bili rozgrywanej"), but "all reds" is what the next player is
  on only when the turn passes (a striker who scored is on a colour next): a free ball potted and
  re-spotted, or left on the table while the ball on was potted with it (10(C)-(E)), that hides the
  striker's own next ball on is no foul. The exception ("jedynymi bilami ... są bile Różowa i
  Czarna") is read on the table after the stroke, which is the table before it when nothing scored.
- Replacing after a miss (3.14) restores every ball to its place before the missed stroke.
- A foul while preparing a stroke replayed after a miss (3.14(d)), no stroke made: "z pozycji
  zastanej na stole" (d)(i) is where the foul left the balls. The position that 3.14(c) counts
  failures from ("z tej samej pozycji") is the cue ball's (3.14(f): the cue ball replaced, other
  moved balls may stay): a foul that touched only an object ball leaves that position, so a
  play-again from it goes on counting and the warning stays in force ((d)(iii)); a foul that touched
  the cue ball (``touched_ball`` on ``white``, taken to have moved it) left another position, so a
  play-again from it starts a new count and no warning stands; the replacement of "wszystkich
  poruszonych bil" (d)(ii) puts it back, the count and the warning going on. Where the cue ball then
  lies is not known: no free ball is judged from its old place (the foul line's ``free_ball`` says).
- Once a frame is over (the last ball gone, or conceded or awarded with balls left) nothing of its
  play stands: the ball on is ``none``, no points remain and no snookers are required, and no
  nomination, free ball, touching ball, miss count, replay or decision. The player to play next is
  the next frame's breaker by the match's default order (3.3(b), 3.17(a); a ``new_frame`` ``order``
  may choose another of the breaking side's players); once the match is over, the last striker (a
  match conceded in a frame included: no frame follows, so no breaker is named). The break stands as
  it ended the frame (the scoreboard's highest break keeps it too). So does the break that ties a
  frame into a re-spotted black (3.4(b): "zawodnicy losują kolejność gry", the tie ends the visit):
  it stands until the lot, or the line that shows it (a stroke, or a foul or concession naming its
  player), begins the re-spotted black's play as a new visit from 0.
- The highest break of the match is kept per player (``MatchState.highest_breaks``; in four-handed
  snooker a break is its striker's, though the frame's points are the side's). The texts do not
  speak of breaks beyond 3.3(F); a re-rack (3.16: "sędzia anuluje wszystkie zdobyte punkty, ustawia
  bile jak przed rozpoczęciem frejmu", all points scored cancelled) is read as cancelling the rack's
  breaks with its points, in the frame's highest break and the match's alike: the frame is played
  again from the break-off and only its last rack stands.
- The seven-point fouls of an undeclared colour after a red (3.12(d)) are the striker's who potted
  the red; a player striking out of turn then is penalised on the ball his stroke shows he played.
- A foul by someone other than the striker, penalised as if striker (3.2(b), 3.14(h)), is still a
  foul: with only the black left it ends the frame (3.4(a)).
- Conferring (3.12(a), 3.17(e): "Partnerzy mogą konsultować się podczas frejmu, ale nie - gdy jeden z
  nich jest rozgrywającym i znajduje się przy stole, oraz - od rozpoczęcia przez rozgrywającego
  pierwszego zagrania do zakończenia breaku") takes two partners, one of them the striker: a
  ``foul`` line naming the striker's partner for it is the striker's own foul (his visit ends, the
  options to the next player, who may ask the striker to play again, 3.11(h)). Whether the other
  side's partners may confer during the striker's break the Polish (and the Chinese, "當擊球手巳開始
  該輪打擊之第一次擊球直至該輪打擊完結為止") leaves open; such a line is ruled as any foul by a player
  not to play: penalised as if striker, the order of play unchanged; so is the partner of a player
  who is to decide after a foul (not yet at the table).
- A cue ball in hand is not yet in play (3.5(b): touched with the tip while it is placed, "bila biała
  nie jest jeszcze w grze"), and 3.12(b) penalises touching "bili w grze" (a ball in play): a
  ``foul`` line calling the cue ball touched while it is in hand is refused, by whoever touched it
  (a stroke the referee judged attempted from hand is a stroke line, ruled as one).
- A foul called by the log whose own conditions the texts state is refused where the frame
  contradicts them (as a ``miss`` on a stroke that broke no rule is): ``free_ball_snooker`` with no
  free ball awarded or with only the pink and the black left (3.10(b)(ii)), ``reds_in_successive_strokes``
  and ``foul_before_nomination`` with no red (nor free ball as a red) potted before, the latter also
  once a colour is nominated, and either against anyone but the striker who potted the red
  (3.12(d)); see :func:`_check_called_foul`. So is ``used_ball_off_table`` naming a ball in play on
  the cloth (3.12(d): "używa bili poza stołem", "利用巳被擊進袋中或巳離開球桌範圍而無需重置的球"): a
  red while every red is still on the table, a colour in play that the referee is not re-spotting.
  Where the texts part it stands: a colour the last stroke potted, being re-spotted (off the table
  in the Polish; to be re-spotted, so not this foul, in the Chinese), or one a spotting error left
  off or wrongly spotted; see :func:`_ball_off_the_table`.
- ``before_spotting`` (3.12(b), 3.7(c)) logged with no ball concerns a colour the referee was
  spotting: the frame keeps those the last stroke re-spotted and any missing colour spotted since
  (``FrameState.spotting``), and of several the lowest counts (which was still unspotted the log
  does not say: the striker has the benefit of the doubt); with none re-spotted, the ball on alone.
  The Polish 7(C) penalises a stroke played before the referee spotted the colour "lub mógł
  sprawdzić efekt ustawienia bil" (or could check it); the Chinese names only
  "於球證未完成重置程序前" (before the spotting was finished): the call is the referee's either way.
- The stalemate period (3.16) is "po trzech zagraniach każdej ze stron" (three strokes by each
  side) in the Polish, "每位球手的三次擊球之後" (by each player) in the Chinese, twice as long
  four-handed; the referee does not time it: the re-rack is a ``rerack`` line, ruled alike.
- A push stroke logged without its ball while the cue ball rested against exactly one ball concerns
  that ball (3.8(b): moving the touching ball is the push), so its value counts (3.12(b)).
- Positions placing a colour the log has already potted for good (a tracker's stale ball) are
  read without it: a ball off the table snookers nothing and occupies no spot.
- The places a stroke (or a ``table`` line) gives are the table as far as the geometry goes: a ball
  the table holds that they leave out stands nowhere that matters, blocking no line and opening
  none. Where a tracker lost a ball this is a guess the log cannot settle: a lost ball not on that
  stood in the way makes a line look open (a miss called that was none), a lost red that was in the
  open makes the cue ball look snookered (a free ball given that was none). Reading such places as
  unknown (no free ball and no miss judged while the places leave out a ball that could change the
  answer: a ball on for "snookered", a ball not on for an open line) would call neither, but hand
  logs name only the balls that matter (dozens of the referee's tests give such places) and with
  fifteen reds a tracker seldom places every one, so the free ball would hardly ever be judged;
  that trade is for the whole chain's measurements (``scripts/eval_synth_e2e.py``) to settle. The
  texts do not settle it: 3.14(b) and Section 2 ask what the table allows ("możliwe jest trafienie"),
  and a log that leaves a ball out says nothing of where it stands. Pinned in
  ``tests/referee/test_referee_known_limits.py``, so a change of this reading is a decision.
- A colour wrongly spotted (3.7(b)-(c)) stands on the cloth: it blocks the lines of 3.14 and
  snookers like any ball not on, as it occupies a spot (3.7(c): the strokes played with it count).
- A cue ball left at rest against a ball that is on after a foul is never snookered, so no free ball:
  playing away from it counts as hitting it (3.8(c)(i)).
- In a match decided on aggregate points, a last frame ended by a concession or an award (3.1(f),
  3.14(c)) with the aggregate then level is followed by a re-spotted black, as after any last frame
  (3.4(c)); conceding that re-spotted black (or its award) decides the match.
- Snookers required (1(E): "stratę punktową większą niż liczba punktów możliwa do uzyskania z bil
  pozostałych na stole") are counted on the frame's scores, in a match on aggregate points too
  (the texts do not say whether a deficit there is the frame's or the aggregate's): the figure and
  the 3.14(b) test ("potrzebuje snookera") read the frame. On a re-spotted black none are
  required: it is played because the sides are level (in the frame, or on aggregate points, 3.4(c),
  whatever the last frame's own scores) and the next pot or foul decides (3.4(b)), so no snooker
  can help.
- A re-spotted black whose lot is not logged: the first stroke naming its player is that player's
  by the lot (nobody is to play before it, so it is never out of turn); a concession or a foul
  line naming nobody is refused until the lot is drawn (3.4(b)).
- A ball still running from the stroke before when the cue ball was struck (``moving_at_strike``,
  3.12(b): "uderzenia, gdy któraś z bil znajduje się jeszcze w ruchu") was on the cloth at that
  strike, though the stroke before may have potted or forced it off (it went in, or off, after the
  strike; the tracker gives it to the stroke that set it off): such a ball is the foul's ball
  concerned even where the table no longer holds it (``FrameState.left_table``).
- A ball that fell from the edge of a pocket before a ball in the stroke could hit it (3.9(b)) was
  not potted by the striker, even when the log lists it among ``potted``: it is no foul. When the
  cue ball hit nothing and a ball that was on fell so, the fall kept it from its target: no foul for
  missing every ball (after a red, the one colour that fell names the colour, as the obvious
  intention); a stroke that ran on into a ball not on is still ruled on that contact.
- A miss called where no straight line to any part of a ball on was open (the referee judged the
  attempt not genuine) never had a full-ball contact open, so it cannot lead to the 3.14(c) award.
  The other way round, a full ball stated open (``full_ball``, the referee's call, 3.14(c):
  "możliwe było centralne trafienie") is a straight line open: it stands over the geometry, which
  may read the places (a tracker's noise) as leaving none. The Polish states the condition as a fact
  of the table, not as an opinion ("możliwe było", as (b)'s "możliwe jest trafienie"); who finds
  that fact is the referee, whose judgement 3.14 rests on ("Jeżeli sędzia uzna"), so a stated
  ``full_ball`` (like a stated ``clear_path``, ``miss`` or ``free_ball``) is his finding: the log
  records the calls made, and a wrong one stands as made.
- The 3.14(c) warning is given when the replay from the previous position is ordered after the
  second miss from it ("jeśli zostanie nakazana gra z pozycji poprzedniej, faulujący musi być
  ostrzeżony [...], że trzeci taki faul": two made; the Chinese (ii) "如又再次被要求", asked again):
  ``warning`` is true from that replacement while the position stands; the second miss's own ruling
  has it only due (``FrameState.warning_due``).
- After a miss with a full ball open, replaced, "następna nieudana próba trafienia ... w zagraniu
  wykonywanym z tej samej pozycji" (3.14(c)) is a foul and a miss whatever the scores: the text
  names the attempt from that position, not the player, so a player out of turn who fails from it
  is called so too (his misses start his own count; the offender's count is his alone).
- A frame whose scores are not known (a ``table`` line without them) leaves the aggregate not known:
  in a match on aggregate points no match winner is called (3.1(g): the most points overall decide)
  and no re-spotted black follows a last frame (3.4(c): whether the aggregate is level is not
  known); the match ends after its last frame with no winner, as a match on frames ends level.
- A log that joins a frame in play (a ``table`` line) may not know whether a red or a colour is
  on. Until a line settles it, a stroke, a nomination or a foul is ruled under each reading and the
  striker gets the benefit of the doubt: a fair reading over a foul, then the smaller penalty, then
  the likelier reading (a red while reds remain; with no red left, the lowest colour). A referee
  who joins a frame without being told asks; a camera cannot, so it calls no foul it cannot be sure of.
- A stroke logged with no first contact while the camera did not show the table for part of it
  (``unwatched_s``, a broadcast's cut to another camera), whose source ended before the balls
  stopped (``truncated``), or whose cue ball was first seen already running (``strike_unseen``),
  had its contact unseen: no foul for missing every ball and no miss;
  what was seen (pots, the cue ball potted) is ruled as usual. So had a stroke logged with no first
  contact that potted, forced off or moved an object ball (``RefereeConfig.moved_beyond_mm``): only
  a contact does that (a tracker that lost the cue ball at the contact logs none).
- Balls the camera saw still running when the cue ball was struck (``moving_at_strike``) are a foul
  each (3.12(b)); the places before such a stroke are no resting places: no miss is judged from
  them, and no ball's move is taken for a contact nobody logged.
- Balls the cue ball rested against that the camera saw move with the strike (``touching_moved``)
  are a push stroke each, concerning that ball (3.8(b): the striker must play away from a touching
  ball without moving it; 3.12(b)), whether or not it was on; a stroke without the field is ruled
  as before. The camera cannot tell a movement the striker did not cause (3.8(f)): the referee
  who is satisfied of that drops the field.
- A cue ball first seen already running (``strike_unseen``) was not seen where it was struck from:
  its placement from in hand is not judged (3.5), a miss is judged from where the previous stroke
  left it, and no replacement after a miss is read from its place.
- A condoned stroke (3.11(c): a foul neither called nor claimed before the next stroke) is ruled as
  if it broke no rule, its balls where they came to rest: "uznany za niebyły" (deemed not to have
  happened), so what it potted that was on scores and the break goes on; one played out of turn is its
  player's, the order of play going on from him.
- A colour spotted though potted for good (3.7(b)) stands on the cloth until the error is found, but
  is never on: 3.7(c) makes the strokes played meanwhile count as played with the balls as they
  stood, not the colour on again; hitting it first or potting it is a foul on a ball not on, and it
  stays off once it leaves the table. A colour wrongly left off is still in play (the ball on and the
  points remaining as if it were spotted) though no stroke can reach it. Neither error, nor its
  correction, carries a penalty (3.7(a)).
- A match conceded (3.1(f)-(g)): Section 3 names the frame conceded and the match won by the frames
  required; the referee gives the frame in play to the other side (no re-spotted black, the match
  being over) and awards it the frames it still needs (on aggregate points, every frame not played,
  scoring nothing) and the match.
- With the contact unseen the striker has the obvious intention's benefit of the doubt: after a
  red, the one colour the stroke potted, forced off or moved is the nominated colour (and with a free
  ball, the one ball not on so sent away is the free ball); and a foul is not "before a colour was
  nominated" (3.12(d)), as the contact nobody saw may have named it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from snooker.balls import BALL_VALUES, COLOURS, CUE_BALL, RED, ball_kind
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import announce
from snooker.referee import geometry as geometry_module
from snooker.referee.geometry import GeometryConfig
from snooker.referee.log import (
    BALL_ON_EITHER,
    BallMovedLine,
    ConcedeLine,
    DecisionLine,
    EdgeFallLine,
    Event,
    FoulLine,
    LogError,
    MatchLine,
    NewFrameLine,
    NominateLine,
    RerackLine,
    RespottedBlackLine,
    SpotErrorLine,
    StrokeLine,
    TableLine,
)
from snooker.referee.reasons import Correction, FoulReason, penalty_value
from snooker.referee.state import (
    FrameState,
    LastFoul,
    MatchState,
    MissChain,
    PendingDecision,
    Phase,
    Point,
    RefereeConfig,
    Snapshot,
    Table,
    with_frame,
)

BLACK = COLOURS[-1]
"""The black: the last ball, re-spotted on its spot to break a tie (3.4(b))."""
MISS_FRAME_AWARDED_AT = 3
"""3.14(c): the third failure from the same position (full ball open) awards the frame."""
OPTIONS_AFTER_FOUL = ("play", "play_again")
"""3.11(h): the next player plays, or asks the offender to play again."""
OPTIONS_AFTER_MISS = (*OPTIONS_AFTER_FOUL, "replace")
"""3.14(a), 3.14(d): also the balls replaced and the offender to play again from there."""


@dataclass(frozen=True)
class Outcome:
    """What one line produced, beyond the state after it (the parts of a ruling about this line)."""

    points: int = 0
    foul: bool = False
    penalty: int = 0
    fouls: tuple[str, ...] = ()
    miss: bool = False
    respotted: tuple[tuple[str, Point | None], ...] = ()
    announcements: tuple[str, ...] = ()
    offender: int | None = None
    scored: tuple[str, ...] = ()
    touching_called: tuple[str, ...] = ()
    corrections: tuple[str, ...] = ()
    """Codes of ``Correction``: what this line put right or recorded without a foul (3.7, 3.11(c))."""
    condoned: tuple[str, ...] = ()
    """The foul codes a condoned stroke committed that nobody called (3.11(c)), the highest first."""
    decision: str | None = None
    """The non-offender's choice after a foul that this line made (a ``decision`` line) or was taken
    as (a stroke, nomination or foul by the striker while the choice was open, 3.11(h), 3.14(a)):
    ``play``, ``play_again`` or ``replace``; None if it settled none."""


# ---------------------------------------------------------------------------------------------
# Match and frame set-up


def new_match(line: MatchLine, config: RefereeConfig) -> MatchState:
    """The state after a match line: frame 1 racked, the breaker in hand (3.2)."""
    n = len(line.players)
    sides = line.sides if line.sides is not None else tuple(i % 2 for i in range(n))
    aggregate = config.aggregate if line.aggregate is None else line.aggregate
    reds = config.reds if line.reds is None else line.reds
    miss_rule = config.miss_rule if line.miss_rule is None else line.miss_rule
    shell = MatchState(
        players=line.players,
        sides=sides,
        best_of=line.best_of,
        first_breaker=line.breaker,
        aggregate=aggregate,
        miss_rule=miss_rule,
        reds=reds,
        frame=_racked_frame(1, (0,), reds),
        geometry=config.geometry,
    )
    return replace(shell, frame=_racked_frame(1, default_order(shell, 0), reds))


def default_match(config: RefereeConfig) -> MatchState:
    """A match for a log that starts without a match line (singles, one frame, config options)."""
    line = MatchLine(config.default_players, config.best_of, 0, None, None, None, None)
    return new_match(line, config)


def _racked_frame(number: int, order: tuple[int, ...], reds: int) -> FrameState:
    """A frame with the balls racked (3.2) and the first player of ``order`` to break, in hand."""
    return FrameState(
        number=number,
        order=order,
        scores=(0, 0),
        striker=order[0],
        table=Table(reds=reds),
    )


def default_order(match: MatchState, frame_index: int) -> tuple[int, ...]:
    """Order of play for frame ``frame_index`` (0-based): breakers alternate (3.3(b), 3.17(a)).

    Singles: the breaker alternates. Four-handed: the sides break alternately and, within a side,
    its players take turns to break; the order alternates between the sides.
    """
    n = len(match.players)
    if n == 2:
        breaker = (match.first_breaker + frame_index) % 2
        return (breaker, 1 - breaker)
    first_side = match.side_of(match.first_breaker)
    breaking_side = first_side if frame_index % 2 == 0 else 1 - first_side
    members = {side: [p for p in range(n) if match.side_of(p) == side] for side in (0, 1)}
    first_members = members[first_side]
    start = first_members.index(match.first_breaker)
    members[first_side] = first_members[start:] + first_members[:start]
    shift = frame_index // 2
    rotated = {side: ps[shift % len(ps) :] + ps[: shift % len(ps)] for side, ps in members.items()}
    lead, other = rotated[breaking_side], rotated[1 - breaking_side]
    return tuple(p for pair in zip(lead, other, strict=True) for p in pair)


def _check_order(match: MatchState, order: tuple[int, ...], expected: tuple[int, ...]) -> None:
    n = len(match.players)
    if sorted(order) != list(range(n)):
        raise LogError(f"new_frame.order: expected each of the {n} players once, got {list(order)}")
    sides = [match.side_of(p) for p in order]
    if any(sides[i] == sides[i + 1] for i in range(n - 1)):
        raise LogError("new_frame.order: the sides must play alternately (3.17(a))")
    if match.side_of(order[0]) != match.side_of(expected[0]):
        raise LogError("new_frame.order: the other side breaks this frame (breakers alternate, 3.3(b))")


# ---------------------------------------------------------------------------------------------
# Dispatch


_RESPOTTED_BLACK_PLAY = (StrokeLine, FoulLine, ConcedeLine, RespottedBlackLine)
"""Lines that begin the play of a re-spotted black while its lot is open: the lot itself, a stroke
showing it, a foul or a concession by a player it names (3.4(b))."""


def apply_event(match: MatchState, event: Event, config: RefereeConfig) -> tuple[MatchState, Outcome]:
    """Apply one parsed event; raises LogError (state unchanged) when it cannot be applied."""
    match, outcome = _apply_line(match, event, config)
    return _with_left_table(_with_spotting(match, event, outcome), event), outcome


def _with_spotting(match: MatchState, event: Event, outcome: Outcome) -> MatchState:
    """Keep the colours the referee spotted (3.7) until the next stroke (``FrameState.spotting``):
    a stroke (or a ``table`` line) starts them afresh with those it re-spotted, none if it spotted
    none; another line adds those it spotted (a missing colour spotted after the stroke's colours:
    he may still be spotting any of them) and otherwise keeps them (a decision, a nomination); a
    frame's end leaves none."""
    if match.frame.over:
        return with_frame(match, spotting=())
    spotted = tuple(ball_kind(ball) for ball, _ in outcome.respotted)
    if isinstance(event, StrokeLine | TableLine):
        return with_frame(match, spotting=spotted)
    if spotted:
        return with_frame(match, spotting=tuple(dict.fromkeys((*match.frame.spotting, *spotted))))
    return match


def _with_left_table(match: MatchState, event: Event) -> MatchState:
    """Keep the object balls a stroke potted or forced off until the next stroke
    (``FrameState.left_table``): a stroke sets them, a ``table`` line or a frame's end clears them,
    another line keeps them (a decision, a nomination)."""
    if match.frame.over or isinstance(event, TableLine):
        return with_frame(match, left_table=())
    if isinstance(event, StrokeLine):
        return with_frame(match, left_table=(*event.potted, *event.off_table))
    return match


def _apply_line(match: MatchState, event: Event, config: RefereeConfig) -> tuple[MatchState, Outcome]:
    if isinstance(event, MatchLine):
        return new_match(event, config), Outcome()
    if isinstance(event, NewFrameLine):
        return _new_frame(match, event)
    if match.frame.awaiting_lot and isinstance(event, _RESPOTTED_BLACK_PLAY):
        # 3.4(b): the break that tied the frame stood until the lot; the re-spotted black's play
        # (the lot, or a line showing or needing it) is a new visit. A concession naming its player
        # is such a line whether it concedes the frame or the whole match.
        match = with_frame(match, break_points=0)
    if isinstance(event, ConcedeLine) and event.match:
        # A match may be conceded between frames too (the frame before it over, none begun).
        if match.over:
            raise LogError("concede: the match is over")
        return _concede(match, event)
    frame = match.frame
    if frame.over:
        raise LogError(
            "the match is over" if match.over else "the frame is over; a new_frame line starts the next"
        )
    if frame.on_undecided and isinstance(event, StrokeLine | NominateLine | FoulLine):
        return _most_favourable(match, event, config)
    if isinstance(event, StrokeLine):
        return _stroke(match, event, config)
    handlers = {
        DecisionLine: _decision,
        NominateLine: _nominate,
        FoulLine: _foul_line,
        ConcedeLine: _concede,
        RespottedBlackLine: _respotted_black,
        RerackLine: _rerack,
        EdgeFallLine: _edge_fall,
        BallMovedLine: _ball_moved,
        TableLine: _table,
        SpotErrorLine: _spot_error,
    }
    return handlers[type(event)](match, event)


def _most_favourable(match: MatchState, event: Event, config: RefereeConfig) -> tuple[MatchState, Outcome]:
    """Apply ``event`` while the ball on is undecided (``FrameState.on_undecided``): under each
    reading (``phase``, the likelier, then a colour after a red), keeping the one most favourable to
    the striker: no foul, then the smallest penalty, then the likelier. A reading under which the
    line cannot be applied (a colour nominated while on a red) is passed over."""
    best: tuple[tuple[bool, int], tuple[MatchState, Outcome]] | None = None
    refused: LogError | None = None
    for phase in dict.fromkeys((match.frame.phase, Phase.COLOUR)):
        reading = with_frame(match, phase=phase, on_undecided=False)
        try:
            result = apply_event(reading, event, config)
        except LogError as exc:
            refused = refused or exc
            continue
        rank = (result[1].foul, result[1].penalty)
        if best is None or rank < best[0]:
            best = (rank, result)
    if best is None:
        raise refused or LogError("no reading of the ball on allows this line")
    return best[1]


def _table(match: MatchState, event: TableLine) -> tuple[MatchState, Outcome]:
    """The log joins a frame in play: the balls on the table, what is on, who is to play and the
    score as given (without one, the scores count from the join and are marked not known); the
    break, nomination, free ball, touching ball and miss count start afresh."""
    frame = match.frame
    if frame.pending is not None or frame.awaiting_lot:
        raise LogError("table: a decision or a lot is open; settle it first")
    if event.reds > match.reds:
        raise LogError(f"table.reds: {event.reds} reds, but this match racks {match.reds}")
    colours = event.colours
    if event.reds and colours != COLOURS:
        raise LogError("table.colours: while reds remain every colour is on the table (they are re-spotted)")
    if not event.reds and (not colours or colours != COLOURS[len(COLOURS) - len(colours) :]):
        raise LogError(
            "table.colours: with no red left the colours on the table are the highest ones (they are"
            " potted in ascending order); with none left the frame is over"
        )
    if event.striker is not None and event.striker >= len(match.players):
        raise LogError(f"table.striker: no player {event.striker} among {len(match.players)}")
    table = Table(reds=event.reds, colours=colours, cue_in_hand=event.cue_in_hand, positions=event.positions)
    _check_table_positions(table)
    readings = _table_readings(table, event.ball_on)
    after = replace(
        frame,
        table=table,
        phase=readings[0],
        on_undecided=len(readings) > 1,
        scores=(0, 0) if event.scores is None else event.scores,
        scores_unknown=event.scores is None,
        striker=frame.striker if event.striker is None else event.striker,
        break_points=0,
        nominated=None,
        free_ball=False,
        touching=(),
        miss_chain=None,
        replayed_from=None,
        warning=False,
        respotted_black=False,
    )
    return replace(match, frame=after), Outcome()


def _table_readings(table: Table, ball_on: str) -> tuple[Phase, ...]:
    """The phases a table line's ``ball_on`` allows, the likelier first; refuses one the balls on
    the table rule out."""
    every_colour = table.colours == COLOURS
    if ball_on == BALL_ON_EITHER:
        if table.reds:
            return (Phase.RED, Phase.COLOUR)
        return (Phase.ASCENDING, Phase.COLOUR) if every_colour else (Phase.ASCENDING,)
    if ball_on == RED:
        if not table.reds:
            raise LogError("table.ball_on: no red is left to be on")
        return (Phase.RED,)
    if ball_on == "colour":
        if not table.reds and not every_colour:
            raise LogError("table.ball_on: colours are missing, so no red was potted just now")
        return (Phase.COLOUR,)
    if table.reds or ball_on != table.lowest_colour:
        raise LogError(
            f"table.ball_on: the {ball_on} is on only in the ascending phase, as the lowest colour"
            " (after a red, say colour)"
        )
    return (Phase.ASCENDING,)


def _check_table_positions(table: Table) -> None:
    """Refuse positions naming a ball the table line says is not there."""
    positions = table.position_map()
    if positions is None:
        return
    reds = 0
    for ball in positions:
        kind = ball_kind(ball)
        if kind == CUE_BALL:
            if table.cue_in_hand:
                raise LogError("table.positions: the cue ball is in hand, so it has no place on the table")
        elif kind == RED:
            reds += 1
        elif kind not in table.colours:
            raise LogError(f"table.positions: the {kind} is not on the table")
    if reds > table.reds:
        raise LogError(f"table.positions: {reds} reds placed, but {table.reds} on the table")


def _new_frame(match: MatchState, event: NewFrameLine) -> tuple[MatchState, Outcome]:
    if match.over:
        raise LogError("the match is over; no further frames")
    if not match.frame.over and match.frame.respotted_black:
        raise LogError(f"frame {match.frame.number} is not over: a re-spotted black decides it (3.4(b)-(c))")
    if not match.frame.over:
        raise LogError(
            f"frame {match.frame.number} is not over (it ends with the last ball, a concession or an award)"
        )
    if match.frames_played >= match.best_of:
        raise LogError(f"the match is the best of {match.best_of} frames and all have been played")
    expected = default_order(match, match.frame.number)
    order = expected
    if event.order is not None:
        _check_order(match, event.order, expected)
        order = event.order
    frame = _racked_frame(match.frame.number + 1, order, match.reds)
    return replace(match, frame=frame, earlier_highest=match.highest_breaks()), Outcome()


# ---------------------------------------------------------------------------------------------
# Helpers about balls and what is on


def _red_or_colours_in_order(reds: int) -> Phase:
    """On a red while reds remain, else on the colours in ascending order (3.3(e)-(f)); what a new
    turn starts on, and what follows a colour potted after a red."""
    return Phase.RED if reds else Phase.ASCENDING


def _value(ball: str) -> int:
    """Point value of a ball id (``red-3`` → 1)."""
    return BALL_VALUES[ball_kind(ball)]


def _sorted_colours(colours: Iterable[str]) -> tuple[str, ...]:
    """Colours in ascending order of value, each once."""
    return tuple(c for c in COLOURS if c in set(colours))


def _on_kinds(frame: FrameState, nominated: str | None, free_ball: str | None) -> frozenset[str]:
    """Kinds of ball that are on for this stroke (may be hit first, may be potted)."""
    if frame.phase is Phase.RED:
        kinds = {RED}
    elif frame.phase is Phase.COLOUR:
        kinds = {nominated} if nominated is not None else set()
    else:
        kinds = {frame.table.lowest_colour} if frame.table.lowest_colour else set()
    if free_ball is not None:
        kinds.add(free_ball)
    return frozenset(kinds)


def _could_be_on(phase: Phase, table: Table, free_ball: bool) -> frozenset[str]:
    """Kinds that are or could be on for the next stroke (touching ball 3.8, miss 3.14(b))."""
    if free_ball:
        return frozenset({RED, *table.colours} if table.reds else table.colours)
    if phase is Phase.RED:
        return frozenset({RED})
    if phase is Phase.COLOUR:
        return frozenset(table.colours)
    return frozenset({table.lowest_colour} if table.lowest_colour else ())


def _ball_on_value(frame: FrameState, nominated: str | None, free_ball: str | None) -> int:
    """The value of the ball on for penalties (3.12; the nominated colour after a red).

    A nominated free ball "acquires the value of the ball on" (3.10(a)), so it changes nothing here.
    """
    if frame.phase is Phase.RED:
        return BALL_VALUES[RED]
    if frame.phase is Phase.COLOUR:
        # No colour named: the foul-before-nomination foul (seven) carries the penalty.
        return BALL_VALUES[nominated] if nominated is not None else BALL_VALUES[RED]
    lowest = frame.table.lowest_colour
    return BALL_VALUES[lowest] if lowest else BALL_VALUES["black"]


def _side_name(match: MatchState, side: int) -> str:
    """The names of a side's players (one name in singles), for announcements."""
    return " & ".join(p for i, p in enumerate(match.players) if match.side_of(i) == side)


def _check_balls_on_table(table: Table, stroke: StrokeLine) -> None:
    """Refuse a stroke that hits, pots or forces off a ball that is not on the table, or names one
    ball twice where there is one of it (a colour, or a red by its id)."""
    for key, balls in (
        ("first_contact", stroke.first_contact),
        ("potted", stroke.potted),
        ("off_table", stroke.off_table),
    ):
        for ball in balls:
            if not table.has(ball):
                raise LogError(f"{key}: the {ball_kind(ball)} is not on the table")
    gone = (*stroke.potted, *stroke.off_table)
    gone_reds = sum(1 for b in gone if ball_kind(b) == RED)
    if gone_reds > table.reds:
        raise LogError(f"{gone_reds} reds potted or off the table, but only {table.reds} on it")
    for key, balls in (("first_contact", stroke.first_contact), ("potted and off_table", gone)):
        named = [b for b in balls if b != RED]
        twice = next((b for b in named if named.count(b) > 1), None)
        if twice is not None:
            raise LogError(f"{key}: the {twice} is listed twice (there is one such ball)")


def _check_touching(table: Table, stroke: StrokeLine) -> None:
    """Refuse a stroke whose ``touching`` names a ball that left the table in that very stroke (a
    colour potted or forced off, even if re-spotted: a spotted colour never touches a ball, 3.7(h);
    a red by its id; a red when none is left): the cue ball cannot rest against it."""
    if not stroke.touching:
        return
    gone = (*stroke.potted, *stroke.off_table)
    reds_left = table.reds - sum(1 for b in gone if ball_kind(b) == RED)
    for ball in stroke.touching:
        kind = ball_kind(ball)
        if kind == RED:
            left = ball not in gone if ball != RED else reds_left > 0
        else:
            left = kind not in {ball_kind(b) for b in gone}
        if not left:
            raise LogError(
                f"touching: the {kind} left the table in this stroke; the cue ball cannot rest against it"
            )


def _object_balls(positions: dict[str, Point]) -> dict[str, Point]:
    return {b: xy for b, xy in positions.items() if b != CUE_BALL}


def _ids_of_kinds(balls: dict[str, Point], kinds: Iterable[str]) -> list[str]:
    wanted = set(kinds)
    return [b for b in balls if ball_kind(b) in wanted]


def _in_d(point: Point, config: RefereeConfig, measured_within_mm: float | None = None) -> bool:
    """Whether a cue ball placed at ``point`` (mm) is within the D, allowing the configured
    tolerance or, where the log says its places may be off by more (``measured_within_mm``), that."""
    tol = max(config.in_hand_tolerance_mm, measured_within_mm or 0.0)
    return bool(STANDARD_TABLE.in_d(point, margin_mm=tol)[0])


def _implicit_play(
    match: MatchState, player: int | None = None, replaced: bool = False
) -> tuple[MatchState, tuple[str, ...], str | None]:
    """A line from the next player while a decision is open means he chose to play (3.11(h)); the
    match after the choice, what the choice announces, and the choice (None: none was open).

    A stroke that starts from the balls put back (``replaced``, see :func:`_balls_replaced`) means
    they were replaced (3.14), whoever is named as its player: the offender plays again from the
    earlier position only by a replacement. Otherwise a stroke by the offender himself (``player``)
    means he was asked to play again from where the balls lie, and anyone else's that he chose to
    play.
    """
    pending = match.frame.pending
    if pending is None:
        return match, (), None
    if replaced:
        choice = "replace"
    elif player is not None and player == pending.offender and player != match.frame.striker:
        choice = "play_again"
    else:
        choice = "play"
    match, outcome = _decide(match, choice)
    return match, outcome.announcements, choice


_CHOICE_TAKEN = {
    "play": "the choice to play on",
    "play_again": "the choice to have the offender play again",
    "replace": "the choice to have the balls replaced",
}
"""How a refusal names the choice a stroke was taken as (see ``FrameState.settled_by_stroke``)."""


def _balls_replaced(frame: FrameState, stroke: StrokeLine, config: RefereeConfig) -> bool:
    """Whether ``stroke``, logged with no decision while one is open after a foul and a miss,
    starts from the position before the miss rather than where the miss left the balls. Only a
    replacement puts the cue ball back, so a camera's log, which has no decision lines, shows the
    choice by where its cue ball starts (``positions.before``; within ``replaced_within_mm``, or the
    log's own tolerance if larger, counts as there):

    - on the table before and after the miss: back where it was before, which the miss had moved it
      more than twice that far from;
    - on the table before, in hand after (an in-off): back where it was before, outside the D (a
      player who chose to play plays from the D, 3.3(h));
    - in hand before, on the table after: in the D again, not where the miss left it.

    A cue ball first seen already running (``strike_unseen``) shows nothing: where it started was
    not seen."""
    pending = frame.pending
    if pending is None or "replace" not in pending.options or pending.snapshot is None:
        return False
    before = stroke.positions.before if stroke.positions else None
    start = None if before is None or stroke.strike_unseen else dict(before).get(CUE_BALL)
    if start is None:
        return False
    within = max(config.replaced_within_mm, stroke.position_tolerance_mm or 0.0)
    was, left = pending.snapshot.table.cue_position(), frame.table.cue_position()
    if was is not None and left is not None:
        return math.dist(was, left) > 2 * within and math.dist(start, was) <= within
    if was is not None and frame.table.cue_in_hand:
        return math.dist(start, was) <= within and not _in_d(start, config, stroke.position_tolerance_mm)
    if pending.snapshot.table.cue_in_hand and left is not None:
        return _in_d(start, config, stroke.position_tolerance_mm) and math.dist(start, left) > within
    return False


def _frame_end(
    match: MatchState, frame: FrameState, announcements: list[str]
) -> tuple[MatchState, FrameState]:
    """End the frame on the scores (3.4): re-spotted black on a tie unless aggregate scores count;
    with the scores not known (a log that joined the frame without them) the frame ends unwon."""
    if frame.scores_unknown:
        return _close_frame(match, frame, None, announcements)
    a, b = frame.scores
    last_frame = match.frames_played + 1 >= match.best_of
    totals_tied = match.totals[0] + a == match.totals[1] + b
    # 3.4(a)-(b): a tie re-spots the black unless aggregate scores count; 3.4(c): in an aggregate
    # match a level aggregate after the last frame does.
    # With the aggregate not known (an earlier frame's scores were not), whether it is level is not.
    respot = (last_frame and totals_tied and not match.totals_unknown) if match.aggregate else a == b
    if respot:
        black_spot = None if frame.table.positions is None else ((BLACK, STANDARD_TABLE.spots[BLACK]),)
        frame = replace(
            frame,
            table=Table(reds=0, colours=(BLACK,), cue_in_hand=True, positions=black_spot),
            phase=Phase.ASCENDING,
            respotted_black=True,
            awaiting_lot=True,
            pending=None,
            free_ball=False,
            nominated=None,
            touching=(),
            miss_chain=None,
            replayed_from=None,
            warning=False,
        )
        announcements.append(announce.RESPOTTED_BLACK)
        return match, frame
    winner = None if a == b else (0 if a > b else 1)
    return _close_frame(match, frame, winner, announcements)


def _frame_given(
    match: MatchState, frame: FrameState, winner: int, announcements: list[str]
) -> tuple[MatchState, FrameState]:
    """End the frame for side ``winner`` by a concession or an award (3.1(f), 3.14(c)). In a match
    decided on aggregate points, a last frame that ends so with the aggregate level is followed by
    a re-spotted black (3.4(c): the aggregate is level after the last frame, however it ended); a
    re-spotted black conceded or awarded decides the match for ``winner`` (see :func:`_close_frame`)."""
    if (
        match.aggregate
        and not frame.scores_unknown
        and not match.totals_unknown
        and not frame.respotted_black
    ):
        last_frame = match.frames_played + 1 >= match.best_of
        a, b = frame.scores
        if last_frame and match.totals[0] + a == match.totals[1] + b:
            return _frame_end(match, frame, announcements)
    return _close_frame(match, frame, winner, announcements)


def _settled_respots(
    after: FrameState, respotted: tuple[tuple[str, Point | None], ...]
) -> tuple[tuple[str, Point | None], ...]:
    """What is re-spotted once the frame's end is settled: nothing when the frame is over; the black
    on its spot when a tie has just brought a re-spotted black (3.4(b)); else ``respotted``."""
    if after.over:
        return ()
    if after.awaiting_lot:
        positions = after.table.position_map()
        return ((BLACK, None if positions is None else positions[BLACK]),)
    return respotted


def _close_frame(
    match: MatchState, frame: FrameState, winner: int | None, announcements: list[str]
) -> tuple[MatchState, FrameState]:
    """End the frame for ``winner`` (None: no winner) and score it into the match. Once over, nothing
    of the frame's play is open any more: no decision, free ball, warning, nomination, touching ball,
    miss count or replay; the ball on is ``none`` and no points remain (``FrameState``); the player to
    play next is the next frame's breaker (3.3(b), 3.17(a); the match's default order, which a
    ``new_frame`` line may change within the breaking side), or, the match over, the last striker."""
    frame = replace(
        frame,
        over=True,
        winner=winner,
        pending=None,
        free_ball=False,
        warning=False,
        awaiting_lot=False,
        nominated=None,
        touching=(),
        miss_chain=None,
        replayed_from=None,
    )
    frames = list(match.frames)
    if winner is not None:
        frames[winner] += 1
        announcements.append(announce.frame_call(_side_name(match, winner)))
    totals = (match.totals[0] + frame.scores[0], match.totals[1] + frame.scores[1])
    played = match.frames_played + 1
    totals_unknown = match.totals_unknown or frame.scores_unknown
    match_winner = None
    if match.aggregate:
        # 3.1(g): the most points overall decide the match; with a frame's scores not known, they
        # are not known, and no winner is called.
        decided = played >= match.best_of and not totals_unknown
        if decided and totals[0] != totals[1]:
            match_winner = 0 if totals[0] > totals[1] else 1
        elif decided and frame.respotted_black and winner is not None:
            # 3.4(c): the re-spotted black that breaks a level aggregate, conceded or awarded,
            # decides the match for the side it went to.
            match_winner = winner
    elif max(frames) >= match.frames_to_win:
        match_winner = 0 if frames[0] > frames[1] else 1
    if match_winner is not None:
        announcements.append(announce.match_call(_side_name(match, match_winner)))
    # 3.1(g): the match is over when it has a winner, or (frames level in an even best-of, or the
    # aggregate not known) when all its frames have been played.
    unjudged = not match.aggregate or totals_unknown
    over = match_winner is not None or (unjudged and played >= match.best_of)
    match = replace(
        match,
        totals_unknown=totals_unknown,
        frames=(frames[0], frames[1]),
        totals=totals,
        frames_played=played,
        over=over,
        winner=match_winner,
        history=(*match.history, frame.scores),
    )
    if not over and played < match.best_of:
        frame = replace(frame, striker=default_order(match, frame.number)[0])
    return match, frame


def _add(scores: tuple[int, int], side: int, points: int) -> tuple[int, int]:
    """``scores`` with ``points`` added to ``side``."""
    out = list(scores)
    out[side] += points
    return (out[0], out[1])


def _highest(frame: FrameState, side: int, break_points: int) -> tuple[int, int]:
    """Each side's highest break of the frame, counting ``break_points`` for ``side``."""
    best = list(frame.highest_break)
    best[side] = max(best[side], break_points)
    return (best[0], best[1])


def _player_highest(frame: FrameState, player: int, break_points: int) -> tuple[int, ...]:
    """Each player's highest break of the rack (``FrameState.player_highest``), counting
    ``break_points`` for ``player``."""
    best = list(frame.player_highest)
    best += [0] * (player + 1 - len(best))
    best[player] = max(best[player], break_points)
    return tuple(best)


# ---------------------------------------------------------------------------------------------
# Strokes


@dataclass(frozen=True)
class _StrokeView:
    """The stroke as the rules see it: nominations resolved, touching ball applied."""

    nominated: str | None
    free_ball: str | None
    first_contact: tuple[str, ...]
    on_kinds: frozenset[str]
    ball_on_value: int
    contact_unseen: bool
    """No first contact logged though one happened unseen (see :func:`_contact_unseen`)."""

    def value_of(self, kind: str) -> int:
        """A ball's value in a penalty: the free ball counts as the ball on (3.10(a)(ii))."""
        return self.ball_on_value if kind == self.free_ball else BALL_VALUES[kind]


def _resolve(frame: FrameState, stroke: StrokeLine, config: RefereeConfig) -> _StrokeView:
    """Resolve what is on for this stroke: the nominated colour (declared, or obvious from the first
    ball hit), the nominated free ball, and a touching ball on counted as hit (3.8(c))."""
    sent_away = _sent_away_kinds(stroke, config)
    unseen = _contact_unseen(stroke, sent_away)
    declared = stroke.nominated or frame.nominated
    declared_kind = ball_kind(declared) if declared else None
    if declared is not None:
        _check_nomination(frame, declared, "nominated")
    contact_kinds = [ball_kind(b) for b in stroke.first_contact]
    free_ball = None
    nominated = declared_kind
    if frame.free_ball:
        plain_on = _on_kinds(frame, None, None) if frame.phase is not Phase.COLOUR else frozenset()
        if declared_kind is not None and declared_kind not in plain_on:
            free_ball = declared_kind
        elif declared_kind is None:
            shown = contact_kinds or (sent_away if unseen else [])
            not_on = {k for k in shown if k not in plain_on}
            if len(not_on) == 1:
                free_ball = not_on.pop()
        nominated = None
    if frame.phase is Phase.COLOUR:
        if nominated is None:
            if len(contact_kinds) == 1 and contact_kinds[0] != RED:
                nominated = contact_kinds[0]
            elif not contact_kinds:
                touching_colours = [ball_kind(b) for b in frame.touching if ball_kind(b) != RED]
                fallen_colours = {ball_kind(b) for b in stroke.fell_from_edge if ball_kind(b) != RED}
                sent_colours = {k for k in sent_away if k != RED} if unseen else set()
                if len(touching_colours) == 1:
                    nominated = touching_colours[0]
                elif len(fallen_colours) == 1:
                    nominated = fallen_colours.pop()
                elif len(sent_colours) == 1:
                    nominated = sent_colours.pop()
        if nominated is not None and nominated not in frame.table.colours:
            raise LogError(f"nominated: the {nominated} is not on the table")
    on_kinds = _on_kinds(frame, nominated, free_ball)
    first_contact = stroke.first_contact
    value = _ball_on_value(frame, nominated, free_ball)
    view = _StrokeView(nominated, free_ball, first_contact, on_kinds, value, unseen)
    # 3.8(c): playing away from a touching ball that is on counts as hitting it first.
    sole_on = {free_ball} if free_ball is not None else on_kinds
    touching_on = [b for b in frame.touching if ball_kind(b) in sole_on]
    declared = (stroke.nominated or frame.nominated) is not None
    if touching_on and _contact_fouls(frame, view, declared):
        view = replace(view, first_contact=(touching_on[0],))
    return view


def _contact_fouls(
    frame: FrameState, view: _StrokeView, declared: bool
) -> list[tuple[FoulReason, tuple[int, ...]]]:
    """Fouls of the first contact: none, a ball not on, two at once (3.6, 3.10(b), 3.12). Two reds at
    once, where a red may not be hit first, are the wrong first contact, never two balls at once (3.6)."""
    kinds = [ball_kind(b) for b in view.first_contact]
    if not kinds:
        return [(FoulReason.MISSED_ALL_BALLS, ())]
    if len(kinds) == 1:
        kind = kinds[0]
        if kind in view.on_kinds and (view.free_ball is None or kind == view.free_ball):
            return []
        if frame.phase is Phase.COLOUR and kind == RED and not declared:
            return [(FoulReason.REDS_IN_SUCCESSIVE_STROKES, ())]
        return [(FoulReason.WRONG_BALL_FIRST, (view.value_of(kind),))]
    distinct = set(kinds)
    if frame.phase is Phase.COLOUR and distinct == {RED} and not declared:
        return [(FoulReason.REDS_IN_SUCCESSIVE_STROKES, ())]
    if view.free_ball is None:
        legal = frame.phase is Phase.RED and distinct == {RED}
    else:
        plain_on = _on_kinds(frame, None, None)
        legal = view.free_ball in distinct and distinct <= {view.free_ball, *plain_on}
        legal = legal and kinds.count(view.free_ball) == 1
    if legal:
        return []
    if distinct == {RED}:
        # 3.6: two reds at once are never "two balls" (3.12(c)); where no red may be hit first (a
        # colour declared after a red, 3.12(b); a free ball nominated, 3.10(b)(i)) they are the wrong
        # first contact, as one red would be.
        return [(FoulReason.WRONG_BALL_FIRST, (view.value_of(RED),))]
    return [(FoulReason.TWO_BALLS_AT_ONCE, tuple(view.value_of(k) for k in kinds))]


def _stroke_fouls(
    match: MatchState, frame: FrameState, stroke: StrokeLine, view: _StrokeView, config: RefereeConfig
) -> list[tuple[FoulReason, tuple[int, ...]]]:
    """Every foul of the stroke with the values of the balls concerned (3.12): contact, pots, balls
    off the table, the cue ball, called fouls, out of turn, in hand outside the D (3.5).

    The seven-point fouls of an undeclared colour after a red (3.12(d)) belong to the striker who
    potted the red: a player striking out of turn then did neither.
    """
    own_turn = stroke.player is None or stroke.player == frame.striker
    declared = (stroke.nominated or frame.nominated) is not None or not own_turn
    unjudged = _fell_before_contact(stroke, view) or view.contact_unseen
    fouls = [] if unjudged else _contact_fouls(frame, view, declared)
    for ball in _potted_by_the_stroke(stroke):
        if ball_kind(ball) not in view.on_kinds:
            fouls.append((FoulReason.POTTED_BALL_NOT_ON, (view.value_of(ball_kind(ball)),)))
    for ball in stroke.off_table:
        fouls.append((FoulReason.BALL_OFF_TABLE, (view.value_of(ball_kind(ball)),)))
    if stroke.cue_ball == "potted":
        fouls.append((FoulReason.CUE_BALL_POTTED, ()))
    elif stroke.cue_ball == "off_table":
        fouls.append((FoulReason.CUE_BALL_OFF_TABLE, ()))
    for call in stroke.fouls:
        try:
            reason = FoulReason.from_code(call.reason)
        except ValueError as exc:
            raise LogError(f"fouls: {exc}") from None
        _check_foul_ball(frame, match.reds, reason, call.ball, "fouls.ball")
        _check_called_foul(
            frame, reason, (stroke.nominated or frame.nominated) is not None, own_turn, "fouls"
        )
        ball = call.ball if call.ball is not None else _unnamed_ball_concerned(frame, reason)
        concerned = () if ball in (None, CUE_BALL) else (view.value_of(ball_kind(ball)),)
        fouls.append((reason, concerned))
    _check_moving_at_strike(frame, stroke)
    for ball in stroke.moving_at_strike:
        fouls.append((FoulReason.BALLS_MOVING, (view.value_of(ball_kind(ball)),)))
    for ball in stroke.touching_moved:
        if not frame.table.has(ball):
            raise LogError(f"touching_moved: the {ball_kind(ball)} is not on the table")
        fouls.append((FoulReason.PUSH_STROKE, (view.value_of(ball_kind(ball)),)))
    if stroke.player is not None:
        if stroke.player >= len(match.players):
            raise LogError(f"player: no player {stroke.player} among {len(match.players)}")
        if stroke.player != frame.striker:
            fouls.append((FoulReason.OUT_OF_TURN, ()))
    before = stroke.positions.before if stroke.positions else None
    # A cue ball first seen already running was placed where nobody saw (3.5 cannot be judged).
    if frame.table.cue_in_hand and before is not None and not stroke.strike_unseen:
        cue = dict(before).get(CUE_BALL)
        if cue is not None and not _in_d(cue, config, stroke.position_tolerance_mm):
            fouls.append((FoulReason.IMPROPER_IN_HAND, ()))
    seven_already = any(r is FoulReason.REDS_IN_SUCCESSIVE_STROKES for r, _ in fouls)
    # With the contact unseen, the colour may have been named by the obvious intention of a contact
    # nobody saw: the striker has the benefit of the doubt.
    undecided = frame.phase is Phase.COLOUR and view.nominated is None and not view.contact_unseen
    if fouls and own_turn and undecided and not seven_already:
        fouls.append((FoulReason.FOUL_BEFORE_NOMINATION, ()))
    return fouls


def _check_moving_at_strike(frame: FrameState, stroke: StrokeLine) -> None:
    """Refuse a ball named still running at the strike (``moving_at_strike``) that the cloth did not
    hold then. It held the balls the table holds and those the stroke before potted or forced off
    (``FrameState.left_table``, each of those named once at most): a ball still running from the stroke
    before was on the cloth when the cue ball was struck ("uderzenia, gdy któraś z bil znajduje się
    jeszcze w ruchu", 3.12(b)) though it went in, or off, after that strike: the stroke before
    counts it (a tracker judges a ball hidden as it ran into a pocket potted by the stroke that set
    it off), so the table after that stroke no longer holds it (a red once none is left, a colour
    potted for good)."""
    left = [ball_kind(b) for b in frame.left_table]
    for ball in stroke.moving_at_strike:
        kind = ball_kind(ball)
        if frame.table.has(ball):
            continue
        if kind not in left:
            raise LogError(f"moving_at_strike: the {kind} is not on the table")
        left.remove(kind)


def _contact_unseen(stroke: StrokeLine, sent_away: list[str]) -> bool:
    """No first contact is logged, but the camera did not show the table for part of the stroke
    (``unwatched_s``), the source ended before the balls stopped (``truncated``: the contact may
    have come after), the cue ball was first seen already running (``strike_unseen``), or the
    stroke potted, forced off or moved an object ball (``sent_away``, which only a contact can do;
    one that fell from the edge of a pocket by itself aside, 3.9(b)): the contact was not seen, so
    neither missing every ball nor a miss is called (the fouls that were seen stand)."""
    if stroke.first_contact:
        return False
    return stroke.unwatched_s > 0.0 or stroke.truncated or stroke.strike_unseen or bool(sent_away)


_PLACES_IN_A_MOVE = 2.0
"""A move is measured between two places, each off by up to the log's tolerance."""


def _sent_away_kinds(stroke: StrokeLine, config: RefereeConfig) -> list[str]:
    """The kinds of the object balls the stroke itself potted, forced off the table or moved: a
    ball on the table both before and after it (``positions``) with no ball of its kind after it
    within ``config.moved_beyond_mm`` of its place before (or twice the log's
    ``position_tolerance_mm``, where that is more). Reds are alike: two that swapped ids in the log
    but not places moved nowhere. Balls still running when the stroke was struck
    (``moving_at_strike``) make no ball's move the stroke's own."""
    kinds = [ball_kind(b) for b in (*_potted_by_the_stroke(stroke), *stroke.off_table)]
    if stroke.positions is None or stroke.positions.before is None or stroke.positions.after is None:
        return kinds
    if stroke.moving_at_strike:
        return kinds  # balls still running from the stroke before moved without it
    beyond = max(config.moved_beyond_mm, _PLACES_IN_A_MOVE * (stroke.position_tolerance_mm or 0.0))
    after = _object_balls(dict(stroke.positions.after))
    for ball, was in _object_balls(dict(stroke.positions.before)).items():
        if ball not in after:
            continue  # potted or forced off (counted above), or not seen after the stroke
        kind = ball_kind(ball)
        alike = [xy for b, xy in after.items() if ball_kind(b) == kind]
        if all(math.dist(was, xy) > beyond for xy in alike):
            kinds.append(kind)
    return kinds


def _fell_before_contact(stroke: StrokeLine, view: _StrokeView) -> bool:
    """3.9(b): the cue ball hit nothing because a ball on fell from the edge of a pocket before it
    could reach it: not hitting a ball is then no foul of the striker's (his other fouls stand)."""
    return not view.first_contact and any(ball_kind(b) in view.on_kinds for b in stroke.fell_from_edge)


def _potted_by_the_stroke(stroke: StrokeLine) -> list[str]:
    """The balls the stroke potted: ``potted`` less those that fell from the edge of a pocket before a
    ball in the stroke could hit them (3.9(b)): the striker did not pot those, so they are no foul."""
    potted = list(stroke.potted)
    for fell in stroke.fell_from_edge:
        same = next((b for b in potted if b == fell), None)
        if same is None:
            same = next((b for b in potted if ball_kind(b) == ball_kind(fell)), None)
        if same is not None:
            potted.remove(same)
    return potted


_FOULS_WITH_A_BALL_OFF_THE_TABLE = frozenset({FoulReason.USED_BALL_OFF_TABLE})
"""Fouls whose ball concerned is off the table by their nature: using a ball off the table for any
purpose (3.12(d)) names a ball potted or forced off (a red, a colour potted for good)."""


def _check_foul_ball(
    frame: FrameState, reds_in_match: int, reason: FoulReason, ball: str | None, what: str
) -> None:
    """Refuse a foul whose ball concerned is not on the table, unless the foul is one with a ball off
    the table (:data:`_FOULS_WITH_A_BALL_OFF_THE_TABLE`), whose ball must then be off it
    (:func:`_ball_off_the_table`)."""
    if ball in (None, CUE_BALL):
        return
    if reason in _FOULS_WITH_A_BALL_OFF_THE_TABLE:
        if not _ball_off_the_table(frame, reds_in_match, ball):
            where = "no red has left the table" if ball_kind(ball) == RED else "it is in play on the table"
            raise LogError(
                f"{what}: {reason.code}: the {ball_kind(ball)} is not off the table: {where} (3.12(d))"
            )
        return
    if not frame.table.has(ball):
        raise LogError(f"{what}: the {ball_kind(ball)} is not on the table")


def _ball_off_the_table(frame: FrameState, reds_in_match: int, ball: str) -> bool:
    """Whether ``ball`` may be one off the table that a striker used (3.12(d)): the Polish "używa
    bili poza stołem", the Chinese "利用巳被擊進袋中或巳離開球桌範圍而無需重置的球" (a ball potted
    or off the table that is not to be re-spotted). Both exclude a ball in play on the cloth: a red
    while none has left the table (``reds_in_match`` still on it), a colour in play that the referee
    is not spotting. Where the texts part, the call stands: a colour the last stroke potted that the
    referee was re-spotting (``FrameState.spotting``; off the table in the Polish, to be re-spotted in
    the Chinese), a colour left off by a spotting error, or one wrongly spotted (3.7(b)-(c))."""
    kind = ball_kind(ball)
    if kind == RED:
        return frame.table.reds < reds_in_match
    table = frame.table
    in_play_on_cloth = kind in table.colours and kind not in table.not_spotted
    return not in_play_on_cloth or kind in frame.spotting


_SEVENS_AFTER_A_RED = (FoulReason.REDS_IN_SUCCESSIVE_STROKES, FoulReason.FOUL_BEFORE_NOMINATION)
"""The seven-point fouls of 3.12(d) that only the striker who potted a red (or free ball as a red) commits."""


def _check_called_foul(
    frame: FrameState, reason: FoulReason, declared: bool, own_turn: bool, what: str
) -> None:
    """Refuse a called foul whose own conditions (3.10(b), 3.12(d)) the frame contradicts, as a
    ``miss`` on a stroke that broke no rule is refused: the texts make these fouls only in a state
    the log knows. ``declared``: a colour is nominated (declared, not read from the contact) after
    the red; ``own_turn``: the offender is the player to play (not one playing out of turn, nor one
    penalised as if striker). A foul line (no stroke) is checked as a stroke would be.

    - ``free_ball_snooker`` (3.10(b)(ii), 3.12(a)(vii)): only with a free ball awarded, and never
      while the pink and the black are the only balls left ("z wyjątkiem sytuacji, gdy jedynymi
      bilami do rozgrywania, pozostałymi na stole, są bile Różowa i Czarna"; the Chinese
      "除非當時桌上祇剩下粉紅球及黑球").
    - ``reds_in_successive_strokes`` (3.12(d)(iii)): only after a red, or a free ball as a red, was
      potted ("gra bile Czerwone, lub Czerwoną po wolnej bili deklarowanej jako Czerwona, w kolejnych
      zagraniach"; "於擊入紅球或自由球後繼續打擊紅球"), by the striker who potted it.
    - ``foul_before_nomination`` (3.12(d)(vi)): only after a red, or a free ball as a red, was
      potted, and before a colour is nominated ("po wbiciu Czerwonej lub wolnej bili deklarowanej
      jako Czerwona popełni faul przed zadeklarowaniem bili kolorowej"; "擊進紅球或被點名為紅球的
      自球後而又未指明將打擊那一個顏色球前犯規"), by the striker who potted it.

    The two seven-point fouls after a red are the striker's (the module's notes: a player out of
    turn, or one penalised as if striker, neither potted the red nor owed a nomination).
    """
    after_red = frame.phase is Phase.COLOUR
    if reason is FoulReason.FREE_BALL_SNOOKER:
        if not frame.free_ball:
            raise LogError(f"{what}: free_ball_snooker: no free ball was awarded (3.10(b))")
        if frame.table.reds == 0 and frame.table.colours == ("pink", "black"):
            raise LogError(
                f"{what}: free_ball_snooker: with only the pink and the black left the free ball may"
                " snooker (3.10(b))"
            )
    elif reason in _SEVENS_AFTER_A_RED and not own_turn:
        raise LogError(f"{what}: {reason.code}: only the striker who potted the red commits it (3.12(d))")
    elif reason is FoulReason.REDS_IN_SUCCESSIVE_STROKES and not after_red:
        raise LogError(
            f"{what}: reds_in_successive_strokes: no red (nor a free ball as a red) was potted before"
            " (3.12(d))"
        )
    elif reason is FoulReason.FOUL_BEFORE_NOMINATION and (not after_red or declared):
        why = "a colour is nominated" if after_red else "no red (nor a free ball as a red) was potted"
        raise LogError(f"{what}: foul_before_nomination: {why} (3.12(d))")


def _unnamed_ball_concerned(frame: FrameState, reason: FoulReason) -> str | None:
    """The ball concerned in a foul called without one, where the frame shows it (3.12(b)):

    - a push stroke: the ball the cue ball rested against, when it rested against exactly one (3.8(b):
      moving the touching ball is a push stroke);
    - striking before the referee finished spotting: a colour he was spotting, those the last stroke
      re-spotted and any missing colour spotted since (``FrameState.spotting``; 3.7(c) "zanim
      sędzia zdążył ustawić bilę (bile)"). Of several, the log does not say which was still
      unspotted, so the lowest, the striker having the benefit of the doubt (as where the contact
      is unseen)."""
    if reason is FoulReason.PUSH_STROKE and len(frame.touching) == 1:
        return frame.touching[0]
    if reason is FoulReason.BEFORE_SPOTTING and frame.spotting:
        return min(frame.spotting, key=_value)
    return None


def _penalty(fouls: list[tuple[FoulReason, tuple[int, ...]]], ball_on_value: int) -> int:
    """The penalty of a stroke: its highest foul (3.11(g))."""
    return max(penalty_value(reason, ball_on_value, values) for reason, values in fouls)


def _fouls_codes(fouls: list[tuple[FoulReason, tuple[int, ...]]], ball_on_value: int) -> tuple[str, ...]:
    """Reason codes, highest penalty first (only the highest counts, 3.11(g)); no duplicates."""
    ranked = sorted(fouls, key=lambda f: -penalty_value(f[0], ball_on_value, f[1]))
    seen: dict[str, None] = {}
    for reason, _ in ranked:
        seen.setdefault(reason.code, None)
    return tuple(seen)


def _table_at_start(frame: FrameState, stroke: StrokeLine) -> Table:
    """The table as the stroke began, which balls replaced (3.14(a)) stand as: the places its
    ``positions.before`` gives (less balls no longer on the table), else those earlier lines left.
    A cue ball first seen already running (``strike_unseen``) lay where the last stroke left it."""
    table = frame.table
    before = stroke.positions.before if stroke.positions else None
    if before is None:
        return table
    places = _without_balls_off_the_table(dict(before), table.reds, table.colours_on_cloth)
    if stroke.strike_unseen:
        places.pop(CUE_BALL, None)
        rested = table.cue_position()
        if rested is not None:
            places[CUE_BALL] = rested
    return replace(table, positions=tuple(places.items()))


def _without_balls_off_the_table(
    positions: dict[str, Point], reds: int, colours: Iterable[str]
) -> dict[str, Point]:
    """``positions`` less any colour not among ``colours`` (the colours on the table), and less
    every red when ``reds`` (the reds on the table) is none: a ball the log has potted for good or
    forced off cannot snooker, block a line or occupy a spot, wherever a position still places it
    (while reds remain, which red a stale place is of cannot be told)."""
    on_table = set(colours)
    return {
        b: xy
        for b, xy in positions.items()
        if ball_kind(b) == CUE_BALL or (ball_kind(b) == RED and reds > 0) or ball_kind(b) in on_table
    }


def _after_positions(frame: FrameState, stroke: StrokeLine, gone: tuple[str, ...]) -> dict[str, Point] | None:
    """Positions after the stroke (mm) without the balls potted or off the table, nor those already
    off it (see :func:`_without_balls_off_the_table`); None if unknown."""
    if stroke.positions is None or stroke.positions.after is None:
        return None
    reds_left = frame.table.reds - sum(1 for ball in gone if ball_kind(ball) == RED)
    after = _without_balls_off_the_table(
        dict(stroke.positions.after), reds_left, frame.table.colours_on_cloth
    )
    for ball in gone:
        after.pop(ball, None)
    if stroke.cue_ball != "on_table":
        after.pop(CUE_BALL, None)
    return after


def _respot(
    colours: list[str], positions: dict[str, Point] | None, geo: GeometryConfig
) -> tuple[tuple[tuple[str, Point | None], ...], dict[str, Point] | None]:
    """Where re-spotted colours go (3.7); positions only when the table's positions are known."""
    ordered = sorted(set(colours), key=COLOURS.index, reverse=True)
    if not ordered:
        return (), positions
    if positions is None:
        return tuple((c, None) for c in ordered), None
    cue = positions.get(CUE_BALL)
    spots = geometry_module.respot_positions(ordered, _object_balls(positions), config=geo, cue=cue)
    updated = dict(positions)
    updated.update(spots)
    return tuple((c, spots[c]) for c in ordered), updated


def _next_touching(
    stroke: StrokeLine, positions: dict[str, Point] | None, cue_on_table: bool, geo: GeometryConfig
) -> tuple[str, ...]:
    """Balls the cue ball rests against after the stroke: as logged, else from the positions."""
    if not cue_on_table:
        return ()
    if stroke.touching is not None:
        return stroke.touching
    if positions is not None and CUE_BALL in positions:
        return tuple(geometry_module.touching(positions[CUE_BALL], _object_balls(positions), geo))
    return ()


def _snookered_next(frame: FrameState, explicit: bool | None, geo: GeometryConfig) -> bool:
    """Free ball (3.10): is the next player snookered after the foul? ``frame`` is after the foul.

    A cue ball at rest against a ball on is never snookered: playing away from it counts as hitting
    it (3.8(c)(i)), so no ball not on can stop him hitting a ball on.
    """
    if explicit is not None:
        return explicit
    on_kinds = _could_be_on(frame.phase, frame.table, False)
    if any(ball_kind(b) in on_kinds for b in frame.touching):
        return False
    positions = frame.table.position_map()
    if positions is None:
        return False
    cue = None if frame.table.cue_in_hand else positions.get(CUE_BALL)
    if cue is None and not frame.table.cue_in_hand:
        return False
    balls = _object_balls(positions)
    on = _ids_of_kinds(balls, on_kinds)
    if not on:
        return False
    return bool(geometry_module.snookered(cue, balls, on, config=geo))


def _free_ball_snookers(frame_after: FrameState, free_ball: str, geo: GeometryConfig) -> bool:
    """3.10(b)(ii): the cue ball left snookered by the free ball on the next player's balls on."""
    positions = frame_after.table.position_map()
    if positions is None or frame_after.table.cue_in_hand or CUE_BALL not in positions:
        return False
    if frame_after.table.reds == 0 and frame_after.table.colours == ("pink", "black"):
        return False
    cue = positions[CUE_BALL]
    balls = _object_balls(positions)
    on_kinds = _could_be_on(frame_after.phase, frame_after.table, False)
    on = _ids_of_kinds(balls, on_kinds)
    if not on or ball_kind(free_ball) in on_kinds:
        return False
    if any(ball_kind(b) in on_kinds for b in geometry_module.touching(cue, balls, geo)):
        return False  # at rest against a ball on: not snookered (3.8(c)(i))
    # The effective snookering ball is the obstructing ball nearest the cue ball, and every one as
    # near (Section 2): the free ball among them snookers.
    effective = geometry_module.effective_snookering_balls(cue, balls, on, config=geo)
    return any(ball_kind(b) == free_ball for b in effective)


def _miss_geometry(
    frame: FrameState, stroke: StrokeLine, geo: GeometryConfig
) -> tuple[bool | None, bool | None]:
    """(clear path to any part of a ball on, full ball open) before the stroke, from positions.

    The stroke's ``positions.before`` when given, else where the previous stroke left the balls. A
    cue ball first seen already running (``strike_unseen``) lay where the previous stroke left it:
    its first place seen is not where the stroke was played from.
    """
    before = _table_at_start(frame, stroke).positions
    if before is None:
        return None, None
    # The colours standing on the cloth block lines, a colour wrongly spotted among them (3.7(c):
    # "są one w kolejnych zagraniach uznane za ustawione prawidłowo"), never on (it is not in
    # ``colours``, which ``_could_be_on`` reads).
    positions = _without_balls_off_the_table(dict(before), frame.table.reds, frame.table.colours_on_cloth)
    cue = None if frame.table.cue_in_hand else positions.get(CUE_BALL)
    if cue is None and not frame.table.cue_in_hand:
        return None, None
    balls = _object_balls(positions)
    on = _ids_of_kinds(balls, _could_be_on(frame.phase, frame.table, frame.free_ball))
    if not on:
        return None, None
    return bool(geometry_module.clear_path_to_any_part(cue, balls, on, config=geo)), bool(
        geometry_module.full_ball_available(cue, balls, on, config=geo)
    )


def _needs_snookers_either(frame: FrameState) -> bool:
    """Whether either side needs snookers (behind by more than the points remaining)."""
    return frame.needs_snookers(0) or frame.needs_snookers(1)


def _call_miss(
    match: MatchState,
    before: FrameState,
    after: FrameState,
    stroke: StrokeLine,
    view: _StrokeView,
) -> tuple[bool, bool, bool]:
    """Foul and a miss (3.14): (miss called, full ball was open, a line to a ball on was open or
    not known)."""
    hit_on = next((ball_kind(b) for b in view.first_contact if ball_kind(b) in view.on_kinds), None)
    if hit_on is not None and stroke.miss:
        raise LogError(
            f"miss: the cue ball first hit the {hit_on} (or played away from it, touching), a ball on;"
            " a foul and a miss is a failure to hit a ball on first (3.14)"
        )
    never = match.miss_rule == "off" or _foul_ends_frame(before)
    if stroke.miss is None and (view.contact_unseen or stroke.moving_at_strike):
        never = True  # not seen, or the places before were no resting places to judge from
    if never or hit_on is not None:
        return False, False, True
    clear, full = _miss_geometry(before, stroke, match.geometry)
    if stroke.clear_path is not None:
        clear = stroke.clear_path
    if stroke.full_ball is not None:
        full = stroke.full_ball
        if full and stroke.clear_path is None:
            # A full-ball contact open is a straight line open: the call stands over the geometry.
            clear = True
    if clear is False:
        # No straight line to any part of a ball on: a full-ball contact cannot be open (3.14(c)).
        full = False
    line_open = clear is not False
    if stroke.miss is not None:
        return stroke.miss, bool(stroke.miss if full is None else full), line_open
    chain = before.miss_chain
    if before.replayed_from is not None and chain is not None and chain.full_ball:
        return True, True, line_open
    if not clear:
        return False, False, line_open
    if _needs_snookers_either(before) or _needs_snookers_either(after):
        return False, False, line_open
    return True, bool(full), line_open


def _lot_shown_by(match: MatchState, frame: FrameState, player: int | None) -> FrameState:
    """A re-spotted black whose lot was not logged: the first stroke shows who plays first (3.4(b)).

    Nobody is to play before the lot, so a stroke naming its player is that player's by the lot
    (four-handed, by his side's choice, 3.17(d)), never out of turn; without a player it is the
    player to play as the frame stands (a log with no lot and no players, e.g. from video).
    """
    if player is None:
        return replace(frame, awaiting_lot=False)
    if player >= len(match.players):
        raise LogError(f"player: no player {player} among {len(match.players)}")
    return replace(frame, awaiting_lot=False, striker=player)


def _stroke(match: MatchState, stroke: StrokeLine, config: RefereeConfig) -> tuple[MatchState, Outcome]:
    """Rule one stroke: the choice it shows of a decision left open (announced with it), then the
    stroke itself."""
    awaiting_lot = match.frame.awaiting_lot
    replaced = _balls_replaced(match.frame, stroke, config)
    match, chosen, choice = _implicit_play(match, stroke.player, replaced)
    match, outcome = _stroke_chosen(match, stroke, config)
    settled = choice if choice is not None else ("lot" if awaiting_lot else None)
    match = with_frame(match, settled_by_stroke=settled)
    if choice is None:
        return match, outcome
    return match, replace(outcome, announcements=(*chosen, *outcome.announcements), decision=choice)


def _stroke_chosen(
    match: MatchState, stroke: StrokeLine, config: RefereeConfig
) -> tuple[MatchState, Outcome]:
    """Rule one stroke with no decision open: fouls, scoring, re-spotting, end of frame (3.3-3.14)."""
    if match.frame.awaiting_lot:
        match = replace(match, frame=_lot_shown_by(match, match.frame, stroke.player))
    frame = match.frame
    _check_stroke_against_table(frame.table, stroke)
    view = _resolve(frame, stroke, config)
    fouls = _stroke_fouls(match, frame, stroke, view, config)
    offender = stroke.player if stroke.player is not None else frame.striker
    snapshot = Snapshot(
        _table_at_start(frame, stroke),
        frame.phase,
        frame.touching,
        frame.striker,
        frame.break_points,
        frame.free_ball,
    )
    if stroke.fell_from_edge:
        _check_miss_call(stroke, fouls)
        if stroke.condoned:
            codes = _condoned_codes(fouls, view)
            match, outcome = _edge_fall_in_stroke(match, frame, snapshot, [], view, offender, stroke)
            return match, _with_condoned(outcome, codes)
        return _edge_fall_in_stroke(match, frame, snapshot, fouls, view, offender, stroke)

    points, scored, stays_down = (0, [], set()) if fouls else _points_scored(frame, stroke, view)
    new_table, respotted, after_positions = _table_after_stroke(frame, stroke, stays_down, match.geometry)
    if view.free_ball is not None and not points and not fouls:
        provisional = replace(frame, table=new_table, phase=_red_or_colours_in_order(new_table.reds))
        if _free_ball_snookers(provisional, view.free_ball, match.geometry):
            fouls.append((FoulReason.FREE_BALL_SNOOKER, ()))
    _check_miss_call(stroke, fouls)
    if stroke.condoned:
        return _condoned_stroke(match, frame, stroke, view, fouls)

    if not fouls:
        return _fair_stroke(match, frame, stroke, points, scored, new_table, respotted, after_positions)
    return _foul_stroke(
        match, frame, stroke, view, fouls, offender, new_table, snapshot, respotted, after_positions
    )


def _condoned_codes(fouls: list[tuple[FoulReason, tuple[int, ...]]], view: _StrokeView) -> tuple[str, ...]:
    """The codes of the fouls a condoned stroke committed (3.11(c)); refuses a stroke without one."""
    if not fouls:
        raise LogError("condoned: the stroke broke no rule, so there is no foul to condone (3.11(c))")
    return _fouls_codes(fouls, view.ball_on_value)


def _with_condoned(outcome: Outcome, codes: tuple[str, ...]) -> Outcome:
    return replace(outcome, corrections=(Correction.CONDONED.code, *outcome.corrections), condoned=codes)


def _condoned_stroke(
    match: MatchState,
    frame: FrameState,
    stroke: StrokeLine,
    view: _StrokeView,
    fouls: list[tuple[FoulReason, tuple[int, ...]]],
) -> tuple[MatchState, Outcome]:
    """3.11(c): a foul neither called nor claimed before the next stroke is condoned. The stroke is
    ruled as if it broke no rule: the balls on it potted score and the break goes on, else the turn
    passes; the balls stay where they came to rest (colours re-spotted, reds down, the cue ball in
    hand if it left the table); no penalty, no decision, no free ball, no miss. Played out of turn,
    it is its player's stroke: his points, his turn, the order of play going on from him."""
    codes = _condoned_codes(fouls, view)
    if stroke.player is not None and stroke.player != frame.striker:
        frame = replace(frame, striker=stroke.player)
    points, scored, stays_down = _points_scored(frame, stroke, view)
    new_table, respotted, after_positions = _table_after_stroke(frame, stroke, stays_down, match.geometry)
    match, outcome = _fair_stroke(match, frame, stroke, points, scored, new_table, respotted, after_positions)
    return match, _with_condoned(outcome, codes)


def _check_stroke_against_table(table: Table, stroke: StrokeLine) -> None:
    """Refuse a stroke whose balls do not fit the table it was played on: a ball hit, potted, forced
    off or fallen from a pocket's edge that is not there, a ball that fell from the edge before the
    stroke could hit it (3.9(b)), a touching ball that left the table in the stroke."""
    _check_balls_on_table(table, stroke)
    for ball in stroke.fell_from_edge:
        if not table.has(ball):
            raise LogError(f"fell_from_edge: the {ball_kind(ball)} is not on the table")
        kind = ball_kind(ball)
        if kind == RED:  # a plain red names any red: only the same red by its id clashes
            hit = ball != RED and ball in stroke.first_contact
        else:
            hit = kind in map(ball_kind, stroke.first_contact)
        if hit:
            raise LogError(
                f"first_contact: the {kind} fell from the edge before a ball in the stroke"
                " could hit it (3.9(b))"
            )
    if not stroke.fell_from_edge:
        _check_touching(table, stroke)


def _points_scored(
    frame: FrameState, stroke: StrokeLine, view: _StrokeView
) -> tuple[int, list[str], set[str]]:
    """What a stroke without a foul scores: (points, the balls that scored them, the colours that
    stay down). On a red every red potted counts; on a colour the nominated one; in the ascending
    order the lowest colour, which stays down, worth its value however many balls on went in."""
    scored: list[str] = []
    points = 0
    stays_down: set[str] = set()
    if frame.phase is Phase.RED:
        scored = [b for b in stroke.potted if ball_kind(b) in view.on_kinds]
        points = len(scored) * BALL_VALUES[RED]
    elif frame.phase is Phase.COLOUR:
        scored = [b for b in stroke.potted if ball_kind(b) == view.nominated]
        points = sum(_value(b) for b in scored)
    else:
        lowest = frame.table.lowest_colour
        scored = [b for b in stroke.potted if ball_kind(b) in view.on_kinds]
        if scored:
            points = BALL_VALUES[lowest] if lowest else 0
        if lowest in [ball_kind(b) for b in stroke.potted]:
            stays_down.add(lowest)
            scored = [lowest]
    return points, scored, stays_down


def _table_after_stroke(
    frame: FrameState, stroke: StrokeLine, stays_down: set[str], geometry: GeometryConfig
) -> tuple[Table, tuple[tuple[str, Point | None], ...], dict[str, Point] | None]:
    """The table once the balls have stopped: (the table, the colours re-spotted with their spots,
    the balls' places where known). Reds potted or forced off stay off; colours are re-spotted
    (3.7) but for those in ``stays_down``."""
    table = frame.table
    gone = (*stroke.potted, *stroke.off_table)
    reds_after = table.reds - sum(1 for b in gone if ball_kind(b) == RED)
    colours_gone = [ball_kind(b) for b in gone if ball_kind(b) != RED]
    # 3.7(b): a colour wrongly spotted was potted for good already; once it leaves the table it stays off.
    wrongly_gone = {c for c in colours_gone if c in table.wrongly_spotted}
    respot_colours = [c for c in colours_gone if c not in stays_down and c not in wrongly_gone]
    after_positions = _after_positions(frame, stroke, gone)
    respotted, after_positions = _respot(respot_colours, after_positions, geometry)
    colours_after = _sorted_colours([c for c in table.colours if c not in colours_gone] + respot_colours)
    new_table = Table(
        reds=reds_after,
        colours=colours_after,
        cue_in_hand=stroke.cue_ball != "on_table",
        positions=None if after_positions is None else tuple(sorted(after_positions.items())),
        wrongly_spotted=tuple(c for c in table.wrongly_spotted if c not in wrongly_gone),
        not_spotted=table.not_spotted,
    )
    return new_table, respotted, after_positions


def _fair_stroke(
    match: MatchState,
    frame: FrameState,
    stroke: StrokeLine,
    points: int,
    scored: list[str],
    new_table: Table,
    respotted: tuple[tuple[str, Point | None], ...],
    after_positions: dict[str, Point] | None,
) -> tuple[MatchState, Outcome]:
    """A stroke without a foul: the points to the striker's side; a ball scored continues the break
    (its total called), none ends the turn; a touching ball called (3.8(a)); a score on the last
    black, on a re-spotted black or that clears the table ends the frame (3.4)."""
    striker = frame.striker
    announcements: list[str] = []
    side = match.side_of(striker)
    if points:
        phase = _phase_after_score(frame.phase, new_table.reds)
        break_points = frame.break_points + points
        next_striker = striker
        announcements.append(announce.number_words(break_points))
    else:
        phase = _red_or_colours_in_order(new_table.reds)
        break_points = 0
        next_striker = frame.next_after(striker)
    new_frame = replace(
        frame,
        scores=_add(frame.scores, side, points),
        table=new_table,
        phase=phase,
        break_points=break_points,
        striker=next_striker,
        nominated=None,
        free_ball=False,
        pending=None,
        miss_chain=None,
        replayed_from=None,
        warning=False,
        highest_break=_highest(frame, side, break_points),
        player_highest=_player_highest(frame, striker, break_points),
    )
    cue_on_table = stroke.cue_ball == "on_table"
    new_frame = replace(
        new_frame, touching=_next_touching(stroke, after_positions, cue_on_table, match.geometry)
    )
    touching_called = _touching_call(new_frame, announcements)
    if points and (frame.table.only_black_left or frame.respotted_black or new_table.empty):
        match, new_frame = _frame_end(match, new_frame, announcements)
    return replace(match, frame=new_frame), Outcome(
        points=points,
        respotted=_settled_respots(new_frame, respotted),
        announcements=tuple(announcements),
        scored=tuple(scored),
        touching_called=touching_called,
    )


def _phase_after_score(phase: Phase, reds: int) -> Phase:
    """What the striker is on after scoring: a colour after a red; after a colour, a red while reds
    remain, else the colours in order (3.3(e)-(f)); in the order, the next colour."""
    if phase is Phase.RED:
        return Phase.COLOUR
    if phase is Phase.COLOUR:
        return _red_or_colours_in_order(reds)
    return Phase.ASCENDING


def _foul_ends_frame(frame: FrameState) -> bool:
    """A foul with only the black left, or on a re-spotted black, ends the frame (3.4(a)-(b))."""
    return frame.table.only_black_left or frame.respotted_black


def _penalised(match: MatchState, frame: FrameState, offender: int, penalty: int, table: Table) -> FrameState:
    """``frame`` after a foul by ``offender``: the penalty to the other side, the break over, the next
    player to play on ``table``, on a red while reds remain; the nomination, free ball, open decision
    and replay lapse. What else a foul clears (the miss chain, the warning) the caller sets."""
    return replace(
        frame,
        scores=_add(frame.scores, 1 - match.side_of(offender), penalty),
        table=table,
        phase=_red_or_colours_in_order(table.reds),
        break_points=0,
        striker=frame.next_after(offender),
        nominated=None,
        free_ball=False,
        pending=None,
        replayed_from=None,
    )


def _check_miss_call(stroke: StrokeLine, fouls: list[tuple[FoulReason, tuple[int, ...]]]) -> None:
    """Refuse a stroke whose ``miss`` calls a foul and a miss where the stroke broke no rule (3.14)."""
    if stroke.miss and not fouls:
        raise LogError("miss: the stroke broke no rule, and a foul and a miss is a foul (3.14)")


def _foul_stroke(
    match: MatchState,
    frame: FrameState,
    stroke: StrokeLine,
    view: _StrokeView,
    fouls: list[tuple[FoulReason, tuple[int, ...]]],
    offender: int,
    new_table: Table,
    snapshot: Snapshot,
    respotted: tuple[tuple[str, Point | None], ...],
    after_positions: dict[str, Point] | None,
) -> tuple[MatchState, Outcome]:
    penalty = _penalty(fouls, view.ball_on_value)
    codes = _fouls_codes(fouls, view.ball_on_value)
    touching = _next_touching(stroke, after_positions, stroke.cue_ball == "on_table", match.geometry)
    after = replace(
        _penalised(match, frame, offender, penalty, new_table),
        warning=False,
        last_foul=None,
        touching=touching,
    )
    return _foul_sequel(match, frame, after, stroke, view, offender, penalty, codes, snapshot, respotted)


def _foul_sequel(
    match: MatchState,
    frame: FrameState,
    after: FrameState,
    stroke: StrokeLine,
    view: _StrokeView,
    offender: int,
    penalty: int,
    codes: tuple[str, ...],
    snapshot: Snapshot,
    respotted: tuple[tuple[str, Point | None], ...],
    balls_replaced: bool = False,
) -> tuple[MatchState, Outcome]:
    """What follows a foul in a stroke, ``after`` being the frame with the penalty scored and the
    next player to play: the frame's end on the last black or a re-spotted black, the free ball
    (3.10), the miss (3.14) with its count, warning and the frame awarded on the third, and the
    options open to the next player. ``balls_replaced``: a ball fell from a pocket's edge in the
    stroke, so all balls went back where they were (3.9(b)): said, and no touching ball called anew."""
    frame_ends = _foul_ends_frame(frame)
    free_ball = not frame_ends and _snookered_next(after, stroke.free_ball, match.geometry)
    # The next player's free ball counts in the points remaining after the stroke (Section 2), so it
    # counts when judging whether the stroke left either player needing snookers (3.14(b)).
    miss, full_ball, line_open = _call_miss(match, frame, replace(after, free_ball=free_ball), stroke, view)
    announcements = [announce.FOUL_AND_A_MISS if miss else announce.FOUL, announce.penalty_call(penalty)]
    if balls_replaced:
        announcements.append(announce.BALLS_REPLACED)
    after = replace(after, last_foul=LastFoul(offender, penalty, codes, miss))
    if frame_ends:
        match, after = _frame_end(match, after, announcements)
        return replace(match, frame=after), _foul_outcome(
            penalty, codes, miss, _settled_respots(after, respotted), announcements, offender
        )

    chain = _miss_chain(frame, offender, miss, full_ball, line_open)
    if chain is not None and chain.full_ball and chain.count >= MISS_FRAME_AWARDED_AT:
        after = replace(after, miss_chain=chain)
        match, after = _frame_given(match, after, 1 - match.side_of(offender), announcements)
        return replace(match, frame=after), _foul_outcome(
            penalty, codes, miss, _settled_respots(after, ()), announcements, offender
        )

    options = OPTIONS_AFTER_MISS if miss else OPTIONS_AFTER_FOUL
    if free_ball:
        announcements.append(announce.FREE_BALL)
    # 3.14(c): the warning is given when the balls are replaced after this miss ("jeśli zostanie
    # nakazana gra z pozycji poprzedniej"), not with the miss: until then it is only due
    # (``FrameState.warning_due``), and a choice to play on lets it lapse unsaid.
    after = replace(
        after,
        pending=PendingDecision(offender, options, snapshot if miss else None),
        miss_chain=chain,
        free_ball=free_ball,
        warning=False,
    )
    touching_called = () if balls_replaced else _touching_call(after, announcements)
    return replace(match, frame=after), replace(
        _foul_outcome(penalty, codes, miss, respotted, announcements, offender),
        touching_called=touching_called,
    )


def _miss_chain(
    frame: FrameState, offender: int, miss: bool, full_ball: bool, line_open: bool
) -> MissChain | None:
    """The misses from the same position after this stroke (3.14(c)): a miss made from a position
    replaced after the offender's own miss adds to his count; any other miss starts one."""
    if not miss:
        return None
    previous = frame.miss_chain if frame.replayed_from is not None else None
    if previous is not None and previous.offender == offender:
        return MissChain(previous.count + 1, previous.full_ball, offender, line_open)
    return MissChain(1, full_ball, offender, line_open)


def _foul_outcome(
    penalty: int,
    codes: tuple[str, ...],
    miss: bool,
    respotted: tuple[tuple[str, Point | None], ...],
    announcements: list[str],
    offender: int,
) -> Outcome:
    return Outcome(
        foul=True,
        penalty=penalty,
        fouls=codes,
        miss=miss,
        respotted=respotted,
        announcements=tuple(announcements),
        offender=offender,
    )


def _touching_call(frame: FrameState, announcements: list[str]) -> tuple[str, ...]:
    """3.8(a): TOUCHING BALL when the cue ball rests against a ball that is or can be on."""
    if not frame.touching or frame.over:
        return ()
    kinds = _could_be_on(frame.phase, frame.table, frame.free_ball)
    named = tuple(b for b in frame.touching if ball_kind(b) in kinds)
    if named:
        announcements.append(announce.TOUCHING_BALL)
    return named


def _edge_fall_in_stroke(
    match: MatchState,
    frame: FrameState,
    snapshot: Snapshot,
    fouls: list[tuple[FoulReason, tuple[int, ...]]],
    view: _StrokeView,
    offender: int,
    stroke: StrokeLine,
) -> tuple[MatchState, Outcome]:
    """3.9(b): balls replaced; no foul → the striker plays again; foul → penalty and the options
    after a foul, a free ball included when the replaced cue ball is snookered (3.10). A foul by
    failing to hit a ball on is a foul and a miss as in any stroke (3.14): the ball that fell does
    not excuse it, so the miss counts towards the three from the same position."""
    restored = replace(frame, table=snapshot.table, nominated=None)
    if not fouls:
        return replace(match, frame=restored), Outcome(
            announcements=(announce.BALLS_REPLACED, announce.PLAY_AGAIN)
        )
    penalty = _penalty(fouls, view.ball_on_value)
    codes = _fouls_codes(fouls, view.ball_on_value)
    after = replace(
        _penalised(match, frame, offender, penalty, snapshot.table), miss_chain=None, warning=False
    )
    return _foul_sequel(
        match, frame, after, stroke, view, offender, penalty, codes, snapshot, (), balls_replaced=True
    )


# ---------------------------------------------------------------------------------------------
# Decisions, nominations, fouls outside a stroke, and the rest


def _decision(match: MatchState, event: DecisionLine) -> tuple[MatchState, Outcome]:
    return _decide(match, event.choice)


def _decide(match: MatchState, choice: str) -> tuple[MatchState, Outcome]:
    frame = match.frame
    pending = frame.pending
    if pending is None:
        taken = _CHOICE_TAKEN.get(frame.settled_by_stroke or "")
        if taken is not None:
            raise LogError(
                f"no decision is open: with none logged after the foul, the stroke that followed was"
                f" taken as {taken}; undo or amend that stroke to decide otherwise"
            )
        raise LogError("no decision is open: a decision follows a foul")
    if choice not in pending.options:
        raise LogError(f"{choice!r} is not open; the options are {', '.join(pending.options)}")
    announcements: list[str] = []
    if choice == "play":
        frame = replace(frame, pending=None, miss_chain=None, warning=False, replayed_from=None)
    elif choice == "play_again" and pending.position_kept:
        # 3.14(d)(i), (iii): asked to play again from the position left by a foul made before any
        # stroke of a replay that did not move the cue ball, the offender plays from the position the
        # replacement put back, so the misses from that position go on counting and an earlier
        # warning stays in force.
        warning = _warning_due(frame.miss_chain)
        frame = replace(
            frame,
            pending=None,
            striker=pending.offender,
            free_ball=False,
            replayed_from=pending.snapshot,
            warning=warning,
        )
        if warning:
            announcements.append(announce.MISS_WARNING)
    elif choice == "play_again":
        frame = replace(
            frame,
            pending=None,
            striker=pending.offender,
            free_ball=False,
            miss_chain=None,
            warning=False,
            replayed_from=None,
            touching=frame.touching,
        )
    else:
        snap = pending.snapshot
        if snap is None:
            raise LogError("nothing to replace: the position before the foul is not known")
        warning = _warning_due(frame.miss_chain)
        frame = replace(
            frame,
            pending=None,
            striker=pending.offender,
            table=snap.table,
            phase=snap.phase,
            touching=snap.touching,
            free_ball=snap.free_ball,
            replayed_from=snap,
            warning=warning,
            break_points=0,
        )
        announcements.append(announce.BALLS_REPLACED)
        if warning:
            announcements.append(announce.MISS_WARNING)
    return replace(match, frame=frame), Outcome(announcements=tuple(announcements), decision=choice)


def _warning_due(chain: MissChain | None) -> bool:
    """3.14(c): misses from the same position with a full ball open have reached the warning that
    a third awards the frame."""
    return chain is not None and chain.warning_due


def _nominate(match: MatchState, event: NominateLine) -> tuple[MatchState, Outcome]:
    match, _, choice = _implicit_play(match)
    frame = match.frame
    kind = ball_kind(event.ball)
    _check_nomination(frame, event.ball, "nominate")
    return replace(match, frame=replace(frame, nominated=kind)), Outcome(decision=choice)


def _check_nomination(frame: FrameState, ball: str, what: str) -> None:
    """Refuse a nomination no striker can make now (Section 2, 3.3(f), 3.10(a)): a ball off the table;
    without a free ball, anything while on a red, a red after a red, another colour than the one on
    in the ascending phase."""
    kind = ball_kind(ball)
    if not frame.table.has(ball):
        raise LogError(f"{what}: the {kind} is not on the table")
    if frame.free_ball:
        return
    if frame.phase is Phase.RED:
        raise LogError(f"{what}: the striker is on a red; there is nothing to nominate")
    if frame.phase is Phase.COLOUR and kind == RED:
        raise LogError(f"{what}: after a red the nominated ball must be a colour")
    if frame.phase is Phase.ASCENDING and kind != frame.table.lowest_colour:
        raise LogError(f"{what}: the {frame.table.lowest_colour} is on; no other ball can be nominated")


def _foul_line(match: MatchState, event: FoulLine) -> tuple[MatchState, Outcome]:
    """A foul called outside a stroke: by the striker, it ends the turn as a foul in a stroke does
    (with a decision open, the striker is the player who was to choose: he chose to play, and the
    outcome says so); by another player, it is penalised as if he were striker and the order of play
    stays."""
    match, outcome, choice = _foul_line_chosen(match, event)
    return match, outcome if choice is None else replace(outcome, decision=choice)


def _foul_line_chosen(match: MatchState, event: FoulLine) -> tuple[MatchState, Outcome, str | None]:
    """:func:`_foul_line`'s ruling, and the choice the line was taken as (None: none was open)."""
    try:
        reason = FoulReason.from_code(event.reason)
    except ValueError as exc:
        raise LogError(f"foul: {exc}") from None
    if event.player is not None and event.player >= len(match.players):
        raise LogError(f"foul.player: no player {event.player} among {len(match.players)}")
    frame = match.frame
    # 3.17(e): partners may not confer while one of them is the striker at the table, nor during his
    # visit: the striker's partner conferring means the striker conferred, the striker's own foul.
    # While a decision after a foul is pending, the player to decide is not yet at the table: such
    # a line keeps the ruling of a foul by a player not to play.
    partner_confers = (
        reason is FoulReason.CONFERRING
        and event.player is not None
        and not frame.awaiting_lot
        and frame.pending is None
        and event.player != frame.striker
        and match.side_of(event.player) == match.side_of(frame.striker)
    )
    if event.player is None:
        _require_lot(frame, "foul")
    striker_fouls = event.player is None or event.player == frame.striker or partner_confers
    choice = None
    if striker_fouls:
        match, _, choice = _implicit_play(match)
        frame = match.frame
    offender = frame.striker if event.player is None or partner_confers else event.player
    _check_foul_ball(frame, match.reds, reason, event.ball, "foul.ball")
    _check_called_foul(frame, reason, frame.nominated is not None, striker_fouls, "foul")
    if reason is FoulReason.TOUCHED_BALL and event.ball == CUE_BALL and frame.table.cue_in_hand:
        # 3.12(b) penalises touching "bili w grze" (a ball in play); 3.5(b): a cue ball in hand
        # touched while it is being placed "nie jest jeszcze w grze" (a stroke attempted from hand
        # is a stroke line).
        raise LogError(
            "foul: the cue ball is in hand, not yet in play (3.5(b)): touching it is no foul (3.12(b));"
            " a stroke attempted from hand is a stroke line"
        )
    fouls, value = _fouls_outside_stroke(frame, reason, event.ball, striker_fouls)
    penalty = _penalty(fouls, value)
    codes = _fouls_codes(fouls, value)
    announcements = [announce.FOUL, announce.penalty_call(penalty)]
    last = LastFoul(offender, penalty, codes, False)
    if not striker_fouls:
        # 3.2(b), 3.14(h): penalised as if striker; the order of play is unchanged. With only the
        # black left (or on a re-spotted black) that foul, like any, ends the frame (3.4(a)-(b)).
        after = replace(
            frame, scores=_add(frame.scores, 1 - match.side_of(offender), penalty), last_foul=last
        )
        if _foul_ends_frame(frame):
            return (*_frame_ended_by_foul(match, after, penalty, codes, announcements, offender), choice)
        return (
            replace(match, frame=after),
            _foul_outcome(penalty, codes, False, _settled_respots(after, ()), announcements, offender),
            choice,
        )
    cue_moved = reason is FoulReason.TOUCHED_BALL and event.ball == CUE_BALL
    after = _after_striker_foul(match, frame, offender, penalty, last, cue_moved)
    if _foul_ends_frame(frame):
        return (*_frame_ended_by_foul(match, after, penalty, codes, announcements, offender), choice)
    if _snookered_next(after, event.free_ball, match.geometry):
        after = replace(after, free_ball=True)
        announcements.append(announce.FREE_BALL)
    return (
        replace(match, frame=after),
        _foul_outcome(penalty, codes, False, (), announcements, offender),
        choice,
    )


def _fouls_outside_stroke(
    frame: FrameState, reason: FoulReason, ball: str | None, striker_fouls: bool
) -> tuple[list[tuple[FoulReason, tuple[int, ...]]], int]:
    """The fouls of a foul line with the values of the balls they concern, and the value of the ball
    on: the foul called, and with it the striker's foul before a colour was nominated after a red."""
    nominated = frame.nominated if frame.phase is Phase.COLOUR else None
    free_ball = frame.nominated if frame.free_ball else None
    value = _ball_on_value(frame, nominated, free_ball)
    # The cue ball has no value of its own (the ball on's counts); the nominated free ball counts
    # as the ball on (3.10(a)(ii)), as in a stroke. A push stroke called without its ball while the
    # cue ball rested against exactly one ball concerns that ball (3.8(b)), as in a stroke.
    if ball is None and striker_fouls:
        ball = _unnamed_ball_concerned(frame, reason)
    concerned: tuple[int, ...] = ()
    if ball not in (None, CUE_BALL):
        concerned = (value if ball_kind(ball) == free_ball else _value(ball),)
    fouls = [(reason, concerned)]
    if striker_fouls and frame.phase is Phase.COLOUR and nominated is None:
        fouls.append((FoulReason.FOUL_BEFORE_NOMINATION, ()))
    return fouls, value


def _after_striker_foul(
    match: MatchState, frame: FrameState, offender: int, penalty: int, last: LastFoul, cue_moved: bool
) -> FrameState:
    """The frame after the striker's foul outside a stroke, with the next player's options open.

    ``cue_moved``: the foul touched the cue ball, so it no longer lies where it did: its place is
    not known (no free ball is judged from the old one, 3.10), and the position the foul left is not
    the one a replacement after a miss put back (3.14(d)(i), see :func:`_decide`)."""
    replay = frame.replayed_from
    # 3.14(d): all moved balls may be replaced again only where the position was replaced under
    # 3.14(b), a line to a ball on open; after a miss called without one it is an ordinary foul.
    chain = frame.miss_chain
    replayable = replay is not None and (chain is None or chain.line_open)
    options = OPTIONS_AFTER_MISS if replayable else OPTIONS_AFTER_FOUL
    phase = _red_or_colours_in_order(frame.table.reds)
    # 3.14(d): no stroke was made, so the balls lie where the replacement put them; a play-again from
    # there is a replay from the same position when the ball on is the same too (a free ball the
    # offender had there lapses with the play-again, 3.10(f), so not then) and the foul left the cue
    # ball where it was: "z pozycji zastanej na stole" (d)(i), "在白球停下之位置" (where the cue ball
    # came to rest), is another position once the foul moved the cue ball.
    kept = (
        replayable
        and replay is not None
        and replay.phase is phase
        and not replay.free_ball
        and chain is not None
        and not cue_moved
    )
    table = frame.table
    positions = table.position_map()
    if cue_moved and positions is not None and CUE_BALL in positions:
        del positions[CUE_BALL]
        table = replace(table, positions=tuple(positions.items()))
    return replace(
        _penalised(match, frame, offender, penalty, table),
        pending=PendingDecision(offender, options, replay, position_kept=kept),
        miss_chain=frame.miss_chain if replayable else None,
        last_foul=last,
    )


def _frame_ended_by_foul(
    match: MatchState,
    after: FrameState,
    penalty: int,
    codes: tuple[str, ...],
    announcements: list[str],
    offender: int,
) -> tuple[MatchState, Outcome]:
    """A foul outside a stroke with only the black left or on a re-spotted black: the frame ends on
    the scores with the penalty added (3.4(a)-(b)), no decision left open."""
    match, after = _frame_end(match, replace(after, pending=None), announcements)
    return replace(match, frame=after), _foul_outcome(
        penalty, codes, False, _settled_respots(after, ()), announcements, offender
    )


def _require_lot(frame: FrameState, line_type: str) -> None:
    """Refuse a line meant for the player to play while the lot for a re-spotted black is undrawn:
    nobody is to play until the lot (3.4(b)), so the line must name its player."""
    if frame.awaiting_lot:
        raise LogError(
            f"{line_type}: nobody is to play until the lot for the re-spotted black is drawn (3.4(b));"
            " name the player"
        )


def _concede(match: MatchState, event: ConcedeLine) -> tuple[MatchState, Outcome]:
    frame = match.frame
    if event.player is None:
        _require_lot(frame, "concede")
    player = frame.striker if event.player is None else event.player
    if player >= len(match.players):
        raise LogError(f"concede.player: no player {player} among {len(match.players)}")
    if event.match:
        return _concede_match(match, player)
    announcements: list[str] = []
    match, frame = _frame_given(match, frame, 1 - match.side_of(player), announcements)
    return replace(match, frame=frame), Outcome(
        respotted=_settled_respots(frame, ()), announcements=tuple(announcements)
    )


def _concede_match(match: MatchState, player: int) -> tuple[MatchState, Outcome]:
    """``player`` concedes the match (1(F)-(G)): the frame in play, if any, is conceded to the other
    side (1(F); no re-spotted black follows it, the match being over), and that side is awarded the
    frames it still needs to win (a match on frames: up to ``frames_to_win``; on aggregate points:
    every frame not played, scoring nothing) and the match, whatever the score or the aggregate."""
    winner = 1 - match.side_of(player)
    announcements: list[str] = []
    frame = match.frame
    if not frame.over:
        to_play = frame.striker
        match, frame = _close_frame(match, frame, winner, announcements)
        # No frame follows, so no breaker is named: the player who was to play stays, as when a
        # frame's end ends the match.
        frame = replace(frame, striker=to_play)
    frames = list(match.frames)
    if match.aggregate:
        awarded = max(0, match.best_of - match.frames_played)
    else:
        awarded = max(0, match.frames_to_win - frames[winner])
    frames[winner] += awarded
    calls = {announce.match_call(_side_name(match, side)) for side in (0, 1)}
    announcements = [a for a in announcements if a not in calls]
    announcements += [announce.MATCH_CONCEDED, announce.match_call(_side_name(match, winner))]
    match = replace(
        match,
        frames=(frames[0], frames[1]),
        over=True,
        winner=winner,
        conceded=(player, match.side_of(player), awarded),
    )
    return replace(match, frame=frame), Outcome(
        announcements=tuple(announcements), corrections=(Correction.MATCH_CONCEDED.code,)
    )


def _spot_error(match: MatchState, event: SpotErrorLine) -> tuple[MatchState, Outcome]:
    """3.7(a)-(c): a colour the referee spotted wrongly, or left off the table, as it happened
    (``corrected`` false: the balls stand so for the strokes after it, which count as played, 3.7(c))
    or as found and put right (removed, or spotted, without penalty: the striker is not answerable
    for the referee's spotting, 3.7(a)). No penalty either way, the turn and the break unchanged."""
    frame = match.frame
    table = frame.table
    ball = ball_kind(event.ball)
    positions = table.position_map()
    if positions is not None:
        positions.pop(ball, None)
    respotted: tuple[tuple[str, Point | None], ...] = ()
    announcements: tuple[str, ...] = ()
    if event.error == "wrongly_spotted":
        if ball in table.colours:
            raise LogError(
                f"spot_error: the {ball} is still in play (re-spotted until potted in the ascending"
                " order, 3.7), so it cannot be wrongly spotted"
            )
        standing = [c for c in table.wrongly_spotted if c != ball]
        if event.corrected:
            code, announcements = Correction.WRONGLY_SPOTTED_REMOVED, (announce.BALL_REMOVED,)
        else:
            if ball in table.wrongly_spotted:
                raise LogError(f"spot_error: the {ball} already stands wrongly spotted")
            positions = _placed(ball, event.position, positions, match.geometry)[1]
            standing.append(ball)
            code = Correction.WRONGLY_SPOTTED
        table = replace(table, wrongly_spotted=_sorted_colours(standing))
    else:
        if ball not in table.colours:
            raise LogError(f"spot_error: the {ball} was potted for good; it is not spotted again (3.7(b))")
        missing = [c for c in table.not_spotted if c != ball]
        if event.corrected:
            place, positions = _placed(ball, event.position, positions, match.geometry)
            respotted = ((ball, place),)
            code, announcements = Correction.MISSING_COLOUR_SPOTTED, (announce.BALL_SPOTTED,)
        else:
            if ball in table.not_spotted:
                raise LogError(f"spot_error: the {ball} is already left off the table")
            missing.append(ball)
            code = Correction.NOT_SPOTTED
        table = replace(table, not_spotted=_sorted_colours(missing))
    if positions is not None:
        table = replace(table, positions=tuple(sorted(positions.items())))
    return replace(match, frame=replace(frame, table=table)), Outcome(
        respotted=respotted, announcements=announcements, corrections=(code.code,)
    )


def _placed(
    ball: str, position: Point | None, positions: dict[str, Point] | None, geo: GeometryConfig
) -> tuple[Point | None, dict[str, Point] | None]:
    """Where a colour put on the table by hand goes: ``position`` as logged, else its spot as 3.7(d)-(h)
    gives it (where the table's positions are known); with the positions after."""
    if positions is None:
        return position, None
    if position is not None:
        return position, {**positions, ball: position}
    spotted, updated = _respot([ball], positions, geo)
    return spotted[0][1], updated


def _respotted_black(match: MatchState, event: RespottedBlackLine) -> tuple[MatchState, Outcome]:
    frame = match.frame
    if not frame.respotted_black:
        raise LogError("respotted_black: there is no re-spotted black to play (3.4)")
    if not frame.awaiting_lot:
        if frame.settled_by_stroke == "lot":
            raise LogError(
                "respotted_black: with no lot logged, the stroke that followed was taken as the first"
                " player's (3.4(b)); undo or amend that stroke to log the lot"
            )
        raise LogError("respotted_black: the lot for the re-spotted black has already been drawn (3.4(b))")
    if event.first >= len(match.players):
        raise LogError(f"respotted_black.first: no player {event.first} among {len(match.players)}")
    frame = replace(
        frame, striker=event.first, awaiting_lot=False, table=replace(frame.table, cue_in_hand=True)
    )
    return replace(match, frame=frame), Outcome()


def _rerack(match: MatchState, event: RerackLine) -> tuple[MatchState, Outcome]:
    """3.16: scores cancelled, balls re-racked, the same player breaks, the same order of play."""
    frame = _racked_frame(match.frame.number, match.frame.order, match.reds)
    return replace(match, frame=frame), Outcome(announcements=(announce.RE_RACK,))


def _edge_fall(match: MatchState, event: EdgeFallLine) -> tuple[MatchState, Outcome]:
    """3.9(a): a ball (the cue ball too) falls in by itself, outside a stroke: replaced, no points."""
    table = match.frame.table
    if event.ball == CUE_BALL:
        if table.cue_in_hand:
            raise LogError("edge_fall: the cue ball is in hand, not on the table")
    elif not table.has(event.ball):
        raise LogError(f"edge_fall: the {ball_kind(event.ball)} is not on the table")
    return match, Outcome(announcements=(announce.BALL_REPLACED,))


def _ball_moved(match: MatchState, event: BallMovedLine) -> tuple[MatchState, Outcome]:
    """3.15: a ball moved by someone other than the striker is replaced by the referee, no penalty."""
    frame = match.frame
    if event.ball == CUE_BALL:
        if frame.table.cue_in_hand:
            raise LogError("ball_moved: the cue ball is in hand, not on the table")
    elif not frame.table.has(event.ball):
        raise LogError(f"ball_moved: the {ball_kind(event.ball)} is not on the table")
    positions = frame.table.position_map()
    if positions is not None and event.position is not None:
        positions[event.ball] = event.position
        frame = replace(frame, table=replace(frame.table, positions=tuple(sorted(positions.items()))))
    return replace(match, frame=frame), Outcome(announcements=(announce.BALL_REPLACED,))
