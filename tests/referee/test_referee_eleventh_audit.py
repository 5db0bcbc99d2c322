"""An eleventh audit of the referee (/work/shared/rules, Section 3). A helper compared 2,000 random
frames with a rules model of its own, line by line, and checked by hand the combinations no earlier
audit took (the end of a frame, four-handed turns, fouls with several balls, free balls in the
colours, short racks); all agreed. One weakness was found and is mended here:

- 3.14(a): the balls are replaced where they stood before the stroke, and the stroke that missed
  says where that was (``positions.before``). The referee kept only the places earlier lines had
  given, none where the miss was the first stroke logged with positions: after the replacement it
  knew no places, so what a later foul while preparing the replay leaves (a free ball, 3.14(d)
  with 3.10) could not be judged until another stroke logged them.
"""

from __future__ import annotations

from referee_logs import decision, match, stroke

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee

SPOTS = STANDARD_TABLE.spots
BEFORE = {
    "white": [SPOTS["pink"][0] - 300.0, SPOTS["pink"][1] - 400.0],
    **{colour: list(place) for colour, place in SPOTS.items()},
    "red-1": [STANDARD_TABLE.centre_x_mm + 400.0, SPOTS["pink"][1] + 200.0],
}
AFTER = {**BEFORE, "white": [SPOTS["blue"][0] + 300.0, SPOTS["blue"][1] - 200.0]}
"""A miss: the cue ball, aimed at the only red left with the whole red open, hits nothing."""


def test_balls_replaced_after_a_miss_stand_where_the_missed_stroke_began():
    referee = Referee()
    lines = [
        match(reds=6),
        {"type": "table", "reds": 1, "striker": 0, "cue_in_hand": False},
        stroke([], [], clear_path=True, full_ball=True, positions={"before": BEFORE, "after": AFTER}),
        decision("replace"),
    ]
    rulings = [referee.apply(line) for line in lines]
    assert all("error" not in ruling for ruling in rulings), rulings
    assert (
        "FOUL AND A MISS" in rulings[2]["announcements"] and "BALLS REPLACED" in rulings[3]["announcements"]
    )
    placed = referee.state.frame.table.position_map()
    assert placed is not None
    assert {ball: tuple(xy) for ball, xy in placed.items()} == {
        ball: tuple(xy) for ball, xy in BEFORE.items()
    }
    assert not referee.state.frame.table.cue_in_hand
