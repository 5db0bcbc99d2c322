"""The stroke-event finder on simulated shots: first contacts, pots and the cue ball, by layout family
and frame rate (the tests' ``mini_physics`` and ``simulated_shots``; no video, no detector).

    .venv/bin/python scripts/eval_shots_sim.py [--families spread break_off cluster]
        [--fps 25 30 50] [--shots 60] [--seed 2026] [--cluster-gap-mm 10] [--break-off-speed 4500 7000]

Prints per family and rate the share of first contacts and of pots (with the cue ball) right, and
the shots that were wrong: (shot, truth, found).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tracker"))
from mini_physics import PhysicsConfig, Shot, simulate
from simulated_shots import break_off, cluster, first_contact, spread, track

FAMILIES = ("spread", "break_off", "cluster")


def _pots_right(shot: Shot, strokes, to_truth) -> bool:
    if len(strokes) != 1:
        return False
    truth = {label: pocket for label, pocket in shot.potted.items() if label != "white"}
    found = {to_truth(p.label): p.pocket for p in strokes[0].potted}
    return found == truth and strokes[0].cue_ball == ("potted" if "white" in shot.potted else "on_table")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="+", choices=FAMILIES, default=list(FAMILIES))
    parser.add_argument("--fps", nargs="+", type=float, default=[25.0, 30.0, 50.0])
    parser.add_argument("--shots", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cluster-gap-mm", type=float, default=10.0)
    parser.add_argument("--break-off-speed", nargs=2, type=float, default=[4500.0, 7000.0], metavar="MM_S")
    parser.add_argument("--missed-rate", type=float, default=0.02)
    args = parser.parse_args(argv)
    layouts = {
        "spread": lambda rng, k: spread(rng, simultaneous=k % 6 == 5),
        "break_off": lambda rng, k: break_off(rng, tuple(args.break_off_speed)),
        "cluster": lambda rng, k: cluster(rng, args.cluster_gap_mm),
    }
    for family in args.families:
        for fps in args.fps:
            rng = np.random.default_rng(args.seed)
            contacts = pots = shots = 0
            wrong = []
            while shots < args.shots:
                layout = layouts[family](rng, shots)
                if layout is None:
                    continue
                shot = simulate(*layout, PhysicsConfig(fps=fps))
                shots += 1
                strokes, to_truth = track(shot, rng, missed_rate=args.missed_rate)
                found = first_contact(strokes, to_truth)
                truth = tuple(sorted(shot.first_contact))
                contacts += found == truth
                pots += _pots_right(shot, strokes, to_truth)
                if found != truth:
                    wrong.append((shots, truth, found))
            print(
                f"{family:10s} {fps:4.0f} fps  first contact {contacts}/{shots} = {contacts / shots:.3f}  "
                f"pots and cue ball {pots}/{shots} = {pots / shots:.3f}"
            )
            for item in wrong:
                print("    wrong first contact:", item)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
