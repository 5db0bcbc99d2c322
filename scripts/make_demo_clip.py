"""Write the README demo's sample: samples/demo_clip.mp4 and its truth samples/demo_clip.json.

    .venv/bin/python scripts/make_demo_clip.py [--out samples/demo_clip]

A red potted into the top-right pocket, filmed by the broadcast-like camera, a few seconds long,
deterministic (the truth JSON is identical on every run; the mp4 bytes depend on the codec build).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.clip import write_clip
from snooker.datasets.synth.scenarios import make_scenario

DEMO_SCENARIO = "plain_pot_top_right"
DEMO_SEED = 0
DEMO_SIZE = (1280, 720)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("samples/demo_clip"), help="path without suffix")
    args = parser.parse_args(argv)
    scenario = make_scenario(DEMO_SCENARIO, DEMO_SEED)
    truth = write_clip(
        scenario.trajectory,
        Camera.broadcast(DEMO_SIZE),
        args.out,
        DEMO_SCENARIO,
        scenario.ball_on,
        seed=DEMO_SEED,
        extra={"description": scenario.description, "seed": DEMO_SEED},
    )
    mp4 = args.out.with_suffix(".mp4")
    size_mb = mp4.stat().st_size / 1e6
    print(f"{mp4}: {truth['frames_count']} frames, {size_mb:.2f} MB; truth {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
