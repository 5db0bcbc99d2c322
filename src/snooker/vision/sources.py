"""Frame sources: a camera, a video file, a network stream or a folder of images, as ``Frame``s.

Every source is a context manager and an iterable of :class:`snooker.vision.types.Frame`
(``index`` counts frames from the start of the source, ``t`` is seconds, ``image`` BGR uint8)::

    with open_source("clip.mp4") as frames:
        for frame in frames:
            ...

``open_source`` picks the kind from the spec: an integer (``"0"``) is a camera index, anything with
``://`` is a stream URL (RTSP/HTTP, read through ``cv2.VideoCapture``), a folder is a sequence of
images, any other path is a video file (or a single image).

Problems are named, never a traceback: a missing or unreadable file raises :class:`SourceError`
naming it; a video that ends early (truncated, broken mid-stroke) ends the iteration and is reported;
a camera or stream that drops out is reopened with exponential backoff, each attempt reported.
:class:`LiveFrames` reads any source on a thread into a bounded queue that drops the oldest frame
rather than fall behind, counting what it dropped; :func:`read_ahead` uses the same thread to decode
ahead of an offline consumer without dropping anything.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

import cv2
import numpy as np

from snooker.vision.types import Frame

LOG = logging.getLogger(__name__)

Reporter = Callable[[str], None]
"""Receives one human-readable line per thing worth saying (drop-outs, reconnects, early ends)."""


class SourceError(RuntimeError):
    """A source cannot be opened or read; the message names the source and the problem."""


@dataclass(frozen=True)
class SourceConfig:
    """Tunable behaviour of frame sources (units in the names).

    - ``reconnect_initial_delay_s``: wait before the first attempt to reopen a dropped stream.
    - ``reconnect_backoff_factor``: each failed attempt multiplies the wait by this.
    - ``reconnect_max_delay_s``: the wait never grows past this.
    - ``reconnect_max_attempts``: give up after this many failed attempts in a row (None: never).
    - ``open_retries_on_start``: a camera/stream that cannot be opened at all is tried this many
      extra times (with the same backoff) before :class:`SourceError`.
    - ``image_extensions``: file suffixes read from an image folder (lower case).
    - ``folder_fps``: nominal frame rate of an image folder, for ``Frame.t`` (frames per second).
    - ``fallback_fps``: frame rate assumed when a video reports none (frames per second).
    - ``stream_open_timeout_s`` / ``stream_read_timeout_s``: how long opening a network stream, and
      waiting for its next frame, may take before it counts as failed (s; OpenCV's FFmpeg backend
      waits 30 s by default, during which the command cannot be stopped).
    - ``decoder_threads``: threads the decoder of a video file uses (0: OpenCV's choice, one per
      core; cameras and streams keep OpenCV's). One decodes 720p at ~700 frames/s here, far ahead
      of any frame loop, with less CPU per frame than several (1.4 against 2.3 ms on two cores),
      which the frame loop, reading ahead on the other core, gets back.
    """

    reconnect_initial_delay_s: float = 0.5
    reconnect_backoff_factor: float = 2.0
    reconnect_max_delay_s: float = 8.0
    reconnect_max_attempts: int | None = None
    open_retries_on_start: int = 0
    image_extensions: tuple[str, ...] = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
    folder_fps: float = 25.0
    fallback_fps: float = 25.0
    stream_open_timeout_s: float = 5.0
    stream_read_timeout_s: float = 5.0
    decoder_threads: int = 1

    def __post_init__(self) -> None:
        if self.decoder_threads < 0:
            raise ValueError("decoder_threads must be >= 0 (0: OpenCV's choice)")
        if self.reconnect_initial_delay_s < 0 or self.reconnect_max_delay_s < 0:
            raise ValueError("reconnect delays must be >= 0 seconds")
        if self.reconnect_backoff_factor < 1:
            raise ValueError("reconnect_backoff_factor must be >= 1")
        if self.folder_fps <= 0 or self.fallback_fps <= 0:
            raise ValueError("frame rates must be > 0")
        if self.stream_open_timeout_s <= 0 or self.stream_read_timeout_s <= 0:
            raise ValueError("stream timeouts must be > 0 seconds")


@dataclass
class SourceStats:
    """What happened while reading: frames delivered, dropped (by a live queue), reconnects."""

    frames_read: int = 0
    frames_dropped: int = 0
    reconnects: int = 0
    skipped_files: list[str] = field(default_factory=list)
    ended_early: bool = False
    """The source ended before its end: a file truncated or corrupt, a camera or stream that
    dropped out and did not come back."""
    frames_undecodable: int = 0
    """Frames of a video file that could not be decoded (a corrupt stretch) and were skipped."""


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` the sources use (a seam for tests)."""

    def isOpened(self) -> bool: ...
    def read(self) -> tuple[bool, Any]: ...
    def get(self, prop: int) -> float: ...
    def set(self, prop: int, value: float) -> bool: ...
    def release(self) -> None: ...


CaptureFactory = Callable[[int | str], Capture]


def open_video(path: int | str, threads: int) -> Capture:
    """``path`` opened by OpenCV, its decoder using ``threads`` threads (0: OpenCV's choice)."""
    if threads == 0:
        return cv2.VideoCapture(path)
    return cv2.VideoCapture(path, cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, threads])


