"""Whether the camera moved since the table was found: the picture's shift, measured.

A camera knocked on its mount, or a broadcast's main camera re-framed, moves the whole picture by a
few pixels. The view check still passes (the cloth still lies about where it was), but every ball
is then placed off by the shift (at a broadcast's far end a pixel spans ~7 mm along the table), and
all of them jump at once, which the tracker reads as every ball moving. So the shift of the table's
box between each frame and the frame its view was first used on is measured, by phase correlation
of grey thumbnails; a shift that holds over a few frames is a move, and the table is then found
again (or, with a calibration given, the calibration no longer fits).

The shift is measured on the thread that decodes the frames when it can (:meth:`ViewShift.prepare`),
on the motion gate's thumbnail of the table made there already, first coarsely (at half its size),
again finely only where the coarse shift is large: the frame loop only looks it up.
"""

from __future__ import annotations

import enum
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, replace

import cv2
import numpy as np

from snooker.vision.gating import Box, FrameThumbnails, MotionGateConfig, table_thumbnail_box, thumbnail


@dataclass(frozen=True)
class ViewShiftConfig:
    """When the picture is taken to have moved (units in the names).

    The shift is measured on the motion gate's thumbnail of the table (``MotionGateConfig``: the
    playing area's box, 4 frame px to a thumbnail px). Between frames of a still camera on the
    Task2 clips, players and balls moving, it reads 0.2-1.1 px (median of each clip) and at most
    3.2 px (clip 24, a player over the table); at half that size 0.4-1.0 px (3.7 on clip 24) and
    at most 14.

    - ``enabled``: False never measures (a camera that cannot move, frames already registered).
    - ``measure_every_frames``: frames measured: every this many (by index); the others carry the
      last verdict (a frame after one found moving is skipped too). A measure costs ~0.1 ms of the
      reader thread's CPU (0.2 ms where the gate's thumbnail was not made ahead: a video's first
      frames); every frame costs the bench ~6 % of the classical pipeline's throughput, the two
      cores being busy. Every second frame halves that, but a knock on a frame not measured
      reaches the tracker once, and one frame of every ball jumping ~25 mm turned the demo clip's
      second stroke into none.
    - ``coarse_suspect_px``: measured first at half the thumbnail's size (a quarter of the work); a
      shift below this (frame px) is taken as measured, a larger one is measured again at the
      thumbnail's size.
    - ``max_shift_px``: a shift larger than this (frame px), with the box's two halves agreeing
      (``Shift.uniform``), is the picture moving. On the 8509 frames of the Task2 and Task4 clips
      showing the table and measured (``min_response``), 19 read above 3 px (5 clips; 99.9th
      percentile 3.3 px, the largest 4.1), in 8 runs of three frames agreeing (a player over the
      table); with the halves' agreement none does.
      A knock of 3.6 px on a 960 × 540 render moves the far end's balls ~25 mm, which the tracker
      reads as every ball moving.
    - ``refit_min_move_px``: the table found again after a move is taken where its corners moved
      at least this (frame px, the largest of the four) from the view's; else the shift was not
      the camera's and the view stands.
    - ``min_response``: a phase correlation whose peak is below this is no measurement (a cut, a
      player filling the box): too little of the picture moved as one.
    - ``steady_px``: successive measurements of one move agree within this (frame px).
    - ``confirm_frames``: a move held on this many measured frames in a row is the camera's (a
      vibration or a player's sweep across the table is not); the frames until then are not read.
    - ``recheck_gap_frames``: after the table was looked for and found where it was (a shift that
      was not the camera's), no new look for this many frames.
    """

    enabled: bool = True
    measure_every_frames: int = 1
    coarse_suspect_px: float = 2.0
    max_shift_px: float = 3.0
    refit_min_move_px: float = 1.5
    min_response: float = 0.3
    steady_px: float = 1.5
    confirm_frames: int = 3
    recheck_gap_frames: int = 90

    def __post_init__(self) -> None:
        if min(self.max_shift_px, self.steady_px, self.coarse_suspect_px, self.refit_min_move_px) <= 0:
            raise ValueError(
                "max_shift_px, steady_px, coarse_suspect_px and refit_min_move_px must be > 0 px"
            )
        if not 0 < self.min_response <= 1:
            raise ValueError("min_response must be in (0, 1]")
        if self.measure_every_frames < 1:
            raise ValueError("measure_every_frames must be >= 1")
        if self.confirm_frames < 1 or self.recheck_gap_frames < 0:
            raise ValueError("confirm_frames must be >= 1 and recheck_gap_frames >= 0")


class Verdict(enum.Enum):
    """What the shift of one frame says."""

    STILL = "still"
    """The picture is where it was (or cannot be measured): read the frame."""
    MOVING = "moving"
    """The picture moved, not yet on ``confirm_frames`` frames: do not read the frame."""
    MOVED = "moved"
    """The picture moved and stayed: the table must be found again."""


