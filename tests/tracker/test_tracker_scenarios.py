"""The tracker and stroke segmenter on synthetic detection sequences with known outcomes."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import BallTracker, TrackerConfig

D = STANDARD_TABLE.ball_diameter_mm
SPOTS = STANDARD_TABLE.spots


def _towards(p, q, distance):
    """The point ``distance`` from p towards q."""
    v = np.subtract(q, p, dtype=float)
    v /= np.linalg.norm(v)
    return tuple(np.add(p, v * distance))


def _shot(start, target, speed, t0):
    """White keyframes from rest at ``start`` (struck at t0) to contact with a ball at ``target``."""
    travel = math.dist(start, target) - D
    contact = _towards(start, target, travel)
    return [(0.0, *start), (t0, *start), (t0 + travel / speed, *contact)], t0 + travel / speed


def _colours():
    return [still(c, *SPOTS[c]) for c in ("yellow", "green", "brown", "blue", "black")]


def _pot_scenario(pocket="top_right", speed=2000.0, noise=0.0, rattle=False):
    mouth = STANDARD_TABLE.pockets[pocket].mouth_centre
    red_at = _towards(mouth, (889.0, 1784.0), 350.0)
    white_at = _towards(red_at, (889.0, 1784.0), 300.0)
    keys, tc = _shot(white_at, red_at, speed, 0.5)
    run_time = math.dist(red_at, mouth) / 1800.0
    if rattle:
        back = _towards(mouth, red_at, 60.0)
        red = Ball(
            "red",
            [(0, *red_at), (tc, *red_at), (tc + run_time, *mouth), (tc + run_time + 0.4, *back)],
            hidden=[(tc + run_time - 0.01, tc + run_time + 0.3)],
        )
    else:
        red = Ball(
            "red", [(0, *red_at), (tc, *red_at), (tc + run_time, *mouth)], gone_after=tc + run_time - 0.01
        )
    return [Ball("white", keys), red, *_colours()]


@pytest.mark.parametrize(
    "pocket", ["top_right", "top_left", "baulk_left", "baulk_right", "middle_left", "middle_right"]
)
def test_a_red_run_into_a_pocket_is_potted_there_with_first_contact_red(pocket):
    result = run(_pot_scenario(pocket), duration_s=3.0, noise_mm=1.5)
    assert len(result.strokes) == 1
    stroke = result.strokes[0]
    line = stroke.to_log_line()
    assert line["first_contact"] == ["red"]
    assert line["potted"] == [{"ball": "red", "pocket": pocket}]
    assert line["cue_ball"] == "on_table"
    assert not stroke.truncated
    assert 14 <= stroke.start_frame <= 17


def test_a_ball_that_rattles_in_the_jaws_and_comes_back_is_not_potted():
    result = run(_pot_scenario("top_left", rattle=True), duration_s=3.5, noise_mm=1.0)
    assert [s.to_log_line()["potted"] for s in result.strokes] == [[]]
    assert any(e.kind == "rattled" for e in result.events)
    assert "red-1" in result.states[-1].by_label()


@pytest.mark.parametrize("pocket", ["baulk_right", "top_left", "middle_left"])
def test_a_ball_that_rattles_out_and_runs_off_along_the_cushion_unseen_for_a_while_is_not_potted(pocket):
    # The red runs into the jaws at 1.8 m/s and comes back out along the cushion at 1.2 m/s, hidden
    # in the jaws and for a few frames more on its way out: first seen again ~250 mm from where it
    # was lost (farther than a ball lost near a pocket may be found again away from its jaws).
    balls = _pot_scenario(pocket)
    red = balls[1]
    mouth = np.array(STANDARD_TABLE.pockets[pocket].mouth_centre)
    # Along the end cushion towards the middle of the table, or up the side cushion.
    along = np.array([np.sign(889.0 - mouth[0]), 0.0]) if "middle" not in pocket else np.array([0.0, 1.0])
    out = mouth + along * 1200.0 * 0.5
    at_mouth = red.keys[-1][0]
    rattled = Ball("red", [*red.keys, (at_mouth + 0.5, *out)], hidden=[(at_mouth - 0.01, at_mouth + 0.18)])
    result = run([balls[0], rattled, *balls[2:]], duration_s=3.5, noise_mm=1.0)
    lost = next(s for s in reversed(result.states) if s.frame <= (at_mouth - 0.01) * 30).by_label()["red-1"]
    assert [s.to_log_line()["potted"] for s in result.strokes] == [[]]
    assert [b.label for b in result.states[-1].balls if b.ball == "red"] == ["red-1"]
    found = [e for e in result.events if e.kind == "rattled"]
    assert len(found) == 1 and math.dist(lost.xy_mm, found[0].xy_mm) > 200.0


def test_a_ball_hidden_away_from_a_pocket_is_held_where_it_was_not_potted():
    pink = Ball("pink", [(0.0, *SPOTS["pink"])], hidden=[(0.5, 2.5)])
    result = run([still("white", 900, 1000), pink, *_colours()], duration_s=3.0, noise_mm=1.0)
    assert not any(e.kind == "potted" for e in result.events)
    mid = result.states[45].by_label()["pink"]
    assert mid.status.value == "held"
    assert math.dist(mid.xy_mm, SPOTS["pink"]) < 5.0
    assert result.states[-1].by_label()["pink"].status.value == "visible"
    assert result.strokes == []


def test_a_ball_hidden_at_rest_in_the_jaws_is_not_potted():
    mouth = STANDARD_TABLE.pockets["middle_left"].mouth_centre
    near = (mouth[0] + 40.0, mouth[1])
    result = run([still("white", 900, 1000), Ball("red", [(0, *near)], hidden=[(1.0, 3.0)])], duration_s=3.0)
    assert not any(e.kind == "potted" for e in result.events)


def test_the_cue_ball_potted_is_reported_as_potted():
    mouth = STANDARD_TABLE.pockets["baulk_right"].mouth_centre
    start = _towards(mouth, (889, 1784), 600)
    white = Ball("white", [(0, *start), (0.5, *start), (0.5 + 600 / 2000, *mouth)], gone_after=0.5 + 0.29)
    result = run([white, *_colours()], duration_s=3.0, noise_mm=1.0)
    line = result.strokes[0].to_log_line()
    assert line["cue_ball"] == "potted"
    assert line["first_contact"] == []
    assert line["potted"] == []


@pytest.mark.parametrize(
    ("aim", "unwatched", "cue_ball"),
    [
        ("mouth", None, "potted"),  # it vanished in view, 70 mm from the mouth and running at it
        ("mouth", [(0.78, 1.8)], "potted"),  # the view cut away there, as it ran straight at it
        ("cushion", [(0.89, 1.8)], "on_table"),  # cut away 126 mm from the mouth, running at the
        # cushion beside it (45 degrees off the mouth): it came back out, hidden behind a ball
    ],
    ids=["vanishing_in_view", "missing_after_a_cut_running_into_the_mouth", "missing_after_a_cut_beside_it"],
)
def test_a_ball_found_missing_after_a_cut_is_potted_only_if_it_ran_into_the_mouth(aim, unwatched, cue_ball):
    """A cue ball heading for a corner when the view cuts to another camera may have come back
    out and stopped hidden behind another ball (Task4 clip 15): with the table unwatched for a
    second, it is potted only if it was running straight into the pocket."""
    if aim == "mouth":
        mouth = STANDARD_TABLE.pockets["baulk_right"].mouth_centre
        start = _towards(mouth, (889, 1784), 600)
        keys = [(0, *start), (0.5, *start), (0.5 + 600 / 2000, *mouth)]
        white = Ball("white", keys, gone_after=0.77)
    else:
        start, cushion = (210.0, 700.0), (120.0, 26.0)
        arrive = 0.5 + math.dist(start, cushion) / 1500
        keys = [(0, *start), (0.5, *start), (arrive, *cushion), (arrive + 0.6, 200.0, 300.0)]
        white = Ball("white", keys, gone_after=0.88)
    result = run([white, *_colours()], duration_s=3.5, noise_mm=1.0, unwatched=unwatched)
    line = result.strokes[0].to_log_line()
    assert line["cue_ball"] == cue_ball
    assert line["potted"] == []
    assert any(e.kind == "potted" for e in result.events) == (cue_ball == "potted")


@pytest.mark.parametrize("fps", [25.0, 30.0])
def test_a_cue_ball_struck_at_8_5_m_s_straight_into_a_pocket_is_a_stroke_and_an_in_off(fps):
    # 283-340 mm between frames: beyond a re-association gate sized for 7 m/s, the cue ball was
    # left at its place and never found again, and the stroke (a miss and an in-off) went unseen.
    mouth = STANDARD_TABLE.pockets["top_left"].mouth_centre
    start = (889.0, 1000.0)
    arrive = 0.5 + math.dist(start, mouth) / 8500.0
    white = Ball("white", [(0, *start), (0.5, *start), (arrive, *mouth)], gone_after=arrive)
    result = run([white, *_colours()], duration_s=3.0, fps=fps, noise_mm=1.0)
    assert [s.to_log_line()["cue_ball"] for s in result.strokes] == ["potted"]


def test_two_touching_balls_hit_at_once_are_a_simultaneous_first_contact():
    white_at = (889.0, 1200.0)
    # Two reds side by side, touching each other; the white arrives exactly between them.
    y = 1600.0
    half = D / 2.0
    contact_y = y - math.sqrt(D**2 - half**2)
    tc = 0.5 + (contact_y - white_at[1]) / 2000.0
    white = Ball("white", [(0, *white_at), (0.5, *white_at), (tc, 889.0, contact_y)])
    red_a = Ball("red", [(0, 889 - half, y), (tc, 889 - half, y), (tc + 0.5, 889 - half - 300, y + 500)])
    red_b = Ball("red", [(0, 889 + half, y), (tc, 889 + half, y), (tc + 0.5, 889 + half + 300, y + 500)])
    result = run([white, red_a, red_b, *_colours()], duration_s=3.0)
    assert result.strokes[0].to_log_line()["first_contact"] == ["red", "red"]


def test_two_balls_hit_at_once_are_both_first_contacts_though_the_path_reads_short_of_one():
    # A red and the black 17.5 mm apart; the white meets both at once, but its measured path (blobs
    # merging) ends 22 mm short and 6 mm to the red's side: within the tight tolerance of the red
    # only. It creeps on straight (a symmetric hit leaves it little speed and does not turn it), so
    # the loose tolerance does not apply either; the black sets off on the same frame, away from
    # the white.
    half, y = 35.0, 1600.0
    contact_y = y - math.sqrt(D**2 - half**2)
    seen_at = (889.0 - 6.0, contact_y - 22.0)
    tc = 0.5 + (seen_at[1] - 1200.0) / 2000.0
    ahead = (seen_at[0] - 6.0 * 0.03, seen_at[1] + 30.0)
    white = Ball("white", [(0, 889.0, 1200.0), (0.5, 889.0, 1200.0), (tc, *seen_at), (tc + 1.0, *ahead)])
    red = Ball("red", [(0, 889 - half, y), (tc, 889 - half, y), (tc + 0.5, 889 - half - 300, y + 450)])
    black = Ball("black", [(0, 889 + half, y), (tc, 889 + half, y), (tc + 0.5, 889 + half + 300, y + 450)])
    result = run([white, red, black, still("yellow", *SPOTS["yellow"])], duration_s=3.0, noise_mm=0.5)
    assert sorted(result.strokes[0].to_log_line()["first_contact"]) == ["black", "red"]


def test_first_contact_is_the_ball_hit_first_not_one_passed_close_by():
    white_at = (600.0, 1000.0)
    blue_at = (600.0 + D + 25.0, 1300.0)  # passed 25 mm clear
    red_at = (600.0, 1600.0)
    keys, tc = _shot(white_at, red_at, 2500.0, 0.5)
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 0.3, 600.0, 2100.0)])
    result = run([Ball("white", keys), red, still("blue", *blue_at)], duration_s=3.0, noise_mm=1.0)
    assert result.strokes[0].to_log_line()["first_contact"] == ["red"]


@pytest.mark.parametrize(
    ("yellow_step", "first_contact"),
    [((15.0, 0.0), []), ((-250.0, 0.0), ["yellow"])],
    ids=["centre-pulled-towards-the-white", "set-off-away-from-the-white"],
)
def test_a_ball_passed_close_by_is_hit_only_if_it_sets_off_away_from_the_cue_ball(yellow_step, first_contact):
    # The white passes 76 mm from the yellow's centre (within the loose tolerance) and turns there
    # by 30 degrees. Either the yellow's detected centre shifts 15 mm towards the white (their blobs
    # merge) and stays there, or the yellow really is hit and runs off away from the white.
    yellow_at = np.array([1000.0, 1000.0])
    closest = yellow_at + np.array([D + 23.5, 0.0])
    speed, turn = 600.0, math.radians(30.0)
    t_close = 0.5 + 600.0 / speed
    beyond = closest + 300.0 * np.array([math.sin(turn), -math.cos(turn)])
    white = Ball(
        "white",
        [
            (0, *(closest + np.array([0.0, 600.0]))),
            (0.5, *(closest + np.array([0.0, 600.0]))),
            (t_close, *closest),
            (t_close + 0.5, *beyond),
        ],
    )
    moved = yellow_at + yellow_step
    yellow = Ball("yellow", [(0, *yellow_at), (t_close - 0.02, *yellow_at), (t_close + 0.0, *moved)])
    if yellow_step[0] < 0:
        yellow.keys[-1] = (t_close + 1.0, *moved)
    result = run([white, yellow, still("black", *SPOTS["black"])], duration_s=4.0, noise_mm=0.5)
    assert [s.to_log_line()["first_contact"] for s in result.strokes] == [first_contact]


def test_a_miss_has_no_first_contact():
    white = Ball("white", [(0, 889, 1000), (0.5, 889, 1000), (1.2, 889, 2000)])
    result = run([white, still("black", 300, 3000), still("red", 1500, 2800)], duration_s=3.0, noise_mm=1.0)
    assert result.strokes[0].to_log_line()["first_contact"] == []


def test_the_cue_ball_stopping_against_a_ball_is_touching():
    red_at = (889.0, 2000.0)
    keys = [(0, 889, 1000), (0.5, 889, 1000), (1.5, 889.0, red_at[1] - D - 1.0)]
    result = run([Ball("white", keys), still("red", *red_at), *_colours()], duration_s=3.5, noise_mm=0.5)
    stroke = result.strokes[0]
    assert stroke.to_log_line()["touching"] == ["red"]


def test_a_fast_ball_lost_by_a_cushion_while_running_at_a_pocket_is_not_off_the_table():
    # Along the side cushion towards the top-right pocket, lost 540 mm short of it (a blur).
    red_at = (1740.0, 2400.0)
    keys, tc = _shot((1740.0, 1900.0), red_at, 4000.0, 0.5)
    path = [(0, *red_at), (tc, *red_at), (tc + 1139 / 3000, 1740.0, 3539.0)]
    red = Ball("red", path, gone_after=tc + 600 / 3000)
    result = run([Ball("white", keys), red, *_colours()], duration_s=3.5, noise_mm=1.0)
    line = result.strokes[0].to_log_line()
    assert line["off_table"] == []
    assert line["potted"] == [{"ball": "red", "pocket": "top_right"}]


def test_a_fast_ball_leaving_over_a_cushion_is_off_the_table():
    red_at = (1300.0, 1000.0)
    keys, tc = _shot((900.0, 1000.0), red_at, 4000.0, 0.5)
    red = Ball(
        "red", [(0, *red_at), (tc, *red_at), (tc + 490 / 3000, 1790.0, 1000.0)], gone_after=tc + 470 / 3000
    )
    result = run([Ball("white", keys), red, *_colours()], duration_s=3.5, noise_mm=1.0)
    line = result.strokes[0].to_log_line()
    assert line["off_table"] == ["red"]
    assert line["potted"] == []


def test_a_cushion_contact_is_recorded():
    white = Ball("white", [(0, 889, 3000), (0.5, 889, 3000), (0.7, 889, 3569 - 26.25), (1.0, 889, 3000)])
    result = run([white, *_colours()], duration_s=3.0, noise_mm=0.5)
    cushions = [(c.label, c.cushion) for c in result.strokes[0].cushion_contacts]
    assert ("white", "top") in cushions


def test_a_ball_moved_between_strokes_is_reported_outside_any_stroke():
    pink = Ball("pink", [(0, 900, 2600), (1.0, 900, 2600), (1.5, 1100, 2700)])
    result = run([still("white", 889, 1000), pink], duration_s=3.0, noise_mm=1.0)
    assert result.strokes == []
    assert [(e.kind, e.label) for e in result.outside] == [("moved", "pink")]


def test_crossing_balls_of_different_colours_keep_their_identities():
    white = Ball("white", [(0, 400, 1000), (0.5, 400, 1000), (1.0, 1400, 2000)])
    blue = Ball("blue", [(0, 1400, 1000), (0.5, 1400, 1000), (1.0, 400, 2000)])
    result = run([white, blue], duration_s=2.0, noise_mm=1.0)
    last = result.states[-1].by_label()
    assert math.dist(last["white"].xy_mm, (1400, 2000)) < 10
    assert math.dist(last["blue"].xy_mm, (400, 2000)) < 10


def test_reds_in_the_pack_keep_their_ids():
    rack = STANDARD_TABLE.rack_positions()
    reds = [still(label, *xy) for label, xy in rack.items() if label.startswith("red-")]
    result = run([still("white", 889, 600), *reds], duration_s=2.0, noise_mm=2.0)
    first, last = result.states[5].by_label(), result.states[-1].by_label()
    red_ids = {label for label in first if label.startswith("red-")}
    assert len(red_ids) == 15
    for label in red_ids:
        assert math.dist(first[label].xy_mm, last[label].xy_mm) < 10.0
    assert result.strokes == []


def test_a_red_seen_as_brown_for_a_few_frames_in_blur_stays_one_red():
    white = Ball("white", [(0, 889, 1000), (0.5, 889, 1000), (1.0, 889, 2000)])
    red = Ball("red", [(0, 300, 1500), (0.5, 300, 1500), (1.5, 300, 2500)], hidden=[(0.8, 0.95)])
    brownish = Ball("red", red.keys, hidden=[(0.0, 0.79), (0.96, 9.0)], seen_as="brown")
    result = run([white, red, brownish], duration_s=2.0, noise_mm=1.0)
    labels = [b.label for b in result.states[-1].balls]
    assert sorted(labels) == ["red-1", "white"]
    assert all(b.label != "brown" for s in result.states for b in s.balls)


def test_a_false_detection_of_the_potted_colour_elsewhere_does_not_undo_the_pot():
    balls = _pot_scenario("top_left")
    red = balls[1]
    black = Ball("black", red.keys, gone_after=red.gone_after)
    ghost = Ball("black", [(0.0, 1500.0, 500.0)], hidden=[(0.0, red.gone_after + 0.1)])
    result = run([balls[0], black, ghost, *balls[2:4]], duration_s=3.0, noise_mm=1.0)
    line = result.strokes[0].to_log_line()
    assert line["potted"] == [{"ball": "black", "pocket": "top_left"}]


def test_a_ball_hidden_by_the_player_when_it_is_hit_is_still_the_first_contact():
    white_at, black_at = (700.0, 2500.0), (900.0, 3300.0)
    keys, tc = _shot(white_at, black_at, 2500.0, 0.5)
    # driven off along the line of centres (away from the cue ball), 200 mm in 0.6 s
    black = Ball(
        "black", [(0, *black_at), (tc, *black_at), (tc + 0.6, 948.5, 3494.0)], hidden=[(0.6, tc + 0.3)]
    )
    blue = still("blue", 1500.0, 1200.0)
    result = run([Ball("white", keys), black, blue], duration_s=3.5, noise_mm=1.0)
    assert result.strokes[0].to_log_line()["first_contact"] == ["black"]


@pytest.mark.parametrize("ghost_at", [(660.0, 3597.0), (1200.0, 2000.0)], ids=["score-graphic", "on-cloth"])
def test_a_steady_false_detection_of_a_colour_does_not_capture_that_ball(ghost_at):
    balls = _pot_scenario("top_left")
    red = balls[1]
    run_start = red.keys[1][0]
    black = Ball("black", red.keys, gone_after=red.gone_after, hidden=[(run_start + 0.05, run_start + 0.12)])
    ghost = Ball("black", [(0.0, *ghost_at)])
    result = run([balls[0], black, ghost, *balls[2:4]], duration_s=3.0, noise_mm=1.0)
    assert [s.to_log_line()["potted"] for s in result.strokes] == [[{"ball": "black", "pocket": "top_left"}]]
    assert sum(b.label == "black" for b in result.states[10].balls) == 1


def test_something_that_appears_during_a_stroke_and_vanishes_in_a_pocket_is_not_a_pot():
    balls = _pot_scenario("top_left")
    mouth = STANDARD_TABLE.pockets["middle_right"].mouth_centre
    hand = Ball(
        "yellow",
        [(0.0, 1500.0, 1700.0), (1.2, 1500.0, 1700.0), (1.5, *mouth)],
        hidden=[(0.0, 0.9)],
        gone_after=1.49,
    )
    result = run([*balls[:2], *balls[3:], hand], duration_s=3.0, noise_mm=1.0)
    assert [s.to_log_line()["potted"] for s in result.strokes] == [[{"ball": "red", "pocket": "top_left"}]]
    assert [e.kind for e in result.outside] == ["unexplained_potted"]


@pytest.mark.parametrize(
    ("aim", "speed", "potted", "off_table"),
    [("top_left", 2500.0, True, False), ("cushion", 2500.0, False, True), ("cushion", 500.0, False, False)],
    ids=["into-a-pocket", "fast-into-a-cushion", "slow-into-a-cushion"],
)
def test_a_hit_ball_never_seen_again_is_potted_if_its_path_leads_into_a_pocket_else_off_if_fast(
    aim, speed, potted, off_table
):
    target = STANDARD_TABLE.pockets["top_left"].mouth_centre if aim == "top_left" else (0.0, 2600.0)
    black_at = _towards(target, (889.0, 1784.0), 900.0)
    white_at = _towards(black_at, target, -500.0)
    keys, tc = _shot(white_at, black_at, speed, 0.5)
    # The white stops dead (a stun shot); the black is never detected once it moves (motion blur).
    black = Ball("black", [(0, *black_at)], gone_after=tc)
    result = run([Ball("white", keys), black, still("blue", *SPOTS["blue"])], duration_s=3.5, noise_mm=1.0)
    line = result.strokes[0].to_log_line()
    assert line["first_contact"] == ["black"]
    assert line["potted"] == ([{"ball": "black", "pocket": "top_left"}] if potted else [])
    assert line["off_table"] == (["black"] if off_table else [])


@pytest.mark.parametrize("lost_after_s", [1.0, 2.0])
def test_a_hit_ball_seen_running_on_and_lost_slow_in_the_open_is_hidden_not_off_the_table(lost_after_s):
    """Struck hard (2.5 m/s), the black is seen running on up the table and slowing, then lost in
    the open (a player's body over it) at a few hundred mm/s, far from any cushion: it cannot reach
    one fast enough to jump off the table, which the speed off the contact alone would call."""
    black_at = (889.0, 1400.0)
    white_at = _towards(black_at, (889.0, 0.0), 500.0)
    keys, tc = _shot(white_at, black_at, 2500.0, 0.5)
    # the black runs 1.2 m up the table in 2.5 s, decelerating (a rolling ball's run, in pieces)
    path = [(tc, *black_at)]
    for k in range(1, 11):
        f = k / 10
        path.append((tc + 2.5 * f, 889.0, 1400.0 + 1200.0 * (1 - (1 - f) ** 2)))
    black = Ball("black", [(0, *black_at), *path], gone_after=tc + lost_after_s)
    result = run(
        [Ball("white", keys), black, still("blue", *SPOTS["blue"])], duration_s=tc + 5.0, noise_mm=1.0
    )
    line = result.strokes[0].to_log_line()
    assert line["first_contact"] == ["black"]
    assert line["off_table"] == [] and line["potted"] == []


def test_a_hit_ball_lost_running_fast_at_a_cushion_is_off_the_table():
    """The black, struck at 2.5 m/s, is seen running into the side cushion and lost there at full
    speed (flown off in a blur): off the table, as before."""
    black_at = (1300.0, 1500.0)
    white_at = _towards(black_at, (0.0, 1500.0), 500.0)
    keys, tc = _shot(white_at, black_at, 2500.0, 0.5)
    edge = (STANDARD_TABLE.width_mm - D / 2, 1500.0)
    run_s = (edge[0] - black_at[0]) / 2400.0
    black = Ball(
        "black", [(0, *black_at), (tc, *black_at), (tc + run_s, *edge)], gone_after=tc + run_s - 0.02
    )
    result = run(
        [Ball("white", keys), black, still("blue", *SPOTS["blue"])], duration_s=tc + 4.0, noise_mm=1.0
    )
    line = result.strokes[0].to_log_line()
    assert line["first_contact"] == ["black"]
    assert line["off_table"] == ["black"]


def _struck_twice(second_speed: float, second_at: float):
    """White onto a red that rolls on for long; the white is left creeping (30 mm/s), then struck
    again at ``second_at`` (s) towards open cloth at ``second_speed`` (mm/s; 0: never)."""
    white_at, red_at = (600.0, 1000.0), (600.0, 1500.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1][1:]
    creep_to = (stop[0], stop[1] + 30.0 * (second_at - tc))
    keys += [(second_at, *creep_to)]
    if second_speed:
        keys += [(second_at + 0.5, creep_to[0] + 0.5 * second_speed, creep_to[1])]
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 2.5, 600.0, 3300.0)])
    return [Ball("white", keys), red, still("black", *SPOTS["black"]), still("yellow", *SPOTS["yellow"])]


@pytest.mark.parametrize(
    ("second_speed", "strokes"), [(1500.0, 2), (0.0, 1)], ids=["struck-again", "creeps-on"]
)
def test_the_cue_ball_struck_again_while_a_ball_still_runs_starts_a_new_stroke(second_speed, strokes):
    result = run(_struck_twice(second_speed, 1.6), duration_s=5.0, noise_mm=1.0)
    lines = [s.to_log_line() for s in result.strokes]
    assert len(lines) == strokes
    assert lines[0]["first_contact"] == ["red"]
    assert "moving_at_strike" not in lines[0]
    if strokes == 2:
        assert lines[1]["first_contact"] == []  # the running red is no ball the white set off
        assert lines[1]["moving_at_strike"] == ["red"]  # struck while it ran: a foul (3.12(b))
        assert result.strokes[1].start_frame == pytest.approx(1.6 * 30, abs=2)


def _red_run_hidden(lost_s: float, again_s: float):
    """The white stuns the red up the table (800 mm/s, slowing 200 mm/s each second until it stops
    4 s after the contact); the red runs in under the player's body ``lost_s`` after the contact
    and is found only 5 s after it, where it came to rest; the white, at rest meanwhile, is struck
    again ``again_s`` after the contact, away from the red. Returns the two strokes' log lines."""
    white_at, red_at = (600.0, 1000.0), (600.0, 1500.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1][1:]
    keys += [(tc + again_s, *stop), (tc + again_s + 0.5, stop[0] + 750.0, stop[1])]
    # a rolling run, in pieces: y(s) = 1500 + 800 s - 100 s^2 until it stops at s = 4
    run_keys = [(tc + s, 600.0, 1500.0 + 800.0 * s - 100.0 * s * s) for s in np.arange(0.0, 4.01, 0.25)]
    red = Ball("red", [(0.0, *red_at), *run_keys], hidden=[(tc + lost_s, tc + 5.0)])
    balls = [Ball("white", keys), red, still("black", *SPOTS["black"]), still("yellow", *SPOTS["yellow"])]
    return [s.to_log_line() for s in run(balls, duration_s=tc + 7.0, noise_mm=1.0).strokes]


@pytest.mark.parametrize("again_s", [2.8, 3.6], ids=["stroke-before-running", "stroke-before-ended"])
def test_a_ball_hidden_while_it_runs_and_found_after_the_cue_ball_is_struck_again_was_moving_at_the_strike(
    again_s,
):
    """The red is lost a second after the contact, still at 600 mm/s, and the white struck again
    1.8 or 2.6 s later (longer than the tracker counts a hidden ball moving; the second time the
    stroke before has ended at rest meanwhile): the red still crept (240, 80 mm/s), a stroke played
    while a ball moves (3.15), and found later where it stopped it was not set off by the white,
    which went nowhere near it. Nor is it off the table: lost in the open too slow to reach a
    cushion fast enough to jump."""
    lines = _red_run_hidden(1.0, again_s)
    assert len(lines) == 2
    assert lines[0]["first_contact"] == ["red"] and lines[0]["off_table"] == []
    assert lines[1]["first_contact"] == []
    assert lines[1]["moving_at_strike"] == ["red"]


def test_a_ball_hidden_while_it_ran_slowly_long_before_the_strike_was_not_moving_at_it():
    """The red is lost 3 s after the contact at 200 mm/s, which rolling resistance stops within
    2 s; the white is struck again 2.5 s after that: no stroke played while a ball moves."""
    lines = _red_run_hidden(3.0, 5.5)
    assert len(lines) == 2
    assert "moving_at_strike" not in lines[1]


def _red_lost_towards_the_top_cushion(again_s: float):
    """The white (600, 2400) stuns the red (600, 2900) up the table at 800 mm/s, rolling (slowing
    120 mm/s each second, the rendered clips' physics); it reaches the top cushion 0.86 s after the
    contact at 697 mm/s, comes back off it at 300 mm/s (0.43 of it: a rolling ball's top spin
    against the cushion's rebound) and stops 2.5 s later, 3.36 s after the contact, 375 mm short of
    the cushion. The red runs in under the player's body 0.5 s after the contact (740 mm/s, 258 mm
    from the cushion) and is found at rest 8 s after it; the white, at rest meanwhile, is struck
    again ``again_s`` after the contact, away from the red. Returns the two strokes' log lines."""
    white_at, red_at = (600.0, 2400.0), (600.0, 2900.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1][1:]
    keys += [(tc + again_s, *stop), (tc + again_s + 0.5, stop[0] + 750.0, stop[1])]
    cushion_y = STANDARD_TABLE.length_mm - D / 2
    hit_s = (800.0 - math.sqrt(800.0**2 - 2.0 * 120.0 * (cushion_y - red_at[1]))) / 120.0
    back = 800.0 - 120.0 * hit_s
    run_in = [(tc + s, 600.0, red_at[1] + 800.0 * s - 60.0 * s * s) for s in np.linspace(0.0, hit_s, 9)]
    run_back = [
        (tc + hit_s + s, 600.0, cushion_y - 0.43 * back * s + 60.0 * s * s)
        for s in np.linspace(0.0, 0.43 * back / 120.0, 9)[1:]
    ]
    red = Ball("red", [(0.0, *red_at), *run_in, *run_back], hidden=[(tc + 0.5, tc + 8.0)])
    balls = [Ball("white", keys), red, still("blue", *SPOTS["blue"]), still("yellow", *SPOTS["yellow"])]
    return [s.to_log_line() for s in run(balls, duration_s=tc + 9.5, noise_mm=1.0).strokes]


@pytest.mark.parametrize("again_s, moving", [(3.0, True), (6.5, False)], ids=["running", "long-stopped"])
def test_a_ball_hidden_running_at_a_near_cushion_counts_moving_at_a_strike_only_while_it_may_run_back_off_it(
    again_s, moving
):
    """Lost 258 mm short of the cushion at 740 mm/s, the red may run on for 7.4 s on open cloth
    (slowing 100 mm/s each second, ``roll_deceleration_mm_s2``), but the cushion takes its speed:
    it may run back off it with at most 0.65 of it, 4.9 s at most after it was lost (in truth 2.9
    s). Struck 2.5 s after then, the white was played while the red still crept back off the
    cushion (43 mm/s in truth); struck 6 s after then, long after the red stopped, it was not."""
    lines = _red_lost_towards_the_top_cushion(again_s)
    assert len(lines) == 2
    assert lines[0]["first_contact"] == ["red"] and lines[0]["off_table"] == []
    assert lines[1]["first_contact"] == []
    assert lines[1].get("moving_at_strike", []) == (["red"] if moving else [])


def test_a_ball_hidden_while_it_ran_found_after_the_strike_where_it_stopped_short_was_not_moving_at_it():
    """The red, struck at 400 mm/s, is lost 0.3 s later in the open (nothing within the 800 mm it
    could roll in its way) and found, 0.6 s after the white is struck again 3.2 s after that, at
    rest only 300 mm on: it slowed faster than a rolling ball (it slid, or its speed read high), and at
    100 mm/s each second at least it stopped within 2.45 s of when it was lost, before the strike
    (its speed alone would give it 4 s)."""
    white_at, red_at = (600.0, 1000.0), (600.0, 1500.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1][1:]
    lost, again = tc + 0.3, tc + 0.3 + 3.2
    keys += [(again, *stop), (again + 0.5, stop[0] + 750.0, stop[1])]
    red = Ball(
        "red",
        [
            (0.0, *red_at),
            (tc, *red_at),
            (lost, 600.0, red_at[1] + 120.0),
            (lost + 2.0, 600.0, red_at[1] + 420.0),
        ],
        hidden=[(lost, lost + 3.8)],
    )
    balls = [Ball("white", keys), red, still("blue", *SPOTS["blue"]), still("black", *SPOTS["black"])]
    lines = [s.to_log_line() for s in run(balls, duration_s=lost + 6.0, noise_mm=1.0).strokes]
    assert len(lines) == 2
    assert lines[0]["first_contact"] == ["red"] and lines[0]["off_table"] == []
    assert lines[1]["first_contact"] == []
    assert "moving_at_strike" not in lines[1]


def test_a_ball_hidden_while_it_ran_at_a_ball_seen_unmoved_at_the_strike_was_not_moving_at_it():
    """The red, lost running at 300 mm/s straight at the blue 100 mm ahead (it reaches it within
    0.35 s if it runs on), is never found again; the white is struck again 2 s after the red was
    lost, with the blue seen where it rested, not moving: the red did not run on into it (it
    stopped, or turned, before), so it is not counted running at the strike, though its speed
    alone would let it roll 3 s."""
    white_at, red_at = (600.0, 1000.0), (600.0, 1500.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1][1:]
    lost = tc + 0.3
    blue_at = (600.0, red_at[1] + 90.0 + D + 100.0)
    keys += [(lost + 2.0, *stop), (lost + 2.5, stop[0] + 750.0, stop[1])]
    red = Ball(
        "red",
        [
            (0.0, *red_at),
            (tc, *red_at),
            (lost, 600.0, red_at[1] + 90.0),
            (lost + 0.4, 600.0, red_at[1] + 150.0),
        ],
        gone_after=lost,
    )
    balls = [Ball("white", keys), red, still("blue", *blue_at), still("black", *SPOTS["black"])]
    lines = [s.to_log_line() for s in run(balls, duration_s=lost + 4.0, noise_mm=1.0).strokes]
    assert len(lines) == 2
    assert lines[0]["first_contact"] == ["red"] and lines[0]["off_table"] == []
    assert lines[1]["first_contact"] == []
    assert "moving_at_strike" not in lines[1]


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
def test_the_cue_ball_struck_again_out_of_sight_starts_a_new_stroke_at_any_frame_rate(fps):
    # The cue hides the creeping white for 0.06 s as it is struck again (three frames at 50 fps).
    balls = _struck_twice(1500.0, 1.6)
    white = balls[0]
    balls[0] = Ball("white", white.keys, hidden=[(1.6 - 0.03, 1.6 + 0.03)])
    result = run(balls, duration_s=5.0, fps=fps, noise_mm=1.0)
    lines = [s.to_log_line() for s in result.strokes]
    assert len(lines) == 2
    assert lines[0]["first_contact"] == ["red"] and lines[1]["first_contact"] == []
    assert result.strokes[1].start_frame == pytest.approx(1.6 * fps, abs=0.1 * fps)


@pytest.mark.parametrize(
    ("new_velocity", "hidden_s", "struck_at"),
    [
        ((-1100.0, 0.0), 0.0, 1.6),
        ((0.0, -1100.0), 0.0, 1.6),
        ((-1800.0, 0.0), 0.1, 1.6),
        ((1800.0, 0.0), 0.1, 1.6),
        ((-1100.0, 0.0), 0.0, 1.6 + 0.35 / 30.0),
    ],
    ids=[
        "sideways",
        "straight-back",
        "sideways-hidden-3-frames",
        "other-side-hidden-3-frames",
        "sideways-struck-a-third-into-a-frame-interval",
    ],
)
def test_the_cue_ball_struck_again_while_it_still_rolls_starts_a_new_stroke(
    new_velocity, hidden_s, struck_at
):
    # The white runs on at 300 mm/s after hitting the red and is struck again at ``struck_at`` in
    # another direction. The cue and the tip may hide it for 0.1 s (three frames at 30 fps): its
    # speed is then read across the frames it was hidden on, rolling on before the strike, so it
    # reads lower and only a harder stroke shows. Struck a third of the way between two frames
    # (as in rendered clips), the step across the strike is part rolling, part struck: 24 mm,
    # 720 mm/s, only 420 more than before (a restrike gains 600); the steps after it show the gain.
    white_at, red_at = (600.0, 1000.0), (600.0, 1500.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1][1:]
    rolled = (stop[0], stop[1] + 300.0 * (struck_at - tc))
    keys += [
        (struck_at, *rolled),
        (struck_at + 0.5, rolled[0] + 0.5 * new_velocity[0], rolled[1] + 0.5 * new_velocity[1]),
    ]
    hidden = [(struck_at - 0.5 * hidden_s, struck_at + 0.5 * hidden_s)] if hidden_s else []
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 2.5, 600.0, 3300.0)])
    balls = [Ball("white", keys, hidden=hidden), red, still("yellow", *SPOTS["yellow"])]
    result = run(balls, duration_s=5.0, noise_mm=1.0)
    lines = [s.to_log_line() for s in result.strokes]
    assert len(lines) == 2
    assert lines[0]["first_contact"] == ["red"] and lines[1]["first_contact"] == []
    assert result.strokes[1].start_frame == pytest.approx(struck_at * 30, abs=3)


