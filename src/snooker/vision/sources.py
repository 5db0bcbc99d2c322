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
What a source did not deliver is counted and said, never papered over: a video file's ``t`` is
its own timestamp, so frames missing at the source (a camera or encoder that dropped them, an
AVI's empty frame chunks, a variable frame rate's long frame) leave a jump in ``t`` rather than
shifting every later time, and each such gap, each undecodable stretch and each stall of a camera
or stream is a :class:`SourceGap` in ``stats.gaps`` (``stats.to_record()``: analysis.json's
``video`` fields).
:class:`LiveFrames` reads any source on a thread into a bounded queue that drops the oldest frame
rather than fall behind, counting what it dropped; :func:`read_ahead` uses the same thread to decode
ahead of an offline consumer without dropping anything.
"""

from __future__ import annotations

import functools
import logging
import statistics
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

from snooker.vision.bitstream import Size, SizeReader, parser_for
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
    gap_tolerance_frames: float = 0.5
    """A video file's frames are missing at the source where the step between the timestamps of
    two frames read in a row exceeds their frame distance by more than this many frame periods
    (frames). A file's timestamps are exact to its time base (well under a millisecond), so half
    a period tells one frame missing from rounding; the missing count is the excess in periods,
    rounded. Also how far (frame periods) the last frame may end before the file's length (its
    frame count over its frame rate) without the file having ended early."""
    frame_period_window: int = 31
    """How many of the last steps between timestamps (per frame) a video file's frame period is
    the median of (frames). A file of variable frame rate reports its mean rate, which a gap
    lowers: the steps themselves give the period of the frames around a gap."""
    timestamp_rounding_s: float = 0.001
    """A video file's frame keeps the time of its place on the nominal frame grid (frames read
    plus frames missing before it, over the frame rate) where its timestamp lies within this of
    it (s): container time bases round a frame's time by far less, so a file without gaps gives
    exactly ``index / fps``; elsewhere (a variable frame rate, a gap read from a later start) the
    timestamp itself."""
    stall_s: float = 0.5
    """A camera or stream that delivers no frame for this long and then goes on (by itself or after
    a reconnect) stalled: the wait is reported and counted as a gap, with the frames its frame rate
    would have delivered meanwhile (s). Network jitter delivers frames in bursts well within this."""
    size_header_bytes: int = 512
    """How far into a video file's key frame packet its sequence header (the picture size it is
    coded at) is looked for (bytes): headers lead the packet, before the picture's data."""
    gaps_reported: int = 20
    """Gaps said one by one through the reporter; later ones are still counted in ``stats`` (a file
    of variable frame rate can have many short ones), and the first one over says so."""

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
        if self.gap_tolerance_frames <= 0 or self.frame_period_window < 1:
            raise ValueError("gap_tolerance_frames must be > 0 and frame_period_window >= 1")
        if self.size_header_bytes < 4:
            raise ValueError("size_header_bytes must be >= 4")
        if self.timestamp_rounding_s < 0 or self.stall_s <= 0 or self.gaps_reported < 0:
            raise ValueError("timestamp_rounding_s must be >= 0, stall_s > 0, gaps_reported >= 0")


MISSING_AT_SOURCE = "missing at the source"
"""Why frames of a video file are not there: its timestamps jump over them."""
NOT_DECODABLE = "not decodable"
"""Why frames of a video file (or images of a folder) are not there: they could not be decoded."""
STALLED = "stalled"
"""Why a camera or stream delivered nothing for a while: it stalled and went on by itself."""
DROPPED_OUT = "dropped out"
"""Why a camera or stream delivered nothing for a while: it dropped out and was reopened."""
NOT_GIVEN = "not given by the decoder"
"""Why the last frames of a video file are not there though the file holds them: OpenCV numbers a
file's frames by their timestamps and stops at the file's frame count, so where the timestamps
jumped over frames never recorded (a variable frame rate) it stops as many frames early."""


