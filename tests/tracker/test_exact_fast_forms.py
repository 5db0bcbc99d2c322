"""The tracker's faster forms give the very values of the plain forms they replace, bit for bit.

The tracking worker's time grew with the tracker's rules (a moving ball's step tested against
every ball at rest, a NumPy call per track and per sighting); the faster forms pair steps and
places all at once before the exact test, and compute on Python floats in NumPy's own order. Each
is checked here against the plain form it replaced (kept below as the reference, as it was), on
hypothesis' inputs and on table-driven boundary rows: a place at exactly contact distance from a
step, just beyond it, a step of no length, a ball at rest by itself.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import BallTracker
from snooker.tracker.events import segment_entry
from snooker.tracker.strokes import _speed, median_place, same_place
from snooker.tracker.tracker import _near_boxes, _steps_near_places, _Track
from snooker.tracker.types import TrackStatus

D = STANDARD_TABLE.ball_diameter_mm
coordinate = st.floats(min_value=-200.0, max_value=3800.0, allow_nan=False)
"""A place in table mm (the table and some way beyond it)."""
place = st.tuples(coordinate, coordinate)
small = st.floats(min_value=-80.0, max_value=80.0, allow_nan=False)
"""A step or a velocity's component (mm, mm/s scaled)."""


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype=float).tobytes()


# --------------------------------------------------------------------------- plain forms
def _plain_near_box(start, end, places, reach):
    """``BallTracker._reach``'s first look, one mover at a time, as it was."""
    low, high = (start, start) if end is None else (np.minimum(start, end), np.maximum(start, end))
    outside = np.maximum(np.maximum(low - places, places - high), 0.0)
    return np.hypot(outside[:, 0], outside[:, 1]) <= reach


def _plain_stop_at_contacts(tracker: BallTracker, predicted: np.ndarray) -> None:
    """``BallTracker._stop_at_contacts`` in its plain form: every step against every resting place
    (a confirmed ball's, moving or not: a ball just set off keeps its place until found beyond it)."""
    diameter = tracker.table.ball_diameter_mm
    contact = diameter + tracker.config.association.rest_contact_tolerance_mm
    resting = [
        (ti, tr.rest_place)
        for ti, tr in enumerate(tracker._tracks)
        if tr.rest_place is not None and tr.confirmed
    ]
    if not resting:
        return
    for ti, track in enumerate(tracker._tracks):
        if track.status != TrackStatus.VISIBLE or not track.moving or track.duplicate:
            continue
        start, end = track.last_measured, predicted[ti]
        entries = [segment_entry(start, end, place, diameter) for other, place in resting if other != ti]
        meets = [u for closest, u in entries if closest <= contact]
        if meets:
            predicted[ti] = start + min(meets) * (end - start)


def _plain_predict(tracker: BallTracker, track, t: float) -> np.ndarray:
    """A track's prediction as NumPy's array arithmetic gives it (the tracker's form before)."""
    elapsed = max(t - track.last_seen_t, 0.0)
    if track.status == TrackStatus.VISIBLE or track.status == TrackStatus.TENTATIVE:
        return track.xy + track.velocity * elapsed
    if not track.moving_at_loss:
        return track.xy
    tau = tracker.config.motion.held_velocity_decay_s
    return track.xy + track.velocity * tau * (1.0 - math.exp(-elapsed / tau))


def _plain_predict_all(tracker: BallTracker, t: float, still) -> np.ndarray:
    return np.array(
        [tr.xy if ti in still else _plain_predict(tracker, tr, t) for ti, tr in enumerate(tracker._tracks)]
    )


def _plain_speed(frames, label):
    xy = np.array([f.xy[label] for f in frames])
    t = np.array([f.t for f in frames])
    steps = np.linalg.norm(np.diff(xy, axis=0), axis=1)
    moved = steps > 0.0
    if not moved.any():
        return 0.0
    return float(steps.sum()) / max(float(np.diff(t)[moved].sum()), 1e-9)


# --------------------------------------------------------------------------- tracks
def _track(
    ti, xy, velocity, status, moving, rest_place, last_measured, last_seen_t=0.0, moving_at_loss=False
):
    return _Track(
        track_id=ti + 1,
        label=f"red-{ti + 1}",
        votes=Counter({"red": 1}),
        xy=np.array(xy, dtype=float),
        velocity=np.array(velocity, dtype=float),
        status=status,
        last_seen_frame=0,
        last_seen_t=last_seen_t,
        last_measured=np.array(last_measured, dtype=float),
        history=deque(),
        moving=moving,
        moving_at_loss=moving_at_loss,
        rest_place=None if rest_place is None else np.array(rest_place, dtype=float),
    )


statuses = st.sampled_from([TrackStatus.VISIBLE, TrackStatus.HELD, TrackStatus.TENTATIVE])
track_rows = st.lists(
    st.tuples(
        place, st.tuples(small, small), statuses, st.booleans(), st.one_of(st.none(), place), st.booleans()
    ),
    min_size=1,
    max_size=12,
)


