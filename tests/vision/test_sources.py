"""Frame sources: files, folders, streams that drop out, and a live queue that drops rather than lags."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.vision.sources import (
    CaptureSource,
    FrameSource,
    ImageFolderSource,
    LiveConfig,
    LiveFrames,
    SingleImageSource,
    SourceConfig,
    SourceError,
    VideoFileSource,
    iter_frames,
    open_source,
    read_ahead,
)
from snooker.vision.types import Frame

FRAME_SIZE = (64, 48)
FAST_RECONNECT = SourceConfig(reconnect_initial_delay_s=0.001, reconnect_max_delay_s=0.004)


def _brightness_image(level: int) -> np.ndarray:
    return np.full((FRAME_SIZE[1], FRAME_SIZE[0], 3), level, np.uint8)


def _write_video(path: Path, frames: int, fps: float = 25.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, FRAME_SIZE)
    for i in range(frames):
        writer.write(_brightness_image(i * 5))
    writer.release()
    return path


@pytest.fixture
def video(tmp_path: Path) -> Path:
    return _write_video(tmp_path / "clip.avi", 40)


def test_video_file_yields_every_frame_in_order_with_times(video: Path):
    with open_source(str(video)) as source:
        assert isinstance(source, VideoFileSource)
        frames = list(source)
    assert [f.index for f in frames] == list(range(40))
    assert frames[10].t == pytest.approx(10 / 25.0)
    levels = [int(f.image.mean()) for f in frames]
    assert levels == sorted(levels) and levels[-1] > levels[0]
    assert source.stats.frames_read == 40 and not source.stats.ended_early


@pytest.mark.parametrize(("threads", "expected"), [(None, 1.0), (1, 1.0), (0, None)])
def test_a_video_files_decoder_uses_the_threads_configured(
    video: Path, threads: int | None, expected: float | None
):
    config = SourceConfig() if threads is None else SourceConfig(decoder_threads=threads)
    with open_source(str(video), config) as source:
        assert isinstance(source, VideoFileSource)
        used = source._capture.get(cv2.CAP_PROP_N_THREADS)
        frames = list(source)
    if expected is None:  # OpenCV's own choice
        expected = cv2.VideoCapture(str(video)).get(cv2.CAP_PROP_N_THREADS)
    assert used == expected and len(frames) == 40


def test_a_negative_decoder_thread_count_is_refused():
    with pytest.raises(ValueError, match="decoder_threads"):
        SourceConfig(decoder_threads=-1)


@pytest.mark.parametrize("start", [1, 7, 23, 39])
def test_a_video_read_from_a_start_frame_keeps_the_files_indices_and_pictures(video: Path, start: int):
    with open_source(str(video)) as source:
        whole = list(source)
    with open_source(str(video), start_frame=start) as source:
        part = list(source)
    assert [f.index for f in part] == list(range(start, 40))
    assert part[0].t == pytest.approx(start / 25.0)
    assert all(np.array_equal(a.image, b.image) for a, b in zip(part, whole[start:], strict=True))
    assert not source.stats.ended_early


def test_only_a_video_file_can_start_at_a_frame(tmp_path: Path):
    cv2.imwrite(str(tmp_path / "a.png"), _brightness_image(10))
    with pytest.raises(SourceError, match="from frame 3"):
        open_source(tmp_path, start_frame=3)


def test_iter_frames_is_a_plain_generator(video: Path):
    assert sum(1 for _ in iter_frames(video)) == 40


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "cannot open video file"),
        (b"\x00garbage" * 500, "cannot open video file"),
    ],
    ids=["empty_file_is_refused", "garbage_file_is_refused"],
)
def test_unreadable_video_is_a_clear_error_naming_it(tmp_path: Path, content: bytes, expected: str):
    path = tmp_path / "broken.mp4"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=expected) as exc, open_source(path):
        pass
    assert str(path) in str(exc.value)


def test_missing_path_names_it(tmp_path: Path):
    with pytest.raises(SourceError, match=r"no-such\.mp4"):
        open_source(tmp_path / "no-such.mp4")


def test_truncated_video_ends_early_and_says_so(video: Path, tmp_path: Path):
    truncated = tmp_path / "truncated.avi"
    data = video.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    reports: list[str] = []
    with VideoFileSource(truncated, report=reports.append) as source:
        frames = list(source)
    assert 0 < len(frames) < 40
    assert source.stats.ended_early
    assert any("ended early" in line and str(truncated) in line for line in reports)


CORRUPT_CLIP_FPS = 25.0
"""The frame rate the capture with a corrupt stretch reports."""


class _CorruptStretch:
    """A capture of ``count`` frames whose reads fail on the frames in ``bad`` (the decoder moves
    past each, as FFmpeg does over a corrupt stretch); frame i is filled with i."""

    def __init__(self, count: int, bad: set[int]):
        self.count, self.bad, self.next = count, bad, 0

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        index, self.next = self.next, self.next + 1
        if index >= self.count or index in self.bad:
            return False, None
        return True, np.full((4, 6, 3), index, np.uint8)

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: CORRUPT_CLIP_FPS, cv2.CAP_PROP_FRAME_COUNT: float(self.count)}.get(
            prop, 0.0
        )

    def set(self, prop: int, value: float) -> bool:
        return False

    def release(self) -> None:
        pass


FRAMES_IN_FILE = 20


@pytest.mark.parametrize(
    ("inside", "tail"),
    [({7, 8, 9}, set()), ({3}, set()), ({7, 8, 9}, {18, 19})],
    ids=["a_stretch", "one_frame", "a_stretch_and_the_tail"],
)
def test_a_corrupt_stretch_inside_a_video_is_skipped_and_the_rest_read(
    video: Path, inside: set[int], tail: set[int]
):
    # One corrupt spot used to end the video there: the frames after it were lost. Frames that
    # fail to the file's end are its end (truncated), as before.
    reports: list[str] = []
    capture = _CorruptStretch(FRAMES_IN_FILE, inside | tail)
    source = VideoFileSource(video, report=reports.append, open_capture=lambda _: capture)
    with source:
        frames = list(source)
    good = [i for i in range(FRAMES_IN_FILE) if i not in inside | tail]
    assert [f.index for f in frames] == good
    assert all(int(f.image[0, 0, 0]) == f.index for f in frames)  # each frame keeps its own index
    assert [f.t for f in frames] == pytest.approx([i / CORRUPT_CLIP_FPS for i in good])
    assert source.stats.frames_undecodable == len(inside)
    assert any("could not be decoded (corrupt); skipped" in line for line in reports)
    assert source.stats.ended_early is bool(tail)


def test_image_folder_in_name_order_skips_and_reports_unreadable(tmp_path: Path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), _brightness_image(10 + 40 * i))
    (tmp_path / "f001b.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("ignored")
    reports: list[str] = []
    with open_source(tmp_path, report=reports.append) as source:
        assert isinstance(source, ImageFolderSource)
        frames = list(source)
    assert [int(f.image.mean()) for f in frames] == [10, 50, 90]
    assert source.stats.skipped_files == [str(tmp_path / "f001b.jpg")]
    assert any("f001b.jpg" in line for line in reports)


def test_empty_folder_is_an_error(tmp_path: Path):
    with pytest.raises(SourceError, match="holds no images"), open_source(tmp_path):
        pass


def test_single_grey_image_becomes_one_bgr_frame(tmp_path: Path):
    path = tmp_path / "still.png"
    cv2.imwrite(str(path), np.full((20, 30), 77, np.uint8))
    with open_source(path) as source:
        assert isinstance(source, SingleImageSource)
        (frame,) = list(source)
    assert frame.image.shape == (20, 30, 3) and frame.image.dtype == np.uint8


@pytest.mark.parametrize(
    ("spec", "kind"),
    [("0", CaptureSource), (3, CaptureSource), ("rtsp://127.0.0.1:1/x", CaptureSource)],
    ids=["camera_index_string", "camera_index_int", "rtsp_url"],
)
def test_open_source_picks_the_kind(spec, kind):
    assert isinstance(open_source(spec), kind)


def test_camera_that_does_not_exist_is_a_clear_error():
    source = open_source("97", config=SourceConfig(reconnect_initial_delay_s=0.0))
    with pytest.raises(SourceError, match="camera 97"):
        source.open()


class FlakyCapture:
    """A capture that delivers some frames and then fails, like a stream dropping out."""

    def __init__(self, frames: int, start_level: int):
        self.remaining = frames
        self.level = start_level
        self.released = False

    def isOpened(self) -> bool:
        return True

    def read(self):
        if self.remaining <= 0:
            return False, None
        self.remaining -= 1
        self.level += 1
        return True, _brightness_image(self.level)

    def get(self, prop: int) -> float:
        return 30.0

    def release(self) -> None:
        self.released = True


class ClosedCapture(FlakyCapture):
    def isOpened(self) -> bool:
        return False


def test_stream_that_drops_out_reconnects_with_backoff_and_reports():
    # opens: 3 frames, drop, two failed reopen attempts, then 2 frames, drop, give up.
    plan = [FlakyCapture(3, 0), ClosedCapture(0, 0), ClosedCapture(0, 0), FlakyCapture(2, 100)]
    opened: list[FlakyCapture] = []

    def factory(target):
        capture = plan.pop(0) if plan else ClosedCapture(0, 0)
        opened.append(capture)
        return capture

    config = SourceConfig(
        reconnect_initial_delay_s=0.001, reconnect_max_delay_s=0.004, reconnect_max_attempts=3
    )
    reports: list[str] = []
    with CaptureSource("rtsp://cam", config, reports.append, open_capture=factory) as source:
        frames = list(source)
    assert [int(f.image.mean()) for f in frames] == [1, 2, 3, 101, 102]
    assert [f.index for f in frames] == list(range(5))
    assert source.stats.reconnects == 1
    assert sum("dropped out" in r for r in reports) == 2
    assert any("reconnected after 3 attempt" in r for r in reports)
    assert any("giving up after 3" in r for r in reports)
    assert source.stats.ended_early  # gone for good is not an end
    assert all(c.released for c in opened)


class TwoShotStream(http.server.SimpleHTTPRequestHandler):
    """Serves the clip to the first two connections, then answers 503: a stream that dies for good."""

    served = 0

    def do_GET(self) -> None:
        type(self).served += 1
        if type(self).served > 2:
            self.send_error(503, "camera gone")
            return
        super().do_GET()

    def log_message(self, *args) -> None:
        pass


def test_real_http_stream_that_drops_out_is_reopened_over_the_network(tmp_path: Path):
    _write_video(tmp_path / "cam.avi", 10)
    handler = type("Stream", (TwoShotStream,), {"served": 0})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(tmp_path))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/cam.avi"
    config = SourceConfig(
        reconnect_initial_delay_s=0.01, reconnect_max_delay_s=0.02, reconnect_max_attempts=2
    )
    reports: list[str] = []
    try:
        with open_source(url, config, reports.append) as source:
            frames = list(source)
    finally:
        server.shutdown()
    assert [f.index for f in frames] == list(range(20))  # the stream's frames, twice, counted on
    assert source.stats.reconnects == 1
    assert any("reconnected after 1 attempt" in r for r in reports)
    assert any("giving up after 2 reconnect attempts" in r for r in reports)


def test_a_stream_not_up_yet_is_retried_on_start():
    plan = [ClosedCapture(0, 0), ClosedCapture(0, 0), FlakyCapture(2, 0)]
    config = SourceConfig(reconnect_initial_delay_s=0.001, reconnect_max_attempts=0, open_retries_on_start=2)
    reports: list[str] = []
    with CaptureSource("rtsp://cam", config, reports.append, open_capture=lambda _: plan.pop(0)) as source:
        assert len(list(source)) == 2
    assert sum("cannot open, retry" in r for r in reports) == 2


def test_backoff_delays_grow_and_are_capped():
    config = SourceConfig(
        reconnect_initial_delay_s=0.5, reconnect_backoff_factor=2.0, reconnect_max_delay_s=3.0
    )
    delays = CaptureSource(0, config)._delays()
    assert [next(delays) for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_stop_interrupts_a_reconnect_wait():
    source = CaptureSource(
        "rtsp://cam",
        SourceConfig(reconnect_initial_delay_s=30.0),
        report=lambda _: None,
        open_capture=lambda _: FlakyCapture(1, 0),
    )
    source.open()
    got: list[Frame] = []
    worker = threading.Thread(target=lambda: got.extend(source))
    worker.start()
    time.sleep(0.2)
    source.stop()
    worker.join(timeout=2.0)
    assert not worker.is_alive() and len(got) == 1


class CountingSource(FrameSource):
    """Produces ``n`` frames as fast as possible; the test consumer is deliberately slow."""

    is_live = True

    def __init__(self, n: int):
        super().__init__("counting")
        self.n = n

    def _frames(self):
        image = _brightness_image(0)
        for i in range(self.n):
            if self._stop.is_set():
                return
            yield Frame(index=i, t=i / 25.0, image=image)


def test_live_queue_drops_oldest_rather_than_fall_behind():
    with LiveFrames(CountingSource(300), LiveConfig(queue_size=2)) as live:
        got = []
        for frame in live:
            got.append(frame.index)
            time.sleep(0.002)
    assert got == sorted(got) and got[-1] == 299
    assert live.dropped > 0
    assert len(got) + live.dropped == 300


@settings(max_examples=25, deadline=None)
@given(n=st.integers(min_value=0, max_value=60), queue_size=st.integers(min_value=1, max_value=4))
def test_live_queue_never_loses_count_and_keeps_order(n: int, queue_size: int):
    with LiveFrames(CountingSource(n), LiveConfig(queue_size=queue_size)) as live:
        got = [frame.index for frame in live]
    assert len(got) + live.dropped == n
    assert got == sorted(set(got))
    if n:
        assert got[-1] == n - 1


def test_live_queue_without_dropping_delivers_every_frame_to_a_slow_consumer():
    with LiveFrames(CountingSource(60), LiveConfig(queue_size=2, drop_when_full=False)) as live:
        got = []
        for frame in live:
            got.append(frame.index)
            time.sleep(0.001)
    assert got == list(range(60)) and live.dropped == 0


def test_closing_wakes_a_reader_waiting_for_room_and_drops_nothing():
    # the reader waits for room in the full queue far longer than the test may take: closing must
    # wake it, not wait the wait out, and the frame it held is not counted as dropped
    config = LiveConfig(queue_size=2, drop_when_full=False, get_timeout_s=60.0, close_timeout_s=30.0)
    live = LiveFrames(CountingSource(100), config).__enter__()
    first = next(iter(live))
    deadline = time.monotonic() + 10.0
    while len(live._queue) < config.queue_size and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    live.close()
    assert time.monotonic() - started < config.get_timeout_s / 2
    assert first.index == 0 and live.dropped == 0 and live.source.stats.frames_dropped == 0


def test_live_file_is_paced_at_its_frame_rate(tmp_path: Path):
    clip = _write_video(tmp_path / "fast.avi", 10, fps=200.0)
    with LiveFrames(open_source(clip), LiveConfig(queue_size=20)) as live:
        got = [frame.index for frame in live]
    assert got == list(range(10)) and live.dropped == 0


def test_live_reader_error_reaches_the_consumer(tmp_path: Path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.png").write_bytes(b"broken")
    live = LiveFrames(ImageFolderSource(folder, report=lambda _: None))
    with pytest.raises(SourceError, match="none of its 1 images is readable"), live:
        list(live)


def test_read_ahead_decodes_every_frame_in_order_for_a_slow_consumer(video: Path):
    source = open_source(str(video))
    with read_ahead(source, frames=3) as frames:
        got = []
        for frame in frames:
            got.append((frame.index, int(frame.image.mean())))
            time.sleep(0.001)
    assert [index for index, _ in got] == list(range(40)) and frames.dropped == 0
    levels = [level for _, level in got]
    assert levels == sorted(levels)
    assert source.stopped


def test_read_ahead_prepares_each_frame_on_the_reader_thread_before_it_is_delivered(video: Path):
    prepared: dict[int, str] = {}

    def prepare(frame: Frame) -> None:
        prepared[frame.index] = threading.current_thread().name

    with read_ahead(open_source(str(video)), frames=3, prepare=prepare) as frames:
        got = []
        for frame in frames:
            assert frame.index in prepared  # done before the consumer sees the frame
            got.append(frame.index)
    assert got == list(range(40))
    assert set(prepared) == set(got)
    assert all(name != threading.current_thread().name for name in prepared.values())


def test_a_failing_prepare_is_reported_once_and_every_frame_still_arrives():
    reports: list[str] = []
    source = CountingSource(20)
    source.report = reports.append  # type: ignore[method-assign]

    def prepare(frame: Frame) -> None:
        raise RuntimeError(f"cannot prepare frame {frame.index}")

    with LiveFrames(source, LiveConfig(queue_size=4, drop_when_full=False), prepare) as live:
        got = [frame.index for frame in live]
    assert got == list(range(20))
    assert len(reports) == 1 and "preparing frames failed" in reports[0] and "frame 0" in reports[0]


def test_a_stream_that_accepts_and_never_answers_fails_within_its_open_timeout():
    """OpenCV's FFmpeg backend waits 30 s for such a stream by default, during which a live run
    cannot be stopped; the source gives it ``stream_open_timeout_s``."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
    url = f"http://127.0.0.1:{server.getsockname()[1]}/cam.mjpg"
    source = CaptureSource(url, SourceConfig(stream_open_timeout_s=0.5), report=lambda _: None)
    started = time.monotonic()
    try:
        with pytest.raises(SourceError, match="does not answer"):
            source.open()
        assert time.monotonic() - started < SILENT_STREAM_GIVE_UP_S
    finally:
        server.close()
        for connection in accepted:
            connection.close()


