"""First contact in clusters: balls a centimetre or more apart around one place, one aimed at, at
25 and 50 fps (``simulated_shots.cluster``). A cue ball deflected off the ball it hit meets a
neighbour a few milliseconds later, within a frame: read as a simultaneous hit, that is a foul the
striker did not commit (a red and a colour at once). Scored on the exact set of first contacts."""

from __future__ import annotations

import numpy as np
import pytest
from mini_physics import PhysicsConfig, simulate
from simulated_shots import cluster, first_contact, track

SHOTS_PER_RATE = 30
MIN_ACCURACY = 0.95
MIN_GAP_MM = 10.0
MISSED_DETECTION_RATE = 0.02


@pytest.mark.parametrize("fps", [25.0, 50.0])
def test_a_shot_into_a_cluster_has_the_right_first_contact(fps):
    rng = np.random.default_rng(11)
    right, wrong, shots = 0, [], 0
    while shots < SHOTS_PER_RATE:
        layout = cluster(rng, MIN_GAP_MM)
        if layout is None:
            continue
        shots += 1
        shot = simulate(*layout, PhysicsConfig(fps=fps))
        got = first_contact(*track(shot, rng, missed_rate=MISSED_DETECTION_RATE))
        if got == tuple(sorted(shot.first_contact)):
            right += 1
        else:
            wrong.append((shot.first_contact, got))
    assert right / SHOTS_PER_RATE >= MIN_ACCURACY, wrong
