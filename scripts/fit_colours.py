"""Fit the colour models on training-clip frames, and score them leak-free on the Task1 stills.

    PYTHONPATH=src .venv/bin/python scripts/fit_colours.py [--clips all|clean] [--rounds 2]
        [--every-n-frames 10] [--cross-validate] [--perturb] [--json OUT] [--crops DIR]

Frames come from the Task2 clips of ../shared/data/bucharest-2020/training, never from the Task1
stills (the evaluation set). Each round, the classical detector (with the models of the previous
round; the first uses the shipped ones) labels every sampled frame; a label is kept where the ball
rests and keeps its name over the clip (``colour_fit.consistent_labels``), and the labels are
checked against Task3 (the cue ball's box holds the ball named white) and Task2 (the potted
object ball, tracked by Task3, carries the potted colour). The models are fitted to the kept
balls' canonical colours (``fit_canonical_models``) and printed as the literal of
``colour._default_models``.

Several stills are frames of clips (nearly identical thumbnails), and stills and clips come from a
handful of broadcasts (events). ``--clips clean`` fits only on clips that contain no still
(``LeakCheckConfig``); ``--clips all`` (the shipped models) fits on every clip, and
``--cross-validate`` then scores the stills leak-free: each still is labelled with models fitted
without the clips of its event (clips whose frames come within ``EVENT_DIFFERENCE`` of it:
same table, lighting and balls), i.e. as footage of an unseen event; ``--perturb`` also scores the
stills under the broadcast perturbations (``snooker.vision.photometric``) that way. ``--crops``
writes a mosaic of kept balls per name, to check the labels by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from snooker.balls import BALL_NAMES
from snooker.calibration import TableNotFound, find_table
from snooker.datasets.shared import bucharest_training
from snooker.datasets.yolo_export import LeakCheckConfig, sample_clip_frames
from snooker.vision.classic import ClassicConfig, ClassicDetector, describe, detect_balls
from snooker.vision.colour import ColourConfig
from snooker.vision.colour_fit import (
    FitConfig,
    Models,
    ObservedFrame,
    consistent_labels,
    fit_canonical_models,
    transform_spread,
)
from snooker.vision.inventory import LabelledStill, evaluate, labelled_stills
from snooker.vision.photometric import BROADCAST_PERTURBATIONS, Perturbation

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = bucharest_training()
EVENT_DIFFERENCE = 20.0
"""Mean absolute thumbnail difference (0–255, as in ``LeakCheckConfig``) below which a clip is
taken for the same event as a still (same match: table, lighting, balls). Frames of one event
differ by 0.3–17 here, of two events by 18 and more."""
CROP_SIDE_PX = 48
CROPS_PER_NAME = 96


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED.resolve())
    parser.add_argument(
        "--clips", choices=("all", "clean"), default="all", help="clips the models are fitted on"
    )
    parser.add_argument("--every-n-frames", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (label the frames, fit)")
    parser.add_argument(
        "--cross-validate", action="store_true", help="score the stills, each without its event"
    )
    parser.add_argument("--perturb", action="store_true", help="with --cross-validate: also perturbed stills")
    parser.add_argument("--json", type=Path, help="write the models, checks and figures here")
    parser.add_argument("--crops", type=Path, help="write a mosaic of kept balls per name here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    clips = sorted((args.shared / "Task2").glob("*.mp4"), key=lambda p: int(p.stem))
    stills = labelled_stills(args.shared / "Task1", skip=["42"])
    if not clips or not stills:
        print(f"fit_colours: no clips or stills under {args.shared}", file=sys.stderr)
        return 2
    differences = _still_clip_differences(clips, stills, LeakCheckConfig())
    limit = LeakCheckConfig().max_mean_difference
    clean = [c for c in clips if min(d[c.stem] for d in differences.values()) >= limit]
    fit_clips = {c.stem for c in (clips if args.clips == "all" else clean)}
    print(f"clips showing no still: {[c.stem for c in clean]}; models fitted on: {args.clips}")
    colour, fit = ColourConfig(), FitConfig()
    views: dict[tuple[str, int], object] = {}
    report: dict[str, object] = {"fitted_on": sorted(fit_clips, key=int), "rounds": []}
    previous: dict[str, list[str]] | None = None
    for round_index in range(args.rounds):
        frames = _observe(clips, args.every_n_frames, views, replace(ClassicConfig(), colour=colour))
        masks = consistent_labels(frames, fit)
        labels = {f"{f.clip}_{f.index}": [str(n) for n in f.names] for f in frames}
        changed = None if previous is None else sum(previous.get(k) != v for k, v in labels.items())
        previous = labels
        summary = _summary(frames, masks, args.shared)
        summary["labels_changed_since_last_round"] = changed
        print(f"round {round_index + 1}: {summary}")
        report["rounds"].append(summary)  # type: ignore[union-attr]
        chosen = [i for i, f in enumerate(frames) if f.clip in fit_clips]
        models, transforms = fit_canonical_models(
            [frames[i] for i in chosen], [masks[i] for i in chosen], colour, fit
        )
        colour = replace(colour, models=models)
    spread = transform_spread(transforms)
    print("frame transforms, spread over frames:", {k: round(v, 3) for k, v in spread.items()})
    print("models (canonical mean L, a, b; spread L, a, b):")
    for name in BALL_NAMES:
        mean, deviation = colour.models[name]
        print(f'        "{name}": ({mean}, {deviation}),')
    report["models"] = colour.models
    report["transform_spread"] = spread
    if args.cross_validate:
        perturbations = [Perturbation("none"), *(BROADCAST_PERTURBATIONS if args.perturb else ())]
        report["cross_validated"] = _cross_validate(
            stills, differences, frames, masks, colour, fit, perturbations
        )
    if args.crops:
        _write_crops(args.crops, clips, frames, masks, args.every_n_frames)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


def _still_clip_differences(
    clips: list[Path], stills: list[LabelledStill], config: LeakCheckConfig
) -> dict[str, dict[str, float]]:
    """Per still (file name), per clip (stem): the least mean absolute thumbnail difference
    between the still and any of the clip's frames (every ``frame_step``-th)."""
    size = config.thumbnail_size
    thumbs = np.stack(
        [cv2.resize(cv2.imread(str(s.image_path)), size, interpolation=cv2.INTER_AREA) for s in stills]
    ).astype(np.float32)
    best = np.full((len(stills), len(clips)), np.inf)
    for k, clip in enumerate(clips):
        for _, frame in sample_clip_frames(clip, config.frame_step):
            thumb = cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.float32)
            best[:, k] = np.minimum(best[:, k], np.abs(thumbs - thumb).mean(axis=(1, 2, 3)))
    return {
        s.image_path.name: {c.stem: float(best[i, k]) for k, c in enumerate(clips)}
        for i, s in enumerate(stills)
    }


