"""The frame loop on synthetic frames: skipping frames without the table, outputs, the frame log."""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.pipeline.analyze import (
    ANALYSIS_SCHEMA,
    AnalysisConfig,
    FrameCueBall,
    FrameOutcome,
    VideoAnalysis,
    frame_log_lines,
)
from snooker.pipeline.evaluation import (
    ClipResult,
    PotTruth,
    image_pocket_numbers,
    iou,
    score_track,
    task2_units,
)
from snooker.vision import otherview
from snooker.vision.otherview import CueBallSighting, OtherViewConfig
from snooker.vision.sources import READ_AHEAD_FRAMES, open_source, read_ahead
from snooker.vision.types import BallDetections, Frame

SCALE = 0.25  # px per mm of the fake camera
CUT = "cut"


class FakeView:
    """A top-down camera: px = mm * SCALE (y flipped), so mapping is exact both ways."""

    def __init__(self) -> None:
        self.pockets_px = {
            name: (p.mouth_centre[0] * SCALE, 900 - p.mouth_centre[1] * SCALE)
            for name, p in STANDARD_TABLE.pockets.items()
        }
        self.corners_px = [[0, 0], [1, 0], [1, 1], [0, 1]]

    def table_to_image(self, xy_mm, height_mm=0.0):
        xy = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        return np.column_stack([xy[:, 0] * SCALE, 900 - xy[:, 1] * SCALE])

    def image_to_table(self, xy_px):
        xy = np.asarray(xy_px, dtype=float).reshape(-1, 2)
        return np.column_stack([xy[:, 0] / SCALE, (900 - xy[:, 1]) / SCALE])

    def ball_radius_px(self, xy_mm):
        return np.full(len(np.atleast_2d(xy_mm)), 26.25 * SCALE)


def _image(kind: str = "table") -> np.ndarray:
    image = np.zeros((8, 8, 3), dtype=np.uint8)
    image[0, 0, 0] = 1 if kind == CUT else 0
    return image


def _white_run_detector(frame_of_image):
    """Detector: the white struck at frame 10 rolls up the table; a red sits still."""

    def detect(image, view):
        i = frame_of_image(image)
        white_y = 1000.0 + max(0, i - 10) * 40.0 if i < 40 else 2200.0
        mm = np.array([[889.0, min(white_y, 2200.0)], [300.0, 3000.0]])
        return BallDetections(view.table_to_image(mm), [6.0, 6.0], ["white", "red"], [1.0, 1.0], mm)

    return detect


def _frames(n: int, cut: range = range(0)):
    for i in range(n):
        image = _image(CUT if i in cut else "table")
        image[1, 1, 1] = i % 256
        yield Frame(i, i / 30.0, image)


def _analysis(**kwargs) -> VideoAnalysis:
    return VideoAnalysis(
        _white_run_detector(lambda image: int(image[1, 1, 1])),
        find_table=lambda image: FakeView(),
        shows_table=lambda image, view: image[0, 0, 0] == 0,
        **kwargs,
    )


def test_a_stroke_is_found_and_written_as_a_frame_log_line():
    analysis = _analysis()
    for frame in _frames(120):
        analysis.process(frame)
    analysis.finish()
    assert len(analysis.strokes) == 1
    lines = frame_log_lines(analysis.strokes)
    assert lines[0]["type"] == "match" and lines[0]["schema"] == "snooker.log/1"
    # the white starts outside the D with one red on the table: a frame in play, not a break-off
    assert lines[1]["type"] == "table" and lines[1]["reds"] == 1 and not lines[1]["cue_in_hand"]
    stroke = lines[2]
    assert stroke["type"] == "stroke"
    assert stroke["first_contact"] == [] and stroke["potted"] == [] and stroke["cue_ball"] == "on_table"
    assert math.dist(stroke["positions"]["after"]["white"], [889.0, 2200.0]) < 1.0
    json.dumps(lines)


def test_frames_that_do_not_show_the_table_are_skipped_not_read():
    analysis = _analysis()
    for frame in _frames(90, cut=range(50, 70)):
        analysis.process(frame)
    analysis.finish()
    recorded = [rec["i"] for rec in analysis.frames]
    assert not set(recorded) & set(range(50, 70))
    assert analysis.skipped == {"frame does not show the table": 20}


