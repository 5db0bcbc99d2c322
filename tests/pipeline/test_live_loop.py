"""The live loop: strokes reach the referee and the record, bad frames and broken sources don't stop it.

Perception is replaced by a scripted stand-in (the real chain has its own tests); the frames come
from real video files read through the real live queue, and the session is the real referee with a
real SQLite record.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from snooker.pipeline.analyze import FrameOutcome
from snooker.pipeline.live import LiveStatus, LiveTable, LiveTableConfig, describe_ruling, draw_status
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord
from snooker.tracker import StrokeEvents
from snooker.tracker.replays import Replay
from snooker.tracker.types import PotEvent
from snooker.vision.otherview import CueBallSighting
from snooker.vision.sources import CaptureSource, LiveConfig, SourceConfig, VideoFileSource
from snooker.vision.types import Frame

MATCH = {"type": "match", "schema": "snooker.log/1", "players": ["Ann", "Bob"], "best_of": 1, "breaker": 0}
EVERY_FRAME = LiveTableConfig(frames=LiveConfig(pace_files=False, drop_when_full=False), status_every_s=0.05)


def _video(path: Path, frames: int, fps: float = 30.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    for i in range(frames):
        writer.write(np.full((48, 64, 3), (i * 3) % 256, np.uint8))
    writer.release()
    return path


def _pot(label: str, start: int, end: int, truncated: bool = False) -> StrokeEvents:
    return StrokeEvents(
        start_frame=start,
        end_frame=end,
        first_contact=(label,),
        potted=(PotEvent(label, "top_left", end - 1),),
        truncated=truncated,
    )


class ScriptedAnalysis:
    """Stands in for VideoAnalysis: finishes given strokes at given frames, fails on given frames."""

    def __init__(
        self,
        detector,
        view=None,
        config=None,
        strokes=None,
        failing=(),
        open_stroke=None,
        delay_s=0.0,
        other_view_s=None,
        replays=None,
    ):
        self.frames: list[dict] = []
        self.other_views: list[dict] = []
        self.replays: list[Replay] = []
        self.replays_at = dict(replays or {})
        self.other_views_not_followed = 0
        self.other_view_looks = 0
        self.strokes_at = dict(strokes or {})
        self.failing = set(failing)
        self.open_stroke = open_stroke
        self.delay_s = delay_s
        self.other_view_s = other_view_s
        """Every frame shows another view, where looking for the cue ball takes this long."""
        self.seen: list[int] = []
        self.views_forgotten = 0

    def forget_view(self) -> None:
        self.views_forgotten += 1

    def process(self, frame: Frame, follow_other_view: bool = True) -> FrameOutcome:
        self.seen.append(frame.index)
        self.frames.append({"i": frame.index})
        if self.delay_s:
            time.sleep(self.delay_s)
        if frame.index in self.failing:
            raise RuntimeError("detector choked on a frame")
        if frame.index in self.replays_at:
            self.replays.append(self.replays_at[frame.index])
        if self.other_view_s is not None:
            if not follow_other_view:
                self.other_views_not_followed += 1
                return FrameOutcome(frame, None, [], "frame does not show the table")
            self.other_view_looks += 1
            time.sleep(self.other_view_s)
            self.other_views.append({"i": frame.index})
            return FrameOutcome(frame, None, [], "frame does not show the table")
        return FrameOutcome(
            frame, None, [self.strokes_at[frame.index]] if frame.index in self.strokes_at else []
        )

    def finish(self) -> list[StrokeEvents]:
        return [self.open_stroke] if self.open_stroke is not None else []


def _table(session, config=EVERY_FRAME, view=None, **script) -> tuple[LiveTable, list[str]]:
    said: list[str] = []
    table = LiveTable(
        session,
        detector=None,
        view=view,
        config=config,
        report=said.append,
        analysis_factory=lambda detector, view, config: ScriptedAnalysis(detector, view, config, **script),
    )
    return table, said


@pytest.fixture
def session(tmp_path: Path):
    record = MatchRecord(tmp_path / "live.sqlite").open()
    match = MatchSession(record)
    match.apply(MATCH)
    yield match
    record.close()


def test_strokes_are_ruled_recorded_and_bad_frames_skipped(session, tmp_path: Path):
    clip = _video(tmp_path / "clip.avi", 40)
    table, said = _table(session, strokes={10: _pot("red-3", 5, 10), 30: _pot("black", 20, 30)}, failing={15})
    status = table.run(VideoFileSource(clip))
    assert status.strokes == 2 and status.frames_failed == 1 and status.frames_processed == 39
    assert session.scoreboard()["score"] == [8, 0]
    rows = [(e.origin, e.line["type"]) for e in session.record.entries()]
    assert rows == [("unknown", "match"), ("tracker", "stroke"), ("tracker", "stroke")]
    assert session.record.effective_lines()[1].line["potted"] == [{"ball": "red", "pocket": "top_left"}]
    assert any("frame 15: perception failed" in line for line in said)
    assert any("live: 39 frames" in line for line in said)  # the closing status line
    assert table.analysis.frames == []  # no per-frame history kept live


def test_a_camera_switched_on_during_a_frame_tells_the_referee_the_table_it_joined(session, tmp_path: Path):
    """Five reds left, the cue ball mid-table: the first stroke (a colour hit first and potted) is
    no break-off; ruled as one it would be a foul (a colour while on a red, not from the D)."""
    places = {"white": (600.0, 2000.0), "pink": (889.0, 2677.0), "red-1": (700.0, 2900.0)}
    places.update({f"red-{k}": (400.0 + 60.0 * k, 3100.0) for k in range(2, 6)})
    colour_pot = replace(_pot("pink", 5, 10), positions_before=places)
    table, said = _table(session, strokes={10: colour_pot, 30: _pot("red-1", 20, 30)})
    status = table.run(VideoFileSource(_video(tmp_path / "clip.avi", 40)))
    assert status.strokes == 2
    rows = [(e.origin, e.line["type"]) for e in session.record.entries()]
    assert rows == [("unknown", "match"), ("tracker", "table"), ("tracker", "stroke"), ("tracker", "stroke")]
    board = session.scoreboard()
    assert board["score"] == [7, 0] and board["reds"] == 4
    assert any("joined a frame in play: 5 reds, ball on either" in line for line in said)


def test_a_video_that_breaks_mid_stroke_is_reported_and_the_referee_keeps_its_state(session, tmp_path: Path):
    whole = _video(tmp_path / "whole.avi", 60)
    broken = tmp_path / "broken.avi"
    data = whole.read_bytes()
    broken.write_bytes(data[: len(data) // 2])
    table, said = _table(
        session, strokes={5: _pot("red-3", 1, 5)}, open_stroke=_pot("red-3", 8, 20, truncated=True)
    )
    status = table.run(VideoFileSource(broken))
    assert "broke off" in status.ended
    assert status.strokes == 1 and status.strokes_not_ruled == 1
    assert session.scoreboard()["score"] == [1, 0]
    cut = next(line for line in said if "cut off before the balls stopped: not ruled" in line)
    seen = json.loads(cut[cut.index("{") :])  # given as JSON, to be entered on the console as it stands
    assert seen == _pot("red-3", 8, 20, truncated=True).to_log_line()
    kept = [e for e in session.record.entries() if e.ruling and "error" in e.ruling]
    assert [e.line for e in kept] == [seen] and "cut off" in kept[0].ruling[
        "error"
    ]  # in the record, not ruled
    assert session.apply({"type": "stroke", "first_contact": ["black"], "potted": ["black"]})["score"] == [
        8,
        0,
    ]


def test_a_replay_is_reported_and_not_ruled(session, tmp_path: Path):
    """The analysis drops a replay's strokes; the live loop says so once, and rules only the stroke."""
    replay = Replay(of_stroke_frame=3, first_frame=12, last_frame=20, strokes=2)
    table, said = _table(session, strokes={8: _pot("red-1", 3, 8)}, replays={20: replay})
    status = table.run(VideoFileSource(_video(tmp_path / "clip.avi", 30)))
    assert status.strokes == 1
    assert [e.line["type"] for e in session.record.entries()] == ["match", "stroke"]
    reported = [line for line in said if "a replay" in line]
    assert reported == ["frames 12-20: a replay of the stroke from frame 3, not ruled"]