def test_the_cue_balls_place_before_the_stroke_is_where_it_rested_not_its_blurred_sighting_as_struck():
    # From hand, 3 mm behind the baulk line: on the frame it is struck its blurred centre reads
    # 8 mm further on (as rendered clips show), over the line. The stroke's positions before are
    # where it rested (within the D, no foul for the referee), not that sighting.
    white_at = (1001.0, 734.0)
    red_at = (1001.0, 2000.0)
    keys, tc = _shot(white_at, red_at, 3000.0, 0.5)
    blurred = _JumpingCentre("white", keys, [(0.5 - 1e-3, 0.0, 8.0), (0.5 + 1e-3, 0.0, -8.0)])
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 1.0, 1001.0, 3000.0)])
    result = run([blurred, red, *_colours()], duration_s=3.0, noise_mm=0.5)
    before = result.strokes[0].positions_before["white"]
    assert before[1] == pytest.approx(734.0, abs=1.5)


def test_the_stroke_says_how_far_the_cue_balls_place_may_be_off():
    # The scenarios' camera spans 5 mm a pixel (PX_PER_MM 0.2): the place before the stroke may be
    # off by the other errors (touching_tolerance_mm, 6) plus half a pixel's rounding (2.5 mm).
    white_at, red_at = (889.0, 700.0), (889.0, 2000.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 1.0, 889.0, 3000.0)])
    result = run([Ball("white", keys), red, *_colours()], duration_s=3.0)
    line = result.strokes[0].to_log_line()
    assert line["position_tolerance_mm"] == pytest.approx(8.5, abs=0.05)


