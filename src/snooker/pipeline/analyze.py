"""The offline frame loop: frames → calibration → detections → tracker → strokes (→ referee).

:class:`VideoAnalysis` takes one frame at a time, so a file, a camera or a synthetic clip all go
through the same code. Frames that do not show the calibrated table (a close-up, a replay from
another angle, a crowd shot) are skipped by the tracker; only the cue ball is looked for in
them, in image px (``snooker.vision.otherview``: ``other_views`` of the output). The first frame
showing a table calibrates the view unless one is given. Everything seen so far can be written
out at any moment, so a video that breaks off midway still leaves its strokes behind.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from snooker.pipeline.joining import (
    EDGE_FALL,
    EdgeFalls,
    JoinConfig,
    edge_fall_line,
    stroke_lines,
    table_line,
)
from snooker.pipeline.tracking import TrackingStage, TrackingWorker, TrackingWorkerError
from snooker.referee import Referee
from snooker.tracker import BallTracker, StrokeConfig, StrokeEvents, StrokeSegmenter, TrackerConfig
from snooker.tracker.replays import Replay, ReplayConfig
from snooker.tracker.strokes import OutsideEvent
from snooker.tracker.types import TableState
from snooker.vision.gating import (
    FastPathConfig,
    FrameThumbnails,
    GatedViewCheck,
    RepeatSearchGate,
    gate_detector,
)
from snooker.vision.otherview import BallCandidate, CueBallSighting, OtherViewConfig, OtherViewCueBall
from snooker.vision.types import BallDetections, Frame
from snooker.vision.viewshift import Shift, Verdict, ViewShift, ViewShiftConfig

T = TypeVar("T")

ANALYSIS_SCHEMA = "snooker.analysis/1"
LOG_SCHEMA = "snooker.log/1"

PICTURE_MOVING = "the picture is moving"
"""Why a frame of the table's view is skipped while the picture moves (``view_shift``)."""

Detector = Callable[[np.ndarray, object], BallDetections]
"""``detector(frame_bgr, view) -> BallDetections`` (see ``snooker.vision.detector``)."""


@dataclass(frozen=True)
class AnalysisConfig:
    """Frame-loop parameters (counts are frames of the source)."""

    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    strokes: StrokeConfig = field(default_factory=StrokeConfig)
    replays: ReplayConfig = field(default_factory=ReplayConfig)
    """When strokes after a cut are a replay from the main camera, not play (dropped)."""
    calibrate_every_frames: int = 10
    """While no table has been found, try to find one on every this many frames."""
    recalibrate_after_frames: int = 15
    """After this many frames in a row that do not show the calibrated table, look for a new view
    (the camera moved); while none is found, look again after ``calibrate_every_frames``, the
    wait doubling after each failed look..."""
    recalibrate_max_gap_frames: int = 40
    """...up to this many frames: a replay or a break in play is looked through a few times in
    its first seconds, then every 1.3 s at 30 fps, not three times a second (a look at a frame of
    another view costs ~0.1 s: it was a quarter of the loop's time there)."""
    unchanged_search_gap_frames: int = 40
    """A frame that looks like the one the last failed search was made on (the view check's
    measure, ``fast_path.view_check``) is not searched for a table (the search would fail the same
    way) until this many frames have passed since that search (see ``RepeatSearchGate``): a held
    close-up or replay is searched every this many frames, not every ``calibrate_every_frames``."""
    check_view: bool = True
    """Check every frame shows the calibrated table (``shows_table``) before reading it."""
    fast_path: FastPathConfig = field(default_factory=FastPathConfig)
    """Detect again only where the picture changed, check the view only when it changed or every
    few frames (``snooker.vision.gating``; applies to the default view check and to detectors
    whose output depends only on the image)."""
    other_view: OtherViewConfig = field(default_factory=OtherViewConfig)
    """The cue ball followed in image px through frames that do not show the table (another
    camera's view; ``enabled=False``: such frames are skipped whole). Not while the first table is
    searched for in the background (a live source's start must not wait)."""
    other_view_look_ahead: bool = True
    """While the cue ball is looked for in a frame of another view, look for it in the next frame
    (if read already) on a helper thread (see :class:`FrameCueBall`): the same sightings, on both
    cores. Off: one frame at a time, on the frame loop's thread."""
    other_view_looks_during_search: int = 4
    """With ``other_view_look_ahead``: how many frames, from the one searched on, the helper looks
    in while a search for the table holds the frame loop in a run of other views (a search takes
    ~60-80 ms, a look ~15 ms; there most searches fail, and those frames are then looked in).
    0: none."""
    place_centre_error_px: float = 1.0
    """How far (px) a resting ball's detected centre may be off its place as a whole, beyond the
    tracker's allowance: a ball on the painted baulk line reads ~0.7 px towards the camera (the
    line joins its rim in the rim fit; rendered stills), elsewhere within 0.3 px. With the view's
    fit error it is added, in the mm a pixel spans there, to what the referee allows a cue ball
    from hand beyond the D (see ``TrackingStage.with_place_error``)."""
    view_shift: ViewShiftConfig = field(default_factory=ViewShiftConfig)
    """When the picture moved under a view still passing the check (a camera knocked, re-framed):
    a table found in the frames is found again there; a calibration given no longer fits
    (``CameraMoved``). See ``snooker.vision.viewshift``."""
    find_table_in_background: bool = False
    """Look for the first table on a worker thread while frames keep coming (each skipped as "no
    table found yet" until it is found) rather than hold the frame loop for the search: a live
    source does not wait (see ``LiveTableConfig``). Off for files: every frame from the first one
    showing the table is then read, whatever the machine's speed."""

    def __post_init__(self) -> None:
        if self.unchanged_search_gap_frames < 1:
            raise ValueError(
                f"unchanged_search_gap_frames must be at least 1, got {self.unchanged_search_gap_frames}"
            )
        looks = self.other_view_looks_during_search
        if looks < 0:
            raise ValueError(f"other_view_looks_during_search must not be negative, got {looks}")
        if self.place_centre_error_px < 0:
            raise ValueError(f"place_centre_error_px must not be negative, got {self.place_centre_error_px}")