def test_a_cut_off_stroke_is_ruled_when_asked(session, tmp_path: Path):
    config = replace(EVERY_FRAME, rule_truncated_strokes=True)
    table, _ = _table(session, config=config, open_stroke=_pot("red-3", 8, 20, truncated=True))
    table.run(VideoFileSource(_video(tmp_path / "clip.avi", 10)))
    assert session.scoreboard()["score"] == [1, 0]


def test_slow_perception_drops_frames_rather_than_falls_behind_and_says_so(session, tmp_path: Path):
    clip = _video(tmp_path / "fast.avi", 60, fps=200.0)  # paced in real time: 5 ms a frame
    config = LiveTableConfig(frames=LiveConfig(queue_size=2), status_every_s=0.05)
    table, said = _table(session, config=config, delay_s=0.02)
    status = table.run(VideoFileSource(clip))
    assert status.frames_dropped > 0
    assert status.frames_processed + status.frames_dropped == 60
    seen = table.analysis.seen
    assert seen == sorted(seen) and seen[-1] == 59  # the newest frames are the ones kept
    assert any("dropped to keep up" in line for line in said)
    assert status.max_latency_s < 2 * 0.02 * config.frames.queue_size + 0.5  # bounded by the queue


@pytest.mark.parametrize("shed", [True, False])
def test_a_cut_away_from_the_table_sheds_the_cue_ball_look_rather_than_drops_frames(
    session, tmp_path: Path, shed: bool
):
    """A broadcast cut to another view: looking for the cue ball there takes 1.5 frame times (paced
    at 10 fps, 150 ms a look). Looked for only while no frame waits, every frame is taken and the
    looks left out are counted; looked for in every frame, the queue drops frames."""
    clip = _video(tmp_path / "replay.avi", 24, fps=10.0)
    config = LiveTableConfig(frames=LiveConfig(queue_size=2), status_every_s=0.05, shed_other_views=shed)
    table, said = _table(session, config=config, other_view_s=0.15)
    status = table.run(VideoFileSource(clip))
    analysis = table.analysis
    assert status.frames_processed + status.frames_dropped == 24
    assert analysis.other_views == []  # live keeps no per-frame history
    if shed:
        assert status.frames_dropped == 0
        assert 0 < status.other_views_not_followed < 24
        assert status.other_views_not_followed == analysis.other_views_not_followed
        assert any("cue ball not looked for in" in line for line in said)
    else:
        assert status.frames_dropped > 0
        assert status.other_views_not_followed == 0


