"""3.7, 3.8, 3.10, 3.14: re-spotting, touching ball, free ball, foul and a miss."""

from __future__ import annotations

import pytest
from referee_logs import clear_reds, decision, last, match, pot, safe, stroke, to_colours

from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import RefereeConfig

SPOTS = STANDARD_TABLE.spots
CX = STANDARD_TABLE.centre_x_mm

# Ann fouls on the break (black first) and leaves Ben a free ball (a referee's call).
FREE = [match(), safe("black", free_ball=True)]
NOMINATE_PINK = {"type": "nominate", "ball": "pink"}
# 6-red frame, reds cleared by Ann (48); Ann misses the yellow and leaves Ben a free ball.
FREE_ON_YELLOW = [*to_colours(6), stroke([], free_ball=True)]


def test_free_ball_is_called_and_adds_to_points_remaining():
    ruling = last(FREE)
    assert ruling["free_ball"] is True
    assert ruling["announcements"] == ["FOUL", "SEVEN AWAY", "FREE BALL"]
    assert ruling["points_remaining"] == 147 + 8
    assert ruling["ball_on"] == "red"


FREE_BALL_CASES = [
    # (name, lines after FREE (Ben 7, free ball), score after, ball_on, foul, respotted)
    ("free ball potted as a red scores one", [NOMINATE_PINK, pot("pink")], [0, 8], "colour", False, ["pink"]),
    ("then a colour", [NOMINATE_PINK, pot("pink"), pot("black")], [0, 15], "red", False, ["black"]),
    ("free ball inferred from the first ball hit", [pot("pink")], [0, 8], "colour", False, ["pink"]),
    (
        "free ball and a red both score with reds on",
        [stroke(["pink"], ["pink", "red"])],
        [0, 9],
        "colour",
        False,
        ["pink"],
    ),
    ("a red potted off the free ball scores", [stroke(["pink"], ["red"])], [0, 8], "colour", False, []),
    (
        "free ball and ball on hit together",
        [NOMINATE_PINK, stroke(["pink", "red"], ["red"])],
        [0, 8],
        "colour",
        False,
        [],
    ),
    ("not taking the free ball", [pot("red")], [0, 8], "colour", False, []),
    ("nominated free ball not hit first", [NOMINATE_PINK, safe("red")], [4, 7], "red", True, []),
    (
        "nominated free ball missed: value of the ball on",
        [NOMINATE_PINK, stroke([])],
        [4, 7],
        "red",
        True,
        [],
    ),
    (
        "potting a ball not on after the free ball",
        [stroke(["pink"], ["black"])],
        [7, 7],
        "red",
        True,
        ["black"],
    ),
]


@pytest.mark.parametrize(
    ("lines", "score", "ball_on", "foul", "respotted"),
    [c[1:] for c in FREE_BALL_CASES],
    ids=[c[0] for c in FREE_BALL_CASES],
)
def test_free_ball_with_reds_on(lines, score, ball_on, foul, respotted):
    ruling = last([*FREE, *lines])
    assert "error" not in ruling
    assert ruling["score"] == score
    assert ruling["ball_on"] == ball_on
    assert ruling["foul"] is foul
    assert ruling["respotted"] == respotted


FREE_ON_YELLOW_CASES = [
    # (name, lines after FREE_ON_YELLOW, Ben's points, ball_on, respotted)
    ("free ball potted: value of the ball on, respotted", [pot("green")], 2, "yellow", ["green"]),
    ("ball on potted off the free ball stays down", [stroke(["green"], ["yellow"])], 2, "green", []),
    ("both potted: only the ball on scores", [stroke(["green"], ["green", "yellow"])], 2, "green", ["green"]),
]


