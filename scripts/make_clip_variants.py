"""Transformed copies of the Task2 clips, to measure how the pipeline does on footage it was not tuned on.

    .venv/bin/python scripts/make_clip_variants.py --out out/variants [--variants p540 copy] [--clips 1 2]
    .venv/bin/python scripts/eval_pots.py --data out/variants/p540

Each variant is written to ``OUT/<variant>/Task2/N.mp4`` with the ground truth copied beside it, so
``scripts/eval_pots.py --data OUT/<variant>`` scores it as the originals. Pockets are numbered by
their place in the image, so nothing is mirrored or rotated. The variants are
``snooker.datasets.clip_variants.VARIANTS`` (re-encoded once, resized, a low bit rate, 25 fps, a
knocked camera, other broadcasts' looks).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from snooker.datasets.clip_variants import VARIANTS, write_variant
from snooker.datasets.shared import bucharest_training


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=bucharest_training(), help="folder holding Task2/")
    parser.add_argument("--out", type=Path, required=True, help="folder the variants are written under")
    parser.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=sorted(VARIANTS))
    parser.add_argument("--clips", nargs="+", type=int, default=None, help="clip numbers (default: all)")
    args = parser.parse_args(argv)
    task2 = args.data / "Task2"
    if not task2.is_dir():
        print(f"no Task2 folder under {args.data}", file=sys.stderr)
        return 2
    clips = args.clips or sorted(int(p.stem) for p in task2.glob("*.mp4") if p.stem.isdigit())
    for name in args.variants:
        folder = args.out / name / "Task2"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copytree(task2 / "ground-truth", folder / "ground-truth", dirs_exist_ok=True)
        for clip in clips:
            written = write_variant(task2 / f"{clip}.mp4", folder / f"{clip}.mp4", VARIANTS[name])
            print(f"{name} clip {clip}: {written} frames", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
