"""The motion gate's faster forms give the very values of the plain forms they replace, bit for bit.

The gate's own work (what the detection stage spends beside the detector's searches) is many small
steps on the table's thumbnail; the faster forms do the same arithmetic with less around it, or skip
work whose answer is already known. Each is checked here against the plain form it replaced (kept
below as the reference, as it was) on hypothesis' inputs.
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import Scene, make_view, render

from snooker.vision.classic import ClassicDetector
from snooker.vision.gating import (
    MotionGateConfig,
    MotionGatedDetector,
    _as_uint8,
    _ellipse,
    _LostBalls,
    _same_name_gaps,
)
from snooker.vision.types import BallDetections

NAMES = ("red", "yellow", "white", "black")
coordinate = st.floats(min_value=-50.0, max_value=1300.0, allow_nan=False, width=64)
near = st.integers(min_value=0, max_value=12).map(float)
"""Places on a coarse grid, so that balls meet, coincide and sit at exactly a reach apart."""


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype=float).tobytes()


# --------------------------------------------------------------------------- plain forms
def _plain_same_name_gaps(xy_a, names_a, xy_b, names_b):
    """``_same_name_gaps`` as it was."""
    gap = np.linalg.norm(xy_a[:, None] - xy_b[None], axis=2)
    gap[names_a.astype(object)[:, None] != names_b.astype(object)[None]] = np.inf
    return gap


def _plain_still_lost(lost: _LostBalls, previous, now, reach: float, retry: int) -> _LostBalls:
    """``MotionGatedDetector._still_lost`` as it was (a view known, ``lost_retry_frames`` > 0)."""
    xy, names, sure, age = lost.xy_px, lost.names, lost.confidence, lost.age + 1
    if previous is not None and len(previous):
        xy = np.concatenate([xy, previous.xy_px])
        names = np.concatenate([names, previous.ball.astype(object)])
        sure = np.concatenate([sure, previous.confidence])
        age = np.concatenate([age, np.ones(len(previous), dtype=int)])
    if len(xy) == 0:
        return lost
    found = np.zeros(len(xy), bool)
    if len(now):
        gap = _plain_same_name_gaps(xy, names, now.xy_px, now.ball)
        found = gap.min(axis=1) <= reach
    keep = ~found & (age <= retry)
    return _LostBalls(xy[keep], names[keep], sure[keep], age[keep])


def _plain_core(changed: np.ndarray, reach: int) -> np.ndarray:
    """``MotionGatedDetector._core``'s growth as it was."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    return cv2.dilate(changed.astype(np.uint8), disc)


# --------------------------------------------------------------------------- inputs
@st.composite
def detections(draw, grid: bool = False) -> BallDetections:
    n = draw(st.integers(min_value=0, max_value=8))
    value = near if grid else coordinate
    xy = np.array([[draw(value), draw(value)] for _ in range(n)], dtype=float).reshape(n, 2)
    names = [draw(st.sampled_from(NAMES)) for _ in range(n)]
    return BallDetections(xy, np.full(n, 10.0), np.array(names, dtype=object), np.ones(n))


# --------------------------------------------------------------------------- the forms
@settings(max_examples=300, deadline=None)
@given(detections(), detections())
def test_same_name_gaps_is_the_norm_over_balls_of_one_name(a, b):
    fast = _same_name_gaps(a.xy_px, a.ball, b.xy_px, b.ball)
    plain = _plain_same_name_gaps(a.xy_px, a.ball, b.xy_px, b.ball)
    assert fast.shape == plain.shape and _bits(fast) == _bits(plain)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(detections(grid=True), st.integers(min_value=1, max_value=4)), min_size=1, max_size=6),
    st.sampled_from([0.5, 1.0, 2.0]),
    st.integers(min_value=1, max_value=6),
)
def test_balls_still_lost_are_the_plain_forms_when_the_last_detections_stand(runs, radius, retry):
    """Each detection stands for a few frames (the gate reuses the same object): the lost balls
    carried over those frames are those the plain form finds, age and order included."""
    config = MotionGateConfig(lost_retry_frames=retry, motion_match_radii=5.0)
    gate = MotionGatedDetector(ClassicDetector(), config)
    gate._thumb = SimpleNamespace(ball_radius_px=radius)
    reach = config.motion_match_radii * radius
    plain, previous = _LostBalls.none(), None
    for found, frames in runs:
        for _ in range(frames):
            fast = gate._still_lost(previous, found)
            plain = _plain_still_lost(plain, previous, found, reach, retry)
            assert _bits(fast.xy_px) == _bits(plain.xy_px)
            assert list(fast.names) == list(plain.names) and list(fast.age) == list(plain.age)
            assert _bits(fast.confidence) == _bits(plain.confidence)
            gate._missing, previous = fast, found


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=1, max_value=40),
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_the_change_is_grown_as_before(rows, cols, reach, seed):
    changed = np.random.default_rng(seed).random((rows, cols)) < 0.1
    assert np.array_equal(_as_uint8(changed), changed.astype(np.uint8))
    grown = cv2.dilate(_as_uint8(changed), _ellipse(reach))
    assert grown.dtype == np.uint8 and np.array_equal(grown, _plain_core(changed, reach))


def test_only_a_bool_mask_is_read_as_uint8():
    with pytest.raises(TypeError):
        _as_uint8(np.zeros((2, 2), np.uint8))


class _UnsureFollower:
    """The classical detector, whose follower never vouches for a ball (the regions are searched)."""

    depends_only_on_image = True

    def __init__(self) -> None:
        self.inner = ClassicDetector()
        self.follows = self.searches = 0

    def __call__(self, image, view):
        return self.inner(image, view)

    def redetect(self, image, view, windows, owner, missing=None):
        self.searches += 1
        return self.inner.redetect(image, view, windows, owner, missing)

    def follow(self, image, view, rows, expected):
        self.follows += 1
        return None


def test_a_frames_change_is_grown_once_when_its_balls_cannot_be_followed(monkeypatch):
    """The follower's look and the region search read the same grown change: it is made once."""
    view = make_view()
    grown: list[np.ndarray] = []
    original = MotionGatedDetector._core

    def recording(self, changed, t):
        grown.append(changed.copy())
        return original(self, changed, t)

    monkeypatch.setattr(MotionGatedDetector, "_core", recording)
    detector = _UnsureFollower()
    gated = MotionGatedDetector(detector, MotionGateConfig(first_full_again_frames=0))
    resting = [("pink", 900.0, 2800.0), ("red", 500.0, 2600.0)]
    gated(render(Scene(balls=[*resting, ("white", 1200.0, 1000.0)]), view), view)
    grown.clear()
    gated(render(Scene(balls=[*resting, ("white", 1200.0, 1030.0)]), view), view)
    assert (detector.follows, detector.searches) == (1, 1)
    assert len(grown) == 1
