"""A rolling cue ball struck again softly, back or sideways, while the red it hit still runs: it
gains little speed (or loses it), but its velocity turns at once and stays turned. A rolling ball
whose detected centre jitters or jumps, one that screws back off a contact at the cloth's
friction, and one that bounces off a cushion change velocity too, and are not struck."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE

D = STANDARD_TABLE.ball_diameter_mm
R = STANDARD_TABLE.ball_radius_mm
SPOTS = STANDARD_TABLE.spots
WHITE_AT, RED_AT = (600.0, 1000.0), (600.0, 1500.0)
STRUCK_AT = 1.6
"""When the white is struck again (s), if it is."""
ROLL_MM_S = 300.0
"""The white's speed up the table after it hit the red (follow-through), mm/s."""
MU_G_MM_S2 = 0.2 * 9810.0
"""Sliding friction on the cloth (mu ~ 0.2): the most the cloth turns spin into motion, mm/s^2."""


def _contact():
    """The white struck at 0.5 s at 2000 mm/s onto the red: (contact time, contact place)."""
    travel = math.dist(WHITE_AT, RED_AT) - D
    return 0.5 + travel / 2000.0, (WHITE_AT[0], WHITE_AT[1] + travel)


def _rolled_on(t: float) -> tuple[float, float]:
    tc, (x, y) = _contact()
    return x, y + ROLL_MM_S * (t - tc)


def _path(velocity_of, until: float, step: float = 0.02):
    """Keyframes every ``step`` s from the contact, moving at ``velocity_of(t)`` (mm/s)."""
    tc, place = _contact()
    keys = [(0.0, *WHITE_AT), (0.5, *WHITE_AT), (tc, *place)]
    xy = np.array(place)
    t = tc
    while t < until:
        xy = xy + np.array(velocity_of(t + step / 2.0)) * step
        t += step
        keys.append((t, float(xy[0]), float(xy[1])))
    return keys


def _struck(new_velocity):
    """Rolling on at 300 mm/s, struck at 1.6 s to ``new_velocity`` (mm/s), then slowing at 0.5
    m/s^2 (rolling) to rest."""
    speed = math.hypot(*new_velocity)
    stop = STRUCK_AT + speed / 500.0

    def velocity(t):
        if t < STRUCK_AT:
            return (0.0, ROLL_MM_S)
        left = max(0.0, 1.0 - (t - STRUCK_AT) / (stop - STRUCK_AT))
        return (new_velocity[0] * left, new_velocity[1] * left)

    return _path(velocity, stop + 0.1)


def _screw_back():
    """Stops dead on the red, its back spin takes it back at mu*g for 0.4 s, then it rolls back
    slowing at 0.5 m/s^2 to rest (no cushion near)."""
    tc, _ = _contact()
    top = MU_G_MM_S2 * 0.4

    def velocity(t):
        if t < tc + 0.4:
            return (0.0, -MU_G_MM_S2 * (t - tc))
        return (0.0, -max(0.0, top - 500.0 * (t - tc - 0.4)))

    return _path(velocity, tc + 0.4 + top / 500.0 + 0.1)


def _off_the_cushion():
    """Cut off the red towards the left cushion at 450 mm/s, back off it at 0.7 of that."""
    tc, (x, y) = _contact()
    hit = tc + (x - R) / 450.0
    back = hit + 1.0
    return [(0.0, *WHITE_AT), (0.5, *WHITE_AT), (tc, x, y), (hit, R, y), (back, R + 315.0, y)]


class _JitteringCentre(Ball):
    """A ball whose detected centre is pulled ``offset`` (mm) off on the two frames from each of
    ``at`` (s) and then measured right again (a blob merging with a shadow or a hand for a moment)."""

    def __init__(self, label, keys, at, offset):
        super().__init__(label, keys)
        self.jumps, self.offset = at, np.array(offset)

    def at(self, t):
        p = super().at(t)
        if p is None or not any(0.0 <= t - a < 2.0 / 30.0 for a in self.jumps):
            return p
        return tuple(np.add(p, self.offset))


class _LaggingCentre(Ball):
    """A ball whose detected centre falls behind it by up to ``lag_mm`` over ``span_s`` from ``at``
    (s), then is measured right again (a ball crossing the painted baulk line: the line merges
    with its rim and holds the centre back until the ball has crossed it)."""

    def __init__(self, label, keys, at, span_s, lag_mm):
        super().__init__(label, keys)
        self.start, self.span_s, self.lag_mm = at, span_s, lag_mm

    def at(self, t):
        p = super().at(t)
        if p is None or not 0.0 <= t - self.start < self.span_s:
            return p
        return (p[0], p[1] - self.lag_mm * (t - self.start) / self.span_s)


def _rolling_on():
    """Rolling on up the table, slowing from 1 s to rest at 4 s."""
    return _path(lambda t: (0.0, ROLL_MM_S * min(1.0, max(0.0, (4.0 - t) / 3.0))), 4.0)


