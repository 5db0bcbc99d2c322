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
again finely only where the coarse shift is large: the frame loop only looks it up. A move too
small for that, or one that only turns the picture, is read by a least-squares fit of a shift and a
turn to the coarse thumbnail's grey, the pixels it cannot explain (balls moved, players) left out,
and checked by aligning the picture whole (on the pixels that no move or the move fitted explains:
a player gone from the frame since, or come into it, does not pull the alignment).

A move is then followed: the picture's turn and shift, measured whole once per move
(:meth:`ViewShift.motion`), move the view, or the calibration given, with it
(``TableView.moved_in_picture``); where they cannot be measured the table is found again in the
frames.
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
      (within ``steady_px``), or else the picture aligned whole (ECC, below) moving the box's
      centre by that shift (within ``steady_px``; ``Shift.uniform``), is the picture moving. On
      the 8509 frames of the Task2 and Task4 clips showing the table and measured
      (``min_response``), 19 read above 3 px (5 clips; 99.9th percentile 3.3 px, the largest
      4.1), in 8 runs of three frames agreeing (a player over the table); with the halves'
      agreement none does. A knock of 3.6 px on a 960 × 540 render moves the far end's balls
      ~25 mm, which the tracker reads as every ball moving. A camera turned 0.6-1.0° as it moved
      5-7 px splits the halves' shifts by ~3 px on that render; aligned whole, it reads as the
      move it is. A player over one side reads as no move aligned whole (fitting the box's
      quarters to one turn and shift instead let a player through on a re-encoded Task2 clip 24,
      and the frame skipped there invented a pot).
    - ``refit_min_move_px``: the table found again after a move is taken where its corners moved
      at least this (frame px, the largest of the four) from the view's; else the shift was not
      the camera's and the view stands.
    - ``small_move_px``, ``small_steady_px``, ``fit_blur_px``: a move too small for the phase
      correlation (its peak is read to a fraction of 4-8 frame px, and pulled toward whole ones:
      a 1.5 px knock of the demo clip read 0.7 px coarsely, 1.0 finely), one that only turns
      the picture (a 0.8° turn about the picture's centre reads as no shift), or one whose shift
      is not the picture's moving whole (``min_response``, below), is read by a
      least-squares fit of a shift and a turn about the box's centre to the coarse measure's grey
      (above) against the reference's, both smoothed by a Gaussian ``fit_blur_px`` wide (its px,
      odd), the reference's gradients made once. On the demo clip it moves the box's corners by
      at most 2.0 px for a 1.5 px knock, 5.5 px for a 0.8° turn (truly 5.2), 0.14-0.36 px with
      nothing moved; on the 5815 frames of the 25 Task2 clips measured, still cameras, median
      0.31 px, 99.9th percentile 1.5 px, the largest 1.6 with one step (``fit_iterations``); with
      two, 85 of 6152 frames above 1.5 px, the largest 2.65 (clips 6, 11, 15 and 24: a player over
      the table). A fit moving a corner of the box by more than
      ``small_move_px`` (frame px) is checked by aligning the picture whole (``check_width_px``):
      it is the picture moving where that alignment moves a corner of the box by more than
      ``small_move_px`` too, each within ``steady_px`` of the fit, or ``small_agree_share`` of the
      fit's largest corner move where more (the fit's error grows with the move: on a Task2 clip
      turned 0.8° it moved a corner 6-7 px, the quick alignment 6-8; a player over the table reads
      as no move aligned whole; the verdict stands for fits within ``small_steady_px`` of the one
      checked, at the corners); then, held on ``confirm_frames`` frames (fits within
      ``small_steady_px``), a move, as above. Of those 85 frames, 9 were checked and none taken
      (read whole, the alignment took clip 24's frame 42 as a 0.13° turn: the player's pull,
      ``check_outlier_levels``).
      Unnoticed, a 2.5 px knock or a 0.6-0.8° turn of the demo clip between its strokes read them
      as one foul; a knock moving no
      corner beyond 1.5 px is left (on the demo clip one of 1-1.5 px, followed, still reads as a
      foul: a picture resampled by a fraction of a pixel moves the balls' measured centres; one of
      1-1.4 px left unnoticed reads one or two far balls as moving for the tracker's rest window,
      six frames, and no stroke: its calls stand, knocked at rest, settling or as a stroke is
      struck).
    - ``check_outlier_levels``: the alignments, the quick check and the follow, read only the
      pixels of the box whose grey (0-255, smoothed as ECC smooths it) the frame unmoved, or moved
      back by the move they start from (the fit's shift and turn, or the shift measured), explains
      within this; fewer than ``fit_min_inliers`` of them, they say nothing. Read whole, a player
      over the table in the view's first frame, gone since (or come since), pulled the alignment
      3-7 px off a 0.8° turn at the box's corners on Task2 clips 4 and 5 (ECC weighs every pixel
      alike), so the check refused the turn the fit had read within 2-4 px; aligned on what either
      explains, it reads the turn within 0.3 px. A still camera's pixels are explained unmoved,
      so a player over the table still reads as no move.
    - ``fit_outlier_levels``, ``fit_iterations``, ``fit_min_inliers``: the fit reads only the
      pixels whose grey (0-255, smoothed) the last step (at first, no move) explains within
      ``fit_outlier_levels`` (balls moved since the reference, a player: read too, they pulled
      the demo clip's fit 1.6 px off with nothing moved), over ``fit_iterations`` least-squares
      steps (each the same linear model, the pixels read chosen again); where fewer than
      ``fit_min_inliers`` (a share) are read it says nothing. The first step leaves out the edges a
      turn moved most (changed more than ``fit_outlier_levels`` unmoved): on Task2 clips turned
      0.8° it read 65-75 % of the turn, beyond ``small_agree_share`` of the move, so the check
      refused it for up to 50 frames; the second reads them again (20 % under at most). The fit
      costs ~0.1 ms a frame of the reader thread (below: PERFORMANCE.md).
    - ``min_response``: a phase correlation whose peak is below this is no measurement (a cut, a
      player filling the box): too little of the picture moved as one. The fit is not held to it
      (it reads its own pixels, ``fit_min_inliers``): it is what reads a move where a player over
      the table in one picture only lowers the peak and pulls the shift (Task2 clip 4 knocked 5,
      3 px and turned 0.4° as a player stood over the table: peaks 0.21-0.34, shifts 3.5-4.6 px
      and 1.9 px off the picture's, which the check held to the peak refused, leaving the knock unnoticed).
    - ``steady_px``: successive measurements of one move agree within this (frame px).
    - ``confirm_frames``: a move held on this many measured frames in a row is the camera's (a
      vibration or a player's sweep across the table is not); the frames until then are not read.
    - ``recheck_gap_frames``: after the table was looked for and found where it was (a shift that
      was not the camera's), no new look for this many frames.

    Following a move (:meth:`ViewShift.motion`: the view, or a calibration given, is moved with
    the picture): the picture's turn and shift are measured whole by OpenCV's ECC alignment
    (``findTransformECC``, a Euclidean motion) of the frame against the frame the view was first
    used on, in grey, started from the shift measured.

    - ``follow_width_px``: frames are aligned at most this wide (a 1280 × 720 frame at half size:
      ~20-150 ms, once a move; on the Task2 clips knocked 6, 4 px and turned 0.3°, the points of
      the table land within 0.1-1.6 px of where they moved, as much as the broadcast camera's own
      drift between the frames).
    - ``check_width_px``, ``check_iterations``: where the halves disagree, whether the picture
      moved whole is asked of a quicker alignment, this wide and stopped after this many
      iterations (the box's centre must come within ``steady_px``, 1.5 frame px: 0.4 px at 320
      wide). A verdict stands for the frames whose shift stays within ``steady_px`` of the one
      checked: a player over the table is checked once, not on every frame (on the 25 Task2
      clips, aligning each of the 46 such frames at 640 px cost 12.6 CPU-s, 2 core-ms a frame,
      and the bench's ratio fell from 0.28 to 0.23). A shift below ``min_response`` is no move
      whatever the alignment says: it is aligned only where a later frame takes its verdict.
    - ``follow_margin_px``: the alignment reads the table's box (the gate's, ``MotionGateConfig``)
      and this much around it (frame px), so the cushions and pockets count and the picture
      beyond, score graphics and crowd, does not.
    - ``follow_min_correlation``: an alignment whose correlation (ECC's, 0-1) is below this is no
      measurement. Between the first and later frames of the Task2 clips, balls and players moved,
      it reads 0.76-0.99; a player filling the table 0.41.
    - ``follow_iterations``, ``follow_tolerance``: ECC stops after this many iterations or once a
      step changes the motion by less than this (its own units: the parameters at the working
      size).
    - ``follow_blur_px``: ECC smooths both frames with a Gaussian this wide (px, odd) first.
    - ``follow_tries``: moves confirmed in a row that could not be followed before a calibration
      given is given up (``CameraMoved``); the frames between are not read.
    """

    enabled: bool = True
    measure_every_frames: int = 1
    coarse_suspect_px: float = 2.0
    max_shift_px: float = 3.0
    refit_min_move_px: float = 1.5
    small_move_px: float = 1.5
    small_steady_px: float = 0.5
    small_agree_share: float = 0.3
    fit_blur_px: int = 3
    fit_outlier_levels: float = 12.0
    fit_iterations: int = 2
    fit_min_inliers: float = 0.5
    check_outlier_levels: float = 12.0
    min_response: float = 0.3
    steady_px: float = 1.5
    confirm_frames: int = 3
    recheck_gap_frames: int = 90
    follow_width_px: int = 640
    check_width_px: int = 320
    check_iterations: int = 30
    follow_margin_px: int = 32
    follow_min_correlation: float = 0.7
    follow_iterations: int = 100
    follow_tolerance: float = 1e-6
    follow_blur_px: int = 5
    follow_tries: int = 5

    def __post_init__(self) -> None:
        distances = (self.max_shift_px, self.steady_px, self.coarse_suspect_px, self.refit_min_move_px)
        if min(*distances, self.small_move_px, self.small_steady_px, self.small_agree_share) <= 0:
            raise ValueError(
                "max_shift_px, steady_px, coarse_suspect_px, refit_min_move_px, small_move_px, "
                "small_steady_px and small_agree_share must be > 0"
            )
        if not 0 < self.min_response <= 1:
            raise ValueError("min_response must be in (0, 1]")
        if self.measure_every_frames < 1:
            raise ValueError("measure_every_frames must be >= 1")
        if self.confirm_frames < 1 or self.recheck_gap_frames < 0:
            raise ValueError("confirm_frames must be >= 1 and recheck_gap_frames >= 0")
        if self.follow_width_px < _SMALLEST_SIDE or self.follow_margin_px < 0:
            raise ValueError(f"follow_width_px must be >= {_SMALLEST_SIDE} and follow_margin_px >= 0")
        if not 0 < self.follow_min_correlation <= 1 or self.follow_tolerance <= 0:
            raise ValueError("follow_min_correlation must be in (0, 1] and follow_tolerance > 0")
        if not 0 < self.fit_min_inliers <= 1 or min(self.fit_outlier_levels, self.check_outlier_levels) <= 0:
            raise ValueError(
                "fit_min_inliers must be in (0, 1], fit_outlier_levels and check_outlier_levels > 0"
            )
        if self.fit_iterations < 1:
            raise ValueError("fit_iterations must be >= 1")
        if self.follow_iterations < 1 or self.follow_tries < 1 or self.check_iterations < 1:
            raise ValueError("follow_iterations, check_iterations and follow_tries must be >= 1")
        if self.check_width_px < _SMALLEST_SIDE:
            raise ValueError(f"check_width_px must be >= {_SMALLEST_SIDE}")
        if (
            min(self.follow_blur_px, self.fit_blur_px) < 1
            or not self.follow_blur_px % 2 == self.fit_blur_px % 2 == 1
        ):
            raise ValueError("follow_blur_px and fit_blur_px must be odd numbers >= 1")


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
    """The box's two halves moved alike, or the picture aligned whole moved as the shift says
    (measured only where the whole moved beyond ``max_shift_px``; a player leaning over one side
    pulls the whole box's shift, a camera moves all of the picture)."""
    corners_moved: tuple[tuple[float, float], ...] = ()
    """How the box's four corners moved (dx, dy frame px each) by the fit of a small shift and turn
    (``small_move_px``); empty where not fitted."""

    @property
    def corners_moved_px(self) -> float:
        """The largest move of the box's corners the fit says (frame px; 0 where not fitted)."""
        return max((float(np.hypot(*moved)) for moved in self.corners_moved), default=0.0)

    @property
    def length_px(self) -> float:
        return float(np.hypot(self.dx_px, self.dy_px))


@dataclass(frozen=True)
class PictureMotion:
    """How the picture moved since the view was first used: ``matrix`` (2, 3) maps where a point
    was seen (frame px) to where it is seen now (a turn and a shift); ``correlation`` is the
    alignment's (ECC's, 0-1)."""

    matrix: np.ndarray
    correlation: float

    @property
    def turn_deg(self) -> float:
        return float(np.degrees(np.arctan2(self.matrix[1, 0], self.matrix[0, 0])))

    def moved_by(self, points: np.ndarray) -> np.ndarray:
        """How each of ``points`` (n, 2 frame px) moved (n, 2 frame px)."""
        points = np.asarray(points, dtype=float).reshape(-1, 2)
        return points @ self.matrix[:, :2].T + self.matrix[:, 2] - points

    def moved_px(self, points: np.ndarray) -> np.ndarray:
        """How far each of ``points`` (n, 2 frame px) moved (n,)."""
        return np.hypot(*self.moved_by(points).T)


@dataclass(frozen=True)
class _Aligned:
    """What a frame is aligned against to follow a move: the reference frame's grey (float32),
    shrunk by ``scale`` (working px per frame px), and the mask of the part read (uint8)."""

    grey: np.ndarray
    scale: float
    mask: np.ndarray


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
class _Fit:
    """The reference of the small move's fit: the coarse scale's grey (``_Scale``), smoothed,
    ``jacobian`` (3, n): each pixel's change of grey for a shift right and down of one of its px
    and a turn of one radian about its centre, ``frame_px``: frame px per its px, ``centre``: that
    centre and ``corners`` (4, 2): the box's corners about it (frame px)."""

    grey: np.ndarray
    jacobian: np.ndarray
    frame_px: int
    centre: np.ndarray
    corners: np.ndarray


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
    fit: _Fit
    aligned: _Aligned
    """The reference frame whole, to align a frame against (:meth:`ViewShift.motion`)."""
    checked: _Aligned
    """The same, smaller, for the quicker check of a move (``check_width_px``)."""


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
        self._small_checked: tuple[_Reference, Shift, bool] | None = None
        """The last small move checked by aligning the picture whole, the reference it was against
        and the verdict: it stands while the fit stays within ``small_steady_px`` at the corners."""
        self._checked: tuple[_Reference, Shift, np.ndarray | None] | None = None
        """The last shift checked by aligning the picture whole, the reference it was against and,
        while that alignment is owed (the shift was no measurement), the frame to align: it is
        aligned only when a later frame takes its verdict (:meth:`_uniformity`)."""

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
        config = self.config
        reference = self._reference
        shift = None if reference is None else self._shift(image, reference)
        measured = shift is not None and shift.response >= config.min_response and index >= self._quiet_until
        large = measured and shift.uniform and shift.length_px > config.max_shift_px
        fitted = shift is not None and index >= self._quiet_until
        small = fitted and not large and shift.corners_moved_px > config.small_move_px
        if small:
            # the fit's move of the box's centre: the phase correlation's shift is no measure here
            centre_dx, centre_dy = np.mean(shift.corners_moved, axis=0)
            shift = replace(shift, dx_px=float(centre_dx), dy_px=float(centre_dy))
            small = self._moved_whole(image, reference, shift)
        if not large and not small:
            self._run = []
            return Verdict.STILL, shift
        if self._run and not _steady(self._run[-1], shift, config):
            self._run = []
        self._run.append(shift)
        if len(self._run) < config.confirm_frames:
            return Verdict.MOVING, shift
        self._run = []
        return Verdict.MOVED, shift

    def _checked_small(self, reference: _Reference | None, shift: Shift) -> bool | None:
        """The verdict of the last small move checked (:meth:`_moved_whole`) where ``shift``'s fit
        lies within ``small_steady_px`` of its, against the same reference; else None."""
        checked = self._small_checked
        if checked is None or checked[0] is not reference:
            return None
        return checked[2] if _corners_apart(checked[1], shift) <= self.config.small_steady_px else None

    def _moved_whole(self, image: np.ndarray, reference: _Reference, shift: Shift) -> bool:
        """Whether a small move, fitted (``shift.corners_moved``), is the picture's: aligned
        whole (``check_width_px``), a corner of the box moves by more than ``small_move_px`` and
        each within ``steady_px`` of the fit. The verdict stands for the fits within
        ``small_steady_px`` of the one checked (a player standing over the table is checked once)."""
        config = self.config
        known = self._checked_small(reference, shift)
        if known is not None:
            return known
        motion = self._align(image, reference.checked, shift, config.check_iterations)
        whole = False
        if motion is not None:
            moved = motion.moved_by(reference.fit.corners + reference.fit.centre)
            agree_px = max(config.steady_px, config.small_agree_share * shift.corners_moved_px)
            whole = bool(
                np.hypot(*moved.T).max() > config.small_move_px
                and np.hypot(*(moved - np.asarray(shift.corners_moved)).T).max() <= agree_px
            )
        self._small_checked = (reference, shift, whole)
        return whole

    def start(self, view: object, image: np.ndarray) -> None:
        """Measure from ``image``, seen through ``view``, from now on (a view first used, or found
        again after a move)."""
        self._reference = self._reference_of(view, image)
        self._started = (view, image.shape[:2])
        self._run = []
        self._small_checked = None

    def motion(self, image: np.ndarray, shift: Shift) -> PictureMotion | None:
        """How the picture moved (a turn and a shift) from the frame the view was first used on to
        ``image``, aligned whole from ``shift`` (a move found by :meth:`check`); None where it cannot
        be measured: no reference, the alignment did not converge, or it correlates less than
        ``follow_min_correlation``. Aligned twice: the second time on the pixels that no move or
        the first alignment's explains (the move it starts from, the fit's or the shift's, is only
        near the picture's: the edges it leaves unexplained are read again)."""
        reference = self._reference
        if reference is None or image.shape[:2] != reference.shape:
            return None
        iterations = self.config.follow_iterations
        first = self._align(image, reference.aligned, shift, iterations)
        if first is None:
            return None
        return self._align_from(image, reference.aligned, first.matrix, iterations) or first

    def _align(
        self, image: np.ndarray, aligned: _Aligned, shift: Shift, iterations: int
    ) -> PictureMotion | None:
        """The picture's move from ``aligned`` to ``image`` by ECC, started from ``shift`` (its fit's
        turn too, where fitted: :func:`_start_of`); as :meth:`_align_from`."""
        reference = self._reference
        start = _start_of(shift, reference.fit if reference is not None else None)
        return self._align_from(image, aligned, start, iterations)

    def _align_from(
        self, image: np.ndarray, aligned: _Aligned, start: np.ndarray, iterations: int
    ) -> PictureMotion | None:
        """The picture's move from ``aligned`` to ``image`` by ECC, started from ``start`` ((2, 3),
        frame px), reading only the pixels of the box that no move or that start explains
        (:meth:`_explained`); None where it cannot be measured."""
        cfg = self.config
        warp = start.astype(np.float32)
        warp[:, 2] *= aligned.scale
        working = _working_grey(image, aligned.scale)
        mask = self._explained(aligned, working, warp)
        if mask is None:
            return None
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, cfg.follow_tolerance)
        try:
            correlation, warp = cv2.findTransformECC(
                aligned.grey, working, warp, cv2.MOTION_EUCLIDEAN, criteria, mask, cfg.follow_blur_px
            )
        except cv2.error:  # ECC's iterations diverged (the picture changed too much to align)
            return None
        if not np.isfinite(correlation) or correlation < cfg.follow_min_correlation:
            return None
        matrix = warp.astype(float)
        matrix[:, 2] /= aligned.scale
        return PictureMotion(matrix, float(correlation))

    def _explained(self, aligned: _Aligned, working: np.ndarray, warp: np.ndarray) -> np.ndarray | None:
        """The part of ``aligned``'s box to align ``working`` (a frame's grey at its scale) on: the
        pixels whose grey, smoothed as ECC smooths it, either the frame unmoved or the frame moved
        back by ``warp`` (working px) explains within ``check_outlier_levels`` (a player or a ball
        that moved since the reference frame, in it or in this one, is neither and is left out:
        read, it pulled the alignment several px off the move); None where fewer than
        ``fit_min_inliers`` of the box's pixels are left (the table covered)."""
        cfg = self.config
        size = (cfg.follow_blur_px,) * 2
        reference = cv2.GaussianBlur(aligned.grey, size, 0)
        now = cv2.GaussianBlur(working, size, 0)
        back = cv2.warpAffine(
            now, warp, (now.shape[1], now.shape[0]), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        unexplained = np.minimum(np.abs(reference - now), np.abs(reference - back))
        inside = aligned.mask > 0
        read = inside & (unexplained < cfg.check_outlier_levels)
        if read.sum() < cfg.fit_min_inliers * inside.sum():
            return None
        return read.astype(np.uint8) * 255

    def _aligned_of(self, image: np.ndarray, box: Box, width_px: int) -> _Aligned:
        """What later frames are aligned against: ``image``'s grey at most ``width_px`` wide and
        the table's ``box`` with ``follow_margin_px`` around it."""
        scale = min(1.0, width_px / image.shape[1])
        grey = _working_grey(image, scale)
        mask = np.zeros(grey.shape, np.uint8)
        margin = self.config.follow_margin_px
        x0, y0, x1, y1 = (
            round(v * scale) for v in (box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)
        )
        mask[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = 255
        return _Aligned(grey, scale, mask)

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
        widths = (self.config.follow_width_px, self.config.check_width_px)
        aligned, checked = (self._aligned_of(image, box, width) for width in widths)
        fit = self._fit_of(coarse, box)
        return _Reference(view, shape, box, coarse, fine, halves, fit, aligned, checked)

    def _fit_of(self, coarse: _Scale, box: Box) -> _Fit:
        """The small move's fit against the reference's ``coarse`` grey: the smoothed grey's
        gradients give each pixel's change for a shift and a turn about the part's centre; made
        once here."""
        grey = cv2.GaussianBlur(coarse.grey, (self.config.fit_blur_px,) * 2, 0)
        rows, cols = grey.shape
        along_y, along_x = np.gradient(grey)
        ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float32)
        xs -= (cols - 1) / 2
        ys -= (rows - 1) / 2
        jacobian = np.stack([along_x.ravel(), along_y.ravel(), (xs * along_y - ys * along_x).ravel()])
        scale = self.gate.thumbnail_scale
        centre = np.array(
            [
                box[0] + (coarse.left + coarse.cols / 2) * scale,
                box[1] + (coarse.top + coarse.rows / 2) * scale,
            ]
        )
        corners = np.array([(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])], dtype=float) - centre
        return _Fit(grey, jacobian, coarse.frame_px, centre, corners)

    def _thumbnail(self, image: np.ndarray, box: Box) -> np.ndarray:
        """The gate's thumbnail of ``box``: made ahead by ``thumbnails`` where it was, else here."""
        scale = self.gate.thumbnail_scale
        if self.thumbnails is not None:
            return self.thumbnails.table_of(image, box, scale)
        x0, y0, x1, y1 = box
        return thumbnail(image[y0:y1, x0:x1], scale)

    def _uniformity(self, image: np.ndarray, small: np.ndarray, reference: _Reference, shift: Shift) -> Shift:
        """``shift`` saying whether the whole picture moved: the box's two halves moved with it
        (within ``steady_px``), or, where they did not (the picture turned too, or a player over
        one side pulls the whole box's shift), the picture aligned whole (quickly:
        ``check_width_px``) moved the box's centre as the shift says (within ``steady_px``). The
        last such verdict stands while the shift stays within ``steady_px``.

        A shift that is no measurement (below ``min_response``) is never a move (:meth:`check`),
        so its own verdict is not read: it says not uniform without aligning. Where it would have
        been aligned, it is still the verdict later frames take while their shifts stay within
        ``steady_px`` of it, aligned then, as it would have been (the same frame, from the same
        shift): the verdicts read are those of aligning every such frame at once. (On the Task2
        clips 1-8 every one of the 26 alignments a run made was of a shift below ``min_response``,
        a cut or a player filling the box, and none was read: 0.4 ms a frame of the reader's CPU.)
        An owed alignment holds its frame (one at most; frames are not written to once read)."""
        config = self.config
        halves = [_correlate(small, half) for half in reference.halves]
        if _measured(halves, config) and all(_apart(h, shift) <= config.steady_px for h in halves):
            return shift
        read = shift.response >= config.min_response
        checked = self._checked
        if checked is not None and checked[0] is reference and _apart(checked[1], shift) <= config.steady_px:
            if not read:
                return replace(shift, uniform=False)
            return replace(shift, uniform=self._owed(checked).uniform)
        if not read:
            self._checked = (reference, shift, image)
            return replace(shift, uniform=False)
        verdict = self._whole(image, reference, shift)
        self._checked = (reference, verdict, None)
        return verdict

    def _owed(self, checked: tuple[_Reference, Shift, np.ndarray | None]) -> Shift:
        """The verdict of the last shift checked, its alignment made now where it is owed."""
        reference, shift, image = checked
        if image is None:
            return shift
        verdict = self._whole(image, reference, shift)
        self._checked = (reference, verdict, None)
        return verdict

    def _whole(self, image: np.ndarray, reference: _Reference, shift: Shift) -> Shift:
        """``shift`` saying whether the picture aligned whole (``check_width_px``) moved the box's
        centre as it says (within ``steady_px``)."""
        config = self.config
        motion = self._align(image, reference.checked, shift, config.check_iterations)
        x0, y0, x1, y1 = reference.box
        whole = motion is not None and (
            np.hypot(*(motion.moved_by([(x0 + x1) / 2, (y0 + y1) / 2])[0] - (shift.dx_px, shift.dy_px)))
            <= config.steady_px
        )
        return replace(shift, uniform=bool(whole))

    def _measure(self, image: np.ndarray, reference: _Reference | None) -> Shift | None:
        """``image``'s shift against ``reference`` (None: nothing to measure against, or another
        size): coarsely, and finely where the coarse shift reaches ``coarse_suspect_px``; fitted
        (``small_move_px``) where it is no larger than ``max_shift_px`` or not the picture's
        moving whole (a player pulling the phase correlation off a knock is fitted past)."""
        if reference is None or image.shape[:2] != reference.shape:
            return None
        small = self._thumbnail(image, reference.box)
        shift = _correlate(small, reference.coarse)
        if shift.length_px >= self.config.coarse_suspect_px:
            shift = _correlate(small, reference.fine)
        if shift.length_px > self.config.max_shift_px:
            shift = self._uniformity(image, small, reference, shift)
            if shift.uniform:
                return shift
        return replace(shift, corners_moved=self._fitted(_grey(small, reference.coarse), reference.fit))

    def _fitted(self, coarse: np.ndarray, fit: _Fit) -> tuple[tuple[float, float], ...]:
        """How the box's corners moved (frame px) by the shift and turn fitted to a frame's
        ``coarse`` grey against ``fit``'s reference: the move linear in the grey's change, fitted
        ``fit_iterations`` times by least squares over the pixels whose grey the last fit (at
        first, no move) explains within ``fit_outlier_levels``
        (balls moved since, a player); none (empty) where fewer than ``fit_min_inliers`` of them
        are (a cut, the table covered)."""
        config = self.config
        change = (fit.grey - cv2.GaussianBlur(coarse, (config.fit_blur_px,) * 2, 0)).ravel()
        unexplained = change
        for _ in range(config.fit_iterations):
            inliers = (np.abs(unexplained) < config.fit_outlier_levels).astype(np.float32)
            if inliers.mean() < config.fit_min_inliers:
                return ()
            weighted = fit.jacobian * inliers
            try:
                step = np.linalg.solve(weighted @ fit.jacobian.T, weighted @ change)
            except np.linalg.LinAlgError:  # no texture left to fit
                return ()
            unexplained = change - step @ fit.jacobian
        dx, dy, turn = (float(v) for v in step)
        turned = turn * np.stack([-fit.corners[:, 1], fit.corners[:, 0]], axis=1)
        moved = turned + np.array([dx, dy]) * fit.frame_px
        return tuple((float(x), float(y)) for x, y in moved)


_COARSE = 2
"""The coarse measure's thumbnail is shrunk this many times each way (a quarter of the work)."""
_SMALLEST_SIDE = 8
"""A box whose coarse measure would be smaller than this (px) either way is not measured."""


def _measured(shifts: list[Shift], config: ViewShiftConfig) -> bool:
    """Whether every one of ``shifts`` is a measurement (its peak reaches ``min_response``)."""
    return all(part.response >= config.min_response for part in shifts)


def _steady(a: Shift, b: Shift, config: ViewShiftConfig) -> bool:
    """Whether ``a`` and ``b`` measure one move: shifts within ``steady_px``, and where both were
    fitted, corners within ``small_steady_px``."""
    if a.corners_moved and b.corners_moved:
        return _apart(a, b) <= config.steady_px and _corners_apart(a, b) <= config.small_steady_px
    return _apart(a, b) <= config.steady_px


def _corners_apart(a: Shift, b: Shift) -> float:
    """How far apart the fits of ``a`` and ``b`` put the box's corners (frame px, the largest;
    infinite where either was not fitted)."""
    if not a.corners_moved or not b.corners_moved:
        return float("inf")
    return float(np.hypot(*(np.asarray(a.corners_moved) - np.asarray(b.corners_moved)).T).max())


def _apart(a: Shift, b: Shift) -> float:
    return float(np.hypot(a.dx_px - b.dx_px, a.dy_px - b.dy_px))


def _start_of(shift: Shift, fit: _Fit | None) -> np.ndarray:
    """The move (2, 3, frame px) an alignment starts from: ``shift``'s fit of a shift and a turn
    about ``fit``'s centre where it was fitted (its corners' moves, read back by least squares),
    else ``shift``'s shift."""
    start = np.eye(2, 3)
    if not shift.corners_moved or fit is None:
        start[:, 2] = (shift.dx_px, shift.dy_px)
        return start
    about = fit.corners
    design = np.zeros((2 * len(about), 3))
    design[0::2, 0] = design[1::2, 1] = 1.0
    design[0::2, 2], design[1::2, 2] = -about[:, 1], about[:, 0]
    (dx, dy, turn), *_ = np.linalg.lstsq(design, np.asarray(shift.corners_moved, float).ravel(), rcond=None)
    start[:, :2] = ((1.0, -turn), (turn, 1.0))
    start[:, 2] = fit.centre + np.array([dx, dy]) - start[:, :2] @ fit.centre
    return start


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


def _working_grey(image: np.ndarray, scale: float) -> np.ndarray:
    """``image``'s grey shrunk by ``scale`` (area-averaged), float32, for the alignment."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if scale < 1.0:
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return grey.astype(np.float32)


def _correlate(small: np.ndarray, scale: _Scale) -> Shift:
    (dx, dy), response = cv2.phaseCorrelate(scale.grey, _grey(small, scale), scale.window)
    return Shift(float(dx) * scale.frame_px, float(dy) * scale.frame_px, float(response))