@pytest.mark.parametrize(
    ("lines", "points", "ball_on", "respotted"),
    [c[1:] for c in FREE_ON_YELLOW_CASES],
    ids=[c[0] for c in FREE_ON_YELLOW_CASES],
)
def test_free_ball_in_the_ascending_phase(lines, points, ball_on, respotted):
    before = last(FREE_ON_YELLOW)
    assert before["free_ball"] is True and before["points_remaining"] == 27 + 2
    ruling = last([*FREE_ON_YELLOW, *lines])
    assert ruling["foul"] is False
    assert ruling["score"][1] == before["score"][1] + points
    assert ruling["ball_on"] == ball_on
    assert ruling["respotted"] == respotted


def test_free_ball_scores_are_exact():
    assert last([*FREE, NOMINATE_PINK, safe("red")])["score"] == [4, 7]
    assert last([*FREE, NOMINATE_PINK, stroke([])])["penalty"] == 4
    assert last([*FREE, stroke(["pink"], ["black"])])["penalty"] == 7


def test_free_ball_lapses_when_the_offender_is_asked_to_play_again():
    ruling = last([*FREE, decision("play_again")])
    assert ruling["free_ball"] is False and ruling["striker"] == 0
    assert ruling["points_remaining"] == 147


def test_playing_at_reds_after_a_free_ball_as_red_is_seven():
    ruling = last([*FREE, pot("pink"), safe("red")])
    assert ruling["penalty"] == 7 and ruling["fouls"] == ["reds_in_successive_strokes"]


# --- geometry from positions ------------------------------------------------------------------

BLUE = list(SPOTS["blue"])
RED_BEHIND_BLUE = [CX, 2700.0]


def test_free_ball_decided_from_positions():
    hidden = {"white": [CX, 1000.0], "blue": BLUE, "red-1": RED_BEHIND_BLUE}
    ruling = last([match(), safe("black", positions={"after": hidden})])
    assert ruling["free_ball"] is True
    open_red = {"white": [CX, 1000.0], "blue": BLUE, "red-1": [300.0, 2700.0]}
    assert last([match(), safe("black", positions={"after": open_red})])["free_ball"] is False


def test_snookering_with_the_free_ball_is_a_foul_except_pink_and_black():
    hidden = {"white": [CX, 1000.0], "blue": BLUE, "red-1": RED_BEHIND_BLUE}
    ruling = last([*FREE, safe("blue", positions={"after": hidden})])
    assert ruling["fouls"] == ["free_ball_snooker"]
    assert ruling["penalty"] == 4
    pink_on = [
        *to_colours(6),
        *(pot(c) for c in ("yellow", "green", "brown", "blue")),
        stroke([], free_ball=True),
    ]
    behind = {"white": [CX, 1500.0], "black": [CX, 2200.0], "pink": [CX, 2800.0]}
    ruling = last([*pink_on, safe("black", positions={"after": behind})])
    assert ruling["foul"] is False


def test_miss_decided_from_positions():
    open_red = {"white": [CX, 1000.0], "blue": BLUE, "red-1": [300.0, 2700.0]}
    ruling = last([match(), pot("red"), pot("black"), safe("black", positions={"before": open_red})])
    assert ruling["miss"] is True
    assert ruling["options"] == ["play", "play_again", "replace"]
    hidden = {"white": [CX, 1000.0], "blue": BLUE, "red-1": RED_BEHIND_BLUE}
    ruling = last([match(), pot("red"), pot("black"), safe("blue", positions={"before": hidden})])
    assert ruling["miss"] is False and ruling["foul"] is True


def test_respotting_on_an_occupied_spot_goes_to_the_highest_free_spot():
    black_spot_taken = {"white": [CX, 2000.0], "red-1": list(SPOTS["black"])}
    ruling = last([match(), pot("red"), pot("black", positions={"after": black_spot_taken})])
    assert ruling["respotted"] == [{"ball": "black", "position": list(SPOTS["pink"])}]


def test_touching_ball_from_positions():
    touching = {"white": [CX, 2000.0], "red-1": [CX, 2000.0 + STANDARD_TABLE.ball_diameter_mm]}
    ruling = last([match(), safe("red", positions={"after": touching})])
    assert "TOUCHING BALL" in ruling["announcements"]
    assert ruling["touching"] == ["red-1"]


