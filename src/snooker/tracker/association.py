"""Matching detections to tracks: distance in table mm, colours as constraints, one assignment.

The cost of pairing track i with detection j is their distance in mm (plus a penalty when the
detection's colour is only confusable with the track's); pairs beyond the gate or of incompatible
colours are forbidden. The optimal one-to-one assignment is found with scipy's Hungarian solver.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

FORBIDDEN = 1e9
"""Cost standing for "may not be paired" (kept finite so the solver always has a solution)."""
PENALTY_TABLES_KEPT = 64
"""How many penalty tables between the names present (see :func:`_penalty_between`) are kept."""


def colour_penalty_matrix(
    track_balls: Sequence[str],
    detection_balls: Sequence[str],
    confusable: Sequence[tuple[str, str]],
    confusion_cost_mm: float,
) -> np.ndarray:
    """(n_tracks, n_detections) penalty in mm: 0 same colour, ``confusion_cost_mm`` confusable,
    ``FORBIDDEN`` otherwise."""
    # the penalty between the few names present, then looked up per pair (comparing name arrays
    # of Python strings costs a Python comparison per element)
    names = tuple(dict.fromkeys([*track_balls, *detection_balls]))
    code = {name: k for k, name in enumerate(names)}
    between = _penalty_between(names, tuple(tuple(pair) for pair in confusable), confusion_cost_mm)
    tracks = np.fromiter((code[name] for name in track_balls), dtype=np.intp, count=len(track_balls))
    detections = np.fromiter(
        (code[name] for name in detection_balls), dtype=np.intp, count=len(detection_balls)
    )
    return between[tracks[:, None], detections[None, :]]


@functools.lru_cache(maxsize=PENALTY_TABLES_KEPT)
def _penalty_between(
    names: tuple[str, ...], confusable: tuple[tuple[str, ...], ...], confusion_cost_mm: float
) -> np.ndarray:
    """(k, k) penalty in mm between the ``names`` present (in that order), as
    :func:`colour_penalty_matrix` reads it; kept for the next frames, which mostly hold the same
    names in the same order (read only: it is never handed out, only indexed into a new array)."""
    between = np.full((len(names), len(names)), FORBIDDEN)
    code = {name: k for k, name in enumerate(names)}
    for a, b in confusable:
        if a in code and b in code:
            between[code[a], code[b]] = between[code[b], code[a]] = confusion_cost_mm
    np.fill_diagonal(between, 0.0)
    between.flags.writeable = False
    return between


def assign(
    predicted_mm: np.ndarray,
    gates_mm: np.ndarray,
    detected_mm: np.ndarray,
    colour_penalty_mm: np.ndarray,
    distance_mm: np.ndarray | None = None,
) -> list[tuple[int, int]]:
    """Optimal pairs (track index, detection index) within each track's gate.

    ``predicted_mm`` (n, 2) and ``detected_mm`` (m, 2) are table mm; ``gates_mm`` (n,) the largest
    allowed distance per track; ``colour_penalty_mm`` (n, m) from :func:`colour_penalty_matrix`;
    ``distance_mm`` (n, m): their distances where the caller has them already (as computed here).
    """
    if len(predicted_mm) == 0 or len(detected_mm) == 0:
        return []
    distance = pair_distances(predicted_mm, detected_mm) if distance_mm is None else distance_mm
    cost = distance + colour_penalty_mm
    allowed = (distance <= gates_mm[:, None]) & (colour_penalty_mm < FORBIDDEN)
    cost = np.where(allowed, cost, FORBIDDEN)
    rows, cols = linear_sum_assignment(cost)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if allowed[r, c]]


def pair_distances(a_mm: np.ndarray, b_mm: np.ndarray) -> np.ndarray:
    """(n, m) mm: the distance of each of ``a_mm`` (n, 2) from each of ``b_mm`` (m, 2)."""
    return np.linalg.norm(a_mm[:, None, :] - b_mm[None, :, :], axis=2)
