"""Evaluate table calibration on the shared footage and on synthetic renders; print the figures.

    .venv/bin/python scripts/eval_calibration.py [--data DIR] [--cross-validate]

- Task1 stills: how many of the 49 valid stills give a table with six pockets in the frame, and
  the pocket error against the hand labels (tests/fixtures/calibration/) — median and maximum px.
- ``--cross-validate``: refit the rail constants (pocket-opening and leather offsets) on half of
  the labelled stills and measure on the other half, both ways — the honest out-of-sample error,
  since the shipped constants were fitted on all labelled stills.
- Task2 / Task4 clips: table found on the first, middle and last frame; shows_table over the
  clip with the first frame's view.
- Synthetic renders: worst ball-centre error (mm) for overhead and broadcast cameras.
- Time per find_table and per shows_table on this machine (information only).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from scipy.optimize import least_squares

from snooker.calibration import BALL_RADIUS, TableNotFound, find_table, shows_table
from snooker.calibration.camera import fit_camera
from snooker.calibration.detect import DEFAULT_CONFIG
from snooker.calibration.rails import STANDARD_RAILS
from snooker.calibration.synthetic import broadcast_camera, overhead_camera, render_table
from snooker.calibration.table import STANDARD_TABLE

REPO = Path(__file__).resolve().parents[1]
LABELS = REPO / "tests" / "fixtures" / "calibration" / "bucharest_task1_labels.json"
DEFAULT_DATA = REPO / ".." / "shared" / "data" / "bucharest-2020" / "training"
VALID_STILLS = [n for n in range(1, 51) if n != 42]
FITTED_FIELDS = (
    "corner_opening_offset_mm",
    "middle_opening_offset_mm",
    "opening_height_mm",
    "corner_leather_offset_mm",
    "middle_leather_offset_mm",
)


def pocket_errors(data: Path, labels: dict) -> dict[tuple[str, str], float]:
    errors = {}
    for still, entry in labels.items():
        view = find_table(cv2.imread(str(data / "Task1" / f"{still}.jpg")))
        for name, xy in entry["pockets_px"].items():
            errors[(still, name)] = float(np.hypot(*(np.array(view.pockets_px[name]) - xy)))
    return errors


def eval_stills(data: Path) -> None:
    found, times = 0, []
    for still in VALID_STILLS:
        image = cv2.imread(str(data / "Task1" / f"{still}.jpg"))
        start = time.perf_counter()
        try:
            view = find_table(image)
        except TableNotFound as exc:
            print(f"  still {still}: no table ({exc})")
            continue
        times.append(time.perf_counter() - start)
        pockets = np.array(list(view.pockets_px.values()))
        inside = np.all((pockets >= 0) & (pockets < [image.shape[1], image.shape[0]]))
        found += int(bool(inside) and shows_table(image, view))
    print(f"Task1: table and six pockets found on {found}/{len(VALID_STILLS)} valid stills")
    labels = json.loads(LABELS.read_text())["stills"]
    errors = pocket_errors(data, labels)
    values = np.array(list(errors.values()))
    worst = max(errors, key=errors.get)
    print(
        f"Task1 pocket error vs hand labels ({len(labels)} stills, {len(values)} pockets): "
        f"median {np.median(values):.2f} px, 90th percentile {np.percentile(values, 90):.2f} px, "
        f"max {values.max():.2f} px (still {worst[0]} {worst[1]})"
    )
    print(f"find_table: {1000 * np.median(times):.0f} ms per 1280x720 frame (median)")


def cross_validate(data: Path) -> None:
    """Refit the rail constants on half of the labelled stills, measure on the other half."""
    labels = json.loads(LABELS.read_text())["stills"]
    observed = []
    for still, entry in labels.items():
        view = find_table(cv2.imread(str(data / "Task1" / f"{still}.jpg")))
        leathers = {n: np.array(p) for n, p in view.extras["leathers_px"].items()}
        observed.append((np.array(view.extras["rail_corners_px"]), leathers, entry["pockets_px"]))

    def residuals(params: np.ndarray, subset) -> np.ndarray:
        rails = replace(STANDARD_RAILS, **dict(zip(FITTED_FIELDS, params, strict=True)))
        rails = replace(rails, leather_height_mm=rails.opening_height_mm)
        openings, leather_mm = rails.pocket_openings(), rails.pocket_leathers()
        out = []
        for corners, leathers, truth in subset:
            names = list(leathers)
            obj = np.vstack([rails.rail_corners(), *[leather_mm[n][None] for n in names]])
            img = np.vstack([corners, *[leathers[n][None] for n in names]])
            camera, _ = fit_camera(obj, img, (1280, 720))
            out.extend(camera.project(openings[n][None])[0] - xy for n, xy in truth.items())
        return np.ravel(out)

    start = np.array([getattr(STANDARD_RAILS, f) for f in FITTED_FIELDS])
    halves = (observed[::2], observed[1::2])
    for fit_on, test_on, name in ((halves[0], halves[1], "even→odd"), (halves[1], halves[0], "odd→even")):
        params = least_squares(lambda p, s=fit_on: residuals(p, s), start, diff_step=1e-3).x
        held_out = np.hypot(*residuals(params, test_on).reshape(-1, 2).T)
        print(
            f"cross-validation {name}: constants {np.round(params, 1).tolist()} → held-out pocket error "
            f"median {np.median(held_out):.2f} px, max {held_out.max():.2f} px"
        )


def eval_clips(data: Path, task: str) -> None:
    clips = sorted((data / task).glob("*.mp4"), key=lambda p: int(p.stem))
    if not clips:
        return
    found = {"first": 0, "middle": 0, "last": 0}
    any_found, shown, sampled = 0, 0, 0
    for path in clips:
        capture = cv2.VideoCapture(str(path))
        count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
        views = {}
        for where, index in (("first", 0), ("middle", count // 2), ("last", count - 1)):
            capture.set(cv2.CAP_PROP_POS_FRAMES, index)
            ok, frame = capture.read()
            if not ok:
                continue
            try:
                views[where] = find_table(frame)
                found[where] += 1
            except TableNotFound:
                pass
        any_found += int(bool(views))
        if "first" in views:
            capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            for index in range(count):
                ok, frame = capture.read()
                if not ok:
                    break
                if index % 10 == 0:
                    sampled += 1
                    shown += int(shows_table(frame, views["first"]))
        capture.release()
    n = len(clips)
    print(
        f"{task}: table found on first {found['first']}/{n}, middle {found['middle']}/{n}, "
        f"last {found['last']}/{n} frames; in at least one of the three: {any_found}/{n}"
    )
    if sampled:
        print(f"{task}: shows_table with the first frame's view on {shown}/{sampled} sampled frames")


def eval_synthetic() -> None:
    r = STANDARD_TABLE.ball_radius_mm
    xs, ys = np.meshgrid(
        np.linspace(r, STANDARD_TABLE.width_mm - r, 9), np.linspace(r, STANDARD_TABLE.length_mm - r, 15)
    )
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    cameras = {
        "overhead": overhead_camera(),
        "overhead (high, small)": overhead_camera(height_mm=6000.0, fill=0.7),
        "broadcast": broadcast_camera(),
        "broadcast (low)": broadcast_camera(distance_mm=2500.0, height_mm=2800.0, focal_px=900.0),
    }
    for name, camera in cameras.items():
        view = find_table(render_table(camera))
        seen = camera.project(np.column_stack([grid, np.full(len(grid), BALL_RADIUS)]))
        err = np.hypot(*(view.image_to_table(seen) - grid).T)
        flat = np.hypot(*(view.image_to_table(seen, 0.0) - grid).T)
        print(
            f"synthetic {name}: ball centres median {np.median(err):.2f} mm, max {err.max():.2f} mm "
            f"(ignoring ball height: max {flat.max():.1f} mm)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="bucharest-2020 training folder")
    parser.add_argument(
        "--cross-validate", action="store_true", help="refit rail constants on half the labels"
    )
    args = parser.parse_args(argv)
    eval_synthetic()
    if not (args.data / "Task1").is_dir():
        print(f"no footage at {args.data}; skipping the real-footage figures", file=sys.stderr)
        return 0
    eval_stills(args.data)
    if args.cross_validate:
        cross_validate(args.data)
    eval_clips(args.data, "Task2")
    eval_clips(args.data, "Task4")
    image = cv2.imread(str(args.data / "Task1" / "1.jpg"))
    view = find_table(image, DEFAULT_CONFIG)
    start = time.perf_counter()
    for _ in range(20):
        shows_table(image, view)
    print(f"shows_table: {1000 * (time.perf_counter() - start) / 20:.0f} ms per frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
