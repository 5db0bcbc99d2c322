"""The tracking worker's repeated work done once, and its per-sighting arithmetic on floats: the very
values of the plain forms, and fewer calls where a form changed.

Each faster form is checked against the plain form it replaced (kept here as it was), bit for bit,
on hypothesis' inputs; where the saving is work not repeated (a window's speed asked for again, a
line fitted only where it is needed, held balls projected again in the same place), the calls are
counted too: these counts fail on the forms before.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.balls import CUE_BALL
from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import BallTracker, StrokeSegmenter, association
from snooker.tracker import strokes as strokes_module
from snooker.tracker.association import assign, colour_penalty_matrix
from snooker.tracker.strokes import _FrameRecord, _speed
from snooker.tracker.tracker import _Track
from snooker.tracker.types import TrackEvent, TrackStatus

coordinate = st.floats(min_value=-200.0, max_value=3800.0, allow_nan=False)
"""A place in table mm (the table and some way beyond it)."""
place = st.tuples(coordinate, coordinate)
small = st.floats(min_value=-80.0, max_value=80.0, allow_nan=False)
NAMES = ("white", "red", "yellow", "pink", "black")


def _bits(a) -> bytes:
    return np.ascontiguousarray(a, dtype=float).tobytes()


# --------------------------------------------------------------------------- the tracker
def _plain_on_cloth(tracker: BallTracker, xy: np.ndarray) -> np.ndarray:
    """``BallTracker._on_cloth`` as it was: every centre's distance to every mouth."""
    life = tracker.config.lifecycle
    if len(xy) == 0:
        return np.zeros(0, dtype=bool)
    inside = tracker.table.on_playing_area(
        xy, margin_mm=tracker.table.ball_radius_mm + life.off_cloth_slack_mm
    )
    near_mouth = np.min(np.linalg.norm(xy[:, None, :] - tracker._mouths[None], axis=2), axis=1)
    return inside | (near_mouth <= life.pocket_capture_radius_mm)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(place, min_size=0, max_size=12),
    st.lists(st.sampled_from(sorted(STANDARD_TABLE.pockets)), max_size=3),
)
def test_on_cloth_matches_every_mouth_measured(points, pockets):
    """Only the centres off the playing area are measured to the mouths; centres by the mouths
    (within the capture radius and just beyond it) included."""
    tracker = BallTracker()
    capture = tracker.config.lifecycle.pocket_capture_radius_mm
    near = [
        (x + capture * f, y)
        for name, f in zip(pockets, (0.5, 1.0, 1.0 + 1e-9), strict=False)
        for x, y in [STANDARD_TABLE.pockets[name].mouth_centre]
    ]
    xy = np.array(points + near, dtype=float).reshape(-1, 2)
    assert np.array_equal(tracker._on_cloth(xy), _plain_on_cloth(tracker, xy))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(place, st.sampled_from(NAMES)), min_size=1, max_size=8),
    st.lists(st.tuples(place, st.sampled_from(NAMES)), min_size=1, max_size=8),
    st.floats(min_value=0.0, max_value=400.0),
)
def test_assign_with_the_callers_distances_pairs_as_without(tracks, detections, gate):
    """``assign`` given the distances ``_associate`` computed already pairs as it does computing them."""
    predicted = np.array([p for p, _ in tracks], dtype=float)
    detected = np.array([p for p, _ in detections], dtype=float)
    penalty = colour_penalty_matrix(
        [n for _, n in tracks], [n for _, n in detections], (("white", "yellow"),), 30.0
    )
    gates = np.full(len(predicted), gate)
    distance = association.pair_distances(predicted, detected)
    assert _bits(distance) == _bits(np.linalg.norm(predicted[:, None, :] - detected[None, :, :], axis=2))
    assert assign(predicted, gates, detected, penalty, distance) == assign(
        predicted, gates, detected, penalty
    )