def test_analysis_document_has_the_contract_fields():
    analysis = _analysis()
    for frame in _frames(100):
        analysis.process(frame)
    analysis.finish()
    doc = analysis.analysis({"path": "x.mp4", "fps": 30.0, "frames": 100, "width": 8, "height": 8})
    assert doc["schema"] == ANALYSIS_SCHEMA
    assert set(doc["calibration"]["pockets_px"]) == set(STANDARD_TABLE.pockets)
    ball = doc["frames"][-1]["balls"][0]
    assert {"id", "ball", "x_px", "y_px", "r_px", "x_mm", "y_mm"} <= set(ball)
    assert {
        "start_frame",
        "end_frame",
        "first_contact",
        "potted",
        "off_table",
        "cue_ball",
        "touching",
    } <= set(doc["strokes"][0])
    json.dumps(doc)


def test_no_table_anywhere_leaves_no_view_and_no_frames():
    def no_table(image):
        raise RuntimeError("no cloth")

    analysis = VideoAnalysis(_white_run_detector(lambda image: 0), find_table=no_table)
    for frame in _frames(30):
        analysis.process(frame)
    analysis.finish()
    assert analysis.view is None and analysis.frames == []
    assert analysis.skipped["no table found yet"] == 30


@pytest.mark.parametrize(
    ("truth", "answer", "units"),
    [
        (PotTruth(False), PotTruth(False), 4),
        (PotTruth(False), PotTruth(True, 1, "red"), 0),
        (PotTruth(True, 3, "red"), PotTruth(True, 3, "red"), 4),
        (PotTruth(True, 3, "red"), PotTruth(True, 4, "red"), 3),
        (PotTruth(True, 3, "red"), PotTruth(True, 4, "pink"), 2),
        (PotTruth(True, 3, "red"), PotTruth(False), 0),
    ],
)
def test_task2_units_follow_the_original_scoring(truth, answer, units):
    assert task2_units(truth, answer) == units


def test_pockets_are_numbered_by_their_place_in_the_image():
    # Baulk at the top of the image (as in many broadcast clips): baulk_right appears top-left.
    pockets = {
        "baulk_left": (915, 32),
        "baulk_right": (365, 36),
        "middle_left": (973, 266),
        "middle_right": (304, 270),
        "top_left": (1051, 620),
        "top_right": (222, 624),
    }
    assert image_pocket_numbers(pockets) == {
        "baulk_right": 1,
        "baulk_left": 2,
        "top_right": 3,
        "top_left": 4,
        "middle_right": 5,
        "middle_left": 6,
    }


def test_iou_of_boxes():
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(1 / 3)


def test_the_referee_accepts_the_strokes_unchanged():
    from snooker.referee import Referee

    analysis = _analysis()
    for frame in _frames(120):
        analysis.process(frame)
    analysis.finish()
    referee = Referee()
    rulings = [referee.apply(line) for line in frame_log_lines(analysis.strokes)]
    assert all("error" not in r for r in rulings), rulings
    assert rulings[-1]["type"] == "stroke" and rulings[-1]["foul"] is True  # the white hit nothing


