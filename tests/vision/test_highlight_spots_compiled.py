"""The highlight spots' last step compiled whole gives the very values of the statements it
replaces, bit for bit.

``classic._highlight_spots`` ended in a Python loop over the kinds of highlight, each merged by
``_merge_close`` (its groups by ``_graph_components``), and a filter of glows; it is now
``_spots_merged``. It is checked here against the plain form it replaced (kept below as the
reference, as it was) on hypothesis' inputs: spots on a half-pixel grid (equal gaps, the merges'
and the radius map's roundings' ties).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.vision.classic import (
    ClassicConfig,
    _below_highlight,
    _linked_groups,
    _merged_points,
    _radius_at,
    _spots_merged,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# --------------------------------------------------------------------------- plain forms
def _plain_graph_components(linked):
    """``_graph_components`` as it was."""
    n = len(linked)
    group = np.arange(n)
    if not np.any(linked & ~np.eye(n, dtype=bool)):
        return group
    while True:
        lowest = np.minimum(group, np.where(linked, group[None, :], n).min(axis=1))
        lowest = lowest[lowest]
        if np.array_equal(lowest, group):
            break
        group = lowest
    return np.unique(group, return_inverse=True)[1]


def _plain_merge_close(points, weights, distance):
    """``_merge_close(..., with_totals=True)`` as it was."""
    if len(points) == 0:
        return points, np.zeros(0)
    gap = np.linalg.norm(points[:, None] - points[None], axis=2)
    linked = gap < np.minimum(distance[:, None], distance[None])
    if np.count_nonzero(linked) == len(points):
        return points.astype(float), weights.astype(float)
    group = _plain_graph_components(linked)
    sums = np.zeros((group.max() + 1, 2))
    np.add.at(sums, group, points * weights[:, None])
    totals = np.bincount(group, weights=weights)
    return sums / totals[:, None], totals


def _plain_spots_merged(centroids, areas, r, inside, on_body, bodiless, partial, radius, config):
    """``_highlight_spots``' last step as it was (from its kinds to its five outputs)."""
    found, kinds, sizes = [np.zeros((0, 2))], [np.zeros((0, 3), bool)], [np.zeros(0)]
    loosely = inside & ~on_body
    if loosely.any() and on_body.any():
        rows = np.flatnonzero(inside)
        reach = r[rows] * config.highlight_merge
        gap = np.linalg.norm(centroids[rows][:, None] - centroids[rows][None], axis=2)
        group = _plain_graph_components(gap < np.minimum(reach[:, None], reach[None]))
        held = np.zeros(group.max() + 1, dtype=bool)
        held[group[on_body[rows]]] = True
        loosely[rows[held[group]]] = False
    for kind, flags in (
        (on_body, (False, False, False)),
        (bodiless, (True, False, False)),
        (partial, (False, True, False)),
        (loosely, (False, False, True)),
    ):
        if not kind.any():
            continue
        merged, merged_areas = _plain_merge_close(
            centroids[kind], areas[kind], r[kind] * config.highlight_merge
        )
        found.append(_below_highlight(merged, _radius_at(radius, merged), config))
        kinds.append(np.tile(flags, (len(merged), 1)))
        sizes.append(merged_areas)
    centres = np.concatenate(found).reshape(-1, 2)
    flags = np.concatenate(kinds).reshape(-1, 3).astype(bool)
    spot_areas = np.concatenate(sizes)
    unbodied = flags[:, :2].any(axis=1)
    own = ~flags.any(axis=1)
    if unbodied.any() and own.any():
        gap = np.linalg.norm(centres[unbodied][:, None] - centres[own][None], axis=2)
        near = gap.min(axis=1) < 2.0 * _radius_at(radius, centres[unbodied])
        keep = np.ones(len(centres), dtype=bool)
        keep[np.flatnonzero(unbodied)[near]] = False
        centres, flags, spot_areas = centres[keep], flags[keep], spot_areas[keep]
    return centres, flags[:, 0], flags[:, 1], spot_areas, flags[:, 2]