@pytest.mark.parametrize(
    "struck_s",
    [1.5, 0.5],
    ids=["struck-long-after", "struck-before-nine-sightings-at-rest-since"],
)
def test_a_cue_balls_centre_corrected_once_at_rest_starts_no_stroke(struck_s):
    # The player's hand (or a first frame read off) pulls the white's detected centre 20 mm off for
    # the first frames; once it is gone the centre is measured right and stays there (a jump, then
    # still): no stroke. The real stroke later is the only one, and it starts when the white is
    # struck, also when that comes before its resting place's median window (``rest_median_frames``)
    # has filled with sightings since the jump (rendered overhead in_off seed 6: a stroke at frame 6
    # that was not played, the real one struck at frame 15).
    white_at, red_at = (241.0, 1704.0), (700.0, 1704.0)
    keys, tc = _shot(white_at, red_at, 2000.0, struck_s)
    white = _JumpingCentre("white", keys, [(0.0, 20.0, 5.0), (0.2 - 1e-3, -20.0, -5.0)])
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 1.0, 1400.0, 1704.0)])
    result = run([white, red, *_colours()], duration_s=4.0, noise_mm=0.5)
    assert [s.to_log_line()["first_contact"] for s in result.strokes] == [["red"]]
    assert result.strokes[0].start_frame == pytest.approx(struck_s * 30, abs=2)