def _default_reporter(message: str) -> None:
    LOG.warning(message)


def _as_bgr(image: np.ndarray) -> np.ndarray:
    """OpenCV may hand back grey or BGRA images (folders, some cameras); frames are BGR uint8."""
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


class FrameSource:
    """Base class: a context manager yielding ``Frame``s once; subclasses implement ``_frames``."""

    name: str
    is_live: bool = False

    def __init__(self, name: str, config: SourceConfig | None = None, report: Reporter | None = None):
        self.name = name
        self.config = config or SourceConfig()
        self.report = report or _default_reporter
        self.stats = SourceStats()
        self._stop = threading.Event()

    @property
    def fps(self) -> float:
        """Nominal frames per second of the source."""
        return self.config.fallback_fps

    def open(self) -> None:
        """Acquire the underlying resource; raise :class:`SourceError` if that is impossible."""

    def close(self) -> None:
        """Release the underlying resource; safe to call twice."""
        self._stop.set()

    def stop(self) -> None:
        """Ask a running iteration (possibly on another thread) to end soon, e.g. while reconnecting."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        """Whether the source was asked to stop (or closed)."""
        return self._stop.is_set()

    def wait_unless_stopped(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True if the source was asked to stop meanwhile."""
        return self._stop.wait(seconds)

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        for frame in self._frames():
            self.stats.frames_read += 1
            yield frame

    def _frames(self) -> Iterator[Frame]:
        raise NotImplementedError