def _tracker(rows, near: bool) -> BallTracker:
    """A tracker holding ``rows`` (place, step, status, moving, rest place, moving at loss); with
    ``near``, each resting place is drawn within a few diameters of the track before it, so that
    steps meet places."""
    tracker = BallTracker()
    tracks = []
    for ti, (xy, step, status, moving, rest, at_loss) in enumerate(rows):
        if near and rest is not None and tracks:
            before = tracks[-1].xy
            rest = (before[0] + (rest[0] % (3 * D)) - 1.5 * D, before[1] + (rest[1] % (3 * D)) - 1.5 * D)
        tracks.append(
            _track(
                ti,
                xy,
                np.array(step) * 10.0,
                status,
                moving,
                rest,
                xy,
                last_seen_t=0.0,
                moving_at_loss=at_loss,
            )
        )
    tracker._tracks = tracks
    return tracker


@settings(max_examples=300, deadline=None)
@given(rows=track_rows, steps=st.lists(st.tuples(small, small), min_size=12, max_size=12), near=st.booleans())
def test_stop_at_contacts_matches_every_pair_tested(rows, steps, near):
    tracker = _tracker(rows, near)
    predicted = np.array([tr.xy + np.array(s) for tr, s in zip(tracker._tracks, steps, strict=False)])
    plain = predicted.copy()
    _plain_stop_at_contacts(tracker, plain)
    tracker._stop_at_contacts(predicted)
    assert _bits(predicted) == _bits(plain)


CONTACT = D + BallTracker().config.association.rest_contact_tolerance_mm


@pytest.mark.parametrize(
    ("start", "end", "rest"),
    [
        ((0.0, 0.0), (100.0, 0.0), (50.0, CONTACT)),  # passes at exactly contact distance
        ((0.0, 0.0), (100.0, 0.0), (50.0, math.nextafter(CONTACT, math.inf))),  # just beyond
        ((0.0, 0.0), (100.0, 0.0), (100.0 + CONTACT, 0.0)),  # touches at the step's end
        ((0.0, 0.0), (100.0, 100.0), (100.0 + CONTACT, 100.0 + CONTACT)),  # off the box's corner
        ((10.0, 10.0), (10.0, 10.0), (10.0, 10.0 + CONTACT)),  # a step of no length
        ((500.0, 500.0), (600.0, 500.0), (550.0, 500.0 + 0.5 * D)),  # runs into it
    ],
)
def test_stop_at_contacts_boundary_rows(start, end, rest):
    tracker = BallTracker()
    tracker._tracks = [
        _track(0, start, (0.0, 0.0), TrackStatus.VISIBLE, True, None, start),
        _track(1, rest, (0.0, 0.0), TrackStatus.VISIBLE, False, rest, rest),
    ]
    predicted = np.array([end, rest], dtype=float)
    plain = predicted.copy()
    _plain_stop_at_contacts(tracker, plain)
    tracker._stop_at_contacts(predicted)
    assert _bits(predicted) == _bits(plain)


@settings(max_examples=300, deadline=None)
@given(
    movers=st.lists(
        st.tuples(place, st.one_of(st.none(), place), st.floats(0.0, 500.0)), min_size=1, max_size=8
    ),
    places=st.lists(place, min_size=1, max_size=22),
)
def test_near_boxes_matches_one_box_at_a_time(movers, places):
    places_a = np.array(places, dtype=float)
    starts = np.array([s for s, _, _ in movers], dtype=float)
    ends = np.array([s if e is None else e for s, e, _ in movers], dtype=float)
    reach = CONTACT + np.array([w for _, _, w in movers])
    together = _near_boxes(starts, ends, places_a, reach)
    for a, (s, e, w) in enumerate(movers):
        alone = _plain_near_box(
            np.array(s, float), None if e is None else np.array(e, float), places_a, CONTACT + w
        )
        assert together[a].tolist() == alone.tolist()


@settings(max_examples=300, deadline=None)
@given(
    steps=st.lists(st.tuples(place, place), min_size=1, max_size=8),
    places=st.lists(place, min_size=1, max_size=22),
)
def test_steps_near_places_keeps_every_pair_within_contact(steps, places):
    starts = np.array([s for s, _ in steps], dtype=float)
    ends = np.array([e for _, e in steps], dtype=float)
    near = _steps_near_places(starts, ends, np.array(places, dtype=float), CONTACT)
    for a, (s, e) in enumerate(steps):
        for b, p in enumerate(places):
            closest, _ = segment_entry(np.array(s), np.array(e), np.array(p), D)
            if closest <= CONTACT:
                assert near[a, b]


