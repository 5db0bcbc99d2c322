"""Jitter of balls known to be at rest, in table mm: what the tracker's rest threshold must exceed.

    .venv/bin/python scripts/eval_rest_jitter.py [--data DIR] [--clips 1 2 3] [--cache out/eval_cache]

On each Task2 clip of the Bucharest 2020 footage, every ball rests while the player addresses the
cue ball: the frames up to ``--margin`` frames before the first stroke starts are used. Through the
default frame loop (its fast path included, as the tracker sees them) it reports each visible
ball's deviation from its median position (sd per table axis) and the tracker's statistic: the
largest displacement from the current position within ``MotionConfig.rest_window_s``, with how
often it exceeds ``MotionConfig.rest_displacement_mm`` (each time a resting ball would be taken
to move).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from snooker.datasets.shared import bucharest_training
from snooker.pipeline.evaluation import analysis_config, clip_result
from snooker.tracker.config import MotionConfig

DEFAULT_DATA = bucharest_training()
MIN_FRAMES = 10
"""Balls seen at rest on fewer frames than this are left out (too short to measure)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder holding Task2/")
    parser.add_argument("--clips", type=int, nargs="*", help="clip numbers (default: all)")
    parser.add_argument("--cache", type=Path, help="folder to keep / reuse per-clip detections")
    parser.add_argument("--margin", type=int, default=5, help="frames left out before a stroke starts")
    args = parser.parse_args(argv)
    task2 = args.data / "Task2"
    if not task2.is_dir():
        print(f"no Task2 folder under {args.data}", file=sys.stderr)
        return 2
    from snooker.vision.detector import make_detector

    motion = MotionConfig()
    detector = make_detector("classic")
    config = analysis_config()
    clips = args.clips or sorted(int(p.stem) for p in task2.glob("*.mp4"))
    deviations, window_max = [], []
    for n in clips:
        result = clip_result(task2 / f"{n}.mp4", detector, args.cache, config)
        if not result.strokes:
            continue
        end = result.strokes[0]["start_frame"] - args.margin
        tracks: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        for record in result.frames:
            if record["i"] >= end:
                break
            for ball in record["balls"]:
                if ball["visible"]:
                    tracks[ball["label"]].append((record["t"], ball["x_mm"], ball["y_mm"]))
        for seen in tracks.values():
            if len(seen) < MIN_FRAMES:
                continue
            a = np.array(seen)
            deviations.append(a[:, 1:] - np.median(a[:, 1:], axis=0))
            for t, x, y in a[a[:, 0] >= a[0, 0] + motion.rest_window_s]:
                window = a[(a[:, 0] >= t - motion.rest_window_s - 1e-9) & (a[:, 0] <= t)]
                window_max.append(float(np.max(np.hypot(window[:, 1] - x, window[:, 2] - y))))
    if not deviations:
        print("no ball seen at rest")
        return 1
    d = np.concatenate(deviations)
    w = np.array(window_max)
    above = int(np.sum(w > motion.rest_displacement_mm))
    print(
        f"{len(d)} sightings of balls at rest: sd {d[:, 0].std():.2f} mm across, {d[:, 1].std():.2f} mm along"
    )
    print(
        f"largest displacement within {motion.rest_window_s} s ({len(w)} frames): "
        f"p99 {np.percentile(w, 99):.1f}, p99.9 {np.percentile(w, 99.9):.1f}, max {w.max():.1f} mm; "
        f"above rest_displacement_mm ({motion.rest_displacement_mm} mm) on {above}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