# --- touching ball (3.8) ----------------------------------------------------------------------


def test_touching_ball_on_is_called_and_playing_away_is_no_foul():
    lines = [match(), safe("red", touching=["red"])]
    assert last(lines)["announcements"] == ["TOUCHING BALL"]
    away = last([*lines, stroke([])])
    assert away["foul"] is False and away["striker"] == 0
    pushed = last([*lines, stroke([], fouls=["push_stroke"])])
    assert pushed["penalty"] == 4 and pushed["fouls"] == ["push_stroke"]


def test_touching_ball_not_on_is_not_called_and_a_ball_on_must_be_hit():
    lines = [match(), safe("red", touching=["pink"])]
    assert last(lines)["announcements"] == []
    assert last([*lines, stroke([])])["penalty"] == 4
    assert last([*lines, stroke([], fouls=[{"reason": "push_stroke", "ball": "pink"}])])["penalty"] == 6


def test_touching_a_colour_after_a_red_can_be_nominated():
    lines = [match(), pot("red", touching=["blue"])]
    assert last(lines)["announcements"] == ["ONE", "TOUCHING BALL"]
    declared = last([*lines, {"type": "nominate", "ball": "blue"}, stroke([])])
    assert declared["foul"] is False
    other = last([*lines, {"type": "nominate", "ball": "pink"}, pot("pink")])
    assert other["score"] == [7, 0]


# --- foul and a miss (3.14) -------------------------------------------------------------------


def test_foul_and_a_miss_offers_replace_and_replace_restores_the_position_and_ball_on():
    lines = [match(), pot("red"), stroke(["red"], ["red"], clear_path=True)]
    miss = last(lines)
    assert miss["miss"] is True and miss["announcements"][0] == "FOUL AND A MISS"
    assert miss["reds"] == 13
    replaced = last([*lines, decision("replace")])
    assert replaced["striker"] == 0 and replaced["ball_on"] == "colour" and replaced["reds"] == 14
    assert replaced["score"] == [1, 7]
    assert replaced["announcements"] == ["BALLS REPLACED"]


NO_MISS = [
    ("miss rule off", [match(miss_rule="off"), stroke([], clear_path=True)]),
    ("no open line to a ball on", [match(), stroke([], clear_path=False)]),
    ("no judgement given", [match(), stroke([])]),
    (
        "the striker needs snookers before the stroke",
        [*to_colours(6), safe("yellow"), stroke([], clear_path=True)],
    ),
    (
        "the opponent needs snookers before the stroke",
        [*to_colours(6), stroke([], clear_path=True)],
    ),
    (
        "needs snookers as a result of the stroke",
        [match(reds=6), *clear_reds(4), safe("red"), stroke(["black"], ["red", "red"], clear_path=True)],
    ),
]


@pytest.mark.parametrize("lines", [c[1] for c in NO_MISS], ids=[c[0] for c in NO_MISS])
def test_no_miss(lines):
    ruling = last(lines)
    assert ruling["foul"] is True
    assert ruling["miss"] is False
    assert "replace" not in ruling["options"]


def test_never_a_miss_when_only_the_black_is_left():
    lines = [*to_colours(6), *(pot(c) for c in ("yellow", "green", "brown", "blue", "pink"))]
    ruling = last([*lines, stroke([], miss=True)])
    assert ruling["miss"] is False and ruling["frame_over"] is True


def _miss(**extra):
    return stroke([], clear_path=True, **extra)


def test_warning_after_the_second_miss_and_frame_awarded_on_the_third():
    lines = [match(best_of=3), _miss(full_ball=True), decision("replace"), _miss(full_ball=True)]
    second = last(lines)
    assert second["warning"] is False and second["warning_due"] is True  # given as the balls are replaced
    replaced = last([*lines, decision("replace")])
    assert replaced["warning"] is True
    assert any(a.startswith("WARNING") for a in replaced["announcements"])
    third = last([*lines, decision("replace"), _miss(full_ball=True)])
    assert third["frame_over"] is True and third["winner"] == 1 and third["frames"] == [0, 1]


