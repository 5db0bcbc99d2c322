"""Does the fast path find what a full detection finds? Task2 clips run through the frame loop
(motion-gated detection, ``snooker.vision.gating``) and, on the very frames it detects, a full
detection by a separate classical detector; per frame, the balls the full one names that the gated
one misses or names elsewhere, and the balls the gated one names that the full one does not.

    .venv/bin/python scripts/eval_gate_agreement.py [--clips 3 5] [--max-frames 150] [--out out/g.json]

By design the two agree; what differs is counted by kind (missed, elsewhere, extra) and by what the
gate did on that frame (partial: changed regions searched; reused: nothing changed, the last
detections stood; full). The JSON lists every disagreement (clip, frame, gate, kind, ball, px).
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

import numpy as np

from snooker.datasets.shared import shared_data_root
from snooker.pipeline.analyze import AnalysisConfig, VideoAnalysis
from snooker.vision.classic import ClassicDetector
from snooker.vision.sources import open_source, read_ahead
from snooker.vision.types import BallDetections

DEFAULT_DATA = shared_data_root()


def disagreements(full: BallDetections, gated: BallDetections, tolerance_px: float) -> list[tuple]:
    """(kind, ball, (x, y) px) for each ball of ``full`` that ``gated`` misses ("missed": no ball of
    that name) or has no ball of that name within ``tolerance_px`` of ("elsewhere"), and each ball
    of ``gated`` with none of its name within ``tolerance_px`` in ``full`` ("extra")."""
    found = []
    names = sorted(set(map(str, full.ball)) | set(map(str, gated.ball)))
    for name in names:
        ours = full.xy_px[[str(b) == name for b in full.ball]] if len(full) else np.zeros((0, 2))
        theirs = gated.xy_px[[str(b) == name for b in gated.ball]] if len(gated) else np.zeros((0, 2))
        matched = np.zeros(len(theirs), bool)
        for point in ours:
            gaps = np.where(matched, np.inf, np.linalg.norm(theirs - point, axis=1))
            nearest = int(np.argmin(gaps)) if len(gaps) else -1
            if nearest >= 0 and gaps[nearest] <= tolerance_px:
                matched[nearest] = True
                continue
            kind = "elsewhere" if nearest >= 0 and np.isfinite(gaps[nearest]) else "missed"
            found.append((kind, name, tuple(np.round(point, 1).tolist())))
        for point, used in zip(theirs, matched, strict=True):
            near = len(ours) and np.linalg.norm(ours - point, axis=1).min() <= tolerance_px
            if not used and not near:
                found.append(("extra", name, tuple(np.round(point, 1).tolist())))
    return found


def run_clip(path: Path, max_frames: int, tolerance_radii: float) -> tuple[int, list[tuple]]:
    """The frames detected and the disagreements (frame, gate, kind, ball, px) of one clip."""
    analysis = VideoAnalysis(ClassicDetector(), config=AnalysisConfig())
    gated, full = analysis.detector, ClassicDetector()
    rows: list[tuple] = []
    frame = [0]

    def both(image, view):
        counts = getattr(gated, "counts", None)
        before = None if counts is None else (counts.full, counts.partial)
        found = gated(image, view)
        gate = "full"
        if before is not None:
            gate = (
                "full" if counts.full > before[0] else "partial" if counts.partial > before[1] else "reused"
            )
        reference = full(image, view)
        radius = float(np.median(reference.radius_px)) if len(reference) else 0.0
        for kind, name, xy in disagreements(reference, found, tolerance_radii * radius):
            rows.append((frame[0], gate, kind, name, xy))
        frame[0] += 1
        return found

    analysis.detector = both
    with read_ahead(open_source(path), prepare=analysis.prepare) as source:
        for index, item in enumerate(source):
            if index >= max_frames:
                break
            analysis.process(item)
    return frame[0], rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--clips", type=int, nargs="+", default=list(range(1, 26)), help="Task2 clips")
    parser.add_argument("--max-frames", type=int, default=150, help="frames per clip")
    parser.add_argument(
        "--tolerance-radii",
        type=float,
        default=0.5,
        help="a ball further than this (ball radii) is elsewhere",
    )
    parser.add_argument("--out", type=Path, help="JSON with every disagreement")
    args = parser.parse_args(argv)
    folder = args.data / "bucharest-2020" / "training" / "Task2"
    totals: collections.Counter = collections.Counter()
    every: list[tuple] = []
    frames = 0
    for clip in args.clips:
        count, rows = run_clip(folder / f"{clip}.mp4", args.max_frames, args.tolerance_radii)
        frames += count
        totals.update(f"{kind}/{gate}" for _, gate, kind, _, _ in rows)
        every.extend((clip, *row) for row in rows)
        print(f"clip {clip:2d}: {count} frames detected, {len(rows)} disagreements", flush=True)
    print(f"{frames} frames, {len(every)} disagreements: {dict(sorted(totals.items()))}")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        summary = {"frames": frames, "disagreements": len(every), "by_kind": dict(totals)}
        args.out.write_text(json.dumps({"summary": summary, "rows": every}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
