"""End to end on rendered synthetic clips: the whole scenario library through the real pipeline.

    .venv/bin/python scripts/eval_synth_e2e.py [--seeds 0 1 2] [--cameras broadcast overhead]
        [--size 1280x720] [--scenarios in_off ...] [--frames 0] [--calibration auto|truth]
        [--jobs 1] [--out out/synth_e2e] [--json FILE]

Every scenario (and ``--frames`` whole frames played by the simple player) is rendered for each
seed and camera into an mp4, read by the pipeline ``snooker-referee analyze`` runs (calibration
found in the frames unless ``--calibration truth``, classical detector, tracker, strokes) and ruled
by the referee; the results are compared with the simulation's truth
(``snooker.datasets.synth.e2e``). Printed per camera and overall: stroke and per-kind event
precision / recall, first-contact accuracy, ruling agreement (the referee on the perceived frame
log against the referee on the truth frame log: foul, penalty, points), agreement with the
simple-rule fouls of the truth, and the position error of the tracked balls in mm.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.e2e import EndToEndConfig, Summary, compare, film, run_pipeline
from snooker.datasets.synth.scenarios import SCENARIOS, ScenarioConfig, ScenarioError, make_scenario


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, got {text!r}") from None
    return w, h


def make_camera(kind: str, size: tuple[int, int]) -> Camera:
    return Camera.overhead(size) if kind == "overhead" else Camera.broadcast(size)


def one_clip(job: tuple[str, int, str, tuple[int, int], float, str, str, bool]):
    """Render, analyse and score one clip; returns (camera, name, seed, score, seconds) or an error."""
    name, seed, camera_kind, size, fps, calibration, out, keep = job
    started = time.time()
    config = EndToEndConfig(calibration=calibration)
    stem = Path(out) / camera_kind / f"{name}_s{seed}"
    if name.startswith("frame_player"):
        from snooker.datasets.synth.player import PlayerConfig, play_frame

        game = play_frame(seed * 100 + int(name.rsplit("_", 1)[1]), PlayerConfig(fps=fps))
        traj, ball_on = game.trajectory, game.balls_on
    else:
        try:
            scenario = make_scenario(name, seed, ScenarioConfig(fps=fps))
        except ScenarioError as exc:
            return camera_kind, name, seed, None, f"no scenario: {exc}"
        traj, ball_on = scenario.trajectory, scenario.ball_on
    truth = film(traj, make_camera(camera_kind, size), stem, name, ball_on, seed, config=config)
    run = run_pipeline(stem.with_suffix(".mp4"), truth, config)
    score = compare(truth, run, config)
    if not keep:
        stem.with_suffix(".mp4").unlink(missing_ok=True)
    return camera_kind, name, seed, score, round(time.time() - started, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument(
        "--cameras", nargs="+", choices=["broadcast", "overhead"], default=["broadcast", "overhead"]
    )
    parser.add_argument("--size", type=parse_size, default=(1280, 720))
    parser.add_argument(
        "--scenarios",
        nargs="*",
        default=None,
        help=f"default: all of {sorted(SCENARIOS)}; given with no name, none (only --frames player frames)",
    )
    parser.add_argument("--fps", type=float, default=30.0, help="frame rate the clips are rendered at")
    parser.add_argument("--frames", type=int, default=0, help="also this many player frames per seed")
    parser.add_argument("--calibration", choices=["auto", "truth"], default="auto")
    parser.add_argument("--jobs", type=int, default=1, help="clips analysed in parallel")
    parser.add_argument("--out", type=Path, default=Path("out/synth_e2e"))
    parser.add_argument("--keep-videos", action="store_true", help="keep the rendered mp4 files")
    parser.add_argument("--json", type=Path, help="also write the figures and per-clip notes here")
    args = parser.parse_args(argv)
    if args.fps <= 0:
        parser.error(f"--fps must be positive, got {args.fps}")
    names = list(args.scenarios) if args.scenarios is not None else sorted(SCENARIOS)
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown:
        parser.error(f"unknown scenarios {unknown}; known: {sorted(SCENARIOS)}")
    names += [f"frame_player_{k}" for k in range(args.frames)]
    jobs = [
        (name, seed, camera, args.size, args.fps, args.calibration, str(args.out), args.keep_videos)
        for camera in args.cameras
        for seed in args.seeds
        for name in names
    ]
    summaries = {camera: Summary() for camera in args.cameras}
    overall = Summary()
    clips = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for camera, name, seed, score, seconds in pool.map(one_clip, jobs):
            if score is None:
                print(f"{camera:9} {name:28} seed {seed}: skipped ({seconds})", flush=True)
                continue
            summaries[camera].add(score)
            overall.add(score)
            verdict = "all right" if score.all_right else "; ".join(score.notes)
            print(f"{camera:9} {name:28} seed {seed}: {verdict}  ({seconds} s)", flush=True)
            clips.append({"camera": camera, "name": name, "seed": seed, **_clip_dict(score)})
    report = {
        "size": list(args.size),
        "fps": args.fps,
        "seeds": args.seeds,
        "calibration": args.calibration,
        "cameras": {camera: s.to_dict() for camera, s in summaries.items()},
        "overall": overall.to_dict(),
    }
    for camera, summary in [*summaries.items(), ("overall", overall)]:
        _print_summary(camera, summary.to_dict())
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**report, "clips": clips}, indent=1))
    return 0


def _clip_dict(score) -> dict:
    data = asdict(score)
    data.pop("position_errors_mm")
    data["events"] = {k: asdict(v) for k, v in score.events.items()}
    data["all_right"] = score.all_right
    return data


def _print_summary(title: str, s: dict) -> None:
    print(
        f"\n== {title}: {s['clips']} clips, {s['calibrated']} calibrated automatically or given, "
        f"{s['clips_all_right']} all right"
    )
    st = s["strokes"]
    print(
        f"strokes        P {st['precision']:.3f}  R {st['recall']:.3f}  ({st['true']} found, "
        f"{st['missed']} missed, {st['invented']} invented)"
    )
    for kind, t in s["events"].items():
        print(
            f"{kind:14} P {t['precision']:.3f}  R {t['recall']:.3f}  ({t['true']} right, "
            f"{t['missed']} missed, {t['invented']} invented)"
        )
    print(
        f"first contact  {s['first_contact_accuracy']:.3f} of {s['truth_strokes']} strokes played, "
        f"{s['first_contact_accuracy_on_found_strokes']:.3f} of the {st['true']} found"
    )
    print(
        f"rulings        {s['ruling_agreement']:.3f} agree (foul {s['foul_agreement']:.3f}, penalty "
        f"{s['penalty_agreement']:.3f}, points {s['points_agreement']:.3f}; simple-rule fouls "
        f"{s['foul_agreement_with_simple_rules']:.3f}) over {s['rulings_compared']} strokes"
    )
    for k, e in s["position_error_mm"].items():
        if e["n"]:
            print(
                f"position {k:6} median {e['median']} mm, mean {e['mean']} mm, p95 {e['p95']} mm ({e['n']})"
            )


if __name__ == "__main__":
    sys.exit(main())
