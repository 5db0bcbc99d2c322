"""Benchmark the pipeline on this machine: throughput as a ratio to plain decoding, stages, several
clips at once (``analyze --jobs``), latency, memory, live drops and the YOLO network's speed
(``snooker.pipeline.bench`` does the work).

    .venv/bin/python scripts/bench.py [--clips 1 2 3] [--max-frames 150] [--out out/bench.json]

Prints the tables and writes the whole result, with the machine's description, as JSON so runs can
be compared. Speed is a benchmark, never a test: nothing here passes or fails on a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from snooker.app.allocator import keep_frame_arrays
from snooker.datasets.shared import shared_data_root
from snooker.pipeline.bench import BenchConfig, BenchError, format_report, run_bench

DEFAULT_DATA = shared_data_root()
DEFAULT_CLIPS = (1, 2, 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument(
        "--clips", type=int, nargs="+", default=list(DEFAULT_CLIPS), help="clip numbers (default 1 2 3)"
    )
    parser.add_argument("--all-clips", action="store_true", help="every clip of the task")
    parser.add_argument(
        "--task",
        type=int,
        choices=(2, 4),
        default=2,
        help="the clips: 2, the table in view (default); 4, broadcasts cutting to other views",
    )
    parser.add_argument("--detectors", nargs="+", default=["classic", "yolo"], help="detectors to run")
    parser.add_argument("--max-frames", type=int, default=150, help="frames per clip for throughput")
    parser.add_argument(
        "--batch-jobs", type=int, default=2, help="clips analysed at once by analyze --jobs (0: skip)"
    )
    parser.add_argument(
        "--long-video",
        type=Path,
        default=None,
        help="also a long video in one process and with analyze --jobs (scripts/make_long_video.py)",
    )
    parser.add_argument("--memory-frames", type=int, default=60, help="frames under tracemalloc (0: skip)")
    parser.add_argument("--live-clips", type=int, default=1, help="clips played live at 30 fps (0: skip)")
    parser.add_argument("--live-max-s", type=float, default=30.0, help="stop a live run after this long")
    parser.add_argument("--synthetic", type=int, default=2, help="synthetic strokes for latency (0: skip)")
    parser.add_argument("--no-yolo-network", action="store_true", help="skip timing the YOLO network")
    parser.add_argument(
        "--tracking-in-loop",
        action="store_true",
        help="throughput with the tracking in the frame loop, not in a worker process as analyze runs it",
    )
    parser.add_argument("--out", type=Path, default=Path("out/bench.json"), help="JSON result file")
    args = parser.parse_args(argv)
    keep_frame_arrays()  # as the analyze and live commands run (snooker.app.allocator)

    folder = args.data / "bucharest-2020" / "training" / f"Task{args.task}"
    if not folder.is_dir():
        print(f"bench: no footage at {folder} (set --data or SNOOKER_SHARED_DATA)", file=sys.stderr)
        return 2
    numbers = sorted(int(p.stem) for p in folder.glob("*.mp4")) if args.all_clips else args.clips
    try:
        config = BenchConfig(
            clips=tuple(folder / f"{n}.mp4" for n in numbers),
            detectors=tuple(args.detectors),
            max_frames_per_clip=args.max_frames,
            batch_jobs=args.batch_jobs,
            long_video=args.long_video,
            memory_frames=args.memory_frames,
            live_clips=args.live_clips,
            live_max_s=args.live_max_s,
            synthetic_clips=args.synthetic,
            yolo_network=not args.no_yolo_network,
            tracking_worker=not args.tracking_in_loop,
        )
        doc = run_bench(config, report=lambda line: print(line, file=sys.stderr, flush=True))
    except (BenchError, ValueError) as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    print(format_report(doc))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    print(f"→ {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
