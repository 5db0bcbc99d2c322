"""The live frame loop: source → calibration → detection → tracker → referee → feed/record/overlay.

:class:`LiveTable` reads a source through :class:`snooker.vision.sources.LiveFrames` (a bounded
queue that drops the oldest frame rather than fall behind), runs each frame through
:class:`snooker.pipeline.analyze.VideoAnalysis` (finding the table, detecting and tracking balls,
cutting strokes), and hands every finished stroke to a :class:`snooker.record.session.MatchSession`
as a frame-log line — which rules it, records it and tells the feed and the overlay.

Nothing here stops the referee: a frame the perception chain fails on is reported and skipped; a
source that ends or breaks (mid-stroke included) is reported, the stroke it cut off is settled by
the tracker and the session stays as it was; drops and latency are reported every
``status_every_s``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from snooker.calibration.view import CalibrationDoesNotFit, check_image_size
from snooker.pipeline.analyze import AnalysisConfig, Detector, FrameOutcome, VideoAnalysis
from snooker.pipeline.joining import (
    NEW_FRAME,
    EdgeFalls,
    JoinConfig,
    edge_fall_line,
    is_break_off,
    starts_next_frame,
    table_line,
)
from snooker.record.session import MatchSession
from snooker.tracker import StrokeEvents
from snooker.vision.sources import FrameSource, LiveConfig, LiveFrames, SourceError

LOG = logging.getLogger(__name__)

Reporter = Callable[[str], None]
FrameHook = Callable[[FrameOutcome, "LiveStatus"], None]


@dataclass(frozen=True)
class LiveTableConfig:
    """The live loop's parameters (units in the names).

    - ``analysis``: calibration, tracker and stroke parameters of the frame loop.
    - ``frames``: the bounded frame queue (size, pacing of files at their own frame rate).
    - ``status_every_s``: how often a status line (frames, drops, latency) is reported (seconds).
    - ``rule_truncated_strokes``: whether a stroke the source cut off before the balls came to rest
      is still ruled; off by default, since its facts are incomplete — it is reported instead, so a
      person can enter it on the console.
    - ``recent_calls``: how many recent referee calls the status keeps (for the window).
    - ``find_table_in_background``: while no table has been found, look for it on a worker thread
      and keep taking frames (skipped, "no table found yet") instead of letting the queue drop
      them behind a search that takes many frame times; only where the queue drops frames
      (``frames.drop_when_full``: a reader that waits loses nothing to a search in line).
    - ``join``: whether the camera came on at a frame's break-off or during a frame in play; before
      the match's first stroke the referee is told the table it joined (``joining.table_line``).
      After a frame ends, the next break-off it judges (``joining.is_break_off``) starts the next
      frame.
    - ``shed_other_views``: in a frame that does not show the table (a replay, a close-up, another
      camera), look for the cue ball only while no frame waits in the queue and the last look's
      time fits before the queue would drop a frame (``other_view_margin_s`` kept free for the
      rest of the frame's work). Nothing is refereed there and a look costs about a frame time or
      more (30-90 ms on the training footage against 33 ms a frame at 30 fps), so a broadcast
      cutting away would otherwise make the queue drop frames, the first ones back on the table
      among them.
    """

    analysis: AnalysisConfig = field(default_factory=AnalysisConfig)
    frames: LiveConfig = field(default_factory=LiveConfig)
    status_every_s: float = 5.0
    rule_truncated_strokes: bool = False
    recent_calls: int = 4
    find_table_in_background: bool = True
    join: JoinConfig = field(default_factory=JoinConfig)
    shed_other_views: bool = True
    other_view_margin_s: float = 0.010


@dataclass
class LiveStatus:
    """Running counts of the live loop (what the status line and the window show)."""

    frames_processed: int = 0
    frames_dropped: int = 0
    frames_skipped: int = 0
    frames_failed: int = 0
    strokes: int = 0
    strokes_not_ruled: int = 0
    other_views_not_followed: int = 0
    """Frames of other views in which the cue ball was not looked for, to keep up."""
    frames_missing: int = 0
    """Frames the source did not deliver (``SourceStats.frames_missing`` plus
    ``frames_undecodable``): a camera or stream that stalled or dropped out, frames missing from a
    file's timestamps, frames it could not decode."""
    source_gaps: int = 0
    """How many gaps those frames came in (``SourceStats.gaps``)."""
    latency_s: float = 0.0
    max_latency_s: float = 0.0
    started: float = field(default_factory=time.monotonic)
    ended: str | None = None
    failed: bool = False
    """The source failed or broke off (a truncated file), the calibration does not fit it, or a file
    ended without any frame showing the table."""
    calls: deque[str] = field(default_factory=deque)

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        return (
            f"live: {self.frames_processed} frames ({self.frames_processed / elapsed:.1f}/s), "
            f"{self.frames_dropped} dropped to keep up, {self.frames_skipped} skipped (no table, or moving), "
            f"{self.frames_failed} failed, {self.strokes} strokes; latency {self.latency_s * 1000:.0f} ms "
            f"(max {self.max_latency_s * 1000:.0f} ms)"
            + (
                f"; cue ball not looked for in {self.other_views_not_followed} frames of other views"
                if self.other_views_not_followed
                else ""
            )
            + (
                f"; {self.frames_missing} frames missing at the source in {self.source_gaps} gap(s)"
                if self.source_gaps
                else ""
            )
        )


def describe_ruling(ruling: dict[str, Any]) -> str:
    """One line for a ruling: the calls and the score."""
    if "error" in ruling:
        return f"referee refused the stroke: {ruling['error']}"
    calls = ", ".join(ruling.get("announcements", [])) or ("foul" if ruling.get("foul") else "fair")
    score = ruling.get("score") or ["?", "?"]
    return f"{calls} | {score[0]}-{score[1]}"


def live_analysis_config(config: LiveTableConfig) -> AnalysisConfig:
    """The frame loop's parameters as the live loop runs them: the first table looked for in the
    background where the queue drops frames (``find_table_in_background``)."""
    background = config.find_table_in_background and config.frames.drop_when_full
    return replace(config.analysis, find_table_in_background=background)


class LiveTable:
    """One table refereed live; ``run`` returns when the source ends or ``stop`` is called."""

    def __init__(
        self,
        session: MatchSession,
        detector: Detector,
        view: object | None = None,
        config: LiveTableConfig | None = None,
        report: Reporter | None = None,
        on_frame: FrameHook | None = None,
        analysis_factory: Callable[..., VideoAnalysis] = VideoAnalysis,
    ):
        self.session = session
        self.config = config or LiveTableConfig()
        self.report = report or LOG.warning
        self.on_frame = on_frame
        self.analysis = analysis_factory(detector, view=view, config=live_analysis_config(self.config))
        self._calibration = view
        """The calibration given (None: the table is found in the frames)."""
        self._frame_shape: tuple[int, ...] | None = None
        """The size of the frames read so far; a camera may come back from a drop-out at another."""
        self.status = LiveStatus(calls=deque(maxlen=self.config.recent_calls))
        self._stop = threading.Event()
        self._frames: LiveFrames | None = None
        self._source: FrameSource | None = None
        self._look_s: float | None = None
        """How long the last frame in which the cue ball was looked for in another view took (s)."""
        self._falls = EdgeFalls()
        """Which balls that fell from a pocket's edge by themselves have been ruled (``_edge_falls``)."""
        self._header_only = True
        """Whether only the match's header had been applied when last asked (``_first_stroke_due``)."""
        self._replays_reported = 0
        """How many of the analysis's replays have been reported."""
        self._views_reported = 0
        """How many of the analysis's searches for the table have been looked at for a camera move."""

    def stop(self) -> None:
        """Ask ``run`` to finish (from another thread or a signal handler); a source still being
        opened (a camera retried at start) stops trying."""
        self._stop.set()
        if self._source is not None:
            self._source.stop()

    def run(self, source: FrameSource) -> LiveStatus:
        """Referee ``source`` until it ends, fails for good, or ``stop`` is called."""
        status = self.status
        next_status = time.monotonic() + self.config.status_every_s
        self._source = source
        if self._stop.is_set():  # stopped before it began
            source.stop()
        try:
            prepare = getattr(self.analysis, "prepare", None)
            with LiveFrames(source, self.config.frames, prepare) as frames:
                self._frames = frames
                for frame in frames:
                    status.latency_s = frames.latency_s
                    status.max_latency_s = max(status.max_latency_s, frames.latency_s)
                    status.frames_dropped = frames.dropped
                    self._count_gaps(source)
                    self._process(frame)
                    if time.monotonic() >= next_status:
                        self.report(status.line())
                        next_status = time.monotonic() + self.config.status_every_s
                    if self._stop.is_set():
                        break
                status.frames_dropped = frames.dropped
            self._count_gaps(source)
            if self._stop.is_set():
                status.ended = "stopped"
        except SourceError as exc:
            if self._stop.is_set():  # stopped while the source was still being opened
                status.ended = "stopped"
            else:
                status.ended = f"source failed: {exc}"
                status.failed = True
        except CalibrationDoesNotFit as exc:
            status.ended = f"the calibration does not fit {source.name}: {exc}"
            status.failed = True
        if status.ended is None:
            early = getattr(source.stats, "ended_early", False)
            if not early:
                what = "ended"
            elif getattr(source, "is_live", False):
                what = "dropped out and did not come back"
            else:
                why = getattr(source.stats, "ended_early_why", None) or "truncated or corrupt"
                what = f"broke off ({why})"
            status.ended = f"source {source.name} {what}"
            status.failed = early
            never_showed = status.frames_processed > 0 and status.frames_skipped == status.frames_processed
            if not status.failed and never_showed and not getattr(source, "is_live", False):
                advice = (
                    "check that the calibration is this camera's"
                    if self._calibration is not None
                    else "give its calibration with --calibration, or check that it films a table"
                )
                status.ended = (
                    f"no frame of {source.name} showed the table ({status.frames_processed} frames "
                    f"looked at): {advice}"
                )
                status.failed = True
        self._settle()
        self.report(f"{status.ended}; {status.line()}")
        return status

    def _count_gaps(self, source: FrameSource) -> None:
        """The source's gaps so far in the status (counted on its reader thread)."""
        stats = source.stats
        self.status.frames_missing = stats.frames_missing + stats.frames_undecodable
        self.status.source_gaps = len(stats.gaps)

    def _process(self, frame) -> None:
        status = self.status
        if frame.image.shape != self._frame_shape:
            self._new_frame_size(frame.image.shape)
        looks = self.analysis.other_view_looks
        started = time.perf_counter()
        try:
            outcome = self.analysis.process(frame, follow_other_view=self._may_look_in_other_view())
        except CalibrationDoesNotFit:
            raise  # not this frame's fault: the calibration no longer maps the camera (ends the run)
        except Exception as exc:  # one bad frame must not stop the table
            status.frames_failed += 1
            self.report(f"frame {frame.index}: perception failed ({type(exc).__name__}: {exc}); skipped")
            return
        if self.analysis.other_view_looks > looks:
            self._look_s = time.perf_counter() - started
        # live keeps no per-frame history: memory stays flat for hours
        self.analysis.frames.clear()
        self.analysis.other_views.clear()
        status.other_views_not_followed = self.analysis.other_views_not_followed
        status.frames_processed += 1
        if outcome.skipped:
            status.frames_skipped += 1
        for stroke in outcome.strokes:
            self._rule(stroke)
        if not self._first_stroke_due():
            self._edge_falls(None)
        self._report_replays()
        self._report_camera_moves()
        if self.on_frame is not None:
            try:
                self.on_frame(outcome, status)
            except Exception as exc:  # a display problem is not a refereeing problem
                self.report(f"display failed ({exc}); continuing without it")
                self.on_frame = None

    def _new_frame_size(self, shape: tuple[int, ...]) -> None:
        """The first frame, or one of another size than those before (a camera back from a drop-out
        in another mode): a calibration given must fit it (ImageSizeMismatch ends the run, saying
        so); a table found in the frames is looked for again, at the new size."""
        before, self._frame_shape = self._frame_shape, shape
        if self._calibration is not None:
            check_image_size(self._calibration, shape)
        elif before is not None:
            self.report(
                f"the picture changed size ({before[1]}x{before[0]} → {shape[1]}x{shape[0]}): "
                "looking for the table again"
            )
            self.analysis.forget_view()

    def _report_replays(self) -> None:
        """Say which strokes were left unruled as a replay (``snooker.tracker.replays``)."""
        replays = self.analysis.replays
        for replay in replays[self._replays_reported :]:
            of = (
                ""
                if replay.of_stroke_frame is None
                else f" of the stroke from frame {replay.of_stroke_frame}"
            )
            self.report(f"frames {replay.first_frame}-{replay.last_frame}: a replay{of}, not ruled")
        self._replays_reported = len(replays)

    def _report_camera_moves(self) -> None:
        """Say where the picture moved and the table was found again, or the view moved with it
        (``VideoAnalysis.views``)."""
        views = getattr(self.analysis, "views", [])
        for view in views[self._views_reported :]:
            if view.get("adopted"):
                dx, dy = view["picture_moved_px"]
                followed = view.get("followed")
                then = (
                    "the table found again"
                    if followed is None
                    else f"the view moved with it (turned {followed['turn_deg']:+.2f} deg)"
                )
                self.report(f"frame {view['frame']}: the picture moved {dx:+.1f}, {dy:+.1f} px: {then}")
        self._views_reported = len(views)

    def _may_look_in_other_view(self) -> bool:
        """Whether the frame about to be processed may look for the cue ball should it show another
        view (see ``shed_other_views``): no frame waits, and the last look, if any, fits in the
        time before the queue would drop one (a frame arrives every 1 / fps; the frame being
        processed has waited ``latency_s``)."""
        frames = self._frames
        if not self.config.shed_other_views or frames is None:
            return True
        if frames.waiting > 0:
            return False
        if self._look_s is None:
            return True
        period = 1.0 / frames.source.fps
        room = (frames.config.queue_size + 1) * period - frames.latency_s - self.config.other_view_margin_s
        return self._look_s <= room

    def _settle(self) -> None:
        """The source is gone: close the stroke in progress (if any) and rule what can be ruled."""
        try:
            strokes = self.analysis.finish()
        except Exception as exc:
            self.report(f"could not settle the last stroke ({type(exc).__name__}: {exc})")
            return
        for stroke in strokes:
            self._rule(stroke)
        if not self._first_stroke_due():
            self._edge_falls(None)
        self._report_replays()

    def _first_stroke_due(self) -> bool:
        """Whether no line but the match's header has been applied: the first stroke may yet tell
        the referee the table it joined, which goes before any other line (asked on every frame:
        once a line has been, it is remembered)."""
        if not self._header_only:
            return False
        self._header_only = all(line.get("type") == "match" for line in self.session.applied_lines)
        return self._header_only

    def _edge_falls(self, before_frame: int | None) -> None:
        """Rule each ball found to have fallen from a pocket's edge by itself between strokes
        (``OutsideEvent.edge_fall``; 3.9(a): BALL REPLACED), once, before the stroke after it
        (``before_frame``: its first frame; None: all found so far, no stroke running). One the
        referee refuses (the ball is not on its table) is reported, kept in the record as refused."""
        outside = getattr(self.analysis, "outside_events", ())  # a stand-in analysis may keep none
        for event in self._falls.due(outside, before_frame):
            ruling = self.session.apply(edge_fall_line(event), origin="tracker")
            if "error" in ruling:
                said = f"referee refused it: {ruling['error']}"
            else:
                said = describe_ruling(ruling)
                self.status.calls.append(said)
            self.report(
                f"frame {event.frame}: the {event.label} fell into the {event.pocket} pocket by itself "
                f"({event.reason}): {said}"
            )

    def _rule(self, stroke: StrokeEvents) -> None:
        status = self.status
        if not self._first_stroke_due():
            self._edge_falls(stroke.start_frame)
        if stroke.truncated and not self.config.rule_truncated_strokes:
            status.strokes_not_ruled += 1
            seen = stroke.to_log_line()
            self.session.refuse(seen, "not ruled: cut off before the balls stopped", origin="tracker")
            self.report(
                f"stroke from frame {stroke.start_frame} was cut off before the balls stopped: not ruled, "
                f"kept in the record; if it counts, enter it on the console: {json.dumps(seen)}"
            )
            return
        if all(line.get("type") == "match" for line in self.session.applied_lines):
            joined = table_line(stroke, self.config.join)
            if joined is not None:
                answer = self.session.apply(joined, origin="tracker")
                said = answer.get("error") or f"{joined['reds']} reds, ball on {answer['ball_on']}"
                self.report(f"joined a frame in play: {said}")
            self._edge_falls(stroke.start_frame)
        else:
            self._next_frame_if_racked(stroke)
        ruling = self.session.apply(stroke.to_log_line(), origin="tracker")
        status.strokes += 1
        said = describe_ruling(ruling)
        status.calls.append(said)
        self.report(f"stroke frames {stroke.start_frame}-{stroke.end_frame}: {said}")

    def _next_frame_if_racked(self, stroke: StrokeEvents) -> None:
        """A break-off (``joining.starts_next_frame``: the cue ball in the D, the reds racked) after the
        frame ended starts the next frame (a ``new_frame`` line: the camera sees the re-rack, nobody
        needs to say it). One while the frame is still in play is reported and ruled as it stands:
        the frame may have been conceded, which only the console can say."""
        status = self.session.scoreboard()["status"]
        if starts_next_frame(status, stroke, self.config.join):
            answer = self.session.apply(dict(NEW_FRAME), origin="tracker")
            said = answer.get("error") or f"frame {answer['frame']}, the table re-racked"
            self.report(f"a new frame: {said}")
        elif status not in ("frame_over", "match_over") and is_break_off(stroke, self.config.join):
            self.report(
                f"stroke from frame {stroke.start_frame} looks like a break-off while the frame is still "
                "in play: if it was conceded, enter the concession on the console"
            )


def draw_status(image: np.ndarray, outcome: FrameOutcome, status: LiveStatus) -> np.ndarray:
    """A copy of the frame with the tracked balls, recent calls and the status line drawn on it."""
    import cv2

    from snooker.pipeline.annotate import BALL_BGR

    canvas = image.copy()
    if outcome.state is not None:
        for ball in outcome.state.balls:
            if ball.xy_px is None:
                continue
            centre = (round(ball.xy_px[0]), round(ball.xy_px[1]))
            radius = round(ball.radius_px or 8)
            cv2.circle(canvas, centre, radius + 3, BALL_BGR.get(ball.ball, (255, 255, 255)), 2)
    elif outcome.skipped:
        cv2.putText(canvas, outcome.skipped, (20, 70), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2)
        seen = outcome.cue_ball
        if seen is not None:
            centre = (round(seen.x_px), round(seen.y_px))
            cv2.circle(canvas, centre, round(seen.r_px) + 3, BALL_BGR["white"], 1 if seen.held else 2)
    cv2.putText(canvas, status.line(), (20, 35), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 255, 255), 2)
    y = canvas.shape[0] - 20
    for call in reversed(status.calls):
        cv2.putText(canvas, call, (20, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2)
        y -= 30
    return canvas