@settings(max_examples=300, deadline=None)
@given(
    rows=track_rows,
    elapsed=st.lists(st.floats(-0.5, 5.0), min_size=12, max_size=12),
    t=st.floats(0.0, 100.0),
    still=st.sets(st.integers(0, 11)),
)
def test_predict_all_matches_predict_per_track(rows, elapsed, t, still):
    tracker = _tracker(rows, near=False)
    for track, e in zip(tracker._tracks, elapsed, strict=False):
        track.last_seen_t = t - e
    assert _bits(tracker._predict_all(t, still)) == _bits(_plain_predict_all(tracker, t, still))


finite = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False)


@settings(max_examples=500, deadline=None)
@given(points=st.lists(st.tuples(finite, finite), min_size=1, max_size=12))
def test_median_place_matches_numpy(points):
    places = deque((np.array(p) for p in points), maxlen=12)
    fast, plain = median_place(places), np.median(np.array(places), axis=0)
    np.testing.assert_array_equal(fast, plain)
    nonzero = plain != 0.0  # the sign of a zero median may differ: -0.0 == 0.0 everywhere it is used
    assert _bits(fast[nonzero]) == _bits(plain[nonzero])


@pytest.mark.parametrize(
    "points",
    [
        [(1.0, 2.0)],
        [(1.0, 2.0), (3.0, -4.0)],
        [(1.0, 2.0), (3.0, 4.0), (2.0, 3.0), (1e300, -1e300)],
        [
            (0.1, 0.2),
            (0.7, 0.3),
            (0.3, 0.9),
            (0.5, 0.5),
            (0.9, 0.1),
            (0.2, 0.8),
            (0.4, 0.4),
            (0.6, 0.6),
            (0.8, 0.7),
        ],
        [(math.nan, 1.0), (2.0, 3.0), (4.0, 5.0)],
    ],
)
def test_median_place_rows(points):
    places = [np.array(p) for p in points]
    np.testing.assert_array_equal(median_place(places), np.median(np.array(places), axis=0))


@given(a=st.tuples(finite, finite), b=st.tuples(finite, finite), same=st.booleans())
def test_same_place_matches_array_equal(a, b, same):
    a_, b_ = np.array(a), np.array(a if same else b)
    assert same_place(a_, b_) == np.array_equal(a_, b_)


@settings(max_examples=500, deadline=None)
@given(
    path=st.lists(st.tuples(finite, finite, st.booleans()), min_size=1, max_size=14),
    gaps=st.lists(st.floats(1e-3, 0.2), min_size=14, max_size=14),
)
def test_speed_matches_plain_form(path, gaps):
    frames, t, xy = [], 0.0, None
    for (x, y, repeat), gap in zip(path, gaps, strict=False):
        xy = xy if repeat and xy is not None else np.array([x, y])  # a picture shown twice: no step
        frames.append(SimpleNamespace(xy={"white": xy}, t=t))
        t += gap
    fast, plain = _speed(frames, "white"), _plain_speed(frames, "white")
    assert fast == plain and math.copysign(1.0, fast) == math.copysign(1.0, plain)


def test_predict_all_matches_predict_per_track_on_many_random_tracks():
    """Hypothesis favours simple values whose products round alike in any order; tracks drawn at
    random bring out a difference in the order of the operations too."""
    rng = np.random.default_rng(8)
    statuses_ = [TrackStatus.VISIBLE, TrackStatus.HELD, TrackStatus.TENTATIVE]
    tracker = BallTracker()
    tracker._tracks = [
        _track(
            ti,
            rng.uniform(0.0, 3600.0, 2),
            rng.uniform(-4000.0, 4000.0, 2),
            statuses_[ti % 3],
            bool(rng.integers(2)),
            None,
            rng.uniform(0.0, 3600.0, 2),
            last_seen_t=float(rng.uniform(0.0, 10.0)),
            moving_at_loss=bool(rng.integers(2)),
        )
        for ti in range(3000)
    ]
    still = set(rng.choice(3000, 300, replace=False).tolist())
    assert _bits(tracker._predict_all(10.5, still)) == _bits(_plain_predict_all(tracker, 10.5, still))


def test_stop_at_contacts_matches_on_many_random_steps():
    """Many steps drawn at random through a pack of resting balls: the pairs found at once and
    tested exactly stop every step where testing every pair stops it."""
    rng = np.random.default_rng(16)
    for _ in range(200):
        tracker = BallTracker()
        pack = rng.uniform(800.0, 1000.0, (15, 2))
        tracks = [_track(k, p, (0.0, 0.0), TrackStatus.VISIBLE, False, p, p) for k, p in enumerate(pack)]
        starts = rng.uniform(600.0, 1200.0, (5, 2))
        tracks += [
            _track(15 + k, s, (0.0, 0.0), TrackStatus.VISIBLE, True, None, s) for k, s in enumerate(starts)
        ]
        tracker._tracks = tracks
        predicted = np.array([tr.xy for tr in tracks])
        predicted[15:] += rng.uniform(-150.0, 150.0, (5, 2))
        plain = predicted.copy()
        _plain_stop_at_contacts(tracker, plain)
        tracker._stop_at_contacts(predicted)
        assert _bits(predicted) == _bits(plain)