UNDECODED = (NOT_DECODABLE, NOT_GIVEN)
"""Gaps whose frames are in the file but were not decoded (``SourceStats.frames_undecodable``)."""


@dataclass(frozen=True)
class SourceGap:
    """Frames a source did not deliver between two it did: after frame ``after_frame`` (at ``t``
    s) the next frame came at ``resumed_t`` s; ``missing_frames`` frames (at the source's frame
    rate) are not there, for ``why`` (:data:`MISSING_AT_SOURCE`, :data:`NOT_DECODABLE`,
    :data:`STALLED`, :data:`DROPPED_OUT`, :data:`NOT_GIVEN`). ``after_frame`` is -1 (``t`` 0)
    where the gap came before the first frame delivered; for frames :data:`NOT_GIVEN` at a file's
    end, ``resumed_t`` is the file's end (its length)."""

    after_frame: int
    t: float
    resumed_t: float
    missing_frames: int
    why: str

    def to_record(self) -> dict:
        """The gap as analysis.json's ``video.gaps`` lists it (times rounded as frames' ``t``)."""
        return {
            "after_frame": self.after_frame,
            "t": round(self.t, 4),
            "resumed_t": round(self.resumed_t, 4),
            "missing_frames": self.missing_frames,
            "why": self.why,
        }


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
    """Frames of a video file that could not be decoded (a corrupt stretch) and were skipped, or
    that the decoder did not give (:data:`NOT_GIVEN`)."""
    frames_missing: int = 0
    """Frames not in the source at all, by its timestamps (a video file) or by the time a camera
    or stream delivered nothing (its frame rate times the wait)."""
    gaps: list[SourceGap] = field(default_factory=list)
    """Where frames were missing or not decodable, in order."""
    ended_early_why: str | None = None
    """What ``ended_early`` means here: which frames, or how much of the file, were not read."""

    def to_record(self) -> dict:
        """What analysis.json's ``video`` says of the source beyond its size: frames missing at the
        source, frames not decodable, and each gap."""
        return {
            "frames_missing": self.frames_missing,
            "frames_undecodable": self.frames_undecodable,
            "gaps": [gap.to_record() for gap in self.gaps],
        }


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


def open_packet_reader(path: int | str) -> Capture:
    """``path`` opened by OpenCV to read its video packets undecoded (demuxing only, no decoding):
    each read gives a packet's bytes, ``CAP_PROP_LRF_HAS_KEY_FRAME`` whether it is a key frame."""
    return cv2.VideoCapture(path, cv2.CAP_FFMPEG, [cv2.CAP_PROP_FORMAT, -1])


def _fourcc(capture: Capture) -> str:
    """The codec's FOURCC as ``capture`` reports it ('' where none)."""
    code = int(capture.get(cv2.CAP_PROP_FOURCC) or 0)
    return code.to_bytes(4, "little").decode("latin-1") if code > 0 else ""


CODED_SIZE_PX = (16, 8192)
"""The least and the most width or height (px) a sequence header is believed (H.264's largest
levels code 8192 x 4320): beyond them the header is damaged, and the size before it is kept."""


