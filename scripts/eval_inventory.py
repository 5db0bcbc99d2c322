"""Ball inventory on the labelled training stills, for each detector, side by side.

    .venv/bin/python scripts/eval_inventory.py [--detector classic yolo] [--data DIR] [--json OUT]
        [--perturb [NAME ...]] [--refind-table]

For every still (Bucharest 2020 Task1; the broken 87x76 stub 42.jpg is skipped because it is not
a frame) the table is found once, then each detector runs on it. Printed per detector: the rate of
exactly right ball counts, of exactly right per-colour inventories, and milliseconds per frame
for detection alone (wall clock, and processor time, which other work on a shared machine
disturbs less; finding the table is timed separately: a video does it once), also as a ratio to
the time to decode the still's JPEG on the same machine in the same run.

``--perturb`` scores the detectors again on the stills as another broadcast would show them
(``snooker.vision.photometric``: exposure, white balance, tone curve, saturation, blur, JPEG,
960x540), one row per change. The table found on the original still is kept for changes that
keep the size (the geometry is the same: this isolates the detector); it is found again on
resized stills, or on every changed still with ``--refind-table``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from snooker.balls import BALL_NAMES
from snooker.calibration import TableNotFound, find_table
from snooker.datasets.shared import bucharest_training
from snooker.vision.detector import DETECTOR_NAMES, make_detector
from snooker.vision.inventory import InventoryScore, LabelledStill, evaluate, labelled_stills
from snooker.vision.photometric import BROADCAST_PERTURBATIONS, Perturbation, perturbation_named

DEFAULT_DATA = bucharest_training("Task1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detector", nargs="+", choices=DETECTOR_NAMES, default=list(DETECTOR_NAMES))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="Task1 folder")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--failures", action="store_true", help="list the stills each detector gets wrong")
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1: one core)")
    parser.add_argument(
        "--perturb",
        nargs="*",
        metavar="NAME",
        help="also score on perturbed stills (no name: all of "
        + ", ".join(p.name for p in BROADCAST_PERTURBATIONS)
        + ")",
    )
    parser.add_argument(
        "--refind-table", action="store_true", help="find the table again on every perturbed still"
    )
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    if not (args.data / "ground-truth").is_dir():
        print(f"eval_inventory: no labelled stills in {args.data}", file=sys.stderr)
        return 2
    stills = labelled_stills(args.data)
    views, table_ms = _find_views(stills)
    report: dict[str, object] = {"data": str(args.data), "find_table_ms": table_ms, "detectors": {}}
    header = ("detector", "stills", "exact count", "exact colours", "ms/frame", "cpu ms", "x decode")
    print(
        f"{header[0]:<17} {header[1]:>6} {header[2]:>12} {header[3]:>14} {header[4]:>9} {header[5]:>7}"
        f" {header[6]:>9}"
    )
    for name in args.detector:
        try:
            detector = make_detector(name)
        except (ImportError, OSError, RuntimeError, ValueError) as exc:
            print(f"{name:<17} not available: {exc}")
            continue
        score = evaluate(stills, detector, lambda still, _image: _lookup(views, still))
        _print_row(name, score)
        report["detectors"][name] = _as_dict(score)  # type: ignore[index]
        if args.failures:
            _print_failures(score)
        if args.perturb is not None:
            perturbations = (
                [perturbation_named(p) for p in args.perturb] if args.perturb else BROADCAST_PERTURBATIONS
            )
            report["detectors"][name]["perturbed"] = _evaluate_perturbed(  # type: ignore[index]
                stills, detector, views, perturbations, args.refind_table, args.failures
            )
    print(f"(finding the table: {table_ms:.0f} ms per still, once per video in the pipeline)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


def _find_views(stills: list[LabelledStill]) -> tuple[dict[Path, object], float]:
    """Find the table once per still (the detectors share it); None where there is no table."""
    views: dict[Path, object] = {}
    elapsed = []
    for still in stills:
        image = cv2.imread(str(still.image_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        start = time.perf_counter()
        try:
            views[still.image_path] = find_table(image)
        except TableNotFound:
            views[still.image_path] = None
        elapsed.append(1000.0 * (time.perf_counter() - start))
    return views, sum(elapsed) / max(1, len(elapsed))


def _lookup(views: dict[Path, object], still: LabelledStill) -> object:
    view = views.get(still.image_path)
    if view is None:
        raise TableNotFound(f"no table in {still.image_path.name}")
    return view


def _evaluate_perturbed(
    stills: list[LabelledStill],
    detector: object,
    views: dict[Path, object],
    perturbations: list[Perturbation] | tuple[Perturbation, ...],
    refind_table: bool,
    failures: bool,
) -> dict[str, object]:
    """Score ``detector`` on the stills under each perturbation; one printed row per perturbation
    and a last row with the mean rates over them."""
    figures: dict[str, object] = {}
    counts, inventories = [], []
    for perturbation in perturbations:
        same_geometry = perturbation.size is None and not refind_table

        def find_view(still: LabelledStill, image: np.ndarray, reuse: bool = same_geometry) -> object:
            return _lookup(views, still) if reuse else find_table(image)

        score = evaluate(stills, detector, find_view, transform=perturbation.apply)  # type: ignore[arg-type]
        _print_row(f"  {perturbation.name}", score)
        if failures:
            _print_failures(score)
        figures[perturbation.name] = _as_dict(score)
        counts.append(score.count_rate)
        inventories.append(score.inventory_rate)
    print(f"{'  mean':<17} {'':>6} {100 * np.mean(counts):>11.1f}% {100 * np.mean(inventories):>13.1f}%")
    figures["mean"] = {
        "exact_count_rate": float(np.mean(counts)),
        "exact_inventory_rate": float(np.mean(inventories)),
    }
    return figures


def _print_row(name: str, score: InventoryScore) -> None:
    print(
        f"{name:<17} {score.stills:>6} {100 * score.count_rate:>11.1f}% {100 * score.inventory_rate:>13.1f}%"
        f" {score.mean_ms:>9.1f} {score.mean_cpu_ms:>7.1f} {score.decode_ratio:>9.2f}"
    )


def _print_failures(score: InventoryScore) -> None:
    for result in score.results:
        if result.inventory_right:
            continue
        wrong = {
            n: result.counts[n] - result.still.counts[n]
            for n in BALL_NAMES
            if result.counts[n] != result.still.counts[n]
        }
        print(f"    {result.still.image_path.name}: found minus truth {wrong}")


def _as_dict(score: InventoryScore) -> dict[str, object]:
    return {
        "stills": score.stills,
        "exact_count_rate": score.count_rate,
        "exact_inventory_rate": score.inventory_rate,
        "ms_per_frame": score.mean_ms,
        "cpu_ms_per_frame": score.mean_cpu_ms,
        "ms_per_frame_over_jpeg_decode": score.decode_ratio,
        "wrong_stills": [r.still.image_path.name for r in score.results if not r.inventory_right],
    }


if __name__ == "__main__":
    sys.exit(main())