def _same(a, b) -> bool:
    """Equal values, shapes and dtypes; floats bit for bit."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    return a.tobytes() == b.tobytes() if a.dtype.kind == "f" else bool(np.array_equal(a, b))


# --------------------------------------------------------------------------- the assignment
# --------------------------------------------------------------------------- the highlight spots
def _spots(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` spots on a half-pixel grid in a few clusters (equal gaps; merges through others)."""
    centres = rng.integers(4, 36, (max(1, n // 3), 2)).astype(float)
    spots = centres[rng.integers(0, len(centres), n)] + rng.integers(-6, 7, (n, 2)) / 2.0
    return np.clip(spots, 0.0, 39.0)


@settings(max_examples=400, deadline=None)
@given(SEEDS, st.integers(0, 14), st.booleans(), st.booleans())
def test_spots_merged_are_the_plain_loop(seed: int, n: int, view: bool, ties: bool) -> None:
    """``_spots_merged`` gives the plain loop's centres, kinds and areas bit for bit: spots held
    on the body, bodiless, partly shown and held on the loose body alone, in clusters, a radius
    map with ties at its roundings (contiguous, and a view as a follower's window is), and with
    ``ties`` radii of a few values (a glow exactly a diameter from a ball's own highlight)."""
    rng = np.random.default_rng(seed)
    config = ClassicConfig()
    if ties:
        whole = rng.choice(np.array([1.5, 2.0, 2.5], np.float32), (40, 44))
    else:
        whole = rng.uniform(1.5, 4.0, (40, 44)).astype(np.float32)
    radius = whole[:, 2:42] if view else np.ascontiguousarray(whole[:, :40])
    centroids = _spots(rng, n)
    areas = rng.integers(1, 9, n).astype(float)
    r = _radius_at(radius, centroids)
    inside = rng.random(n) < 0.7
    on_body = inside & (rng.random(n) < 0.5)
    outside = ~inside
    bodiless = outside & (rng.random(n) < 0.5)
    partial = outside & ~bodiless & (rng.random(n) < 0.6)
    got = _spots_merged(
        centroids,
        areas,
        r,
        inside,
        on_body,
        bodiless,
        partial,
        radius,
        float(config.highlight_merge),
        float(config.highlight_offset),
    )
    expected = _plain_spots_merged(
        centroids, areas, r, inside, on_body.copy(), bodiless, partial, radius, config
    )
    for a, b in zip(got, expected, strict=True):
        assert _same(a, b)


@settings(max_examples=200, deadline=None)
@given(SEEDS, st.integers(0, 12), st.floats(0.5, 4.0), st.booleans())
def test_merged_points_and_groups_are_the_plain_forms(seed: int, n: int, reach: float, grid: bool) -> None:
    """``_merged_points`` is ``_merge_close`` with its totals (a singleton among merged groups is
    its weighted centroid, p·w/w, not always p), ``_linked_groups`` is ``_graph_components`` of
    the same links (numbered by each component's first point); spots on the half-pixel grid or
    off it (centroids of regions)."""
    rng = np.random.default_rng(seed)
    points = _spots(rng, n) + (0.0 if grid else rng.uniform(0.0, 1.0, (n, 2)) / 7.0)
    weights = rng.integers(1, 9, n).astype(float)
    distance = rng.choice([reach, 2.0 * reach], n)
    got = _merged_points(points, weights, distance)
    expected = _plain_merge_close(points, weights, distance)
    assert _same(got[0], expected[0]) and _same(got[1], expected[1])
    gap = np.linalg.norm(points[:, None] - points[None], axis=2)
    linked = gap < np.minimum(distance[:, None], distance[None])
    assert np.array_equal(_linked_groups(points, distance), _plain_graph_components(linked))


def test_a_glow_exactly_a_diameter_away_is_kept_as_it_was() -> None:
    """A bodiless spot exactly a ball's diameter beside a ball's own highlight is no glow on it
    (the plain form's strict ``<``); a half pixel closer, it is."""
    config = ClassicConfig()
    radius = np.full((30, 30), 2.0, np.float32)
    for gap, kept in ((4.0, True), (3.5, False)):
        centroids = np.array([[10.0, 10.0], [10.0 + gap, 10.0]])
        areas, r = np.array([3.0, 2.0]), _radius_at(radius, centroids)
        on_body = np.array([True, False])
        bodiless = ~on_body
        args = (centroids, areas, r, on_body, on_body, bodiless, np.zeros(2, bool), radius)
        got = _spots_merged(*args, float(config.highlight_merge), float(config.highlight_offset))
        expected = _plain_spots_merged(*args, config)
        assert len(got[0]) == (2 if kept else 1)
        for a, b in zip(got, expected, strict=True):
            assert _same(a, b)
