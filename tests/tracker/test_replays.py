"""The replay filter (``snooker.tracker.replays``): a stroke shown again from the main camera after a
cut is dropped, play is not.

Each case is a short sequence of frames, each with the balls detected, the balls the tracker holds,
whether they move, and the strokes the segmenter ended on it; the filter is driven as the tracking
stage drives it (observe, then verdict), at 30 fps, with a cut where frames are missing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from snooker.tracker import BallState, PotEvent, StrokeEvents, TableState, TrackStatus
from snooker.tracker.replays import ReplayConfig, ReplayFilter, seen_in

FPS = 30.0
TOLERANCE_MM = ReplayConfig().place_tolerance_mm

WHITE_BEFORE, WHITE_AFTER = (600.0, 700.0), (1300.0, 2400.0)
RED_BEFORE, RED_AFTER = (900.0, 2600.0), (1400.0, 3300.0)
BLACK = (890.0, 3245.0)
PINK = (890.0, 2680.0)
BEFORE = {"white": WHITE_BEFORE, "red-1": RED_BEFORE, "red-2": (700.0, 2800.0), "black": BLACK, "pink": PINK}
AFTER = {"white": WHITE_AFTER, "red-1": RED_AFTER, "red-2": (700.0, 2800.0), "black": BLACK, "pink": PINK}
"""The last stroke: the white sends red-1 up the table (not potted)."""
POTTED_AFTER = {k: v for k, v in AFTER.items() if k != "red-1"}
"""The same stroke, red-1 potted."""
ELSEWHERE = {**BEFORE, "white": (1500.0, 1200.0), "red-1": (300.0, 3000.0)}
"""Where a stroke played again from the replaced balls ends."""


@dataclass
class Shot:
    """One frame: ``layout`` detected (and held by the tracker), ``moving``, strokes ended on it,
    whether a stroke runs after it."""

    layout: dict[str, tuple[float, float]]
    moving: bool = False
    ended: list[StrokeEvents] = field(default_factory=list)
    running: dict[str, tuple[float, float]] | None = None


def stroke(start: int, end: int, before: dict, after: dict, potted: tuple = ()) -> StrokeEvents:
    return StrokeEvents(
        start,
        end,
        first_contact=("red-1",),
        potted=tuple(PotEvent(label, "top_right", end) for label in potted),
        positions_before=dict(before),
        positions_after=dict(after),
    )


def state(frame: int, layout: dict, moving: bool) -> TableState:
    balls = tuple(
        BallState(k, label, place, TrackStatus.VISIBLE, moving)
        for k, (label, place) in enumerate(layout.items())
    )
    return TableState(frame, frame / FPS, balls)


def seen(layout: dict) -> dict[str, np.ndarray]:
    places: dict[str, list] = {}
    for label, place in layout.items():
        places.setdefault(label.split("-")[0], []).append(place)
    return {kind: np.asarray(p, dtype=float).reshape(-1, 2) for kind, p in places.items()}


def run(
    frames: list[tuple[int, Shot]], config: ReplayConfig | None = None, handed_at: dict | None = None
) -> tuple[list, list, ReplayFilter]:
    """Drive a filter over ``(frame index, shot)``; the strokes handed on and the saves/restores
    (``handed_at``, if given, gets the frame each stroke was handed on, by ``id``)."""
    handed_at = {} if handed_at is None else handed_at
    replay_filter = ReplayFilter(config)
    handed, actions = [], []
    running_before = None
    for index, shot in frames:
        detected = functools.partial(seen, shot.layout)
        looked = replay_filter.observe(index, index / FPS, detected, running_before)
        judged = replay_filter.verdict(state(index, shot.layout, shot.moving), shot.ended, shot.running)
        running_before = shot.running
        for verdict in (looked, judged):
            handed += verdict.strokes
            handed_at.update({id(s): index for s in verdict.strokes})
            actions += [(index, "save")] * verdict.save + [(index, "restore")] * verdict.restore
    finished = replay_filter.finish([])
    handed += finished.strokes
    actions += [("end", "restore")] * finished.restore
    return handed, actions, replay_filter


def rest(first: int, last: int, layout: dict) -> list[tuple[int, Shot]]:
    return [(i, Shot(layout)) for i in range(first, last)]


LAST = stroke(10, 40, BEFORE, AFTER)
LAST_POTTED = stroke(10, 40, BEFORE, POTTED_AFTER, potted=("red-1",))


def live_stroke(last: StrokeEvents, after: dict) -> list[tuple[int, Shot]]:
    """Frames 0-59: at rest, the last stroke played (running 10-40), ended on frame 45, at rest."""
    frames = rest(0, 10, BEFORE)
    frames += [(i, Shot(BEFORE, moving=True, running=dict(BEFORE))) for i in range(10, 45)]
    frames += [(45, Shot(after, ended=[last]))]
    return frames + rest(46, 60, after)


def replayed(
    start: int, last: StrokeEvents, after: dict, shown_after: dict | None = None
) -> list[tuple[int, Shot]]:
    """From ``start`` (after a cut): the balls back before the stroke, the stroke run again and
    ended 60 frames on, then at rest where it ended (``shown_after``: as detected)."""
    again = stroke(start + 20, start + 55, BEFORE, after, potted=tuple(p.label for p in last.potted))
    frames = rest(start, start + 20, BEFORE)
    frames += [(i, Shot(BEFORE, moving=True, running=dict(BEFORE))) for i in range(start + 20, start + 60)]
    frames += [(start + 60, Shot(shown_after or after, ended=[again]))]
    return frames + rest(start + 61, start + 75, shown_after or after)


IN_OFF_AFTER = {k: v for k, v in AFTER.items() if k not in ("white", "red-1")}
LAST_IN_OFF = StrokeEvents(
    10,
    40,
    first_contact=("red-1",),
    potted=(PotEvent("red-1", "top_right", 30),),
    cue_ball="potted",
    positions_before=dict(BEFORE),
    positions_after=IN_OFF_AFTER,
)
"""A red potted and the white in off: every ball the stroke moved left the table."""

CASES = {
    "replay_of_the_last_stroke_is_dropped": (live_stroke(LAST, AFTER) + replayed(90, LAST, AFTER), 1, 1),
    "replay_of_a_pot_is_dropped_and_the_red_counts_as_back": (
        live_stroke(LAST_POTTED, POTTED_AFTER) + replayed(90, LAST_POTTED, POTTED_AFTER),
        1,
        1,
    ),
    "replay_of_a_pot_and_an_in_off_is_dropped": (
        live_stroke(LAST_IN_OFF, IN_OFF_AFTER) + replayed(90, LAST_IN_OFF, IN_OFF_AFTER),
        1,
        1,
    ),
    "replay_with_balls_hidden_at_its_end_is_dropped": (
        live_stroke(LAST, AFTER) + replayed(90, LAST, AFTER, {"white": WHITE_AFTER, "red-1": RED_AFTER}),
        1,
        1,
    ),
    "the_same_frames_without_a_cut_are_play": (
        live_stroke(LAST, AFTER) + replayed(60, LAST, AFTER),
        2,
        0,
    ),
    "a_cut_back_to_the_table_as_it_was_is_play": (
        live_stroke(LAST, AFTER)
        + rest(90, 110, AFTER)
        + [(i, Shot(AFTER, moving=True, running=dict(AFTER))) for i in range(110, 140)]
        + [(140, Shot(ELSEWHERE, ended=[stroke(110, 135, AFTER, ELSEWHERE)]))]
        + rest(141, 160, ELSEWHERE),
        2,
        0,
    ),
    "balls_replaced_off_camera_and_played_again_elsewhere_are_play": (
        live_stroke(LAST, AFTER) + replayed(90, LAST, ELSEWHERE) + rest(165, 300, ELSEWHERE),
        2,
        0,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_cases(name: str) -> None:
    frames, strokes_handed_on, replays = CASES[name]
    handed, actions, replay_filter = run(frames)
    assert len(handed) == strokes_handed_on
    assert len(replay_filter.replays) == replays
    assert handed[0] is frames[45][1].ended[0]
    if replays:
        assert any(kind == "restore" for _, kind in actions)
        assert replay_filter.replays[0].of_stroke_frame == 10
    else:
        assert not any(kind == "restore" for _, kind in actions)


def test_a_colour_respotted_where_it_lay_is_no_evidence() -> None:
    """The black potted from its spot and re-spotted during the cut: back where it was before the
    stroke, but that is the referee's doing, not a replay; nothing is held."""
    before = {"white": WHITE_BEFORE, "black": BLACK}
    after = {"white": WHITE_AFTER}
    potted_black = stroke(10, 40, before, after, potted=("black",))
    frames = rest(0, 10, before)
    frames += [(i, Shot(before, moving=True, running=dict(before))) for i in range(10, 45)]
    frames += [(45, Shot(after, ended=[potted_black])), *rest(46, 60, after)]
    respotted = {"white": WHITE_AFTER, "black": BLACK}
    played = stroke(110, 135, respotted, {"white": (300.0, 900.0), "black": BLACK})
    frames += rest(90, 110, respotted)
    frames += [(i, Shot(respotted, moving=True, running=dict(respotted))) for i in range(110, 140)]
    frames += [(140, Shot({"white": (300.0, 900.0), "black": BLACK}, ended=[played]))]
    handed, actions, replay_filter = run(frames)
    assert handed == [potted_black, played]
    assert not replay_filter.replays
    assert not any(kind == "restore" for _, kind in actions)


