"""The benchmark machinery on tiny inputs: structure and bookkeeping, never a time threshold."""

from __future__ import annotations

import copy
import itertools
import math
import os
import types
from dataclasses import replace

import cv2
import numpy as np
import pytest

from snooker.pipeline import bench
from snooker.pipeline.analyze import AnalysisConfig, VideoAnalysis
from snooker.pipeline.bench import (
    STAGES,
    BenchConfig,
    BenchError,
    RollingClipConfig,
    StageClock,
    format_report,
    projected_ratios,
    rest_to_ruling,
    rolling_clip,
    summarise_ms,
    throughput,
    yolo_note,
    yolo_realtime_analysis,
)
from snooker.pipeline.bench import run as bench_run
from snooker.pipeline.bench.throughput import run_pipeline, startup_drops
from snooker.vision.classic import ClassicDetector
from snooker.vision.types import BallDetections, Frame

TINY_STROKE = RollingClipConfig(
    fps=10.0, still_before_s=0.3, still_after_s=1.0, speed_mm_s=700.0, deceleration_mm_s2=1000.0
)
"""A 0.7 s roll at 10 fps (20 frames): enough for the tracker to confirm, cut and rule a stroke."""


class FakeClock:
    """A clock that advances by a fixed step each time it is read (seconds)."""

    def __init__(self, step_s: float) -> None:
        self._ticks = itertools.count()
        self.step_s = step_s

    def __call__(self) -> float:
        return next(self._ticks) * self.step_s


def test_stage_clock_charges_each_stage_and_leaves_the_rest_of_process_to_other():
    clock = StageClock(now=FakeClock(0.001))
    detect = clock.wrap("detection", lambda: None)
    with clock.measure("decode"):
        pass
    with clock.measure("process"):
        detect()
    row = clock.end_frame()
    # each measure reads the clock twice: decode 1 tick, detection 1 tick, process 4 ticks (2 inside)
    assert row["decode"] == pytest.approx(0.001)
    assert row["detection"] == pytest.approx(0.001)
    assert row["other"] == pytest.approx(0.002)
    assert set(row) == set(STAGES)
    assert clock.per_stage()["detection"] == [pytest.approx(0.001)]


def test_a_timed_method_survives_a_deep_copy_of_its_object():
    """The tracking stage saves its tracker at each cut (``copy.deepcopy``); the bench has timed
    the tracker's ``update`` in place, and a copy must time its own."""
    clock = StageClock(now=FakeClock(0.001))
    holder = types.SimpleNamespace(value=3)
    holder.read = clock.wrap("tracking", lambda: holder.value)
    copied = copy.deepcopy(holder)
    assert copied.read() == 3 and callable(copied.read)
    with pytest.raises(AttributeError):
        _ = copied.read.__wrapped_nothing__


def _run_cutting_away(other_view):
    """The bench's timed frame loop over six frames, the third and fourth of another view."""
    analysis = VideoAnalysis(
        lambda image, view: BallDetections.empty(),
        view=object(),
        shows_table=lambda image, view: image[0, 0, 0] == 0,
        other_view=other_view,
    )
    frames = [Frame(i, i / 30.0, np.full((8, 8, 3), 1 if i in (2, 3) else 0, np.uint8)) for i in range(6)]
    return run_pipeline(iter(frames), analysis.detector, analysis=analysis)


def test_the_cue_ball_looked_for_in_other_views_is_timed_as_its_own_stage():
    looked: list[int] = []

    def other_view(frame: Frame) -> None:
        looked.append(frame.index)

    run = _run_cutting_away(other_view)
    assert looked == [2, 3]
    assert run.skipped == {"frame does not show the table": 2}
    rows = run.clock.rows
    assert [row["other_view"] > 0 for row in rows] == [False, False, True, True, False, False]
    assert all(row["detection"] == 0 for row in rows[2:4])


