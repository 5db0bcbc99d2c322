"""Video files whose damage OpenCV hides: real files built here (OpenCV's own writers, edited at the
container level by ``snooker.datasets.damaged``), read through ``VideoFileSource``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.datasets.damaged import avi_frames, avi_with_frames, mp4_index_first, mp4_with_time_gaps
from snooker.vision.bitstream import h264_size, parser_for
from snooker.vision.sources import NOT_GIVEN, VideoFileSource

SIZE = (64, 48)
"""The test clips' frame size (width, height)."""
FPS = 25.0
FRAMES = 40


def _mp4(path: Path, frames: int = FRAMES) -> Path:
    """An MPEG-4 (part 2) MP4 of ``frames`` frames, each a flat grey of its own level."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, SIZE)
    for k in range(frames):
        writer.write(np.full((SIZE[1], SIZE[0], 3), (5 * k) % 256, np.uint8))
    writer.release()
    return path


@pytest.mark.parametrize(
    "gaps",
    [{10: 4}, {10: 2, 30: 3}, {FRAMES - 6: 5}],
    ids=["one_jump", "two_jumps", "a_jump_near_the_end"],
)
def test_a_variable_rate_mp4_is_not_called_truncated_and_its_last_frames_are_accounted_for(
    tmp_path: Path, gaps: dict[int, int]
):
    # Before: OpenCV stops as many frames before the end as the timestamps jumped over (it counts
    # a file's frames by their timestamps, up to its frame count), and the complete file was
    # reported "ended early (truncated or corrupt)", the command's exit status 1.
    video = tmp_path / "vfr.mp4"
    video.write_bytes(mp4_with_time_gaps(_mp4(tmp_path / "steady.mp4").read_bytes(), gaps))
    reports: list[str] = []
    with VideoFileSource(video, report=reports.append) as source:
        frames = list(source)
    stats = source.stats
    assert not stats.ended_early, stats.ended_early_why
    assert stats.frames_missing == sum(gaps.values())
    end = [g for g in stats.gaps if g.why == NOT_GIVEN]
    assert len(end) == 1 and end[0].missing_frames > 0
    # every sample of the file is a frame delivered or one counted at the end, none twice
    assert len(frames) + end[0].missing_frames == FRAMES
    assert end[0].after_frame == frames[-1].index and end[0].t == frames[-1].t
    length_s = (FRAMES + sum(gaps.values())) / FPS
    assert end[0].resumed_t == pytest.approx(length_s, abs=1e-3)
    line = next(x for x in reports if NOT_GIVEN in x)
    assert str(video) in line and f"after frame {frames[-1].index}" in line and f"{length_s:.3f} s" in line
    assert not any("ended early" in x for x in reports)


def test_a_truncated_variable_rate_mp4_still_ends_early(tmp_path: Path):
    # the packets the file lacks are not counted as given: it ended early, as before
    video = tmp_path / "cut.mp4"
    data = mp4_index_first(mp4_with_time_gaps(_mp4(tmp_path / "steady.mp4", 200).read_bytes(), {10: 4}))
    video.write_bytes(data[: len(data) // 2])
    with VideoFileSource(video, report=lambda _: None) as source:
        frames = list(source)
    assert 0 < len(frames) < 150
    assert source.stats.ended_early


def _writer_frames(path: Path, fourcc: str, size: tuple[int, int], levels: range) -> bytes:
    """A file of OpenCV's writer (``fourcc``), frames of ``size`` each a grey of its level."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), FPS, size)
    for level in levels:
        writer.write(np.full((size[1], size[0], 3), level % 256, np.uint8))
    writer.release()
    return path.read_bytes()


SMALL = (32, 24)
"""The size the second part of a joined clip is coded at (width, height)."""
JOINED_AT = 20
"""The first frame of the second part."""


def _joined_stream(folder: Path, fourcc: str) -> Path:
    # MPEG transport streams join by concatenation, as a recorder or a broadcast does
    first = _writer_frames(folder / "a.ts", fourcc, SIZE, range(0, 5 * JOINED_AT, 5))
    second = _writer_frames(folder / "b.ts", fourcc, SMALL, range(5 * JOINED_AT, 200, 5))
    (folder / "joined.ts").write_bytes(first + second)
    return folder / "joined.ts"


