"""A stroke starts when the cue ball sets off, also when it is missed on frames as it runs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from tracker_scenarios import segmented

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.types import BallState, TableState, TrackEvent, TrackStatus

FPS = 30.0
REST = np.array([900.0, 800.0])
"""Where the cue ball rests before the stroke (table mm)."""
VELOCITY = np.array([0.0, 3000.0])
"""The struck cue ball's velocity (mm/s): 100 mm a frame."""
RED = (300.0, 3000.0)
"""A red at rest far from the cue ball's path."""


def _states(script: str) -> list[TableState]:
    """One table state per character of ``script``, for the cue ball: ``r`` seen at rest where it
    rests, ``-`` not seen (held where it was last seen, moving if it was), ``m`` seen running from
    where it rests, set off on the first frame after it was last seen at rest, ``j`` seen once off
    its place (a detected centre that jumps), ``J`` / ``K`` seen 50 / 40 mm up the table from its
    place and flagged moving (a centre the cue tip pulled off the ball, corrected as the tip
    feathers: the ball stays put), ``F`` / ``G`` seen 2000 / 1920 mm up the table and flagged
    moving (found again far off, running back towards its place off the top cushion), ``S`` seen
    700 mm up the table, not flagged moving (another thing named white for a frame)."""
    states = []
    set_off = None
    held_xy, held_moving = REST, False
    for frame, code in enumerate(script):
        t = frame / FPS
        if code == "r":
            set_off = None
        elif set_off is None:
            set_off = t
        if code == "-":
            xy, status, moving = held_xy, TrackStatus.HELD, held_moving
        else:
            running = code in "mjJKFG"
            xy = REST + VELOCITY * (t - set_off + 1.0 / FPS) if code == "m" else REST
            xy = xy + np.array([40.0, 0.0]) if code == "j" else xy
            offsets = {"J": 50.0, "K": 40.0, "F": 2000.0, "G": 1920.0, "S": 700.0}
            xy = xy + np.array([0.0, offsets.get(code, 0.0)])
            status, moving = TrackStatus.VISIBLE, running
            held_xy, held_moving = xy, moving
        cue = BallState(1, "white", (float(xy[0]), float(xy[1])), status, moving)
        red = BallState(2, "red-1", RED, TrackStatus.VISIBLE, False)
        states.append(TableState(frame, t, (cue, red)))
    return states


AT_REST = "r" * 12
"""The cue ball seen at rest on frames 0–11."""


@pytest.mark.parametrize(
    ("script", "start_frames"),
    [
        (AT_REST + "rrrrrr", []),
        (AT_REST + "mmmmmm", [12]),
        (AT_REST + "--mmmm", [12]),
        (AT_REST + "-m-m-m", [12]),
        (AT_REST + "--m--m--m", [12]),
        (AT_REST + "jrrrrr", []),
        (AT_REST + "m--------m", []),
        (AT_REST + "JKKKKK", []),
        (AT_REST + "JKJKrr", []),
        (AT_REST + "Jmmmmm", [12]),
        (AT_REST + "-" * 10 + "FG", [12]),
        (AT_REST + "--S-rrrrr", []),
        (AT_REST + "--S-SSrrrrr", []),
    ],
    ids=[
        "at rest throughout",
        "seen running throughout",
        "missed on two frames, found running",
        "found running on every other frame",
        "found running on every third frame",
        "a centre that jumps once",
        "two running sightings too far apart",
        "a centre pulled off by the cue tip, then nearer its place",
        "a centre pulled back and forth as the tip feathers",
        "a jump, then running off in a line",
        "unseen as struck, found far off running back",
        "seen once far off (another thing named white), then at rest in its place",
        "another thing named white, twice, then the cue ball at rest in its place",
    ],
)
def test_a_stroke_starts_on_the_frame_the_cue_ball_left_its_place(
    script: str, start_frames: list[int]
) -> None:
    strokes = segmented(_states(script))
    assert [stroke.start_frame for stroke in strokes] == start_frames


def test_a_cue_ball_lost_to_its_blur_until_after_it_met_a_ball_played_a_stroke() -> None:
    # At 25 fps a cue ball struck at 4 m/s is blurred beyond detection from the strike until it
    # meets a red 700 mm away; found again beside it nearly stopped (not flagged moving after one
    # sighting), while the red runs off. The stroke starts as it left its place, and hits the red.
    fps, hidden = 25.0, 5
    red_place = REST + np.array([0.0, 700.0 + 60.0])
    states = []
    for frame in range(12 + hidden + 40):
        t = frame / fps
        after = frame - (12 + hidden)
        if frame < 12:
            cue = BallState(1, "white", (float(REST[0]), float(REST[1])), TrackStatus.VISIBLE, False)
        elif after < 0:
            cue = BallState(1, "white", (float(REST[0]), float(REST[1])), TrackStatus.HELD, False)
        else:
            y = REST[1] + 700.0 + 12.0 * min(after, 4)
            cue = BallState(1, "white", (float(REST[0]), float(y)), TrackStatus.VISIBLE, after == 0)
        red_y = red_place[1] + (0.0 if after < 0 else 80.0 * min(after + 1, 15))
        red = BallState(2, "red-1", (float(red_place[0]), float(red_y)), TrackStatus.VISIBLE, 0 <= after < 15)
        states.append(TableState(frame, t, (cue, red)))
    strokes = segmented(states)
    assert [stroke.start_frame for stroke in strokes] == [12]
    assert strokes[0].first_contact == ("red-1",)