def test_the_fast_path_finds_the_stroke_a_full_detection_of_every_frame_finds():
    """A cue ball rolling to rest (rendered with exact truth) through the real detector and view:
    the frame loop's fast path (gated detection and view check) cuts the same stroke, ending
    where the ball stopped, and looks again only at what changed."""
    from snooker.pipeline.bench import RollingClipConfig, rolling_clip
    from snooker.pipeline.evaluation import analysis_config
    from snooker.vision.classic import ClassicDetector

    clip = rolling_clip(
        RollingClipConfig(fps=10.0, still_before_s=0.5, still_after_s=1.0, speed_mm_s=700.0), seed=3
    )
    frames = list(clip.frames())
    runs = {}
    for fast in (True, False):
        analysis = VideoAnalysis(ClassicDetector(), view=clip.view, config=analysis_config(fast))
        for frame in frames:
            analysis.process(frame)
        analysis.finish()
        runs[fast] = analysis
    fast, full = runs[True], runs[False]
    assert len(fast.strokes) == len(full.strokes) == 1
    fast_line, full_line = fast.strokes[0].to_log_line(), full.strokes[0].to_log_line()
    assert set(fast_line["positions"]["after"]) == set(full_line["positions"]["after"])
    for ball, xy in full_line["positions"]["after"].items():
        assert math.dist(fast_line["positions"]["after"][ball], xy) < 5.0, ball
    assert abs(fast.strokes[0].end_frame - full.strokes[0].end_frame) <= 1
    # one full detection, then only changed regions (the render's noise changes a few places on
    # every frame); the view is checked on the first frame and every so many frames after
    counts = fast.detector.counts
    assert counts.full == 1 and counts.partial + counts.reused == len(frames) - 1
    every = fast.config.fast_path.view_check.every_frames
    assert fast.shows_table.counts.full == 1 + (len(frames) - 1) // every


def test_a_table_searched_in_the_background_skips_frames_until_it_is_found():
    """The frame loop never waits for the search: frames are skipped while it runs, and the view it
    found is read from the first frame after it finished."""
    release = threading.Event()
    searched: list[int] = []

    def slow_find(image):
        searched.append(int(image[1, 1, 1]))
        release.wait(timeout=30.0)
        return FakeView()

    analysis = _analysis(config=AnalysisConfig(find_table_in_background=True))
    analysis.find_table = slow_find
    frames = _frames(60)
    waiting = [analysis.process(next(frames)) for _ in range(5)]
    assert all(outcome.skipped == "no table found yet" for outcome in waiting)
    assert searched == [0] and analysis.view is None
    release.set()
    analysis._search.result(timeout=30.0)  # the search has ended; the next frame adopts its view
    first = analysis.process(next(frames))
    assert first.state is not None and analysis.view is not None
    assert analysis.views == [{"frame": 0, "found": True}]
    analysis.finish()


def test_a_long_run_of_other_views_is_searched_for_a_new_table_ever_more_rarely():
    """A replay or a break: after 15 frames the frames are searched for a moved camera's table,
    then after 10, 20, 40, 40... frames (a search of such a frame costs ~0.1 s); a shorter run
    later starts the schedule afresh. (Frames alike are searched more rarely still: not here.)"""
    analysis = _analysis(config=AnalysisConfig(unchanged_search_gap_frames=1))
    off_view = set(range(50, 250)) | set(range(270, 300))
    for i in range(310):
        image = _image(CUT if i in off_view else "table")
        image[1, 1, 1] = i % 256
        analysis.process(Frame(i, i / 30.0, image))
    analysis.finish()
    searched = [v["frame"] for v in analysis.views if not v["found"]]
    # run length r falls on frame 49 + r: searched at r = 15, 25, 45, 85, 125, 165; then 269 + 15, + 25
    assert searched == [64, 74, 94, 134, 174, 214, 284, 294]
    assert analysis.views[0] == {"frame": 0, "found": True}


def test_a_held_other_view_is_searched_again_once_it_changes_or_after_the_longest_gap():
    """No table anywhere: frames are searched every 10 frames, but one that looks like the frame
    the last search failed on is not (the search would fail the same way), until 40 frames have
    passed; a cut to another picture is searched at once (at the next of those frames). The same
    frames with the gate off are all searched."""
    calls = []

    def no_table(image):
        calls.append(int(image[0, 0, 1]))
        raise RuntimeError("no cloth")

    def frames():
        for i in range(200):
            image = np.full((64, 64, 3), 40 if i < 100 else 160, np.uint8)  # a cut at frame 100
            image[0, 0, 1] = i % 256
            yield Frame(i, i / 30.0, image)

    gated = VideoAnalysis(_white_run_detector(lambda image: 0), find_table=no_table)
    for frame in frames():
        gated.process(frame)
    assert calls == [0, 40, 80, 100, 140, 180]
    assert gated.search_gate.skipped == 20 - len(calls)
    assert [v["frame"] for v in gated.views] == calls
    calls.clear()
    every = VideoAnalysis(
        _white_run_detector(lambda image: 0),
        config=AnalysisConfig(unchanged_search_gap_frames=1),
        find_table=no_table,
    )
    for frame in frames():
        every.process(frame)
    assert calls == list(range(0, 200, 10)) and every.search_gate.skipped == 0


