"""Damaged video at the source, through ``snooker-referee analyze``: what is lost is counted and
said, nothing recorded is lost, and a gap does not shift the times after it.

Each row builds a real damaged file from the shipped demo clip (two strokes: a red potted, then
the green; the calls ONE, then FOUR) at the container level (``snooker.datasets.damaged``), analyses it
with the referee, and compares it with the analysis of the undamaged file: the same strokes and
calls, every frame at the time the undamaged file has for that frame number (``video.gaps``
count what is not there), and, where the file cannot be read to its end or at all, an error
naming what is wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from snooker.cli import main
from snooker.datasets.damaged import (
    avi_frames,
    avi_with_frames,
    mp4_box,
    mp4_index_first,
    mp4_with_time_gaps,
    overwritten,
    read_images,
    write_mjpg_avi,
)

CLIP = Path(__file__).resolve().parents[2] / "samples" / "demo_clip.mp4"
FPS = 30.0
"""The demo clip's frame rate."""
DROPPED_AT = 40
"""Where frames go missing in the AVI rows: in the first stroke (frames 16-82), the red running."""
DROPPED = 6
"""How many frames a camera dropped there (0.2 s at 30 fps)."""
TIME_GAP_AT = 40
"""The sample of the MP4 whose timestamp jumps over frames never recorded (in the first stroke)."""
TIME_GAP = 3
"""Frame times the MP4's timestamps jump over there (0.1 s)."""
TIME_TOLERANCE_S = 1e-3
"""How close a frame's time must be to the undamaged file's time for its number (s): analysis.json
rounds times to 0.1 ms, container time bases far finer."""
SAME_PLACE_FRAMES = 3
"""How far (frames) a stroke's start or end may move when frames of it are missing or damaged."""


def _images() -> list:
    return read_images(CLIP)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The undamaged files (the demo clip, and the same frames as an MJPG AVI) and every damaged one."""
    folder = tmp_path_factory.mktemp("damaged")
    avi = write_mjpg_avi(folder / "clean.avi", _images(), FPS).read_bytes()
    mp4 = CLIP.read_bytes()
    (folder / "clean.mp4").write_bytes(mp4)
    for name, data in DAMAGE.items():
        made = data(avi if name.endswith(".avi") else mp4)
        (folder / name).write_bytes(made)
    return folder


def _empty_frames(first: int, count: int) -> Callable[[bytes], bytes]:
    def make(data: bytes) -> bytes:
        frames = avi_frames(data)
        frames[first : first + count] = [b""] * count
        return avi_with_frames(data, frames)

    return make


def _damaged_jpeg(data: bytes) -> bytes:
    frames = avi_frames(data)
    frames[DROPPED_AT] = bytes(200) + frames[DROPPED_AT][200:]  # its headers overwritten
    return avi_with_frames(data, frames)


def _damaged_packets(data: bytes) -> bytes:
    start, size = mp4_box(data, b"mdat")
    return overwritten(data, (start + 0.4 * size) / len(data), 30000)


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "zero_byte_frame.avi": _empty_frames(DROPPED_AT, 1),
    "dropped_frames.avi": _empty_frames(DROPPED_AT, DROPPED),
    "damaged_jpeg.avi": _damaged_jpeg,
    "damaged_packets.mp4": _damaged_packets,
    "timestamps_jump.mp4": lambda data: mp4_with_time_gaps(data, {TIME_GAP_AT: TIME_GAP}),
    "truncated.mp4": lambda data: (lambda first: first[: len(first) * 2 // 3])(mp4_index_first(data)),
    "missing_index.mp4": lambda data: data[: mp4_box(data, b"moov")[0]],
}


def _analyse(folder: Path, name: str, out: Path, capsys) -> tuple[int, dict, str]:
    code = main(["analyze", str(folder / name), "--out", str(out), "--referee"])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, json.loads((out / "analysis.json").read_text()), err


@pytest.fixture(scope="module")
def clean(files: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The analyses of the undamaged files, by suffix."""
    docs = {}
    for suffix in ("avi", "mp4"):
        out = tmp_path_factory.mktemp(f"clean-{suffix}")
        assert main(["analyze", str(files / f"clean.{suffix}"), "--out", str(out), "--referee"]) == 0
        docs[suffix] = json.loads((out / "analysis.json").read_text())
    return docs