def test_no_frame_awarded_without_a_full_ball():
    lines = [
        match(),
        _miss(full_ball=False),
        decision("replace"),
        _miss(full_ball=False),
        decision("replace"),
    ]
    assert last(lines)["warning"] is False
    third = last([*lines, _miss(full_ball=False)])
    assert third["frame_over"] is False and third["miss"] is True


def test_playing_on_ends_the_miss_sequence():
    lines = [match(), _miss(full_ball=True), decision("replace"), _miss(full_ball=True), decision("play")]
    assert last(lines)["warning"] is False
    assert last([*lines, safe("red"), _miss(full_ball=True)])["frame_over"] is False


def test_foul_while_preparing_a_replayed_stroke_is_no_miss_and_the_warning_stays():
    lines = [match(), _miss(full_ball=True), decision("replace"), _miss(full_ball=True), decision("replace")]
    foul = last([*lines, {"type": "foul", "reason": "touched_ball", "ball": "red"}])
    assert foul["miss"] is False and foul["penalty"] == 4
    assert foul["options"] == ["play", "play_again", "replace"]
    again = last(
        [*lines, {"type": "foul", "reason": "touched_ball"}, decision("replace"), _miss(full_ball=True)]
    )
    assert again["frame_over"] is True and again["winner"] == 1


def test_a_replayed_failure_after_a_full_ball_miss_is_a_miss_without_a_new_judgement():
    lines = [match(reds=6), *clear_reds(3), safe("red"), _miss(full_ball=True), decision("replace")]
    ruling = last([*lines, stroke([])])  # no clear_path given: the same position, 3.14(c)(i)
    assert ruling["miss"] is True


def test_miss_judged_from_where_the_previous_stroke_left_the_balls():
    open_red = {"white": [CX, 1000.0], "blue": BLUE, "red-1": [300.0, 2700.0]}
    ruling = last([match(), safe("red", positions={"after": open_red}), safe("black")])
    assert ruling["miss"] is True


# --- two balls at once (3.6) ------------------------------------------------------------------

TWO_AT_ONCE = [
    # (name, set-up, first contact, penalty (0 = legal))
    ("two reds", [match()], ["red", "red"], 0),
    ("red and yellow", [match()], ["red", "yellow"], 4),
    ("red and black", [match()], ["red", "black"], 7),
    ("free ball and the ball on", FREE, ["pink", "red"], 0),
    ("free ball and a ball not on", [*FREE, NOMINATE_PINK], ["pink", "black"], 7),
    (
        "nominated blue and the pink",
        [match(), pot("red"), {"type": "nominate", "ball": "blue"}],
        ["blue", "pink"],
        6,
    ),
    ("yellow on: yellow and green", to_colours(6), ["yellow", "green"], 4),
    ("yellow on: free ball green with the yellow", FREE_ON_YELLOW, ["green", "yellow"], 0),
]


@pytest.mark.parametrize(
    ("setup", "contact", "penalty"), [c[1:] for c in TWO_AT_ONCE], ids=[c[0] for c in TWO_AT_ONCE]
)
def test_two_balls_hit_at_once(setup, contact, penalty):
    ruling = last([*setup, stroke(contact)])
    assert ruling["penalty"] == penalty
    if penalty:
        assert ruling["fouls"][0] == "two_balls_at_once"


# --- re-spotting with occupied spots (3.7) ----------------------------------------------------


def _spotted(*colours: str) -> dict:
    return {c: list(SPOTS[c]) for c in colours}