def test_a_moved_camera_is_taken_up_at_the_first_search_that_finds_it():
    """Frames of another view from frame 50: the view check refuses the first table from then on,
    and from frame 100 a search finds another table, which the frames show: it is adopted at the
    first search after 100 and read from there."""
    tables = []

    def find(image):
        tables.append(FakeView())
        return tables[-1]

    def shows(image, view):
        moved = image[1, 1, 1] >= 100
        return view is not tables[0] if moved else (view is tables[0] and image[0, 0, 0] == 0)

    analysis = VideoAnalysis(
        _white_run_detector(lambda image: int(image[1, 1, 1])), find_table=find, shows_table=shows
    )
    outcomes = []
    for i in range(160):
        image = _image(CUT if 50 <= i < 100 else "table")
        image[1, 1, 1] = i
        outcomes.append(analysis.process(Frame(i, i / 30.0, image)))
    analysis.finish()
    found = [v["frame"] for v in analysis.views if v["found"]]
    assert found == [0, 134]  # searches at 64, 74, 94, then 134 (the gap at 40)
    assert all(o.state is not None for o in outcomes[134:])
    assert all(o.skipped == "frame does not show the table" for o in outcomes[50:134])


def test_a_failed_background_search_is_tried_again_every_so_many_frames():
    def no_table(image):
        raise RuntimeError("no cloth")

    def searched(gap_frames: int, frames: int) -> list[int]:
        config = AnalysisConfig(
            find_table_in_background=True, calibrate_every_frames=10, unchanged_search_gap_frames=gap_frames
        )
        analysis = VideoAnalysis(_white_run_detector(lambda image: 0), config=config, find_table=no_table)
        for frame in _frames(frames):
            analysis.process(frame)
            if analysis._search is not None:
                analysis._search.result(timeout=30.0)  # each search ends before the next frame
        analysis.finish()
        assert not any(v["found"] for v in analysis.views)
        assert analysis.skipped["no table found yet"] == frames
        return [v["frame"] for v in analysis.views]

    assert searched(gap_frames=1, frames=35) == [0, 10, 20, 30]
    # the frames all look alike: searched again only once 40 frames have passed
    assert searched(gap_frames=40, frames=95) == [0, 40, 80]


class _RecordingCueBall:
    """An injected other-view follower: sees the cue ball at x = frame index, counts resets."""

    def __init__(self, seen: range) -> None:
        self.seen, self.calls, self.resets = seen, [], 0

    def __call__(self, frame: Frame) -> CueBallSighting | None:
        self.calls.append(frame.index)
        return CueBallSighting(float(frame.index), 50.0, 9.0, 200.0) if frame.index in self.seen else None

    def reset(self) -> None:
        self.resets += 1


def test_the_cue_ball_is_looked_for_only_in_frames_that_do_not_show_the_table():
    follower = _RecordingCueBall(seen=range(55, 65))
    analysis = _analysis(other_view=follower)
    for frame in _frames(90, cut=range(50, 70)):
        analysis.process(frame)
    analysis.finish()
    assert follower.calls == list(range(50, 70))
    assert follower.resets == 1  # once, when the table came back at frame 70
    assert [rec["i"] for rec in analysis.other_views] == list(range(55, 65))
    assert analysis.other_views[0]["cue_ball"] == {"x_px": 55.0, "y_px": 50.0, "r_px": 9.0, "held": False}
    doc = analysis.analysis({"path": "x.mp4", "fps": 30.0, "frames": 90, "width": 8, "height": 8})
    assert doc["other_views"] == analysis.other_views
    assert not {rec["i"] for rec in doc["frames"]} & set(range(50, 70))
    json.dumps(doc)


