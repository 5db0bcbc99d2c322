"""The tracking stage in a worker process: the same records and strokes as in the frame loop, and a
worker that fails or stops is said, not hidden."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.pipeline.analyze import VideoAnalysis, frame_log_lines
from snooker.pipeline.tracking import PUSH_BATCH_FRAMES, TrackingStage, TrackingWorker, TrackingWorkerError
from snooker.tracker import StrokeConfig, TrackerConfig
from snooker.vision.types import BallDetections, Frame

SCALE = 0.25  # px per mm of the fake camera
CUT_FRAMES = range(60, 80)


class TopDownView:
    """A top-down camera: px = mm * SCALE (y flipped). Module level: the worker unpickles it."""

    def __init__(self, shift_px: float = 0.0) -> None:
        self.shift_px = shift_px
        self.fit_error_px = 0.5

    def table_to_image(self, xy_mm, height_mm=0.0):
        xy = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        return np.column_stack([xy[:, 0] * SCALE + self.shift_px, 900 - xy[:, 1] * SCALE])

    def image_to_table(self, xy_px):
        xy = np.asarray(xy_px, dtype=float).reshape(-1, 2)
        return np.column_stack([(xy[:, 0] - self.shift_px) / SCALE, (900 - xy[:, 1]) / SCALE])

    def ball_radius_px(self, xy_mm):
        return np.full(len(np.atleast_2d(xy_mm)), STANDARD_TABLE.ball_radius_mm * SCALE)


def _detect(image, view):
    """Two strokes of the white up and down the table beside a red at rest; a cut away from the
    table at frames 60-79 (the camera comes back moved 4 px), and the white unseen after frame 150
    (held: its record is placed by the view)."""
    i = int(image[1, 1, 1])
    if i < 40:
        white_y = 1000.0 + max(0, i - 10) * 40.0
    elif i < 100:
        white_y = 2200.0
    else:
        white_y = 2200.0 - min(i - 100, 30) * 40.0
    mm = [[300.0, 3000.0]] + ([[889.0, white_y]] if i <= 150 else [])
    names = ["red"] + (["white"] if i <= 150 else [])
    mm_array = np.asarray(mm, dtype=float).reshape(-1, 2)
    return BallDetections(
        view.table_to_image(mm_array), [6.0] * len(names), names, [1.0] * len(names), mm_array
    )


def _frames(n: int):
    for i in range(n):
        image = np.zeros((8, 8, 3), dtype=np.uint8)
        image[0, 0, 0] = i in CUT_FRAMES
        image[1, 1, 1] = i
        yield Frame(i, i / 30.0, image)


def _views():
    """The first table, then the camera moved 4 px, found during the cut."""
    found = iter([TopDownView(), TopDownView(shift_px=4.0)])
    return lambda image: next(found)


def _analyse(worker: TrackingWorker | None) -> VideoAnalysis:
    analysis = VideoAnalysis(
        _detect,
        find_table=_views(),
        shows_table=lambda image, view: image[0, 0, 0] == 0 or view.shift_px == 4.0,
        fixed_view=False,
        tracking_worker=worker,
    )
    outcomes = [analysis.process(frame) for frame in _frames(200)]
    assert all(o.tracked_elsewhere == (worker is not None) for o in outcomes if o.skipped is None)
    if worker is not None:
        assert all(o.state is None and not o.strokes for o in outcomes)
    analysis.finish()
    return analysis


@pytest.fixture(scope="module")
def worker():
    with TrackingWorker() as started:
        started.wait_started()
        yield started


def test_a_worker_gives_the_records_and_strokes_of_the_frame_loop(worker):
    here = _analyse(None)
    there = _analyse(worker)
    assert here.tracking_error is None and there.tracking_error is None
    assert len(here.strokes) == 2
    assert there.frames == here.frames
    assert frame_log_lines(there.strokes) == frame_log_lines(here.strokes)
    assert [s.position_tolerance_mm for s in there.strokes] == [s.position_tolerance_mm for s in here.strokes]
    assert there.segmenter.outside_events == here.segmenter.outside_events
    assert there.analysis({"path": "x"}) == here.analysis({"path": "x"})
    assert [v["found"] for v in here.views] == [True, True]  # the camera moved during the cut
    held = [b for b in there.frames[-1]["balls"] if b["ball"] == "white"]
    assert not held[0]["visible"] and held[0]["x_px"] == pytest.approx(889.0 * SCALE + 4.0, abs=0.1)


def test_the_worker_tracks_one_video_after_another(worker):
    first = _analyse(worker)
    second = _analyse(worker)
    assert second.frames == first.frames and len(second.strokes) == 2


def test_the_worker_says_the_cpu_each_video_took_there(worker):
    # its own process's clock from each video's start to its end; none where the frame loop tracks
    for analysis in (_analyse(worker), _analyse(worker)):
        times = analysis.stage.times
        assert times.worker_cpu_s is not None and times.worker_cpu_s > 0
    assert _analyse(None).stage.times.worker_cpu_s is None


def test_finish_hands_out_every_stroke_the_worker_found(worker):
    analysis = VideoAnalysis(
        _detect, find_table=_views(), shows_table=lambda image, view: True, tracking_worker=worker
    )
    for frame in _frames(200):
        analysis.process(frame)
    assert analysis.finish() == analysis.strokes and len(analysis.strokes) == 2
    assert analysis.finish() == []


def test_an_error_in_the_worker_is_said_at_the_end_and_the_worker_goes_on(worker):
    worker.begin(TrackingStage(TrackerConfig(), StrokeConfig(), 1.0))
    worker.push(0, 0.0, "not detections")  # type: ignore[arg-type]
    worker.push(1, 0.1, "nor these")  # type: ignore[arg-type]
    with pytest.raises(TrackingWorkerError, match="tracking failed in the worker process"):
        worker.end()
    assert len(_analyse(worker).strokes) == 2


def test_a_worker_that_stopped_is_a_clear_error_and_the_analysis_still_finishes():
    with TrackingWorker() as worker:
        worker.wait_started()
        analysis = VideoAnalysis(
            _detect, find_table=_views(), shows_table=lambda image, view: True, tracking_worker=worker
        )
        frames = _frames(200)
        analysis.process(next(frames))
        worker._process.kill()
        worker._process.wait()
        with pytest.raises(TrackingWorkerError, match="stopped"):
            for frame in frames:  # the pipe takes a few frames before it breaks
                analysis.process(frame)
        assert analysis.finish() == []
        assert analysis.tracking_error is not None and "stopped" in analysis.tracking_error


def test_a_worker_tracks_one_video_at_a_time(worker):
    worker.begin(TrackingStage(TrackerConfig(), StrokeConfig(), 1.0))
    with pytest.raises(TrackingWorkerError, match="already tracking"):
        worker.begin(TrackingStage(TrackerConfig(), StrokeConfig(), 1.0))
    stage, closed = worker.end()
    assert stage.frames == [] and closed == []
    with pytest.raises(TrackingWorkerError, match="tracking no video"):
        worker.end()


def test_frames_are_sent_to_the_worker_in_batches_all_tracked(worker, monkeypatch):
    sent: list[tuple] = []
    send = worker._to_worker.send

    def counted(message):
        sent.append(message)
        send(message)

    monkeypatch.setattr(worker._to_worker, "send", counted)
    worker.begin(TrackingStage(TrackerConfig(), StrokeConfig(), 1.0))
    worker.view(TopDownView())
    at_rest = _detect(np.full((8, 8, 3), 5, np.uint8), TopDownView())
    frames = 3 * PUSH_BATCH_FRAMES + 1
    for i in range(frames):
        worker.push(i, i / 30.0, at_rest)
    stage, _ = worker.end()
    assert [m[0] for m in sent] == ["begin", "batch", "batch", "batch", "batch", "end"]
    assert sum(len(m[1]) for m in sent if m[0] == "batch") == frames + 1  # and the view
    assert len(stage.frames) == frames
    assert [f["balls"] for f in stage.frames[1:]] == [stage.frames[1]["balls"]] * (frames - 1)
