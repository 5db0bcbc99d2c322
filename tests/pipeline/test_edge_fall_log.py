"""A ball that fell into a pocket by itself between strokes reaches the frame log and the rulings.

The tracker's outside-stroke pot called an edge fall (``OutsideEvent.edge_fall``, see
tests/tracker/test_edge_fall.py) is written as an ``edge_fall`` line between the strokes it fell
between, by ``analyze`` (frame log and rulings) and by ``live`` (the session: record and feed), and
the referee says BALL REPLACED (3.9(a)). An outside pot not called one writes nothing; an edge fall
the referee refuses (the ball is not on its table) is left out of the log.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.pipeline.analyze import FrameOutcome, frame_log_lines
from snooker.pipeline.live import LiveTable, LiveTableConfig
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord
from snooker.referee import Referee
from snooker.tracker import StrokeEvents
from snooker.tracker.strokes import OutsideEvent
from snooker.tracker.types import PotEvent
from snooker.vision.sources import LiveConfig, VideoFileSource
from snooker.vision.types import Frame

BALL_REPLACED = "BALL REPLACED"


def _stroke(start: int, end: int, potted: str | None = None) -> StrokeEvents:
    return StrokeEvents(
        start_frame=start,
        end_frame=end,
        first_contact=("red-3",),
        potted=(PotEvent(potted, "top_left", end - 1),) if potted else (),
    )


def _fell(label: str, frame: int, edge_fall: bool = True) -> OutsideEvent:
    return OutsideEvent("potted", label, frame, (20.0, 3550.0), None, "top_left", edge_fall, "test")


LOG_ROWS = [
    # (id, strokes, outside events, expected line types after the header, edge_fall balls)
    ("after-the-last-stroke", [_stroke(5, 10)], [_fell("red-1", 40)], ["stroke", "edge_fall"], ["red"]),
    ("between-two-strokes", [_stroke(5, 10), _stroke(50, 60)], [_fell("black", 30)],
     ["stroke", "edge_fall", "stroke"], ["black"]),
    ("before-the-first-stroke", [_stroke(50, 60)], [_fell("pink", 30)], ["edge_fall", "stroke"], ["pink"]),
    ("a-pot-not-called-an-edge-fall-writes-nothing", [_stroke(5, 10), _stroke(50, 60)],
     [_fell("red-1", 30, edge_fall=False)], ["stroke", "stroke"], []),
    ("the-cue-ball-in-hand-cannot-fall-left-out", [_stroke(50, 60)], [_fell("white", 30)], ["stroke"], []),
    ("a-ball-moved-writes-nothing", [_stroke(5, 10)],
     [OutsideEvent("moved", "pink", 30, (889.0, 2600.0), (900.0, 2500.0))], ["stroke"], []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("strokes", "outside", "types", "balls"), [r[1:] for r in LOG_ROWS], ids=[r[0] for r in LOG_ROWS]
)
def test_the_frame_log_has_an_edge_fall_line_between_the_strokes_it_fell_between(
    strokes, outside, types, balls
):
    lines = frame_log_lines(strokes, outside_events=outside)
    assert [line["type"] for line in lines[1:]] == types
    assert [line["ball"] for line in lines if line["type"] == "edge_fall"] == balls
    referee = Referee()
    rulings = [referee.apply(line) for line in lines]
    assert not [r for r in rulings if "error" in r]
    for line, ruling in zip(lines, rulings, strict=True):
        if line["type"] == "edge_fall":
            assert ruling["announcements"] == [BALL_REPLACED]


# --------------------------------------------------------------------------------------- live
class _Scripted:
    """Stands in for VideoAnalysis: ends given strokes and reports given outside events at given
    frames (``outside_events`` grows as the segmenter's does)."""

    def __init__(self, strokes: dict[int, StrokeEvents], outside: dict[int, OutsideEvent]) -> None:
        self.frames: list[dict] = []
        self.other_views: list[dict] = []
        self.replays: list = []
        self.other_views_not_followed = 0
        self.other_view_looks = 0
        self.outside_events: list[OutsideEvent] = []
        self._strokes, self._outside = strokes, outside

    def process(self, frame: Frame, follow_other_view: bool = True) -> FrameOutcome:
        if frame.index in self._outside:
            self.outside_events.append(self._outside[frame.index])
        return FrameOutcome(frame, None, [self._strokes[frame.index]] if frame.index in self._strokes else [])

    def finish(self) -> list[StrokeEvents]:
        return []


def _video(path: Path, frames: int) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (64, 48))
    for i in range(frames):
        writer.write(np.full((48, 64, 3), (i * 3) % 256, np.uint8))
    writer.release()
    return path