@pytest.mark.parametrize(
    ("shed", "waiting", "latency_s", "last_look_s", "looks"),
    [
        (True, 0, 0.020, None, True),  # no look made yet: its time is not known
        (True, 0, 0.020, 0.050, True),  # 3 frame times (queue of 2 and the next arrival) less 30 ms
        (True, 0, 0.020, 0.080, False),  # the queue would drop a frame before it ends
        (True, 0, 0.000, 0.080, True),
        (True, 1, 0.000, 0.010, False),  # a frame already waits
        (False, 2, 0.060, 0.500, True),  # shedding turned off
    ],
)
def test_the_cue_ball_is_looked_for_in_another_view_only_when_the_look_fits(
    session, shed: bool, waiting: int, latency_s: float, last_look_s: float | None, looks: bool
):
    config = LiveTableConfig(
        frames=LiveConfig(queue_size=2), shed_other_views=shed, other_view_margin_s=0.010
    )
    table, _ = _table(session, config=config)
    table._frames = SimpleNamespace(
        waiting=waiting, latency_s=latency_s, source=SimpleNamespace(fps=30.0), config=config.frames
    )
    table._look_s = last_look_s
    assert table._may_look_in_other_view() is looks


def test_stop_ends_a_run_from_another_thread(session, tmp_path: Path):
    clip = _video(tmp_path / "long.avi", 300, fps=30.0)
    table, _ = _table(session, config=replace(EVERY_FRAME, frames=LiveConfig()))
    threading.Timer(0.3, table.stop).start()
    status = table.run(VideoFileSource(clip))
    assert status.ended == "stopped" and status.frames_processed < 300


