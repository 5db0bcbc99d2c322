"""Invariants of the tracker on random still layouts: nothing is potted, ids never change."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tracker_scenarios import Ball, run

from snooker.balls import COLOURS
from snooker.calibration.table import STANDARD_TABLE

D = STANDARD_TABLE.ball_diameter_mm


@st.composite
def layouts(draw):
    """A few still balls, apart from each other, some hidden for a while."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    names = ["white", *draw(st.lists(st.sampled_from(COLOURS), unique=True, max_size=4))]
    names += ["red"] * draw(st.integers(0, 6))
    placed: list[tuple[float, float]] = []
    balls = []
    for k, name in enumerate(names):
        while True:
            xy = (float(rng.uniform(60, 1718)), float(rng.uniform(60, 3509)))
            if all(math.dist(xy, p) > 1.2 * D for p in placed):
                break
        placed.append(xy)
        hidden = []
        if draw(st.booleans()):
            start = draw(st.floats(0.3, 1.5))
            hidden = [(start, start + draw(st.floats(0.1, 1.5)))]
        label = f"red-{k}" if name == "red" else name
        balls.append(Ball(label, [(0.0, *xy)], hidden=hidden))
    return balls


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layouts(), st.floats(0.0, 2.5))
def test_still_balls_are_never_potted_and_keep_their_ids(balls, noise_mm):
    result = run(balls, duration_s=3.0, noise_mm=noise_mm)
    assert not [e for e in result.events if e.kind in ("potted", "off_table")]
    assert result.strokes == []
    first = result.states[5].by_label()
    last = result.states[-1].by_label()
    assert set(first) == set(last)
    assert len(last) == len(balls)
    for label in first:
        assert math.dist(first[label].xy_mm, last[label].xy_mm) < 15.0
