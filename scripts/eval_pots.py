"""Task2 of the Bucharest 2020 footage: pots in 25 single-shot clips, scored as the original task.

    .venv/bin/python scripts/eval_pots.py [--data DIR] [--clips 1 2 3] [--cache out/eval_cache]

Prints one line per clip and the task score (units out of 4 per clip), plus pot precision and
recall (a pot is right when its colour and image pocket match the truth). With ``--cache`` the
per-clip detections are kept and reused, so only the tracker runs again (``scripts/eval_tracking.py``
reads the same cache; delete it after changing the detector or the calibration).
"""

from __future__ import annotations

import argparse
import sys

from snooker.datasets.shared import bucharest_training
from snooker.pipeline.evaluation import (
    PotTruth,
    add_clip_arguments,
    analysis_config,
    clip_result,
    pot_answer,
    task2_units,
)

DEFAULT_DATA = bucharest_training()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_clip_arguments(parser, DEFAULT_DATA, "folder holding Task2/ (training split)")
    args = parser.parse_args(argv)
    task2 = args.data / "Task2"
    if not task2.is_dir():
        print(f"no Task2 folder under {args.data}", file=sys.stderr)
        return 2
    from snooker.vision.detector import make_detector

    detector = make_detector(args.detector)
    config = analysis_config(fast_path=not args.no_fast_path)
    clips = args.clips or sorted(int(p.stem) for p in task2.glob("*.mp4"))
    units = right = predicted = truths = 0
    for n in clips:
        truth = PotTruth.read(task2 / "ground-truth" / f"{n}_gt.txt")
        answer = pot_answer(clip_result(task2 / f"{n}.mp4", detector, args.cache, config, args.frame_loop))
        got = task2_units(truth, answer)
        units += got
        truths += truth.potted
        predicted += answer.potted
        right += truth.potted and answer == truth
        print(f"clip {n:2d}: truth {_fmt(truth):18s} ours {_fmt(answer):18s} {got}/4", flush=True)
    total = 4 * len(clips)
    print(f"task score {units}/{total} = {100.0 * units / total:.1f} %")
    print(
        f"pot precision {right}/{predicted} = {_pct(right, predicted)}, "
        f"recall {right}/{truths} = {_pct(right, truths)}"
    )
    return 0


def _fmt(p: PotTruth) -> str:
    return f"YES {p.pocket} {p.colour}" if p.potted else "NO"


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f} %" if b else "n/a"


if __name__ == "__main__":
    sys.exit(main())
