"""Regenerate the synthetic scenario library: an mp4 and a truth JSON per scenario.

    .venv/bin/python scripts/make_synth.py --seed 0 --out /tmp/synth [--camera overhead|broadcast]
        [--scenarios in_off pack_split ...] [--truth-only] [--size 1280x720] [--settle 1.5]

Same seed → identical truth JSON (the mp4 bytes may vary with the codec build). ``--frames N``
adds N whole frames played by the simple player (``frame_player_<k>``). Each clip is filmed
``--settle`` seconds past the moment the balls come to rest, so ``snooker-referee analyze`` sees its
strokes end; ``<name>.calibration.json`` next to it holds the camera's calibration.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.clip import with_settle, write_clip
from snooker.datasets.synth.scenarios import SCENARIOS, ScenarioError, make_scenario


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, got {text!r}") from None
    if w < 64 or h < 64:
        raise argparse.ArgumentTypeError("size must be at least 64x64")
    return w, h


def make_camera(kind: str, size: tuple[int, int]) -> Camera:
    return Camera.overhead(size) if kind == "overhead" else Camera.broadcast(size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--camera", choices=["overhead", "broadcast"], default="broadcast")
    parser.add_argument("--size", type=parse_size, default=(1280, 720))
    parser.add_argument("--scenarios", nargs="*", default=None, help=f"default: all of {sorted(SCENARIOS)}")
    parser.add_argument("--frames", type=int, default=0, help="whole frames played by the simple player")
    parser.add_argument("--truth-only", action="store_true", help="write truth JSON without rendering video")
    parser.add_argument("--settle", type=float, default=1.5, help="seconds filmed after the balls rest")
    args = parser.parse_args(argv)
    names = args.scenarios if args.scenarios else sorted(SCENARIOS)
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown:
        parser.error(f"unknown scenarios {unknown}; known: {sorted(SCENARIOS)}")
    camera = make_camera(args.camera, args.size)
    index = []
    for k, name in enumerate(names):
        started = time.time()
        try:
            scenario = make_scenario(name, args.seed)
        except ScenarioError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return 1
        truth = write_clip(
            with_settle(scenario.trajectory, args.settle),
            camera,
            args.out / name,
            name,
            scenario.ball_on,
            seed=args.seed * 1000 + k,
            render_video=not args.truth_only,
            extra={"description": scenario.description, "seed": args.seed},
        )
        index.append(
            {"name": name, "truth": f"{name}.json", "video": truth["video"], "strokes": len(truth["strokes"])}
        )
        print(f"{name}: {truth['frames_count']} frames, {time.time() - started:.1f} s", flush=True)
    if args.frames:
        from snooker.datasets.synth.player import play_frame

        for k in range(args.frames):
            name = f"frame_player_{k}"
            game = play_frame(args.seed * 100 + k)
            truth = write_clip(
                with_settle(game.trajectory, args.settle),
                camera,
                args.out / name,
                name,
                None,
                seed=args.seed * 1000 + 500 + k,
                render_video=not args.truth_only,
                extra={
                    "description": "a frame played by the simple player",
                    "seed": args.seed,
                    "balls_on": game.balls_on,
                },
            )
            index.append(
                {
                    "name": name,
                    "truth": f"{name}.json",
                    "video": truth["video"],
                    "strokes": len(truth["strokes"]),
                }
            )
            print(f"{name}: {truth['frames_count']} frames", flush=True)
    (args.out / "index.json").write_text(
        json.dumps({"seed": args.seed, "camera": args.camera, "clips": index}, indent=1)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
