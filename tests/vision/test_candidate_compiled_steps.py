"""A region search's candidate steps compiled whole give the very values of the array statements
they replace, bit for bit.

``_plausible`` (each candidate's ring and roundness samples, its place against the cushions and
the pockets, and the verdicts drawn from them) and ``_MosaicIntruders`` (which labels a window
edge inside the crop cuts, and which region each candidate lies in) were Python over a few dozen
candidates calling small NumPy functions; each is now one compiled pass over all of them. Each is
checked here against the plain form it replaced (kept below as the reference, as it was) on
hypothesis' inputs: masks of blobs, places on half pixels (the roundings' ties) and beyond the
picture, table places by the cushions, in the pockets' jaws and NaN.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import Scene, make_view, render

import snooker.vision.classic as classic
from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import (
    ClassicConfig,
    ClassicDetector,
    TableGeometry,
    _cloth_at,
    _in_jaws,
    _mask_at,
    _Mosaic,
    _MosaicIntruders,
    _near_cushion,
    _pixel_indices,
    _plausible,
    _radius_at,
    _regions_touching,
    _ring_samples,
    _round_offsets,
    _shaded_cloth,
)
from snooker.vision.cloth import ClothEstimate

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# --------------------------------------------------------------------------- plain forms
def _plain_round(foreground, centres, radii, config, beyond=None):
    """``_round`` as it was (``_plausible``'s roundness)."""
    if len(centres) == 0:
        return np.zeros(0, dtype=bool)
    offsets = _round_offsets(config.round_directions, tuple(config.round_radii))
    samples = _mask_at(foreground, centres, radii, offsets)
    if beyond is not None:
        samples |= ~_mask_at(beyond, centres, radii, offsets)
    samples = samples.reshape(len(centres), config.round_directions, -1)
    filled = samples.mean(axis=2)
    return (filled >= config.min_round_fill).mean(axis=1) >= config.min_round_directions


def _plain_plausible(
    centres,
    has_highlight,
    foreground,
    body,
    g,
    centres_mm,
    intruding,
    config,
    bodiless,
    image,
    cloth_at,
    darkness=None,
):
    """``_plausible`` as it was: array statements over all candidates."""
    radii = _radius_at(g.radius, centres)
    if darkness is None:
        darkness = np.zeros(len(centres), dtype=bool)
    must_stand_out = ~has_highlight | intruding | _near_cushion(centres_mm, config.near_cushion_mm)
    # Near the playing area's edge (cushion faces, rails) the ring is unknown: only samples well
    # inside it count, as cloth or as blocked.
    reach = config.intruder_ball_ring * radii
    # the masks sampled first and combined at the samples (not over the whole image)
    on_inner = _ring_samples(g.inner, centres, reach, config.ring_samples)
    on_foreground = _ring_samples(foreground, centres, reach, config.ring_samples)
    if darkness.any():
        on_foreground[darkness] = _ring_samples(body, centres[darkness], reach[darkness], config.ring_samples)
    blocked = on_inner & on_foreground
    # A stripe (the cue, its shadow, an arm) crosses the circle on two opposite sides; the cue
    # touching the cue ball comes from one side only.
    half = config.ring_samples // 2
    crossed = np.any(blocked[:, :half] & blocked[:, half:], axis=1)
    judged = np.maximum(1, on_inner.sum(axis=1))
    lit = (on_inner & ~blocked).sum(axis=1)
    cloth_share = lit / judged
    round_enough = np.where(
        has_highlight,
        _plain_round(body, centres, radii, config),
        _plain_round(foreground, centres, radii, config, beyond=g.area),
    )
    if darkness.any():
        round_enough[darkness] = _plain_round(body, centres[darkness], radii[darkness], config, beyond=g.area)
    round_enough |= bodiless
    resting = STANDARD_TABLE.on_playing_area(centres_mm, margin_mm=config.cushion_margin_mm)
    possible = round_enough & (resting | _in_jaws(centres_mm, config.jaws_reach_mm))
    blob = intruding & ~has_highlight
    # The cloth in shade (a player's, the cue's, the ball's own shadow) is cloth on the circle: it
    # is foreground only because it is darker. Judged only where it can decide (it only adds cloth).
    undecided = possible & must_stand_out & ~(blob & crossed) & ~darkness
    undecided &= (cloth_share < config.intruder_ball_min_cloth) | (
        blob & (cloth_share < config.intruder_blob_min_cloth)
    )
    shade = blocked & undecided[:, None]
    if shade.any():
        rows, cols = np.nonzero(shade)
        points = centres[rows] + reach[rows, None] * _round_offsets(config.ring_samples, (1.0,))[cols]
        shade[rows, cols] = _shaded_cloth(image, cloth_at, points, config)
        solid = blocked & ~shade
        # ...but not where what is not cloth crosses the circle on two opposite sides: the candidate
        # lies inside it (a glint on a hand, whose shadow lies beside it)
        inside = np.any(solid[:, :half] & solid[:, half:], axis=1)
        shade &= ~inside[:, None]
        cloth_share = (lit + shade.sum(axis=1)) / judged
    stands_out = cloth_share >= config.intruder_ball_min_cloth
    return (
        possible
        & (~must_stand_out | stands_out)
        & ~(blob & (crossed | (cloth_share < config.intruder_blob_min_cloth)))
    )


class _PlainMosaicIntruders:
    """``_MosaicIntruders`` as it was: the window edges and the cut regions visited in Python."""

    def __init__(self, regions, foreground, mosaic):
        self.regions, self.foreground, self.mosaic = regions, foreground, mosaic
        self._labelled = None

    def _labels(self):
        if self._labelled is not None:
            return self._labelled
        mosaic, regions = self.mosaic, self.regions
        labels, areas, touching = _regions_touching(self.foreground, mosaic.geometry.band)
        intruder = touching & (areas > regions.min_area_px)
        cut = np.zeros(len(areas), dtype=bool)
        crop_h, crop_w = mosaic.crop_shape
        for (x0, y0, x1, y1), top in zip(mosaic.boxes, mosaic.tops, strict=True):
            h, w = y1 - y0, x1 - x0
            for inside, edge in (
                (y0 > 0, labels[top, :w]),
                (y1 < crop_h, labels[top + h - 1, :w]),
                (x0 > 0, labels[top : top + h, 0]),
                (x1 < crop_w, labels[top : top + h, w - 1]),
            ):
                if inside:
                    cut[edge] = True
        cut[0] = intruder[0] = False
        self._labelled = labels, intruder, cut
        return self._labelled

    def __call__(self, centres):
        if len(centres) == 0:
            return np.zeros(0, dtype=bool)
        mosaic, regions = self.mosaic, self.regions
        labels, intruder, cut = self._labels()
        ix, iy = _pixel_indices(centres, labels.shape)
        which = labels[iy, ix]
        result = intruder[which]
        for k in sorted(set(which[cut[which]].tolist())):
            first = int(np.flatnonzero(which == k)[0])
            seed = mosaic.to_crop(np.array([[ix[first], iy[first]]], dtype=float))[0].astype(int)
            followed = regions.intrudes(int(seed[0]), int(seed[1]))
            if followed is not None:
                result[which == k] = followed
        return result


# --------------------------------------------------------------------------- inputs
def _blobs(rng, h, w, count):
    """A bool mask of ``count`` random discs and bars (regions of every size, touching edges)."""
    yy, xx = np.mgrid[:h, :w]
    mask = np.zeros((h, w), dtype=bool)
    for _ in range(count):
        cx, cy, r = rng.uniform(-5, w + 5), rng.uniform(-5, h + 5), rng.uniform(1.0, 12.0)
        if rng.random() < 0.7:
            mask |= (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
        else:
            mask |= (np.abs(xx - cx) <= r) & (np.abs(yy - cy) <= 1.5)
    return mask


def _places(rng, n, h, w):
    """n places (px): a third on half pixels (rounding ties), some beyond the picture."""
    points = rng.uniform([-8.0, -8.0], [w + 8.0, h + 8.0], (n, 2))
    half = rng.random(n) < 1 / 3
    points[half] = np.round(points[half] * 2.0) / 2.0
    return points


def _table_places(rng, n):
    """n table places (mm): anywhere, by the cushions and their noses, in the pockets' jaws, NaN."""
    width, length = STANDARD_TABLE.width_mm, STANDARD_TABLE.length_mm
    mouths = np.array([p.mouth_centre for p in STANDARD_TABLE.pockets.values()])
    kind = rng.integers(0, 5, n)
    points = rng.uniform([-60.0, -60.0], [width + 60.0, length + 60.0], (n, 2))
    edge = kind == 1
    points[edge, 0] = rng.choice([0.0, 8.0, 60.0, width - 60.0, width - 44.55, width], np.count_nonzero(edge))
    jaws = kind == 2
    points[jaws] = mouths[rng.integers(0, 6, np.count_nonzero(jaws))] + rng.uniform(
        -50, 50, (np.count_nonzero(jaws), 2)
    )
    points[kind == 3] = np.nan
    points[(kind == 4) & (rng.random(n) < 0.5), 1] = np.nan
    return points


def _plausible_inputs(seed, n):
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(20, 90)), int(rng.integers(20, 120))
    area = _blobs(rng, h, w, 6) | (rng.random() < 0.5)
    inner = area & _blobs(rng, h, w, 8) if rng.random() < 0.5 else area.copy()
    foreground = _blobs(rng, h, w, int(rng.integers(1, 14)))
    body = foreground & _blobs(rng, h, w, 10) if rng.random() < 0.7 else _blobs(rng, h, w, 5)
    radius = rng.uniform(2.0, 9.0, (h, w)).astype(np.float32)
    g = TableGeometry(0, 0, w, h, area, inner, area, radius, 5.0, 5.0)
    centres = _places(rng, n, h, w)
    flags = rng.random((4, n))
    has_highlight, intruding, bodiless = flags[0] < 0.5, flags[1] < 0.3, flags[2] < 0.15
    darkness = (flags[3] < 0.3) & ~has_highlight if rng.random() < 0.5 else None
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    chroma = rng.dirichlet([4.0, 6.0, 2.0], (h, w)).astype(np.float32)
    cloth = ClothEstimate(chroma, rng.uniform(100.0, 500.0, (h, w)).astype(np.float32))
    return (centres, has_highlight, foreground, body, g, _table_places(rng, n), intruding), (
        bodiless,
        image,
        _cloth_at(cloth),
        darkness,
    )


# --------------------------------------------------------------------------- the compiled forms
@settings(max_examples=300, deadline=None)
@given(SEEDS, st.integers(0, 30))
def test_plausible_as_the_plain_form(seed, n) -> None:
    config = ClassicConfig()
    first, (bodiless, image, cloth_at, darkness) = _plausible_inputs(seed, n)
    fast = _plausible(*first, config, bodiless, image, cloth_at, darkness)
    plain = _plain_plausible(*first, config, bodiless, image, cloth_at, darkness)
    assert fast.dtype == plain.dtype and fast.shape == plain.shape and fast.tobytes() == plain.tobytes()


def test_the_generated_candidates_meet_every_branch(monkeypatch) -> None:
    # the property above is only as good as its inputs: over a few seeds they must be judged by
    # every rule (kept and refused, the shade on the ring judged, found by darkness)
    config = ClassicConfig()
    shaded = []

    def counting(*args):
        shaded.append(len(args[2]))
        return _shaded_cloth(*args)

    monkeypatch.setattr(classic, "_shaded_cloth", counting)
    verdicts, dark = [], 0
    for seed in range(40):
        first, (bodiless, image, cloth_at, darkness) = _plausible_inputs(seed, 25)
        verdicts.append(_plausible(*first, config, bodiless, image, cloth_at, darkness))
        dark += 0 if darkness is None else int(darkness.sum())
    verdicts = np.concatenate(verdicts)
    assert verdicts.any() and not verdicts.all()
    assert len(shaded) >= 5 and dark > 0


windows = st.lists(
    st.tuples(st.integers(-40, 1400), st.integers(-40, 800), st.integers(4, 300), st.integers(4, 200)).map(
        lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3])
    ),
    min_size=1,
    max_size=5,
)