class _CodedSizes:
    """The size each frame of a video file was coded at, read from the sequence headers of its
    key frames' packets (``snooker.vision.bitstream``) by a second reader that only demuxes, kept
    in step with the decoder (packet ``k`` is frame ``k``: a key frame is shown in the place it
    is decoded in). OpenCV scales every frame it decodes to the first one's size; this tells the
    size it really has. Stops reading (costing nothing more) at the first key frame without a
    sequence header (an MP4 whose headers are in its sample description: its frames keep one
    size) or at the end of the packets."""

    def __init__(self, packets: Capture, reader: SizeReader, header_bytes: int) -> None:
        self.packets: Capture | None = packets
        self.reader = reader
        self.header_bytes = header_bytes
        self.next = 0
        """The frame index of the next packet."""
        self.size: Size | None = None

    @classmethod
    def opened(
        cls, open_packets: CaptureFactory, path: Path, fourcc: str, header_bytes: int
    ) -> _CodedSizes | None:
        """The coded sizes of ``path``'s frames, its packets read from the start (a read from a
        later frame counts its way there: a seek among packets does not land where the decoder's
        does); None where its codec (``fourcc``) has no size reader or its packets cannot be read."""
        reader = parser_for(fourcc)
        if reader is None:
            return None
        packets = open_packets(str(path))
        if not packets.isOpened():
            packets.release()
            return None
        return cls(packets, reader, header_bytes)

    def at(self, index: int) -> Size | None:
        """The size frame ``index`` (counted in the file, as the decoder reads it) was coded at,
        the packets up to it read; None where unknown."""
        while self.packets is not None and self.next <= index:
            ok, packet = self.packets.read()
            if not ok or packet is None:
                self.close()
                break
            self.next += 1
            if not self.packets.get(cv2.CAP_PROP_LRF_HAS_KEY_FRAME):
                continue
            size = self.reader(packet.reshape(-1)[: self.header_bytes].tobytes())
            if size is not None and not all(CODED_SIZE_PX[0] <= side <= CODED_SIZE_PX[1] for side in size):
                size = None  # a damaged header: no picture is coded at that size
            if size is None and self.size is None:
                self.close()  # no sequence header in the packets: nothing to follow
                break
            self.size = size or self.size
        return self.size

    def close(self) -> None:
        if self.packets is not None:
            self.packets.release()
            self.packets = None


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

    def _gap(self, gap: SourceGap, said: str) -> None:
        """Count ``gap`` and say it (``said``), up to ``config.gaps_reported`` gaps."""
        self.stats.gaps.append(gap)
        if gap.why in UNDECODED:
            self.stats.frames_undecodable += gap.missing_frames
        else:
            self.stats.frames_missing += gap.missing_frames
        shown = self.config.gaps_reported
        if len(self.stats.gaps) <= shown:
            self.report(said)
        elif len(self.stats.gaps) == shown + 1:
            self.report(f"{self.name}: more than {shown} gaps; the rest are counted, not said")


class _Timeline:
    """A video file's frames placed in time from its own timestamps (:meth:`place`), the frames
    missing between them counted (see ``SourceConfig.gap_tolerance_frames``,
    ``frame_period_window``, ``timestamp_rounding_s``). Where the capture gives no usable
    timestamps (none, or not increasing), ``t`` goes on at the nominal frame rate."""

    def __init__(self, fps: float, config: SourceConfig) -> None:
        self.fps = fps
        self.config = config
        self.missing = 0
        """Frames missing so far: the nominal grid's place of the next frame moves on by them."""
        self.steps: deque[float] = deque(maxlen=config.frame_period_window)
        self.last: tuple[int, float, float | None] | None = None
        """The last frame placed: its index, its time, its timestamp (None: not usable)."""
        self.stamped = 0
        """Frames placed by a usable timestamp after the first."""

    def period(self) -> float:
        """The frame period (s): the median step of the last frames, or the nominal one."""
        if not self.steps:
            return 1.0 / self.fps
        return statistics.median(self.steps)

    def place(self, index: int, stamp: float | None) -> tuple[float, int]:
        """Frame ``index``'s time (s) from its timestamp ``stamp`` (s; None: none), and how many
        frames are missing at the source between it and the frame placed before it."""
        missing = 0
        last = self.last
        if last is None:
            t = self._snapped(index, stamp)
        elif stamp is not None and last[2] is not None and stamp > last[2]:
            frames = index - last[0]
            step = stamp - last[2]
            period = self.period()
            excess = step - frames * period
            if excess > self.config.gap_tolerance_frames * period:
                missing = max(1, round(excess / period))
            self.steps.append(step / frames)
            self.missing += missing
            self.stamped += 1
            t = self._snapped(index, stamp)
        else:  # no usable timestamp: on at the nominal rate from where the last frame was
            nominal = (index + self.missing) / self.fps
            last_nominal = (last[0] + self.missing) / self.fps
            t = nominal if last[1] == last_nominal else last[1] + nominal - last_nominal
            stamp = None
        self.last = (index, t, stamp)
        return t, missing

    def _snapped(self, index: int, stamp: float | None) -> float:
        """The nominal time of frame ``index`` (plus the frames missing so far), or ``stamp`` where
        it lies farther from it than ``timestamp_rounding_s``."""
        nominal = (index + self.missing) / self.fps
        if stamp is None or abs(stamp - nominal) <= self.config.timestamp_rounding_s:
            return nominal
        return stamp

    def short_of(self, length_s: float) -> float | None:
        """How far (s) the last frame placed ends before ``length_s``, by timestamps (None where the
        file gave too few usable ones to say)."""
        if self.last is None or self.last[2] is None or not self.stamped:
            return None
        return length_s - (self.last[2] + self.period())


