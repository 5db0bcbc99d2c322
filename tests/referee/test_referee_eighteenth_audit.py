"""Eighteenth audit: what no test reached. Branch coverage of ``snooker.referee`` under
``tests/referee`` (``coverage run --branch --source=snooker.referee -m pytest tests/referee``), each
line or branch not taken worked out: the real situation that reaches it, the ruling the texts give
(the Polish is the authority) and the referee's. Rows are (rule, name, frame-log lines, expected
fields of the LAST ruling); scores are ``[Ann, Ben]``. Rows marked "fault" fail on the code before.

One fault found:

- 3.1(g), 3.4(c): a log that joins a frame without its score (a ``table`` line without ``score``)
  counts the scores from the join, and the referee names no winner of that frame. In a match on
  aggregate points it still added those partial scores to the aggregate and called the match on it
  ("MATCH TO ANN" after a frame whose score nobody knew), or re-spotted the black after a later last
  frame because the partial aggregate happened to be level. 1(G): "Zwycięzcą meczu jest strona lub
  zawodnik ... uzyskujący największą ogólną liczbę punktów, jeśli tak zostało ustalone"; 4(C): "Jeżeli
  ... punkty sumaryczne mają jednakową wartość po zakończeniu ostatniego frejmu, zawodnicy grający
  ostatni frejm postępują według procedury o ponownym ustawieniu Czarnej". With a frame's score not
  known neither the most points overall nor a level aggregate is known: the match now ends after its
  last frame with no winner and no re-spotted black (as a match on frames ends level), the frame
  itself ruled on its own scores where they are known. (The reached branch: ``_new_frame``'s refusal
  after every frame was played, which only this stuck match reached.)

Reachable branches no row had (pinned here, all as the texts give): the free ball declined by
nominating the ball on (3.10(a) "może on zadeklarować dowolną bilę"); places that do not show the
cue ball or any ball on (no free ball, no miss, no free-ball snooker: nothing is called unseen); a
striker's ``foul`` line with only the black left or on a re-spotted black (4(A)-(B): "jej pierwsze
wbicie lub faul kończy frejma", "następne wbicie lub faul kończy frejma"); a ``foul`` line that leaves
the next player snookered (10: "Jeżeli po faulu bila biała znajduje się w pozycji snooker, sędzia
ogłasza wolną bilę"); a ``ball_moved`` line's place (15: "będzie ona ustawiona przez sędziego w
miejscu zajmowanym poprzednio"); a miss from hand followed by a stroke from the D, read as the balls
replaced, and one after an in-off from hand, which shows no choice; a four-handed frame's own order
(3.17(a)); and the refusals of lines naming a player or ball that is not there.

Unreachable (kept as guards, no row): ``_most_favourable``'s fallback error (some reading always
raised), ``_resolve``'s "nominated ... not on the table" (in the colour phase every colour is on),
``_decide``'s "nothing to replace" (``replace`` is offered only with a snapshot),
``_free_ball_snookers`` with the free ball among the next player's balls on (a free ball is a ball
not on, and a stroke that pots the ball on scores), ``FrameState.points_remaining`` with a free ball
and no colour left, ``_new_frame``'s "all have been played" (after the fix), ``Referee.apply``'s
second try without places (geometry raises ValueError only on input the rules never pass),
``announce.number_words`` past 999 and below 0 (no break or penalty gets there; pinned anyway, as
a total function), ``log._colour``'s "not an object ball" (``_ball_id`` refuses the cue ball first,
and every other name is an object ball), and the geometry's input checks, empty-set and "nowhere to
spot" branches (the standard table and the rules' callers never give those). The hypothesis tests of
test_geometry.py are not derandomised, so a rare geometry branch (``_crossing`` with no line) is
covered in some runs and not others.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_logs import (
    assert_last_ruling,
    foul,
    lot,
    match,
    nominate,
    over_checklist,
    pot,
    referee_after,
    rule,
    safe,
    stroke,
    table,
)
from test_referee_camera_audit import CX, FREE_FROM_PLACES, HIDDEN, at, cam

from snooker.referee import RefereeConfig, announce

NEW_FRAME = {"type": "new_frame"}
CONCEDE = {"type": "concede"}

# --- 3.1(g), 3.4(c): a match on aggregate points with a frame whose score is not known ---------------
# The log joins the last frame with only the black left and no score: the scores count from the join.
JOINED_ON_THE_BLACK = table(reds=0, colours=["black"], striker=0, cue_in_hand=False)
# A best-of-2 match on aggregate points whose first frame was joined without its score and ended with
# Ann potting the black: 7-0 counted, the real score unknown; frame 2 follows.
FIRST_NOT_KNOWN = [match(aggregate=True, best_of=2), JOINED_ON_THE_BLACK, pot("black"), NEW_FRAME]
# Frame 2 joined (its score known, 0-0) with only the black left, Ann to play: the partial aggregate
# is 7-0 before it.
SECOND_ON_THE_BLACK = table(reds=0, colours=["black"], score=[0, 0], striker=0, cue_in_hand=False)

# --- places ------------------------------------------------------------------------------------------
RED_FAR = {"red-1": [CX, 2800.0]}
D_CENTRE = [CX, 600.0]
"""A place in the D (on the centre line, below the baulk line)."""
OPEN_UP = [CX + 300.0, 1500.0]
"""A place in the open from which a line to the red far up the table is open."""
# Ben plays the free ball (the blue) on the free ball Ann left him; the cue ball ends straight
# behind the blue, the red beyond it.
BEHIND_BLUE = {"white": [CX, 1000.0], "blue": [CX, 1400.0], "red-1": [CX, 2700.0]}
# Ann, in hand on the break-off, hits nothing with the red in the open: a foul and a miss (4 to Ben).
MISS_FROM_HAND = [
    match(),
    cam([], positions=at({"white": D_CENTRE, **RED_FAR}, {"white": OPEN_UP, **RED_FAR})),
]
# ... and going in-off as she misses: in hand before and after the miss.
MISS_IN_OFF = [match(), cam([], cue_ball="potted", positions=at({"white": D_CENTRE, **RED_FAR}, {**RED_FAR}))]
# Ann fouls (black first) and the places after show no cue ball: the tracker lost it.
NO_CUE_PLACE = {b: xy for b, xy in HIDDEN.items() if b != "white"}
# A free ball on the reds (Ann hit the black first: 7 to Ben, Ben snookered, a free ball).
FREE_ON_REDS = [match(), stroke(["black"], free_ball=True)]
# The same in the ascending phase, the yellow on: Ann hits the green first (4 to Ben), a free ball.
FREE_ON_YELLOW = [
    match(),
    table(reds=0, score=[0, 0], striker=0, ball_on="yellow"),
    stroke(["green"], free_ball=True),
]
# Only the black left, Ann 10 to Ben's 3 and to play: a foul worth seven levels the frame.
LEVELLED_BY_A_FOUL = [match(), table(reds=0, colours=["black"], score=[10, 3], striker=0, cue_in_hand=False)]
# Ann misses the black: 10-10, a re-spotted black; no lot drawn yet.
RESPOTTED = [*LEVELLED_BY_A_FOUL, stroke([])]
# A four-handed best-of-3 whose first frame is conceded: frame 2 is the other side's to break.
FOUR_HANDED_AFTER_FRAME_1 = [match(4, best_of=3), CONCEDE]


CHECKLIST = [
    # --- the fault: the aggregate of a match with a frame whose score is not known ----------------------
    (
        "1(G) fault",
        "aggregate, the one frame joined without its score, the black potted: no match winner",
        [match(aggregate=True), JOINED_ON_THE_BLACK, pot("black")],
        {
            "frame_over": True,
            "winner": None,
            "match_over": True,
            "match_winner": None,
            "announcements": ["SEVEN"],
        },
    ),
    (
        "1(G) fault",
        "aggregate, the one frame joined without its score, a foul on the black: no match winner",
        [match(aggregate=True), JOINED_ON_THE_BLACK, stroke([])],
        {"score": [0, 7], "match_over": True, "match_winner": None, "announcements": ["FOUL", "SEVEN AWAY"]},
    ),
    (
        "1(G) fault",
        "aggregate best of 2, frame 1 not known, frame 2 won 7-0: the aggregate is not known",
        [*FIRST_NOT_KNOWN, SECOND_ON_THE_BLACK, pot("black")],
        {
            "frame_over": True,
            "winner": 0,
            "match_over": True,
            "match_winner": None,
            "announcements": ["SEVEN", "FRAME TO ANN"],
        },
    ),
    (
        "4(C) fault",
        "aggregate best of 2, frame 1 not known, frame 2 lost by a foul (partial aggregate 7-7):"
        " no re-spotted black",
        [*FIRST_NOT_KNOWN, SECOND_ON_THE_BLACK, stroke([])],
        {
            "score": [0, 7],
            "frame_over": True,
            "winner": 1,
            "match_over": True,
            "match_winner": None,
            "announcements": ["FOUL", "SEVEN AWAY", "FRAME TO BEN"],
        },
    ),
    (
        "4(C) 1(F) fault",
        "aggregate best of 2, frame 1 not known, frame 2 conceded at 0-7 (partial aggregate 7-7):"
        " no re-spotted black",
        [*FIRST_NOT_KNOWN, table(reds=0, colours=["black"], score=[0, 7], striker=0), CONCEDE],
        {
            "frame_over": True,
            "winner": 1,
            "match_over": True,
            "match_winner": None,
            "announcements": ["FRAME TO BEN"],
        },
    ),
    (
        "1(G)",
        "control: aggregate, the last frame joined with its score: the match to the side ahead",
        [match(aggregate=True), table(reds=0, colours=["black"], score=[10, 30], striker=0), pot("black")],
        {"match_over": True, "match_winner": 1, "announcements": ["SEVEN", "FRAME TO BEN", "MATCH TO BEN"]},
    ),
    (
        "1(G)",
        "control: aggregate best of 2, frame 1 not known: the match goes on to frame 2",
        FIRST_NOT_KNOWN,
        {"frame": 2, "match_over": False, "match_winner": None},
    ),
    (
        "1(G)",
        "control: frames, the one frame joined without its score: over, no winner (as before)",
        [match(), JOINED_ON_THE_BLACK, pot("black")],
        {
            "frame_over": True,
            "winner": None,
            "match_over": True,
            "match_winner": None,
            "announcements": ["SEVEN"],
        },
    ),
    # --- 3.10(a): the free ball declined by nominating the ball on ---------------------------------------
    (
        "3.10(a)",
        "free ball on the reds, the red nominated and potted: one, as a red",
        [*FREE_ON_REDS, nominate("red"), pot("red")],
        {"score": [0, 8], "foul": False, "scored": ["red"], "ball_on": "colour"},
    ),
    (
        "3.10(a) 3.12(b)",
        "free ball on the reds, the red nominated, the blue hit first: the blue is not on, five",
        [*FREE_ON_REDS, nominate("red"), stroke(["blue"])],
        {"score": [5, 7], "penalty": 5, "fouls": ["wrong_ball_first"], "free_ball": False},
    ),
    (
        "3.10(a) 3.12(a)",
        "free ball on the yellow, the yellow nominated, the green hit first: four",
        [*FREE_ON_YELLOW, nominate("yellow"), stroke(["green"])],
        {"score": [4, 4], "penalty": 4, "fouls": ["wrong_ball_first"]},
    ),
    (
        "3.10(a)",
        "free ball on the yellow, the yellow nominated in the stroke and potted: two",
        [*FREE_ON_YELLOW, stroke(["yellow"], ["yellow"], nominated="yellow")],
        {"score": [0, 6], "foul": False, "scored": ["yellow"], "ball_on": "green"},
    ),
    # --- places that do not show what the rule needs: nothing is called unseen ---------------------------
    (
        "3.10",
        "a foul whose places after show no cue ball: no free ball",
        [match(), cam(["black"], positions=at(None, NO_CUE_PLACE))],
        {"score": [0, 7], "free_ball": False, "announcements": ["FOUL", "SEVEN AWAY"]},
    ),
    (
        "3.10",
        "control: the same places with the cue ball: a free ball",
        [match(), cam(["black"], positions=at(None, HIDDEN))],
        {"score": [0, 7], "free_ball": True, "announcements": ["FOUL", "SEVEN AWAY", "FREE BALL"]},
    ),
    (
        "3.10(b)",
        "the free ball played, the cue ball left behind it, the red beyond: a free-ball snooker, four",
        [*FREE_FROM_PLACES, cam(["blue"], positions=at(None, BEHIND_BLUE))],
        {"score": [4, 7], "fouls": ["free_ball_snooker"], "free_ball": True},
    ),
    (
        "3.10(b)",
        "... with no red among the places after: nothing to be snookered on is seen, no foul",
        [
            *FREE_FROM_PLACES,
            cam(["blue"], positions=at(None, {b: BEHIND_BLUE[b] for b in ("white", "blue")})),
        ],
        {"score": [0, 7], "foul": False, "striker": 0},
    ),
    (
        "3.14",
        "every ball missed, the places before show no cue ball: a foul, no miss",
        [match(), cam(["red"], positions=at(None, RED_FAR)), cam([], positions=at(RED_FAR, None))],
        {"score": [4, 0], "fouls": ["missed_all_balls"], "miss": False},
    ),
    # --- 3.14: which choice a camera's stroke after a miss from hand shows -------------------------------
    (
        "3.14(a)",
        "a miss from hand, the next stroke from the D again: the balls were replaced, Ann plays",
        [*MISS_FROM_HAND, cam(["red"], positions=at({"white": [CX + 50.0, 620.0], **RED_FAR}, None))],
        {"score": [0, 4], "announcements": ["BALLS REPLACED"], "striker": 1},
    ),
    (
        "3.14(a)",
        "control: the next stroke from where the miss left the cue ball: Ben played on",
        [*MISS_FROM_HAND, cam(["red"], positions=at({"white": OPEN_UP, **RED_FAR}, None))],
        {"score": [0, 4], "announcements": [], "striker": 0},
    ),
    (
        "3.14(a)",
        "a miss and an in-off from hand, the next stroke from the D: no choice shown, Ben played on",
        [*MISS_IN_OFF, cam(["red"], positions=at({"white": D_CENTRE, **RED_FAR}, None))],
        {"score": [0, 4], "announcements": [], "striker": 0},
    ),
    # --- foul lines (no stroke) with the black alone, a re-spotted black, a snooker ----------------------
    (
        "4(A)",
        "only the black left, the striker's foul line levels the frame: a re-spotted black",
        [*LEVELLED_BY_A_FOUL, foul("touched_ball", "black")],
        {"score": [10, 10], "frame_over": False, "announcements": ["FOUL", "SEVEN AWAY", "RE-SPOTTED BLACK"]},
    ),
    (
        "4(A)",
        "only the black left, the striker's foul line while still ahead: the frame ends",
        [match(), table(reds=0, colours=["black"], score=[20, 3], striker=0), foul("touched_ball", "black")],
        {"score": [20, 10], "frame_over": True, "winner": 0},
    ),
    (
        "4(B)",
        "a re-spotted black, the lot drawn, the striker's foul line: the frame to the other",
        [*RESPOTTED, lot(1), foul("touched_ball", "black")],
        {"score": [17, 10], "frame_over": True, "winner": 0},
    ),
    (
        "10",
        "a foul line that leaves the next player snookered: a free ball",
        [match(), cam(["red"], positions=at(None, HIDDEN)), foul("touched_ball", "blue")],
        {"score": [5, 0], "free_ball": True, "announcements": ["FOUL", "FIVE AWAY", "FREE BALL"]},
    ),
    (
        "15 10",
        "the cue ball moved by someone else and put back in the open, then a foul line: no free ball",
        [
            match(),
            cam(["red"], positions=at(None, HIDDEN)),
            {"type": "ball_moved", "ball": "white", "position": [CX + 400.0, 1000.0]},
            foul("touched_ball", "blue"),
        ],
        {"score": [5, 0], "free_ball": False},
    ),
    # --- 3.17(a): a four-handed frame's own order ----------------------------------------------------------
    (
        "3.17(a)",
        "four-handed frame 2 in an order of the players' choosing: its first player breaks",
        [*FOUR_HANDED_AFTER_FRAME_1, {"type": "new_frame", "order": [3, 0, 1, 2]}],
        {"frame": 2, "striker": 3},
    ),
    (
        "3.17(a)",
        "four-handed with its sides given (Ann and Ben against Cat and Dan): the sides alternate",
        [match(4, sides=[0, 0, 1, 1]), safe("red")],
        {"striker": 2},
    ),
    (
        "3.17(a)",
        "the sides not alternating: refused",
        [*FOUR_HANDED_AFTER_FRAME_1, {"type": "new_frame", "order": [3, 1, 0, 2]}],
        {"error": "new_frame.order: the sides must play alternately (3.17(a))"},
    ),
    (
        "3.17(a)",
        "a player listed twice: refused",
        [*FOUR_HANDED_AFTER_FRAME_1, {"type": "new_frame", "order": [3, 0, 1, 1]}],
        {"error": "new_frame.order: expected each of the 4 players once, got [3, 0, 1, 1]"},
    ),
    # --- lines naming a player or a ball that is not there ------------------------------------------------
    (
        "4(B)",
        "the first stroke on a re-spotted black naming a fifth player: refused",
        [*RESPOTTED, stroke(["black"], player=4)],
        {"error": "player: no player 4 among 2"},
    ),
    (
        "4(B)",
        "the lot logged after the first stroke on the re-spotted black was taken as the lot's: refused",
        [*RESPOTTED, safe("black"), lot(0)],
        {
            "error": "respotted_black: with no lot logged, the stroke that followed was taken as the first"
            " player's (3.4(b)); undo or amend that stroke to log the lot"
        },
    ),
    (
        "3.2(b)",
        "a foul line naming a third player: refused",
        [match(), foul("touched_ball", "red", player=2)],
        {"error": "foul.player: no player 2 among 2"},
    ),
    (
        "4(B)",
        "the lot won by a third player: refused",
        [*RESPOTTED, lot(2)],
        {"error": "respotted_black.first: no player 2 among 2"},
    ),
    (
        "9(A)",
        "a ball falling in by itself that is not on the table: refused",
        [match(), table(reds=0, colours=["black"], score=[0, 0]), {"type": "edge_fall", "ball": "pink"}],
        {"error": "edge_fall: the pink is not on the table"},
    ),
    (
        "15",
        "a ball moved by someone else that is not on the table: refused",
        [match(), table(reds=0, colours=["black"], score=[0, 0]), {"type": "ball_moved", "ball": "pink"}],
        {"error": "ball_moved: the pink is not on the table"},
    ),
]


@over_checklist(CHECKLIST)
def test_eighteenth_audit(lines: list[Any], expected: dict[str, Any]) -> None:
    assert_last_ruling(lines, expected)


def test_a_ball_moved_is_put_back_at_the_place_given() -> None:
    """15: the referee puts the ball back; a ``ball_moved`` line's ``position`` is where."""
    lines = [match(), cam(["red"], positions=at(None, HIDDEN))]
    place = [CX + 400.0, 1000.0]
    referee = referee_after([*lines, {"type": "ball_moved", "ball": "white", "position": place}])
    assert referee.state.frame.table.position_map()["white"] == tuple(place)


