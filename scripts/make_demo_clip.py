"""Write the README demo's sample: samples/demo_clip.mp4, its truth and its calibration.

    .venv/bin/python scripts/make_demo_clip.py [--out samples/demo_clip]

Two strokes of a frame played by the simple player from the cue ball in hand — a red potted, then
a colour — filmed by the broadcast-like camera (960x540, under 1 MB), deterministic: the truth JSON
is identical on every run (the mp4 bytes depend on the codec build). Written next to the video:

- ``<out>.json``: the truth (positions per frame, events, the frame log, the expected fouls);
- ``<out>.calibration.json``: the camera's calibration, for ``analyze --calibration`` (the demo
  itself finds the table in the frames).

``make demo`` runs ``snooker-referee analyze`` on the clip and replays the frame log it wrote; the
truth's calls are printed here for comparison.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.e2e import film, rule
from snooker.datasets.synth.player import PlayerConfig, play_frame
from snooker.datasets.synth.render import RenderOptions

DEMO_SEED = 1
DEMO_STROKES = 2
DEMO_SIZE = (960, 540)
DEMO_NOISE_SIGMA = 1.0
"""Sensor noise of the demo (8-bit levels): a clean broadcast picture that also keeps the file small."""
MAX_BYTES = 1_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("samples/demo_clip"), help="path without suffix")
    args = parser.parse_args(argv)
    game = play_frame(DEMO_SEED, PlayerConfig(max_strokes=DEMO_STROKES))
    camera = Camera.broadcast(DEMO_SIZE)
    truth = film(
        game.trajectory,
        camera,
        args.out,
        "demo_clip",
        game.balls_on,
        seed=DEMO_SEED,
        options=RenderOptions(noise_sigma=DEMO_NOISE_SIGMA),
        extra={
            "description": "two strokes of a frame played by the simple player, cue ball in hand first",
            "seed": DEMO_SEED,
            "balls_on": game.balls_on,
        },
    )
    mp4 = args.out.with_suffix(".mp4")
    size = mp4.stat().st_size
    print(
        f"{mp4}: {truth['frames_count']} frames, {size / 1e6:.2f} MB; truth {args.out.with_suffix('.json')}"
    )
    header = {
        "type": "match",
        "schema": "snooker.log/1",
        "players": ["Player A", "Player B"],
        "best_of": 1,
        "breaker": 0,
    }
    for k, ruling in enumerate(rule([header, *truth["frame_log"]], opening=False), start=1):
        said = ", ".join(ruling.get("announcements", [])) or "no call"
        print(f"truth stroke {k}: {said}; score {ruling['score'][0]}-{ruling['score'][1]}")
    if size > MAX_BYTES:
        print(f"{mp4} is larger than {MAX_BYTES} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