SILENT_STREAM_GIVE_UP_S = 10.0
"""Well under OpenCV's own 30 s, well over the 0.5 s asked (the backend checks its clock coarsely)."""


class _StampedCapture:
    """A capture of frames whose timestamps (ms, ``CAP_PROP_POS_MSEC`` after each read) are given;
    it reports ``fps`` and as many frames as timestamps (as a container's index counts its samples)."""

    def __init__(self, stamps_ms: list[float], fps: float, count: int | None = None):
        self.stamps, self.fps, self.next = stamps_ms, fps, 0
        self.count = len(stamps_ms) if count is None else count

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.next >= len(self.stamps):
            return False, None
        self.next += 1
        return True, np.full((4, 6, 3), self.next - 1, np.uint8)

    def get(self, prop: int) -> float:
        if prop == cv2.CAP_PROP_POS_MSEC:
            return self.stamps[self.next - 1] if self.next else 0.0
        return {cv2.CAP_PROP_FPS: self.fps, cv2.CAP_PROP_FRAME_COUNT: float(self.count)}.get(prop, 0.0)

    def set(self, prop: int, value: float) -> bool:
        return False

    def release(self) -> None:
        pass


def _at(fps: float, slots: list[int]) -> list[float]:
    return [1000.0 * k / fps for k in slots]