def _renegotiated_mjpeg(folder: Path, fourcc: str) -> Path:
    # a camera that changed mode: the later frames' JPEGs are of the other size
    data = _writer_frames(folder / "a.avi", fourcc, SIZE, range(0, 200, 5))
    frames = avi_frames(data)
    for k in range(JOINED_AT, len(frames)):
        frames[k] = cv2.imencode(".jpg", np.full((SMALL[1], SMALL[0], 3), 5 * k, np.uint8))[1].tobytes()
    (folder / "joined.avi").write_bytes(avi_with_frames(data, frames))
    return folder / "joined.avi"


@pytest.mark.parametrize(
    ("make", "fourcc"),
    [(_joined_stream, "mp4v"), (_joined_stream, "MPEG"), (_renegotiated_mjpeg, "MJPG")],
    ids=["mpeg4_ts", "mpeg2_ts", "mjpeg_avi"],
)
def test_a_picture_that_changes_size_inside_a_video_comes_at_its_own_size_and_is_said(
    tmp_path: Path, make, fourcc: str
):
    # Before: OpenCV scales every frame to the first one's size (32x24 stretched to 64x48), no
    # error, nothing said: a calibration made for the first size read the second part stretched.
    video = make(tmp_path, fourcc)
    reports: list[str] = []
    with VideoFileSource(video, report=reports.append) as source:
        frames = list(source)
    sizes = [f.image.shape[1::-1] for f in frames]
    changed = next((k for k, size in enumerate(sizes) if size != SIZE), None)
    assert changed is not None, "every frame came at the first size"
    assert frames[changed].index == JOINED_AT
    assert set(sizes[:changed]) == {SIZE} and set(sizes[changed:]) == {SMALL}
    # the picture scaled back is the one coded: each frame's grey level kept (the JPEG's or
    # encoder's rounding aside)
    assert abs(int(frames[changed].image.mean()) - 5 * JOINED_AT % 256) <= 3
    line = next(x for x in reports if "changes size" in x)
    assert str(video) in line and f"at frame {JOINED_AT} (64x48 → 32x24)" in line


def test_an_h264_sequence_parameter_set_gives_its_picture_size():
    # the SPS of a 1280x720 H.264 broadcast clip (Main profile; as OpenCV's raw packets give it)
    sps = bytes.fromhex("00000001674d401f95a014016ec04400000fa00003a9803c70ca80")
    assert h264_size(sps) == (1280, 720)
    assert parser_for("h264") is h264_size and parser_for("hev1") is None
    assert h264_size(bytes.fromhex("0000000109f0")) is None  # an access unit delimiter only


def test_a_video_read_from_a_later_frame_changes_size_at_the_same_frame(tmp_path: Path):
    # one part of a long video read by a process of its own: the packets are counted from the start
    video = _joined_stream(tmp_path, "mp4v")
    with VideoFileSource(video, report=lambda _: None, start_frame=JOINED_AT - 8) as source:
        frames = list(source)
    assert frames[0].index == JOINED_AT - 8
    assert next(f.index for f in frames if f.image.shape[1::-1] == SMALL) == JOINED_AT


class _Packets:
    """A packet reader (OpenCV's raw mode) over ``packets``, each a key frame."""

    def __init__(self, packets: list[bytes]):
        self.packets, self.next = packets, 0

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.next >= len(self.packets):
            return False, None
        self.next += 1
        return True, np.frombuffer(self.packets[self.next - 1], np.uint8).reshape(1, -1)

    def get(self, prop: int) -> float:
        return 1.0 if prop == cv2.CAP_PROP_LRF_HAS_KEY_FRAME else 0.0

    def set(self, prop: int, value: float) -> bool:
        return False

    def release(self) -> None:
        pass


def test_a_damaged_sequence_header_does_not_rescale_the_picture(tmp_path: Path):
    # the JPEGs of an MJPEG file, the second one's start of frame damaged to claim 65535 x 65535
    # px (a picture no decoder gives): not believed, the size before kept
    data = _writer_frames(tmp_path / "a.avi", "MJPG", SIZE, range(0, 15, 5))
    jpegs = [bytearray(x) for x in avi_frames(data)]
    sof = next(k for k in range(2, len(jpegs[1]) - 1) if jpegs[1][k : k + 2] == b"\xff\xc0")
    jpegs[1][sof + 5 : sof + 9] = b"\xff\xff\xff\xff"
    source = VideoFileSource(
        tmp_path / "a.avi", report=lambda _: None, open_packets=lambda _: _Packets([bytes(x) for x in jpegs])
    )
    with source:
        sizes = [source._sizes.at(k) for k in range(3)]  # the sizes its frames are taken to be coded at
    assert sizes == [SIZE, SIZE, SIZE]