def test_a_timed_stage_keeps_the_methods_the_frame_loop_calls_on_it():
    """The other view's follower is reset when the table comes back and made known the frames
    read ahead: wrapped for timing, it must be still (before, its reset was lost in the bench)."""

    class Follower:
        resets = 0

        def __call__(self, frame: Frame) -> None:
            return None

        def reset(self) -> None:
            self.resets += 1

    follower = Follower()
    run = _run_cutting_away(follower)
    assert follower.resets == 1
    assert sum(row["other_view"] > 0 for row in run.clock.rows) == 2


def test_stage_clock_rejects_an_unknown_stage():
    with pytest.raises(KeyError, match="rendering"), StageClock().measure("rendering"):
        pass


@pytest.mark.parametrize(
    ("seconds", "median_ms", "p95_ms"),
    [([0.001, 0.002, 0.003], 2.0, 2.9), ([0.010], 10.0, 10.0)],
)
def test_summaries_are_in_milliseconds(seconds, median_ms, p95_ms):
    summary = summarise_ms(seconds)
    assert summary["median_ms"] == pytest.approx(median_ms)
    assert summary["p95_ms"] == pytest.approx(p95_ms)
    assert summary["total_ms"] == pytest.approx(sum(seconds) * 1000)


def test_empty_summary_is_not_a_number():
    assert math.isnan(summarise_ms([])["median_ms"])


@pytest.mark.parametrize("bad", [{"max_frames_per_clip": 0}, {"yolo_repeats": 1}, {"realtime_fps": 0.0}])
def test_bench_config_refuses_nonsense(bad):
    with pytest.raises(ValueError):
        BenchConfig(**bad)


def test_a_missing_clip_is_named(tmp_path):
    missing = tmp_path / "nope.mp4"
    with pytest.raises(BenchError, match=r"nope\.mp4"):
        bench.run_bench(BenchConfig(clips=(missing,)), report=lambda line: None)


def test_an_undecodable_clip_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"not a video")
    with pytest.raises(BenchError, match=r"broken\.mp4"):
        bench.decode_clip(broken, 10)


def test_yolo_analysis_needs_the_speedup_the_budget_implies_and_every_nth_only_helps():
    network = {
        "sizes": [
            {"ball_radius_px": 8.0, "height": 576, "width": 768, "torch": {"median_ms": 300.0}},
            {
                "ball_radius_px": 4.0,
                "height": 288,
                "width": 384,
                "torch": {"median_ms": 100.0},
                "onnxruntime": {"median_ms": 60.0},
            },
        ]
    }
    analysis = yolo_realtime_analysis(network, rest_fraction=0.75, realtime_fps=30.0, every_nth=(1, 2, 5))
    assert analysis["budget_ms"] == pytest.approx(33.33, abs=0.01)
    assert [o["runtime"] for o in analysis["options"]] == ["torch", "torch", "onnxruntime"]
    for option in analysis["options"]:
        assert option["speedup_needed"] == pytest.approx(option["ms_per_frame"] / (1000 / 30), abs=0.01)
        thinned = [option["every_nth_at_rest_ms"][n] for n in ("1", "2", "5")]
        assert thinned[0] == pytest.approx(option["ms_per_frame"], abs=0.1)
        assert thinned == sorted(thinned, reverse=True)
        # moving frames are always detected: never below the moving share of the cost
        assert thinned[-1] >= option["ms_per_frame"] * 0.25