def _black_set_off_by_the_running_red():
    """:func:`_struck_twice` with the black on the red's line: the running red stops on it at
    about 2.46 s and sets it off to (800, 3150) (s, mm), while the white struck again at 1.6 s runs
    to open cloth. Returns the balls (the white last) and the black's keyframes."""
    balls = _struck_twice(1500.0, 1.6)
    red_at, black_at = (600.0, 1500.0), (600.0, 2800.0)
    red_keys = balls[1].keys
    tc = red_keys[1][0]
    reach = black_at[1] - D
    t_hit = tc + 2.5 * (reach - red_at[1]) / (3300.0 - red_at[1])
    balls[1] = Ball("red", [*red_keys[:2], (t_hit, 600.0, reach)])
    black_keys = [(0.0, *black_at), (t_hit, *black_at), (t_hit + 1.0, 800.0, 3150.0)]
    balls[2] = Ball("black", black_keys)
    return [*balls[1:], balls[0]], black_keys


def test_a_ball_set_off_by_one_still_running_is_no_first_contact_of_the_cue_ball():
    # The white, struck again while the red runs, goes to open cloth and hits nothing; the red
    # then sets the black off. That black moved first in the stroke, but the white, seen all the
    # way far from it, did not move it: no first contact (a foul, and no ball's value for it).
    balls, _ = _black_set_off_by_the_running_red()
    result = run(balls, duration_s=5.0, noise_mm=1.0)
    lines = [s.to_log_line() for s in result.strokes]
    assert [line["first_contact"] for line in lines] == [["red"], []]