RESPOT = [
    # (name, balls on the table after the stroke, stroke, expected spot of each re-spotted colour)
    ("own spot free", _spotted("pink"), pot("black"), {"black": SPOTS["black"]}),
    (
        "own spot taken: highest free spot",
        {**_spotted("pink", "blue"), "red-1": list(SPOTS["black"])},
        pot("black"),
        {"black": SPOTS["brown"]},
    ),
    (
        "two to spot: a free own spot first, then the displaced colour",
        {**_spotted("blue"), "red-1": list(SPOTS["black"])},
        stroke(["red"], ["pink", "black"]),
        {"black": SPOTS["brown"], "pink": SPOTS["pink"]},
    ),
]


@pytest.mark.parametrize(("after", "line", "expected"), [c[1:] for c in RESPOT], ids=[c[0] for c in RESPOT])
def test_respotting_occupied_spots(after, line, expected):
    setup = [match(), pot("red")] if line["first_contact"] != ["red"] else [match()]
    line = {**line, "positions": {"after": {"white": [300.0, 1200.0], **after}}}
    ruling = last([*setup, line])
    spots = {entry["ball"]: tuple(entry["position"]) for entry in ruling["respotted"]}
    assert spots == {ball: tuple(xy) for ball, xy in expected.items()}


def test_respotting_when_every_spot_is_taken_goes_towards_the_top_cushion():
    after = {"white": [300.0, 1200.0], **_spotted("yellow", "green", "brown", "blue", "pink")}
    after["red-1"] = list(SPOTS["black"])
    ruling = last([match(), pot("red"), pot("black", positions={"after": after})])
    (entry,) = ruling["respotted"]
    assert entry["position"][0] == pytest.approx(CX)
    assert entry["position"][1] > SPOTS["black"][1]


# A camera's log has no decision lines: after a foul and a miss the next stroke's cue ball shows
# whether the balls were put back (3.14). The layout: the white in baulk, the reds in their rack.
_WHITE_BEFORE = (CX, 600.0)
_WHITE_AFTER_MISS = (CX + 400.0, 1500.0)


def _places(white: tuple[float, float]) -> dict:
    return {"white": list(white), "red-1": [CX, 2800.0]}


def _miss_from_the_start(start: tuple[float, float]) -> dict:
    """Misses every ball with a full ball open, from the cue ball at ``start``."""
    positions = {"before": _places(start), "after": _places(_WHITE_AFTER_MISS)}
    return stroke([], [], clear_path=True, full_ball=True, positions=positions)


_SET_UP = [match(), safe("red", positions={"after": _places(_WHITE_BEFORE)})]
_NUDGED = (_WHITE_BEFORE[0] + 12.0, _WHITE_BEFORE[1] - 9.0)  # put back within the measurement
_LEFT = _WHITE_AFTER_MISS


@pytest.mark.parametrize(
    ("starts", "score", "over", "announced"),
    [
        # Ben misses; the white comes back to its place: Ben plays again from there (and misses).
        ([_NUDGED], [8, 0], False, ["BALLS REPLACED"]),
        # A third miss from the same place after the warning: the frame to Ann (3.14(c)).
        ([_NUDGED, _NUDGED], [12, 0], True, ["BALLS REPLACED", "WARNING"]),
        # Played from where the miss left the white: Ann chose to play (and misses in her turn).
        ([_LEFT], [4, 4], False, []),
    ],
    ids=["replaced: the offender again", "replaced twice: the frame awarded", "played on"],
)
def test_a_miss_replaced_without_a_decision_line_is_read_from_the_cue_balls_place(
    starts, score, over, announced
):
    misses = [_miss_from_the_start(start) for start in starts]
    ruling = last([*_SET_UP, _miss_from_the_start(_WHITE_BEFORE), *misses])
    assert "error" not in ruling
    assert ruling["score"] == score and ruling["frame_over"] is over and ruling["miss"]
    if over:
        assert ruling["winner"] == 0
    said = " ".join(ruling["announcements"])
    for words in announced:
        assert words in said
    assert ("REPLACED" in said) is bool(announced)