def _observe(
    clips: list[Path], every: int, views: dict[tuple[str, int], object], config: ClassicConfig
) -> list[ObservedFrame]:
    """Detect and describe the balls of every sampled frame (tables found once, then reused)."""
    frames = []
    for clip in clips:
        for index, image in sample_clip_frames(clip, every):
            key = (clip.stem, index)
            if key not in views:
                try:
                    views[key] = find_table(image)
                except TableNotFound:
                    views[key] = None
            view = views[key]
            if view is None:
                continue
            balls = detect_balls(image, view, config)  # type: ignore[arg-type]
            features = describe(image, view, balls.xy_px, config)  # type: ignore[arg-type]
            frames.append(ObservedFrame(clip.stem, index, balls.xy_px, balls.xy_mm, balls.ball, features))
    return frames


def _summary(frames: list[ObservedFrame], masks: list[np.ndarray], shared: Path) -> dict[str, object]:
    kept = {
        n: int(sum(np.sum(f.names[m] == n) for f, m in zip(frames, masks, strict=True))) for n in BALL_NAMES
    }
    return {
        "frames": len(frames),
        "labels": sum(len(f.names) for f in frames),
        "kept": kept,
        "task3_checks": _task3_checks(shared, frames),
    }


def _boxes(path: Path) -> dict[int, np.ndarray]:
    """Task3 box file: frame index → (x_min, y_min, x_max, y_max) px."""
    rows = [line.split() for line in path.read_text().splitlines()[1:] if line.strip()]
    return {int(r[0]): np.array(r[1:5], dtype=float) for r in rows}


def _task3_checks(shared: Path, frames: list[ObservedFrame]) -> dict[str, int]:
    """Frames whose cue-ball box holds a ball named white (or not); potted object balls whose box
    holds a ball named with the potted colour (or another name)."""
    counts = {"white_ok": 0, "white_wrong": 0, "potted_ok": 0, "potted_wrong": 0}
    boxes: dict[tuple[str, str], dict[int, np.ndarray]] = {}
    for frame in frames:
        truth = (shared / "Task2" / "ground-truth" / f"{frame.clip}_gt.txt").read_text().split()
        for ball, expected in (("1", "white"), ("2", truth[2] if truth[0] == "YES" else None)):
            if expected is None:
                continue
            if (frame.clip, ball) not in boxes:
                path = shared / "Task3" / "ground-truth" / f"{frame.clip}_ball_{ball}_gt.txt"
                boxes[(frame.clip, ball)] = _boxes(path)
            box = boxes[(frame.clip, ball)].get(frame.index)
            if box is None:
                continue
            xy = frame.xy_px
            inside = (xy[:, 0] >= box[0]) & (xy[:, 0] <= box[2]) & (xy[:, 1] >= box[1]) & (xy[:, 1] <= box[3])
            key = "white" if ball == "1" else "potted"
            if inside.any():
                counts[f"{key}_ok" if expected in set(frame.names[inside]) else f"{key}_wrong"] += 1
    return counts