@pytest.mark.parametrize(
    ("small_ms", "share", "says"),
    [
        (20.0, None, ["Real time needs onnxruntime at 288x384", "20 ms"]),
        (60.0, None, ["still 1.8x", "every 2th frame"]),
        (150.0, 0.25, ["every 5th frame", "on 25% of the frames"]),
    ],
)
def test_yolo_note_says_what_would_make_it_real_time(small_ms, share, says):
    network = {
        "model": "shipped weights balls_yolo11n.pt",
        "parameters": 2_600_000,
        "weights_file_mib": 5.4,
        "sizes": [
            {"ball_radius_px": 8.0, "height": 576, "width": 768, "torch": {"median_ms": 300.0}},
            {"ball_radius_px": 4.0, "height": 288, "width": 384, "onnxruntime": {"median_ms": small_ms}},
        ],
    }
    realtime = yolo_realtime_analysis(network, rest_fraction=None, realtime_fps=30.0, every_nth=(2,))
    note = yolo_note(network, realtime, share)
    assert "2.6 M parameters, 5.4 MiB of weights" in note
    assert "576x768" in note and "300 ms with torch" in note and "9.0x" in note
    for text in says:
        assert text in note, note
    assert ("of the frames" in note) == (share is not None)


@pytest.mark.parametrize(
    ("seen", "startup"),
    [
        ([], None),
        ([(0, False), (1, False)], None),
        ([(0, True), (1, True), (2, True)], 0),
        ([(0, True), (9, True), (12, True)], 8),
        ([(0, False), (3, True), (10, True), (11, True)], 8),
        ([(0, False), (5, True)], 4),
    ],
)
def test_drops_while_the_table_is_first_found_are_told_apart(seen, startup):
    assert startup_drops(seen) == startup


def _stage_summary(mean_ms: dict[str, float], tracked: int, at_rest: int) -> dict:
    stages = {stage: {"mean_ms": mean_ms.get(stage, 0.0)} for stage in STAGES}
    return {"stages": stages, "frames_tracked": tracked, "frames_all_at_rest": at_rest}


@pytest.mark.parametrize("at_rest", [0, 50, 100])
def test_projections_only_thin_detection_and_the_view_check(at_rest):
    summary = _stage_summary(
        {"decode": 5.0, "calibration": 20.0, "detection": 70.0, "tracking": 5.0}, 100, at_rest
    )
    decode_fps = 200.0
    projected = projected_ratios(summary, decode_fps, every_nth=(1, 2, 10))
    measured = 1000.0 / 100.0 / decode_fps
    assert projected["rest_fraction"] == at_rest / 100
    assert projected["detect_every_nth_at_rest"]["1"] == pytest.approx(measured, abs=1e-4)
    detect_only = [projected["detect_every_nth_at_rest"][n] for n in ("1", "2", "10")]
    assert detect_only == sorted(detect_only)
    if at_rest == 0:
        assert detect_only == [pytest.approx(measured, abs=1e-4)] * 3
    # thinning can never beat a pipeline without detection and view check at all
    assert projected["and_check_view_every_nth"]["10"] < 1000.0 / 10.0 / decode_fps


@pytest.fixture(scope="module")
def tiny_stroke():
    """The stroke, rendered once (its frames are replayed from memory)."""
    clip = rolling_clip(TINY_STROKE, seed=3)
    frames = list(clip.frames())
    return replace(clip, frames=lambda: iter(frames))


def test_rest_to_ruling_on_a_tiny_synthetic_stroke(tiny_stroke):
    config = AnalysisConfig()
    result = rest_to_ruling(tiny_stroke, ClassicDetector(), config)
    assert result["frames"] == tiny_stroke.rest_frame + math.ceil(TINY_STROKE.still_after_s * TINY_STROKE.fps)
    assert result["strokes"] == 1
    assert result["referee_errors"] == []
    assert result["emitted_frame"] is not None, result
    # the stroke cannot be ruled before the balls rest, and not later than the segmenter's rest
    # duration plus its motion window (in frames) and a frame of slack each
    waiting_s = config.strokes.rest_duration_s + config.tracker.motion.rest_window_s
    assert 0 <= result["latency_frames"] <= math.ceil(waiting_s * TINY_STROKE.fps) + 2
    assert result["latency_video_ms"] == pytest.approx(
        result["latency_frames"] / TINY_STROKE.fps * 1000, abs=0.1
    )
    assert 0 < result["ruling_frame_ms"] <= result["processing_ms"]