MP4_INDEX_BOX = b"moov"
"""The box of an MP4 (ISO base media) file that says where every frame is; a recording cut off
before it was finished has its frames (``mdat``) without it."""


def _mp4_top_boxes(path: Path) -> tuple[set[bytes], bool] | None:
    """The types of the top-level boxes of an MP4/MOV file (it starts with an ``ftyp`` box), and
    whether every one of them ends within the file (none cut off); None for another kind of file
    or one that cannot be read."""
    seen: set[bytes] = set()
    whole = True
    try:
        with path.open("rb") as handle:
            size = path.stat().st_size
            offset = 0
            while offset + 8 <= size:
                handle.seek(offset)
                header = handle.read(16)
                length, kind = int.from_bytes(header[:4], "big"), header[4:8]
                if offset == 0 and kind != b"ftyp":
                    return None
                seen.add(kind)
                if length == 1 and len(header) == 16:
                    length = int.from_bytes(header[8:16], "big")
                elif length == 0:
                    length = size - offset
                if length < 8:
                    whole = False
                    break
                offset += length
            whole = whole and offset == size
    except OSError:
        return None
    return (seen, whole) if seen else None


def _missing_mp4_index(path: Path) -> bool:
    """Whether ``path`` is an MP4/MOV file whose top-level boxes hold frames (``mdat``) but no
    index (``moov``): nothing in it can be located."""
    boxes = _mp4_top_boxes(path)
    return boxes is not None and b"mdat" in boxes[0] and MP4_INDEX_BOX not in boxes[0]


def _whole_mp4(path: Path) -> bool:
    """Whether ``path`` is an MP4/MOV file with its index and frames (``moov``, ``mdat``), every
    top-level box ending within the file, the file ending with the last (nothing cut off)."""
    boxes = _mp4_top_boxes(path)
    return boxes is not None and boxes[1] and {b"mdat", MP4_INDEX_BOX} <= boxes[0]


MP4_FRAGMENT_BOX = b"moof"
"""The box of a fragmented MP4 (a recording of an HLS or DASH stream, CMAF) that opens each
fragment: each may describe its pictures anew."""


def _one_sample_description(path: Path) -> bool:
    """Whether ``path`` is an MP4/MOV file that is not fragmented: one recording, its frames
    described once in its index (the sample description OpenCV's raw packets repeat the sequence
    header of), so taken to keep one size; its packets are not read for sizes (which costs ~3 % of
    decoding 720p H.264)."""
    boxes = _mp4_top_boxes(path)
    return boxes is not None and MP4_FRAGMENT_BOX not in boxes[0]