def test_status_drawing_and_ruling_text():
    frame = Frame(0, 0.0, np.zeros((120, 320, 3), np.uint8))
    status = LiveStatus()
    status.calls.append("FOUL | 0-4")
    canvas = draw_status(frame.image, FrameOutcome(frame, None, [], "no table found yet"), status)
    assert canvas.shape == frame.image.shape and canvas.any() and not frame.image.any()
    assert (
        describe_ruling({"announcements": ["FOUL", "FOUR AWAY"], "score": [0, 4]}) == "FOUL, FOUR AWAY | 0-4"
    )
    assert describe_ruling({"error": "nope"}).startswith("referee refused")


def test_the_live_view_rings_the_cue_ball_of_another_view():
    frame = Frame(0, 0.0, np.zeros((240, 320, 3), np.uint8))
    seen = CueBallSighting(200.0, 150.0, 12.0, 210.0)
    canvas = draw_status(
        frame.image, FrameOutcome(frame, None, [], "frame does not show the table", seen), LiveStatus()
    )
    ring = canvas[150, 200 + 15 - 1 : 200 + 15 + 2]
    assert ring.max() == 255 and canvas[145:156, 195:206].max() == 0


LIVE_CONFIGS = {
    "a queue that drops: search in the background": (LiveConfig(), True),
    "every frame: the search waits in line": (LiveConfig(drop_when_full=False), False),
}


@pytest.mark.parametrize(("frames", "background"), LIVE_CONFIGS.values(), ids=LIVE_CONFIGS.keys())
def test_the_live_loop_searches_the_table_in_the_background_when_its_queue_drops(session, frames, background):
    seen = {}

    def factory(detector, view, config):
        seen["config"] = config
        return ScriptedAnalysis(detector, view, config)

    LiveTable(session, detector=None, config=LiveTableConfig(frames=frames), analysis_factory=factory)
    config = seen["config"]
    assert config.find_table_in_background is background
    assert not LiveTableConfig().analysis.find_table_in_background  # files read every frame


class _DroppingCamera:
    """A camera capture that gives ``frames`` frames and then nothing, and never opens again."""

    def __init__(self, frames: int):
        self.remaining = frames

    def isOpened(self) -> bool:
        return self.remaining is not None

    def read(self):
        if not self.remaining:
            return False, None
        self.remaining -= 1
        return True, np.zeros((48, 64, 3), np.uint8)

    def get(self, prop: int) -> float:
        return 30.0

    def release(self) -> None:
        pass


def test_a_camera_that_drops_out_for_good_fails_the_run_and_keeps_what_was_ruled(session):
    opened = iter([_DroppingCamera(20)])
    config = SourceConfig(
        reconnect_initial_delay_s=0.001, reconnect_max_delay_s=0.002, reconnect_max_attempts=2
    )
    camera = CaptureSource(
        0, config, report=lambda _: None, open_capture=lambda _: next(opened, _DroppingCamera(None))
    )
    table, _ = _table(session, strokes={5: _pot("red-3", 1, 5)})
    status = table.run(camera)
    assert status.failed and status.ended == "source camera 0 dropped out and did not come back"
    assert status.frames_processed == 20 and status.strokes == 1
    assert [e.line["type"] for e in session.record.effective_lines()] == ["match", "stroke"]


def test_a_file_that_ends_is_not_a_failure(session, tmp_path: Path):
    table, _ = _table(session)
    status = table.run(VideoFileSource(_video(tmp_path / "whole.avi", 10)))
    assert not status.failed and status.ended.endswith("ended")


class _ResizingCamera(_DroppingCamera):
    """A camera that gives ``frames`` frames of 64x48, then frames of 80x60 (back in another mode)."""

    def read(self):
        ok, image = super().read()
        if ok and self.remaining < RESIZED_AFTER:
            image = np.zeros((60, 80, 3), np.uint8)
        return ok, image


RESIZED_AFTER = 10
"""Frames left when the resizing camera switches to its second size."""