def test_the_stroke_running_at_the_cut_replayed_restores_the_tracker() -> None:
    """Cut away while the balls ran, back to them at rest where the stroke began: the replay of the
    running stroke. Whatever the segmenter makes of it is dropped, and the tracker restored to
    before the cut, so the stroke ends on the live frames after the replay."""
    frames = rest(0, 10, BEFORE)
    frames += [
        (i, Shot({**BEFORE, "white": (900.0, 1500.0)}, moving=True, running=dict(BEFORE)))
        for i in range(10, 30)
    ]
    cut_short = stroke(10, 60, BEFORE, BEFORE)
    frames += [(60, Shot(BEFORE, ended=[cut_short])), *rest(61, 80, BEFORE)]
    again = stroke(80, 120, BEFORE, AFTER)
    frames += [(i, Shot(BEFORE, moving=True, running=dict(BEFORE))) for i in range(80, 120)]
    frames += [(120, Shot(AFTER, ended=[again])), *rest(121, 240, AFTER)]
    handed, actions, replay_filter = run(frames)
    assert handed == []
    assert (60, "save") in actions
    assert any(kind == "restore" for _, kind in actions)
    assert replay_filter.replays[0].of_stroke_frame == 10


def test_disabled_hands_everything_on() -> None:
    frames, _, _ = CASES["replay_of_the_last_stroke_is_dropped"]
    handed, actions, replay_filter = run(frames, ReplayConfig(enabled=False))
    assert len(handed) == 2 and not actions and not replay_filter.replays