@dataclass
class FrameOutcome:
    """What one frame gave: the table state (None when the frame was skipped, or tracked in a
    worker process: ``tracked_elsewhere``), finished strokes; in a skipped frame, the cue ball
    followed in image px (``other_views``) where it was seen."""

    frame: Frame
    state: TableState | None
    strokes: list[StrokeEvents]
    skipped: str | None = None
    cue_ball: CueBallSighting | None = None
    tracked_elsewhere: bool = False
    """The frame's detections went to a :class:`TrackingWorker`: its state and strokes come with
    ``VideoAnalysis.finish``."""


class VideoAnalysis:
    """Runs the perception chain over frames of one video and keeps what it found.

    ``view`` is a ``snooker.calibration.TableView`` (found automatically when None), kept for
    the whole video unless ``fixed_view`` is False: then it is only the view to start from (a
    long video's segment starts with the view its beginning was read with) and is replaced after
    a cut away like a found one; ``detector`` a ball detector (behind the fast path's motion gate
    where it allows one);
    ``find_table`` / ``shows_table`` default to the calibration package's (the view check behind
    the fast path's gate; both injectable for tests and synthetic clips); ``other_view(frame)``
    the cue ball in a frame that does not show the table (default: an :class:`OtherViewCueBall`
    when ``config.other_view`` is enabled; injectable to replay recorded sightings);
    ``tracking_worker`` a started :class:`TrackingWorker` to track in (batch analysis: the tracker
    then runs on the other core, beside the next frame's search; :meth:`process` gives no table
    state or strokes, :meth:`finish` gives every stroke, and ``tracker``, ``segmenter``,
    ``frames`` and ``strokes`` are those of the finished stage). None: tracked here, frame by
    frame (what a live view, an annotated video or a segment's hand-over needs).
    """

    def __init__(
        self,
        detector: Detector,
        view: object | None = None,
        config: AnalysisConfig | None = None,
        find_table: Callable[[np.ndarray], object] | None = None,
        shows_table: Callable[[np.ndarray, object], bool] | None = None,
        fixed_view: bool = True,
        other_view: Callable[[Frame], CueBallSighting | None] | None = None,
        tracking_worker: TrackingWorker | None = None,
    ) -> None:
        self.config = config or AnalysisConfig()
        self.thumbnails = frame_thumbnails(self.config)
        self.detector = fast_detector(detector, self.config, self.thumbnails)
        self.view = view
        self.fixed_view = view is not None and fixed_view
        self.find_table = find_table or _default_find_table()
        self.shows_table = shows_table or default_view_check(self.config, self.thumbnails)
        self.stage = TrackingStage(
            self.config.tracker, self.config.strokes, self.config.place_centre_error_px, self.config.replays
        )
        self.tracking_worker = tracking_worker
        self.tracking_error: str | None = None
        """Why the tracking worker gave nothing back (set by :meth:`finish`), or None."""
        self._worker_view: object | None = None
        self.other_view = other_view or _default_other_view(self.config)
        self._other_view_running = False
        self.other_views: list[dict] = []
        """Per frame that did not show the table and showed the cue ball: ``{"i", "t",
        "cue_ball": {"x_px", "y_px", "r_px", "held"}}`` (image px)."""
        self.skipped: dict[str, int] = {}
        self.other_views_not_followed = 0
        """Frames not showing the table in which the cue ball was not looked for (``process``)."""
        self.other_view_looks = 0
        """Frames not showing the table in which the cue ball was looked for."""
        self.views: list[dict] = []
        self.search_gate = RepeatSearchGate(
            self.config.fast_path.view_check, self.config.unchanged_search_gap_frames, self.thumbnails
        )
        """Which searches for the table are made (``search_gate.skipped``: how many were not)."""
        self._off_view_run = 0
        self._research_at = self.config.recalibrate_after_frames
        self._research_gap = self.config.calibrate_every_frames
        self._finished = False
        self._search: Future[object | None] | None = None
        self._search_frame = -1
        self._search_image = np.zeros((0, 0, 3), np.uint8)
        self._searcher = _HelperThread("find-table")
        self._follow_failures = 0
        """Moves confirmed in a row that could not be followed (``ViewShiftConfig.follow_tries``)."""
        self.view_shift = (
            ViewShift(self.config.view_shift, self.config.fast_path.detection, self.thumbnails)
            if self.config.view_shift.enabled
            else None
        )
        if tracking_worker is not None:
            tracking_worker.begin(self.stage)  # last: a video begun is always ended by finish

    # ---------------------------------------------------------------- per frame
    def prepare(self, frame: Frame) -> None:
        """What can be done with ``frame`` alone, ahead of :meth:`process` and on any thread (the
        reader's: ``read_ahead(source, prepare=analysis.prepare)``): the fast path's thumbnails; the
        frame made known to the cue ball's follower in other views (it looks ahead)."""
        if self.thumbnails is not None:
            self.thumbnails.prepare(frame.image)
        if self.view_shift is not None:
            self.view_shift.prepare(frame.index, frame.image)
        prepare = getattr(self.other_view, "prepare", None)
        if prepare is not None:
            prepare(frame)

    def process(self, frame: Frame, follow_other_view: bool = True) -> FrameOutcome:
        """Read one frame (or skip it, saying why). ``follow_other_view`` False: in a frame that
        does not show the table, the cue ball is not looked for (counted in
        ``other_views_not_followed``; a live loop behind its source sheds that work first)."""
        reason = self._ensure_view(frame)
        if reason is not None:
            self.skipped[reason] = self.skipped.get(reason, 0) + 1
            if reason == PICTURE_MOVING:
                # the table's own view, moving: still watched, no ball placed (no other view to
                # look in; a gap in the frames tracked would read as a cut, and the stroke after it
                # as a replay)
                return self._track(frame, BallDetections.empty(), reason)
            if not follow_other_view and self.other_view is not None:
                self.other_views_not_followed += 1
                return FrameOutcome(frame, None, [], reason)
            return FrameOutcome(frame, None, [], reason, self._look_in_other_view(frame))
        self._leave_other_view()
        return self._track(frame, self.detector(frame.image, self.view))

    def _track(self, frame: Frame, detections: BallDetections, reason: str | None = None) -> FrameOutcome:
        """``frame``'s ``detections`` tracked (here, or by the tracking worker)."""
        if self.tracking_worker is not None:
            if self._worker_view is not self.view:
                self._worker_view = self.view
                self.tracking_worker.view(self.view)
            self.tracking_worker.push(frame.index, frame.t, detections)
            return FrameOutcome(frame, None, [], reason, tracked_elsewhere=True)
        self.stage.view = self.view
        state, strokes = self.stage.push(frame.index, frame.t, detections)
        return FrameOutcome(frame, state, strokes, reason)

    @property
    def tracker(self) -> BallTracker:
        return self.stage.tracker

    @property
    def segmenter(self) -> StrokeSegmenter:
        return self.stage.segmenter

    @property
    def outside_events(self) -> list[OutsideEvent]:
        """What changed while no stroke was played (``StrokeSegmenter.outside_events``): balls
        moved, and potted, an edge fall among them (``OutsideEvent.edge_fall``)."""
        return self.stage.segmenter.outside_events

    @property
    def frames(self) -> list[dict]:
        """One record per frame tracked (CONTRACTS.md §3 ``frames``)."""
        return self.stage.frames

    @property
    def strokes(self) -> list[StrokeEvents]:
        return self.stage.strokes

    @property
    def replays(self) -> list[Replay]:
        """Strokes shown again from the main camera, not handed on (``snooker.tracker.replays``)."""
        return self.stage.replays

    def _look_in_other_view(self, frame: Frame) -> CueBallSighting | None:
        """The cue ball in a frame that does not show the table, recorded in ``other_views``."""
        if self.other_view is None or (self.view is None and self.config.find_table_in_background):
            return None
        self._other_view_running = True
        self.other_view_looks += 1
        sighting = self.other_view(frame)
        if sighting is not None:
            self.other_views.append(
                {"i": frame.index, "t": round(frame.t, 4), "cue_ball": sighting.to_record()}
            )
        return sighting

    def _leave_other_view(self) -> None:
        """The table is back in view: the next other view is followed afresh."""
        if self._other_view_running:
            self._other_view_running = False
            reset = getattr(self.other_view, "reset", None)
            if reset is not None:
                reset()

    def finish(self) -> list[StrokeEvents]:
        """End of the video: settle pending pots and close a running stroke (as truncated). The
        strokes :meth:`process` has not handed out: those this closed, or with a tracking worker
        every stroke of the video (empty, with ``tracking_error`` set, where the worker failed)."""
        if self._finished:
            return []
        self._finished = True
        self._searcher.close()
        close = getattr(self.other_view, "close", None)
        if close is not None:
            close()
        if self.tracking_worker is None:
            self.stage.view = self.view
            return self.stage.finish()
        try:
            if self._worker_view is not self.view:
                self.tracking_worker.view(self.view)
            self.stage, _ = self.tracking_worker.end()
        except TrackingWorkerError as exc:
            self.tracking_error = str(exc)
            return []
        return list(self.stage.strokes)

    def calibrate(self, frame: Frame) -> bool:
        """Look for the table in ``frame`` now and adopt it if found (whether it was): the view a
        long video's segments start from is found this way before they are read."""
        return self._try_calibrate(frame)

    def _ensure_view(self, frame: Frame) -> str | None:
        cfg = self.config
        if self.view is None and cfg.find_table_in_background:
            return self._find_in_background(frame)
        if self.view is None:
            if frame.index % cfg.calibrate_every_frames != 0 and self.views:
                return "no table found yet"
            if not self._search_if_changed(frame):
                return "no table found yet"
            return None
        if not cfg.check_view or self._shows(frame.image, self.view):
            self._end_off_view_run()
            return self._camera_moved(frame)
        self._off_view_run += 1
        if not self.fixed_view and self._off_view_run >= self._research_at:
            self._research_at = self._off_view_run + self._research_gap
            self._research_gap = min(2 * self._research_gap, cfg.recalibrate_max_gap_frames)
            if self._search_if_changed(frame):
                self._end_off_view_run()
                return None
        return "frame does not show the table"

    def _camera_moved(self, frame: Frame) -> str | None:
        """Why ``frame``, which shows the table, is not read: the picture moved from where the view
        was first used (``view_shift``). Moving, not yet for long: skipped. Moved and held: the
        view is moved with the picture, its turn and shift measured whole (:meth:`_follow_move`);
        where that cannot be measured, a view found in the frames is found again there (adopted
        where it moved; where it did not, the shift was not the camera's), and a calibration given
        waits for the next confirmed move, no longer fitting after ``follow_tries``
        (``CameraMoved``)."""
        if self.view_shift is None:
            return None
        verdict, shift = self.view_shift.check(frame.index, frame.image, self.view)
        if verdict is Verdict.STILL or shift is None:
            self._follow_failures = 0
            return None
        if verdict is Verdict.MOVING:
            return PICTURE_MOVING
        if self._follow_move(frame, shift):
            return None
        record = {"frame": frame.index, "picture_moved_px": _rounded(shift)}
        if not self.fixed_view:
            view = self._search_table(frame.image)
            moved_px = _corners_moved_px(self.view, view)
            moved = moved_px is not None and moved_px >= self.config.view_shift.refit_min_move_px
            self._settle_move(frame, {**record, "found": view is not None}, view if moved else None)
            return None
        self._follow_failures += 1
        if self._follow_failures < self.config.view_shift.follow_tries:
            return PICTURE_MOVING
        from snooker.calibration.view import CameraMoved

        raise CameraMoved(
            f"the picture moved {shift.dx_px:+.1f}, {shift.dy_px:+.1f} px (frame {frame.index}) "
            "from where the calibration puts the table, and the move could not be measured: the "
            "camera was knocked or re-framed; calibrate it again, or leave the calibration out to "
            "find the table in the frames"
        )

    def _follow_move(self, frame: Frame, shift: Shift) -> bool:
        """The view moved with the picture, its turn and shift measured whole from ``shift``
        (``ViewShift.motion``); recorded in ``views`` as ``followed``. False where the move could
        not be measured (or the view cannot be moved). A move measured is taken however small (not
        held to ``refit_min_move_px``, which is for a table found again): a knock of 1, 1 px, read
        as a move and measured 1.4 px at the corners, left the view standing and was read again
        every ``recheck_gap_frames``, its frames skipped each time."""
        motion = self.view_shift.motion(frame.image, shift)
        move_view = getattr(self.view, "moved_in_picture", None)
        corners = getattr(self.view, "corners_px", None)
        if motion is None or move_view is None or corners is None:
            return False
        self._follow_failures = 0
        moved_centre = motion.moved_by(np.mean(np.asarray(corners, dtype=float), axis=0))[0]
        record = {
            "frame": frame.index,
            "found": False,
            "picture_moved_px": _rounded(shift),
            "followed": {
                "moved_px": [round(float(v), 2) for v in moved_centre],
                "turn_deg": round(motion.turn_deg, 3),
                "correlation": round(motion.correlation, 3),
            },
        }
        self._settle_move(frame, record, move_view(motion.matrix))
        return True

    def _settle_move(self, frame: Frame, record: dict, view: object | None) -> None:
        """A confirmed move recorded in ``views``: ``view`` adopted (measured from ``frame`` on),
        or, None, the old view stands (the shift was not the camera's: no new look for a while)."""
        self.views.append({**record, "adopted": view is not None})
        if view is None:
            self.view_shift.unmoved(frame.index)
            return
        self.view = view
        self.view_shift.start(view, frame.image)

    def forget_view(self) -> None:
        """Look for the table afresh from the next frame (the camera's picture changed size, so the
        view found no longer maps it)."""
        self.view = None
        self._end_off_view_run()

    def _end_off_view_run(self) -> None:
        """The table is in view: the next run of other views is looked through afresh."""
        self._off_view_run = 0
        self._research_at = self.config.recalibrate_after_frames
        self._research_gap = self.config.calibrate_every_frames

    def _search_if_changed(self, frame: Frame) -> bool:
        """:meth:`_try_calibrate`, unless ``search_gate`` says the frame looks like the one the last
        search failed on (False then)."""
        return self.search_gate.worth_searching(frame.index, frame.image) and self._try_calibrate(frame)

    def _try_calibrate(self, frame: Frame) -> bool:
        expect = getattr(self.other_view, "expect", None)
        if expect is not None and self._other_view_running:
            # in a run of other views (not on a video's first frame, which mostly finds the table)
            expect(frame, self.config.other_view_looks_during_search)
        view = self._search_table(frame.image)
        self.views.append({"frame": frame.index, "found": view is not None})
        self.search_gate.searched(frame.index, frame.image, view is not None)
        if view is None:
            return False
        self.view = view
        return True

    def _search_table(self, image: np.ndarray) -> object | None:
        """The table ``image`` shows (None when none is found, or the view check rejects it)."""
        try:
            view = self.find_table(image)
        except (RuntimeError, ValueError):
            return None
        if self.config.check_view and not self._shows(image, view):
            return None
        return view

    def _find_in_background(self, frame: Frame) -> str | None:
        """No table yet, searched for on a worker thread (``find_table_in_background``): adopt the
        view a finished search found, then read this frame as usual; start a search on this frame
        when none runs (on the first frame, then every ``calibrate_every_frames`` frames that
        ``search_gate`` finds worth it)."""
        search = self._search
        if search is not None and search.done():
            self._search = None
            view = search.result()
            self.views.append({"frame": self._search_frame, "found": view is not None})
            self.search_gate.searched(self._search_frame, self._search_image, view is not None)
            if view is not None:
                self.view = view
                return self._ensure_view(frame)
        due = frame.index % self.config.calibrate_every_frames == 0 or not self.views
        if self._search is None and due and self.search_gate.worth_searching(frame.index, frame.image):
            self._search_image = frame.image.copy()
            self._search = self._searcher.submit(self._search_table, self._search_image)
            self._search_frame = frame.index
        return "no table found yet"

    def _shows(self, image: np.ndarray, view: object) -> bool:
        return bool(self.shows_table(image, view))

    # ------------------------------------------------------------------ output
    def all_pots(self) -> list[dict]:
        """Every pot seen, in strokes or outside them: ``{ball, id, pocket, frame, in_stroke}``."""
        return all_pots(self.strokes, self.segmenter.outside_events)

    def calibration_record(self) -> dict | None:
        if self.view is None:
            return None
        record: dict = {}
        corners = getattr(self.view, "corners_px", None)
        if corners is not None:
            record["corners_px"] = np.round(np.asarray(corners, dtype=float), 1).tolist()
        pockets = getattr(self.view, "pockets_px", None)
        if pockets is not None:
            record["pockets_px"] = {
                k: [round(float(v[0]), 1), round(float(v[1]), 1)] for k, v in pockets.items()
            }
        record["source"] = getattr(self.view, "source", "unknown")
        record["fit_error_px"] = float(getattr(self.view, "fit_error_px", 0.0))
        record["views"] = self.views
        return record

    def analysis(self, video: dict, rulings: list[dict] | None = None, error: str | None = None) -> dict:
        """The ``analysis.json`` document (CONTRACTS.md §3)."""
        return analysis_document(
            video,
            self.calibration_record(),
            self.frames,
            self.strokes,
            self.segmenter.outside_events,
            self.skipped,
            complete=error is None and self._finished,
            other_views=self.other_views,
            rulings=rulings,
            error=error,
            replays=self.replays,
        )