LIVE_ROWS = [
    # (id, strokes by the frame they end on, outside events by the frame they are reported on,
    #  expected line types after the header)
    ("ruled-as-soon-as-found", {10: _stroke(5, 10)}, {20: _fell("red-1", 18)}, ["stroke", "edge_fall"]),
    ("between-two-strokes", {10: _stroke(5, 10), 40: _stroke(30, 40)}, {20: _fell("black", 18)},
     ["stroke", "edge_fall", "stroke"]),
    ("before-the-first-stroke-waits-for-it", {40: _stroke(30, 40)}, {5: _fell("pink", 3)},
     ["edge_fall", "stroke"]),
    ("not-an-edge-fall", {10: _stroke(5, 10)}, {20: _fell("red-1", 18, edge_fall=False)}, ["stroke"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("strokes", "outside", "types"), [r[1:] for r in LIVE_ROWS], ids=[r[0] for r in LIVE_ROWS]
)
def test_live_rules_an_edge_fall_ball_replaced_between_the_strokes(tmp_path: Path, strokes, outside, types):
    record = MatchRecord(tmp_path / "live.sqlite").open()
    try:
        session = MatchSession(record)
        session.apply({"type": "match", "players": ["Ann", "Bob"], "best_of": 1, "breaker": 0})
        said: list[str] = []
        table = LiveTable(
            session,
            detector=None,
            config=LiveTableConfig(frames=LiveConfig(pace_files=False, drop_when_full=False)),
            report=said.append,
            analysis_factory=lambda detector, view, config: _Scripted(strokes, outside),
        )
        status = table.run(VideoFileSource(_video(tmp_path / "clip.avi", 50)))
        applied = [line["type"] for line in session.applied_lines]
        assert applied[1:] == types
        falls = [row for row in record.entries() if row.line.get("type") == "edge_fall"]
        assert [row.ruling["announcements"] for row in falls] == [[BALL_REPLACED]] * types.count("edge_fall")
        assert sum(call.startswith(BALL_REPLACED) for call in status.calls) == types.count("edge_fall")
        assert sum("by itself" in line for line in said) == types.count("edge_fall")
    finally:
        record.close()


# ------------------------------------------------------------------------ rendered, end to end
def _render_edge_fall_clip(folder: Path, fall_after_rest_s: float) -> tuple[Path, Path, str]:
    """A rendered stroke (``red_stops_in_the_jaws``, seed 4: a red left 20 mm short of the top-left
    mouth, near the broadcast camera) after which the red, ``fall_after_rest_s`` after the balls
    stopped, rolls over the edge into the pocket (0.3 s) by itself; the clip runs 1.5 s on."""
    from snooker.calibration.table import STANDARD_TABLE
    from snooker.datasets.synth.camera import Camera
    from snooker.datasets.synth.clip import ClipConfig, render_frames
    from snooker.datasets.synth.render import RenderOptions
    from snooker.datasets.synth.scenarios import make_scenario

    traj = make_scenario("red_stops_in_the_jaws", 4).trajectory
    lip = np.asarray(traj.final_layout["red-1"])
    pocket = min(STANDARD_TABLE.pockets.values(), key=lambda p: float(np.linalg.norm(lip - p.mouth_centre)))
    drop = np.asarray(pocket.drop_centre)
    t_fall, fall_s = traj.rest_time + fall_after_rest_s, 0.3

    class Falling:
        balls, fps, shots, events = traj.balls, traj.fps, traj.shots, traj.events
        frame_times = np.arange(int((t_fall + fall_s + 1.5) * traj.fps) + 1) / traj.fps

        @staticmethod
        def position(ball: str, times: np.ndarray) -> np.ndarray:
            times = np.atleast_1d(np.asarray(times, float))
            out = traj.position(ball, times)
            if ball == "red-1":
                for k, t in enumerate(times):
                    if t >= t_fall:
                        f = (t - t_fall) / fall_s
                        out[k] = np.nan if f >= 1.0 else [*(lip + (drop - lip) * f * f), out[k][2]]
            return out

        @staticmethod
        def moving(ball: str, times: np.ndarray) -> np.ndarray:
            times = np.atleast_1d(np.asarray(times, float))
            out = traj.moving(ball, times)
            if ball == "red-1":
                out = out | ((times >= t_fall) & (times < t_fall + fall_s))
            return out

    camera = Camera.broadcast((1280, 720))
    video, calibration = folder / "edge_fall.mp4", folder / "edge_fall.calibration.json"
    writer = cv2.VideoWriter(
        str(video), cv2.VideoWriter_fourcc(*"mp4v"), traj.fps, (camera.width, camera.height)
    )
    for _, image, _ in render_frames(Falling(), camera, RenderOptions(), 4, ClipConfig()):
        writer.write(image)
    writer.release()
    calibration.write_text(json.dumps(camera.calibration()["table_view"]))
    return video, calibration, pocket.name


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fall_after_rest_s", "edge_fall"),
    [(3.0, True), (1.0, False)],
    ids=["falls-3s-after-the-stroke-ball-replaced", "falls-1s-after-balanced-potted-in-the-stroke"],
)
def test_analyze_writes_the_edge_fall_of_a_rendered_clip(
    tmp_path: Path, capsys, fall_after_rest_s, edge_fall
):
    """3 s after the balls stopped: an edge fall (3.9(a)), replaced. 1 s after: it balanced a moment
    and fell (3.9(c), ``StrokeConfig.edge_drop_moment_s``): potted in the stroke, which waited."""
    from snooker.cli import main

    video, calibration, pocket = _render_edge_fall_clip(tmp_path, fall_after_rest_s)
    out = tmp_path / "out"
    code = main(["analyze", str(video), "--calibration", str(calibration), "--out", str(out), "--referee"])
    assert code == 0, capsys.readouterr().err
    doc = json.loads((out / "analysis.json").read_text())
    lines = [json.loads(text) for text in (out / "frame_log.jsonl").read_text().splitlines()]
    [stroke] = [line for line in lines if line["type"] == "stroke"]
    assert len(doc["strokes"]) == 1
    fell = [e for e in doc["outside_stroke_events"] if e["type"] == "potted"]
    types = [line["type"] for line in lines if line["type"] not in ("match", "table")]
    assert all(r.get("type") == "stroke" for r in doc["rulings"])  # one per stroke, as CONTRACTS says
    calls = [r["announcements"] for r in doc["edge_fall_rulings"]]
    if edge_fall:
        assert stroke["potted"] == []
        [fell] = fell
        assert (fell["ball"], fell["pocket"], fell["edge_fall"]) == ("red-1", pocket, True) and fell["reason"]
        assert types == ["stroke", "edge_fall"] and lines[-1]["ball"] == "red"
        assert calls == [[BALL_REPLACED]]
    else:
        assert stroke["potted"] == [{"ball": "red", "pocket": pocket}] and fell == []
        assert types == ["stroke"] and calls == []
