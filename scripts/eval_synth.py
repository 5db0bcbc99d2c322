"""Measure how exact the synthetic footage's truth is, and how close its look is to real footage.

    .venv/bin/python scripts/eval_synth.py [--stills 40] [--breaks 20] [--seed 0] [--look]

- Rendering: each ball is rendered alone; the centroid of the changed pixels is compared with
  the label (the camera projection of the 3-D centre), in px and, through the camera, in mm.
- Physics: at every ball–ball event the centre distance must be one diameter, at every cushion
  event the centre must be one radius from the cushion line; sampled every 2 ms no two balls may
  overlap. Reported as the worst residuals over random break-offs.
- Determinism: the scenario library's truth is generated twice and compared.
- Look (``--look``, needs ../shared/data): each ball colour's core colour (Lab, as the classical
  detector measures it) on broadcast renders against its mean over the Bucharest 2020 stills
  (balls named by the detector on the stills whose inventory it gets exactly right), the cloth's
  colour, and whether ``find_table`` finds the table on random-look renders of both cameras (and
  how far its mapping is from the camera's, in mm over the playing area).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.shared import bucharest_training
from snooker.datasets.synth import render as synth_render
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.geometry import TableGeometry
from snooker.datasets.synth.physics import Shot, simulate
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.datasets.synth.scenarios import SCENARIOS, make_scenario
from snooker.datasets.synth.truth import clip_truth

R = STANDARD_TABLE.ball_radius_mm
KINDS = ("white", "red", "yellow", "green", "brown", "blue", "pink", "black")
REAL_STILLS = bucharest_training("Task1")
GRID_MM = np.stack(np.meshgrid(np.linspace(60, 1718, 6), np.linspace(60, 3509, 9)), axis=-1).reshape(-1, 2)


def _core_lab(image: np.ndarray, view, xy_px: np.ndarray) -> np.ndarray:
    from snooker.vision.classic import describe

    return describe(image, view, xy_px)[:, :3]


def real_look(folder: Path) -> dict:
    """Mean core Lab per ball name over the real stills the detector reads exactly right, and the
    median cloth colour (BGR) on the playing area."""
    import cv2

    from snooker.calibration import TableNotFound, find_table
    from snooker.vision.detector import make_detector
    from snooker.vision.inventory import labelled_stills

    detector = make_detector("classic")
    features: dict[str, list] = {k: [] for k in KINDS}
    cloth = []
    for still in labelled_stills(folder):
        image = cv2.imread(str(still.image_path))
        try:
            view = find_table(image)
        except TableNotFound:
            continue
        found = detector(image, view)
        cloth.append(np.median(image[view.playing_area_mask(image.shape[:2]) > 0], axis=0))
        if found.counts() != still.counts:
            continue
        for name, lab in zip(found.ball, _core_lab(image, view, found.xy_px), strict=True):
            features[str(name)].append(lab)
    return {
        "balls": {k: np.mean(v, axis=0) for k, v in features.items() if v},
        "cloth_bgr": np.median(cloth, axis=0),
    }


def synthetic_look(camera: Camera, stills: int, rng) -> dict:
    """The same measures on renders with the default look (all colours, three reds, random places)."""
    renderer = Renderer(camera, RenderOptions(jpeg_quality=85))
    view = camera.table_view()
    features: dict[str, list] = {k: [] for k in KINDS}
    cloth = []
    for _ in range(stills):
        positions: dict = {}
        for bid in [k for k in KINDS if k != "red"] + ["red-1", "red-2", "red-3"]:
            while True:
                xy = (float(rng.uniform(80, 1698)), float(rng.uniform(80, 3489)))
                if all(math.dist(xy, p) > 100 for p in positions.values()):
                    break
            positions[bid] = xy
        image, labels = renderer.render(positions, rng)
        xy_px = np.array([[b.x_px, b.y_px] for b in labels.balls])
        for label, lab in zip(labels.balls, _core_lab(image, view, xy_px), strict=True):
            features[label.ball].append(lab)
        cloth.append(np.median(image[view.playing_area_mask(image.shape[:2]) > 0], axis=0))
    return {
        "balls": {k: np.mean(v, axis=0) for k, v in features.items()},
        "cloth_bgr": np.median(cloth, axis=0),
    }


def look_report(stills: int, rng) -> dict:
    real = real_look(REAL_STILLS)
    synthetic = synthetic_look(Camera.broadcast(), stills, rng)
    balls = {}
    for kind in KINDS:
        if kind not in real["balls"]:
            continue
        r, s = real["balls"][kind], synthetic["balls"][kind]
        balls[kind] = {
            "real_Lab": [round(float(v), 1) for v in r],
            "synthetic_Lab": [round(float(v), 1) for v in s],
            "difference": round(float(np.linalg.norm(r - s)), 1),
        }
    return {
        "balls": balls,
        "cloth_bgr": {
            "real": [round(float(v)) for v in real["cloth_bgr"]],
            "synthetic": [round(float(v)) for v in synthetic["cloth_bgr"]],
        },
        "albedo_bgr": {k: list(v) for k, v in synth_render.BALL_COLOURS_BGR.items()},
    }


def calibration_on_renders(camera: Camera, n: int, rng) -> dict:
    """``find_table`` on random-look renders with a player and the score bar: how often it finds
    the table and how far its mapping lies from the camera's (mm, over a grid of the table)."""
    from snooker.calibration import TableNotFound, find_table
    from snooker.datasets.synth.render import ScoreGraphic, cue_and_arm

    found, errors = 0, []
    for _ in range(n):
        white = (float(rng.uniform(100, 1678)), float(rng.uniform(100, 3469)))
        options = RenderOptions.randomised(
            rng,
            occluders=cue_and_arm(white, float(rng.uniform(0, 360))),
            score_graphic=ScoreGraphic(),
        )
        image, _ = Renderer(camera, options).render({"white": white}, rng)
        try:
            view = find_table(image)
        except TableNotFound:
            continue
        found += 1
        mapped = view.image_to_table(camera.project_table(GRID_MM))
        errors.append(float(np.median(np.hypot(*(mapped - GRID_MM).T))))
    return {
        "renders": n,
        "found": found,
        "median_mm": round(float(np.median(errors)), 1) if errors else None,
        "worst_median_mm": round(float(np.max(errors)), 1) if errors else None,
    }


