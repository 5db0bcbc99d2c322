"""A region search's candidate-level steps in their faster forms give the very values of the plain
forms they replace, bit for bit.

The candidates of a search are few (a handful to a few dozen), so their steps cost Python calls
more than arithmetic: the faster forms do the same arithmetic in fewer calls (one lookup, one
compiled loop, one array assignment). Each is checked here against the plain form it replaced
(kept below as the reference, as it was) on hypothesis' inputs.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import Scene, make_view, render

from snooker.balls import BALL_NAMES
from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import (
    ClassicConfig,
    ClassicDetector,
    _clamp,
    _highlight_drop,
    _in_jaws,
    _Mosaic,
    _peaks_reach,
    _separated,
    _unfound_windows,
)
from snooker.vision.colour import _labelling_key, _named_slots, _slots

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# --------------------------------------------------------------------------- plain forms
def _plain_window_of(mosaic, points):
    """``_Mosaic.window_of`` as it was: the last window starting at or above, clamped."""
    rows = np.searchsorted(mosaic.tops, points[:, 1], side="right") - 1
    return _clamp(rows, len(mosaic.tops) - 1)


def _plain_highlight_drop(radii, config):
    return np.stack([np.zeros_like(radii), config.highlight_offset * radii], axis=1)


def _plain_in_jaws(points_mm, reach_mm):
    if len(points_mm) == 0:
        return np.zeros(0, dtype=bool)
    mouths = np.array([p.mouth_centre for p in STANDARD_TABLE.pockets.values()])
    return np.min(np.linalg.norm(points_mm[:, None] - mouths[None], axis=2), axis=1) <= reach_mm


def _plain_separated(points_mm, taken_mm, separation_mm, distinct=None):
    keep = np.zeros(len(points_mm), dtype=bool)
    if len(points_mm) == 0:
        return keep
    free = np.ones(len(points_mm), dtype=bool)
    if len(taken_mm):
        free = np.min(np.linalg.norm(points_mm[:, None] - taken_mm[None], axis=2), axis=1) >= separation_mm
    close = np.linalg.norm(points_mm[:, None] - points_mm[None], axis=2) < separation_mm
    if distinct is not None:
        close &= ~distinct
    for i in np.nonzero(free)[0]:
        if free[i]:
            keep[i] = True
            free &= ~close[i]
    return keep


def _plain_peaks_reach(lightness, spots, radii, asked, window, least):
    """``_distinct_highlights``' loop as it was (Python's rounding and slicing)."""
    h, w = lightness.shape
    reached = np.zeros(len(spots), dtype=bool)
    for i in np.flatnonzero(asked):
        half = max(1, round(window * radii[i]))
        x, y = round(spots[i, 0]), round(spots[i, 1])
        square = lightness[max(0, y - half) : min(h, y + half + 1), max(0, x - half) : min(w, x + half + 1)]
        reached[i] = square.size > 0 and float(square.max()) >= least
    return reached


def _plain_unfound_windows(known, known_window, reach, fresh, fresh_window):
    gap = np.linalg.norm(known[:, None] - fresh[None], axis=2)
    gap[(known_window[:, None] != fresh_window[None]) | (gap > reach[:, None])] = np.inf
    matched = np.zeros(len(known), dtype=bool)
    taken = np.zeros(len(fresh), dtype=bool)
    for flat in np.argsort(gap, axis=None):
        i, j = np.unravel_index(flat, gap.shape)
        if not np.isfinite(gap[i, j]):
            break
        if not matched[i] and not taken[j]:
            matched[i] = taken[j] = True
    return np.unique(known_window[~matched])


def _plain_labelling_key(solution, slot_index):
    _, _, rows, cols = solution
    named = cols < len(slot_index)
    names = np.where(named, slot_index[np.minimum(cols, len(slot_index) - 1)], -1)
    return tuple(int(v) for v in names[np.argsort(rows)])


def _plain_named_slots(solution, slots):
    """``label_balls``' last lines as they were: a loop over the assignment's pairs."""
    _, costs, rows, cols = solution
    n = len(costs)
    labels = np.full(n, "", dtype=object)
    keep = np.zeros(n, dtype=bool)
    for row, col in zip(rows, cols, strict=True):
        if col < len(slots):
            labels[row] = slots[col]
            keep[row] = True
    posterior = np.exp(-(costs - costs.min(axis=1, keepdims=True)))
    posterior /= posterior.sum(axis=1, keepdims=True)
    confidence = np.zeros(n)
    for i in np.nonzero(keep)[0]:
        confidence[i] = posterior[i, BALL_NAMES.index(labels[i])]
    return labels, confidence, keep


# --------------------------------------------------------------------------- inputs
half_steps = st.integers(-60, 160).map(lambda v: v / 2.0)
"""Places on a half-pixel grid, in and beyond a small picture, so that roundings meet their ties."""


def _points(rng, n, spread):
    """n points, a third of them on a grid of ``spread`` / 8 (ties and equal gaps), the rest anywhere."""
    points = rng.uniform(-spread / 4, spread, (n, 2))
    grid = rng.random(n) < 1 / 3
    points[grid] = np.round(points[grid] / (spread / 8)) * (spread / 8)
    return points


# --------------------------------------------------------------------------- the fast forms
@settings(max_examples=200, deadline=None)
@given(SEEDS, st.integers(0, 12), st.integers(0, 5), st.sampled_from([10.0, 52.5, 200.0]), st.booleans())
def test_separated_as_the_plain_form(seed, n, taken, separation, with_distinct) -> None:
    rng = np.random.default_rng(seed)
    points, taken_mm = _points(rng, n, 300.0), _points(rng, taken, 300.0)
    distinct = None
    if with_distinct:
        distinct = rng.random((n, n)) < 0.3
        distinct |= distinct.T
    fast = _separated(points, taken_mm, separation, distinct)
    plain = _plain_separated(points, taken_mm, separation, None if distinct is None else distinct.copy())
    assert fast.dtype == plain.dtype and fast.tobytes() == plain.tobytes()


@settings(max_examples=300, deadline=None)
@given(
    SEEDS,
    st.lists(st.tuples(half_steps, half_steps), max_size=6),
    st.sampled_from([0.5, 0.75, 1.0, 1.5]),
    st.sampled_from([1.0, 2.5, 3.5, 4.0, 7.0]),
)
def test_peaks_reach_as_the_plain_form(seed, spots, window, radius) -> None:
    rng = np.random.default_rng(seed)
    lightness = rng.integers(0, 256, (rng.integers(1, 40), rng.integers(1, 50)), dtype=np.uint8)
    spots = np.array(spots, dtype=float).reshape(-1, 2)
    radii = np.full(len(spots), radius) + rng.choice([0.0, 0.5, 1.0 / 3.0], len(spots))
    asked = rng.random(len(spots)) < 0.8
    least = float(rng.choice([0.0, 100.0, 200.5, 255.0, 256.0]))
    fast = _peaks_reach(lightness, spots, radii, asked, window, least)
    plain = _plain_peaks_reach(lightness, spots, radii, asked, window, least)
    assert fast.dtype == plain.dtype and fast.tobytes() == plain.tobytes()


@settings(max_examples=300, deadline=None)
@given(SEEDS, st.integers(0, 8), st.integers(0, 8), st.integers(1, 3))
def test_unfound_windows_as_the_plain_form(seed, n, k, windows) -> None:
    rng = np.random.default_rng(seed)
    known, fresh = _points(rng, n, 80.0), _points(rng, k, 80.0)
    # some fresh balls on known ones (equal gaps, ties in the order)
    on = rng.random(k) < 0.4
    if n:
        fresh[on] = known[rng.integers(0, n, np.count_nonzero(on))] + rng.choice(
            [0.0, 1.0, -2.0], (np.count_nonzero(on), 2)
        )
    known_window, fresh_window = rng.integers(0, windows, n), rng.integers(0, windows, k)
    reach = rng.choice([5.0, 12.0, 30.0], n)
    fast = _unfound_windows(known, known_window, reach, fresh, fresh_window)
    plain = _plain_unfound_windows(known, known_window, reach, fresh, fresh_window)
    assert fast.dtype == plain.dtype and fast.tobytes() == plain.tobytes()


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.integers(0, 10))
def test_highlight_drop_and_jaws_as_the_plain_forms(seed, n) -> None:
    rng = np.random.default_rng(seed)
    config = ClassicConfig()
    for radii in (rng.uniform(2.0, 12.0, n), rng.uniform(2.0, 12.0, n).astype(np.float32)):
        fast, plain = _highlight_drop(radii, config), _plain_highlight_drop(radii, config)
        assert fast.dtype == plain.dtype and fast.shape == plain.shape and fast.tobytes() == plain.tobytes()
    corners = np.array([[0.0, 0.0], [STANDARD_TABLE.width_mm, STANDARD_TABLE.length_mm]])
    points = np.concatenate([_points(rng, n, STANDARD_TABLE.length_mm), corners])
    for reach in (0.0, 60.0, 150.0):
        assert _in_jaws(points, reach).tobytes() == _plain_in_jaws(points, reach).tobytes()
        assert _in_jaws(points[:0], reach).tobytes() == _plain_in_jaws(points[:0], reach).tobytes()


@settings(max_examples=300, deadline=None)
@given(SEEDS, st.integers(1, 24), st.integers(0, 15))
def test_named_slots_and_key_as_the_plain_forms(seed, n, max_reds) -> None:
    rng = np.random.default_rng(seed)
    slots, slot_index = _slots(max_reds)
    m = len(slots)
    costs = rng.uniform(0.0, 40.0, (n, len(BALL_NAMES)))
    costs[rng.random(costs.shape) < 0.2] = 1e3  # far off: posteriors underflow to 0
    # an assignment as linear_sum_assignment gives it: every candidate once, to a slot or left out
    # (a column of its own past the slots), rows in some order
    cols = rng.permutation(m + n)[:n]
    rows = rng.permutation(n) if rng.random() < 0.5 else np.arange(n)
    solution = (float(rng.uniform()), costs, rows, cols)
    labels, confidence, keep = _named_slots(solution, slots, slot_index)
    plain_labels, plain_confidence, plain_keep = _plain_named_slots(solution, slots)
    assert labels.dtype == plain_labels.dtype and labels.tolist() == plain_labels.tolist()
    assert confidence.dtype == plain_confidence.dtype and confidence.tobytes() == plain_confidence.tobytes()
    assert keep.tobytes() == plain_keep.tobytes()
    assert _labelling_key(solution, slot_index) == _plain_labelling_key(solution, slot_index)


windows = st.lists(
    st.tuples(st.integers(-40, 1400), st.integers(-40, 800), st.integers(4, 400), st.integers(4, 300)).map(
        lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3])
    ),
    min_size=1,
    max_size=5,
)


def _scene():
    view = make_view()
    detector = ClassicDetector()
    image = render(Scene(balls=[("white", 1400.0, 1700.0), ("red", 1200.0, 1500.0)]), view)
    detector(image, view)
    return detector.scene, image


_SCENE: list = []


@settings(max_examples=60, deadline=None)
@given(windows, SEEDS)
def test_window_of_as_the_plain_form(boxes, seed) -> None:
    if not _SCENE:
        _SCENE.append(_scene())
    scene, image = _SCENE[0]
    mosaic = _Mosaic.of(image, scene, boxes, ClassicConfig())
    if mosaic is None:
        return
    rng = np.random.default_rng(seed)
    h, w = mosaic.image.shape[:2]
    tops = mosaic.tops.astype(float)
    # anywhere in the mosaic and beyond it, on the windows' first rows, just above them, between
    points = np.concatenate(
        [
            rng.uniform([-5, -5], [w + 5, h + 5], (12, 2)),
            np.stack([np.zeros_like(tops), tops], axis=1),
            np.stack([np.zeros_like(tops), np.nextafter(tops, -np.inf)], axis=1),
            np.stack([np.zeros_like(tops), tops - 0.5], axis=1),
            [[0.0, np.nan], [0.0, -np.inf], [0.0, np.inf]],
        ]
    )
    for some in (points, points[:0], points[:1]):
        fast, plain = mosaic.window_of(some), _plain_window_of(mosaic, some)
        assert fast.dtype == plain.dtype and fast.tobytes() == plain.tobytes()