class VideoFileSource(FrameSource):
    """A video file decoded by OpenCV; ``t`` is the frame's own timestamp in the file (seconds;
    on the nominal grid, ``index / fps``, where the timestamps agree with it: see ``_Timeline``).

    ``index`` is the frame's number on the video's frame grid: frames that could not be decoded,
    and frames its timestamps say are missing (never recorded: a camera or encoder that dropped
    them, an AVI's empty frame chunks), leave a hole in the indices and a jump in ``t``, and are
    counted in ``stats``. ``start_frame`` > 0 seeks there first (one part of a long video read by
    several processes): frames keep the file's own indices and times. Where the decoder stops
    short of a whole MP4 file's frame count after its timestamps jumped, the frames it holds
    beyond the last one given are counted (:data:`NOT_GIVEN`) rather than the file called
    truncated.

    A frame coded at another size than the first (clips of two sizes joined, a stream that
    changed mode), which OpenCV scales to the first size, is scaled back to the size it was coded
    at, read from its packets' sequence headers by ``open_packets`` (:func:`open_packet_reader`;
    none where ``open_capture`` is a test's and none is given; see :class:`_CodedSizes`), and the
    change said: the frame loop sees the picture change size, as in a folder of stills. An MP4/MOV
    file that is not fragmented describes its frames once (see :func:`_one_sample_description`):
    its packets are not read for sizes."""

    def __init__(
        self,
        path: str | Path,
        config: SourceConfig | None = None,
        report: Reporter | None = None,
        open_capture: CaptureFactory | None = None,
        start_frame: int = 0,
        open_packets: CaptureFactory | None = None,
    ):
        super().__init__(str(path), config, report)
        if start_frame < 0:
            raise ValueError(f"start_frame must be >= 0, got {start_frame}")
        self.path = Path(path)
        self.start_frame = start_frame
        self._open_capture = open_capture or functools.partial(
            open_video, threads=self.config.decoder_threads
        )
        self._open_packets = open_packets or (open_packet_reader if open_capture is None else None)
        self._sizes: _CodedSizes | None = None
        self._capture: Capture | None = None
        self._first: np.ndarray | None = None
        self._first_stamp: float | None = None
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
            if _missing_mp4_index(self.path):
                raise SourceError(
                    f"cannot open video file {self.path}: its index (the MP4 'moov' box) is missing, so "
                    "it is not a video OpenCV can decode: the recording was cut off before it was "
                    "finished (truncated), or the file is damaged"
                )
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
        self._first_stamp = _stamp(capture)
        if self._open_packets is not None and not _one_sample_description(self.path):
            self._sizes = _CodedSizes.opened(
                self._open_packets, self.path, _fourcc(capture), self.config.size_header_bytes
            )

    def close(self) -> None:
        super().close()
        if self._capture is not None:
            self._capture.release()
            self._capture = None
        if self._sizes is not None:
            self._sizes.close()
            self._sizes = None

    def _frames(self) -> Iterator[Frame]:
        if self._capture is None:
            self.open()
        capture = self._capture
        assert capture is not None
        coded: Size | None = None  # the size the frames before were coded at
        timeline = _Timeline(self._fps, self.config)
        image, index, stamp = self._first, self.start_frame, self._first_stamp
        last_t, skipped = 0.0, 0
        while image is not None and not self._stop.is_set():
            t, missing = timeline.place(index, stamp)
            number = index + timeline.missing  # the frame's place on the grid
            if skipped:
                self._undecodable(number - missing - skipped, skipped, last_t, t)
            if missing:
                self._missing(number, t, last_t, missing)
            last_t = t
            image = _as_bgr(image)
            size = self._sizes.at(index) if self._sizes is not None else None
            if size is not None:
                image = self._at_coded_size(image, size, coded, number)
                coded = size
            yield Frame(index=number, t=t, image=image)
            index += 1
            image, skipped = self._next_decodable(capture, index)
            index += skipped
            stamp = _stamp(capture)
        if self.frame_count and index < self.frame_count and not self._stop.is_set():
            self._ended(index, last_t, timeline)

    def _at_coded_size(self, image: np.ndarray, size: Size, before: Size | None, number: int) -> np.ndarray:
        """``image`` (frame ``number``) at the size it was coded at (OpenCV gives every frame at
        the first one's size); a change from ``before`` (the size of the frame before) said."""
        height, width = image.shape[:2]
        if before is not None and size != before:
            self.report(
                f"video file {self.path}: the picture changes size at frame {number} "
                f"({before[0]}x{before[1]} → {size[0]}x{size[1]}); OpenCV decodes it at its first size "
                f"({width}x{height}), so it is scaled back"
            )
        if size == (width, height):
            return image
        shrink = size[0] * size[1] < width * height
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)

    def _undecodable(self, first: int, count: int, before_t: float, t: float) -> None:
        """Frames ``first``.. (``count``) of the file could not be decoded: counted, said."""
        self._gap(
            SourceGap(first - 1, before_t, t, count, NOT_DECODABLE),
            f"video file {self.path}: frames {first}-{first + count - 1} could not be decoded "
            "(corrupt); skipped",
        )

    def _missing(self, number: int, t: float, before_t: float, missing: int) -> None:
        """Frames missing at the source before frame ``number`` (at ``t``; the frame before at
        ``before_t``): counted, said."""
        after = number - missing - 1
        self._gap(
            SourceGap(after, before_t, t, missing, MISSING_AT_SOURCE),
            f"video file {self.path}: {missing} frame(s) missing at the source after frame {after} "
            f"({before_t:.3f} s): its timestamps jump to {t:.3f} s (frame {number})",
        )

    def _ended(self, index: int, last_t: float, timeline: _Timeline) -> None:
        """The file gave no frame from ``index`` on, fewer than its ``frame_count``: it ended early,
        unless its timestamps reached its length (the frames it lacks were missing at the source,
        e.g. an AVI's empty chunks)."""
        length_s = self.frame_count / self._fps
        short_s = timeline.short_of(length_s)
        period = timeline.period()
        if short_s is not None and short_s <= self.config.gap_tolerance_frames * period:
            return
        if self._not_given(index, timeline, length_s):
            return
        self.stats.ended_early = True
        if short_s is None or not self.stats.frames_missing:
            lost = f"frames {index}-{self.frame_count - 1} of {self.frame_count}"
            self.stats.ended_early_why = f"{lost} not decodable (truncated or corrupt)"
        else:
            self.stats.ended_early_why = (
                f"no frame after {last_t:.2f} s of its {length_s:.2f} s, about {round(short_s / period)} "
                "frames not read (truncated or corrupt, or not given by the decoder after its timestamps "
                "jumped)"
            )
        self.report(f"video file {self.path} ended early: {self.stats.ended_early_why}")

    def _not_given(self, index: int, timeline: _Timeline, length_s: float) -> bool:
        """Whether the file's frames from ``index`` on (of its ``frame_count``) are in the file but
        were not given by the decoder: OpenCV numbers a file's frames by their timestamps and stops
        at its frame count, so a file whose timestamps jumped over frames never recorded ends that
        many frames early. Only an MP4/MOV file whose boxes are all whole (nothing cut off) is
        taken to hold them; they are counted and said as a gap (:data:`NOT_GIVEN`) up to the file's
        end (``length_s``)."""
        if timeline.last is None or not self.stats.frames_missing or not _whole_mp4(self.path):
            return False
        _, last_t, _ = timeline.last
        number = timeline.last[0] + timeline.missing
        count = self.frame_count - index
        self._gap(
            SourceGap(number, last_t, length_s, count, NOT_GIVEN),
            f"video file {self.path}: its last {count} frame(s), after frame {number} ({last_t:.3f} s) "
            f"to its end at {length_s:.3f} s, are in the file but not given by the decoder (OpenCV "
            f"numbers frames by their timestamps, which jumped over {self.stats.frames_missing} "
            "frame(s), and stops at the file's frame count): not analysed",
        )
        return True

    def _next_decodable(self, capture: Capture, index: int) -> tuple[np.ndarray | None, int]:
        """The next frame that decodes, from frame ``index`` on, and how many frames before it
        could not be decoded; (None, 0) at the end. A corrupt stretch inside the file (a failed
        read each of its frames: the decoder still moves on) is skipped (reported as the frame after
        it is placed); failed reads that run to the file's end are its end (truncated)."""
        skipped = 0
        ok, image = capture.read()
        while not ok and index + skipped + 1 < self.frame_count and not self._stop.is_set():
            skipped += 1
            ok, image = capture.read()
        if not ok:
            return None, 0
        return image, skipped


