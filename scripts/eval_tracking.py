"""Task3 of the Bucharest 2020 footage: the cue ball and one object ball tracked in 25 clips.

    .venv/bin/python scripts/eval_tracking.py [--data DIR] [--clips 1 2 3] [--cache out/eval_cache]

Scores each track by the original rule (IoU > 0.2 in at least 80 % of the truth frames) and
reports the centre error (median and 90th percentile) in image pixels and in table mm.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from snooker.pipeline.evaluation import (
    add_clip_arguments,
    analysis_config,
    clip_result,
    read_boxes,
    score_track,
)

DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "bucharest-2020" / "training"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_clip_arguments(parser, DEFAULT_DATA, "folder holding Task2/ and Task3/")
    args = parser.parse_args(argv)
    task3 = args.data / "Task3"
    if not task3.is_dir():
        print(f"no Task3 folder under {args.data}", file=sys.stderr)
        return 2
    from snooker.vision.detector import make_detector

    detector = make_detector(args.detector)
    config = analysis_config(fast_path=not args.no_fast_path)
    clips = args.clips or sorted(int(p.stem) for p in (args.data / "Task2").glob("*.mp4"))
    passed = tracks = 0
    all_px: list[float] = []
    all_mm: list[float] = []
    for n in clips:
        result = clip_result(args.data / "Task2" / f"{n}.mp4", detector, args.cache, config)
        for k in (1, 2):
            score = score_track(
                result, read_boxes(task3 / "ground-truth" / f"{n}_ball_{k}_gt.txt"), cue=k == 1
            )
            tracks += 1
            passed += score.passed
            all_px += score.centre_errors_px
            all_mm += score.centre_errors_mm
            med = np.median(score.centre_errors_px) if score.centre_errors_px else float("nan")
            print(
                f"clip {n:2d} ball {k}: {score.label or '-':7s} IoU>0.2 in {100 * score.hit_fraction:5.1f} % "
                f"of {score.frames} frames, median centre error {med:.2f} px "
                f"{'pass' if score.passed else 'FAIL'}",
                flush=True,
            )
    print(f"tracks passing the original rule: {passed}/{tracks} = {100.0 * passed / max(tracks, 1):.1f} %")
    if all_px:
        print(f"centre error px: median {np.median(all_px):.2f}, p90 {np.percentile(all_px, 90):.2f}")
    if all_mm:
        print(f"centre error mm: median {np.median(all_mm):.1f}, p90 {np.percentile(all_mm, 90):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
