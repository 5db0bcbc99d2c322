"""An analysis stopped part-way (Ctrl-C at a terminal, SIGTERM from `timeout` or a service manager,
both sent to the whole process group) writes what it had read: the frames the tracking worker
tracked and the strokes they held, marked incomplete, with a one-line error and no traceback."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from snooker.datasets.damaged import read_images

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"
REPEATS = 4
"""Times the demo clip is written into the long video: long enough to be stopped part-way."""
STOP_AFTER_FRAMES = 120
"""Frames the progress bar must show before the signal is sent."""
TRACKED_BEHIND_FRAMES = 20
"""Frames the tracks written may trail those read: the tracking worker runs a batch behind."""
PROGRESS = re.compile(r"(\d+)/\d+ \[")


@pytest.fixture(scope="module")
def long_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The demo clip written ``REPEATS`` times into one video, and its frame count."""
    path = tmp_path_factory.mktemp("long") / "long.avi"
    images = read_images(CLIP)
    height, width = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (width, height))
    for _ in range(REPEATS):
        for image in images:
            writer.write(image)
    writer.release()
    return path, REPEATS * len(images)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl_c", "sigterm"])
def test_an_analysis_stopped_part_way_writes_what_it_read(
    long_video: tuple[Path, int], tmp_path: Path, signum: int
):
    video, frames = long_video
    out = tmp_path / "out"
    command = [sys.executable, "-c", "import sys; from snooker.cli import main; sys.exit(main())"]
    process = subprocess.Popen(
        [*command, "analyze", str(video), "--out", str(out), "--referee"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal or `timeout` gives it
    )
    seen = b""
    assert process.stderr is not None
    while True:
        chunk = os.read(process.stderr.fileno(), 4096)
        assert chunk, f"the analysis ended before it could be stopped: {seen.decode(errors='replace')[-500:]}"
        seen += chunk
        counts = [int(n) for n in PROGRESS.findall(seen.decode(errors="replace"))]
        if counts and counts[-1] >= STOP_AFTER_FRAMES:
            break
    os.killpg(process.pid, signum)  # the frame loop and its tracking worker alike
    _, rest = process.communicate(timeout=120)
    err = (seen + rest).decode(errors="replace")
    assert process.returncode == 1, err[-2000:]
    assert "Traceback" not in err
    assert "snooker-referee analyze: error: interrupted" in err
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is False and doc["error"] == "interrupted"
    read = doc["video"]["frames"]
    assert STOP_AFTER_FRAMES <= read < frames
    assert len(doc["frames"]) >= STOP_AFTER_FRAMES - TRACKED_BEHIND_FRAMES  # the worker's tracks came back
    assert doc["strokes"], "the demo clip's first stroke (frames 16-82) was tracked before the stop"
    assert json.loads((out / "frame_log.jsonl").read_text().splitlines()[0])["type"] == "match"


SEGMENTS_SCRIPT = """
import sys
import time
from pathlib import Path
from snooker.app.analyze import AnalyzeOptions, analyze_segments
from snooker.pipeline.segments import Segment
video, out, half = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
sys.exit(analyze_segments(video, out, AnalyzeOptions(referee=True), [Segment(0, half), Segment(half, None)]))
"""
"""A long video's two segments analysed at once, as `analyze --jobs 2` does where it is long enough."""
LATER_SEGMENT_READ_FRAMES = 60
"""Frames the later segment must have read (one hand-over line each) before the signal is sent."""


def _lines_in(pattern: str, folder: Path) -> int:
    return sum(len(path.read_bytes().splitlines()) for path in folder.glob(pattern))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl_c", "sigterm"])
def test_a_video_analysed_in_segments_stopped_part_way_writes_what_the_first_read(
    long_video: tuple[Path, int], tmp_path: Path, signum: int
):
    """Each segment's worker process gets the signal too (it goes to the whole group): a worker in
    its frame loop stops and returns what it read; it must not die of it, nor of the command
    passing the signal on."""
    video, frames = long_video
    out, handover = tmp_path / "out", tmp_path / "handover"
    handover.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-c", SEGMENTS_SCRIPT, str(video), str(out), str(frames // 2)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(handover)},  # where the segments' hand-over files are made
    )
    while _lines_in("snooker-segments-*/quiet-1.jsonl", handover) < LATER_SEGMENT_READ_FRAMES:
        assert process.poll() is None, process.communicate()[1].decode(errors="replace")[-2000:]
        time.sleep(0.05)
    os.killpg(process.pid, signum)
    _, err_bytes = process.communicate(timeout=120)
    err = err_bytes.decode(errors="replace")
    assert process.returncode == 1, err[-2000:]
    assert "Traceback" not in err and "BrokenProcessPool" not in err
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is False and "interrupted" in doc["error"]
    assert len(doc["frames"]) >= LATER_SEGMENT_READ_FRAMES // 2, doc["error"]  # the first segment's frames


def _raised(make):
    try:
        make()
    except SystemError as exc:
        return exc
    raise AssertionError("nothing raised")


def _kernel_interrupted():
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as interrupt:
        raise SystemError("kernel returned a result with an exception set") from interrupt


def _kernel_in_a_kernel_interrupted():
    try:
        _kernel_interrupted()
    except SystemError as inner:
        raise SystemError("outer kernel returned a result with an exception set") from inner


def test_an_interrupt_inside_compiled_kernels_is_told_from_a_real_system_error():
    from snooker.app.analyze import _is_interrupt

    assert _is_interrupt(_raised(_kernel_interrupted))
    assert _is_interrupt(_raised(_kernel_in_a_kernel_interrupted))
    assert not _is_interrupt(SystemError("a real one"))
