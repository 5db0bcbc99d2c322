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

import numpy as np

from snooker.datasets.shared import bucharest_training
from snooker.pipeline.evaluation import baulk_line_offsets, spot_offsets

DEFAULT_DATA = bucharest_training("Task1")


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