def _rolling(steps_mm: list[float]) -> list[TableState]:
    """The cue ball at rest for 12 frames, then running up the table by ``steps_mm[k]`` on each
    frame after (0: the same place to the mm, a picture shown twice), a red at rest far away."""
    states, y = [], REST[1]
    for frame, step in enumerate([0.0] * 12 + steps_mm):
        y += step
        moving = frame >= 12
        cue = BallState(1, "white", (float(REST[0]), float(y)), TrackStatus.VISIBLE, moving)
        red = BallState(2, "red-1", RED, TrackStatus.VISIBLE, False)
        states.append(TableState(frame, frame / FPS, (cue, red)))
    return states


@pytest.mark.parametrize(
    "steps",
    [
        [37.0] * 10 + [31.0, 0.0] + [37.0] * 5 + [0.0] * 40,
        [37.0] * 4 + [0.0] + [37.0] * 5 + [31.0, 0.0] + [37.0] * 4 + [36.0, 0.0] + [35.0] * 3 + [0.0] * 40,
    ],
    ids=["one picture shown twice", "every sixth picture shown twice"],
)
def test_a_running_cue_ball_shown_twice_in_a_row_is_not_struck_again(steps: list[float]) -> None:
    """A 25 fps broadcast shown at 30 fps repeats every sixth picture: across the repeat the
    running ball covers one step in two frames and seemed to slow to nearly rest, then to set off."""
    strokes = segmented(_rolling(steps))
    assert [s.start_frame for s in strokes] == [12]


def _red_lost(found_again: bool) -> list[TableState]:
    """The white (100 mm a frame) stuns into a red, which runs up the table at 50 mm a frame and is
    lost after three frames (not off the table: the tracker missed it). With ``found_again`` a red
    of a new track appears where it stopped, as the tracker starts one for the ball found again."""
    states = []
    for frame in range(60):
        t = frame / FPS
        k = frame - 12
        white_y = REST[1] + 100.0 * min(max(k, 0), 3)
        balls = [BallState(1, "white", (float(REST[0]), float(white_y)), TrackStatus.VISIBLE, 0 <= k <= 3)]
        red_y = REST[1] + 100.0 * 3 + 52.5 + 50.0 * max(k - 3, 0)
        if k <= 6:
            balls.append(BallState(2, "red-1", (float(REST[0]), float(red_y)), TrackStatus.VISIBLE, k > 3))
        elif found_again and k > 20:
            balls.append(BallState(3, "red-9", (float(REST[0]), 2400.0), TrackStatus.VISIBLE, False))
        states.append(TableState(frame, t, tuple(balls)))
    return states


@pytest.mark.parametrize(("found_again", "off_table"), [(False, ("red-1",)), (True, ())])
def test_a_hit_ball_lost_and_found_again_as_a_new_track_did_not_leave_the_table(found_again, off_table):
    strokes = segmented(_red_lost(found_again))
    [stroke] = strokes
    assert stroke.first_contact == ("red-1",)
    assert stroke.off_table == off_table and stroke.potted == ()


def _pulled(steps_mm: list[float], red_nudged_mm: float = 0.0) -> list[TableState]:
    """The cue ball at rest for 12 frames, then seen ``steps_mm[k]`` farther up the table on each
    frame after, flagged moving while it steps, then at rest for two seconds; a red at rest far
    away (``red_nudged_mm`` up the table once the cue ball has stopped)."""
    states, y = [], REST[1]
    steps = [0.0] * 12 + steps_mm + [0.0] * 60
    for frame, step in enumerate(steps):
        y += step
        moving = step > 0.0
        cue = BallState(1, "white", (float(REST[0]), float(y)), TrackStatus.VISIBLE, moving)
        red_y = RED[1] + (red_nudged_mm if frame >= 12 + len(steps_mm) else 0.0)
        red = BallState(2, "red-1", (RED[0], red_y), TrackStatus.VISIBLE, False)
        states.append(TableState(frame, frame / FPS, (cue, red)))
    return states


