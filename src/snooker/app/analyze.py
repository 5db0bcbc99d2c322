"""``snooker-referee analyze VIDEO --out DIR``: track a video, write analysis.json and a frame log.

Writes ``DIR/analysis.json`` and ``DIR/frame_log.jsonl`` (CONTRACTS.md §3), with ``--annotate``
also ``DIR/annotated.mp4``; with ``--referee`` the strokes are ruled on and the rulings included.
A video that cannot be opened, or in which no table is ever found, is a clear error (exit 1);
whatever was processed before a failure is still written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from snooker.app.inputs import InputError, load_view_and_detector
from snooker.pipeline.analyze import VideoAnalysis, frame_log_lines
from snooker.tracker import StrokeEvents


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", help="video file (or any source snooker.vision.sources can open)")
    parser.add_argument("--out", required=True, type=Path, help="output folder")
    parser.add_argument("--calibration", type=Path, help="calibration file (default: find the table)")
    parser.add_argument("--detector", default="classic", choices=("classic", "yolo"), help="ball detector")
    parser.add_argument("--referee", action="store_true", help="rule on the strokes and include the rulings")
    parser.add_argument("--annotate", action="store_true", help="also write DIR/annotated.mp4")
    parser.add_argument("--max-frames", type=int, help="stop after this many frames")


def run(args: argparse.Namespace) -> int:
    from snooker.vision.sources import SourceError, open_source, read_ahead

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    try:
        view, detector = load_view_and_detector(args.calibration, args.detector)
    except InputError as exc:
        return _fail(str(exc))
    analysis = VideoAnalysis(detector, view=view)
    referee, referee_error = _referee() if args.referee else (None, None)
    rulings: list[dict] | None = [] if referee is not None else None
    video = {"path": str(args.video), "fps": None, "frames": 0, "width": None, "height": None}
    error = None
    annotator = None
    try:
        source = open_source(args.video)
        with read_ahead(source, prepare=analysis.prepare) as frames:
            video["fps"] = source.fps
            total = getattr(source, "frame_count", None) or None
            with tqdm(total=total, unit="frame", desc="analyze", file=sys.stderr) as bar:
                for frame in frames:
                    if args.max_frames is not None and video["frames"] >= args.max_frames:
                        break
                    video["frames"] += 1
                    video["height"], video["width"] = frame.image.shape[:2]
                    outcome = analysis.process(frame)
                    if args.annotate:
                        annotator = annotator or _annotator(out, source.fps, frame.image.shape)
                    for ruling in _rule(referee, outcome.strokes, rulings):
                        if annotator is not None:
                            annotator.say(_call(ruling), frame.index)
                    if annotator is not None:
                        record = analysis.frames[-1] if outcome.state is not None else None
                        annotator.write(outcome, record)
                    bar.update(1)
            if getattr(source.stats, "ended_early", False):
                error = f"the video {args.video} ended early (truncated or corrupt), frame {video['frames']}"
    except SourceError as exc:
        error = str(exc)
    except KeyboardInterrupt:
        error = "interrupted"
    finally:
        _rule(referee, analysis.finish(), rulings)
        if annotator is not None:
            annotator.close()
    if error is None and analysis.view is None:
        error = f"no snooker table found in {args.video} ({video['frames']} frames read)"
    doc = analysis.analysis(video, rulings, error)
    if referee_error is not None:
        doc["referee_error"] = referee_error
    _write(out, doc, frame_log_lines(analysis.strokes))
    print(f"{len(analysis.strokes)} strokes, {len(analysis.all_pots())} pots → {out / 'analysis.json'}")
    if error is not None:
        return _fail(error)
    if referee_error is not None:
        return _fail(referee_error)
    return 0


def _annotator(out: Path, fps: float, shape: tuple[int, ...]):
    from snooker.pipeline.annotate import VideoAnnotator

    return VideoAnnotator(out / "annotated.mp4", fps, (shape[1], shape[0]))


def _referee() -> tuple[object | None, str | None]:
    """A referee that has read the frame log's header line (or why there is none)."""
    try:
        from snooker.referee import Referee
    except ImportError as exc:
        return None, f"the referee is not available: {exc}"
    referee = Referee()
    referee.apply(frame_log_lines([])[0])
    return referee, None


def _rule(referee, strokes: list[StrokeEvents], rulings: list[dict] | None) -> list[dict]:
    """Rule on finished strokes, appending to ``rulings``; returns the new rulings."""
    if referee is None or rulings is None:
        return []
    new = [referee.apply(stroke.to_log_line()) for stroke in strokes]
    rulings.extend(new)
    return new


def _call(ruling: dict) -> str:
    said = ", ".join(ruling.get("announcements", [])) or ("foul" if ruling.get("foul") else "fair")
    score = ruling.get("score")
    return f"referee: {said}" + (f"  score {score[0]}-{score[1]}" if score else "")


def _write(out: Path, doc: dict, log_lines: list[dict]) -> None:
    for name, text in (
        ("analysis.json", json.dumps(doc)),
        ("frame_log.jsonl", "".join(json.dumps(line) + "\n" for line in log_lines)),
    ):
        tmp = out / f"{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out / name)


def _fail(message: str) -> int:
    print(f"snooker-referee analyze: error: {message}", file=sys.stderr)
    return 1
