"""The fast path of the frame loop: look again only where, and when, the picture changed.

Broadcast snooker is mostly still: the balls rest between strokes, the camera holds its view, and
even while a stroke runs only a few small regions of the table change from one frame to the next.
Two wrappers exploit this, each deciding from a cheap comparison of small thumbnails:

- :class:`MotionGatedDetector` wraps a ball detector. A thumbnail of the table crop is compared,
  pixel by pixel, with a reference holding each place as it looked when its balls were last
  detected. Where nothing changed by more than ``change_threshold``, the balls found there stand
  (at rest, the last detections are returned as they are: the tracker still sees time pass).
  Changed places, grown by about a ball, are detected again — in windows around them when the
  detector can (``redetect``: the classical detector searches all windows in one pass and names
  every ball jointly, as a full detection does), else in full — and the reference is brought up
  to date there. A changed region larger than a few balls (a player, the cue, an arm) is searched
  whole only every ``large_every_frames`` frames; in between only around the balls last seen in
  it — and at once whole if one of them is no longer found there (a cue ball struck hard).
  The whole table is detected again in full at least every ``full_every_frames`` frames, and
  whenever a large part of the table changed.
- :class:`GatedViewCheck` wraps the check that a frame still shows the calibrated table: it runs
  when a sparse sample of the whole frame differs from the one of its last run (a cut, a camera
  move) or every ``every_frames`` frames, and its last answer stands in between.

Why a stroke start or a pot cannot be missed: a ball that starts to move, rolls or drops changes
the pixels it leaves and enters — by the contrast between the ball and the cloth, far above the
threshold once it has moved a pixel or two — so its region is detected again on the frame where the
difference first exceeds the threshold (a ball under a player's cue or hand is followed on every
frame); comparison is with the reference (the last detection there), not with the previous frame,
so slow creeping accumulates until it counts. What stays below the threshold looks, to the
detector too, like what was there. A ball a detection lost (merged with a ball passing by, under a
hand) is looked for around its last place 1, 2, 4, 8 … frames later, up to ``lost_retry_frames``,
so it is found soon after it shows again even where nothing changes any more. What can come late: a
ball a player uncovers (at most ``large_every_frames`` - 1 frames), anything a difference cannot
show (the next full detection).
"""

from __future__ import annotations

import functools
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numba
import numpy as np

