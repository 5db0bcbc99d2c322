"""How far the found calibration is off on real broadcast stills, from marks whose place is known.

    .venv/bin/python scripts/eval_calibration.py [--data DIR] [--max-from-spot-mm 40] [--json FILE]

The table is found in each Task1 still (``find_table``, as the pipeline does) and two kinds of mark
are read through it, in table mm:

- the coloured balls lying near their spots (yellow, green, brown, blue, pink, black; within
  ``--max-from-spot-mm``, so taken to be on them): their median offset from the spot, per colour;
- the painted baulk line (737 mm from the baulk cushion's nose): across the fitted line, at places
  away from the D's three spots, the brightest thin ridge of the cloth within ±``--search-mm``;
  the median of those places per still, then over the stills.

A calibration without bias reads both at ~0. Synthetic renders measure the calibration against
their own drawing of a table; only marks on a real table say whether the table constants
(``snooker.calibration.rails``) are those of the tables filmed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from snooker.calibration import TableNotFound, find_table
from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.shared import bucharest_training
from snooker.vision.classic import ClassicDetector

DEFAULT_DATA = bucharest_training("Task1")
LINE_SAMPLES_MM = np.concatenate([np.linspace(150.0, 500.0, 8), np.linspace(1280.0, 1628.0, 8)])
"""Places along the baulk line (table x, mm) where it is looked for: clear of the D's spots."""
MIN_RIDGE_CONTRAST = 6.0
"""The line's brightest place must stand this much (HSV value units) above the profile's median."""


def spot_offsets(stills: list[Path], max_from_spot_mm: float) -> dict[str, list[list[float]]]:
    """Per colour, the (dx, dy) mm offsets from its spot of the balls found near it."""
    detector = ClassicDetector()
    spots = STANDARD_TABLE.spots
    offsets: dict[str, list[list[float]]] = {name: [] for name in spots}
    for image, view in _views(stills):
        detections = detector(image, view)
        for xy, ball in zip(detections.xy_mm, detections.ball, strict=True):
            name = str(ball)
            if name in spots:
                offset = np.asarray(xy, float) - np.asarray(spots[name], float)
                if np.hypot(*offset) <= max_from_spot_mm:
                    offsets[name].append(offset.round(2).tolist())
    return offsets


def baulk_line_offsets(stills: list[Path], search_mm: float) -> list[float]:
    """Per still where the line shows, how far beyond 737 mm (along the table) it reads (mm)."""
    found = []
    across = np.arange(-search_mm, search_mm + 0.5, 1.0)
    for image, view in _views(stills):
        value = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 2].astype(np.float32)
        places = []
        for x in LINE_SAMPLES_MM:
            xy = np.column_stack([np.full_like(across, x), STANDARD_TABLE.baulk_line_y_mm + across])
            px = view.table_to_image(xy).astype(np.float32)
            profile = cv2.remap(
                value, px[:, 0].reshape(1, -1), px[:, 1].reshape(1, -1), cv2.INTER_LINEAR
            ).ravel()
            best = int(np.argmax(profile))
            if profile[best] - np.median(profile) >= MIN_RIDGE_CONTRAST:
                places.append(float(across[best]))
        if places:
            found.append(float(np.median(places)))
    return found


def _views(stills: list[Path]):
    """(image, view) of every still whose table is found."""
    for path in stills:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        try:
            yield image, find_table(image)
        except TableNotFound:
            continue


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of broadcast stills (*.jpg)")
    parser.add_argument("--max-from-spot-mm", type=float, default=40.0)
    parser.add_argument(
        "--search-mm", type=float, default=50.0, help="how far across the line it is looked for"
    )
    parser.add_argument("--json", type=Path, help="also write the offsets here")
    args = parser.parse_args(argv)
    stills = sorted(args.data.glob("*.jpg"))
    if not stills:
        print(f"eval_calibration: no stills (*.jpg) in {args.data}", file=sys.stderr)
        return 2
    offsets = spot_offsets(stills, args.max_from_spot_mm)
    print("offsets from the spots, mm (dy along the table, + towards the top cushion):")
    print(f"{'ball':8} {'balls':>5} {'median dx':>10} {'median dy':>10}")
    for name, values in offsets.items():
        if values:
            dx, dy = np.median(np.array(values), axis=0)
            print(f"{name:8} {len(values):5d} {dx:10.1f} {dy:10.1f}")
    line = baulk_line_offsets(stills, args.search_mm)
    if line:
        print(
            f"baulk line: read at 737 mm {np.median(line):+.1f} (median of {len(line)} stills where it shows)"
        )
    else:
        print("baulk line: not seen in any still")
    if args.json:
        args.json.write_text(
            json.dumps({"spot_offsets_mm": offsets, "baulk_line_offsets_mm": line}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
