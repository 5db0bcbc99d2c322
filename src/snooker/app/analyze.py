"""``snooker-referee analyze VIDEO... --out DIR``: track videos, write analysis.json and a frame log.

Writes ``DIR/analysis.json`` and ``DIR/frame_log.jsonl`` (CONTRACTS.md §3), with ``--annotate``
also ``DIR/annotated.mp4``; with ``--referee`` the strokes are ruled on and the rulings included.
A video that cannot be opened, in which no table is ever found, or whose frames are not the size
the ``--calibration`` was made for, is a clear error (exit 1); whatever was processed before a
failure is still written. An output folder that cannot be made is refused before any reading.
A video of a match's several frames: ``--best-of N`` makes the frame log's match line best of N,
and a break-off after a frame ended starts the next frame there (``joining.starts_next_frame``).

Several videos (a folder of broadcast clips, a day's matches) are each written to their own
``DIR/<video name>/``; ``--jobs N`` analyses N of them at once, each in its own process, so the
machine's cores all work (one video's frame loop keeps one core busy). One video that fails does
not stop the others; the exit status is 1 if any failed.

One long video with ``--jobs N`` is read from N evenly spaced starts at once, each in its own
process; each part reads on until the next one can take over at a quiet frame between strokes
where both hold the same balls (``snooker.pipeline.segments``; ``SegmentConfig`` says how long a
video must be to be split). Where that never happens the earlier part reads to the end, as one
process would. With ``--annotate`` the video is analysed in one piece (one annotated video is
written in order).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from snooker.app.allocator import keep_frame_arrays
from snooker.app.inputs import InputError, load_view_and_detector, output_folder
from snooker.pipeline.analyze import VideoAnalysis, frame_log_lines
from snooker.pipeline.joining import (
    BALL_ON_CHOICES,
    EDGE_FALL,
    STARTS,
    EdgeFalls,
    JoinConfig,
    edge_fall_line,
    stroke_lines,
    table_line,
)
from snooker.pipeline.segments import (
    Handover,
    HandoverFiles,
    Segment,
    SegmentConfig,
    SegmentResult,
    chain_segments,
    plan_segments,
    skip_runs,
)
from snooker.pipeline.tracking import TrackingWorker, TrackingWorkerError
from snooker.tracker import StrokeEvents
from snooker.tracker.strokes import OutsideEvent
from snooker.vision.sources import SourceStats

if TYPE_CHECKING:
    from snooker.vision.types import Frame


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "videos",
        nargs="+",
        metavar="video",
        help="video file (or any source snooker.vision.sources can open); several are written to "
        "OUT/<video name>/ each",
    )
    parser.add_argument("--out", required=True, type=Path, help="output folder")
    parser.add_argument("--calibration", type=Path, help="calibration file (default: find the table)")
    parser.add_argument("--detector", default="classic", choices=("classic", "yolo"), help="ball detector")
    parser.add_argument("--referee", action="store_true", help="rule on the strokes and include the rulings")
    parser.add_argument(
        "--start",
        choices=STARTS,
        default=JoinConfig.start,
        help="where the video begins: auto (a break-off, if the first stroke looks like one, else a "
        "frame in play), frame (a frame's break-off), mid (a frame in play) (default auto)",
    )
    parser.add_argument(
        "--ball-on",
        choices=BALL_ON_CHOICES,
        default=JoinConfig.ball_on,
        help="joining a frame in play: what is on at the first stroke (default either: not known; "
        "the referee gives the striker the benefit of the doubt)",
    )
    parser.add_argument(
        "--best-of",
        type=int,
        default=JoinConfig.best_of,
        help="frames in the match the video shows (the frame log's match line); over 1, a break-off "
        "after a frame ended starts the next frame (default 1)",
    )
    parser.add_argument("--annotate", action="store_true", help="also write DIR/annotated.mp4")
    parser.add_argument("--max-frames", type=int, help="stop after this many frames (of each video)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes: several videos are analysed that many at once; one long video is read from "
        "that many starts at once, each part handing over to the next at a quiet frame (default 1)",
    )


@dataclass(frozen=True)
class AnalyzeOptions:
    """What to do with each video (the command's options; sent to worker processes)."""

    calibration: Path | None = None
    detector: str = "classic"
    referee: bool = False
    annotate: bool = False
    max_frames: int | None = None
    progress: bool = True
    """Show a per-frame progress bar (off in a batch: the batch shows videos done)."""
    segments: SegmentConfig = field(default_factory=SegmentConfig)
    """When one video is split into segments for several processes, and how they are stitched."""
    join: JoinConfig = field(default_factory=JoinConfig)
    """Whether the video opens a frame or joins one in play (the frame log's ``table`` line)."""
    tracking_worker: bool = True
    """Track in a worker process beside the frame loop, on the other core (the same results;
    see ``snooker.pipeline.tracking``). Not with ``annotate`` (each frame is drawn with its
    tracked balls as it is read), nor where several videos already share the cores (``--jobs``)."""

    @property
    def tracks_in_worker(self) -> bool:
        """Whether a video is tracked in a worker process (``tracking_worker``, not ``annotate``)."""
        return self.tracking_worker and not self.annotate


def run(args: argparse.Namespace) -> int:
    keep_frame_arrays()
    if args.jobs < 1:
        return _fail(f"--jobs must be at least 1 (got {args.jobs})")
    if args.max_frames is not None and args.max_frames < 1:
        return _fail(f"--max-frames must be at least 1 (got {args.max_frames})")
    try:
        join = JoinConfig(start=args.start, ball_on=args.ball_on, best_of=args.best_of)
    except ValueError as exc:
        return _fail(str(exc))
    options = AnalyzeOptions(
        args.calibration, args.detector, args.referee, args.annotate, args.max_frames, join=join
    )
    videos = [str(v) for v in args.videos]
    on_main_thread = threading.current_thread() is threading.main_thread()  # signals are set there only
    previous = signal.signal(signal.SIGTERM, _interrupted) if on_main_thread else None
    try:
        if len(videos) == 1:
            return analyze_long_video(videos[0], args.out, options, args.jobs)
        return analyze_videos(videos, args.out, options, args.jobs)
    finally:
        if on_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _interrupted(signum: int, frame: object) -> None:
    """SIGTERM (a service manager, ``timeout``) ends the analysis as Ctrl-C does: what was read is
    written, not lost."""
    raise KeyboardInterrupt


INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
"""Ctrl-C and SIGTERM: both stop an analysis, and both reach every process of the group."""


@contextmanager
def _interruptible() -> Iterator[threading.Event]:
    """Inside, the first Ctrl-C or SIGTERM raises KeyboardInterrupt (the frame loop stops, what was
    read is written); later ones are ignored until the block ends, so that a second one, or the
    command passing the first on to its workers, cannot break off that writing. Main thread only
    (signals are handled there). Yields an event set once an interrupt came: one raised inside a
    compiled kernel may surface as a SystemError that does not carry it."""
    received = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def once(signum: int, frame: object) -> None:
        for each in INTERRUPTS:
            signal.signal(each, _let_pass)
        received.set()
        raise KeyboardInterrupt

    previous = {signum: signal.signal(signum, once) for signum in INTERRUPTS}
    try:
        yield received
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _let_pass(signum: int, frame: object) -> None:
    """An interrupt let pass. A handler that does nothing, not SIG_IGN: a signal already on its way
    when the handler changes would meet SIG_IGN as an OSError ("ignored due to race condition")."""


def _ignore_interrupts() -> None:
    """A worker process lets Ctrl-C and SIGTERM pass between its tasks (a task is
    :func:`_interruptible`): an idle worker killed by them would lose the task it was about to be
    given, and print a traceback."""
    for signum in INTERRUPTS:
        signal.signal(signum, _let_pass)


def _interrupt_workers() -> None:
    """Pass an interrupt on to this process's worker processes (SIGTERM; a worker in a task stops
    and returns what it read): a signal sent to the command alone, not its group, stops them too."""
    for worker in multiprocessing.active_children():
        worker.terminate()


def _is_interrupt(exc: SystemError) -> bool:
    """Whether ``exc`` is an interrupt: one raised inside a compiled kernel surfaces as a
    SystemError caused by the KeyboardInterrupt, or by another such SystemError (a kernel called
    from a kernel)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _segment_worker_start() -> None:
    """A segment's worker keeps its frame-sized arrays as the command does, and is stopped by the
    command (:func:`_ignore_interrupts`)."""
    keep_frame_arrays()
    _ignore_interrupts()


def batch_outputs(videos: list[str], out: Path) -> list[Path]:
    """Each video's output folder: ``out/<file name without extension>``, numbered from the second
    video of the same name on (``clip``, ``clip-2``, …)."""
    seen: dict[str, int] = {}
    folders = []
    for video in videos:
        name = Path(video).stem or "video"
        seen[name] = seen.get(name, 0) + 1
        folders.append(out / (name if seen[name] == 1 else f"{name}-{seen[name]}"))
    return folders


def analyze_videos(videos: list[str], out: Path, options: AnalyzeOptions, jobs: int) -> int:
    """Analyse ``videos`` into :func:`batch_outputs` folders, ``jobs`` at a time (worker processes,
    started fresh: no state of this one is shared); 1 if any video failed, else 0."""
    options = replace(options, progress=False, tracking_worker=options.tracking_worker and jobs == 1)
    folders = batch_outputs(videos, out)
    failed: list[str] = []
    bar = tqdm(total=len(videos), unit="video", desc="analyze", file=sys.stderr)
    try:
        if jobs == 1:
            _one_at_a_time(videos, folders, options, failed, bar)
        else:
            if not _in_workers(videos, folders, options, jobs, failed, bar):
                return _fail(
                    "interrupted (the videos under way wrote what they had read; the rest were not begun)"
                )
    except KeyboardInterrupt:
        return _fail("interrupted (the videos under way wrote what they had read; the rest were not begun)")
    finally:
        bar.close()
    if failed:
        return _fail(f"{len(failed)} of {len(videos)} videos failed: {', '.join(failed)}")
    return 0


def _in_workers(
    videos: list[str], folders: list[Path], options: AnalyzeOptions, jobs: int, failed: list[str], bar: tqdm
) -> bool:
    """The videos analysed ``jobs`` at a time in worker processes; False if interrupted (the videos
    not begun are dropped; those under way are stopped and write what they read)."""
    context = multiprocessing.get_context("spawn")
    with _interruptible():
        pool = ProcessPoolExecutor(
            min(jobs, len(videos)), mp_context=context, initializer=_batch_worker_start
        )
        try:
            running: dict[Future[int], str] = {
                pool.submit(analyze_video, video, folder, options): video
                for video, folder in zip(videos, folders, strict=True)
            }
            for future in as_completed(running):
                if _worker_status(future, running[future]) != 0:
                    failed.append(running[future])
                bar.update(1)
        except KeyboardInterrupt:
            _interrupt_workers()
            return False
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return True


def _one_at_a_time(
    videos: list[str], folders: list[Path], options: AnalyzeOptions, failed: list[str], bar: tqdm
) -> None:
    """The videos analysed one after another, all tracked in one worker process (started once;
    started again where one stopped)."""
    worker: TrackingWorker | None = None
    try:
        for video, folder in zip(videos, folders, strict=True):
            if options.tracks_in_worker and (worker is None or not worker.running):
                if worker is not None:
                    worker.close()
                worker = TrackingWorker()
            if analyze_video(video, folder, options, worker) != 0:
                failed.append(video)
            bar.update(1)
    finally:
        if worker is not None:
            worker.close()


def _batch_worker_start() -> None:
    """A batch worker runs OpenCV's filters on its own thread only: the workers already keep the
    cores busy, and OpenCV's thread pool on top of them costs more than it gives on the small
    windows the frame loop mostly filters (docs/PERFORMANCE.md, "Sixth pass"); keeps its
    frame-sized arrays as the command does (``snooker.app.allocator``); and is stopped by the
    command (:func:`_ignore_interrupts`)."""
    import cv2

    cv2.setNumThreads(1)
    keep_frame_arrays()
    _ignore_interrupts()


def _worker_status(future: Future[int], video: str) -> int:
    """A worker's exit status; a worker that died (or raised) counts as a failure, said with its video."""
    try:
        return future.result()
    except Exception as exc:  # a crashed worker must not lose the other videos' results
        print(f"snooker-referee analyze: error: {video}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def analyze_long_video(video: str, out: Path, options: AnalyzeOptions, jobs: int) -> int:
    """Analyse one video into ``out`` on ``jobs`` processes: in segments where it is long enough
    (see ``SegmentConfig``), else in one piece."""
    if jobs < 2:
        return analyze_video(video, out, options)
    if options.annotate:
        _note(f"--annotate: {video} is analysed in one process (the annotated video is written in order)")
        return analyze_video(video, out, options)
    count = _frame_count(video)
    if count is not None and options.max_frames is not None:
        count = min(count, options.max_frames)
    segments = plan_segments(count, jobs, options.segments)
    if not segments:
        least = 2 * options.segments.min_segment_frames
        length = "of unknown length" if not count else f"{count} frames long (fewer than {least})"
        _note(f"{video} is {length}: analysed in one process")
        return analyze_video(video, out, options)
    if options.max_frames is not None:
        segments = [Segment(s.start, count) for s in segments]
    return analyze_segments(video, out, options, segments)


def analyze_segments(video: str, out: Path, options: AnalyzeOptions, segments: list[Segment]) -> int:
    """Analyse ``segments`` of ``video`` at once, one worker process each, each reading on until
    the next takes over (see ``snooker.pipeline.segments``), and write the one analysis they make
    together (rulings from the joined strokes, in order)."""
    try:
        output_folder(out)
    except InputError as exc:
        return _fail(str(exc))
    options = replace(options, progress=False)
    _note(f"{video}: {len(segments)} segments in {len(segments)} processes")
    view = _starting_view(video, options)
    context = multiprocessing.get_context("spawn")
    interrupted = False
    running: list[Future[SegmentResult]] = []
    with tempfile.TemporaryDirectory(prefix="snooker-segments-") as handover_dir:
        quiet = [Path(handover_dir) / f"quiet-{k}.jsonl" for k in range(len(segments))]
        with _interruptible():
            pool = ProcessPoolExecutor(len(segments), mp_context=context, initializer=_segment_worker_start)
            try:
                for k, segment in enumerate(segments):
                    last = k + 1 == len(segments)
                    links = HandoverFiles(
                        publish=quiet[k] if k else None,
                        follow=None if last else quiet[k + 1],
                        follow_start=None if last else segments[k + 1].start,
                    )
                    running.append(
                        pool.submit(analyze_segment, video, segment.start, segment.stop, options, view, links)
                    )
                with tqdm(total=len(segments), unit="segment", desc="analyze", file=sys.stderr) as bar:
                    for _ in as_completed(running):
                        bar.update(1)
            except KeyboardInterrupt:
                interrupted = True
                _interrupt_workers()
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
    results = [
        _segment_status(future, segment)
        for future, segment in zip(running, segments, strict=True)
        if not future.cancelled()
    ]
    stitched = chain_segments(results, options.segments)
    joined = len(stitched.parts)
    if joined < len(results) and stitched.error is None:
        _note(
            f"{video}: no quiet frame where the analysis from frame {stitched.parts[-1].start} could hand "
            f"over to the next one (strokes back to back, or a replay): it read on to the end"
        )
    referee, referee_error = _referee(options.join) if options.referee else (None, None)
    rulings: list[dict] | None = [] if referee is not None else None
    _rule(referee, stitched.strokes, rulings, options.join, stitched.outside_events, EdgeFalls(), final=True)
    doc = stitched.document(video, rulings)
    error = doc.get("error") or ("interrupted" if interrupted else None)
    if error is None and doc["calibration"] is None:
        error = f"no snooker table found in {video} ({doc['video']['frames']} frames read)"
    if error is not None:
        doc["error"], doc["complete"] = error, False
    return _conclude(out, doc, stitched.strokes, error, referee_error, options.join, stitched.outside_events)


def _segment_status(future: Future[SegmentResult], segment: Segment) -> SegmentResult:
    """A worker's result; one that died (or raised) is a failed segment that read nothing."""
    try:
        return future.result()
    except Exception as exc:  # a crashed worker must not lose the other segments' results
        return SegmentResult(segment.start, segment.stop, error=f"{type(exc).__name__}: {exc}")


def analyze_segment(
    video: str,
    start: int,
    stop: int | None,
    options: AnalyzeOptions,
    starting_view: object | None = None,
    links: HandoverFiles | None = None,
) -> SegmentResult:
    """Analyse ``video`` from frame ``start`` (a worker process's part of a long video) until the
    next segment takes over (``links``; see ``snooker.pipeline.segments.Handover``), or to ``stop``
    (None: the end), from ``starting_view`` where given (the view the video's beginning shows, as
    one process reading the whole video would have it; replaced after a cut away as usual)."""
    from snooker.calibration import CalibrationDoesNotFit
    from snooker.vision.sources import SourceError, open_source, read_ahead

    result = SegmentResult(start, stop)
    try:
        view, detector = load_view_and_detector(options.calibration, options.detector)
    except InputError as exc:
        result.error = str(exc)
        return result
    if view is None and starting_view is not None:
        analysis = VideoAnalysis(detector, view=starting_view, fixed_view=False)
    else:
        analysis = VideoAnalysis(detector, view=view)
    links = links or HandoverFiles()
    if links.publish is not None and options.segments.later_niceness and hasattr(os, "nice"):
        os.nice(options.segments.later_niceness)  # a later part only uses what the first leaves
    handover = Handover(options.segments, start, links)
    with _interruptible() as interrupted:
        source = None
        try:
            source = open_source(video, report=_note, start_frame=start)
            checked: tuple[int, ...] | None = None  # the frame size the calibration was found to fit
            with read_ahead(source, prepare=analysis.prepare) as frames:
                result.fps = source.fps
                for frame in frames:
                    if stop is not None and frame.index >= stop:
                        break
                    result.read += 1
                    result.height, result.width = frame.image.shape[:2]
                    if view is not None and frame.image.shape != checked:
                        checked = _check_size(view, frame, first=result.read == 1)
                    outcome = analysis.process(frame)
                    if outcome.skipped is not None:
                        skip_runs(result.skips, frame.index, outcome.skipped)
                        continue
                    result.handed_over_at = handover.push(analysis.frames[-1], analysis.segmenter.in_stroke)
                    if result.handed_over_at is not None:
                        break
                if result.handed_over_at is None and getattr(source.stats, "ended_early", False):
                    result.error = _ended_early(video, result.end, source.stats)
        except SourceError as exc:
            result.error = str(exc)
        except CalibrationDoesNotFit as exc:
            result.error = f"calibration {options.calibration} does not fit {video}: {exc}"
        except KeyboardInterrupt:
            result.error = "interrupted"
        except SystemError as exc:
            if not (interrupted.is_set() or _is_interrupt(exc)):
                raise
            result.error = "interrupted"
        finally:
            handover.close()
            analysis.finish()
            if source is not None:
                result.gaps = [gap.to_record() for gap in source.stats.gaps]
    result.finished = True
    result.frames, result.strokes = analysis.frames, analysis.strokes
    result.other_views = analysis.other_views
    result.outside_events = list(analysis.segmenter.outside_events)
    result.replays = list(analysis.replays)
    calibration = analysis.calibration_record()
    result.views = analysis.views
    if calibration is not None:
        calibration.pop("views")
        result.calibration = calibration
    return result


def _check_size(view: object, frame: Frame, first: bool) -> tuple[int, ...]:
    """The size of ``frame``, which a calibration given must fit: checked on the first frame and on
    every frame of another size than the one before, as ``live`` does (``LiveTable._new_frame_size``):
    a folder of stills from two cameras, a stream that changed mode. ImageSizeMismatch where it does
    not, naming the frame where the size changed."""
    from snooker.calibration import ImageSizeMismatch, check_image_size

    try:
        check_image_size(view, frame.image.shape)
    except ImageSizeMismatch as exc:
        if first:
            raise
        raise ImageSizeMismatch(f"from frame {frame.index} on, {exc}") from None
    return frame.image.shape


def _starting_view(video: str, options: AnalyzeOptions) -> object | None:
    """The table the video's beginning is read with, as one process reading the whole video
    finds it (the first frame showing it, tried every ``calibrate_every_frames``): every segment
    starts from it, so their balls are placed alike. None with ``--calibration`` (every segment
    loads it) or where the first ``starting_view_search_frames`` show no table (each segment
    finds its own)."""
    from snooker.vision.sources import SourceError, open_source

    if options.calibration is not None:
        return None
    try:
        _, detector = load_view_and_detector(None, options.detector)
        analysis = VideoAnalysis(detector)
        every = analysis.config.calibrate_every_frames
        with open_source(video) as source:
            for frame in source:
                if frame.index >= options.segments.starting_view_search_frames:
                    return None
                if frame.index % every == 0 and analysis.calibrate(frame):
                    return analysis.view
    except (InputError, SourceError):
        return None  # the segments say what is wrong
    return None


def _frame_count(video: str) -> int | None:
    """How many frames a video file has (None for a camera, a stream, a folder, or where unknown)."""
    from snooker.vision.sources import SourceError, VideoFileSource, open_source

    try:
        source = open_source(video)
        if not isinstance(source, VideoFileSource):
            return None
        with source:
            return source.frame_count or None
    except SourceError:
        return None


def analyze_video(
    video: str, out: Path, options: AnalyzeOptions, tracking_worker: TrackingWorker | None = None
) -> int:
    """Analyse one video into ``out``: the command for one video (its exit status). Where
    ``options`` say so, tracked in ``tracking_worker`` (left running), or in a worker process of
    its own when none is given."""
    from snooker.calibration import CalibrationDoesNotFit
    from snooker.vision.sources import SourceError, open_source, read_ahead

    try:
        output_folder(out)
        view, detector = load_view_and_detector(options.calibration, options.detector)
    except InputError as exc:
        return _fail(str(exc))
    own_worker = options.tracks_in_worker and tracking_worker is None
    worker = (TrackingWorker() if own_worker else tracking_worker) if options.tracks_in_worker else None
    analysis = VideoAnalysis(detector, view=view, tracking_worker=worker)
    referee, referee_error = _referee(options.join) if options.referee else (None, None)
    rulings: list[dict] | None = [] if referee is not None else None
    falls = EdgeFalls()
    record = {
        "path": video,
        "fps": None,
        "frames": 0,
        "width": None,
        "height": None,
        **SourceStats().to_record(),
    }
    error = None
    annotator = None
    source = None
    with _interruptible() as interrupted:
        try:
            source = open_source(video, report=_note)
            checked: tuple[int, ...] | None = None  # the frame size the calibration was found to fit
            shape: tuple[int, ...] | None = None  # the size of the frames before
            with read_ahead(source, prepare=analysis.prepare) as frames:
                record["fps"] = source.fps
                total = getattr(source, "frame_count", None) or None
                with tqdm(
                    total=total, unit="frame", desc="analyze", file=sys.stderr, disable=not options.progress
                ) as bar:
                    for frame in frames:
                        if options.max_frames is not None and record["frames"] >= options.max_frames:
                            break
                        record["frames"] += 1
                        record["height"], record["width"] = frame.image.shape[:2]
                        if view is not None and frame.image.shape != checked:
                            checked = _check_size(view, frame, first=record["frames"] == 1)
                        elif view is None and frame.image.shape != shape and shape is not None:
                            _resized(video, frame, shape, analysis)
                        shape = frame.image.shape
                        outcome = analysis.process(frame)
                        if options.annotate:
                            annotator = annotator or _annotator(out, source.fps, frame.image.shape)
                        outside = analysis.outside_events
                        for ruling in _rule(referee, outcome.strokes, rulings, options.join, outside, falls):
                            if annotator is not None:
                                annotator.say(_call(ruling), frame.index)
                        if annotator is not None:
                            seen = analysis.frames[-1] if outcome.state is not None else None
                            annotator.write(outcome, seen)
                        bar.update(1)
                if getattr(source.stats, "ended_early", False):
                    error = (
                        f"{source.name} dropped out and did not come back, after {record['frames']} frames"
                        if source.is_live
                        else _ended_early(video, record["frames"], source.stats)
                    )
        except SourceError as exc:
            error = str(exc)
        except CalibrationDoesNotFit as exc:
            error = f"calibration {options.calibration} does not fit {video}: {exc}"
        except OSError as exc:  # the annotated video cannot be written: the analysis still is
            error = str(exc)
        except TrackingWorkerError as exc:  # the worker stopped: what it tracked is lost with it
            error = str(exc)
        except KeyboardInterrupt:
            error = "interrupted"
        except SystemError as exc:
            error = "interrupted" if interrupted.is_set() or _is_interrupt(exc) else _failed(record, exc)
        except Exception as exc:  # a fault on one frame must not lose the frames read before it
            error = _failed(record, exc)
        finally:
            finished = analysis.finish()  # with a tracking worker, its segmenter comes back with it
            _rule(
                referee, finished, rulings, options.join, analysis.segmenter.outside_events, falls, final=True
            )
            if annotator is not None:
                annotator.close()
            if own_worker and worker is not None:
                worker.close()
    error = error or analysis.tracking_error
    if error is None and analysis.view is None:
        error = f"no snooker table found in {video} ({record['frames']} frames read)"
    if source is not None:
        record.update(source.stats.to_record())
        _say_gaps(video, source.stats)
    doc = analysis.analysis(record, rulings, error)
    return _conclude(
        out, doc, analysis.strokes, error, referee_error, options.join, analysis.segmenter.outside_events
    )


def _ended_early(video: str, frames: int, stats: SourceStats) -> str:
    """What an analysis of a video file that ended early says: where, and what was not read."""
    why = stats.ended_early_why or "truncated or corrupt"
    return f"the video {video} ended early, after {frames} frames read: {why}"


def _say_gaps(video: str, stats: SourceStats) -> None:
    """Say, once the video is read, how many frames it lacked (each gap was said as it came; all
    are in analysis.json's ``video.gaps``)."""
    if not stats.gaps:
        return
    said = [
        f"{count} {what}"
        for count, what in (
            (stats.frames_missing, "frames missing at the source"),
            (stats.frames_undecodable, "frames not decoded"),
        )
        if count
    ]
    _note(
        f"{video}: {' and '.join(said) or 'no frame missing'} in {len(stats.gaps)} gap(s) (video.gaps in "
        "analysis.json); the times of the frames after each are the video's own"
    )


def _resized(video: str, frame: Frame, before: tuple[int, ...], analysis: VideoAnalysis) -> None:
    """The picture changed size (a folder of stills from two cameras, a stream that changed mode)
    with no calibration given: said, and the table looked for afresh at the new size, as ``live``
    does (``LiveTable._new_frame_size``)."""
    height, width = frame.image.shape[:2]
    _note(
        f"{video}: the picture changed size at frame {frame.index} ({before[1]}x{before[0]} → "
        f"{width}x{height}): looking for the table again"
    )
    analysis.forget_view()


def _failed(record: dict, exc: Exception) -> str:
    """What an analysis that failed unexpectedly on a frame says (the fault's type and first line;
    the frames before it are written as after any other failure, as ``live`` goes on past such a
    frame: ``LiveTable._process``)."""
    said = str(exc).strip().splitlines()
    return (
        f"the analysis failed on frame {record['frames'] - 1} ({type(exc).__name__}"
        + (f": {said[0]}" if said else "")
        + "); the frames before it are written"
    )


def _conclude(
    out: Path,
    doc: dict,
    strokes: list[StrokeEvents],
    error: str | None,
    referee_error: str | None,
    join: JoinConfig,
    outside_events: list[OutsideEvent] | None = None,
) -> int:
    """Write the analysis and its frame log (whatever was read, even after a failure; an
    ``edge_fall`` line for each ball of ``outside_events`` that fell from a pocket's edge by
    itself), say what was found, and give the command's exit status. ``joined``: the table the log
    joined, or null where it opens a frame."""
    if referee_error is not None:
        doc["referee_error"] = referee_error
    if error is not None and not doc["frames"] and not strokes and (out / "analysis.json").exists():
        # a run that failed having tracked nothing must not replace what an earlier run recorded
        _note(f"nothing was analysed; the analysis already in {out} is kept")
        return _fail(error)
    lines = frame_log_lines(strokes, join=join, outside_events=outside_events)
    doc["joined"] = next((line for line in lines if line["type"] == "table"), None)
    try:
        _write(out, doc, lines)
    except AnalysisNotWritten as exc:
        return _fail(str(exc))
    print(f"{len(doc['strokes'])} strokes, {len(doc['pots'])} pots → {out / 'analysis.json'}")
    if error is not None:
        return _fail(error)
    if referee_error is not None:
        return _fail(referee_error)
    return 0


def _annotator(out: Path, fps: float, shape: tuple[int, ...]):
    from snooker.pipeline.annotate import VideoAnnotator

    return VideoAnnotator(out / "annotated.mp4", fps, (shape[1], shape[0]))


def _referee(join: JoinConfig) -> tuple[object | None, str | None]:
    """A referee that has read the frame log's header line (or why there is none)."""
    try:
        from snooker.referee import Referee
    except ImportError as exc:
        return None, f"the referee is not available: {exc}"
    referee = Referee()
    referee.apply(frame_log_lines([], join=join)[0])
    return referee, None


def _rule(
    referee,
    strokes: list[StrokeEvents],
    rulings: list[dict] | None,
    join: JoinConfig,
    outside_events: list[OutsideEvent] | None = None,
    falls: EdgeFalls | None = None,
    final: bool = False,
) -> list[dict]:
    """Rule on finished strokes, appending to ``rulings`` (one per stroke, and one per ball that
    fell from a pocket's edge by itself between strokes: an ``edge_fall`` of ``outside_events``,
    ruled before the first stroke after it, each once by ``falls``; ``final``: the video ended,
    those after the last stroke too); returns the new rulings. Before the first stroke the referee
    is told the table it joined, where that stroke is no break-off (``joining.table_line``). An
    edge fall the referee refuses (the ball is not on its table) is left out, as in the log."""
    if referee is None or rulings is None:
        return []
    falls = falls or EdgeFalls()
    outside = outside_events or []
    ruled_strokes = any(not isinstance(r, dict) or r.get("type") != EDGE_FALL for r in rulings)
    joined = table_line(strokes[0], join) if strokes and not ruled_strokes else None
    if joined is not None and "error" in (answer := referee.apply(joined)):
        _note(f"the referee refused the table the video joined ({answer['error']}); ruling as a new frame")
    new = []

    def edge_falls(before_frame: int | None) -> None:
        for event in falls.due(outside, before_frame):
            ruling = referee.apply(edge_fall_line(event))
            if "error" not in ruling:
                new.append(ruling)

    for stroke in strokes:
        edge_falls(stroke.start_frame)
        # as frame_log_lines writes them: the stroke's line last, after a new_frame where it starts one
        rulings_of_lines = [
            referee.apply(line) for line in stroke_lines(referee.scoreboard()["status"], stroke, join)
        ]
        new.append(rulings_of_lines[-1])
    if final:
        edge_falls(None)
    rulings.extend(new)
    return new


def _call(ruling: dict) -> str:
    said = ", ".join(ruling.get("announcements", [])) or ("foul" if ruling.get("foul") else "fair")
    score = ruling.get("score")
    return f"referee: {said}" + (f"  score {score[0]}-{score[1]}" if score else "")


class AnalysisNotWritten(OSError):
    """The analysis could not be written (a full disk, a folder made read-only); says which file,
    why, and which were written."""


def _write(out: Path, doc: dict, log_lines: list[dict]) -> None:
    """The frame log, then the analysis, each written whole to a temporary file that then replaces
    it: a failure (a full disk) leaves each as it was before or as written, never half written, and
    no temporary file behind. The frame log first: the smaller, and the one the referee reads again
    (``replay``), so a disk with room for it alone still keeps the strokes."""
    written: list[str] = []
    for name, text in (
        ("frame_log.jsonl", "".join(json.dumps(line) + "\n" for line in log_lines)),
        ("analysis.json", json.dumps(doc)),
    ):
        tmp = out / f"{name}.tmp"
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(out / name)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            kept = f"; {', '.join(written)} written" if written else ""
            raise AnalysisNotWritten(f"cannot write {out / name}: {exc.strerror or exc}{kept}") from exc
        written.append(name)


def _note(message: str) -> None:
    print(f"snooker-referee analyze: {message}", file=sys.stderr)


def _fail(message: str) -> int:
    print(f"snooker-referee analyze: error: {message}", file=sys.stderr)
    return 1