def test_the_cue_ball_meeting_a_ball_set_off_by_a_running_one_hits_it_first():
    # As above, but the white, struck again to the right and round, meets the moving black at
    # 3.0 s, far from where the black rested: its first contact is the black.
    balls, black_keys = _black_set_off_by_the_running_red()
    (t0, x0, y0), (t1, x1, y1) = black_keys[1], black_keys[2]
    u = (3.0 - t0) / (t1 - t0)
    black_then = (x0 + u * (x1 - x0), y0 + u * (y1 - y0))
    white = balls[-1]
    creep = white.keys[-2]
    meet = (black_then[0] + D, black_then[1])
    balls[-1] = Ball("white", [*white.keys[:-1], (2.4, 1000.0, 2500.0), (3.0, *meet), (4.0, *meet)])
    assert creep[0] == 1.6
    result = run(balls, duration_s=5.0, noise_mm=1.0)
    lines = [s.to_log_line() for s in result.strokes]
    assert [line["first_contact"] for line in lines] == [["red"], ["black"]]


def test_the_cue_ball_struck_again_into_the_ball_still_running_hits_it_first():
    # The white, struck again at 1.6 s straight up the table at 2 m/s, catches the red still
    # running from the first stroke (720 mm/s) about 2.07 s: its first contact is that red, met
    # far from anywhere it rested.
    balls = _struck_twice(0.0, 1.6)
    white = balls[0]
    start = white.keys[-1]
    red = balls[1]
    (t0, _, y0), (t1, _, y1) = red.keys[1], red.keys[2]
    red_speed = (y1 - y0) / (t1 - t0)
    red_then = y0 + red_speed * (1.6 - t0)
    t_meet = 1.6 + (red_then - D - start[2]) / (2000.0 - red_speed)
    meet = (600.0, start[2] + 2000.0 * (t_meet - 1.6))
    balls[0] = Ball("white", [*white.keys, (t_meet, *meet), (5.0, *meet)])
    result = run(balls, duration_s=5.0, noise_mm=1.0)
    lines = [s.to_log_line() for s in result.strokes]
    assert [line["first_contact"] for line in lines] == [["red"], ["red"]]