class VideoFileSource(FrameSource):
    """A video file decoded by OpenCV; ``t`` is the frame's position in the file (seconds).

    ``start_frame`` > 0 seeks there first (one part of a long video read by several processes):
    frames keep the file's own indices and times."""

    def __init__(
        self,
        path: str | Path,
        config: SourceConfig | None = None,
        report: Reporter | None = None,
        open_capture: CaptureFactory | None = None,
        start_frame: int = 0,
    ):
        super().__init__(str(path), config, report)
        if start_frame < 0:
            raise ValueError(f"start_frame must be >= 0, got {start_frame}")
        self.path = Path(path)
        self.start_frame = start_frame
        self._open_capture = open_capture or functools.partial(
            open_video, threads=self.config.decoder_threads
        )
        self._capture: Capture | None = None
        self._first: np.ndarray | None = None
        self._fps = self.config.fallback_fps
        self.frame_count = 0

    @property
    def fps(self) -> float:
        return self._fps

    def open(self) -> None:
        if not self.path.exists():
            raise SourceError(f"video file {self.path} does not exist")
        if not self.path.is_file():
            raise SourceError(f"video source {self.path} is not a file")
        capture = self._open_capture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open video file {self.path}: not a video OpenCV can decode")
        fps = capture.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 and np.isfinite(fps) else self.config.fallback_fps
        self.frame_count = max(0, int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0))
        if self.start_frame:
            capture.set(cv2.CAP_PROP_POS_FRAMES, float(self.start_frame))
        ok, first = capture.read()
        if not ok or first is None:
            capture.release()
            where = f" at frame {self.start_frame}" if self.start_frame else ""
            raise SourceError(f"cannot read video file {self.path}: no decodable frame{where}")
        self._capture = capture
        self._first = first

    def close(self) -> None:
        super().close()
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def _frames(self) -> Iterator[Frame]:
        if self._capture is None:
            self.open()
        capture = self._capture
        assert capture is not None
        image, index = self._first, self.start_frame
        while image is not None and not self._stop.is_set():
            yield Frame(index=index, t=index / self._fps, image=_as_bgr(image))
            index += 1
            image, skipped = self._next_decodable(capture, index)
            index += skipped
        if self.frame_count and index < self.frame_count and not self._stop.is_set():
            self.stats.ended_early = True
            self.report(
                f"video file {self.path} ended early: frames {index}-{self.frame_count - 1} of "
                f"{self.frame_count} not decodable (truncated or corrupt)"
            )

    def _next_decodable(self, capture: Capture, index: int) -> tuple[np.ndarray | None, int]:
        """The next frame that decodes, from frame ``index`` on, and how many frames before it
        could not be decoded; (None, 0) at the end. A corrupt stretch inside the file (a failed
        read each of its frames: the decoder still moves on) is skipped and reported; failed reads
        that run to the file's end are its end (truncated)."""
        skipped = 0
        ok, image = capture.read()
        while not ok and index + skipped + 1 < self.frame_count and not self._stop.is_set():
            skipped += 1
            ok, image = capture.read()
        if not ok:
            return None, 0
        if skipped:
            self.stats.frames_undecodable += skipped
            self.report(
                f"video file {self.path}: frames {index}-{index + skipped - 1} could not be decoded "
                "(corrupt); skipped"
            )
        return image, skipped