@pytest.mark.parametrize(
    "field_name, value",
    [
        ("cut_gap_s", 0.0),
        ("look_s", -1.0),
        ("place_tolerance_mm", 0.0),
        ("settle_s", 0.0),
        ("back_min_balls", 0),
        ("unmatched_balls", -1),
    ],
)
def test_config_refuses_nonsense(field_name: str, value: float) -> None:
    with pytest.raises(ValueError, match=field_name):
        ReplayConfig(**{field_name: value})


def test_seen_in_needs_a_moved_ball_and_allows_hidden_ones() -> None:
    assert seen_in(seen({"white": WHITE_AFTER}), AFTER, {"white"}, TOLERANCE_MM, 1)
    assert not seen_in(seen({"black": BLACK}), AFTER, {"white"}, TOLERANCE_MM, 1)
    assert not seen_in(seen({"white": (0.0, 0.0), "red-1": (5.0, 5.0)}), AFTER, {"white"}, TOLERANCE_MM, 1)


places = st.tuples(st.floats(0, 1778), st.floats(0, 3569))


@given(st.lists(places, min_size=1, max_size=8), st.permutations(range(8)), st.integers(0, 7))
def test_seen_in_does_not_care_which_red_is_which(reds: list, order: list, moved: int) -> None:
    """Reds are alike: numbering them otherwise changes nothing, and a layout seen whole shows itself."""
    layout = {f"red-{k}": p for k, p in enumerate(reds)}
    relabelled = {f"red-{k}": reds[i] for k, i in enumerate(i for i in order if i < len(reds))}
    label = f"red-{moved % len(reds)}"
    assert seen_in(seen(layout), layout, {label}, TOLERANCE_MM, 0)
    assert seen_in(seen(relabelled), layout, {label}, TOLERANCE_MM, 0)
    away = {**layout, "white": (-500.0, -500.0)}
    assert not seen_in(seen(away), layout, {label}, TOLERANCE_MM, 0)