@pytest.mark.parametrize(
    ("steps", "red_nudged", "strokes_found"),
    [
        ([3.0, 18.0, 15.0, 1.0, 0.5], 0.0, 0),
        ([47.0, -8.0, 24.0], 0.0, 0),
        ([12.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 1.0], 0.0, 1),
        (list(np.arange(1500.0, 0.0, -2000.0 / FPS) / FPS), 0.0, 1),
        ([3.0, 18.0, 15.0, 1.0, 0.5], 30.0, 1),
    ],
    ids=[
        "centre pulled 37 mm at 540 mm/s and let go (Task2 clip 9)",
        "centre jumped 47 mm, back and on (Task2 clip 9, another calibration)",
        "a soft stroke rolling 68 mm from 360 mm/s",
        "a stroke of 1.5 m/s slowing at 2 m/s^2",
        "pulled and let go, but a red moved",
    ],
)
def test_a_cue_ball_that_stops_short_of_its_braking_distance_played_no_stroke(
    steps, red_nudged, strokes_found
):
    """Free on the cloth a ball slows at most ~2 m/s^2 (StrokeConfig.max_deceleration_mm_s2): one
    that reads fast and stops within a few centimetres, touching nothing, was its centre pulled
    off by the cue tip and let go."""
    strokes = segmented(_pulled(steps, red_nudged))
    assert len(strokes) == strokes_found


@dataclass(frozen=True)
class Ghost:
    """Another thing named black that takes the struck black's track: ``distance_mm`` from the
    black's place, ``turn_deg`` off the way the black ran (towards the white's side of it),
    seen from ``first_k`` to ``last_k`` frames after the white set off (then held there, or read
    off the table)."""

    distance_mm: float
    turn_deg: float
    first_k: int
    last_k: int
    read_off: bool = False
    """After ``last_k`` the tracker says the black left the table where the ghost was last seen
    (a fast sighting by a cushion, then none), and holds it no longer."""


LAST_K = 67
"""The last frame's k in :func:`_black_potted` (a ghost seen to it is seen at the clip's end)."""


def _black_potted(ghost: Ghost | None) -> list[TableState]:
    """The white (100 mm a frame) strikes the black, which runs at the top-right pocket and is
    never detected once it moves (motion blur; the pocket takes it unseen); with a ``ghost``, its
    track goes on to another thing named black (Task2 clip 12 as other broadcasts show it: a
    patch at the side cushion, a gap between a player's fingers, a pocket's hole)."""
    mouth = np.array(STANDARD_TABLE.pockets["top_right"].mouth_centre)
    black_at = mouth - 1200.0 * np.array([0.35, 0.94]) / np.hypot(0.35, 0.94)
    along = (mouth - black_at) / np.linalg.norm(mouth - black_at)
    white_at = black_at - (300.0 + 52.5) * along
    states = []
    for frame in range(80):
        k = frame - 12
        events: tuple[TrackEvent, ...] = ()
        run_mm = 100.0 * min(max(k, 0), 3) + 20.0 * min(max(k - 3, 0), 10)  # it follows through slowly
        white = white_at + run_mm * along
        balls = [BallState(1, "white", (float(white[0]), float(white[1])), TrackStatus.VISIBLE, 0 <= k <= 13)]
        if k <= 3:
            balls.append(
                BallState(2, "black", (float(black_at[0]), float(black_at[1])), TrackStatus.VISIBLE, False)
            )
        elif ghost is not None and k >= ghost.first_k:
            turn = np.radians(ghost.turn_deg)
            way = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) @ along
            where = tuple(float(v) for v in black_at + ghost.distance_mm * way)
            if k <= ghost.last_k or not ghost.read_off:
                status = TrackStatus.VISIBLE if k <= ghost.last_k else TrackStatus.HELD
                balls.append(BallState(2, "black", where, status, False))
            elif k == ghost.last_k + 1:
                events = (TrackEvent("off_table", "black", frame, frame / FPS, where),)
        else:
            balls.append(
                BallState(2, "black", (float(black_at[0]), float(black_at[1])), TrackStatus.HELD, False)
            )
        states.append(TableState(frame, frame / FPS, tuple(balls), events))
    return states


