"""Ball-inventory labels and scoring (format of the Bucharest 2020 Task1 ground truth)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.vision.inventory import LabelError, LabelledStill, evaluate, labelled_stills, read_label
from snooker.vision.types import BallDetections

GOOD = "3\n1 white\n1 black\n0 pink\n0 blue\n0 green\n0 brown\n0 yellow\n1 red\n"
BAD = {
    "empty": "",
    "total does not add up": "4\n1 white\n1 black\n1 red\n",
    "unknown colour": "1\n1 purple\n",
    "not a number": "x\n1 white\n",
}


def test_reads_a_label(tmp_path: Path) -> None:
    path = tmp_path / "1_gt.txt"
    path.write_text(GOOD)
    total, counts = read_label(path)
    assert total == 3
    assert counts == {
        "white": 1,
        "red": 1,
        "yellow": 0,
        "green": 0,
        "brown": 0,
        "blue": 0,
        "pink": 0,
        "black": 1,
    }


@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_malformed_label_names_the_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "7_gt.txt"
    path.write_text(text)
    with pytest.raises(LabelError, match=r"7_gt\.txt"):
        read_label(path)


def test_scores_count_and_inventory_separately(tmp_path: Path) -> None:
    (tmp_path / "ground-truth").mkdir()
    for stem in ("1", "2"):
        (tmp_path / "ground-truth" / f"{stem}_gt.txt").write_text(GOOD)
        cv2.imwrite(str(tmp_path / f"{stem}.jpg"), np.zeros((300, 400, 3), np.uint8))
    (tmp_path / "ground-truth" / "3_gt.txt").write_text(GOOD)  # no image: skipped
    stills = labelled_stills(tmp_path)
    assert [s.image_path.name for s in stills] == ["1.jpg", "2.jpg"]

    answers = {"1.jpg": ["white", "black", "red"], "2.jpg": ["white", "red", "red"]}
    current: list[str] = []

    def find_view(still: LabelledStill, image: np.ndarray) -> object:
        current[:] = answers[still.image_path.name]
        return object()

    def detector(image: np.ndarray, view: object) -> BallDetections:
        n = len(current)
        return BallDetections(np.zeros((n, 2)), np.ones(n), np.array(current, dtype=object), np.ones(n))

    score = evaluate(stills, detector, find_view)
    assert score.stills == 2
    assert score.count_rate == 1.0
    assert score.inventory_rate == 0.5
    assert score.decode_ratio > 0