def _track(xy, velocity, last_measured, last_seen_t: float, status: TrackStatus, label: str) -> _Track:
    return _Track(
        track_id=1,
        label=label,
        votes=Counter({label: 3}),
        xy=np.array(xy, dtype=float),
        velocity=np.array(velocity, dtype=float),
        status=status,
        last_seen_frame=9,
        last_seen_t=last_seen_t,
        last_measured=np.array(last_measured, dtype=float),
        hits=3,
    )


def _plain_velocity(tracker: BallTracker, track: _Track, t: float, z: np.ndarray) -> np.ndarray:
    """The filter's velocity after a sighting at ``z``, in NumPy's array form (``_observe`` before)."""
    motion = tracker.config.motion
    elapsed = t - track.last_seen_t
    predicted = np.array(tracker._predicted(track, t))
    residual = z - predicted
    if math.hypot(*residual) > motion.manoeuvre_residual_mm or track.status == TrackStatus.HELD:
        return (z - track.last_measured) / elapsed
    return track.velocity + motion.velocity_gain / elapsed * residual


@settings(max_examples=400, deadline=None)
@given(
    place,
    st.tuples(small, small),
    st.tuples(small, small),
    st.tuples(small, small),
    st.floats(min_value=1e-3, max_value=0.5),
    st.sampled_from([TrackStatus.VISIBLE, TrackStatus.HELD, TrackStatus.TENTATIVE]),
)
def test_observed_velocity_matches_the_array_form(xy, velocity, step, error, elapsed, status):
    """The sighting's velocity update on Python floats gives NumPy's array form's values, bit for
    bit: a small residual (the gain's correction), a large one and a held ball (the step's velocity)."""
    tracker = BallTracker()
    t0 = 10.0
    track = _track(xy, np.array(velocity) * 25.0, xy, t0, status, "red-1")
    t = t0 + elapsed
    z = np.array(xy) + np.array(step) * elapsed * 10.0 + np.array(error) * 0.01
    expected = _plain_velocity(tracker, track, t, z)
    tracker._tracks = [track]
    tracker._observe(track, 10, t, elapsed, z, "red", (0.0, 0.0))
    assert _bits(track.velocity) == _bits(expected)


@settings(max_examples=300, deadline=None)
@given(
    place, st.sampled_from(["red-1", CUE_BALL, "pink"]), st.sampled_from(list(STANDARD_TABLE.pockets)), small
)
def test_settle_in_the_jaws_matches_the_plain_test(xy, label, pocket, off):
    """A sighting in a pocket's jaws (within ``jaws_radius_mm`` of a mouth, at it, just beyond it)
    or of the cue ball leaves no resting place, as the test over all mouths at once said."""
    tracker = BallTracker()
    jaws = tracker.config.lifecycle.jaws_radius_mm
    mouth = STANDARD_TABLE.pockets[pocket].mouth_centre
    for z in (np.array(xy, dtype=float), np.array([mouth[0] + jaws + off * 1e-3, mouth[1]])):
        track = _track(z, (0.0, 0.0), z, 1.0, TrackStatus.VISIBLE, label)
        track.rest_place = np.array([1.0, 2.0])
        track.found_t = -10.0
        plain = track.colour == CUE_BALL or any(
            math.hypot(float(z[0]) - mx, float(z[1]) - my) <= jaws for mx, my in tracker._mouth_pairs
        )
        tracker._settle(track, 5.0, z)
        if plain:
            assert track.rest_place is None and track.reached is None
        else:
            assert track.rest_place is not None and _bits(track.rest_place) == _bits(z)