def render_errors(camera: Camera, n: int, rng) -> dict:
    options = replace(RenderOptions().clean(), shadow_strength=0.0)
    renderer = Renderer(camera, options)
    empty = np.clip(renderer.background, 0, 255).round()
    view = camera.table_view()
    px_err, mm_err = [], []
    for k in range(n):
        kind = KINDS[k % len(KINDS)]
        bid = "red-1" if kind == "red" else kind
        xy = (float(rng.uniform(40, 1738)), float(rng.uniform(40, 3529)))
        image, labels = renderer.render({bid: xy}, rng)
        changed = np.abs(image.astype(float) - empty).sum(axis=2) > 30
        ys, xs = np.nonzero(changed)
        if len(xs) == 0:
            continue
        centroid = np.array([xs.mean(), ys.mean()])
        label = labels.balls[0]
        px_err.append(float(np.hypot(*(centroid - [label.x_px, label.y_px]))))
        mm_err.append(float(np.hypot(*(view.image_to_table(centroid[None, :])[0] - xy))))
    return {
        "stills": len(px_err),
        "centre_px_mean": round(float(np.mean(px_err)), 3),
        "centre_px_max": round(float(np.max(px_err)), 3),
        "centre_mm_mean": round(float(np.mean(mm_err)), 2),
        "centre_mm_max": round(float(np.max(mm_err)), 2),
    }


def physics_residuals(n: int, rng) -> dict:
    geo = TableGeometry()
    segments = {s.name: s for s in geo.segments}
    worst = {"ball_ball_mm": 0.0, "cushion_mm": 0.0, "overlap_mm": 0.0}
    events = 0
    for _ in range(n):
        layout = dict(STANDARD_TABLE.rack_positions())
        layout["white"] = (float(rng.uniform(650, 1150)), float(rng.uniform(200, 600)))
        shot = Shot(
            float(rng.uniform(3000, 9000)),
            float(rng.uniform(80, 100)),
            top=float(rng.uniform(-0.3, 0.3)),
            side=float(rng.uniform(-0.3, 0.3)),
        )
        traj = simulate(layout, shot)
        for e in traj.events:
            if e.kind == "ball_ball":
                a, b = (traj.position(x, np.array([e.t]))[0, :2] for x in e.balls)
                worst["ball_ball_mm"] = max(worst["ball_ball_mm"], abs(math.dist(a, b) - 2 * R))
                events += 1
            elif e.kind == "cushion" and e.where in segments:
                seg = segments[e.where]
                p = traj.position(e.balls[0], np.array([e.t]))[0, :2]
                d = (p - np.asarray(seg.start)) @ np.asarray(seg.normal)
                worst["cushion_mm"] = max(worst["cushion_mm"], abs(d - R))
                events += 1
        times = np.arange(0.0, traj.duration_s, 0.002)
        xy = np.stack([traj.position(b, times)[:, :2] for b in traj.balls])
        for i in range(len(traj.balls)):
            d = np.linalg.norm(xy[i + 1 :] - xy[i], axis=2) - 2 * R
            if d.size and np.isfinite(d).any():
                worst["overlap_mm"] = max(worst["overlap_mm"], float(-np.nanmin(d)))
    return {"breaks": n, "contact_events": events, **{k: float(f"{v:.3g}") for k, v in worst.items()}}


def truth_determinism(seed: int) -> dict:
    camera = Camera.broadcast((640, 360))
    same = 0
    for name in sorted(SCENARIOS):
        docs = [
            json.dumps(clip_truth(make_scenario(name, seed).trajectory, camera, name, "red"))
            for _ in range(2)
        ]
        same += docs[0] == docs[1]
    return {"scenarios": len(SCENARIOS), "identical_truth": same}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stills", type=int, default=40)
    parser.add_argument("--breaks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--look", action="store_true", help="compare the look with the real stills")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    report = {
        "render_overhead": render_errors(Camera.overhead(), args.stills, rng),
        "render_broadcast": render_errors(Camera.broadcast(), args.stills, rng),
        "physics": physics_residuals(args.breaks, rng),
        "determinism": truth_determinism(args.seed),
    }
    if args.look:
        report["look"] = look_report(max(1, args.stills // 8), rng)
        report["find_table"] = {
            "broadcast": calibration_on_renders(Camera.broadcast(), args.stills, rng),
            "overhead": calibration_on_renders(Camera.overhead(), args.stills, rng),
        }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