class CaptureSource(FrameSource):
    """A camera (integer index) or a network stream (RTSP/HTTP URL) read by ``cv2.VideoCapture``.

    When a read fails the capture is released and reopened after a wait that starts at
    ``reconnect_initial_delay_s`` and grows by ``reconnect_backoff_factor`` up to
    ``reconnect_max_delay_s``; every drop-out and reconnect is reported. ``t`` is seconds since the
    source was opened (wall clock, monotonic); ``index`` keeps counting across reconnects.
    """

    is_live = True

    def __init__(
        self,
        target: int | str,
        config: SourceConfig | None = None,
        report: Reporter | None = None,
        open_capture: CaptureFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        super().__init__(f"camera {target}" if isinstance(target, int) else str(target), config, report)
        self.target = target
        self._open_capture = open_capture or self._capture_with_timeouts
        self._capture: Capture | None = None
        self._clock = clock
        self._start = 0.0
        self._fps = self.config.fallback_fps

    @property
    def fps(self) -> float:
        return self._fps

    def _capture_with_timeouts(self, target: int | str) -> Capture:
        """``cv2.VideoCapture``; a network stream opened with ``stream_open_timeout_s`` and read with
        ``stream_read_timeout_s``."""
        if isinstance(target, int):
            return cv2.VideoCapture(target)
        timeouts = [
            cv2.CAP_PROP_OPEN_TIMEOUT_MSEC,
            int(1000 * self.config.stream_open_timeout_s),
            cv2.CAP_PROP_READ_TIMEOUT_MSEC,
            int(1000 * self.config.stream_read_timeout_s),
        ]
        return cv2.VideoCapture(target, cv2.CAP_ANY, timeouts)

    def _try_open(self) -> Capture | None:
        try:
            capture = self._open_capture(self.target)
        except cv2.error as exc:
            self.report(f"{self.name}: open failed: {exc}")
            return None
        if capture.isOpened():
            fps = capture.get(cv2.CAP_PROP_FPS)
            if fps and fps > 0 and np.isfinite(fps):
                self._fps = fps
            return capture
        capture.release()
        return None

    def _delays(self) -> Iterator[float]:
        delay = self.config.reconnect_initial_delay_s
        while True:
            yield delay
            delay = min(delay * self.config.reconnect_backoff_factor, self.config.reconnect_max_delay_s)

    def open(self) -> None:
        self._start = self._clock()
        self._capture = self._try_open()
        delays = self._delays()
        for attempt in range(self.config.open_retries_on_start):
            if self._capture is not None or self._stop.is_set():
                break
            delay = next(delays)
            self.report(f"{self.name}: cannot open, retry {attempt + 1} in {delay:.2f} s")
            self._stop.wait(delay)
            self._capture = self._try_open()
        if self._capture is None:
            raise SourceError(f"cannot open {self.name}: no such camera or the stream does not answer")

    def close(self) -> None:
        super().close()
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def _reconnect(self) -> Capture | None:
        """Reopen after a drop-out, with backoff; None when giving up or asked to stop."""
        limit = self.config.reconnect_max_attempts
        for attempt, delay in enumerate(self._delays(), start=1):
            if self._stop.is_set():
                return None
            if limit is not None and attempt > limit:
                self.report(f"{self.name}: giving up after {limit} reconnect attempts")
                return None
            self.report(f"{self.name}: reconnect attempt {attempt} in {delay:.2f} s")
            if self._stop.wait(delay):
                return None
            capture = self._try_open()
            if capture is not None:
                self.stats.reconnects += 1
                self.report(f"{self.name}: reconnected after {attempt} attempt(s)")
                return capture
        return None

    def _frames(self) -> Iterator[Frame]:
        if self._capture is None:
            self.open()
        index = 0
        while not self._stop.is_set():
            capture = self._capture
            if capture is None:
                return
            ok, image = capture.read()
            if ok and image is not None:
                yield Frame(index=index, t=self._clock() - self._start, image=_as_bgr(image))
                index += 1
                continue
            if self._stop.is_set():
                return
            self.report(f"{self.name}: stream dropped out after frame {index - 1}")
            capture.release()
            self._capture = self._reconnect()
            if self._capture is None and not self._stop.is_set():
                self.stats.ended_early = True  # gone for good: not an end anyone asked for


class ImageFolderSource(FrameSource):
    """Images in a folder, in name order, one frame each; ``t`` = index / ``folder_fps``.

    An unreadable image is skipped and reported (its name lands in ``stats.skipped_files``); a
    folder with no readable images raises :class:`SourceError`.
    """

    def __init__(
        self, folder: str | Path, config: SourceConfig | None = None, report: Reporter | None = None
    ):
        super().__init__(str(folder), config, report)
        self.folder = Path(folder)
        self.files: list[Path] = []

    @property
    def fps(self) -> float:
        return self.config.folder_fps

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"image folder {self.folder} does not exist")
        suffixes = self.config.image_extensions
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in suffixes)
        if not self.files:
            raise SourceError(f"image folder {self.folder} holds no images ({', '.join(suffixes)})")

    def _frames(self) -> Iterator[Frame]:
        if not self.files:
            self.open()
        delivered = 0
        for index, path in enumerate(self.files):
            if self._stop.is_set():
                return
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.stats.skipped_files.append(str(path))
                self.report(f"image {path} is unreadable (corrupt or not an image); skipped")
                continue
            delivered += 1
            yield Frame(index=index, t=index / self.config.folder_fps, image=_as_bgr(image))
        if not delivered:
            raise SourceError(f"image folder {self.folder}: none of its {len(self.files)} images is readable")