def _write_clip(path, images, fps):
    height, width = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
    assert writer.isOpened()
    for image in images:
        writer.write(image)
    writer.release()


def test_throughput_compares_the_pipeline_with_plain_decoding_of_the_same_frames(tmp_path, tiny_stroke):
    frames = list(itertools.islice(tiny_stroke.frames(), 8))
    clip = tmp_path / "tiny.mp4"
    _write_clip(clip, [f.image for f in frames], TINY_STROKE.fps)
    detectors = {"classic": ClassicDetector()}
    result = throughput(
        (clip,), detectors, 6, AnalysisConfig(), report=lambda line: None, view=tiny_stroke.view
    )

    (entry,) = result["clips"]
    assert (entry["width"], entry["height"]) == TINY_STROKE.image_size
    assert entry["decode"]["frames"] == 6
    total = result["total"]
    classic = total["classic"]
    assert classic["frames"] == 6
    assert classic["fps"] > 0 and total["decode"]["fps"] > 0
    assert classic["ratio_to_decode"] == pytest.approx(classic["fps"] / total["decode"]["fps"], abs=1e-4)
    # also against the faster of OpenCV's decoding and the one-thread decoding the pipeline uses
    fastest = max(total["decode"]["fps"], total["decode_one_thread"]["fps"])
    assert total["decode_one_thread"]["frames"] == 6
    assert classic["ratio_to_fastest_decode"] == pytest.approx(classic["fps"] / fastest, abs=1e-4)
    assert classic["ratio_to_fastest_decode"] <= classic["ratio_to_decode"] + 1e-4
    assert set(classic["stages"]) == set(STAGES)
    for stats in classic["stages"].values():
        assert stats["median_ms"] >= 0 and stats["p95_ms"] >= stats["median_ms"] - 1e-9
    # the stages account for the loop's time: never more, and all but the loop's own bookkeeping
    assert 0.9 * classic["wall_s"] <= classic["stage_sum_s"] <= classic["wall_s"] + 1e-6
    assert classic["frames_tracked"] + sum(classic["skipped"].values()) == classic["frames"]
    assert classic["frames_tracked"] == 6, classic["skipped"]
    assert classic["table_searches"] == {"made": 0, "skipped": 0}  # the view was given
    assert classic["stages"]["detection"]["total_ms"] > 0
    assert set(classic["projected"]["detect_every_nth_at_rest"]) == {"2", "5", "10"}
    # every tracked frame went through the detection gate: the first in full
    detection = classic["gates"]["detection"]
    assert sum(detection.values()) == 6 and detection["full"] >= 1
    assert sum(classic["gates"]["view_check"].values()) == 6
    # the detection stage's time split: its full detections and region searches lie within it
    spent = classic["gate_ms_per_frame"]["detection"]
    assert spent["full"] > 0 and spent["partial"] >= 0 and spent["second_look"] >= 0
    within = (spent["full"] + spent["partial"] + spent["second_look"]) * classic["frames"]
    assert within <= classic["stages"]["detection"]["total_ms"] + 0.01
    assert classic["gate_ms_per_frame"]["view_check"]["full"] > 0
    # the CPU the run used: the process's (no worker here), no more cores than the machine has
    cpu = classic["cpu"]
    assert cpu["process_ms_per_frame"] > 0 and cpu["worker_ms_per_frame"] is None
    assert cpu["cores_busy"] == pytest.approx(
        cpu["process_ms_per_frame"] * classic["frames"] / 1000.0 / classic["wall_s"], rel=0.01
    )
    assert 0 < cpu["cores_busy"] <= (os.cpu_count() or 1) + 0.05
    assert total["decode"]["cpu_ms_per_frame"] > 0 and total["decode_one_thread"]["cpu_ms_per_frame"] > 0


