"""Real stills under another broadcast's white balance: the cue ball stays named.

Task1 stills graded in memory by channel gains (``snooker.vision.photometric``), table-driven over
looks. Before the frame transform modelled a colour cast (``ColourConfig.cast_prior_sigma``), the
constant a/b shift fitted to the reds left the white of each of these unnamed on its colour cost;
the other stills under the same looks were right before and stay so
(``scripts/eval_inventory.py --detector classic --perturb``).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from snooker.balls import BALL_NAMES
from snooker.calibration import find_table
from snooker.datasets.shared import bucharest_training
from snooker.vision.classic import ClassicDetector
from snooker.vision.inventory import labelled_stills
from snooker.vision.photometric import Perturbation, perturbation_named


def _stronger(name: str) -> Perturbation:
    """photometric's look ``name`` half as strong again (its channel gains to the power 1.5)."""
    gains = perturbation_named(name).channel_gains_bgr
    return Perturbation(f"{name} x1.5", channel_gains_bgr=tuple(float(g**1.5) for g in gains))


CASES = {
    # name: (still, look)
    "30 under the green tint": ("30", perturbation_named("green_tint")),
    "13 under the green tint x1.5": ("13", _stronger("green_tint")),
    "33 under the magenta tint x1.5": ("33", _stronger("magenta_tint")),
}


@pytest.fixture(scope="module")
def stills():
    folder = bucharest_training("Task1")
    if not (folder / "ground-truth").is_dir():
        pytest.skip(f"labelled stills not found at {folder}")
    return {s.image_path.stem: s for s in labelled_stills(folder)}


@pytest.mark.footage
@pytest.mark.parametrize(("stem", "look"), CASES.values(), ids=CASES.keys())
def test_a_still_under_a_colour_cast_is_named_whole(stills, stem: str, look: Perturbation) -> None:
    still = stills[stem]
    image = cv2.imread(str(still.image_path))
    detections = ClassicDetector()(look.apply(image), find_table(image))
    found = {name: int(np.sum(detections.ball == name)) for name in BALL_NAMES}
    assert found == still.counts
