"""Join the shared Task2 clips into one long video, for measuring one long video's analysis.

    .venv/bin/python scripts/make_long_video.py out/long.mp4 [--hold-s 4] [--clips 1 2 3]

Each clip is followed by its last frame held for ``--hold-s`` seconds (a pause between strokes, as
a match has them; 0 puts the strokes back to back). Written with OpenCV's MPEG-4 encoder (its
decoding is faster than the clips' H.264: compare ratios only on the same file). The footage stays
under ``out/`` (git-ignored), never in the repository.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from snooker.datasets.shared import shared_data_root

DEFAULT_DATA = shared_data_root()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the video to write (.mp4)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--clips", type=int, nargs="+", default=None, help="Task2 clip numbers (default all)")
    parser.add_argument("--hold-s", type=float, default=4.0, help="seconds each clip's last frame is held")
    args = parser.parse_args(argv)
    task2 = args.data / "bucharest-2020" / "training" / "Task2"
    numbers = args.clips or sorted(int(p.stem) for p in task2.glob("*.mp4"))
    if not numbers:
        print(f"make_long_video: no clips at {task2}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    writer, written = None, 0
    for number in numbers:
        capture = cv2.VideoCapture(str(task2 / f"{number}.mp4"))
        if not capture.isOpened():
            print(f"make_long_video: cannot open clip {number}", file=sys.stderr)
            return 2
        fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
        last = None
        while (read := capture.read())[0]:
            last = read[1]
            if writer is None:
                size = (last.shape[1], last.shape[0])
                writer = cv2.VideoWriter(str(args.out), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
            writer.write(last)
            written += 1
        capture.release()
        for _ in range(round(args.hold_s * fps) if last is not None else 0):
            writer.write(last)
            written += 1
    if writer is not None:
        writer.release()
    print(f"{written} frames → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