def test_a_frame_of_another_view_can_be_passed_without_looking_for_the_cue_ball():
    """What a live loop behind its source asks: the frame is skipped as before, the look is not
    made, and it is counted."""
    follower = _RecordingCueBall(seen=range(55, 65))
    analysis = _analysis(other_view=follower)
    for frame in _frames(90, cut=range(50, 70)):
        outcome = analysis.process(frame, follow_other_view=frame.index % 2 == 0)
        if frame.index in range(50, 70):
            assert outcome.skipped == "frame does not show the table" and outcome.state is None
            assert (outcome.cue_ball is not None) == (frame.index % 2 == 0 and frame.index in range(55, 65))
    analysis.finish()
    assert follower.calls == list(range(50, 70, 2))
    assert analysis.other_views_not_followed == 10
    assert [rec["i"] for rec in analysis.other_views] == [56, 58, 60, 62, 64]
    assert analysis.skipped == {"frame does not show the table": 20}


def test_no_other_view_search_while_a_live_source_waits_for_its_first_table():
    def no_table(image):
        raise RuntimeError("no cloth")

    follower = _RecordingCueBall(seen=range(100))
    config = AnalysisConfig(find_table_in_background=True)
    analysis = VideoAnalysis(
        _white_run_detector(lambda image: 0), config=config, find_table=no_table, other_view=follower
    )
    for frame in _frames(5):
        analysis.process(frame)
    analysis.finish()
    assert follower.calls == [] and analysis.other_views == []


def _close_up(index: int) -> Frame:
    """A frame of another view: cloth filling the frame, a white rolling right, a red and a
    yellow resting (the packaged score judges them)."""
    image = np.zeros((360, 640, 3), np.uint8)
    image[:] = (40, 140, 40)
    for colour, (x, y) in [
        ((235, 235, 235), (150 + 12 * index, 200)),
        ((30, 30, 200), (420, 150)),
        ((40, 210, 230), (300, 280)),
    ]:
        cv2.circle(image, (x, y), 14, colour, -1, cv2.LINE_AA)
    return Frame(index, index / 30, image)


class _HelperThreads:
    """Counts the candidates looked for on threads other than the test's."""

    def __init__(self, follower: FrameCueBall) -> None:
        self.count, self._look = 0, follower.follower.candidates
        follower.follower.candidates = self  # type: ignore[method-assign]

    def __call__(self, image: np.ndarray):
        if threading.current_thread() is not threading.main_thread():
            self.count += 1
        return self._look(image)


def test_other_views_looked_ahead_give_the_same_sightings_with_every_other_frame_on_a_helper():
    frames = [_close_up(k) for k in range(12)]
    one_at_a_time = FrameCueBall(OtherViewConfig())
    ahead = FrameCueBall(OtherViewConfig(), look_ahead=True)
    helper = _HelperThreads(ahead)
    for frame in frames:
        ahead.prepare(frame)  # read ahead, as the reader thread makes them known
    try:
        got = [ahead(frame) for frame in frames]
    finally:
        ahead.close()
    expected = [one_at_a_time(frame) for frame in frames]
    assert got == expected and all(sighting is not None for sighting in got)
    assert helper.count == len(frames) // 2


def test_a_look_ahead_is_used_only_for_the_frame_it_was_made_for():
    ahead = FrameCueBall(OtherViewConfig(), look_ahead=True)
    helper = _HelperThreads(ahead)
    first, second = _close_up(0), _close_up(1)
    ahead.prepare(first)
    ahead.prepare(second)
    try:
        ahead(first)  # the second frame is looked in ahead...
        other = Frame(1, second.t, _close_up(5).image)  # ...but another image comes at its index
        assert ahead(other) == FrameCueBall(OtherViewConfig())(other) is not None
        ahead(_close_up(3))  # nothing known ahead of it: looked in alone
    finally:
        ahead.close()
    assert helper.count == 1


def test_looks_made_ahead_are_let_go_when_the_table_comes_back(monkeypatch):
    looks = {"helper": 0, "loop": 0}
    look = otherview.ball_candidates

    def counted(*args, **kwargs):
        looks["loop" if threading.current_thread() is threading.main_thread() else "helper"] += 1
        return look(*args, **kwargs)

    monkeypatch.setattr(otherview, "ball_candidates", counted)
    first, second = _close_up(0), _close_up(1)
    ahead = FrameCueBall(OtherViewConfig(), look_ahead=True)
    ahead.prepare(first)
    ahead.prepare(second)
    try:
        ahead(first)  # the second frame is looked in ahead...
        ahead.reset()  # ...but the table came back in between: that look is let go
        ahead(second)
    finally:
        ahead.close()
    assert looks == {"helper": 1, "loop": 2}