TIMESTAMP_ROWS = [
    # id, timestamps (ms), fps reported, frame count, indices, times (s), missing, ended early
    ("steady", _at(25, range(6)), 25.0, 6, list(range(6)), [k / 25 for k in range(6)], 0, False),
    (
        "three_missing",
        _at(25, [0, 1, 2, 6, 7, 8]),
        25.0,
        9,  # an AVI counts its empty chunks: read to its end
        [0, 1, 2, 6, 7, 8],
        [k / 25 for k in (0, 1, 2, 6, 7, 8)],
        3,
        False,
    ),
    (
        "variable_rate_reports_its_mean",  # 30 fps, 10 frames never recorded: 20 frames in 30 times
        _at(30, [*range(10), *range(20, 30)]),
        20 / 30 * 30.0,
        20,
        [*range(10), *range(20, 30)],
        [k / 30 for k in (*range(10), *range(20, 30))],
        10,
        False,
    ),
    (
        "decoder_stops_after_a_jump",  # 12 samples over 16 frame times, the decoder gives 8 (OpenCV)
        _at(30, [0, 1, 2, 3, 8, 9, 10, 11]),
        12 / 16 * 30.0,
        12,
        [0, 1, 2, 3, 8, 9, 10, 11],
        [k / 30 for k in (0, 1, 2, 3, 8, 9, 10, 11)],
        4,
        True,
    ),
    ("no_timestamps", [0.0] * 5, 25.0, 5, list(range(5)), [k / 25 for k in range(5)], 0, False),
    ("truncated", _at(25, range(4)), 25.0, 10, list(range(4)), [k / 25 for k in range(4)], 0, True),
]