class _Regions:
    """A stand-in for ``_CropRegions``: answers by the seed pixel (None for some), and the asks in order."""

    def __init__(self, min_area_px):
        self.min_area_px = min_area_px
        self.asked = []

    def intrudes(self, x, y):
        self.asked.append((x, y))
        return None if (x + 3 * y) % 5 == 0 else bool((x * 7 + y) % 3)


_SCENE: list = []


def _scene():
    if not _SCENE:
        view = make_view()
        detector = ClassicDetector()
        image = render(Scene(balls=[("white", 1400.0, 1700.0), ("red", 1200.0, 1500.0)]), view)
        detector(image, view)
        _SCENE.append((detector.scene, image))
    return _SCENE[0]


@settings(max_examples=80, deadline=None)
@given(windows, SEEDS, st.sampled_from([0.0, 20.0, 200.0]))
def test_mosaic_intruders_as_the_plain_form(boxes, seed, min_area) -> None:
    scene, image = _scene()
    mosaic = _Mosaic.of(image, scene, boxes, ClassicConfig())
    if mosaic is None:
        return
    rng = np.random.default_rng(seed)
    h, w = mosaic.image.shape[:2]
    foreground = _blobs(rng, h, w, int(rng.integers(0, 25)))
    fast_regions, plain_regions = _Regions(min_area), _Regions(min_area)
    fast = _MosaicIntruders(fast_regions, foreground, mosaic)
    plain = _PlainMosaicIntruders(plain_regions, foreground, mosaic)
    # asked several times, as a search asks (the regions labelled on the first ask)
    for n in (0, *rng.integers(1, 30, 3)):
        centres = _places(rng, int(n), h, w)
        a, b = fast(centres), plain(centres)
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    assert fast_regions.asked == plain_regions.asked