def test_frames_expected_to_be_looked_in_are_looked_in_on_the_helper_meanwhile():
    frames = [_close_up(k) for k in range(8)]
    ahead = FrameCueBall(OtherViewConfig(), look_ahead=True)
    helper = _HelperThreads(ahead)
    for frame in frames:
        ahead.prepare(frame)
    try:
        ahead.expect(frames[2], 4)  # a search holds the loop on frame 2
        got = [ahead(frame) for frame in frames[2:]]
    finally:
        ahead.close()
    assert got == [FrameCueBall(OtherViewConfig())(frame) for frame in frames[2:]]
    # frames 2-5 looked in while the search ran; then 6 by the loop with 7 on the helper
    assert helper.count == 5


def test_the_frames_after_a_search_for_the_table_are_expected_to_be_looked_in():
    class Expecting(_RecordingCueBall):
        expected: list[tuple[int, int]]

        def expect(self, frame: Frame, frames: int) -> None:
            self.expected.append((frame.index, frames))

    def no_table(image):
        raise RuntimeError("no cloth")

    follower = Expecting(seen=range(0))
    follower.expected = []
    config = AnalysisConfig(other_view_looks_during_search=3, unchanged_search_gap_frames=1)
    analysis = VideoAnalysis(
        _white_run_detector(lambda image: 0), config=config, find_table=no_table, other_view=follower
    )
    for frame in _frames(25):
        analysis.process(frame)
    analysis.finish()
    # not on the first frame: a video mostly opens on the table, and nothing was looked in yet
    assert follower.expected == [(10, 3), (20, 3)]
    assert follower.calls == list(range(25))


def test_frames_read_ahead_reach_the_other_views_follower_and_it_is_closed_at_the_end():
    class Preparing(_RecordingCueBall):
        prepared: list[int]
        closed = 0

        def prepare(self, frame: Frame) -> None:
            self.prepared.append(frame.index)

        def close(self) -> None:
            self.closed += 1

    follower = Preparing(seen=range(0))
    follower.prepared = []
    analysis = _analysis(other_view=follower)
    for frame in _frames(20, cut=range(5, 10)):
        analysis.prepare(frame)
        analysis.process(frame)
    analysis.finish()
    assert follower.prepared == list(range(20)) and follower.closed == 1
    assert follower.calls == list(range(5, 10))


def test_other_views_can_be_turned_off():
    config = AnalysisConfig(other_view=OtherViewConfig(enabled=False))
    analysis = VideoAnalysis(
        _white_run_detector(lambda image: 0), config=config, find_table=lambda image: None
    )
    assert analysis.other_view is None


@pytest.mark.parametrize(
    ("sighting", "hit"),
    [
        ({"x_px": 110.0, "y_px": 110.0, "r_px": 10.0, "held": False}, True),
        ({"x_px": 112.0, "y_px": 108.0, "r_px": 12.0, "held": True}, True),
        ({"x_px": 140.0, "y_px": 110.0, "r_px": 10.0, "held": False}, False),
    ],
    ids=["on_the_box", "held_near_it", "beside_it"],
)
def test_a_cue_ball_in_another_view_scores_against_the_truth_box(sighting, hit):
    result = ClipResult(
        frames=[], pots=[], view=None, strokes=[], other_views=[{"i": 3, "t": 0.1, "cue_ball": sighting}]
    )
    truth = {3: (100.0, 100.0, 120.0, 120.0), 4: (100.0, 100.0, 120.0, 120.0)}
    score = score_track(result, truth, cue=True)
    assert score.frames_in_view == 0 and score.frames_other_views == 2
    assert score.hits_other_views == int(hit) and score.hit_fraction == pytest.approx(0.5 * hit)
    assert score_track(result, truth, cue=False).hits_other_views == 0


