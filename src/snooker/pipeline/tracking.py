"""The frame loop's tracking stage: detections → tracker → strokes → frame records.

:class:`TrackingStage` is what :class:`snooker.pipeline.analyze.VideoAnalysis` does with a frame's
detections. It depends on nothing the detector keeps, so a batch analysis can run it in a worker
process of its own (:class:`TrackingWorker`) on the second core, beside the search for balls in
the next frame, instead of after it on the same core: the tracker is Python and numpy and holds
the interpreter's lock, so a thread would not run beside the search. The stage gets the same
detections in the same order either way, and gives the same records and strokes.
"""

from __future__ import annotations

import contextlib
import copy
import os
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from snooker.balls import CUE_BALL
from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import BallTracker, StrokeConfig, StrokeEvents, StrokeSegmenter, TrackerConfig
from snooker.tracker.replays import Replay, ReplayConfig, ReplayFilter, Verdict
from snooker.tracker.types import TableState, TrackStatus
from snooker.vision.types import BallDetections

WORKER_COMMAND = (
    "import sys; from snooker.pipeline.tracking import serve_pipes; "
    "serve_pipes(int(sys.argv[1]), int(sys.argv[2]))"
)
"""What the worker process runs: a fresh interpreter (forking a process whose reader thread runs
would copy locks other threads hold; ``multiprocessing``'s own fresh start imports the caller's
main script again, which a script without a ``__main__`` guard does not survive)."""


WORKER_START_WAIT_S = 60.0
"""How long a benchmark waits for the worker to start (a fresh interpreter takes ~0.5 s)."""
WORKER_STOP_WAIT_S = 5.0
"""How long :meth:`TrackingWorker.close` waits for the worker to stop before killing it."""
WORKER_EXIT_WAIT_S = 1.0
"""How long a broken pipe waits for the worker's exit code, to name it in the error."""
PUSH_BATCH_FRAMES = 16
"""Frames whose detections the frame loop sends the worker together, in one message: one pickle
and one write to the pipe for all of them (a message each cost the loop ~80 µs a frame, 25 µs
batched); within a batch a frame at rest, whose detections are the last frame's object, is pickled
as a reference to it."""


class TrackingWorkerError(RuntimeError):
    """The tracking worker failed or stopped: its message says how."""


@dataclass
class TrackingTimes:
    """Seconds the stage spent, summed over frames (wall clock of the process it ran in)."""

    frames: int = 0
    seconds: float = 0.0
    worker_cpu_s: float | None = None
    """CPU seconds of the worker process from the video's start to its end, receiving the frames
    included (None: tracked in the frame loop's own process, whose CPU is counted there)."""