# --------------------------------------------------------------------------- the stroke finder
def _records(path: list[tuple[float, float]], fps: float = 25.0) -> list[_FrameRecord]:
    return [
        _FrameRecord(k, k / fps, {CUE_BALL: np.array(p, dtype=float)}, {CUE_BALL: True}, {CUE_BALL: True}, {})
        for k, p in enumerate(path)
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(place, min_size=2, max_size=20), st.data())
def test_cue_speed_is_the_windows_speed_and_forgets_on_a_retraction(path, data):
    """``_cue_speed`` gives ``_speed`` of its window, asked again or after the list was trimmed at
    the front (the same records), and again after a retraction rewrote the places."""
    segmenter = StrokeSegmenter()
    segmenter._frames = _records(path)
    first = data.draw(st.integers(0, len(path) - 2))
    last = data.draw(st.integers(first + 1, len(path) - 1))
    expected = _speed(segmenter._frames[first : last + 1], CUE_BALL)
    assert segmenter._cue_speed(first, last) == expected or math.isnan(expected)
    trimmed = data.draw(st.integers(0, first))
    segmenter._frames = segmenter._frames[trimmed:]
    again = segmenter._cue_speed(first - trimmed, last - trimmed)
    assert again == expected or math.isnan(expected)
    segmenter._retract(TrackEvent("retracted", CUE_BALL, segmenter._frames[0].frame, 9.0, (500.0, 600.0)))
    rewritten = _speed(segmenter._frames[first - trimmed : last - trimmed + 1], CUE_BALL)
    after = segmenter._cue_speed(first - trimmed, last - trimmed)
    assert after == rewritten or math.isnan(rewritten)


def _stroke_segmenter_run(monkeypatch) -> tuple[int, int]:
    """A struck cue ball rolling on at 1 m/s for 120 frames at 25 fps (pushed to the segmenter):
    how many times ``_speed`` ran, and how many windows ``_struck_again`` asked the speed of."""
    from snooker.tracker.types import BallState, TableState

    calls = {"speed": 0, "asked": 0}
    plain_speed = strokes_module._speed

    def counted_speed(frames, label):
        calls["speed"] += 1
        return plain_speed(frames, label)

    monkeypatch.setattr(strokes_module, "_speed", counted_speed)
    segmenter = StrokeSegmenter()
    if hasattr(segmenter, "_cue_speed"):
        plain_cue_speed = segmenter._cue_speed

        def counted_cue_speed(first, last):
            calls["asked"] += 1
            return plain_cue_speed(first, last)

        segmenter._cue_speed = counted_cue_speed  # type: ignore[method-assign]
    y = 800.0
    for k in range(160):
        t = k / 25.0
        moving = 20 <= k < 140
        if moving:
            y += 40.0
        balls = (
            BallState(1, CUE_BALL, (900.0, y), TrackStatus.VISIBLE, moving, (0.0, 0.0), (10.0, 10.0), 5.0),
            BallState(2, "red-1", (300.0, 3000.0), TrackStatus.VISIBLE, False, (0.0, 0.0), (20.0, 20.0), 5.0),
        )
        segmenter.push(TableState(k, t, balls, ()))
    return calls["speed"], calls["asked"]


def test_struck_again_measures_each_window_once(monkeypatch):
    """A window's speed before a strike is asked for on several frames in a row: measured once
    (before: once per asking, as many times as ``_struck_again`` looks back over)."""
    measured, asked = _stroke_segmenter_run(monkeypatch)
    assert measured > 0
    assert asked > measured
    assert measured <= asked / 2


def test_the_line_after_is_fitted_only_for_a_ball_at_rest_before(monkeypatch):
    """``_struck_between`` fits the line after a split only where the cue ball was at rest or
    nearly before it: a cue ball running along fits one line per split (two only on the splits
    whose side before holds its rest before the strike), not two on every split."""
    fitted = {"lines": 0, "splits": 0}
    plain_line = StrokeSegmenter._cue_line
    plain_between = StrokeSegmenter._struck_between

    def counted_line(self, indices):
        fitted["lines"] += 1
        return plain_line(self, indices)

    def counted_between(self, sightings, hidden):
        fitted["splits"] += 1
        return plain_between(self, sightings, hidden)

    monkeypatch.setattr(StrokeSegmenter, "_cue_line", counted_line)
    monkeypatch.setattr(StrokeSegmenter, "_struck_between", counted_between)
    _stroke_segmenter_run(monkeypatch)
    assert fitted["splits"] > 10
    assert fitted["lines"] < 1.25 * fitted["splits"]