ROWS = [
    # file, exit status, words of the error (None: none), frames missing, frames undecodable (-1: some)
    ("zero_byte_frame.avi", 0, None, 1, 0),
    ("dropped_frames.avi", 0, None, DROPPED, 0),
    ("damaged_jpeg.avi", 0, None, 0, 0),
    ("damaged_packets.mp4", 0, None, 0, -1),
    # OpenCV stops TIME_GAP - 1 frames before the end of this whole file (it numbers frames by
    # their timestamps): counted as not given, not "ended early" (before: exit status 1)
    ("timestamps_jump.mp4", 0, None, TIME_GAP, TIME_GAP - 1),
    ("truncated.mp4", 1, ["truncated.mp4", "ended early", "truncated"], 0, 0),
]


@pytest.mark.parametrize(
    ("name", "status", "error", "missing", "undecodable"),
    ROWS,
    ids=[row[0].replace(".", "_") for row in ROWS],
)
def test_a_damaged_video_counts_what_it_lacks_and_keeps_every_time_stroke_and_call(
    files, clean, tmp_path, capsys, name, status, error, missing, undecodable
):
    code, doc, err = _analyse(files, name, tmp_path / "out", capsys)
    assert code == status, err
    video = doc["video"]
    assert video["frames_missing"] == missing, video
    if undecodable < 0:
        assert video["frames_undecodable"] > 0, video
    else:
        assert video["frames_undecodable"] == undecodable, video
    gaps = video["gaps"]
    assert sum(g["missing_frames"] for g in gaps) == missing + video["frames_undecodable"]
    for gap in gaps:  # said on stderr as it came, where it came
        assert gap["why"] in ("missing at the source", "not decodable", "not given by the decoder")
        assert f"after frame {gap['after_frame']}" in err or f"frames {gap['after_frame'] + 1}-" in err
    if error is None:
        assert doc["complete"] is True and "error" not in doc
    else:
        line = next(x for x in err.splitlines() if x.startswith("snooker-referee analyze: error: "))
        assert all(word in line for word in error), line
        assert doc["complete"] is False and doc["error"] in line
    before = clean[name.rsplit(".", 1)[1]]
    # every frame at its own time, its number's on the undamaged file's grid: a gap does not shift
    # the frames after it (and leaves a hole in the numbers)
    assert [f["t"] for f in before["frames"]] == pytest.approx(
        [f["i"] / FPS for f in before["frames"]], abs=TIME_TOLERANCE_S
    )
    assert doc["frames"] and [f["t"] for f in doc["frames"]] == pytest.approx(
        [f["i"] / FPS for f in doc["frames"]], abs=TIME_TOLERANCE_S
    )
    # every stroke and call the undamaged file has, where the damaged one was read that far
    last = doc["frames"][-1]["i"]
    kept = [s for s in before["strokes"] if s["end_frame"] < last]
    assert kept, "the damage left no stroke to compare"
    for was, now in zip(kept, doc["strokes"], strict=False):
        assert now["first_contact"] == was["first_contact"]
        assert [p["ball"] for p in now["potted"]] == [p["ball"] for p in was["potted"]]
        assert abs(now["start_frame"] - was["start_frame"]) <= SAME_PLACE_FRAMES
        assert abs(now["end_frame"] - was["end_frame"]) <= SAME_PLACE_FRAMES
    calls = [r["announcements"] for r in doc["rulings"]]
    assert calls[: len(kept)] == [r["announcements"] for r in before["rulings"][: len(kept)]]


