"""A ball that falls into a pocket by itself between strokes (3.9(a), the frame log's ``edge_fall``).

Section 3.9 (the Polish text is the authority): (a) a ball that falls into a pocket without being
touched by another ball and not as part of a stroke is put back where it was, no points; (c) a ball
that balances a moment on the edge and then falls counts as potted, not replaced. The segmenter
calls an outside-stroke pot an edge fall only on evidence: seen at rest for
``StrokeConfig.edge_fall_min_rest_s`` with its centre within ``edge_fall_mouth_reach_mm`` of that
pocket's mouth, the table watched, nothing near it (``edge_fall_clear_mm``) as it went. Anything
else is kept as an outside event with the reason. Tracker-level sightings sequences (no images).
"""

from __future__ import annotations

import numpy as np
import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import StrokeConfig

POCKETS = STANDARD_TABLE.pockets


def _axis(pocket: str) -> tuple[np.ndarray, np.ndarray]:
    """The pocket's mouth centre and the unit vector from it towards the drop."""
    mouth = np.asarray(POCKETS[pocket].mouth_centre)
    drop = np.asarray(POCKETS[pocket].drop_centre)
    return mouth, (drop - mouth) / np.linalg.norm(drop - mouth)


def _falling(label: str, pocket: str, rest_until: float, short_mm: float = 20.0) -> Ball:
    """``label`` resting ``short_mm`` short of ``pocket``'s mouth centre until ``rest_until`` (s),
    then rolling over the edge (30 mm in 0.25 s) and gone."""
    mouth, axis = _axis(pocket)
    lip = mouth - axis * short_mm
    keys = [(0.0, *lip), (rest_until, *lip), (rest_until + 0.25, *(mouth + axis * 10.0))]
    return Ball(label, keys, gone_after=rest_until + 0.2)


def _table(*balls: Ball) -> list[Ball]:
    return [still("white", 889.0, 1000.0), still("pink", 889.0, 2600.0), *balls]


def _hand_near(pocket: str, at: float) -> Ball:
    """Something named like a ball (a hand, read as a yellow) over the ball on ``pocket``'s lip just
    before it goes, then gone."""
    mouth, axis = _axis(pocket)
    side = np.array([-axis[1], axis[0]])
    place = mouth - axis * 20.0 + side * 70.0
    return Ball("yellow", [(0.0, *place)], hidden=[(0.0, at - 0.6)], gone_after=at + 0.1)


def _rolled_in_from_afar(pocket: str) -> Ball:
    """A red resting 200 mm out from the mouth for 3 s, then rolled into the pocket (a hand)."""
    mouth, axis = _axis(pocket)
    start = mouth - axis * 200.0
    return Ball("red", [(0.0, *start), (3.0, *start), (3.35, *(mouth + axis * 10.0))], gone_after=3.3)


def _neighbour(pocket: str) -> Ball:
    """A red resting beside the lip (80 mm from the falling ball's place)."""
    mouth, axis = _axis(pocket)
    side = np.array([-axis[1], axis[0]])
    return still("red", *(mouth - axis * 40.0 + side * 77.0))


def _hidden_at_rest(pocket: str) -> Ball:
    """A red on the lip that stops being seen without moving (a player standing over it)."""
    mouth, axis = _axis(pocket)
    return Ball("red", [(0.0, *(mouth - axis * 20.0))], hidden=[(3.0, 9.0)])


ROWS = [
    # (id, balls, duration s, expected outside pots as (label, pocket, edge_fall))
    ("rests-3s-on-a-corner-lip-then-falls", _table(_falling("red", "top_left", 3.0)), 5.0,
     [("red-1", "top_left", True)]),
    ("rests-3s-on-a-middle-lip-then-falls", _table(_falling("red", "middle_right", 3.0)), 5.0,
     [("red-1", "middle_right", True)]),
    ("a-colour-falls-too", _table(_falling("black", "top_right", 3.5)), 5.5, [("black", "top_right", True)]),
    ("balances-a-moment-then-falls-3.9c", _table(_falling("red", "top_left", 1.0)), 3.0,
     [("red-1", "top_left", False)]),
    ("a-hand-beside-it-as-it-goes",
     _table(_falling("red", "top_left", 3.0), _hand_near("top_left", 3.0)), 5.0,
     [("red-1", "top_left", False)]),
    ("a-ball-beside-it", _table(_falling("red", "top_left", 3.0), _neighbour("top_left")), 5.0,
     [("red-1", "top_left", False)]),
    ("rolled-in-from-200mm-out", _table(_rolled_in_from_afar("baulk_left")), 5.0,
     [("red-1", "baulk_left", False)]),
    ("hidden-at-rest-by-a-player-is-no-pot", _table(_hidden_at_rest("top_left")), 5.0, []),
]  # fmt: skip