class TrackingStage:
    """Feeds each frame's detections to the tracker and the stroke segmenter and keeps a record
    of every frame tracked.

    ``view`` is the calibrated table view the detections were placed with (table mm ↔ image px;
    replaced by the frame loop when the table is found again): frame records place balls held
    unseen with it, and a stroke's place error is measured in it. ``place_centre_error_px``: see
    ``AnalysisConfig.place_centre_error_px``.
    """

    def __init__(
        self,
        tracker: TrackerConfig,
        strokes: StrokeConfig,
        place_centre_error_px: float,
        replays: ReplayConfig | None = None,
    ) -> None:
        self.tracker = BallTracker(tracker)
        self.segmenter = StrokeSegmenter(strokes)
        self.replay_filter = ReplayFilter(replays)
        """Tells a replay of a stroke from the main camera from play (``snooker.tracker.replays``)."""
        self._saved: tuple[BallTracker, StrokeSegmenter] | None = None
        """The tracker and segmenter as they were when the table came back after the last cut."""
        self.place_centre_error_px = place_centre_error_px
        self.view: object | None = None
        self.frames: list[dict] = []
        """One record per frame tracked (CONTRACTS.md §3 ``frames``)."""
        self.strokes: list[StrokeEvents] = []
        self.times = TrackingTimes()
        self._last_held: tuple[object | None, bytes, np.ndarray, list[float | None] | None] | None = None
        """The last frame's held balls: (view, their places' bytes, image places, radii or None)."""

    def push(self, index: int, t: float, detections: BallDetections) -> tuple[TableState, list[StrokeEvents]]:
        """Track one frame (``index`` of the source, ``t`` s): its table state and the strokes it ended."""
        started = time.perf_counter()
        looked = self.replay_filter.observe(
            index, t, lambda: _detected_places(detections), self.segmenter.running_positions_before
        )
        self._follow_verdict(looked)
        state = self.tracker.update(index, t, detections)
        ended = self.segmenter.push(state)
        self._forget_vanished(ended)
        judged = self.replay_filter.verdict(state, ended, self.segmenter.running_positions_before)
        strokes = [self.with_place_error(s) for s in [*looked.strokes, *self._follow_verdict(judged)]]
        self.strokes.extend(strokes)
        self.frames.append(self._frame_record(state))
        self.times.frames += 1
        self.times.seconds += time.perf_counter() - started
        return state, strokes

    def finish(self) -> list[StrokeEvents]:
        """End of the video: settle pending pots and close a running stroke (as truncated)."""
        verdict = self.replay_filter.finish(self.segmenter.finish(self.tracker.finish()))
        if verdict.restore:
            self._follow_verdict(verdict)
            verdict = self.replay_filter.finish(self.segmenter.finish(self.tracker.finish()))
        strokes = [self.with_place_error(stroke) for stroke in verdict.strokes]
        self.strokes.extend(strokes)
        return strokes

    @property
    def replays(self) -> list[Replay]:
        """The replays whose strokes were dropped (``snooker.tracker.replays``)."""
        return self.replay_filter.replays

    def _follow_verdict(self, verdict: Verdict) -> list[StrokeEvents]:
        """Save or restore the tracker and segmenter as the replay filter says; its strokes."""
        if verdict.save:
            self._saved = copy.deepcopy((self.tracker, self.segmenter))
        if verdict.restore and self._saved is not None:
            self.tracker, self.segmenter = self._saved
            self._saved = None
        return verdict.strokes

    def with_place_error(self, stroke: StrokeEvents) -> StrokeEvents:
        """``stroke`` with the errors of a place as a whole added to how far the cue ball's place
        before it may be off (``position_tolerance_mm``, what the referee allows a cue ball played
        from hand beyond the D): the view's fit error (RMS px) and ``place_centre_error_px``, in
        the millimetres a pixel spans at that place along its longer axis. The tracker's tolerance
        covers the centre's errors relative to other balls; the whole table may be off by more (on
        the Bucharest broadcasts the baulk line reads 16.5 mm, ~2 px, beyond its place; a rendered
        broadcast's cue ball on the line 16 mm: 1 px from the centre, 0.8 from the calibration)."""
        cue = stroke.positions_before.get(CUE_BALL)
        if self.view is None or cue is None or stroke.position_tolerance_mm is None:
            return stroke
        error_px = float(getattr(self.view, "fit_error_px", 0.0) or 0.0) + self.place_centre_error_px
        extra = error_px * mm_per_px(self.view, cue)
        return replace(stroke, position_tolerance_mm=stroke.position_tolerance_mm + extra)

    def _forget_vanished(self, strokes: list[StrokeEvents]) -> None:
        """The tracker lets go of the balls the strokes found gone unseen (inferred pots, off the table)."""
        for stroke in strokes:
            for pot in stroke.potted:
                if pot.inferred:
                    self.tracker.forget(pot.label)
            for label in stroke.off_table:
                self.tracker.forget(label)

    def _frame_record(self, state: TableState) -> dict:
        balls = []
        held = [b for b in state.balls if b.status != TrackStatus.VISIBLE]
        held_px, held_r = self._held_places([b.xy_mm for b in held], any(b.radius_px is None for b in held))
        held_index = {b.label: k for k, b in enumerate(held)}
        for b in state.balls:
            if b.status == TrackStatus.VISIBLE and b.xy_px is not None:
                x_px, y_px, r_px = b.xy_px[0], b.xy_px[1], b.radius_px
            else:
                k = held_index[b.label]
                x_px, y_px = held_px[k]
                r_px = b.radius_px if b.radius_px is not None else held_r[k]
            balls.append(
                {
                    "id": b.track_id,
                    "ball": b.ball,
                    "label": b.label,
                    "x_px": round(float(x_px), 1),
                    "y_px": round(float(y_px), 1),
                    "r_px": round(float(r_px), 1) if r_px is not None else None,
                    "x_mm": round(b.xy_mm[0], 1),
                    "y_mm": round(b.xy_mm[1], 1),
                    "visible": b.status == TrackStatus.VISIBLE,
                    "moving": b.moving,
                }
            )
        record = {"i": state.frame, "t": round(state.t, 4), "balls": balls}
        if state.events:
            record["events"] = [
                {"kind": e.kind, "ball": e.label, "frame": e.frame, "pocket": e.pocket} for e in state.events
            ]
        return record

    def _held_places(
        self, xy_mm: list[tuple[float, float]], radii_needed: bool
    ) -> tuple[np.ndarray, list[float | None]]:
        """The image places of balls held unseen at ``xy_mm`` (table mm) in the view, and, where
        ``radii_needed`` (a held ball without a radius of its own), their radii (else None each). The
        frame before's answer where the view and the places are the very same (a ball hidden at
        rest is held in one place for many frames): the same input arrays, the same answer, without
        projecting them again."""
        key = np.array(xy_mm, dtype=float).tobytes()
        last = self._last_held
        same = last is not None and last[0] is self.view and last[1] == key
        if last is not None and same and (last[3] is not None or not radii_needed):
            places, radii = last[2], last[3]
        else:
            places, radii = self._project(xy_mm), self._radius(xy_mm) if radii_needed else None
            self._last_held = (self.view, key, places, radii)
        return places, [None] * len(xy_mm) if radii is None else radii

    def _project(self, xy_mm: list[tuple[float, float]]) -> np.ndarray:
        if not xy_mm:
            return np.zeros((0, 2))
        radius = self.tracker.table.ball_radius_mm
        return np.asarray(self.view.table_to_image(np.array(xy_mm), radius))  # type: ignore[attr-defined]

    def _radius(self, xy_mm: list[tuple[float, float]]) -> list[float | None]:
        if not xy_mm or not hasattr(self.view, "ball_radius_px"):
            return [None] * len(xy_mm)
        return [float(r) for r in np.atleast_1d(self.view.ball_radius_px(np.array(xy_mm)))]  # type: ignore[attr-defined]