@dataclass(frozen=True)
class Shift:
    """A frame's shift against the reference: ``dx_px``, ``dy_px`` frame px (the picture's content
    moved right and down by these), ``response`` the phase correlation's peak (0-1)."""

    dx_px: float
    dy_px: float
    response: float
    uniform: bool = True
    """The box's left and right halves moved alike (measured only where the whole moved beyond
    ``max_shift_px``; a player leaning over one side pulls the whole box's shift, a camera moves
    both halves)."""

    @property
    def length_px(self) -> float:
        return float(np.hypot(self.dx_px, self.dy_px))


@dataclass(frozen=True)
class _Scale:
    """One scale of measuring: its grey reference (``rows`` × ``cols`` of the thumbnail, from
    ``top``, ``left``, shrunk by ``shrink``), the window, and frame px per its px."""

    top: int
    left: int
    rows: int
    cols: int
    shrink: int
    frame_px: int
    grey: np.ndarray
    window: np.ndarray


@dataclass(frozen=True)
class _Reference:
    """What a view's frames are measured against: the gate's thumbnail ``box`` of the frame the view
    was first used on, coarsely and finely."""

    view: object
    shape: tuple[int, int]
    box: Box
    coarse: _Scale
    fine: _Scale
    halves: tuple[_Scale, _Scale]