def test_without_a_known_aggregate_the_match_ends_with_its_last_frame() -> None:
    """1(G): the last frame of a match on aggregate points, joined without its score, ends with the
    scores counted from the join level (12-12): the match is over with no winner. Before the fix it
    was left open (no winner on a level aggregate, no re-spotted black either) and every later line
    was refused ('the frame is over', then 'all have been played'): this row fails before."""
    joined = table(reds=0, colours=["blue", "pink", "black"], striker=0, cue_in_hand=False)
    # Ann pots the blue (5-0) and misses the pink (5-6); Ben pots the pink (5-12) and misses the
    # black (12-12): the frame is over.
    lines = [match(aggregate=True), joined, pot("blue"), stroke([]), pot("pink"), stroke([]), NEW_FRAME]
    rulings = rule(lines)
    assert all("error" not in r for r in rulings[:-1])
    assert {k: rulings[-2][k] for k in ("score", "frame_over", "match_over", "match_winner")} == {
        "score": [12, 12],
        "frame_over": True,
        "match_over": True,
        "match_winner": None,
    }
    assert rulings[-1] == {"error": "the match is over; no further frames", "line": len(lines)}


# --- lines the log reader refuses (each branch of log.py no row reached) -----------------------------------

BAD_LINES = [
    ("an empty line", "   ", "empty line"),
    ("JSON nested too deeply", "[" * 100_000, "malformed line: JSON nested too deeply to read"),
    ("a number too long to convert", '{"type": "match", "best_of": ' + "9" * 5000 + "}", "malformed JSON: "),
    (
        "two players on one side",
        {"type": "match", "players": ["A", "B", "C", "D"], "sides": [0, 0, 0, 1]},
        "sides: expected the side (0 or 1) of each player, two players a side",
    ),
    (
        "a ball that is not a string",
        {"type": "stroke", "first_contact": [3]},
        "first_contact: a ball name is a string, got 3",
    ),
    (
        "balls neither a list nor a name",
        {"type": "stroke", "first_contact": 3},
        "first_contact: expected a list of balls, got 3",
    ),
    (
        "another schema",
        {"type": "match", "schema": "snooker.log/9"},
        "unsupported schema 'snooker.log/9'; this referee reads snooker.log/1",
    ),
    (
        "three players",
        {"type": "match", "players": ["A", "B", "C"]},
        "players: expected a list of 2 (singles) or 4 (four-handed) names",
    ),
    ("a breaker who is not playing", {"type": "match", "breaker": 2}, "breaker: no player 2 among 2 players"),
    (
        "an unknown miss rule",
        {"type": "match", "miss_rule": "lenient"},
        "miss_rule: expected one of wpbsa, off, got 'lenient'",
    ),
    (
        "fouls not a list",
        {"type": "stroke", "first_contact": ["red"], "fouls": "push_stroke"},
        "fouls: expected a list of reason codes, got 'push_stroke'",
    ),
    (
        "a foul call of no form",
        {"type": "stroke", "first_contact": ["red"], "fouls": [3]},
        "fouls: expected a reason code or {'reason', 'ball'}, got 3",
    ),
    (
        "potted not a list",
        {"type": "stroke", "first_contact": ["red"], "potted": "red"},
        "potted: expected a list, got 'red'",
    ),
    (
        "a foul line without its reason",
        {"type": "foul"},
        "foul: a reason code is required (e.g. 'touched_ball')",
    ),
    (
        "a lot without its winner",
        {"type": "respotted_black"},
        "respotted_black: 'first' (the player who won the lot) is required",
    ),
    (
        "an order that is not a list",
        {"type": "new_frame", "order": "0,1"},
        "new_frame.order: expected a list of player indices, got '0,1'",
    ),
]