def test_a_whole_run_on_a_tiny_clip_gives_every_section_and_a_table(tmp_path, tiny_stroke, monkeypatch):
    clip = tmp_path / "tiny.mp4"
    _write_clip(clip, [f.image for f in itertools.islice(tiny_stroke.frames(), 6)], TINY_STROKE.fps)
    config = BenchConfig(
        clips=(clip,),
        detectors=("classic", "no-such-detector"),
        max_frames_per_clip=4,
        long_video=clip,
        memory_frames=2,
        live_clips=1,
        live_max_s=5.0,
        synthetic_clips=0,
        yolo_network=False,
    )
    real_memory = bench_run.memory
    memory_calls = []

    def memory_then_fail(*args, **kwargs):
        memory_calls.append(real_memory(*args, **kwargs))
        raise RuntimeError("measuring broke")

    monkeypatch.setattr(bench_run, "memory", memory_then_fail)
    doc = bench.run_bench(config, report=lambda line: None)

    assert doc["schema"] == bench.BENCH_SCHEMA
    assert doc["errors"] == {"memory": "RuntimeError: measuring broke"}, "a failure is recorded, not fatal"
    assert "memory" not in doc
    assert "no-such-detector" in doc["detectors_skipped"]
    assert doc["machine"]["usable_cpus"] >= 1
    assert doc["throughput"]["total"]["classic"]["frames"] == 4
    # the whole run tracks in a worker process beside the frame loop: its CPU is counted too
    cpu = doc["throughput"]["total"]["classic"]["cpu"]
    assert doc["throughput"]["total"]["classic"]["tracking_in_worker"]
    assert cpu["process_ms_per_frame"] > 0 and cpu["worker_ms_per_frame"] > 0
    batch = doc["batch"]["classic"]
    assert batch["frames"] == 4 and batch["jobs"] == 2 and batch["analyze_fps"] > 0
    assert batch["ratio_to_decode"] <= batch["ratio_to_decode_one_by_one"], "against the faster decoding"
    long = doc["long_video"]
    assert long["frames"] == 6 and long["one_process"]["analyze_fps"] > 0
    assert long["jobs_2"]["split"] is False and long["jobs_2"]["handed_over"] is False, "too short to split"
    (memory,) = memory_calls
    assert memory["frames"] == 2
    assert memory["tracemalloc_peak_mib"] > 0
    (live,) = doc["live"]["classic"]
    assert live["frames_processed"] + live["frames_dropped"] + live["frames_failed"] == live["frames_offered"]
    assert live["frames_read"] == 6
    peaks = list(doc["peak_rss_mib"].values())
    assert peaks == sorted(peaks), "a peak never falls"
    if live["dropped_finding_the_table"] is not None:
        parts = live["dropped_finding_the_table"] + live["dropped_after_the_table_was_found"]
        assert parts == live["frames_dropped"]
    tracked_live = live["frames_processed"] - live["frames_skipped_no_table"]
    assert sum(live["gates"]["detection"].values()) == tracked_live
    text = format_report(doc)
    assert "classic" in text and "decode" in text and "live classic tiny.mp4" in text
    assert "decode_one_thread" in text and "to fastest" in text
    assert "fast path, detection" in text
    assert "CPU, core-ms a frame: the frame loop's process" in text and "the tracking worker" in text
    assert "FAILED memory" in text
    assert "long video tiny.mp4 (6 frames)" in text and "too short to split" in text


def test_the_views_second_looks_are_told_apart_from_the_gates_own_work():
    from snooker.pipeline.bench.throughput import gate_seconds
    from snooker.vision.gating import GateCounts

    gate = types.SimpleNamespace(counts=GateCounts(full_s=0.5, partial_s=0.25, second_look_s=0.125))
    assert gate_seconds(gate) == {"full": 0.5, "partial": 0.25, "second_look": 0.125}
