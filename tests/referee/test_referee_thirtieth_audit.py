"""The thirtieth audit: the rule geometry, differentially (see test_referee_geometry_differential.py).

The layouts below are the corners of the geometry that random layouts reach seldom: a cue ball in a
pocket's jaws (angled, 3.14), a ball on in the jaws, a cue ball measured overlapping a ball not on,
a ball on within the touch tolerance while balls not on box the cue ball in. Each row states the
answers the definitions give (argued in its ``why``), and both the referee's geometry and the
brute-force reference (reference_geometry.py, its strict and lenient readings agreeing) must give
them.

The definitions quoted: 3.14(b) "możliwe jest trafienie w linii prostej jakiejkolwiek części
jakiejkolwiek bili, która jest lub może być bilą rozgrywaną"; 3.14(c) "możliwe było centralne
trafienie bili rozgrywanej [...] (w przypadku bil Czerwonych dotyczy to w pełni widocznej średnicy
dowolnej bili Czerwonej, która nie jest przesłaniana przez bilę kolorową)"; 3.10 "Jeżeli po faulu
bila biała znajduje się w pozycji snooker, sędzia ogłasza wolną bilę (WOLNA BILA) - por. Część 2
Punkt 16"; Section 2 (RULES-EN.md): snookered when no ball on "can be hit on both extreme edges free
of balls not on"; "A cushion never snookers".
"""

from __future__ import annotations

import pytest
from reference_geometry import Layout, robust

from snooker.calibration.table import STANDARD_TABLE as TABLE
from snooker.referee import geometry as geo

R = TABLE.ball_radius_mm
MID = TABLE.length_mm / 2.0

ROWS = [
    pytest.param(
        (-20.0, MID),
        {"red-1": (R, 2400.0)},
        ["red-1"],
        {"snookered": False, "effective": [], "clear_path": False, "full_ball": False},
        id="cue-deep-in-middle-jaws-red-along-the-rail-is-angled-not-snookered",
        # The line to the red runs within R less the cushion tolerance of the middle pocket's
        # upper jaw: angled, so no straight line (3.14(b)); a cushion never snookers (Section 2).
    ),
    pytest.param(
        (5.0, MID),
        {"blue": (R, 2400.0)},
        ["blue"],
        {"snookered": False, "effective": [], "clear_path": False, "full_ball": False},
        id="cue-in-middle-jaws-colour-along-the-rail-is-angled",
    ),
    pytest.param(
        (15.0, 15.0),
        {"black": (R, 900.0)},
        ["black"],
        {"snookered": False, "effective": [], "clear_path": False, "full_ball": False},
        id="cue-in-corner-jaws-colour-along-the-rail-is-angled",
    ),
    pytest.param(
        (800.0, 1500.0),
        {"black": (12.0, 12.0)},
        ["black"],
        {"snookered": False, "effective": [], "clear_path": True, "full_ball": True},
        id="colour-in-corner-jaws-seen-down-the-pocket-full-ball",
        # The line at its centre enters the mouth clear of both jaws (more than R less 3 mm).
    ),
    pytest.param(
        (300.0, 1500.0),
        {"red-1": (12.0, 12.0)},
        ["red-1"],
        {"snookered": False, "effective": [], "clear_path": True, "full_ball": False},
        id="red-in-corner-jaws-centre-line-stopped-by-a-jaw-no-full-ball",
        # Seen almost along the left cushion, the cue ball's centre on the line to the red's centre
        # comes within R less 3 mm of the left jaw before it meets the red: angled for a full ball,
        # while a thinner line (to the red's right) meets it: a line to a part is open.
    ),
    pytest.param(
        (500.0, 1000.0),
        {"red-1": (500.0, 1400.0), "blue": (530.0, 1043.0)},
        ["red-1"],
        {"snookered": True, "effective": ["blue"], "clear_path": False, "full_ball": False},
        id="cue-measured-overlapping-a-colour-that-covers-every-line-to-the-red",
        # The blue overlaps the cue ball by a hair (noise): it is met at once on every line with a
        # part towards it, and every line to the red has.
    ),
    pytest.param(
        (500.0, 1000.0),
        {"red-1": (500.0, 1400.0), "blue": (500.0, 948.0)},
        ["red-1"],
        {"snookered": False, "effective": [], "clear_path": True, "full_ball": True},
        id="cue-measured-overlapping-a-colour-behind-it-plays-away-freely",
    ),
    pytest.param(
        (500.0, 1000.0),
        {
            "yellow": (500.0 + 2 * R + 0.5, 1000.0),
            "blue": (500.0, 1000.0 + 2 * R + 0.5),
            "pink": (500.0, 1000.0 - 2 * R - 0.5),
        },
        ["yellow"],
        {"snookered": True, "effective": ["blue", "pink"], "clear_path": True, "full_ball": True},
        id="colour-on-half-a-millimetre-off-both-edges-boxed-by-colours-not-on",
        # Half a millimetre off, the extreme-edge lines to the yellow leave nearly sideways and meet
        # the blue and the pink first (equally near: both effective); the line at its centre is
        # open. The rules layer, not the geometry, treats a ball on within the touch tolerance as
        # touching (3.8(c)): no free ball there.
    ),
    pytest.param(
        (500.0, 1000.0),
        {
            "red-1": (500.0, 1400.0),
            "blue": (500.0, 1200.0),
            "red-2": (900.0, 1000.0),
            "pink": (700.0, 1000.0),
        },
        ["red-1", "red-2"],
        {"snookered": True, "effective": [], "clear_path": False, "full_ball": False},
        id="reds-obstructed-by-different-balls-leave-no-effective-snookering-ball",
        # Section 2, 16(c). A ball halfway along the line hides a red wholly: the cue ball's band
        # is a diameter wide, so every line meeting the red passes within a diameter of it.
    ),
    pytest.param(
        (500.0, 1000.0),
        {
            "red-1": (500.0, 1400.0),
            "red-2": (540.0, 1460.0),
            "blue": (505.0, 1200.0),
            "pink": (520.0, 1300.0),
        },
        ["red-1", "red-2"],
        {"snookered": True, "effective": ["blue"], "clear_path": False, "full_ball": False},
        id="reds-obstructed-by-the-same-nearest-ball-name-it",
        # The pink hides both reds too, but farther: the blue, nearest, is the effective ball (16(b)).
    ),
]


@pytest.mark.parametrize(("cue", "balls", "on", "expected"), ROWS)
def test_the_geometry_answers_the_corner_layouts_as_the_definitions_do(cue, balls, on, expected):
    reds = {b for b in balls if b.startswith("red")}
    got = {
        "snookered": geo.snookered(cue, balls, on),
        "effective": sorted(geo.effective_snookering_balls(cue, balls, on)),
        "clear_path": geo.clear_path_to_any_part(cue, balls, on),
        "full_ball": geo.full_ball_available(cue, balls, on),
    }
    assert got == expected
    reference = Layout(cue, balls, on, TABLE)
    assert {
        "snookered": robust(reference.snookered),
        "effective": robust(lambda s: reference.effective(s, all(b in reds for b in on))),
        "clear_path": robust(reference.clear_path),
        "full_ball": robust(lambda s: reference.full_ball(s, reds)),
    } == expected