def analysis_document(
    video: dict,
    calibration: dict | None,
    frames: list[dict],
    strokes: list[StrokeEvents],
    outside_events: list[OutsideEvent],
    skipped: dict[str, int],
    complete: bool,
    rulings: list[dict] | None = None,
    error: str | None = None,
    other_views: list[dict] | None = None,
    replays: list[Replay] | None = None,
) -> dict:
    """The ``analysis.json`` document (CONTRACTS.md §3) from what a video's analysis found (one
    :class:`VideoAnalysis`, or the parts of a long video analysed in segments, stitched); beyond the
    contract's fields, ``other_views``: the cue ball in frames that did not show the table, and
    ``replays``: strokes shown again from the main camera, left out of ``strokes`` and ``pots``
    (``snooker.tracker.replays``), and with ``rulings`` (one per stroke), ``edge_fall_rulings``: the
    rulings on balls that fell into a pocket by themselves between strokes (``edge_fall`` lines of
    the frame log)."""
    doc = {
        "schema": ANALYSIS_SCHEMA,
        "video": video,
        "calibration": calibration,
        "frames": frames,
        "strokes": [s.to_analysis() for s in strokes],
        "pots": all_pots(strokes, outside_events),
        "outside_stroke_events": [e.to_dict() for e in outside_events],
        "skipped_frames": dict(skipped),
        "other_views": list(other_views or []),
        "replays": [r.to_dict() for r in replays or []],
        "complete": complete,
    }
    if rulings is not None:  # one per stroke (CONTRACTS.md §3); the edge falls' beside them
        doc["rulings"] = [r for r in rulings if r.get("type") != EDGE_FALL]
        doc["edge_fall_rulings"] = [r for r in rulings if r.get("type") == EDGE_FALL]
    if error is not None:
        doc["error"] = error
    return doc