@pytest.mark.parametrize(
    ("stamps", "fps", "count", "indices", "times", "missing", "early"),
    [row[1:] for row in TIMESTAMP_ROWS],
    ids=[row[0] for row in TIMESTAMP_ROWS],
)
def test_a_video_files_times_are_its_timestamps_and_frames_missing_from_them_are_counted(
    video: Path, stamps, fps, count, indices, times, missing, early
):
    # Before: t was the count of frames read over the reported rate, so a gap shifted every later
    # time (and a variable rate's mean stretched them all), and a file whose timestamps skipped
    # frames "ended early (truncated or corrupt)".
    reports: list[str] = []
    capture = _StampedCapture(stamps, fps, count)
    with VideoFileSource(video, report=reports.append, open_capture=lambda _: capture) as source:
        frames = list(source)
    assert [f.index for f in frames] == indices
    assert [f.t for f in frames] == pytest.approx(times, abs=1e-9)
    assert source.stats.frames_missing == missing
    assert sum(g.missing_frames for g in source.stats.gaps) == missing
    assert source.stats.ended_early is early
    assert sum("missing at the source" in line for line in reports) == (1 if missing else 0)
    if not missing:  # nothing to say: the times are the nominal grid's, bit for bit
        assert [f.t for f in frames] == [i / fps for i in indices]