ROWS = {
    # Struck straight back against its roll: 500 mm/s, 200 more than before (a gain of speed
    # would need 600), its velocity changed by 800.
    "struck-back-softly": (lambda: Ball("white", _struck((0.0, -500.0))), 2, None, 30.0),
    # The same filmed at 25 fps and shown at 30: every sixth picture repeats.
    "struck-back-softly-25-fps-shown-at-30": (lambda: Ball("white", _struck((0.0, -500.0))), 2, 25.0, 30.0),
    # Struck sideways to 700 mm/s: 400 more, turned by 90 degrees.
    "struck-sideways": (lambda: Ball("white", _struck((-700.0, 0.0))), 2, None, 30.0),
    # Struck sideways to 800 mm/s, the cue hiding it for 0.1 s (three frames) as it is struck.
    "struck-sideways-hidden": (
        lambda: Ball("white", _struck((800.0, 100.0)), hidden=[(STRUCK_AT - 0.05, STRUCK_AT + 0.05)]),
        2,
        None,
        30.0,
    ),
    # The same at 50 fps, hidden for 0.12 s but for one blurred sighting 0.02 s after the strike
    # (as rendered overhead seeds 7 and 9 show it): three frames missed after that sighting.
    "struck-sideways-hidden-50-fps-seen-once-between": (
        lambda: Ball("white", _struck((800.0, 100.0)), hidden=[(1.55, 1.61), (1.63, 1.67)]),
        2,
        None,
        50.0,
    ),
    # Rolling on, its detected centre pulled 50 mm sideways for two frames, three times: read
    # across a pull, its velocity turns by 600 mm/s, but the sightings leave their line.
    "jittery-rolling-not-struck": (
        lambda: _JitteringCentre("white", _rolling_on(), [1.41, 1.81, 2.21], (50.0, 0.0)),
        1,
        None,
        30.0,
    ),
    # Rolling on at 50 fps, its detected centre held back by up to 18 mm over 0.1 s and caught
    # up at once (rendered broadcast pack_split seed 2, 22 mm): over four sightings at 50 fps
    # (0.06 s) the catching up reads as a strike, its sightings near a line.
    "lagging-centre-catching-up-50-fps-not-struck": (
        lambda: _LaggingCentre("white", _rolling_on(), 1.6, 0.1, 18.0),
        1,
        None,
        50.0,
    ),
    # Stops on the red and screws back at the cloth's friction: its velocity changes as much as a
    # soft strike's over 0.4 s, but not at once.
    "screw-back-not-struck": (lambda: Ball("white", _screw_back()), 1, None, 30.0),
    # Off a cushion at 450 mm/s and back at 315: its velocity turns by 765 at once, at the cushion.
    "cushion-bounce-not-struck": (lambda: Ball("white", _off_the_cushion()), 1, None, 30.0),
}


@pytest.mark.parametrize(("white", "strokes", "content_fps", "fps"), ROWS.values(), ids=ROWS.keys())
def test_a_rolling_cue_ball_struck_again_back_or_sideways_starts_a_new_stroke(
    white, strokes, content_fps, fps
):
    tc, _ = _contact()
    red = Ball("red", [(0, *RED_AT), (tc, *RED_AT), (tc + 2.5, 600.0, 3300.0)])
    balls = [white(), red, still("yellow", *SPOTS["yellow"]), still("black", *SPOTS["black"])]
    result = run(balls, duration_s=6.0, fps=fps, noise_mm=1.0, content_fps=content_fps)
    lines = [s.to_log_line() for s in result.strokes]
    assert len(lines) == strokes
    assert lines[0]["first_contact"] == ["red"]
    if strokes == 2:
        assert lines[1]["first_contact"] == []  # the running red is no ball the white set off
        assert result.strokes[1].start_frame == pytest.approx(STRUCK_AT * fps, abs=0.07 * fps)


def test_a_ball_coming_back_out_of_the_jaws_into_the_cue_ball_does_not_strike_it_again() -> None:
    # At 25 fps: the white, struck at 0.5 s, sends the red up into the top-left jaws and stops
    # behind it; the red rattles out at 2.4 m/s and runs into the white between two frames, the
    # white running back at 1.2 m/s and the red bouncing off at 1.5 (rendered pot_rattles_out
    # seed 3 at 25 fps). The red moves about 100 mm a frame: seen a frame before the meeting it
    # is farther off than the contact reach, and a frame after it farther again. One stroke.
    white_rest, red_rest = (300.0, 2600.0), (250.0, 3100.0)
    toward = np.subtract(red_rest, white_rest) / math.dist(red_rest, white_rest)
    contact = tuple(np.subtract(red_rest, D * toward))
    stop = (254.0, 3070.0)
    meet = 0.98  # between two frames
    white = Ball(
        "white",
        [
            (0.0, *white_rest),
            (0.5, *white_rest),
            (0.6, *contact),
            (0.75, *stop),
            (meet, *stop),
            (meet + 0.3, 254.0, 2710.0),
        ],
    )
    jaws, met_at = (150.0, 3480.0), (stop[0] - 10.0, stop[1] + D - 1.0)
    red = Ball(
        "red",
        [(0.0, *red_rest), (0.6, *red_rest), (0.85, *jaws), (meet, *met_at), (meet + 0.2, 180.0, 3400.0)],
    )
    balls = [white, red, still("yellow", *SPOTS["yellow"]), still("black", *SPOTS["black"])]
    result = run(balls, duration_s=4.0, fps=25.0, noise_mm=1.0)
    assert len(result.strokes) == 1
    assert result.strokes[0].to_log_line()["first_contact"] == ["red"]