def test_a_camera_back_at_another_size_with_a_calibration_given_fails_the_run_by_name(session):
    camera = CaptureSource(
        0, SourceConfig(), report=lambda _: None, open_capture=lambda _: _ResizingCamera(30)
    )
    table, _ = _table(session, view=SimpleNamespace(image_size=(64, 48)))
    status = table.run(camera)
    assert status.failed and "does not fit" in status.ended and "80x60" in status.ended
    assert status.frames_processed == 30 - RESIZED_AFTER


def test_a_camera_back_at_another_size_looks_for_the_table_again(session):
    camera = CaptureSource(
        0,
        SourceConfig(reconnect_max_attempts=0),
        report=lambda _: None,
        open_capture=lambda _: _ResizingCamera(30),
    )
    table, said = _table(session)
    table.run(camera)
    assert table.analysis.views_forgotten == 1 and table.status.frames_processed == 30
    assert any(
        "changed size (64x48 → 80x60)" in line and "looking for the table again" in line for line in said
    )


def test_a_file_in_which_no_frame_shows_the_table_fails_the_run_by_name(session, tmp_path: Path):
    table, _ = _table(session, other_view_s=0.0)
    status = table.run(VideoFileSource(_video(tmp_path / "elsewhere.avi", 10)))
    assert status.failed and status.frames_processed == status.frames_skipped == 10
    assert (
        "no frame of" in status.ended
        and "elsewhere.avi" in status.ended
        and "showed the table" in status.ended
    )


def test_a_camera_stopped_before_it_showed_the_table_is_not_a_failure(session):
    endless = _DroppingCamera(10**9)
    camera = CaptureSource(0, SourceConfig(), report=lambda _: None, open_capture=lambda _: endless)
    table, _ = _table(session, other_view_s=0.0)
    threading.Timer(0.3, table.stop).start()
    status = table.run(camera)
    assert status.frames_processed > 0 and status.frames_skipped == status.frames_processed
    assert not status.failed and status.ended == "stopped"


def _racked(cue: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """Places before a break-off: the cue ball at ``cue``, fifteen reds in the rack, the black spotted."""
    reds = {f"red-{k}": (800.0 + 12.0 * (k % 5), 2750.0 + 46.0 * (k // 5)) for k in range(1, 16)}
    return {"white": cue, "black": (889.0, 3245.0), **reds}


def test_a_break_off_after_the_frame_ended_starts_the_next_frame(tmp_path: Path):
    """The camera joins with only the black left; the black is potted (the frame ends); the table is
    re-racked and the next stroke is a break-off from the D: a new_frame line, then the break-off.
    A break-off while a frame is still in play is only reported (it may have been conceded)."""
    record = MatchRecord(tmp_path / "live.sqlite").open()
    session = MatchSession(record)
    session.apply({**MATCH, "best_of": 3})
    last_black = replace(
        _pot("black", 5, 10), positions_before={"white": (889.0, 2900.0), "black": (889.0, 3245.0)}
    )
    break_off = replace(_pot("red-1", 20, 30), potted=(), positions_before=_racked((889.0, 600.0)))
    again = replace(break_off, start_frame=40, end_frame=50)
    table, said = _table(session, strokes={10: last_black, 30: break_off, 50: again})
    status = table.run(VideoFileSource(_video(tmp_path / "clip.avi", 60)))
    assert status.strokes == 3
    rows = [e.line["type"] for e in session.record.entries()]
    assert rows == ["match", "table", "stroke", "new_frame", "stroke", "stroke"]
    board = session.scoreboard()
    assert board["frame"] == 2 and board["status"] == "in_play"
    assert any("a new frame: frame 2" in line for line in said)
    assert any("looks like a break-off while the frame is still in play" in line for line in said)
    record.close()


class _NeverOpens:
    def isOpened(self) -> bool:
        return False

    def release(self) -> None:
        pass


STOP_AFTER_S = 0.2
"""When the test stops a run whose camera is still being retried."""
STOPPED_WITHIN_S = 5.0
"""How soon such a run must end: well under one retry's longest wait (8 s), let alone a hundred."""


def test_stop_ends_a_run_whose_camera_is_still_being_retried_at_start(session):
    config = SourceConfig(open_retries_on_start=100, reconnect_initial_delay_s=0.5)
    camera = CaptureSource(0, config, report=lambda _: None, open_capture=lambda _: _NeverOpens())
    table, _ = _table(session)
    threading.Timer(STOP_AFTER_S, table.stop).start()
    started = time.monotonic()
    status = table.run(camera)
    assert time.monotonic() - started < STOPPED_WITHIN_S  # not 100 retries of up to 8 s
    assert status.ended == "stopped" and not status.failed


# ---------------------------------------------------------------- frames missing at the source
STALL_S = 1.2
"""How long the camera below sends nothing, mid-stream (s): past ``SourceConfig.stall_s``, within
its read timeout, so the stream goes on without a reconnect."""


class _StallingCamera(__import__("http.server").server.BaseHTTPRequestHandler):
    """An IP camera's MJPEG stream over HTTP (multipart/x-mixed-replace, as such cameras serve it):
    ``frames`` frames at ``fps``, silent for ``STALL_S`` after frame ``stall_after``; then it ends."""

    frames, stall_after, fps = 40, 15, 30.0

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace;boundary=frame")
        self.end_headers()
        try:
            for i in range(self.frames):
                jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), (i * 7) % 256, np.uint8))[1].tobytes()
                head = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg)
                self.wfile.write(head + jpeg + b"\r\n")
                self.wfile.flush()
                time.sleep(STALL_S if i == self.stall_after else 1 / self.fps)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args) -> None:
        pass


