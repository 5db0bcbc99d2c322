"""Differential test (the twenty-ninth audit): the referee against a second scorer written from the
rules alone (reference_scorer.py), over random sensible frame logs (differential_logs.py).

After every line the two must agree on the score, the player to play, the ball on, the reds and
colours left, the points remaining, the snookers required, the break and the frame's highest breaks,
the points and penalty of the line, the foul counted, the free ball, the miss and its warning, the
options, the colours re-spotted and where, the cue ball in hand, and the frame's and the match's end.
What the scorer leaves out (misses and snookers judged from positions, touching balls, placement in
the D, four-handed play, aggregate scores, conceding …) is listed in its docstring; the logs state
those calls where they give positions.
"""

from __future__ import annotations

import random

from differential_logs import Chooser, disagreements, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scorer import COLOURS, SPOTS

from snooker.referee import replay


@st.composite
def frame_logs(draw) -> list[dict]:
    chooser = Chooser(lambda seq: draw(st.sampled_from(list(seq))), lambda a, b: draw(st.integers(a, b)))
    return generate(chooser, max_lines=80)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(frame_logs())
def test_the_referee_agrees_with_an_independent_scorer_after_every_line(lines):
    assert disagreements(lines) == []


LANDMARKS = {
    "colours phase": lambda r: r["reds"] == 0 and r["ball_on"] in COLOURS[:-1],
    "last black": lambda r: r["ball_on"] == "black",
    "free ball": lambda r: r["free_ball"],
    "miss": lambda r: r["miss"],
    "warning due": lambda r: r["warning_due"],
    "warning": lambda r: r["warning"],
    "frame over": lambda r: r["frame_over"],
    "match over": lambda r: r["match_over"],
    "spot taken": lambda r: any(
        isinstance(e, dict) and tuple(e["position"]) != SPOTS[e["ball"]] for e in r["respotted"]
    ),
}
"""What the seeded logs must reach between them, so that the comparison is not vacuous."""


def test_seeded_logs_agree_and_reach_the_cases_that_matter():
    """A fixed set of longer logs (plain ``random``, seeded): no disagreement, and between them the
    logs reach the colours, the last black, free balls, misses with the warning, re-spots off their
    own spots, and the frame's and the match's end."""
    seen: set[str] = set()
    # Seed 47 is the first past them whose log has the balls replaced after a second miss (the
    # warning given, 3.14(c)); the first 25 reach a second miss (the warning due) but not that.
    for seed in (*range(25), 47):
        rng = random.Random(seed)
        lines = generate(Chooser(lambda seq, rng=rng: rng.choice(list(seq)), rng.randint))
        assert disagreements(lines) == [], f"seed {seed}"
        for ruling in replay(lines):
            if "error" not in ruling:
                seen.update(name for name, reached in LANDMARKS.items() if reached(ruling))
    assert seen == set(LANDMARKS)
