"""Regression on the real stills as another broadcast would show them (issue 4).

Every third valid Task1 still (17 stills from all the broadcasts of the set) under a few of the
photometric changes of ``snooker.vision.photometric``: the classical detector's exact per-colour
inventories must stay at the level measured at the end of the work on issue 4 (see MEASURED;
``scripts/eval_inventory.py --perturb`` gives the figures on all 49 stills). The test fails when a
perturbation loses more than one still.
"""

from __future__ import annotations

import cv2
import pytest

from snooker.calibration import TableNotFound, find_table
from snooker.datasets.shared import bucharest_training
from snooker.vision.classic import ClassicDetector
from snooker.vision.inventory import evaluate, labelled_stills
from snooker.vision.photometric import perturbation_named

SUBSET_STEP = 3
MEASURED = {
    "warm": 17,
    "gamma_0.8": 15,
    "desaturated": 17,
    "960x540": 16,
}
"""Exact inventories (stills right, of 17) per perturbation, measured at the end of the work on
issue 4 (before it, with colour models fitted on the stills themselves: 15, 13, 5 and 16), and
for ``desaturated`` since a ball shown in part is found by its highlight and shadow (12 before)."""
ALLOWED_DROP = 1


@pytest.fixture(scope="module")
def stills_and_views():
    folder = bucharest_training("Task1")
    if not (folder / "ground-truth").is_dir():
        pytest.skip(f"labelled stills not found at {folder}")
    stills = [s for s in labelled_stills(folder) if s.image_path.stem != "42"][::SUBSET_STEP]
    views = {}
    for still in stills:
        try:
            views[still.image_path] = find_table(cv2.imread(str(still.image_path)))
        except TableNotFound:
            views[still.image_path] = None
    return stills, views


@pytest.mark.footage
@pytest.mark.slow
@pytest.mark.parametrize("name", MEASURED.keys())
def test_inventories_of_perturbed_stills(stills_and_views, name: str) -> None:
    stills, views = stills_and_views
    perturbation = perturbation_named(name)

    def find_view(still, image):
        if perturbation.size is not None:
            return find_table(image)
        if views[still.image_path] is None:
            raise TableNotFound(still.image_path.name)
        return views[still.image_path]

    score = evaluate(stills, ClassicDetector(), find_view, transform=perturbation.apply)
    assert score.stills == len(stills) == 17
    right = sum(r.inventory_right for r in score.results)
    assert right >= MEASURED[name] - ALLOWED_DROP, (name, right)
