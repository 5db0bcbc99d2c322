"""Build the YOLO ball data set, train the network, ship the weights — reproducibly, offline.

    # 1. data: training-clip frames labelled by the classical detector + 200 synthetic renders
    .venv/bin/python scripts/train_yolo.py data --out runs/yolo_data --seed 0 --every-n-frames 8 \
        --synthetic 200 --tiles-per-frame 2
    # 2. train from the yaml (no download); best.pt is copied to src/snooker/vision/weights/
    .venv/bin/python scripts/train_yolo.py train --data runs/yolo_data --hours 0.45 --seed 0
    # 3. export ONNX beside a checkpoint (optional; onnxruntime then runs it without torch)
    .venv/bin/python scripts/train_yolo.py export-onnx --weights WEIGHTS.pt

The shipped weights were made in three phases on shared 2-core CPUs (each phase's command and
metrics are nested in ``balls_yolo11n.json``). Phase 1: step 2 above but with ``--hsv-s 0.4`` on
tiles centred on uniformly chosen balls (27.8 min). Phase 2: ``--init`` phase 1, ``--lr0 0.001
--warmup-epochs 0 --close-mosaic 2`` on the same data, stopped by hand after 3 epochs. Phase 3: the
same arguments, ``--init`` phase 2, ``--hours 0.3``, on a data set rebuilt with class-balanced tiles
(``--tiles-per-frame 3 --out runs/yolo_data_bal``): with uniformly chosen tiles the far-end colours
were scarce and the yellow was named white.
A fresh single run on the balanced data set is the simpler way to reproduce it.

Real frames come from the Task2 clips only, never from the Task1 stills (the evaluation set), and
every clip that contains a frame nearly identical to a Task1 still is left out automatically
(``LeakCheckConfig``): several Task1 stills are frames of Task2 clips. The data set's provenance
(clips used and left out, counts, seed, git commit) is written to ``DIR/provenance.json``; the
training arguments and that provenance go next to the shipped weights as JSON.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import cv2
import numpy as np

from snooker.datasets.shared import bucharest_training
from snooker.datasets.yolo_export import (
    LabelledFrame,
    LeakCheckConfig,
    SynthConfig,
    TileConfig,
    clips_showing_stills,
    draw_labels,
    frame_tiles,
    sample_clip_frames,
    synthetic_frames,
    temporally_consistent,
    write_data_yaml,
    write_tiles,
)
from snooker.vision.yolo_input import InputConfig

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = bucharest_training()


def _git_commit() -> str:
    result = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    )
    return result.stdout.strip()


def _numeric_stem(path: Path) -> int:
    return int(path.stem) if path.stem.isdigit() else 10**6


def _load_stills(folder: Path) -> list[np.ndarray]:
    """The Task1 stills (evaluation set), only to find clips that contain them."""
    stills = []
    for path in sorted(folder.glob("*.jpg"), key=_numeric_stem):
        image = cv2.imread(str(path))
        if image is not None and min(image.shape[:2]) >= 200:
            stills.append(image)
    return stills


def real_frames(args: argparse.Namespace, provenance: dict) -> list[tuple[str, LabelledFrame]]:
    """Training-clip frames labelled by the classical detector, as (split, frame)."""
    from snooker.calibration import find_table
    from snooker.calibration.detect import TableNotFound
    from snooker.vision.classic import detect_balls

    shared = Path(args.shared)
    clips = sorted((shared / "Task2").glob("*.mp4"), key=_numeric_stem)
    leak = clips_showing_stills(clips, _load_stills(shared / "Task1"), LeakCheckConfig())
    limit = LeakCheckConfig().max_mean_difference
    clean = [clip for clip in clips if leak[clip] >= limit]
    provenance["clip_difference_to_nearest_still"] = {clip.name: round(v, 2) for clip, v in leak.items()}
    provenance["clips_left_out"] = [clip.name for clip in clips if leak[clip] < limit]
    provenance["clips_used"] = [clip.name for clip in clean]
    val_clips = set(clean[-args.val_clips :]) if args.val_clips else set()
    provenance["val_clips"] = sorted(clip.name for clip in val_clips)
    frames: list[tuple[str, LabelledFrame]] = []
    skipped, flickering = 0, 0
    for clip in clean:
        split = "val" if clip in val_clips else "train"
        clip_frames = []
        for index, image in sample_clip_frames(clip, args.every_n_frames):
            try:
                view = find_table(image)
            except TableNotFound:
                skipped += 1
                continue
            balls = detect_balls(image, view)
            clip_frames.append(LabelledFrame(f"{clip.stem}_f{index:04d}", image, balls, view))
        inventories = [tuple(frame.balls.counts().values()) for frame in clip_frames]
        keep = temporally_consistent(inventories, args.consistency_window)
        flickering += int((~keep).sum())
        frames += [(split, frame) for frame, kept in zip(clip_frames, keep, strict=True) if kept]
    provenance["real_frames"] = len(frames)
    provenance["real_frames_without_table"] = skipped
    provenance["real_frames_dropped_as_inconsistent"] = flickering
    return frames


def rendered_frames(args: argparse.Namespace, provenance: dict) -> list[tuple[str, LabelledFrame]]:
    """Synthetic renders with exact labels, if the renderer is available."""
    if args.synthetic == 0:
        provenance["synthetic"] = 0
        return []
    rng = np.random.default_rng(args.seed + 1)
    frames = []
    synth_config = SynthConfig()
    provenance["synth_config"] = asdict(synth_config)
    for k, frame in enumerate(synthetic_frames(args.synthetic, rng, synth_config)):
        split = "val" if k < args.synthetic * args.synthetic_val_fraction else "train"
        frames.append((split, frame))
    provenance["synthetic"] = len(frames)
    return frames


def command_data(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        print(f"error: {out} is not empty; choose a new folder", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    provenance: dict = {"seed": args.seed, "git_commit": _git_commit(), "arguments": vars(args)}
    started = time.perf_counter()
    frames = real_frames(args, provenance) + rendered_frames(args, provenance)
    rng = np.random.default_rng(args.seed)
    input_config = InputConfig()
    tile_config = replace(TileConfig(), tile_px=args.tile, tiles_per_frame=args.tiles_per_frame)
    overlay_dir = out / "overlays"
    overlay_dir.mkdir(exist_ok=True)
    picks = set(rng.choice(len(frames), size=min(args.overlays, len(frames)), replace=False).tolist())
    counts = {"train": 0, "val": 0}
    for k, (split, frame) in enumerate(frames):
        if k in picks:
            cv2.imwrite(str(overlay_dir / f"{frame.name}.png"), draw_labels(frame.image, frame.balls))
        counts[split] += write_tiles(out, split, frame_tiles(frame, input_config, tile_config, rng))
    write_data_yaml(out)
    provenance.update(
        tiles=counts,
        input_config=asdict(input_config),
        tile_config=asdict(tile_config),
        seconds=round(time.perf_counter() - started, 1),
    )
    (out / "provenance.json").write_text(json.dumps(provenance, indent=2, default=str) + "\n")
    print(json.dumps({k: provenance[k] for k in ("tiles", "seconds")}))
    return 0


def _record_beside(weights: Path | None) -> dict | None:
    """The JSON record shipped beside a checkpoint (its own training history), if any."""
    if weights is None or not weights.with_suffix(".json").is_file():
        return None
    return json.loads(weights.with_suffix(".json").read_text())


def command_train(args: argparse.Namespace) -> int:
    from snooker.vision.yolo import DEFAULT_WEIGHTS
    from snooker.vision.yolo_train import TrainConfig, ship, train

    data = Path(args.data)
    config = TrainConfig(
        model_yaml=args.model,
        epochs=args.epochs,
        time=args.hours,
        imgsz=args.imgsz,
        batch=args.batch,
        seed=args.seed,
        lr0=args.lr0,
        warmup_epochs=args.warmup_epochs,
        hsv_s=args.hsv_s,
        hsv_v=args.hsv_v,
        close_mosaic=args.close_mosaic,
    )
    started = time.perf_counter()
    init = Path(args.init) if args.init else None
    best = train(data / "data.yaml", config, Path(args.project), args.name, init)
    minutes = (time.perf_counter() - started) / 60
    record = {
        "train_config": asdict(config),
        "data_provenance": json.loads((data / "provenance.json").read_text()),
        "training_minutes": round(minutes, 1),
        "initial_weights": args.init or "none (built from the yaml)",
        "initial_weights_record": _record_beside(init),
        "git_commit": _git_commit(),
        "command": " ".join(sys.argv),
    }
    results = Path(args.project) / args.name / "results.csv"
    if results.is_file():
        record["last_epoch_metrics"] = results.read_text().splitlines()[-1]
    destination = Path(args.ship_to) if args.ship_to else DEFAULT_WEIGHTS
    ship(best, destination, record)
    print(f"shipped {destination} ({destination.stat().st_size / 1e6:.1f} MB) after {minutes:.1f} min")
    return 0


def command_export(args: argparse.Namespace) -> int:
    from snooker.vision.yolo import DEFAULT_WEIGHTS
    from snooker.vision.yolo_offline import OfflineConfig
    from snooker.vision.yolo_train import export_onnx

    weights = Path(args.weights) if args.weights else DEFAULT_WEIGHTS
    onnx_path = export_onnx(weights, OfflineConfig(), (args.height, args.width))
    print(f"exported {onnx_path} ({onnx_path.stat().st_size / 1e6:.1f} MB)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="build the tiled data set")
    data.add_argument("--out", default=str(REPO / "runs" / "yolo_data"))
    data.add_argument("--shared", default=str(DEFAULT_SHARED), help="bucharest-2020/training folder")
    data.add_argument("--seed", type=int, default=0)
    data.add_argument("--every-n-frames", type=int, default=10, help="sample every N-th clip frame")
    data.add_argument(
        "--consistency-window", type=int, default=3, help="samples each side for the label consistency check"
    )
    data.add_argument("--val-clips", type=int, default=1, help="last N clean clips go to validation")
    data.add_argument("--synthetic", type=int, default=0, help="synthetic renders to add")
    data.add_argument("--synthetic-val-fraction", type=float, default=0.1)
    data.add_argument("--tile", type=int, default=256, help="tile side, network px")
    data.add_argument("--tiles-per-frame", type=int, default=2)
    data.add_argument("--overlays", type=int, default=12, help="label overlays written for checking by eye")
    data.set_defaults(run=command_data)
    fit = sub.add_parser("train", help="train from the yaml and ship the best weights")
    fit.add_argument("--data", default=str(REPO / "runs" / "yolo_data"))
    fit.add_argument("--model", default="yolo11n.yaml")
    fit.add_argument("--epochs", type=int, default=30)
    fit.add_argument("--imgsz", type=int, default=256, help="must equal the data set's tile side")
    fit.add_argument("--hours", type=float, default=0.0, help="train for this wall time (overrides epochs)")
    fit.add_argument("--batch", type=int, default=16)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--project", default=str(REPO / "runs" / "yolo_train"))
    fit.add_argument("--name", default="balls")
    fit.add_argument("--init", default="", help="continue from this checkpoint of an earlier run")
    fit.add_argument("--lr0", type=float, default=0.002)
    fit.add_argument("--warmup-epochs", type=float, default=1.0)
    fit.add_argument("--hsv-s", type=float, default=0.15, help="saturation jitter (fraction)")
    fit.add_argument("--hsv-v", type=float, default=0.25, help="brightness jitter (fraction)")
    fit.add_argument("--close-mosaic", type=int, default=5, help="last epochs without mosaic")
    fit.add_argument("--ship-to", default="", help="weights destination (default: the shipped path)")
    fit.set_defaults(run=command_train)
    export = sub.add_parser("export-onnx", help="export the weights to ONNX (needs the onnx package)")
    export.add_argument("--weights", default="", help="checkpoint (default: the shipped one)")
    export.add_argument("--height", type=int, default=576, help="example input height (dynamic axes)")
    export.add_argument("--width", type=int, default=768, help="example input width (dynamic axes)")
    export.set_defaults(run=command_export)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