class SingleImageSource(FrameSource):
    """One still image as a one-frame source."""

    def __init__(self, path: str | Path, config: SourceConfig | None = None, report: Reporter | None = None):
        super().__init__(str(path), config, report)
        self.path = Path(path)

    def open(self) -> None:
        if not self.path.is_file():
            raise SourceError(f"image {self.path} does not exist")

    def _frames(self) -> Iterator[Frame]:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"image {self.path} is unreadable (corrupt or not an image)")
        yield Frame(index=0, t=0.0, image=_as_bgr(image))


def open_source(
    spec: str | int | Path,
    config: SourceConfig | None = None,
    report: Reporter | None = None,
    start_frame: int = 0,
) -> FrameSource:
    """The frame source a spec names: ``"0"`` camera, ``"rtsp://…"`` stream, folder, video or image.

    The source is returned unopened; use it as a context manager. Raises :class:`SourceError` for a
    path that does not exist (naming it), or for ``start_frame`` > 0 on a source other than a video
    file (only a file can be read from a given frame on).
    """
    config = config or SourceConfig()
    source = _source_for(spec, config, report, start_frame)
    if start_frame and not isinstance(source, VideoFileSource):
        raise SourceError(f"{source.name} is not a video file: it cannot be read from frame {start_frame}")
    return source


def _source_for(
    spec: str | int | Path, config: SourceConfig, report: Reporter | None, start_frame: int
) -> FrameSource:
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CaptureSource(int(spec), config, report)
    text = str(spec)
    if "://" in text:
        return CaptureSource(text, config, report)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path, config, report)
    if not path.exists():
        raise SourceError(f"source {text} is neither a camera index, a stream URL nor an existing path")
    if path.suffix.lower() in config.image_extensions:
        return SingleImageSource(path, config, report)
    return VideoFileSource(path, config, report, start_frame=start_frame)


def iter_frames(spec: str | int | Path, config: SourceConfig | None = None) -> Iterator[Frame]:
    """Every frame of a source, opened and closed around the iteration (a plain generator)."""
    with open_source(spec, config) as source:
        yield from source


@dataclass(frozen=True)
class LiveConfig:
    """Real-time reading (units in the names).

    - ``queue_size``: frames held between the reader thread and the consumer; when full the oldest
      is dropped, so the consumer is never more than this many frames behind.
    - ``pace_files``: play a file (or folder) source at its own frame rate, as a camera would
      deliver it, instead of as fast as it decodes.
    - ``get_timeout_s``: how long one wait for a frame lasts before the consumer checks for an end.
    - ``drop_when_full``: drop the oldest frame when the queue is full (live); False makes the reader
      wait for the consumer instead, so every frame is processed (replaying a file exactly).
    - ``close_timeout_s``: how long closing waits for the reader thread to finish its read.
    """

    queue_size: int = 2
    pace_files: bool = True
    get_timeout_s: float = 0.1
    drop_when_full: bool = True
    close_timeout_s: float = 5.0

    def __post_init__(self) -> None:
        if self.queue_size < 1:
            raise ValueError("queue_size must be >= 1")