class _JumpingCentre(Ball):
    """A ball whose detected centre jumps by ``(t, dx, dy)`` (s, mm) at each of ``jumps`` and stays
    off by that much (the error of a detected centre changing at once, as near a cushion where the
    ball's outline meets the rail's)."""

    def __init__(self, label, keys, jumps):
        super().__init__(label, keys)
        self.jumps = jumps

    def at(self, t):
        p = super().at(t)
        if p is None:
            return None
        return tuple(np.add(p, sum((np.array(d) for at_t, *d in self.jumps if t >= at_t), np.zeros(2))))


@pytest.mark.parametrize(
    "jumps_mm",
    [(34.0, 14.0), (60.0, 0.0)],
    ids=["caught-up-over-two-frames-as-in-the-demo-clip", "one-jump"],
)
def test_a_creeping_cue_ball_whose_detected_centre_jumps_is_not_struck_again(jumps_mm):
    # The white hits the red, which runs on for 3 s; the white comes back at 450 mm/s (nearly at
    # rest for a restrike) and its detected centre jumps ahead along its path, on one frame or
    # mostly on one and the rest on the next, then runs on at that speed: one stroke, not two.
    white_at, red_at = (1400.0, 700.0), (1400.0, 1100.0)
    keys, tc = _shot(white_at, red_at, 2000.0, 0.5)
    stop = keys[-1]
    keys += [(stop[0] + 0.3, 1400.0, stop[2] - 45.0), (stop[0] + 1.5, 1400.0, stop[2] - 45.0 - 540.0)]
    at_t = round((stop[0] + 1.0) * 30.0) / 30.0 - 0.5 / 30.0  # between two frames
    jumps = [(at_t, 0.0, -jumps_mm[0]), (at_t + 1.0 / 30.0, 0.0, -jumps_mm[1])]
    white = _JumpingCentre("white", keys, jumps)
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 3.0, 1400.0, 3300.0)])
    result = run([white, red, *_colours()], duration_s=5.0, noise_mm=1.0)
    assert [s.to_log_line()["first_contact"] for s in result.strokes] == [["red"]]


def test_a_cue_ball_screwing_back_or_off_a_cushion_is_not_struck_again():
    # Stops dead on the red, then its back spin takes it back (accelerating at 2 m/s^2) to a cushion.
    white_at, red_at = (889.0, 700.0), (889.0, 1100.0)
    keys, tc = _shot(white_at, red_at, 2500.0, 0.5)
    stop = keys[-1]
    back = [(stop[0] + dt, stop[1], stop[2] - 1000.0 * dt * dt) for dt in (0.1, 0.2, 0.3, 0.4, 0.5)]
    last = back[-1]
    bounce = [(last[0] + 0.15, 889.0, 26.25 + 1.0), (last[0] + 0.6, 889.0, 300.0)]
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 1.0, 889.0, 2500.0)])
    result = run([Ball("white", keys + back + bounce), red, *_colours()], duration_s=4.0, noise_mm=1.0)
    assert len(result.strokes) == 1
    assert result.strokes[0].to_log_line()["first_contact"] == ["red"]