def test_a_cue_ball_the_miss_hardly_moved_shows_no_replacement():
    short = (_WHITE_BEFORE[0], _WHITE_BEFORE[1] + 40.0)  # moved less than twice the tolerance
    miss = stroke([], [], clear_path=True, full_ball=True, positions={"after": _places(short)})
    again = _miss_from_the_start(_WHITE_BEFORE)
    ruling = last([*_SET_UP, miss, again])
    assert not any("REPLACED" in a for a in ruling["announcements"])


@pytest.mark.parametrize(
    ("within_mm", "replaced"), [(30.0, True), (10.0, False), (200.0, True), (1000.0, False)]
)
def test_how_close_to_its_place_a_replaced_cue_ball_must_start_is_configured(within_mm, replaced):
    # _NUDGED starts 15 mm from the place; the miss ran the white 985 mm, not twice 1000: undecidable.
    lines = [*_SET_UP, _miss_from_the_start(_WHITE_BEFORE), _miss_from_the_start(_NUDGED)]
    ruling = last(lines, RefereeConfig(replaced_within_mm=within_mm))
    assert any("REPLACED" in a for a in ruling["announcements"]) is replaced


def test_a_negative_replacement_distance_is_refused():
    with pytest.raises(ValueError, match="replaced_within_mm"):
        RefereeConfig(replaced_within_mm=-1.0)


_OUT_OF_BAULK = (CX + 300.0, 1500.0)


def _in_off_miss(start: tuple[float, float]) -> dict:
    """Misses every ball with a full ball open from the cue ball at ``start`` and goes in-off."""
    positions = {"before": _places(start), "after": {"red-1": [CX, 2800.0]}}
    return stroke([], [], cue_ball="potted", clear_path=True, full_ball=True, positions=positions)


def _from(start: tuple[float, float], **extra) -> dict:
    """A safety from the cue ball at ``start`` (hits the red, leaves the white in baulk)."""
    return safe("red", positions={"before": _places(start), "after": _places(_WHITE_BEFORE)}, **extra)


_AWAY = [match(), safe("red", positions={"after": _places(_OUT_OF_BAULK)})]
_IN_HAND = [match(), stroke(["red"], [], cue_ball="potted", positions={"after": {"red-1": [CX, 2800.0]}})]
_D_ELSEWHERE = (CX - 150.0, 650.0)


@pytest.mark.parametrize(
    ("lines", "replaced"),
    [
        # In-off: back at its place outside the D, where only a replacement puts it (3.3(h)).
        ([*_AWAY, _in_off_miss(_OUT_OF_BAULK), _from(_OUT_OF_BAULK)], True),
        # In-off from a place inside the D: from there a player who chose to play could start too.
        ([*_SET_UP, _in_off_miss(_WHITE_BEFORE), _from(_WHITE_BEFORE)], False),
        # From in hand, the white left at y 1500: started in the D again, so put back in hand.
        ([*_IN_HAND, _miss_from_the_start(_WHITE_BEFORE), _from(_D_ELSEWHERE)], True),
        # ...or started where the miss left it: played.
        ([*_IN_HAND, _miss_from_the_start(_WHITE_BEFORE), _from(_WHITE_AFTER_MISS)], False),
        # The strike unseen: the place first seen is not where the stroke started.
        ([*_AWAY, _in_off_miss(_OUT_OF_BAULK), _from(_OUT_OF_BAULK, strike_unseen=True)], False),
        ([*_SET_UP, _miss_from_the_start(_WHITE_BEFORE), _from(_NUDGED, strike_unseen=True)], False),
    ],
    ids=[
        "in-off, back outside the D",
        "in-off, back inside the D: undecidable",
        "from hand, the D again",
        "from hand, played where it lay",
        "in-off, the strike unseen",
        "on the table, the strike unseen",
    ],
)
def test_a_replacement_with_the_cue_ball_in_hand_before_or_after_the_miss(lines, replaced):
    ruling = last(lines)
    assert "error" not in ruling
    assert any("REPLACED" in a for a in ruling["announcements"]) is replaced
    assert ruling["foul"] is False