class ViewShift:
    """Measures each frame's shift against the frame its view was first used on, and says when the
    camera moved (:meth:`check`). Thread-safe for one reader calling :meth:`prepare` ahead of the
    frame loop calling the rest."""

    def __init__(
        self,
        config: ViewShiftConfig | None = None,
        gate: MotionGateConfig | None = None,
        thumbnails: FrameThumbnails | None = None,
        keep: int = 256,
    ) -> None:
        self.config = config or ViewShiftConfig()
        self.gate = gate or MotionGateConfig()
        self.thumbnails = thumbnails
        self.keep = keep
        self._reference: _Reference | None = None
        self._started: tuple[object, tuple[int, int]] | None = None
        """The view and frame size the reference is for (the reference is None where that view
        has no box to measure)."""
        self._measured: OrderedDict[int, tuple[weakref.ref, _Reference, Shift | None]] = OrderedDict()
        self._lock = threading.Lock()
        self._run: list[Shift] = []
        self._quiet_until = -1

    def prepare(self, index: int, image: np.ndarray) -> None:
        """Measure frame ``index``'s shift against the reference now (on any thread), for
        :meth:`check`, if it is one measured."""
        reference = self._reference
        if reference is None or index % self.config.measure_every_frames:
            return
        shift = self._measure(image, reference)
        with self._lock:
            for key in [key for key, made in self._measured.items() if made[0]() is None]:
                del self._measured[key]
            self._measured[id(image)] = (weakref.ref(image), reference, shift)
            while len(self._measured) > self.keep:
                self._measured.popitem(last=False)

    def check(self, index: int, image: np.ndarray, view: object) -> tuple[Verdict, Shift | None]:
        """What frame ``index`` says about the camera seen through ``view``: the first frame of a
        view becomes its reference (still); later ones are measured against it."""
        started = self._started
        if started is None or started[0] is not view or started[1] != image.shape[:2]:
            self.start(view, image)
            return Verdict.STILL, None
        if index % self.config.measure_every_frames:
            # not measured: the last verdict stands (a move in progress keeps its frames unread)
            return (Verdict.MOVING, self._run[-1]) if self._run else (Verdict.STILL, None)
        reference = self._reference
        shift = None if reference is None else self._shift(image, reference)
        moved = shift is not None and shift.response >= self.config.min_response and shift.uniform
        moved = moved and shift.length_px > self.config.max_shift_px and index >= self._quiet_until
        if not moved:
            self._run = []
            return Verdict.STILL, shift
        if self._run and _apart(self._run[-1], shift) > self.config.steady_px:
            self._run = []
        self._run.append(shift)
        if len(self._run) < self.config.confirm_frames:
            return Verdict.MOVING, shift
        self._run = []
        return Verdict.MOVED, shift

    def start(self, view: object, image: np.ndarray) -> None:
        """Measure from ``image``, seen through ``view``, from now on (a view first used, or found
        again after a move)."""
        self._reference = self._reference_of(view, image)
        self._started = (view, image.shape[:2])
        self._run = []

    def unmoved(self, index: int) -> None:
        """The table was looked for after a move and found where it was: the shift was not the
        camera's; no new look for ``recheck_gap_frames`` frames."""
        self._quiet_until = index + self.config.recheck_gap_frames

    def _shift(self, image: np.ndarray, reference: _Reference) -> Shift | None:
        with self._lock:
            made = self._measured.pop(id(image), None)
        if made is not None and made[0]() is image and made[1] is reference:
            return made[2]
        return self._measure(image, reference)

    def _reference_of(self, view: object, image: np.ndarray) -> _Reference | None:
        """The reference for ``view`` from ``image``; None where the view has no playing area or its
        box is too small to measure."""
        shape = (image.shape[0], image.shape[1])
        box = table_thumbnail_box(view, shape, self.gate)
        if box is None:
            return None
        small = self._thumbnail(image, box)
        rows, cols = small.shape[:2]
        coarse_rows, coarse_cols = _even_dft_size(rows // _COARSE), _even_dft_size(cols // _COARSE)
        if coarse_rows < _SMALLEST_SIDE or coarse_cols < _SMALLEST_SIDE:
            return None
        fine_rows, fine_cols = _COARSE * coarse_rows, _COARSE * coarse_cols
        top, left = (rows - fine_rows) // 2, (cols - fine_cols) // 2  # centred in the thumbnail
        part = (top, left, fine_rows, fine_cols)
        scale = self.gate.thumbnail_scale
        coarse, fine = (_scale_of(small, part, shrink, scale) for shrink in (_COARSE, 1))
        half = _even_dft_size(fine_cols // 2)
        halves = tuple(
            _scale_of(small, (top, side, fine_rows, half), 1, scale)
            for side in (left, left + fine_cols - half)
        )
        return _Reference(view, shape, box, coarse, fine, halves)

    def _thumbnail(self, image: np.ndarray, box: Box) -> np.ndarray:
        """The gate's thumbnail of ``box``: made ahead by ``thumbnails`` where it was, else here."""
        scale = self.gate.thumbnail_scale
        made = None if self.thumbnails is None else self.thumbnails.table(image, box, scale)
        if made is not None:
            return made
        x0, y0, x1, y1 = box
        return thumbnail(image[y0:y1, x0:x1], scale)

    def _measure(self, image: np.ndarray, reference: _Reference | None) -> Shift | None:
        """``image``'s shift against ``reference`` (None: nothing to measure against, or another
        size): coarsely, and finely where the coarse shift reaches ``coarse_suspect_px``."""
        if reference is None or image.shape[:2] != reference.shape:
            return None
        small = self._thumbnail(image, reference.box)
        shift = _correlate(small, reference.coarse)
        if shift.length_px >= self.config.coarse_suspect_px:
            shift = _correlate(small, reference.fine)
        if shift.length_px > self.config.max_shift_px:
            halves = [_correlate(small, half) for half in reference.halves]
            alike = all(
                h.response >= self.config.min_response and _apart(h, shift) <= self.config.steady_px
                for h in halves
            )
            shift = replace(shift, uniform=alike)
        return shift


_COARSE = 2
"""The coarse measure's thumbnail is shrunk this many times each way (a quarter of the work)."""
_SMALLEST_SIDE = 8
"""A box whose coarse measure would be smaller than this (px) either way is not measured."""


def _apart(a: Shift, b: Shift) -> float:
    return float(np.hypot(a.dx_px - b.dx_px, a.dy_px - b.dy_px))


def _even_dft_size(limit: int) -> int:
    """The largest even size up to ``limit`` that OpenCV's FFT takes as it is (products of 2, 3
    and 5): ``phaseCorrelate`` pads other sizes, and its peak is then half a pixel off on an odd
    padded size (measured: two identical 132 × 180 images read 0.5 px apart)."""
    for size in range(limit - limit % 2, 1, -2):
        if cv2.getOptimalDFTSize(size) == size:
            return size
    return 0


def _scale_of(small: np.ndarray, part: tuple[int, int, int, int], shrink: int, thumbnail_px: int) -> _Scale:
    """The measuring scale over ``part`` (top, left, rows, cols) of the thumbnail ``small`` shrunk by
    ``shrink``, its reference taken from ``small``."""
    top, left, rows, cols = part
    window = cv2.createHanningWindow((cols // shrink, rows // shrink), cv2.CV_32F)
    empty = np.zeros((0, 0), np.float32)
    scale = _Scale(top, left, rows, cols, shrink, thumbnail_px * shrink, empty, window)
    return replace(scale, grey=_grey(small, scale))


def _grey(small: np.ndarray, scale: _Scale) -> np.ndarray:
    """The grey of ``scale``'s part of a thumbnail, shrunk by its factor (float32)."""
    part = small[scale.top : scale.top + scale.rows, scale.left : scale.left + scale.cols]
    grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)
    if scale.shrink > 1:
        size = (scale.cols // scale.shrink, scale.rows // scale.shrink)
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return grey.astype(np.float32)


def _correlate(small: np.ndarray, scale: _Scale) -> Shift:
    (dx, dy), response = cv2.phaseCorrelate(scale.grey, _grey(small, scale), scale.window)
    return Shift(float(dx) * scale.frame_px, float(dy) * scale.frame_px, float(response))