def all_pots(strokes: list[StrokeEvents], outside_events: list[OutsideEvent]) -> list[dict]:
    """Every pot seen, in strokes or outside them: ``{ball, id, pocket, frame, in_stroke}``."""
    out = [
        {"ball": p.ball, "id": p.label, "pocket": p.pocket, "frame": p.frame, "in_stroke": True}
        for s in strokes
        for p in s.potted
    ]
    out += [
        {"ball": "white", "id": "white", "pocket": None, "frame": s.end_frame, "in_stroke": True}
        for s in strokes
        if s.cue_ball == "potted"
    ]
    out += [
        {
            "ball": e.label.split("-")[0],
            "id": e.label,
            "pocket": e.pocket,
            "frame": e.frame,
            "in_stroke": False,
        }
        for e in outside_events
        if e.kind == "potted"
    ]
    return sorted(out, key=lambda p: p["frame"])


def frame_log_lines(
    strokes: list[StrokeEvents],
    players: tuple[str, str] = ("Player A", "Player B"),
    join: JoinConfig | None = None,
    outside_events: list[OutsideEvent] | None = None,
) -> list[dict]:
    """A frame log (CONTRACTS.md §1): the match header (best of ``join.best_of`` frames), the table
    it joined where the first stroke is no break-off (``joining.table_line``; docs/FRAME_LOG.md),
    then one line per stroke, and a ``new_frame`` line before each break-off after a frame ended
    (``joining.stroke_lines``, the referee asked as the log is written). A ball of
    ``outside_events`` that fell from the edge of a pocket by itself (``OutsideEvent.edge_fall``)
    gets an ``edge_fall`` line between the strokes it fell between (``joining.EdgeFalls``), unless
    the referee refuses it (the ball is not on its table)."""
    join = join or JoinConfig()
    header = {
        "type": "match",
        "schema": LOG_SCHEMA,
        "players": list(players),
        "best_of": join.best_of,
        "breaker": 0,
    }
    joined = table_line(strokes[0], join) if strokes else None
    lines = [header, *([joined] if joined else [])]
    referee = Referee()
    for line in lines:
        referee.apply(line)
    falls, outside = EdgeFalls(), outside_events or []

    def edge_falls(before_frame: int | None) -> None:
        for event in falls.due(outside, before_frame):
            line = edge_fall_line(event)
            if "error" not in referee.apply(line):
                lines.append(line)

    for stroke in strokes:
        edge_falls(stroke.start_frame)
        for line in stroke_lines(referee.scoreboard()["status"], stroke, join):
            lines.append(line)
            referee.apply(line)
    edge_falls(None)
    return lines