def test_the_annotated_video_rings_the_cue_ball_of_another_view(tmp_path):
    import cv2

    from snooker.pipeline.annotate import VideoAnnotator

    image = np.zeros((240, 320, 3), np.uint8)
    seen = CueBallSighting(160.0, 120.0, 20.0, 200.0)
    outcome = FrameOutcome(Frame(0, 0.0, image), None, [], "frame does not show the table", seen)
    with VideoAnnotator(tmp_path / "a.mp4", 30.0, (320, 240)) as annotator:
        annotator.write(outcome, None)
    ok, drawn = cv2.VideoCapture(str(tmp_path / "a.mp4")).read()
    assert ok
    points = [(120 + round(23 * np.sin(a)), 160 + round(23 * np.cos(a))) for a in np.linspace(0, 6, 12)]
    ring = [drawn[y - 1 : y + 2, x - 1 : x + 2].max() for y, x in points]
    assert min(ring) > 100 and drawn[110:130, 150:170].max() < 60


class FittedFakeView(FakeView):
    """The fake camera, found with a fit error of 1.5 px (4 mm a pixel both ways)."""

    fit_error_px = 1.5


@pytest.mark.parametrize(
    ("view", "centre_px", "extra_mm"),
    [(FakeView, 0.0, 0.0), (FakeView, 1.0, 4.0), (FittedFakeView, 0.0, 6.0), (FittedFakeView, 1.0, 10.0)],
    ids=["exact", "centre", "fitted", "fitted-and-centre"],
)
def test_the_cue_balls_place_may_be_off_by_the_calibrations_own_error_too(view, centre_px, extra_mm):
    """What the referee allows a cue ball from hand beyond the D: the tracker's tolerance (its
    centre against the other balls) plus the view's fit error and the error of a centre as a
    whole, in the mm a pixel spans there."""
    from snooker.pipeline.tracking import mm_per_px

    assert mm_per_px(view(), (889.0, 1000.0)) == pytest.approx(4.0)
    analysis = VideoAnalysis(
        _white_run_detector(lambda image: int(image[1, 1, 1])),
        config=AnalysisConfig(place_centre_error_px=centre_px),
        find_table=lambda image: view(),
        shows_table=lambda image, v: image[0, 0, 0] == 0,
    )
    for frame in _frames(120):
        analysis.process(frame)
    analysis.finish()
    [stroke] = analysis.strokes
    tracker_only = 6.0 + 0.5 * 4.0  # touching_tolerance_mm + half a pixel of 4 mm (the red's span)
    assert stroke.position_tolerance_mm == pytest.approx(tracker_only + extra_mm, abs=0.2)


def test_thumbnails_made_on_the_reader_are_found_for_every_frame_a_full_read_ahead_holds() -> None:
    """The reader thumbnails each frame ahead; when the loop falls behind, the queue fills and the
    reader waits with one more frame prepared. Each frame must still find its thumbnails, else the
    loop makes them again itself (a third of the Task2 frames did, when the queue held 32 frames
    and the thumbnails of only the last 32 were kept)."""
    demo = Path(__file__).resolve().parents[2] / "samples" / "demo_clip.mp4"
    analysis = _analysis()
    assert analysis.thumbnails is not None
    found = []
    with read_ahead(open_source(str(demo)), prepare=analysis.prepare) as frames:
        for frame in frames:
            if frame.index % 100 == 0:
                time.sleep(0.5)  # the reader fills the queue and waits for room
            found.append(analysis.thumbnails.view(frame.image) is not None)
    assert len(found) > 2 * READ_AHEAD_FRAMES
    assert all(found), f"{found.count(False)} of {len(found)} frames lost their thumbnails"


def test_the_longest_gap_between_searches_of_alike_frames_is_a_frame_at_least() -> None:
    with pytest.raises(ValueError, match="unchanged_search_gap_frames"):
        AnalysisConfig(unchanged_search_gap_frames=0)


def test_frames_looked_in_during_a_search_are_not_negative() -> None:
    with pytest.raises(ValueError, match="other_view_looks_during_search"):
        AnalysisConfig(other_view_looks_during_search=-1)