@pytest.mark.parametrize(("balls", "duration", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_a_ball_potted_between_strokes_is_an_edge_fall_only_on_the_evidence(balls, duration, expected):
    result = run(balls, duration_s=duration, noise_mm=1.0)
    assert result.strokes == []
    pots = [e for e in result.outside if e.kind == "potted"]
    assert [(e.label, e.pocket, e.edge_fall) for e in pots] == expected
    assert all(e.reason for e in pots)  # the call, or why not, is said
    for event in pots:
        assert event.to_dict()["edge_fall"] is event.edge_fall and event.to_dict()["reason"] == event.reason


def test_the_reasons_name_what_was_missing():
    balanced = run(_table(_falling("red", "top_left", 1.0)), duration_s=3.0, noise_mm=1.0).outside[0]
    assert "3.9(c)" in balanced.reason and not balanced.edge_fall
    afar = run(_table(_rolled_in_from_afar("baulk_left")), duration_s=5.0, noise_mm=1.0).outside[0]
    assert "mm from the baulk_left mouth" in afar.reason


def _stroke_leaving_a_red_on_the_lip(fall_after_rest_s: float) -> list[Ball]:
    """The white runs 600 mm at a red 200 mm out from the top-left mouth, which runs on and stops
    20 mm short of the mouth centre at 2.0 s; every ball is at rest from 2.0 s; the red falls in
    ``fall_after_rest_s`` later."""
    mouth, axis = _axis("top_left")
    lip = mouth - axis * 20.0
    red_at = mouth - axis * 200.0
    white_from = red_at - axis * 652.5
    white_stop = red_at - axis * 80.0
    fall = 2.0 + fall_after_rest_s
    white = Ball("white", [(0.0, *white_from), (0.5, *white_from), (0.8, *(red_at - axis * 52.5)),
                           (1.4, *white_stop)])  # fmt: skip
    red = Ball("red", [(0.0, *red_at), (0.8, *red_at), (2.0, *lip), (fall, *lip),
                       (fall + 0.25, *(mouth + axis * 10.0))], gone_after=fall + 0.2)  # fmt: skip
    return [white, red, still("blue", 889.0, 1784.0), still("pink", 889.0, 2600.0)]


def test_a_red_the_stroke_left_on_the_lip_falls_long_after_it_as_an_edge_fall():
    result = run(_stroke_leaving_a_red_on_the_lip(4.0), duration_s=8.0)
    [stroke] = result.strokes
    assert stroke.potted == () and stroke.first_contact == ("red-1",)
    [event] = result.outside
    assert (event.kind, event.label, event.pocket, event.edge_fall) == ("potted", "red-1", "top_left", True)
    assert event.frame > stroke.end_frame


@pytest.mark.parametrize("fall_after_rest_s", [0.9, 1.5])
@pytest.mark.parametrize("seen_falling", [True, False], ids=["rolls-over-the-edge", "vanishes-from-rest"])
def test_a_red_the_stroke_left_on_the_lip_that_falls_a_moment_later_is_potted_in_it(
    fall_after_rest_s, seen_falling
):
    """3.9(c): balanced a moment (under ``edge_fall_min_rest_s``) after every ball stopped, then in:
    potted in the stroke, which waited for it, and no outside event. Seen rolling over the edge, or
    (a ball tipping over the lip barely moves before it drops out of sight) only gone from where it
    rested: the tracker takes a ball that came to rest in the jaws a moment ago and vanishes for a
    pot candidate."""
    balls = _stroke_leaving_a_red_on_the_lip(fall_after_rest_s)
    if not seen_falling:
        red = balls[1]
        fall = 2.0 + fall_after_rest_s
        balls[1] = Ball("red", [k for k in red.keys if k[0] <= fall], gone_after=fall)
    result = run(balls, duration_s=fall_after_rest_s + 4.0)
    [stroke] = result.strokes
    assert stroke.first_contact == ("red-1",)
    assert [(p.label, p.pocket) for p in stroke.potted] == [("red-1", "top_left")]
    assert "red-1" not in stroke.positions_after
    assert result.outside == []


def test_a_red_hidden_long_after_it_stopped_on_the_lip_is_held_not_potted():
    """At rest in the jaws for longer than ``LifecycleConfig.jaws_hang_max_s`` and then unseen (a
    player leaning over the pocket): held as hidden, as before."""
    balls = _stroke_leaving_a_red_on_the_lip(4.0)
    red = balls[1]
    balls[1] = Ball("red", [k for k in red.keys if k[0] <= 6.0], hidden=[(6.0, 9.0)])
    result = run(balls, duration_s=9.5)
    assert not any(e.kind == "potted" for e in result.events)
    [stroke] = result.strokes
    assert stroke.potted == () and result.outside == []


def test_a_ball_that_drops_while_the_stroke_runs_is_the_strokes_pot():
    """Balanced on the lip a moment while the white still runs, then in: potted in the stroke
    (3.9(c)), no outside event."""
    mouth, axis = _axis("top_left")
    lip = mouth - axis * 20.0
    red_at = mouth - axis * 200.0
    white_from = red_at - axis * 652.5
    white = Ball("white", [(0.0, *white_from), (0.5, *white_from), (0.8, *(red_at - axis * 52.5)),
                           (3.0, 1500.0, 1200.0)])  # fmt: skip
    red = Ball("red", [(0.0, *red_at), (0.8, *red_at), (1.5, *lip), (1.8, *lip),
                       (2.05, *(mouth + axis * 10.0))], gone_after=2.0)  # fmt: skip
    result = run([white, red, still("pink", 889.0, 2600.0)], duration_s=5.0)
    [stroke] = result.strokes
    assert [(p.label, p.pocket) for p in stroke.potted] == [("red-1", "top_left")]
    assert result.outside == []


def test_edge_fall_evidence_is_configured_in_named_fields():
    config = StrokeConfig()
    assert config.edge_fall_min_rest_s > config.rest_duration_s
    assert config.edge_fall_mouth_reach_mm > 0 and config.edge_fall_clear_mm > 0


@pytest.mark.parametrize(
    ("rest_until", "strokes", "edge_fall"),
    [(3.0, 0, True), (1.0, 1, False)],
    ids=["cue-ball-rests-3s-on-the-lip-then-falls-no-stroke", "cue-ball-balanced-1s-stays-a-stroke-in-off"],
)
def test_a_cue_ball_that_falls_from_the_edge_by_itself_is_no_stroke(rest_until, strokes, edge_fall):
    """A cue ball tipping over the edge runs off like a struck one (a stroke starts); having rested
    there with nothing near it and every other ball still, it is an edge fall (replaced, no foul),
    not an in-off. Balanced only a moment, the stroke stands."""
    balls = [
        _falling("white", "top_left", rest_until),
        still("pink", 889.0, 2600.0),
        still("blue", 889.0, 1784.0),
    ]
    result = run(balls, duration_s=rest_until + 2.0, noise_mm=1.0)
    assert len(result.strokes) == strokes
    assert [(e.label, e.edge_fall) for e in result.outside] == ([("white", True)] if edge_fall else [])
    if strokes:
        assert result.strokes[0].cue_ball == "potted"


def _wobbling_on_the_lip(balls: list[Ball], fall_after_rest_s: float) -> list[Ball]:
    """``_stroke_leaving_a_red_on_the_lip`` with the red's measured centre wobbling 7.5 mm either side
    of its place across the pocket's axis every 0.1 s while it rests (a lip ball's centre, part in
    the jaws' shadow: the tracker reads it moving now and then), from 0.3 s after it stopped."""
    mouth, axis = _axis("top_left")
    lip, side = mouth - axis * 20.0, np.array([-axis[1], axis[0]])
    red = balls[1]
    fall = 2.0 + fall_after_rest_s
    wobble = [
        (2.3 + 0.1 * k, *(lip + side * (7.5 if k % 2 else -7.5))) for k in range(int((fall - 2.4) / 0.1))
    ]
    keys = [k for k in red.keys if k[0] <= 2.0] + wobble + [k for k in red.keys if k[0] >= fall]
    return [balls[0], Ball("red", keys, gone_after=red.gone_after), *balls[2:]]


@pytest.mark.parametrize("fall_after_rest_s", [2.5, 3.0])
def test_a_red_wobbling_on_the_lip_that_falls_after_the_moment_is_an_edge_fall(fall_after_rest_s):
    """The stroke is kept open for the red on the lip (``edge_drop_moment_s``); its centre wobbles
    meanwhile, read moving now and then, which must not restart the rest: falling 2.5-3 s after
    every ball stopped it rested over ``edge_fall_min_rest_s``, an edge fall (3.9(a))."""
    balls = _wobbling_on_the_lip(_stroke_leaving_a_red_on_the_lip(fall_after_rest_s), fall_after_rest_s)
    result = run(balls, duration_s=fall_after_rest_s + 5.0)
    assert any(b.moving for s in result.states[75:120] for b in s.balls if b.label == "red-1")
    [stroke] = result.strokes
    assert stroke.potted == () and stroke.first_contact == ("red-1",)
    [event] = result.outside
    assert (event.kind, event.label, event.pocket, event.edge_fall) == ("potted", "red-1", "top_left", True)


CREEP_MM_S = 35.0
"""How fast (mm/s) the red of ``_stroke_leaving_a_red_creeping_onto_the_lip`` creeps its last
28 mm: under the tracker's rest (``MotionConfig.rest_displacement_mm`` over ``rest_window_s``,
70 mm/s), as a red crawling into a corner on a rendered overhead clip did."""


def _stroke_leaving_a_red_creeping_onto_the_lip(fall_after_stop_s: float, tip_mm: float = 0.0) -> list[Ball]:
    """``_stroke_leaving_a_red_on_the_lip`` with the red arriving 28 mm short of its place on the
    lip at 2.0 s and creeping the rest at ``CREEP_MM_S``: read at rest from about 2.0 s, stopped
    0.8 s later; it falls ``fall_after_stop_s`` after it stopped, vanishing from where it rested,
    or seen tipping ``tip_mm`` towards the drop over its last two frames (too little to read
    moving: 55 mm/s over ``MotionConfig.rest_window_s``; as a red on a far lip of a rendered
    broadcast clip, 10 mm in its last frame)."""
    mouth, axis = _axis("top_left")
    balls = _stroke_leaving_a_red_on_the_lip(0.0)
    lip = mouth - axis * 20.0
    creep = 28.0
    stopped = 2.0 + creep / CREEP_MM_S
    fall = stopped + fall_after_stop_s
    red_at = mouth - axis * 200.0
    keys = [(0.0, *red_at), (0.8, *red_at), (2.0, *(lip - axis * creep)), (stopped, *lip), (fall, *lip)]
    if tip_mm:
        keys += [(fall + 2.0 / 30.0, *(lip + axis * tip_mm))]
        fall += 2.0 / 30.0
    return [balls[0], Ball("red", keys, gone_after=fall), *balls[2:]]


@pytest.mark.parametrize("tip_mm", [0.0, 11.0], ids=["vanishes-from-rest", "seen-tipping"])
@pytest.mark.parametrize("noise_mm", [0.0, 1.0])
def test_a_red_that_crept_onto_the_lip_and_fell_a_moment_after_it_stopped_is_potted_in_the_stroke(
    noise_mm, tip_mm
):
    """3.9(c) counts the moment from when the ball stopped on the edge: a red creeping its last
    28 mm onto the lip reads at rest 0.8 s before it stops; it falls 1.5 s after it stopped, 2.3 s
    after every ball read at rest (past ``edge_drop_moment_s`` from then). Potted in the stroke,
    which waited for it; neither held as hidden by the tracker (its own pot, not one the stroke
    infers for a ball it hit that was never seen again) nor an edge fall."""
    result = run(_stroke_leaving_a_red_creeping_onto_the_lip(1.5, tip_mm), duration_s=8.0, noise_mm=noise_mm)
    [stroke] = result.strokes
    assert [(p.label, p.pocket, p.inferred) for p in stroke.potted] == [("red-1", "top_left", False)]
    assert [(e.label, e.pocket) for e in result.events if e.kind == "potted"] == [("red-1", "top_left")]
    assert result.outside == []


def test_a_red_that_crept_onto_the_lip_and_rested_there_long_then_fell_is_an_edge_fall():
    """Resting on the lip 3 s after it stopped creeping, then gone: no moment (3.9(a)); the
    tracker, having seen it still past ``LifecycleConfig.jaws_hang_max_s``, holds it hidden."""
    result = run(_stroke_leaving_a_red_creeping_onto_the_lip(3.0), duration_s=9.0, noise_mm=1.0)
    [stroke] = result.strokes
    assert stroke.potted == ()
    assert not any(e.kind == "potted" for e in result.outside)