@pytest.mark.parametrize(
    ("ghost", "potted"),
    [
        (None, True),
        (Ghost(250.0, 90.0, 4, 6), True),
        (Ghost(400.0, 150.0, 4, 6), True),
        (Ghost(800.0, 120.0, 10, LAST_K), True),
        (Ghost(850.0, 165.0, 20, 23), True),
        (Ghost(850.0, 165.0, 4, LAST_K), True),
        (Ghost(800.0, 120.0, 10, 11, read_off=True), True),
        (Ghost(400.0, 3.0, 4, 6), True),
        (Ghost(120.0, 90.0, 4, LAST_K), False),
        (Ghost(400.0, 45.0, 4, LAST_K), False),
    ],
    ids=[
        "no ghost",
        "a ghost beside its place as it is struck",
        "a ghost behind its place, on the white's side, as it is struck",
        "a ghost far off its course seen to the clip's end",
        "a ghost far behind it for four frames",
        "a ghost far behind it from the strike to the clip's end",
        "a ghost far off its course read as leaving the table there",
        "seen on its way (on its course) and lost there",
        "found near its place, off its course: it moved there",
        "found far away, within its course: it ran there",
    ],
)
def test_a_hit_ball_never_seen_again_is_potted_where_it_ran_not_where_a_ghost_of_it_was(ghost, potted):
    """A struck ball runs out along its course (the cue ball's lost momentum). Its first sighting
    away from its place that lies far off that course, farther from its place than it could run
    unseen (``StrokeConfig.off_course_unseen_mm``), is another thing named like it: that sighting
    and the others off the course are not the ball, which vanished where it was struck, and its
    pot is judged by its course. Judged by the ghost, the pot was lost: the ghost's way leads to no
    pocket, or the ball was seen again, or it set off towards the cue ball's side and was no
    contact. A ball seen near its place, or far along its course, is the ball."""
    strokes = segmented(_black_potted(ghost))
    [stroke] = strokes
    assert stroke.first_contact == ("black",)
    assert [(p.label, p.pocket) for p in stroke.potted] == ([("black", "top_right")] if potted else [])
    assert stroke.off_table == ()


def _black_off_the_top_cushion(stray_turn_deg: float | None, stray_frames: int = 1) -> list[TableState]:
    """The white (100 mm a frame) strikes the black up the table at 200 mm a frame; the black runs
    into the top cushion, comes back down across the table, slowing, and rests far off the course it
    was struck on, seen all the way. With ``stray_turn_deg``, its first ``stray_frames`` sightings
    away from its place are of another thing named black, 300 mm from its place and that far off its
    course (the white's blurred blob named black as it runs among the reds of a split pack)."""
    along = np.array([0.3, 0.954]) / np.hypot(0.3, 0.954)
    back = np.array([along[0], -along[1]])
    black_at = np.array([600.0, 2500.0])
    white_at = black_at - (300.0 + 52.5) * along
    to_cushion = (STANDARD_TABLE.length_mm - STANDARD_TABLE.ball_radius_mm - black_at[1]) / along[1]
    out_steps = int(np.ceil(to_cushion / 200.0))
    path = [black_at + min(200.0 * k, to_cushion) * along for k in range(1, out_steps + 1)]
    at_cushion, run = path[-1], 0.0
    for speed in np.arange(150.0, 0.0, -8.0):
        run += speed
        path.append(at_cushion + run * back)
    states = []
    for frame in range(110):
        k = frame - 12
        run_mm = 100.0 * min(max(k, 0), 3) + 20.0 * min(max(k - 3, 0), 10)
        white = white_at + run_mm * along
        balls = [BallState(1, "white", (float(white[0]), float(white[1])), TrackStatus.VISIBLE, 0 <= k <= 13)]
        step = k - 4  # the black sets off on the white's fourth frame
        black, moving = (black_at, False) if step < 0 else (path[min(step, len(path) - 1)], step < len(path))
        if stray_turn_deg is not None and 0 <= step < stray_frames:
            turn = np.radians(stray_turn_deg)
            way = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) @ along
            black = black_at + 300.0 * way
        balls.append(BallState(2, "black", (float(black[0]), float(black[1])), TrackStatus.VISIBLE, moving))
        states.append(TableState(frame, frame / FPS, tuple(balls)))
    return states


@pytest.mark.parametrize(
    ("stray_turn_deg", "stray_frames"),
    [(None, 0), (120.0, 1), (-150.0, 1), (120.0, 2)],
    ids=[
        "seen all the way",
        "a stray sighting first, off its course on the white's side",
        "a stray sighting first, behind it on the other side",
        "two stray sightings first, then seen on its course",
    ],
)
def test_a_hit_ball_seen_on_its_course_after_a_stray_first_sighting_is_seen_to_rest(
    stray_turn_deg, stray_frames
):
    """A struck ball whose first sighting away from its place is a stray one far off its course, but
    which is then seen running on that course (``StrokeConfig.off_course_sightings``), was seen on
    its way: the stray sighting is no ghost taking over its track, and the ball, seen to rest far off
    its course after a cushion, is on the table there (a red struck out of a rendered break-off, its
    track given the white's blurred blob for a frame, was read off the table)."""
    [stroke] = segmented(_black_off_the_top_cushion(stray_turn_deg, stray_frames))
    assert stroke.first_contact == ("black",)
    assert stroke.potted == ()
    assert stroke.off_table == ()
    last = _black_off_the_top_cushion(None)[-1].balls[1].xy_mm
    assert np.hypot(*(np.array(stroke.positions_after["black"]) - last)) < 5.0