def _rounded(shift: Shift) -> list[float]:
    """A shift as the ``views`` record gives it (frame px, one decimal)."""
    return [round(shift.dx_px, 1), round(shift.dy_px, 1)]


def _corners_moved_px(before: object, after: object | None) -> float | None:
    """How far (px, the largest of the four) the table's corners moved between two views; None where
    either has none."""
    a, b = getattr(before, "corners_px", None), getattr(after, "corners_px", None)
    if a is None or b is None:
        return None
    return float(np.max(np.linalg.norm(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), axis=1)))


def _default_find_table() -> Callable[[np.ndarray], object]:
    from snooker.calibration import find_table

    return find_table


class FrameCueBall:
    """An :class:`OtherViewCueBall` called with frames (its ``reset`` passed through).

    With ``look_ahead``, the frames to come are made known to it as they are read
    (:meth:`prepare`, on the reader's thread), and while it looks in one frame it looks in the
    next on a helper thread: what is looked for in a frame depends on the frame alone
    (``OtherViewCueBall.candidates``), so the sightings are the same, and a run of other views is
    looked through two frames at a time, on both cores. While a search for the table holds the
    frame loop, the helper looks in the frames after it (:meth:`expect`). Looks made for frames
    that turn out to show the table are thrown away. :meth:`close` stops the helper.
    """

    def __init__(self, config: OtherViewConfig, look_ahead: bool = False) -> None:
        self.follower = OtherViewCueBall(config)
        self._coming: _FramesComing | None = _FramesComing() if look_ahead else None
        self._helper = _HelperThread("other-view-ahead")
        self._pending: dict[int, tuple[np.ndarray, Future[list[BallCandidate] | None]]] = {}

    def prepare(self, frame: Frame) -> None:
        """``frame`` is coming (any thread)."""
        if self._coming is not None:
            self._coming.add(frame)

    def __call__(self, frame: Frame) -> CueBallSighting | None:
        found = self._looked_ahead(frame)
        if found is None:
            self._look_ahead_at(frame.index + 1)
        return self.follower(frame.image, frame.t, found)

    def expect(self, frame: Frame, frames: int) -> None:
        """``frame`` and the ``frames`` - 1 after it will likely be looked in (a search for the
        table is about to hold the loop, and most fail in other views): the helper looks in those
        already read, in order, meanwhile."""
        for index in range(frame.index, frame.index + frames):
            self._look_ahead_at(index)

    def reset(self) -> None:
        """The table is back in view: the sighting is forgotten, and so are the looks made ahead
        (the frames they were made for show the table; their images are let go)."""
        self.follower.reset()
        self._drop_pending()

    def close(self) -> None:
        """Stop the helper thread (a look it is making is finished first)."""
        self._drop_pending()
        self._helper.close()

    def _drop_pending(self) -> None:
        for _, future in self._pending.values():
            future.cancel()
        self._pending.clear()

    def _looked_ahead(self, frame: Frame) -> list[BallCandidate] | None:
        """``frame``'s candidates if the helper was asked for them (waiting for them); looks
        asked for frames before it are dropped (those frames showed the table)."""
        for index in [index for index in self._pending if index < frame.index]:
            self._pending.pop(index)[1].cancel()
        pending = self._pending.pop(frame.index, None)
        if pending is None or pending[0] is not frame.image:
            return None
        return pending[1].result()

    def _look_ahead_at(self, index: int) -> None:
        """Ask the helper for the candidates of frame ``index``, if it has been read."""
        if self._coming is None or self.follower.scorer is None or index in self._pending:
            return  # unscored, what is looked for depends on the last sighting
        image = self._coming.image(index)
        if image is None:
            return
        self._pending[index] = (image, self._helper.submit(self.follower.candidates, image))