class LiveFrames:
    """Reads a source on a thread into a bounded queue; iterating yields the freshest frames.

    When the consumer is slower than the source the oldest queued frame is dropped and counted in
    ``dropped`` (and in the source's ``stats.frames_dropped``), so latency stays bounded by
    ``queue_size`` frames. ``latency_s`` is how long the frame just yielded waited in the queue
    (seconds). Errors on the reader thread end the iteration and are re-raised to the consumer as
    :class:`SourceError`. ``prepare(frame)``, when given, runs on the reader thread for each frame
    before it is queued (work that needs the frame only, done on the core the decoder leaves idle);
    if it fails the frame is queued all the same and the failure reported once.
    """

    def __init__(
        self,
        source: FrameSource,
        config: LiveConfig | None = None,
        prepare: Callable[[Frame], None] | None = None,
    ):
        self.source = source
        self.config = config or LiveConfig()
        self.prepare = prepare
        self._prepare_failed = False
        self._queue: deque[tuple[float, Frame]] = deque()
        self._ready = threading.Condition()
        self._finished = False
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self.dropped = 0
        self.latency_s = 0.0

    def __enter__(self) -> Self:
        self.source.open()
        self._thread = threading.Thread(target=self._read, name=f"frames:{self.source.name}", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self.source.stop()
        with self._ready:
            # a reader waiting for room in a full queue sees the stop now, not after its wait
            self._ready.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=self.config.close_timeout_s)
            if self._thread.is_alive():
                # still blocked inside a read: releasing the capture under it could crash the decoder,
                # so leave it to the (daemon) thread and say so
                self.source.report(f"{self.source.name}: reader still blocked after stop; left to finish")
                return
        self.source.close()

    def _read(self) -> None:
        pace = self.config.pace_files and not self.source.is_live
        period = 1.0 / self.source.fps
        started = time.monotonic()
        try:
            for count, frame in enumerate(self.source):
                if pace:
                    wait = started + count * period - time.monotonic()
                    if wait > 0 and self.source.wait_unless_stopped(wait):
                        break
                self._prepare(frame)
                with self._ready:
                    if not self.config.drop_when_full:
                        while len(self._queue) >= self.config.queue_size and not self.source.stopped:
                            self._ready.wait(self.config.get_timeout_s)
                        if self.source.stopped:
                            break
                    if len(self._queue) >= self.config.queue_size:
                        self._queue.popleft()
                        self.dropped += 1
                        self.source.stats.frames_dropped += 1
                    self._queue.append((time.monotonic(), frame))
                    self._ready.notify_all()
        except SourceError as exc:
            self._error = exc
        except Exception as exc:  # a decoder error must end the stream, reported, not kill silently
            self._error = SourceError(f"{self.source.name}: reading failed: {exc}")
        finally:
            with self._ready:
                self._finished = True
                self._ready.notify_all()

    @property
    def waiting(self) -> int:
        """How many frames wait in the queue behind the one being processed (0: keeping up)."""
        with self._ready:
            return len(self._queue)

    def _prepare(self, frame: Frame) -> None:
        if self.prepare is None or self._prepare_failed:
            return
        try:
            self.prepare(frame)
        except Exception as exc:  # the consumer does the work itself: report it, once
            self._prepare_failed = True
            self.source.report(f"{self.source.name}: preparing frames failed ({type(exc).__name__}: {exc})")

    def __iter__(self) -> Iterator[Frame]:
        while True:
            with self._ready:
                while not self._queue and not self._finished:
                    self._ready.wait(self.config.get_timeout_s)
                if self._queue:
                    queued_at, frame = self._queue.popleft()
                    self.latency_s = time.monotonic() - queued_at
                    self._ready.notify_all()
                elif self._error is not None:
                    raise self._error
                else:
                    return
            yield frame


READ_AHEAD_FRAMES = 32
"""Frames decoded ahead of an offline analysis (~2.8 MB each at 1280 × 720). The frame loop's pace
swings: a still table takes ~0.3 ms a frame, a region search 3-5 ms, decoding ~1.1 on the other
core, so the reader banks frames while balls move and the loop spends them when nothing does.
Eight ahead left the loop waiting 0.17-0.20 ms a frame on the Task2 clips, 32 0.04-0.07 (the loop
3-4 % faster, seven pairs of runs; docs/PERFORMANCE.md, "Twenty-first session")."""


def read_ahead(
    source: FrameSource, frames: int = READ_AHEAD_FRAMES, prepare: Callable[[Frame], None] | None = None
) -> LiveFrames:
    """``source`` decoded on its own thread up to ``frames`` frames ahead of the consumer, every
    frame delivered in order (offline analysis: decoding, and ``prepare`` if given, overlap the
    processing of earlier frames on another core). Entering it opens the source; leaving it closes
    the source."""
    config = LiveConfig(queue_size=frames, pace_files=False, drop_when_full=False)
    return LiveFrames(source, config, prepare)