def test_a_power_shot_whose_cue_ball_was_hidden_at_rest_is_found_from_its_flight():
    # The player's hand hides the white until it is struck at 7 m/s; it is first seen in flight.
    white_at, red_at = (889.0, 600.0), (889.0, 2200.0)
    keys, tc = _shot(white_at, red_at, 7000.0, 1.0)
    keys += [(tc + 0.3, 889.0, 2000.0)]
    red = Ball("red", [(0, *red_at), (tc, *red_at), (tc + 0.4, 889.0, 3200.0)])
    white = Ball("white", keys, hidden=[(0.0, 1.0)])
    result = run([white, red, still("black", 300.0, 3000.0), still("yellow", 1200.0, 900.0)], duration_s=4.0)
    assert len(result.strokes) == 1
    # Struck on frame 30; a new track is a ball once seen on confirm_frames (3) frames.
    assert 30 <= result.strokes[0].start_frame <= 30 + 3
    assert result.strokes[0].to_log_line()["first_contact"] == ["red"]


def _first_frame_tracker(at_once: bool) -> BallTracker:
    config = TrackerConfig()
    return BallTracker(
        config=replace(config, lifecycle=replace(config.lifecycle, confirm_first_frame=at_once))
    )


@pytest.mark.parametrize(("at_once", "first_named"), [(True, 0), (False, 2)], ids=["at_once", "after_three"])
def test_the_balls_of_the_first_frame_are_named_on_it(at_once, first_named):
    """The table as the video opens: its balls are reported from the first frame (on probation),
    not only once seen on ``confirm_frames`` frames."""
    balls = [still("white", 900, 1000), *_colours(), still("red", 600, 2600)]
    result = run(balls, duration_s=0.5, noise_mm=1.0, tracker=_first_frame_tracker(at_once))
    named = [len(s.balls) for s in result.states]
    assert named[first_named] == len(balls) and all(n == 0 for n in named[:first_named])
    expected = {"white", "yellow", "green", "brown", "blue", "black", "red-1"}
    assert {b.label for b in result.states[first_named].balls} == expected
    assert result.strokes == [] and not any(e.kind == "potted" for e in result.events)


def test_a_false_detection_on_the_first_frame_only_is_dropped():
    phantom = Ball("pink", [(0.0, 300.0, 2500.0)], gone_after=0.01)
    balls = [still("white", 900, 1000), *_colours(), phantom]
    result = run(balls, duration_s=1.5, noise_mm=1.0, tracker=_first_frame_tracker(True))
    assert "pink" in result.states[0].by_label()
    assert all("pink" not in s.by_label() for s in result.states[3:])
    assert result.strokes == [] and result.outside == []
    assert not any(e.kind in ("potted", "off_table") for e in result.events)


def test_a_ball_first_seen_after_the_first_frame_still_needs_three_sightings():
    late = Ball("pink", [(0.0, *SPOTS["pink"])], hidden=[(0.0, 0.2)])
    balls = [still("white", 900, 1000), *_colours(), late]
    result = run(balls, duration_s=1.0, tracker=_first_frame_tracker(True))
    seen_from = next(k for k, s in enumerate(result.states) if s.t > 0.2)
    assert "pink" not in result.states[seen_from].by_label()
    assert "pink" in result.states[seen_from + 2].by_label()


@pytest.mark.parametrize("speed", [900.0, 1100.0, 1500.0])
@pytest.mark.parametrize("content_fps", [None, 25.0], ids=["30 fps", "25 fps shown at 30"])
def test_a_cue_ball_bouncing_off_a_cushion_is_not_struck_again(speed, content_fps):
    # Into the top cushion and back: between two sightings it goes in and comes out, so across the
    # bounce it reads nearly still (more so when a picture is shown twice), then off again.
    top = STANDARD_TABLE.length_mm - STANDARD_TABLE.ball_radius_mm
    x0, y0, t0 = 1200.0, 2800.0, 0.5
    t_hit = t0 + (top - y0) / speed
    keys = [(0.0, x0, y0), (t0, x0, y0), (t_hit, x0, top), (t_hit + 1.0, x0, top - 0.6 * speed)]
    balls = [Ball("white", keys), still("yellow", *SPOTS["yellow"])]
    result = run(balls, duration_s=4.0, noise_mm=1.0, content_fps=content_fps)
    assert [s.start_frame for s in result.strokes] == [pytest.approx(t0 * 30, abs=2)]


@pytest.mark.parametrize(
    ("unwatched", "strike_unseen", "unwatched_s"),
    [(None, False, 0.0), ([(0.3, 0.9)], True, 0.0), ([(1.0, 1.6)], False, 0.63)],
    ids=["watched throughout", "struck during a cut", "a cut while it runs"],
)
def test_a_stroke_says_what_the_camera_did_not_watch(unwatched, strike_unseen, unwatched_s):
    # The white struck at 0.5 s into open cloth (it hits nothing), the broadcast away for a while.
    keys, _ = _shot((600.0, 1000.0), (600.0, 2500.0), 1500.0, 0.5)
    balls = [Ball("white", keys), still("black", *SPOTS["black"]), still("yellow", *SPOTS["yellow"])]
    result = run(balls, duration_s=4.0, noise_mm=0.5, unwatched=unwatched)
    [stroke] = result.strokes
    assert stroke.first_contact == ()
    assert stroke.strike_unseen is strike_unseen
    assert stroke.unwatched_s == pytest.approx(unwatched_s, abs=0.05)
    line = stroke.to_log_line()
    assert line.get("strike_unseen", False) is strike_unseen and line.get(
        "unwatched_s", 0.0
    ) == pytest.approx(unwatched_s, abs=0.05)


def test_a_red_potted_while_the_table_was_unwatched_is_potted_its_pocket_unknown():
    """A camera's drop-out from just after the strike until the balls stopped: the white, turned
    aside by the red, rests far off the line it ran on (so no contact can be read across the gap),
    and the red is not there when the picture comes back, nor ever after. Before, the stroke was
    dropped as one that stopped short (its cue ball's path, across the gap, read as too short for
    its speed), and the red was held on the table."""
    white, red, *colours = _pot_scenario("top_right")
    contact_t, contact_x, contact_y = white.keys[-1]
    aside = (contact_x - 450.0, contact_y + 220.0)  # square to the line it came in on
    white = Ball("white", [*white.keys, (contact_t + 0.8, *aside)])
    result = run([white, red, *colours], duration_s=3.5, noise_mm=1.0, unwatched=[(0.55, 2.0)])
    [stroke] = result.strokes
    line = stroke.to_log_line()
    assert line["first_contact"] == [] and line["unwatched_s"] > 1.0
    assert line["potted"] == [{"ball": "red"}]


@pytest.mark.parametrize("hidden_s", [0.0, 0.4], ids=["seen_at_once", "hidden_for_a_moment"])
def test_a_ball_seen_again_after_the_table_was_unwatched_is_not_potted(hidden_s):
    # The white struck into open cloth while the view is away; the red, untouched, is seen again
    # when the view is back (at once, or after a player stepped away from in front of it).
    keys, _ = _shot((600.0, 1000.0), (600.0, 2500.0), 1500.0, 0.5)
    back = 1.6
    red = Ball("red", [(0.0, 1300.0, 2000.0)], hidden=[(back, back + hidden_s)] if hidden_s else [])
    result = run(
        [Ball("white", keys), red, *_colours()], duration_s=4.0, noise_mm=0.5, unwatched=[(1.0, back)]
    )
    [stroke] = result.strokes
    assert stroke.to_log_line()["potted"] == []


