"""Measure how exact the synthetic footage's truth is.

    .venv/bin/python scripts/eval_synth.py [--stills 40] [--breaks 20] [--seed 0]

- Rendering: each ball is rendered alone; the centroid of the changed pixels is compared with
  the label (the camera projection of the 3-D centre), in px and, through the camera, in mm.
- Physics: at every ball–ball event the centre distance must be one diameter, at every cushion
  event the centre must be one radius from the cushion line; sampled every 2 ms no two balls may
  overlap. Reported as the worst residuals over random break-offs.
- Determinism: the scenario library's truth is generated twice and compared.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace

import numpy as np

from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.geometry import TableGeometry
from snooker.datasets.synth.physics import Shot, simulate
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.datasets.synth.scenarios import SCENARIOS, make_scenario
from snooker.datasets.synth.truth import clip_truth

R = STANDARD_TABLE.ball_radius_mm
KINDS = ("white", "red", "yellow", "green", "brown", "blue", "pink", "black")


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
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    report = {
        "render_overhead": render_errors(Camera.overhead(), args.stills, rng),
        "render_broadcast": render_errors(Camera.broadcast(), args.stills, rng),
        "physics": physics_residuals(args.breaks, rng),
        "determinism": truth_determinism(args.seed),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