def _cross_validate(
    stills: list[LabelledStill],
    differences: dict[str, dict[str, float]],
    frames: list[ObservedFrame],
    masks: list[np.ndarray],
    colour: ColourConfig,
    fit: FitConfig,
    perturbations: list[Perturbation],
) -> dict[str, dict[str, object]]:
    """Score each still with models fitted without the clips of its event, per perturbation."""
    fold_models: dict[tuple[str, ...], Models] = {}
    detectors: dict[str, ClassicDetector] = {}
    for still in stills:
        held_out = tuple(
            sorted(c for c, d in differences[still.image_path.name].items() if d < EVENT_DIFFERENCE)
        )
        if held_out not in fold_models:
            chosen = [i for i, f in enumerate(frames) if f.clip not in held_out]
            fold_models[held_out] = fit_canonical_models(
                [frames[i] for i in chosen], [masks[i] for i in chosen], colour, fit
            )[0]
        models = fold_models[held_out]
        detectors[still.image_path.name] = ClassicDetector(
            replace(ClassicConfig(), colour=replace(colour, models=models))
        )
    views: dict[str, object] = {}
    for still in stills:
        try:
            views[still.image_path.name] = find_table(cv2.imread(str(still.image_path)))
        except TableNotFound:
            views[still.image_path.name] = None
    figures: dict[str, dict[str, object]] = {}
    print(f"cross-validated by event ({len(fold_models)} folds): stills, exact count, exact colours")
    for perturbation in perturbations:
        right_count, right_inventory, wrong = 0, 0, []
        for still in stills:
            name = still.image_path.name

            def find_view(
                _still: LabelledStill,
                image: np.ndarray,
                name: str = name,
                resized: bool = perturbation.size is not None,
            ) -> object:
                if not resized:
                    if views[name] is None:
                        raise TableNotFound(name)
                    return views[name]
                return find_table(image)

            result = evaluate([still], detectors[name], find_view, transform=perturbation.apply).results  # type: ignore[arg-type]
            if not result:
                continue
            right_count += result[0].count_right
            right_inventory += result[0].inventory_right
            if not result[0].inventory_right:
                wrong.append(name)
        n = len(stills)
        figures[perturbation.name] = {
            "exact_count_rate": right_count / n,
            "exact_inventory_rate": right_inventory / n,
            "wrong_stills": wrong,
        }
        rates = f"{100 * right_count / n:>7.1f}% {100 * right_inventory / n:>7.1f}%"
        print(f"  {perturbation.name:<17} {n:>4} {rates}  {wrong}")
    perturbed = [v for k, v in figures.items() if k != "none"]
    if perturbed:
        mean_count = float(np.mean([v["exact_count_rate"] for v in perturbed]))
        mean_inventory = float(np.mean([v["exact_inventory_rate"] for v in perturbed]))
        figures["mean_perturbed"] = {"exact_count_rate": mean_count, "exact_inventory_rate": mean_inventory}
        print(f"  {'mean perturbed':<17} {'':>4} {100 * mean_count:>7.1f}% {100 * mean_inventory:>7.1f}%")
    return figures


def _write_crops(
    folder: Path, clips: list[Path], frames: list[ObservedFrame], masks: list[np.ndarray], every: int
) -> None:
    """One mosaic per name of kept balls (evenly spread over the frames), to look at."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {(f.clip, f.index): (f, m) for f, m in zip(frames, masks, strict=True)}
    crops: dict[str, list[np.ndarray]] = {name: [] for name in BALL_NAMES}
    half = CROP_SIDE_PX // 4
    for clip in clips:
        for index, image in sample_clip_frames(clip, every):
            if (clip.stem, index) not in wanted:
                continue
            frame, mask = wanted[(clip.stem, index)]
            padded = cv2.copyMakeBorder(image, half, half, half, half, cv2.BORDER_CONSTANT)
            for (x, y), name in zip(frame.xy_px[mask], frame.names[mask], strict=True):
                x, y = round(x) + half, round(y) + half
                crop = padded[y - half : y + half, x - half : x + half]
                crops[str(name)].append(
                    cv2.resize(crop, (CROP_SIDE_PX, CROP_SIDE_PX), interpolation=cv2.INTER_NEAREST)
                )
    for name, items in crops.items():
        if not items:
            continue
        step = max(1, len(items) // CROPS_PER_NAME)
        chosen = items[::step][:CROPS_PER_NAME]
        chosen += [np.zeros_like(chosen[0])] * (-len(chosen) % 12)
        rows = [np.hstack(chosen[i : i + 12]) for i in range(0, len(chosen), 12)]
        cv2.imwrite(str(folder / f"{name}.png"), np.vstack(rows))


if __name__ == "__main__":
    sys.exit(main())