def test_a_ball_set_off_long_after_the_contact_the_path_shows_does_not_overrule_it():
    """The white, lost to its blur on the frames it strikes the black (the contact a guess from its
    path), runs on and hits a red 1.2 s later; the black is never detected once it moves. The red,
    which clearly sets off, was taken as the first contact (Task2 clip 6 at 540 lines)."""
    mouth = STANDARD_TABLE.pockets["top_left"].mouth_centre
    black_at = _towards(mouth, (889.0, 1784.0), 900.0)
    white_at = _towards(black_at, mouth, -500.0)
    keys, tc = _shot(white_at, black_at, 2500.0, 0.5)
    contact = keys[-1][1:]
    red_at = (1300.0, 2300.0)
    reach = _towards(red_at, contact, D)
    later = tc + math.dist(contact, reach) / 450.0
    white = Ball("white", [*keys, (later, *reach), (later + 0.5, *reach)], hidden=[(tc - 0.05, tc + 0.05)])
    red = Ball("red", [(0.0, *red_at), (later, *red_at), (later + 0.4, *_towards(red_at, reach, -250.0))])
    black = Ball("black", [(0.0, *black_at)], gone_after=tc)
    result = run([white, black, red, still("blue", *SPOTS["blue"])], duration_s=4.5, noise_mm=1.0)
    line = result.strokes[0].to_log_line()
    assert line["first_contact"] == ["black"]
    assert line["potted"] == [{"ball": "black", "pocket": "top_left"}]


@pytest.mark.parametrize(
    ("keys", "taken_to_the_gap"),
    [
        ([(0.0, 900.0, 2000.0)], False),
        ([(0.0, 900.0, 1700.0), (1.0, 900.0, 2000.0), (1.5, 900.0, 2150.0)], True),
    ],
    ids=["hidden at rest: held where it rested", "hidden while rolling slowly: taken to the gap once"],
)
def test_a_hidden_ball_found_once_far_off_and_lost_again_is_not_off_the_table(keys, taken_to_the_gap):
    """The black, hidden by a player, is 'found' once at a dark gap between his fingers near the side
    cushion and lost again (Task2 clip 12 at 540 lines): its only speed is that jump, not one
    measured between sightings, and it is not ruled off the table. Hidden at rest, with nothing
    reaching it, it is not found there at all (``AssociationConfig.rest_contact_tolerance_mm``)."""
    gap = (150.0, 2000.0)
    black = Ball("black", keys, hidden=[(1.0, 3.0)])
    finger_gap = Ball("black", [(0.0, *gap)], hidden=[(0.0, 1.12), (1.14, 3.0)])
    result = run([Ball("white", [(0.0, 900.0, 600.0)]), black, finger_gap], duration_s=3.0, noise_mm=0.5)
    assert taken_to_the_gap == any(
        s.t > 1.1 and "black" in s.by_label() and s.by_label()["black"].xy_mm[0] < 300 for s in result.states
    )
    assert not [e for e in result.events if e.kind == "off_table"]


@pytest.mark.parametrize("pocket", ["top_left", "baulk_right"])
def test_a_ball_whose_last_sighting_jitters_back_from_the_jaws_is_still_potted(pocket):
    """A red runs into a corner at 0.9 m/s; its last centre, on a blurred or coarsely compressed
    frame, lands 12 mm back from the one before, 57 mm from the mouth (just outside the jaws): the
    filter's velocity restarts from that one step, pointing away, but a ball does not turn back on
    the open cloth between two frames (Task2 clip 7 at a low bit rate)."""
    balls = _pot_scenario(pocket)
    mouth = STANDARD_TABLE.pockets[pocket].mouth_centre
    red = balls[1]
    (_, *red_at), struck = red.keys[0], red.keys[1][0]
    speed, fps = 900.0, 30.0
    last_but_one = math.ceil((struck + (math.dist(red_at, mouth) - 45.0) / speed) * fps) / fps
    keys = [
        (0.0, *red_at),
        (struck, *red_at),
        (last_but_one, *_towards(mouth, red_at, 45.0)),
        (last_but_one + 1 / fps, *_towards(mouth, red_at, 57.0)),
    ]
    jittered = Ball("red", keys, gone_after=last_but_one + 1.5 / fps)
    result = run([balls[0], jittered, *balls[2:]], duration_s=3.0, noise_mm=0.5)
    # seen going in where it was lost, not only inferred at the stroke's end from the cue ball's path
    assert [(e.label, e.pocket) for e in result.events if e.kind == "potted"] == [("red-1", pocket)]
    assert [s.to_log_line()["potted"] for s in result.strokes] == [[{"ball": "red", "pocket": pocket}]]


def test_a_running_ball_read_as_a_confusable_colour_stays_its_own_while_that_ball_is_hidden_elsewhere():
    """A yellow running at 0.6 m/s is read white on three frames, its centre blurred 60 mm ahead
    (beyond the confusable-colour gate); the white lies hidden at rest 230 mm away. No white is
    there: the yellow keeps its gate, and the white stays where it lies (the white carried onto the
    yellow's path, the yellow lost: Task2 clip 4 at 25 fps)."""
    fps, start, misread = 30.0, 0.5, (1.0, 1.0 + 2 / 30.0)

    def yellow_at(t: float) -> tuple[float, float]:
        return (600.0, 1000.0 + 600.0 * max(0.0, t - start))

    yellow = Ball(
        "yellow",
        [(0.0, *yellow_at(0.0)), (start, *yellow_at(start)), (3.0, *yellow_at(3.0))],
        hidden=[(misread[0] - 0.001, misread[1] + 0.001)],
    )
    blurred = Ball(
        "yellow",
        [
            (t, yellow_at(t)[0], yellow_at(t)[1] + 60.0)
            for t in np.arange(misread[0], misread[1] + 1e-6, 1 / fps)
        ],
        hidden=[(0.0, misread[0] - 0.001), (misread[1] + 0.001, 9.0)],
        seen_as="white",
    )
    white_at = (830.0, yellow_at(misread[0])[1])
    white = Ball("white", [(0.0, *white_at)], hidden=[(misread[0] - 0.3, 2.0)])
    result = run(
        [white, yellow, blurred, still("black", *SPOTS["black"])], duration_s=2.5, noise_mm=0.5, fps=fps
    )
    during = [s.by_label() for s in result.states if misread[0] - 0.1 <= s.t <= misread[1] + 0.3]
    assert all(math.dist(labels["white"].xy_mm, white_at) < 5.0 for labels in during)
    assert all(labels["yellow"].status.value == "visible" for labels in during)


@pytest.mark.parametrize("merged_mm", [20.0, 26.0])
@pytest.mark.parametrize("speed_mm_s", [1500.0, 2500.0])
def test_a_cue_ball_stopped_dead_on_a_ball_keeps_its_name_as_that_ball_runs_off(merged_mm, speed_mm_s):
    """A stun shot: the white stops dead where it meets the yellow at rest, the yellow runs off at
    the white's speed. On the frame of the contact their blobs merge and the yellow's centre is read
    ``merged_mm`` towards the white, so the yellow's track, predicted on there, lies nearer the
    stopped white than the white's own; the yellow itself, a frame on, lies beyond its gate. The
    white, named white with full confidence and claimed by the white's track, is not taken by the
    yellow's (the two were swapped: Task2 clip 4, the white after it stopped on the yellow)."""
    fps = 30.0
    yellow_at, u = np.array([600.0, 1200.0]), np.array([0.0, -1.0])
    contact_t = 1.0
    stop = yellow_at - u * D
    start = stop - u * speed_mm_s * 0.5
    white = Ball("white", [(0.0, *start), (contact_t - 0.5, *start), (contact_t, *stop)])
    merged = yellow_at - u * merged_mm
    yellow = Ball(
        "yellow",
        [
            (0.0, *yellow_at),
            (contact_t - 1 / fps, *yellow_at),
            (contact_t, *merged),
            (contact_t + 1 / fps, *(yellow_at + u * speed_mm_s / fps)),
            (contact_t + 0.4, *(yellow_at + u * speed_mm_s * 0.4)),
        ],
    )
    result = run([white, yellow, still("black", *SPOTS["black"])], duration_s=2.0, fps=fps)
    after = [s.by_label() for s in result.states if s.t >= contact_t + 0.2]
    assert all(math.dist(labels["white"].xy_mm, stop) < 5.0 for labels in after)
    assert all(math.dist(labels["yellow"].xy_mm, stop) > D for labels in after if "yellow" in labels)