def _stalling_stream() -> tuple[str, object]:
    import http.server

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _StallingCamera)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/cam.mjpg", server


def _avi_with_dropped_frames(path: Path) -> Path:
    """40 frames of which a camera dropped 5 (frames 12-16: empty AVI chunks, as AVI marks them)."""
    from snooker.datasets.damaged import avi_frames, avi_with_frames

    data = _video(path, 40).read_bytes()
    frames = avi_frames(data)
    frames[12:17] = [b""] * 5
    path.write_bytes(avi_with_frames(data, frames))
    return path


GAP_ROWS = [
    # source, failed, gaps, frames missing (None: some), words said
    ("avi_with_dropped_frames", False, 1, 5, ["5 frame(s) missing at the source after frame 11"]),
    ("stalling_camera", True, 1, None, ["no frame for", "after frame 15", "stalled"]),
]


@pytest.mark.parametrize(
    ("kind", "failed", "gaps", "missing", "words"), GAP_ROWS, ids=[r[0] for r in GAP_ROWS]
)
def test_frames_missing_at_the_source_are_counted_in_the_status_and_said(
    session, tmp_path: Path, kind, failed, gaps, missing, words
):
    # Before: an AVI's dropped frames shifted every later time and the file "broke off (truncated or
    # corrupt)"; a stream that stalled and went on said nothing.
    said: list[str] = []
    server = None
    if kind == "stalling_camera":
        url, server = _stalling_stream()
        source = CaptureSource(url, SourceConfig(reconnect_max_attempts=0), report=said.append)
    else:
        source = VideoFileSource(_avi_with_dropped_frames(tmp_path / "dropped.avi"), report=said.append)
    seen: list[tuple[int, float]] = []
    table, told = _table(session, strokes={30: _pot("red-3", 20, 30)})
    table.on_frame = lambda outcome, status: seen.append((outcome.frame.index, outcome.frame.t))
    try:
        status = table.run(source)
    finally:
        if server is not None:
            server.shutdown()
    assert status.failed is failed, status.ended  # a stream that ends has dropped out for good
    assert status.source_gaps == gaps
    assert status.frames_missing == missing if missing is not None else status.frames_missing > 0
    assert status.strokes == 1 and session.scoreboard()["score"] == [1, 0]  # ruled all the same
    assert any(all(word in line for word in words) for line in said), said
    assert f"{status.frames_missing} frames missing at the source in {gaps} gap(s)" in told[-1]
    if kind == "avi_with_dropped_frames":  # the times after the gap are the file's own
        assert [i for i, _ in seen] == [*range(12), *range(17, 40)]
        assert [t for _, t in seen] == pytest.approx([i / 30.0 for i, _ in seen])