class _HelperThread:
    """One worker thread for a frame loop's work done beside it, started with the first task
    (``name``: its thread's name); :meth:`close` stops it (a task running is finished first, those
    not started are dropped), and a later task starts it afresh."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool: ThreadPoolExecutor | None = None

    def submit(self, task: Callable[..., T], *args: object) -> Future[T]:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
        return self._pool.submit(task, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class _FramesComing:
    """The images of the frames read but not yet let go of, by frame index (weakly held: a frame
    the loop is done with is not kept alive; thread-safe: added on the reader's thread)."""

    def __init__(self) -> None:
        self._images: dict[int, weakref.ref[np.ndarray]] = {}
        self._lock = threading.Lock()

    def add(self, frame: Frame) -> None:
        with self._lock:
            for index in [index for index, image in self._images.items() if image() is None]:
                del self._images[index]
            self._images[frame.index] = weakref.ref(frame.image)

    def image(self, index: int) -> np.ndarray | None:
        with self._lock:
            held = self._images.get(index)
        return None if held is None else held()


def _default_other_view(config: AnalysisConfig) -> FrameCueBall | None:
    if not config.other_view.enabled:
        return None
    return FrameCueBall(config.other_view, look_ahead=config.other_view_look_ahead)


def frame_thumbnails(config: AnalysisConfig) -> FrameThumbnails | None:
    """Where the fast path's thumbnails of each frame can be made ahead (None when it is off)."""
    fast = config.fast_path
    if not (fast.detection.enabled or fast.view_check.enabled):
        return None
    return FrameThumbnails(fast.view_check.thumbnail_scale)


def fast_detector(
    detector: Detector, config: AnalysisConfig, thumbnails: FrameThumbnails | None = None
) -> Detector:
    """``detector`` as the frame loop runs it: behind the fast path's motion gate where enabled and
    the detector allows it (see ``snooker.vision.gating.gate_detector``)."""
    return gate_detector(detector, config.fast_path.detection, thumbnails)


def default_view_check(
    config: AnalysisConfig, thumbnails: FrameThumbnails | None = None
) -> Callable[[np.ndarray, object], bool]:
    """The calibration package's ``shows_table`` (its pixels computed once per view), behind the
    fast path's gate where enabled."""
    from snooker.calibration import TableViewCheck

    check = TableViewCheck()
    gate = config.fast_path.view_check
    return GatedViewCheck(check, gate, thumbnails) if gate.enabled else check