@pytest.mark.parametrize(("line", "error"), [c[1:] for c in BAD_LINES], ids=[c[0] for c in BAD_LINES])
def test_a_line_the_log_reader_refuses(line: Any, error: str) -> None:
    """Each refused with its message (one ending in ": " names the start of a message that quotes
    Python's own words)."""
    ruling = rule([line])[-1]
    assert set(ruling) == {"error", "line"} and ruling["line"] == 1
    assert ruling["error"] == error or (error.endswith(": ") and ruling["error"].startswith(error))


def test_a_short_rack_the_referee_does_not_know_is_refused() -> None:
    ruling = rule([{"type": "match", "reds": 7}])[-1]
    assert ruling["error"].startswith("reds: expected one of ")


@pytest.mark.parametrize(
    ("value", "list_"),
    [(None, []), ("red", ["red"])],
    ids=["null is no ball", "one name is a list of one"],
)
def test_a_list_of_balls_written_as_null_or_one_name(value: Any, list_: list[str]) -> None:
    """``first_contact`` null reads as none hit, one name as a list of that ball (log.py)."""
    by_value = rule([match(), {"type": "stroke", "first_contact": value}])[-1]
    by_list = rule([match(), stroke(list_)])[-1]
    assert by_value == by_list


@pytest.mark.parametrize(
    "options",
    [{"miss_rule": "lenient"}, {"reds": 0}, {"in_hand_tolerance_mm": -1.0}],
    ids=["miss rule", "reds", "in-hand tolerance"],
)
def test_a_config_that_cannot_be_is_refused(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        RefereeConfig(**options)


@pytest.mark.parametrize(
    ("number", "words"),
    [(1000, "ONE THOUSAND"), (1147, "ONE THOUSAND ONE HUNDRED AND FORTY-SEVEN")],
)
def test_numbers_past_a_break_are_said_too(number: int, words: str) -> None:
    assert announce.number_words(number) == words
    with pytest.raises(ValueError):
        announce.number_words(-number)