def _detected_places(detections: BallDetections) -> dict[str, np.ndarray]:
    """The places (table mm, (n, 2)) of the balls detected, by ball name; those without one left out."""
    places = np.asarray(detections.xy_mm, dtype=float)
    named = np.asarray(detections.ball)
    usable = np.isfinite(places).all(axis=1)
    return {str(name): places[usable & (named == name)] for name in set(named[usable].tolist())}


def mm_per_px(view: object, xy_mm: tuple[float, float]) -> float:
    """The most millimetres one image pixel spans at the ball centre ``xy_mm`` (table mm) in
    ``view``: along the table, far from a broadcast camera, several times what it spans across."""
    centre = view.table_to_image(np.array([xy_mm], dtype=float), height_mm=STANDARD_TABLE.ball_radius_mm)[0]  # type: ignore[attr-defined]
    shifted = view.image_to_table(centre + np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]))  # type: ignore[attr-defined]
    return float(max(np.linalg.norm(shifted[0] - shifted[2]), np.linalg.norm(shifted[1] - shifted[2])))


class TrackingWorker:
    """A process that runs one :class:`TrackingStage` at a time for the frame loop.

    Start it once (``with TrackingWorker() as worker``) and hand it to each video's
    ``VideoAnalysis(..., tracking_worker=worker)``: a video's stage is sent when its analysis
    starts (:meth:`begin`), its frames' detections as they are found (:meth:`push`, sent
    :data:`PUSH_BATCH_FRAMES` at a time; a full pipe makes the frame loop wait, so the worker is
    never more than a pipe's worth and a batch behind), and the stage with everything it recorded
    comes back at :meth:`end`. An error in the stage, or the
    process stopping, is raised there as :class:`TrackingWorkerError` naming what happened.
    """

    def __init__(self) -> None:
        to_worker, worker_reads = _pipe()
        worker_writes, from_worker = _pipe()
        # the worker imports what this process can: its module search path as it is now
        path = os.pathsep.join(p for p in sys.path if p)
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", WORKER_COMMAND, str(worker_reads), str(worker_writes)],
                pass_fds=(worker_reads, worker_writes),
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
            )
        finally:
            os.close(worker_reads)
            os.close(worker_writes)
        self._to_worker = Connection(to_worker, readable=False)
        self._from_worker = Connection(from_worker, writable=False)
        self._busy = False
        self._started = False
        self._batch: list[tuple[Any, ...]] = []

    def wait_started(self, timeout_s: float = WORKER_START_WAIT_S) -> None:
        """Wait until the worker process is up (a fresh interpreter takes ~0.5 s): a benchmark
        calls this before it measures, so that the start does not slow what it measures."""
        if self._started:
            return
        if not self._from_worker.poll(timeout_s):
            raise TrackingWorkerError(f"the tracking worker did not start within {timeout_s:g} s")
        if self._receive_any()[0] != "started":
            raise TrackingWorkerError("the tracking worker answered before it said it had started")
        self._started = True

    @property
    def running(self) -> bool:
        """Whether the worker process is still there."""
        return self._process.poll() is None

    def begin(self, stage: TrackingStage) -> None:
        """Start tracking a video with ``stage`` (fresh: nothing pushed to it yet)."""
        if self._busy:
            raise TrackingWorkerError("the tracking worker is already tracking a video")
        self._flush()
        self._send(("begin", stage))
        self._busy = True

    def view(self, view: object | None) -> None:
        """The view the next frames' detections were placed with."""
        self._batch.append(("view", view))

    def push(self, index: int, t: float, detections: BallDetections) -> None:
        """One frame's detections (``index`` of the source, ``t`` s); sent with the next ones, up to
        :data:`PUSH_BATCH_FRAMES` frames, or at :meth:`end`."""
        self._batch.append(("frame", index, t, detections))
        if len(self._batch) >= PUSH_BATCH_FRAMES:
            self._flush()

    def end(self) -> tuple[TrackingStage, list[StrokeEvents]]:
        """Finish the video: the stage as it ended, and the strokes its finish closed."""
        if not self._busy:
            raise TrackingWorkerError("the tracking worker is tracking no video")
        self._busy = False
        self._flush()
        self._send(("end",))
        reply = self._receive()
        if reply[0] == "error":
            raise TrackingWorkerError(f"tracking failed in the worker process:\n{reply[1]}")
        return reply[1], reply[2]

    def close(self) -> None:
        """Stop the worker process."""
        if self._process.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self._to_worker.send(("stop",))
            try:
                self._process.wait(timeout=WORKER_STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._to_worker.close()
        self._from_worker.close()

    def __enter__(self) -> TrackingWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _flush(self) -> None:
        """Send the messages held back (in one ``batch`` message)."""
        if self._batch:
            batch, self._batch = self._batch, []
            self._send(("batch", batch))

    def _send(self, message: tuple[Any, ...]) -> None:
        try:
            self._to_worker.send(message)
        except (BrokenPipeError, OSError) as exc:
            raise TrackingWorkerError(self._stopped_message()) from exc

    def _receive(self) -> tuple[Any, ...]:
        """The worker's next reply other than its start's."""
        reply = self._receive_any()
        if reply[0] == "started":
            self._started = True
            reply = self._receive_any()
        return reply

    def _receive_any(self) -> tuple[Any, ...]:
        try:
            return self._from_worker.recv()
        except (EOFError, OSError) as exc:
            raise TrackingWorkerError(self._stopped_message()) from exc

    def _stopped_message(self) -> str:
        try:
            code = self._process.wait(timeout=WORKER_EXIT_WAIT_S)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            return "the tracking worker process does not answer"
        return f"the tracking worker process stopped (exit code {code})"


def _pipe() -> tuple[int, int]:
    """A pipe's (write end, read end): neither is inherited by a child process unless passed to it."""
    read_end, write_end = os.pipe()
    return write_end, read_end


def serve_pipes(read_fd: int, write_fd: int) -> None:
    """The worker process's loop (:data:`WORKER_COMMAND`) over the pipe ends it was passed: one
    stage at a time, until told to stop or its parent goes (its pipe closes).

    An error in a stage is kept until that video's ``end`` (the frame loop does not wait on
    replies frame by frame); the frames pushed after it are not tracked.
    """
    # Ctrl-C at a terminal, and SIGTERM sent by `timeout` or a service manager, reach the whole
    # process group: the frame loop decides what to do with them (write what was read, asking this
    # worker for the tracks), so the worker must not die of them first. It ends when its pipe closes.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    requests = Connection(read_fd, writable=False)
    conn = Connection(write_fd, readable=False)
    server = _StageServer(conn)
    conn.send(("started",))
    while True:
        try:
            message = requests.recv()
        except (EOFError, OSError):
            return
        if message[0] == "stop":
            return
        for part in message[1] if message[0] == "batch" else (message,):
            server.handle(part)


class _StageServer:
    """What the worker process does with each message of the frame loop's (see :func:`serve_pipes`)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.stage: TrackingStage | None = None
        self.failure: str | None = None
        self.cpu_started = 0.0
        """The worker's CPU clock (s) when the video being tracked began."""

    def handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "begin":
            self.stage, self.failure = message[1], None
            self.cpu_started = time.process_time()
            return
        stage = self.stage
        if self.failure is not None or stage is None:
            if kind == "end":
                self.conn.send(("error", self.failure or "no video was begun"))
                self.stage, self.failure = None, None
            return
        try:
            if kind == "frame":
                stage.push(message[1], message[2], message[3])
            elif kind == "view":
                stage.view = message[1]
            elif kind == "end":
                closed = stage.finish()
                stage.times.worker_cpu_s = time.process_time() - self.cpu_started
                self.conn.send(("done", stage, closed))
                self.stage = None
        except Exception:  # handed to the frame loop with its traceback at the video's end
            self.failure = traceback.format_exc()
            if kind == "end":
                self.conn.send(("error", self.failure))
                self.stage, self.failure = None, None