from snooker.vision.detector import MissingBalls
from snooker.vision.types import BallDetections

Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1) frame pixels, end exclusive."""


@dataclass(frozen=True)
class MotionGateConfig:
    """When and where balls are detected again (units in the names; radii are the largest expected
    ball radius on the table, px, from the calibration).

    - ``enabled``: False detects every frame in full.
    - ``thumbnail_scale``: frame pixels per thumbnail pixel, each way (block average; a power of 2).
    - ``change_threshold``: a thumbnail pixel changed when a colour channel differs from the
      reference by more than this (0–255 levels; compression noise stays a few levels below).
    - ``area_margin_px``: the playing area is grown by this many thumbnail pixels when changes are
      looked for (a ball at a cushion rises over the nose line).
    - ``core_reach_radii``: changed pixels are grown by this many ball radii: the region detected
      again (a ball that moved less than its size changes only its rim).
    - ``tile_radii``: a changed region larger than this many ball radii either way is cut into
      tiles of this side, each detected in its own window (a cue or an arm lying diagonally
      across the table fills only a strip of its bounding box).
    - ``window_margin_radii``: room (ball radii) around each region or tile in the window the
      detector sees, so everything it measures around a ball lies inside the window.
    - ``large_region_ball_areas``: a changed region (grown) larger than this many ball discs is a
      player, the cue or an arm over the table rather than balls...
    - ``large_every_frames``: ...and is searched whole only on every this many frames; on the
      others only around the balls last seen in it, within ``follow_radii`` ball radii (balls the
      player uncovers are found at most ``large_every_frames`` - 1 frames late; a ball under the
      cue or hand, about to move or moving, is looked at on every frame).
    - ``full_every_frames``: the whole table is detected again, in full, at least this often
      (frames): the safety net against anything a difference cannot see (a slow change of the
      light) and the cloth model's refresh. (Spreading it over bands of the table, one a frame,
      was measured at 1.5–2.5 times a full detection's work in all and dropped more live frames
      under load: docs/PERFORMANCE.md, "Second pass".) The first detection of a view and a change
      over much of the table are full too.
    - ``first_full_again_frames``: the first full detection of a view is made again this many
      frames later (0: not before ``full_every_frames``). A ball at rest that a full detection
      misses is not searched again until the next full detection, unless something changes
      around it; missed on a view's first, it is missing from the table the tracker starts with,
      and a ball first seen once the stroke has begun cannot be potted in it (the stroke finder
      takes it for something else). A candidate on a knife-edge of a test passes or fails with the
      compression's noise, frame by frame: Task2 clip 3's black, frozen on the far cushion, judged
      standing out from the cloth on 4 of the 9 ring samples judged, 0.44 against 0.45, on the
      first frame of the clip scaled to 480 lines and on 8 or 9 of 11 (0.73-0.82) on frames 1 to
      10; missed until the cue ball sent it off (frame 48, the stroke begun on frame 23), its pot
      was lost. Two frames on, not one: a broadcast's 25 frames a second shown at 30 repeat a
      frame every sixth, the same picture. The second look is taken only where it finds a ball
      the gate's detections lack (none of its name within ``motion_match_radii``); else they
      stand, and the frame goes on as if it had not looked, so a view whose first detection
      missed nothing is detected as before. It costs one full detection per view.
    - ``full_above_fraction``: more than this fraction of the playing area changed: detect in full.
    - ``follow_known``: when every changed pixel lies within ``follow_reach_radii`` ball radii of
      the last or expected place of a ball known there (its place changed), the detector's
      follower (``follow``, where it has one) moves those balls, keeping their names, instead of
      searching the regions; where it is unsure, the regions are searched as before. A change
      with no known ball in it (a new ball, a ball coming back), or reaching further (the cue, a
      player), is searched, and so is every frame on which a lost ball's place is due a look
      (``lost_retry_frames``). On since the twenty-first session (docs/PERFORMANCE.md): it follows
      about 30 % of the Task2 clips' frames, 4-6 % of the frame loop...
    - ``follow_stray_ball_areas``: ...but for specks of change (each smaller than this many ball
      discs: a ball's blurred trail, its shadow's edge) outside those reaches: too small to be a
      ball, they stay changed (the reference keeps them) and are searched once they grow. Large
      changes (``large_region_ball_areas``) that reach the playing area's edge and hold no ball
      last seen (a player or the cue coming over the cushion) wait, the same way, for the frame on
      which large regions are searched whole (``large_every_frames``); a ball-sized change at the
      edge (a ball coming back at a cushion or a pocket's jaws) is searched at once.
    - ``edge_band_px``: the band (thumbnail px) along the playing area's edge that tells a change
      comes over the cushions.
    - ``follow_retry_frames``: after the follower could not vouch for a ball, it is asked again
      only this many frames later (what stopped it — the cue at the ball, a neighbour, a ball
      joining — mostly lasts, and a failed try costs as much as a followed frame on top of the
      search).
    - ``motion_match_radii``: a ball's expected place is its last one moved as it moved between
      the two frames before, matched to the nearest ball of its name within this many radii.
    - ``lost_retry_frames``: a ball the last detection had that a new one did not find again (no
      ball of its name within ``motion_match_radii``) is looked for around its last place,
      changed or not, 1, 2, 4, 8 … frames after it was lost, up to this many, until found: a ball
      the detector missed — merged with a ball passing by, under a hand — is found at most about
      as many frames after it shows again as it was missing, not at the next full detection (once
      nothing changes there, its place would not be searched again). Backing off keeps the cost
      low: a potted ball, or a moving ball missed on one blurred frame, costs five small searches
      (every frame for 30 frames measured 0.7 ms a frame more over the Task2 clips).
    - ``lost_reach_radii``: the place searched around a lost ball (ball radii, before the growth
      by ``core_reach_radii``; a missed centre may have been pulled off by what hid it).
    - ``thin_change_radii``: a changed region whose half-width (its distance transform's peak) is
      below this many ball radii cannot hold a ball that was not there (a ball that appears, goes
      or moves away changes at least its own disc): the cue feathering, a cuff or a shadow's
      edge. Its pixels further than ``thin_clearance_radii`` ball radii from every ball last seen
      (named or not) are left alone: not searched, kept changed in the reference, so they are
      searched once they widen or reach a ball. Near a ball they are searched as any change (a
      ball creeping changes only a crescent of its rim; the tip at the cue ball). 0 turns it off.
    """

    enabled: bool = True
    thumbnail_scale: int = 4
    change_threshold: int = 8
    area_margin_px: int = 2
    core_reach_radii: float = 1.5
    tile_radii: float = 12.0
    window_margin_radii: float = 2.0
    large_region_ball_areas: float = 20.0
    large_every_frames: int = 4
    follow_radii: float = 4.0
    full_every_frames: int = 60
    first_full_again_frames: int = 2
    follow_known: bool = True
    follow_reach_radii: float = 2.5
    follow_stray_ball_areas: float = 0.5
    edge_band_px: int = 2
    motion_match_radii: float = 5.0
    follow_retry_frames: int = 2
    thin_change_radii: float = 0.6
    thin_clearance_radii: float = 2.0
    full_above_fraction: float = 0.25
    lost_retry_frames: int = 30
    lost_reach_radii: float = 1.0

    def __post_init__(self) -> None:
        _check_scale(self.thumbnail_scale)
        if self.full_every_frames < 1 or self.large_every_frames < 1:
            raise ValueError("full_every_frames and large_every_frames must be at least 1")
        if self.lost_retry_frames < 0:
            raise ValueError("lost_retry_frames must be at least 0")
        if self.first_full_again_frames < 0:
            raise ValueError("first_full_again_frames must be at least 0")


@dataclass(frozen=True)
class ViewGateConfig:
    """When the calibrated view is checked again (units in the names).

    - ``enabled``: False checks every frame.
    - ``thumbnail_scale``: frame pixels per thumbnail pixel, each way (a power of 2); the thumbnail
      is sampled (bilinearly, a 2 × 2 mean every ``thumbnail_scale`` px), not block-averaged: a
      cut changes most of the frame, so a sparse, cheap sample shows it.
    - ``change_threshold``: a thumbnail pixel changed when a colour channel differs from the
      thumbnail of the last check by more than this (0–255 levels; above the sample's noise).
    - ``changed_fraction``: check again when more than this fraction of the frame changed (a cut
      or a camera move changes most of it; balls, players and the cue change a few per cent).
    - ``every_frames``: check at least this often anyway (frames).
    """

    enabled: bool = True
    thumbnail_scale: int = 8
    change_threshold: int = 24
    changed_fraction: float = 0.15
    every_frames: int = 30

    def __post_init__(self) -> None:
        _check_scale(self.thumbnail_scale)
        if self.every_frames < 1:
            raise ValueError("every_frames must be at least 1")


@dataclass
class GateCounts:
    """What a gate did, frame by frame (for benchmarks and reports)."""

    reused: int = 0
    partial: int = 0
    full: int = 0
    followed: int = 0
    """Of the partial frames, those where the detector's follower moved the balls known there
    instead of searching the changed regions (``follow_known``)."""
    full_s: float = 0.0
    """Seconds (wall clock) in the wrapped call on the frames computed in full."""
    partial_s: float = 0.0
    """Seconds in the detector's searches of changed regions and its follower (the partial frames'
    work beyond the gate's own)."""
    second_look_s: float = 0.0
    """Seconds in the views' second full detections that found no ball more
    (``MotionGateConfig.first_full_again_frames``; their frames are counted as they went on, one
    taken is counted full)."""


def thumbnail(image: np.ndarray, scale: int) -> np.ndarray:
    """``image`` averaged over blocks of ``scale`` × ``scale`` pixels (``scale`` a power of two; the
    image's size a multiple of it): halved repeatedly, each time by bilinear sampling at the
    centre of every 2 × 2 block (their mean, rounded; several times faster than ``INTER_AREA``)."""
    while scale > 1:
        h, w = image.shape[:2]
        image = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)
        scale //= 2
    return image


def frame_thumbnail(image: np.ndarray, scale: int) -> np.ndarray:
    """The whole frame shrunk ``scale`` times each way (bilinear: a sparse sample of it), as the view
    check compares frames."""
    h, w = image.shape[:2]
    size = (max(1, w // scale), max(1, h // scale))
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


_Made = tuple[weakref.ref, np.ndarray, tuple[Box, int] | None, np.ndarray | None]
"""A frame's thumbnails: (a weak reference to its image, the whole frame's, the crop and scale of
the table's — None when not made — and the table's)."""


class FrameThumbnails:
    """The gates' thumbnails of frames, made ahead on the thread that decodes them.

    That thread waits on the decoder most of the time, on another core, while the frame loop is
    busy; :meth:`prepare` (called there for each frame) makes the view check's thumbnail of the
    whole frame and the detection gate's of its table crop (the crop it last used: :meth:`use_table`).
    The gates look them up by the frame's image (:meth:`view`, :meth:`table_of`); a frame not
    prepared, or prepared for another crop, is thumbnailed where it is first needed, as it would be
    without this, and kept for the next asker (the detection gate and the view shift's check both
    read a frame's table thumbnail). When the crop changes (a table found, a new view), the frames
    already prepared for another crop, queued ahead of the loop, are thumbnailed again for the new
    one by the next :meth:`prepare`, the latest first (the loop takes the earliest next): at a
    clip's start that is the whole read-ahead, which the loop would otherwise thumbnail itself,
    twice. A frame's thumbnails are held while its image lives (dropped on the next
    :meth:`prepare` once it is gone), and of those at most the last ``keep`` frames' (a bound far
    above what a read-ahead queue holds: the frames queued, the one the loop is on and the one
    waiting for room must all be found, else the loop thumbnails them again itself).
    """

    def __init__(self, view_scale: int, keep: int = 256) -> None:
        _check_scale(view_scale)
        if keep < 1:
            raise ValueError("keep must be at least 1")
        self.view_scale = view_scale
        self.keep = keep
        self._crop: tuple[Box, int] | None = None
        self._made: OrderedDict[int, _Made] = OrderedDict()
        self._lock = threading.Lock()

    def use_table(self, box: Box, scale: int) -> None:
        """The crop (x0, y0, x1, y1 frame px) and scale the detection gate thumbnails from now on."""
        self._crop = (box, scale)

    def prepare(self, image: np.ndarray) -> None:
        """Make ``image``'s thumbnails (on any thread)."""
        crop = self._crop
        whole = frame_thumbnail(image, self.view_scale)
        table = None
        if crop is not None and _holds(image, crop[0]):
            (x0, y0, x1, y1), scale = crop
            table = thumbnail(image[y0:y1, x0:x1], scale)
        with self._lock:
            for key in [key for key, made in self._made.items() if made[0]() is None]:
                del self._made[key]
            behind = [] if crop is None else [made[0] for made in self._made.values() if made[2] != crop]
            self._made[id(image)] = (weakref.ref(image), whole, crop if table is not None else None, table)
            while len(self._made) > self.keep:
                self._made.popitem(last=False)
        for ref in reversed(behind):
            earlier = ref()
            if earlier is not None and self._crop == crop and _holds(earlier, crop[0]):
                self._table_made(earlier, *crop)

    def view(self, image: np.ndarray) -> np.ndarray | None:
        """The view check's thumbnail of ``image`` if it was made (else None)."""
        made = self._lookup(image)
        return None if made is None else made[1]

    def table(self, image: np.ndarray, box: Box, scale: int) -> np.ndarray | None:
        """The detection gate's thumbnail of ``image`` cropped to ``box`` at ``scale`` if it was made
        (else None)."""
        made = self._lookup(image)
        return None if made is None or made[2] != (box, scale) else made[3]

    def table_of(self, image: np.ndarray, box: Box, scale: int) -> np.ndarray:
        """The detection gate's thumbnail of ``image`` cropped to ``box`` at ``scale``: the one made
        if it was, else made now (and kept, where ``image`` was prepared, for the next asker)."""
        made = self.table(image, box, scale)
        return self._table_made(image, box, scale) if made is None else made

    def _table_made(self, image: np.ndarray, box: Box, scale: int) -> np.ndarray:
        """``image``'s table thumbnail of ``box`` at ``scale`` made now, replacing the one of another
        crop in its entry (if it still has one)."""
        x0, y0, x1, y1 = box
        table = thumbnail(image[y0:y1, x0:x1], scale)
        with self._lock:
            made = self._made.get(id(image))
            if made is not None and made[0]() is image and made[2] != (box, scale):
                self._made[id(image)] = (made[0], made[1], (box, scale), table)
        return table

    def _lookup(self, image: np.ndarray) -> _Made | None:
        with self._lock:
            made = self._made.get(id(image))
        # an id can be reused once its image is gone: the weak reference tells
        return made if made is not None and made[0]() is image else None


def _holds(image: np.ndarray, box: Box) -> bool:
    """Whether ``image`` holds the whole of ``box`` (x0, y0, x1, y1 px)."""
    return image.shape[0] >= box[3] and image.shape[1] >= box[2]


def _check_scale(scale: int) -> None:
    if scale < 1 or scale & (scale - 1):
        raise ValueError(f"thumbnail_scale must be a power of two, got {scale}")


def _take_where(reference: np.ndarray, picture: np.ndarray, mask: np.ndarray) -> None:
    """Copy the pixels of ``picture`` (h, w, 3) uint8 where ``mask`` (h, w) bool into ``reference``,
    in place (OpenCV's masked copy: ``np.copyto`` with a broadcast mask takes ~40 times longer on
    a table's thumbnail)."""
    taken = cv2.copyTo(picture, mask.view(np.uint8), reference)
    if taken is not reference:
        raise RuntimeError("OpenCV made a new reference instead of copying into it")


def changed_pixels(a: np.ndarray, b: np.ndarray, threshold: int) -> np.ndarray:
    """(h, w) bool: where any channel of ``a`` and ``b`` (h, w, 3) uint8 differs by more than
    ``threshold``."""
    difference = cv2.absdiff(a, b)
    blue, green, red = cv2.split(difference)
    return cv2.max(cv2.max(blue, green), red) > threshold


@functools.cache
def _compile_tiles() -> None:
    """Compile the gate's kernels (:func:`_tiles`, :func:`_boxes_of`, the thin-change filter's
    and the disc stamps; or load them from numba's on-disk cache) once per process, before the
    first changed frame needs them."""
    _tiles(np.zeros((2, 2), np.int32), np.zeros((1, 5), np.int32), 1)
    _components(np.ones((2, 2), np.uint8))
    labels, depth = np.zeros((2, 2), np.int32), np.zeros((2, 2), np.float32)
    thin = _thin_labels(labels, depth, 1, np.float32(1.0))
    _without_labels_away(np.zeros((2, 2), bool), labels, thin, np.zeros((2, 2), np.uint8))
    _stamp(np.zeros((2, 2), np.uint8), _disc_stamp(1), np.zeros((1, 2), np.int64))


def _components(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-connected regions of a uint8 mask: labels (h, w) int32 and stats (count, 5) (x, y,
    width, height, area), as ``cv2.connectedComponentsWithStats`` gives them (its statistics, on
    the few regions of a thumbnail, cost more than the labelling itself) but for the background's
    box where it has no pixel (zeros here)."""
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    return labels, _boxes_of(labels, count)


@numba.njit(cache=True, nogil=True)
def _thin_labels(labels: np.ndarray, depth: np.ndarray, count: int, thinnest: np.float32) -> np.ndarray:
    """(count,) bool which labelled regions (``labels`` (h, w), 0 the background, which is never
    thin) are thin: none of their pixels lies ``thinnest`` px or deeper (``depth`` (h, w) float32,
    the distance to the nearest pixel outside)."""
    thin = np.ones(count, dtype=np.bool_)
    thin[0] = False
    h, w = labels.shape
    for y in range(h):
        for x in range(w):
            if depth[y, x] >= thinnest:
                thin[labels[y, x]] = False
    return thin


@numba.njit(cache=True, nogil=True)
def _without_labels_away(
    changed: np.ndarray, labels: np.ndarray, dropped: np.ndarray, near: np.ndarray
) -> np.ndarray:
    """``changed`` (h, w) bool less the pixels of the ``dropped`` (count,) labels where ``near``
    (h, w) is 0: ``changed & ~(dropped[labels] & (near == 0))`` in one pass."""
    h, w = changed.shape
    out = np.empty((h, w), dtype=np.bool_)
    for y in range(h):
        for x in range(w):
            out[y, x] = changed[y, x] and not (dropped[labels[y, x]] and near[y, x] == 0)
    return out


@numba.njit(cache=True, nogil=True)
def _boxes_of(labels: np.ndarray, count: int) -> np.ndarray:
    """(count, 5) int32 each label's bounding box (x, y, width, height) and area (px), in one pass."""
    h, w = labels.shape
    low_x, low_y = np.full(count, w, np.int64), np.full(count, h, np.int64)
    high_x, high_y = np.full(count, -1, np.int64), np.full(count, -1, np.int64)
    area = np.zeros(count, np.int64)
    for y in range(h):
        # runs of one label along the row: only their ends move a box
        start = 0
        for x in range(1, w + 1):
            if x < w and labels[y, x] == labels[y, start]:
                continue
            label = labels[y, start]
            area[label] += x - start
            low_x[label] = min(low_x[label], start)
            high_x[label] = max(high_x[label], x - 1)
            low_y[label] = min(low_y[label], y)
            high_y[label] = max(high_y[label], y)
            start = x
    stats = np.zeros((count, 5), np.int32)
    for label in range(count):
        if area[label]:
            stats[label, 0], stats[label, 1] = low_x[label], low_y[label]
            stats[label, 2] = high_x[label] - low_x[label] + 1
            stats[label, 3] = high_y[label] - low_y[label] + 1
        stats[label, 4] = area[label]
    return stats


@numba.njit(cache=True, nogil=True)
def _tiles(labels: np.ndarray, stats: np.ndarray, tile: int) -> tuple[np.ndarray, np.ndarray]:
    """Each labelled region (``labels`` (h, w) and ``stats`` of ``cv2.connectedComponentsWithStats``)
    cut into squares of ``tile`` px from its bounding box's corner: the owner map (h, w) int32 (the
    index of the tile holding each region pixel, -1 elsewhere) and each tile's box (k, 4) (x0, y0,
    x1, y1) around the region's pixels in it; tiles in the order of the regions, then rows, then
    columns; a square holding none of its region's pixels is no tile."""
    h, w = labels.shape
    owners = np.full((h, w), -1, dtype=np.int32)
    most = 0
    for label in range(1, len(stats)):
        most += -(-stats[label, 2] // tile) * -(-stats[label, 3] // tile)
    boxes = np.empty((most, 4), dtype=np.int64)
    count = 0
    for label in range(1, len(stats)):
        x, y, width, height = stats[label, 0], stats[label, 1], stats[label, 2], stats[label, 3]
        for ty in range(y, y + height, tile):
            for tx in range(x, x + width, tile):
                x0, y0, x1, y1 = w, h, -1, -1
                for yy in range(ty, min(ty + tile, h)):
                    for xx in range(tx, min(tx + tile, w)):
                        if labels[yy, xx] == label:
                            owners[yy, xx] = count
                            x0, x1 = min(x0, xx), max(x1, xx)
                            y0, y1 = min(y0, yy), max(y1, yy)
                if x1 >= 0:
                    boxes[count, 0], boxes[count, 1] = x0, y0
                    boxes[count, 2], boxes[count, 3] = x1 + 1, y1 + 1
                    count += 1
    return owners, boxes[:count]


@dataclass
class _TableThumb:
    """The thumbnail frame of one view: the crop (frame px, sizes multiples of the scale), the
    playing area in it, and the largest ball radius (px)."""

    view: object
    shape: tuple[int, ...]
    x0: int
    y0: int
    x1: int
    y1: int
    area: np.ndarray
    area_px: int
    ball_radius_px: float
    edge: np.ndarray
    """(h, w) bool: the band of ``edge_band_px`` along the playing area's edge (thumbnail)."""


class MotionGatedDetector:
    """A ball detector that looks again only where the picture changed (see the module docstring).

    ``detector(frame, view)`` detects in full; when it also has ``redetect(frame, view, windows,
    owner, missing=...)`` (``snooker.vision.detector.RegionDetector``; the classical detector does)
    changed regions are detected alone: ``windows`` are frame boxes, each around one part of the
    changed region (its core), ``owner(xy_px)`` says for frame points (n, 2) which window's core
    holds each (its index; -1 where nothing changed), and ``missing`` the balls lost and not found
    since (``lost_retry_frames``), which the detector may look for harder (the classical one
    looks for a dark ball blurred in flight only where one is missing or where a window's known
    balls are not all found again: ``ClassicConfig.dark_blobs_where_missing``).
    """

    depends_only_on_image = True

    def __init__(
        self,
        detector: Callable[[np.ndarray, object], BallDetections],
        config: MotionGateConfig,
        thumbnails: FrameThumbnails | None = None,
    ):
        self.detector = detector
        self.config = config
        self.thumbnails = thumbnails
        _compile_tiles()
        self.counts = GateCounts()
        self._thumb: _TableThumb | None = None
        self._reference: np.ndarray | None = None
        self._last: BallDetections | None = None
        self._since_full = 0
        self._fulls_in_view = 0
        self._frames = 0
        self._motion = np.zeros((0, 2))
        self._follow_failed: int | None = None
        self._missing = _LostBalls.none()

    def __call__(self, frame_bgr: np.ndarray, view: object) -> BallDetections:
        previous, thumb = self._last, self._thumb
        detections = self._detect(frame_bgr, view)
        self._motion = self._motion_since(previous, detections)
        self._missing = self._still_lost(previous if self._thumb is thumb else None, detections)
        return detections

    def _detect(self, frame_bgr: np.ndarray, view: object) -> BallDetections:
        cfg = self.config
        self._frames += 1
        thumb = self._table_thumb(frame_bgr, view)
        if thumb is None:
            return self._full(frame_bgr, view, None)
        t = thumb
        box = (t.x0, t.y0, t.x1, t.y1)
        small = (
            thumbnail(frame_bgr[t.y0 : t.y1, t.x0 : t.x1], cfg.thumbnail_scale)
            if self.thumbnails is None
            else self.thumbnails.table_of(frame_bgr, box, cfg.thumbnail_scale)
        )
        self._since_full += 1
        redetect = getattr(self.detector, "redetect", None)
        if self._reference is None or self._last is None:
            return self._full(frame_bgr, view, small)
        if self._since_full >= cfg.full_every_frames:
            return self._full(frame_bgr, view, small)
        if self._first_again_due():
            found = self._second_look(frame_bgr, view, small)
            if found is not None:
                return found
        changed = changed_pixels(small, self._reference, cfg.change_threshold) & t.area
        changed = self._without_thin_strays(changed, t, self._last)
        self._mark_lost(changed, t)
        count = int(np.count_nonzero(changed))
        if count == 0:
            self.counts.reused += 1
            return self._last
        if redetect is None or count > cfg.full_above_fraction * t.area_px:
            return self._full(frame_bgr, view, small)
        previous = self._last
        core = self._core(changed, t)  # the region detected again: followed or searched, made once
        follow = getattr(self.detector, "follow", None)
        if follow is not None and cfg.follow_known:
            whole = self._frames % cfg.large_every_frames == 0
            followed = self._follow(follow, frame_bgr, view, changed, core, t, previous, whole)
            if followed is not None and followed[0] is previous:
                self.counts.reused += 1
                return previous
            if followed is not None:
                self._last, taken = followed
                _take_where(self._reference, small, taken)
                self.counts.partial += 1
                self.counts.followed += 1
                return self._last
        whole = self._frames % cfg.large_every_frames == 0
        owners, windows, followed = self._regions(core, t, None if whole else previous.xy_px)
        if not windows:
            self.counts.reused += 1
            return previous
        started = time.perf_counter()
        self._last = redetect(frame_bgr, view, windows, self._owner(owners, t), missing=self._missing)
        self.counts.partial_s += time.perf_counter() - started
        if len(followed) and self._lost(followed, self._last.xy_px, t):
            # A ball followed in a large region left its square (a cue ball struck hard): search
            # the whole regions now.
            owners, windows, _ = self._regions(core, t, None)
            started = time.perf_counter()
            self._last = redetect(frame_bgr, view, windows, self._owner(owners, t), missing=self._missing)
            self.counts.partial_s += time.perf_counter() - started
        _take_where(self._reference, small, owners >= 0)
        self.counts.partial += 1
        return self._last

    def _follow(
        self,
        follow: Callable[[np.ndarray, object, np.ndarray, np.ndarray], BallDetections | None],
        frame_bgr: np.ndarray,
        view: object,
        changed: np.ndarray,
        core: np.ndarray,
        t: _TableThumb,
        previous: BallDetections,
        whole: bool,
    ) -> tuple[BallDetections, np.ndarray] | None:
        """The balls known in the changed places followed by the detector (``follow_known``), and
        the part of the ``core`` (``changed`` grown, :meth:`_core`) the reference is brought up to
        date in (``previous`` itself where only specks changed); None when the changes are not all
        the balls' own or the detector could not follow one of them."""
        cfg = self.config
        if len(previous) == 0 or self._missing.due().any():
            return None  # a lost ball's place is due a search: it may be back
        scale = cfg.thumbnail_scale
        last = previous.xy_px
        expected = last + self._motion if self._motion.shape == last.shape else last
        moving = self._at(core, last, t) | self._at(core, expected, t)
        reach = cfg.follow_reach_radii * t.ball_radius_px
        low = (np.minimum(last, expected) - reach - [t.x0, t.y0]) / scale
        high = (np.maximum(last, expected) + reach - [t.x0, t.y0]) / scale
        covered = np.zeros(changed.shape, bool)
        starts, ends = np.floor(low[moving]).astype(int), np.ceil(high[moving]).astype(int)
        for (x0, y0), (x1, y1) in zip(starts, ends, strict=True):
            covered[max(0, y0) : max(0, y1 + 1), max(0, x0) : max(0, x1 + 1)] = True
        stray = changed & ~covered
        if np.any(stray):
            grown = self._core(stray, t)
            count, labels = cv2.connectedComponents(grown, connectivity=8)
            areas = np.bincount(labels[stray], minlength=count)
            disc = np.pi * (t.ball_radius_px / scale) ** 2
            large = np.bincount(labels[grown > 0], minlength=count) > cfg.large_region_ball_areas * disc
            intruding = np.zeros(count, bool)
            intruding[np.unique(labels[t.edge])] = not whole
            waits = intruding & large & ~self._holds(labels, count, previous.xy_px, t)
            if np.any((areas[1:] > cfg.follow_stray_ball_areas * disc) & ~waits[1:]):
                return None  # something else changed: a new ball, the cue, a player, a ball coming back
        if not moving.any():
            return previous, covered  # specks only, kept changed until they grow
        if self._follow_failed is not None and self._frames - self._follow_failed < cfg.follow_retry_frames:
            return None
        rows = np.flatnonzero(moving)
        started = time.perf_counter()
        followed = follow(frame_bgr, view, rows, expected[rows])
        self.counts.partial_s += time.perf_counter() - started
        if followed is None:
            self._follow_failed = self._frames
            return None
        return followed, (core > 0) & covered

    def _holds(self, labels: np.ndarray, count: int, xy_px: np.ndarray, t: _TableThumb) -> np.ndarray:
        """(count,) bool: the regions of ``labels`` (thumbnail, ``count`` labels with the
        background's 0) holding one of the frame points ``xy_px`` (n, 2)."""
        held = np.zeros(count, bool)
        held[self._values_at(labels, xy_px, t, 0)] = True
        held[0] = False
        return held

    def _motion_since(self, previous: BallDetections | None, now: BallDetections) -> np.ndarray:
        """(n, 2) frame px: how far each ball of ``now`` moved since ``previous``, from the nearest
        ball of the same name within ``motion_match_radii`` (zero where none or nothing was
        detected again)."""
        motion = np.zeros((len(now), 2))
        if previous is None or now is previous or len(previous) == 0 or len(now) == 0 or self._thumb is None:
            return motion
        gap = _same_name_gaps(now.xy_px, now.ball, previous.xy_px, previous.ball)
        nearest = np.argmin(gap, axis=1)
        limit = self.config.motion_match_radii * self._thumb.ball_radius_px
        close = gap[np.arange(len(now)), nearest] <= limit
        motion[close] = now.xy_px[close] - previous.xy_px[nearest[close]]
        return motion

    def _still_lost(self, previous: BallDetections | None, now: BallDetections) -> _LostBalls:
        """The balls to look for again: those lost before and not found since, while their frames
        last, and those of ``previous`` that ``now`` does not have (none of their name within
        ``motion_match_radii``); none after a view change."""
        cfg = self.config
        if self._thumb is None or cfg.lost_retry_frames == 0:
            return _LostBalls.none()
        lost = self._missing
        xy, names, sure, age = lost.xy_px, lost.names, lost.confidence, lost.age + 1
        if now is previous and np.isfinite(now.xy_px).all():
            # the last detections stand: each of their balls finds itself, and the balls still lost
            # were not found among them on the frame before, so only the ages move on
            keep = age <= cfg.lost_retry_frames
            return _LostBalls(xy[keep], names[keep], sure[keep], age[keep])
        if previous is not None and len(previous):
            xy = np.concatenate([xy, previous.xy_px])
            names = np.concatenate([names, previous.ball.astype(object)])
            sure = np.concatenate([sure, previous.confidence])
            age = np.concatenate([age, np.ones(len(previous), dtype=int)])
        if len(xy) == 0:
            return lost
        reach = cfg.motion_match_radii * self._thumb.ball_radius_px
        found = np.zeros(len(xy), bool)
        if len(now):
            gap = _same_name_gaps(xy, names, now.xy_px, now.ball)
            found = gap.min(axis=1) <= reach
        keep = ~found & (age <= cfg.lost_retry_frames)
        return _LostBalls(xy[keep], names[keep], sure[keep], age[keep])

    def _without_thin_strays(self, changed: np.ndarray, t: _TableThumb, last: BallDetections) -> np.ndarray:
        """``changed`` (thumbnail) less the parts of thin changed regions away from every ball
        last seen (see ``thin_change_radii``)."""
        cfg = self.config
        scale = cfg.thumbnail_scale
        thinnest = cfg.thin_change_radii * t.ball_radius_px / scale
        if thinnest <= 0 or not changed.any():
            return changed
        mask = _as_uint8(changed)
        count, labels = cv2.connectedComponents(mask, connectivity=8)
        thin = _thin_labels(labels, cv2.distanceTransform(mask, cv2.DIST_L2, 3), count, np.float32(thinnest))
        if not thin.any():
            return changed
        balls = np.concatenate([last.xy_px, last.unnamed_xy_px])
        near = _discs(mask.shape, balls, cfg.thin_clearance_radii, t, scale)
        return _without_labels_away(changed, labels, thin, near)

    def _mark_lost(self, changed: np.ndarray, t: _TableThumb) -> None:
        """Mark the places of the lost balls due a look in ``changed`` (thumbnail), so they are searched."""
        due = self._missing.xy_px[self._missing.due()]
        if len(due) == 0:
            return
        mark = _discs(changed.shape, due, self.config.lost_reach_radii, t, self.config.thumbnail_scale)
        changed |= (mark > 0) & t.area

    def _core(self, changed: np.ndarray, t: _TableThumb) -> np.ndarray:
        """uint8: the changed pixels grown by ``core_reach_radii`` (the region detected again)."""
        reach = max(1, round(self.config.core_reach_radii * t.ball_radius_px / self.config.thumbnail_scale))
        return cv2.dilate(_as_uint8(changed), _ellipse(reach))

    def _values_at(self, image: np.ndarray, xy_px: np.ndarray, t: _TableThumb, outside: int) -> np.ndarray:
        """(n,) int: the integer ``image`` (thumbnail) at frame points (n, 2); ``outside`` beyond it."""
        scale = self.config.thumbnail_scale
        ix = np.floor((xy_px[:, 0] - t.x0) / scale).astype(int)
        iy = np.floor((xy_px[:, 1] - t.y0) / scale).astype(int)
        inside = (ix >= 0) & (iy >= 0) & (ix < image.shape[1]) & (iy < image.shape[0])
        result = np.full(len(xy_px), outside)
        result[inside] = image[iy[inside], ix[inside]]
        return result

    def _at(self, mask: np.ndarray, xy_px: np.ndarray, t: _TableThumb) -> np.ndarray:
        """(n,) bool: ``mask`` (thumbnail) at frame points (n, 2); False outside it."""
        return self._values_at(mask, xy_px, t, 0) > 0

    def _owner(self, owners: np.ndarray, t: _TableThumb) -> Callable[[np.ndarray], np.ndarray]:
        """``owner(xy_px)``: the tile index of the owner map at frame points (n, 2), -1 outside."""

        def owner(xy_px: np.ndarray) -> np.ndarray:
            return self._values_at(owners, xy_px, t, -1)

        return owner

    def _lost(self, followed: np.ndarray, found: np.ndarray, t: _TableThumb) -> bool:
        """Whether some ball followed (frame px, (k, 2)) has no ball found within its square."""
        if len(found) == 0:
            return True
        half = self.config.follow_radii * t.ball_radius_px
        gap = np.abs(followed[:, None, :] - found[None, :, :]).max(axis=2)
        return bool(np.any(gap.min(axis=1) > half))

    def _first_again_due(self) -> bool:
        """Whether the view's first full detection is due again (``first_full_again_frames``)."""
        again = self.config.first_full_again_frames
        return self._fulls_in_view == 1 and again > 0 and self._since_full >= again

    def _second_look(self, frame_bgr: np.ndarray, view: object, small: np.ndarray) -> BallDetections | None:
        """The view's first full detection made again (``first_full_again_frames``), taken as a full
        detection where it finds a ball the last detections lack (none of its name within
        ``motion_match_radii``); else None, and the gate goes on from those as if it had not looked
        (what the detector's last detection left, its ``scene``, is given back to it)."""
        kept = getattr(self.detector, "scene", None)
        last = self._last
        started = time.perf_counter()
        found = self.detector(frame_bgr, view)
        spent = time.perf_counter() - started
        self._fulls_in_view += 1
        thumb = self._thumb
        assert thumb is not None  # a view's first detection was made with its thumbnail
        reach_px = self.config.motion_match_radii * thumb.ball_radius_px
        if last is not None and not _has_more(found, last, reach_px):
            if hasattr(self.detector, "scene"):
                self.detector.scene = kept
            self.counts.second_look_s += spent
            return None
        self.counts.full_s += spent
        self.counts.full += 1
        self._last = found
        self._reference = small.copy()
        self._since_full = 0
        return found

    def _full(self, frame_bgr: np.ndarray, view: object, small: np.ndarray | None) -> BallDetections:
        started = time.perf_counter()
        self._last = self.detector(frame_bgr, view)
        self.counts.full_s += time.perf_counter() - started
        self._reference = None if small is None else small.copy()
        self._since_full = 0
        self._fulls_in_view += 1
        self.counts.full += 1
        return self._last

    def _regions(
        self, core: np.ndarray, t: _TableThumb, balls_px: np.ndarray | None
    ) -> tuple[np.ndarray, list[Box], np.ndarray]:
        """The region detected again (the ``core``: the changed pixels grown, :meth:`_core`) cut
        into tiles; the owner map (thumbnail, int: the index of the tile holding each core pixel,
        -1 elsewhere), each tile's window (frame px, with room around the tile) and the balls
        followed. With ``balls_px`` (frame px of the balls last seen), large regions keep only
        their parts around the balls in them (those followed)."""
        cfg = self.config
        scale = cfg.thumbnail_scale
        labels, stats = _components(core)
        followed = np.zeros((0, 2))
        if balls_px is not None and len(balls_px):
            ball_area = np.pi * (t.ball_radius_px / scale) ** 2
            large = stats[:, cv2.CC_STAT_AREA] > cfg.large_region_ball_areas * ball_area
            large[0] = False
            if large.any():
                ix = np.clip(((balls_px[:, 0] - t.x0) // scale).astype(int), 0, labels.shape[1] - 1)
                iy = np.clip(((balls_px[:, 1] - t.y0) // scale).astype(int), 0, labels.shape[0] - 1)
                followed = balls_px[large[labels[iy, ix]]]
                core = self._around_balls(labels, large, followed, t)
                labels, stats = _components(core)
        margin = round(cfg.window_margin_radii * t.ball_radius_px)
        tile = max(1, round(cfg.tile_radii * t.ball_radius_px / scale))
        owners, boxes = _tiles(labels, stats, tile)
        windows = [_window(t, int(x0), int(y0), int(x1), int(y1), scale, margin) for x0, y0, x1, y1 in boxes]
        return owners, windows, followed

    def _around_balls(
        self, labels: np.ndarray, large: np.ndarray, balls_px: np.ndarray, t: _TableThumb
    ) -> np.ndarray:
        """uint8 core: the small regions whole, the large ones only within ``follow_radii`` of one
        of the balls ``balls_px`` (frame px)."""
        scale = self.config.thumbnail_scale
        near = np.zeros(labels.shape, np.uint8)
        half = max(1, round(self.config.follow_radii * t.ball_radius_px / scale))
        for x, y in balls_px:
            ix, iy = int((x - t.x0) // scale), int((y - t.y0) // scale)
            near[max(0, iy - half) : iy + half + 1, max(0, ix - half) : ix + half + 1] = 1
        keep = (labels > 0) & (~large[labels] | (near > 0))
        return keep.astype(np.uint8)

    def _table_thumb(self, frame_bgr: np.ndarray, view: object) -> _TableThumb | None:
        """The thumbnail frame for this view and frame size (made once per view); None when the
        view cannot say where its playing area is."""
        shape = frame_bgr.shape[:2]
        if self._thumb is not None and self._thumb.view is view and self._thumb.shape == shape:
            return self._thumb
        self._reference, self._last = None, None
        self._missing = _LostBalls.none()
        self._fulls_in_view = 0
        self._thumb = _table_thumb(view, shape, self.config)
        if self._thumb is not None and self.thumbnails is not None:
            t = self._thumb
            self.thumbnails.use_table((t.x0, t.y0, t.x1, t.y1), self.config.thumbnail_scale)
        return self._thumb


def _discs(shape: tuple[int, ...], xy_px: np.ndarray, radii: float, t: _TableThumb, scale: int) -> np.ndarray:
    """uint8 thumbnail mask (``shape``): 1 within ``radii`` ball radii of the frame points
    ``xy_px`` (n, 2)."""
    mask = np.zeros(shape[:2], np.uint8)
    radius = max(1, round(radii * t.ball_radius_px / scale))
    places = np.floor_divide(np.asarray(xy_px, dtype=float).reshape(-1, 2) - [t.x0, t.y0], scale)
    _stamp(mask, _disc_stamp(radius), places.astype(np.int64))
    return mask


@functools.cache
def _ellipse(reach: int) -> np.ndarray:
    """OpenCV's elliptic structuring element (2 ``reach`` + 1 px square; read-only), made once per
    reach rather than on every frame the changed pixels are grown."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    disc.flags.writeable = False
    return disc


def _as_uint8(mask: np.ndarray) -> np.ndarray:
    """A bool mask read as uint8 (0 or 1), without copying it (a NumPy bool is one byte, 0 or 1):
    what ``mask.astype(np.uint8)`` gives, for OpenCV to read."""
    if mask.dtype != np.bool_:
        raise TypeError(f"a bool mask was expected, got {mask.dtype}")
    return mask.view(np.uint8)


@functools.cache
def _disc_stamp(radius: int) -> np.ndarray:
    """(2r + 1, 2r + 1) uint8, 1 on the filled circle of ``radius`` px that ``cv2.circle`` draws
    about an integer centre (the same pixels wherever the centre lies; read-only)."""
    stamp = np.zeros((2 * radius + 1, 2 * radius + 1), np.uint8)
    cv2.circle(stamp, (radius, radius), radius, 1, -1)
    stamp.flags.writeable = False
    return stamp


@numba.njit(cache=True, nogil=True)
def _stamp(mask: np.ndarray, stamp: np.ndarray, places: np.ndarray) -> None:
    """Set ``mask`` (h, w) uint8 to 1 under ``stamp`` (2r + 1, 2r + 1) centred at each of
    ``places`` (n, 2) integer (x, y), clipped to the mask (a disc per place, drawn once: the
    loop of ``cv2.circle`` calls it replaces cost ~3 µs a ball)."""
    h, w = mask.shape
    r = stamp.shape[0] // 2
    for k in range(len(places)):
        cx, cy = places[k, 0], places[k, 1]
        for dy in range(-r, r + 1):
            y = cy + dy
            if y < 0 or y >= h:
                continue
            for dx in range(-r, r + 1):
                x = cx + dx
                if 0 <= x < w and stamp[dy + r, dx + r]:
                    mask[y, x] = 1


def _has_more(found: BallDetections, last: BallDetections, reach_px: float) -> bool:
    """Whether ``found`` has a ball with no ball of its name in ``last`` within ``reach_px``."""
    if len(found) == 0:
        return False
    if len(last) == 0:
        return True
    gap = _same_name_gaps(found.xy_px, found.ball, last.xy_px, last.ball)
    return bool(np.any(gap.min(axis=1) > reach_px))


def _same_name_gaps(
    xy_a: np.ndarray, names_a: np.ndarray, xy_b: np.ndarray, names_b: np.ndarray
) -> np.ndarray:
    """(n, m) distances (px) between balls ``xy_a`` (n, 2) and ``xy_b`` (m, 2); inf between balls of
    different names."""
    # sqrt(dx² + dy²): the operations ``np.linalg.norm(xy_a[:, None] - xy_b[None], axis=2)`` makes,
    # in its order, without its general machinery
    dx = xy_a[:, 0, None] - xy_b[None, :, 0]
    dy = xy_a[:, 1, None] - xy_b[None, :, 1]
    gap = np.sqrt(dx * dx + dy * dy)
    gap[np.asarray(names_a, dtype=object)[:, None] != np.asarray(names_b, dtype=object)[None]] = np.inf
    return gap


@dataclass(frozen=True)
class _LostBalls(MissingBalls):
    """Balls a detection lost, looked for again (the fields of :class:`MissingBalls`, which a
    region search is told as they are: last places, names, the confidence in each name then, and
    the frames since each was lost, 1 on the frame after)."""

    def due(self) -> np.ndarray:
        """(n,) bool: the balls to look for on this frame (1, 2, 4, 8 … frames after the loss)."""
        return (self.age & (self.age - 1)) == 0


def _window(t: _TableThumb, x0: int, y0: int, x1: int, y1: int, scale: int, margin: int) -> Box:
    """The frame box of thumbnail box [x0, x1) × [y0, y1) with ``margin`` frame px around it."""
    return (
        t.x0 + x0 * scale - margin,
        t.y0 + y0 * scale - margin,
        t.x0 + x1 * scale + margin,
        t.y0 + y1 * scale + margin,
    )


def table_thumbnail_box(view: object, shape: tuple[int, ...], config: MotionGateConfig) -> Box | None:
    """The crop (x0, y0, x1, y1 frame px) in which the detection gate thumbnails ``view``'s table in
    frames of ``shape`` (``FrameThumbnails.use_table``); None where the view has no playing area."""
    t = _table_thumb(view, shape, config)
    return None if t is None else (t.x0, t.y0, t.x1, t.y1)


def _table_thumb(view: object, shape: tuple[int, ...], config: MotionGateConfig) -> _TableThumb | None:
    mask_of = getattr(view, "playing_area_mask", None)
    radius_of = getattr(view, "ball_radius_px", None)
    to_table = getattr(view, "image_to_table", None)
    if mask_of is None or radius_of is None or to_table is None:
        return None
    area = np.asarray(mask_of(tuple(shape))) > 0
    x, y, w, h = cv2.boundingRect(area.astype(np.uint8))
    if w == 0 or h == 0:
        return None
    scale = config.thumbnail_scale
    height, width = shape
    # room for the grown area on every side (a ball at the far cushion rises over the area's box)
    grown = config.area_margin_px * scale
    gx, gy = x - grown, y - grown
    x0, y0 = max(0, gx - gx % scale), max(0, gy - gy % scale)
    x1 = min(width - width % scale, x0 + -(-(gx + w + 2 * grown - x0) // scale) * scale)
    y1 = min(height - height % scale, y0 + -(-(gy + h + 2 * grown - y0) // scale) * scale)
    if x1 <= x0 or y1 <= y0:
        return None
    small_area = thumbnail(area[y0:y1, x0:x1].astype(np.uint8) * 255, scale) > 0
    grow = 2 * config.area_margin_px + 1
    small_area = cv2.dilate(small_area.astype(np.uint8), np.ones((grow, grow), np.uint8)) > 0
    corners = np.array([[x, y], [x + w, y], [x, y + h], [x + w, y + h], [x + w / 2, y + h / 2]], dtype=float)
    radius = float(np.max(np.atleast_1d(radius_of(to_table(corners)))))
    band = np.ones((2 * config.edge_band_px + 1,) * 2, np.uint8)
    edge = small_area & ~(cv2.erode(small_area.astype(np.uint8), band) > 0)
    return _TableThumb(view, tuple(shape), x0, y0, x1, y1, small_area, int(small_area.sum()), radius, edge)


class GatedViewCheck:
    """``shows_table(frame, view)`` run only when the picture changed or every few frames (see the
    module docstring); in between its last answer for the same view stands."""

    def __init__(
        self,
        shows_table: Callable[[np.ndarray, object], bool],
        config: ViewGateConfig,
        thumbnails: FrameThumbnails | None = None,
    ):
        self.shows_table = shows_table
        self.config = config
        self.thumbnails = thumbnails
        self.counts = GateCounts()
        self._view: object | None = None
        self._checked: np.ndarray | None = None
        self._answer = False
        self._since = 0

    def __call__(self, frame_bgr: np.ndarray, view: object) -> bool:
        cfg = self.config
        small = self._thumbnail(frame_bgr)
        self._since += 1
        if (
            self._checked is not None
            and view is self._view
            and self._since < cfg.every_frames
            and _looks_alike(small, self._checked, cfg)
        ):
            self.counts.reused += 1
            return self._answer
        started = time.perf_counter()
        self._answer = bool(self.shows_table(frame_bgr, view))
        self.counts.full_s += time.perf_counter() - started
        self._view, self._checked, self._since = view, small, 0
        self.counts.full += 1
        return self._answer

    def _thumbnail(self, frame_bgr: np.ndarray) -> np.ndarray:
        return _view_thumbnail(frame_bgr, self.config.thumbnail_scale, self.thumbnails)


class RepeatSearchGate:
    """Whether a search for the table is worth making on a frame: not when the frame looks like
    the one the last search failed on (the view check's measure: at most ``changed_fraction`` of
    its sparse sample changed by more than ``change_threshold``), since the search, deterministic,
    would fail the same way; but at least once every ``max_gap_frames`` frames (a change that
    builds slowly: a camera panning onto the table, a player stepping out of the view).

    A replay or a close-up is searched every few frames while it lasts, at ~60 ms a search; a cut
    to the table changes most of the sample (72-96 % on the Task4 clips), a held shot of another
    view a few per cent.
    """

    def __init__(
        self, config: ViewGateConfig, max_gap_frames: int, thumbnails: FrameThumbnails | None = None
    ) -> None:
        if max_gap_frames < 1:
            raise ValueError(f"max_gap_frames must be at least 1, got {max_gap_frames}")
        self.config = config
        self.max_gap_frames = max_gap_frames
        self.thumbnails = thumbnails
        self.skipped = 0
        self._failed: tuple[int, np.ndarray] | None = None

    def worth_searching(self, index: int, frame_bgr: np.ndarray) -> bool:
        """Whether to search frame ``index`` (counted in ``skipped`` when not)."""
        failed = self._failed
        if failed is None or not self.config.enabled or index - failed[0] >= self.max_gap_frames:
            return True
        small = _view_thumbnail(frame_bgr, self.config.thumbnail_scale, self.thumbnails)
        if not _looks_alike(small, failed[1], self.config):
            return True
        self.skipped += 1
        return False

    def searched(self, index: int, frame_bgr: np.ndarray, found: bool) -> None:
        """A search was made on frame ``index``; ``found`` whether it found the table."""
        self._failed = (
            None
            if found or not self.config.enabled
            else (index, _view_thumbnail(frame_bgr, self.config.thumbnail_scale, self.thumbnails))
        )


def _looks_alike(small: np.ndarray, reference: np.ndarray, config: ViewGateConfig) -> bool:
    """Whether two view-check thumbnails show the same picture: the same size, and at most
    ``changed_fraction`` of the pixels changed by more than ``change_threshold`` (no cut, no
    camera move)."""
    if small.shape != reference.shape:
        return False
    changed = changed_pixels(small, reference, config.change_threshold)
    return np.count_nonzero(changed) <= config.changed_fraction * changed.size


def _view_thumbnail(frame_bgr: np.ndarray, scale: int, thumbnails: FrameThumbnails | None) -> np.ndarray:
    """The view check's thumbnail of a frame: the one made ahead if it was, else made now."""
    if thumbnails is not None and thumbnails.view_scale == scale:
        made = thumbnails.view(frame_bgr)
        if made is not None:
            return made
    return frame_thumbnail(frame_bgr, scale)


@dataclass(frozen=True)
class FastPathConfig:
    """The frame loop's fast path: motion-gated detection and a gated view check."""

    detection: MotionGateConfig = field(default_factory=MotionGateConfig)
    view_check: ViewGateConfig = field(default_factory=ViewGateConfig)


def gate_detector(detector, config: MotionGateConfig, thumbnails: FrameThumbnails | None = None):
    """``detector`` behind a motion gate when enabled and the detector's output depends only on
    the image (``depends_only_on_image``); else ``detector`` itself. ``thumbnails``: the frames'
    thumbnails made ahead, where they are."""
    if not config.enabled or not getattr(detector, "depends_only_on_image", False):
        return detector
    return MotionGatedDetector(detector, config, thumbnails)
