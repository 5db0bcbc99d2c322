"""Ball-inventory evaluation on labelled stills (the Bucharest 2020 Task1 format).

A still is labelled by a file ``N_gt.txt``: the number of balls on the table, then one line
``COUNT COLOUR`` per ball name. A detector is scored per still on two questions: is the number of
balls exactly right, and is the count of every ball name exactly right.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from snooker.balls import BALL_NAMES
from snooker.vision.types import BallDetections


class LabelError(ValueError):
    """A ground-truth file that does not follow the format (the message names the file)."""


@dataclass(frozen=True)
class LabelledStill:
    """One still and its labelled inventory: ``counts`` maps every ball name to its number."""

    image_path: Path
    total: int
    counts: dict[str, int]


@dataclass(frozen=True)
class StillResult:
    """How one detector did on one still (``counts`` found, time in milliseconds); ``detections``
    are kept for further study (e.g. fitting colour models on the stills it got right)."""

    still: LabelledStill
    counts: dict[str, int]
    detect_ms: float
    decode_ms: float
    detect_cpu_ms: float = float("nan")
    """Processor time of the detection (one thread): less disturbed by other work on the machine."""
    detections: BallDetections | None = None
    """Time to read and decode the still's JPEG: the yardstick for ``detect_ms`` on this machine."""

    @property
    def count_right(self) -> bool:
        return sum(self.counts.values()) == self.still.total

    @property
    def inventory_right(self) -> bool:
        return all(self.counts[name] == self.still.counts[name] for name in BALL_NAMES)


@dataclass(frozen=True)
class InventoryScore:
    """Rates over a set of stills: exact ball counts, exact per-name inventories, mean time."""

    results: list[StillResult] = field(default_factory=list)

    @property
    def stills(self) -> int:
        return len(self.results)

    @property
    def count_rate(self) -> float:
        return float(np.mean([r.count_right for r in self.results])) if self.results else 0.0

    @property
    def inventory_rate(self) -> float:
        return float(np.mean([r.inventory_right for r in self.results])) if self.results else 0.0

    @property
    def mean_ms(self) -> float:
        return float(np.mean([r.detect_ms for r in self.results])) if self.results else 0.0

    @property
    def mean_cpu_ms(self) -> float:
        return float(np.mean([r.detect_cpu_ms for r in self.results])) if self.results else 0.0

    @property
    def decode_ratio(self) -> float:
        """Detection time over JPEG decoding time (a machine-independent measure of speed)."""
        decode = sum(r.decode_ms for r in self.results)
        return sum(r.detect_ms for r in self.results) / decode if decode > 0 else float("nan")


def read_label(path: Path) -> tuple[int, dict[str, int]]:
    """Parse one ``N_gt.txt``: (total, counts per ball name); raises LabelError when malformed."""
    lines = [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        total = int(lines[0][0])
        counts = {name: 0 for name in BALL_NAMES}
        for number, name in lines[1:]:
            if name not in counts:
                raise LabelError(f"{path}: unknown ball name {name!r}")
            counts[name] = int(number)
    except (IndexError, ValueError) as exc:
        raise LabelError(f"{path}: not a ball-inventory label ({exc})") from exc
    if sum(counts.values()) != total:
        raise LabelError(f"{path}: the counts add up to {sum(counts.values())}, not {total}")
    return total, counts


def labelled_stills(folder: Path, skip: Iterable[str] = ()) -> list[LabelledStill]:
    """The stills ``folder/N.jpg`` that have a label ``folder/ground-truth/N_gt.txt`` and are real
    images (a broken stub that cannot show a table is skipped, as are names in ``skip``)."""
    stills = []
    for label in sorted((folder / "ground-truth").glob("*_gt.txt"), key=lambda p: _numeric_key(p.name)):
        stem = label.name.removesuffix("_gt.txt")
        image = folder / f"{stem}.jpg"
        if stem in set(skip) or not image.is_file():
            continue
        total, counts = read_label(label)
        stills.append(LabelledStill(image, total, counts))
    return stills


def _numeric_key(name: str) -> tuple[int, str]:
    head = name.split("_", 1)[0].split(".", 1)[0]
    return (int(head), name) if head.isdigit() else (1 << 30, name)


Detector = Callable[[np.ndarray, object], BallDetections]
ViewFinder = Callable[[LabelledStill, np.ndarray], object]
"""Gives the table view of a still (its path and image); raises TableNotFound when there is none."""


def evaluate(
    stills: list[LabelledStill],
    detector: Detector,
    find_view: ViewFinder,
    min_image_side_px: int = 200,
    transform: Callable[[np.ndarray], np.ndarray] | None = None,
) -> InventoryScore:
    """Run ``detector`` on every still (with the view ``find_view`` gives) and score it.

    Stills smaller than ``min_image_side_px`` on a side are not broadcast frames (a broken
    download) and are left out. A still whose table cannot be found counts as detecting nothing.
    ``transform`` (e.g. a photometric perturbation) changes each decoded still before the view is
    found and the detector runs.
    """
    from snooker.calibration import TableNotFound

    results = []
    for still in stills:
        start = time.perf_counter()
        image = cv2.imread(str(still.image_path), cv2.IMREAD_COLOR)
        decode_ms = 1000.0 * (time.perf_counter() - start)
        if image is None or min(image.shape[:2]) < min_image_side_px:
            continue
        if transform is not None:
            image = transform(image)
        try:
            view = find_view(still, image)
        except TableNotFound:
            view = None
        start, start_cpu = time.perf_counter(), time.process_time()
        detections = detector(image, view) if view is not None else BallDetections.empty()
        elapsed_ms = 1000.0 * (time.perf_counter() - start)
        cpu_ms = 1000.0 * (time.process_time() - start_cpu)
        results.append(StillResult(still, detections.counts(), elapsed_ms, decode_ms, cpu_ms, detections))
    return InventoryScore(results)