def _stamp(capture: Capture) -> float | None:
    """The timestamp (s) of the frame ``capture`` read last, None where it gives none."""
    millis = capture.get(cv2.CAP_PROP_POS_MSEC)
    return millis / 1000.0 if millis is not None and np.isfinite(millis) and millis >= 0 else None


class CaptureSource(FrameSource):
    """A camera (integer index) or a network stream (RTSP/HTTP URL) read by ``cv2.VideoCapture``.

    When a read fails the capture is released and reopened after a wait that starts at
    ``reconnect_initial_delay_s`` and grows by ``reconnect_backoff_factor`` up to
    ``reconnect_max_delay_s``; every drop-out and reconnect is reported. ``t`` is seconds since the
    source was opened (wall clock, monotonic); ``index`` keeps counting across reconnects. A wait of
    ``stall_s`` or more between two frames (a stall, or a drop-out and its reconnect) is a gap:
    reported, and counted in ``stats`` with the frames the source's frame rate would have given.
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
        last_t = 0.0
        reconnects = self.stats.reconnects
        while not self._stop.is_set():
            capture = self._capture
            if capture is None:
                return
            ok, image = capture.read()
            if ok and image is not None:
                t = self._clock() - self._start
                if index and t - last_t >= self.config.stall_s:
                    self._stalled(index, last_t, t, self.stats.reconnects > reconnects)
                reconnects, last_t = self.stats.reconnects, t
                yield Frame(index=index, t=t, image=_as_bgr(image))
                index += 1
                continue
            if self._stop.is_set():
                return
            self.report(f"{self.name}: stream dropped out after frame {index - 1}")
            capture.release()
            self._capture = self._reconnect()
            if self._capture is None and not self._stop.is_set():
                self.stats.ended_early = True  # gone for good: not an end anyone asked for

    def _stalled(self, index: int, before_t: float, t: float, reconnected: bool) -> None:
        """No frame between frame ``index - 1`` (at ``before_t``) and frame ``index`` (at ``t``),
        a wait of ``stall_s`` or more: counted and said, with the frames the frame rate would have
        given meanwhile."""
        missing = max(0, round((t - before_t) * self._fps) - 1)
        why = DROPPED_OUT if reconnected else STALLED
        self._gap(
            SourceGap(index - 1, before_t, t, missing, why),
            f"{self.name}: no frame for {t - before_t:.1f} s after frame {index - 1} ({before_t:.1f} s; "
            f"{why}): about {missing} frames missing at {self._fps:g} fps",
        )


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
        fps = self.config.folder_fps
        last = -1
        for index, path in enumerate(self.files):
            if self._stop.is_set():
                return
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.stats.skipped_files.append(str(path))
                self.stats.frames_undecodable += 1
                run = self.stats.gaps[-1] if self.stats.gaps else None
                if run is not None and run.after_frame == last and run.resumed_t == index / fps:
                    self.stats.gaps[-1] = SourceGap(
                        last, run.t, (index + 1) / fps, run.missing_frames + 1, NOT_DECODABLE
                    )
                else:
                    self.stats.gaps.append(
                        SourceGap(last, max(last, 0) / fps, (index + 1) / fps, 1, NOT_DECODABLE)
                    )
                self.report(f"image {path} is unreadable (corrupt or not an image); skipped")
                continue
            last = index
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