def test_a_ball_passing_its_old_place_once_opens_nothing() -> None:
    """After the cut the white shows where it set off from on one frame only (coming back off a
    cushion): no suspect, the stroke that follows is handed on as it ends."""
    frames = live_stroke(LAST, AFTER)
    frames += [(90, Shot({**AFTER, "white": WHITE_BEFORE}, moving=True))]
    frames += [(i, Shot(AFTER, moving=True, running=dict(AFTER))) for i in range(91, 120)]
    played = stroke(91, 119, AFTER, ELSEWHERE)
    frames += [(120, Shot(ELSEWHERE, ended=[played])), *rest(121, 130, ELSEWHERE)]
    handed, actions, replay_filter = run(frames)
    assert handed == [LAST, played]
    assert not replay_filter.replays and (90, "save") in actions


def test_a_stroke_ended_while_looking_is_handed_on_when_the_look_ends() -> None:
    """A stroke the segmenter ends on the first frames after a cut waits for the look (``look_s``)
    and is handed on when nothing was seen back."""
    frames = live_stroke(LAST, AFTER)
    late = stroke(46, 90, AFTER, ELSEWHERE)
    frames += [(90, Shot(ELSEWHERE, ended=[late])), *rest(91, 200, ELSEWHERE)]
    handed_at: dict[int, int] = {}
    handed, _, replay_filter = run(frames, handed_at=handed_at)
    assert handed == [LAST, late] and not replay_filter.replays
    assert handed_at[id(late)] == 90 + int(ReplayConfig().look_s * FPS) + 1


def test_balls_played_back_to_their_old_places_after_a_cut_are_play() -> None:
    """Cut away while the white ran; back to the table, it comes to rest, and the next stroke sends
    it back where it set off from, within ``look_s``: a stroke began first, so what is seen back
    was played there, not replayed."""
    frames = rest(0, 10, BEFORE)
    frames += [
        (i, Shot({**BEFORE, "white": (900.0, 1500.0)}, moving=True, running=dict(BEFORE)))
        for i in range(10, 30)
    ]
    frames += [(i, Shot(AFTER, moving=True, running=dict(BEFORE))) for i in range(60, 65)]
    first = stroke(10, 65, BEFORE, AFTER)
    frames += [(65, Shot(AFTER, ended=[first])), *rest(66, 75, AFTER)]
    frames += [(i, Shot(AFTER, moving=True, running=dict(AFTER))) for i in range(75, 90)]
    back = {**AFTER, "white": WHITE_BEFORE}
    played = stroke(75, 90, AFTER, back)
    frames += [(90, Shot(back, ended=[played])), *rest(91, 250, back)]
    handed, actions, replay_filter = run(frames)
    assert handed == [first, played]
    assert not replay_filter.replays and not any(kind == "restore" for _, kind in actions)