def test_an_mp4_without_its_index_is_refused_by_naming_it(files, tmp_path, capsys):
    code = main(["analyze", str(files / "missing_index.mp4"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    line = next(x for x in err.splitlines() if x.startswith("snooker-referee analyze: error: "))
    assert all(word in line for word in ("missing_index.mp4", "'moov'", "cut off")), line


def test_a_picture_that_changes_size_is_said_and_the_table_found_again_at_once(tmp_path, capsys):
    # OpenCV scales a video's frames to its first size, so a size change arrives as stills: the
    # demo clip's frames from 150 on at two thirds of the size
    folder = tmp_path / "stills"
    folder.mkdir()
    for k, image in enumerate(_images()):
        if k >= RESIZED_FROM:
            image = cv2.resize(image, (image.shape[1] * 2 // 3, image.shape[0] * 2 // 3))
        cv2.imwrite(str(folder / f"{k:04d}.png"), image)
    code = main(["analyze", str(folder), "--out", str(tmp_path / "out"), "--referee"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"the picture changed size at frame {RESIZED_FROM} (960x540 → 640x360)" in err
    doc = json.loads((tmp_path / "out" / "analysis.json").read_text())
    assert doc["skipped_frames"] == {}  # no frame read against the view of the other size
    assert [r["announcements"] for r in doc["rulings"]] == [["ONE"], ["FOUR"]]


RESIZED_FROM = 150
"""The first still of the smaller size (the second stroke runs, frames 121-228)."""


JOINED_AT = 150
"""The first frame of the joined stream's second part, coded at two thirds of the size (the second
stroke runs, frames 121-228)."""
SECOND_SIZE = (640, 360)
"""The second part's size (width, height)."""


@pytest.fixture(scope="module")
def joined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo clip as an MPEG transport stream whose frames from JOINED_AT on are coded at
    SECOND_SIZE: two recordings joined by concatenation (as a recorder or a broadcast's quality
    switch leaves them). OpenCV gives every frame at the first size."""
    folder = tmp_path_factory.mktemp("joined")
    images = _images()
    parts = []
    for name, part, size in (("a", images[:JOINED_AT], (960, 540)), ("b", images[JOINED_AT:], SECOND_SIZE)):
        writer = cv2.VideoWriter(str(folder / f"{name}.ts"), cv2.VideoWriter_fourcc(*"mp4v"), FPS, size)
        for image in part:
            writer.write(cv2.resize(image, size, interpolation=cv2.INTER_AREA))
        writer.release()
        parts.append((folder / f"{name}.ts").read_bytes())
    (folder / "joined.ts").write_bytes(b"".join(parts))
    return folder / "joined.ts"


def test_a_video_that_changes_size_is_read_at_each_size_and_the_table_found_again(joined, tmp_path, capsys):
    # Before: nothing said, every frame read at 960x540 (OpenCV scales the second part up to it)
    code = main(["analyze", str(joined), "--out", str(tmp_path / "out"), "--referee"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"the picture changes size at frame {JOINED_AT} (960x540 → 640x360)" in err
    assert f"changed size at frame {JOINED_AT} (960x540 → 640x360): looking for the table again" in err
    doc = json.loads((tmp_path / "out" / "analysis.json").read_text())
    assert (doc["video"]["width"], doc["video"]["height"]) == SECOND_SIZE
    assert len(doc["calibration"]["views"]) >= 2  # the table found again at the new size
    assert [r["announcements"] for r in doc["rulings"]] == [["ONE"], ["FOUR"]]


def test_a_calibration_stops_by_name_where_the_video_changes_size_keeping_what_was_read(
    joined, tmp_path, capsys
):
    # a calibration is made for one picture size: the frames of the other cannot be placed by it
    calibration = CLIP.with_suffix(".calibration.json")
    out = tmp_path / "out"
    code = main(["analyze", str(joined), "--out", str(out), "--referee", "--calibration", str(calibration)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    line = next(x for x in err.splitlines() if x.startswith("snooker-referee analyze: error: "))
    words = ("joined.ts", f"from frame {JOINED_AT} on", "960x540", "640x360")
    assert all(word in line for word in words), line
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is False and doc["frames"][-1]["i"] == JOINED_AT - 1
    assert doc["rulings"][0]["announcements"] == ["ONE"]  # the first stroke, read whole, kept
    assert (out / "frame_log.jsonl").read_text().strip()
