"""The picture's shift (``snooker.vision.viewshift``): measured on a rendered broadcast frame moved
as a knocked camera moves it, and the verdicts a run of frames gives (still, moving, moved)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.calibration import load_calibration
from snooker.vision import viewshift
from snooker.vision.gating import FrameThumbnails, MotionGateConfig, table_thumbnail_box
from snooker.vision.viewshift import PictureMotion, Shift, Verdict, ViewShift, ViewShiftConfig, _even_dft_size

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
MEASURE_TOLERANCE_PX = 0.8
"""How close a measured shift comes to the picture's true one (frame px, each way): the thumbnail
is 4 frame px to its px, and the phase correlation's peak is read to a fraction of that."""


@pytest.fixture(scope="module")
def table() -> tuple[np.ndarray, object]:
    """The demo clip's first frame (a rendered broadcast view, 960 × 540) and its calibration."""
    capture = cv2.VideoCapture(str(SAMPLES / "demo_clip.mp4"))
    ok, image = capture.read()
    capture.release()
    assert ok
    return image, load_calibration(SAMPLES / "demo_clip.calibration.json")


def _moved(image: np.ndarray, dx: float, dy: float, turn_deg: float = 0.0) -> np.ndarray:
    """``image`` as a camera moved by (dx, dy) px and turned ``turn_deg`` (clockwise as seen) about
    the picture's centre shows it (the edge repeated where nothing was)."""
    h, w = image.shape[:2]
    return cv2.warpAffine(image, _motion(image, dx, dy, turn_deg), (w, h), borderMode=cv2.BORDER_REPLICATE)


def _motion(image: np.ndarray, dx: float, dy: float, turn_deg: float) -> np.ndarray:
    """The (2, 3) move of :func:`_moved` (OpenCV's angles are anticlockwise as seen)."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), -turn_deg, 1.0)
    matrix[:, 2] += (dx, dy)
    return matrix


@pytest.mark.parametrize(
    ("dx", "dy"), [(0.0, 0.0), (6.0, 4.0), (-3.0, 2.0), (0.0, -5.0), (2.5, 0.0), (-8.0, -6.0)]
)
def test_the_shift_measured_is_the_pictures(table, dx, dy):
    image, view = table
    shift = ViewShift()
    assert shift.check(0, image, view) == (Verdict.STILL, None)  # the first frame: the reference
    _, measured = shift.check(1, _moved(image, dx, dy), view)
    assert measured is not None and measured.response > 0.5
    assert (
        abs(measured.dx_px - dx) <= MEASURE_TOLERANCE_PX and abs(measured.dy_px - dy) <= MEASURE_TOLERANCE_PX
    )


EVERY_FRAME = ViewShiftConfig(measure_every_frames=1)


def _verdicts(
    table, shifts: list[tuple[float, float]], config: ViewShiftConfig = EVERY_FRAME
) -> list[Verdict]:
    image, view = table
    shift = ViewShift(config)
    shift.check(0, image, view)
    return [shift.check(i + 1, _moved(image, *d), view)[0] for i, d in enumerate(shifts)]


STILL, MOVING, MOVED = Verdict.STILL, Verdict.MOVING, Verdict.MOVED


@pytest.mark.parametrize(
    ("shifts", "expected"),
    [
        ([(0, 0)] * 4, [STILL] * 4),
        ([(1.0, -0.5)] * 4, [STILL] * 4),  # within the noise of a still camera
        ([(0.8, -0.4), (-0.6, 0.7), (0.9, 0.5), (-0.8, -0.6)], [STILL] * 4),  # jitter
        ([(2, -1.5)] * 4, [MOVING, MOVING, MOVED, MOVING]),  # a knock below max_shift_px
        ([(0, 0, 0.8)] * 3, [MOVING, MOVING, MOVED]),  # a knock that only turns the picture
        ([(0, 0, -0.4)] * 3, [MOVING, MOVING, MOVED]),
        ([(6, 4)] * 4, [MOVING, MOVING, MOVED, MOVING]),  # a knock; after MOVED the caller acts
        ([(0, 0), (6, 4), (0, 0), (0, 0)], [STILL, MOVING, STILL, STILL]),  # a jolt, back at once
        ([(6, 4), (-6, -4), (6, 4), (-6, -4)], [MOVING] * 4),  # shaking: never one move held
        ([(5, 0), (5.5, 0.5), (6, 0)], [MOVING, MOVING, MOVED]),  # settling: within steady_px
        ([(-5, 3, -0.8)] * 3, [MOVING, MOVING, MOVED]),  # a knock that turns the picture too
        ([(6, -4, 0.8)] * 3, [MOVING, MOVING, MOVED]),
        ([(7, 0, 1.0)] * 3, [MOVING, MOVING, MOVED]),
    ],
    ids=[
        "still",
        "noise",
        "jitter",
        "small_knock",
        "only_turned",
        "only_turned_less_the_other_way",
        "knock",
        "jolt",
        "shaking",
        "settling",
        "turned",
        "turned_the_other_way",
        "turned_more",
    ],
)
def test_a_run_of_frames_says_still_moving_or_moved(table, shifts, expected):
    assert _verdicts(table, shifts) == expected


def test_one_side_of_the_picture_moving_alone_is_no_move(table):
    """A player over one side pulls the whole box's shift; the camera moves every part."""
    image, view = table
    pulled = image.copy()
    half = image.shape[1] // 2
    pulled[:, half:] = _moved(image, 9, 6)[:, half:]
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, image, view)
    verdicts = [shift.check(i, pulled, view) for i in (1, 2, 3)]
    assert all(v is STILL for v, _ in verdicts) and not verdicts[0][1].uniform


def test_a_player_walking_across_the_table_is_no_move(table):
    """A dark figure crossing the table, frame by frame, moves no corner of the fit held."""
    image, _ = table
    frames = []
    for step in range(8):
        frame = image.copy()
        x = 200 + 70 * step
        cv2.rectangle(frame, (x, 150), (x + 60, 420), (30, 30, 40), -1)
        frames.append(frame)
    assert _verdicts_of(table, frames) == [STILL] * 8


def test_a_player_leaning_over_one_end_is_no_move(table):
    """A dark figure over one end of the table, held, and a cue along it: no move."""
    image, _ = table
    frame = image.copy()
    cv2.rectangle(frame, (620, 60), (780, 470), (30, 30, 40), -1)
    cv2.line(frame, (640, 260), (420, 300), (60, 120, 170), 5)
    assert _verdicts_of(table, [frame] * 5) == [STILL] * 5


def _with_player(image: np.ndarray, x: int) -> np.ndarray:
    """``image`` with a dark figure and a white shirt's sleeve over the table from ``x`` (px)."""
    frame = image.copy()
    cv2.rectangle(frame, (x, 120), (x + 170, 540), (30, 30, 40), -1)
    cv2.rectangle(frame, (x - 90, 250), (x + 10, 290), (235, 235, 235), -1)
    return frame


@pytest.mark.parametrize(
    ("player_x", "dx", "dy", "turn_deg"),
    [
        (760, 0.0, 0.0, 0.8),
        (600, 0.0, 0.0, -0.8),
        (600, 5.0, 3.0, 0.4),
        (300, -5.0, 3.0, -0.8),
        (600, 6.0, 4.0, 0.0),
    ],
    ids=["only_turned", "only_turned_the_other_way", "knocked", "knocked_turned_more", "knocked_not_turned"],
)
def test_a_knock_after_a_player_left_the_first_frame_is_taken(table, player_x, dx, dy, turn_deg):
    """The view's first frame shows a player over the table; he has gone when the camera is
    knocked. The alignments checking a move read only what no move or the move checked explains:
    read whole, the player pulled them several px off and the move was refused; and a shift the
    phase correlation misreads (the player in one picture only), refused, is still fitted."""
    image, view = table
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, _with_player(image, player_x), view)
    knocked = _moved(image, dx, dy, turn_deg)
    assert [shift.check(i, knocked, view)[0] for i in (1, 2, 3)] == [MOVING, MOVING, MOVED]


def test_a_player_leaving_the_first_frame_is_no_move(table):
    """The first frame shows a player over one end; he walks off, the camera still."""
    image, view = table
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, _with_player(image, 760), view)
    frames = [_with_player(image, 760 + 40 * step) for step in range(1, 5)] + [image] * 3
    assert [shift.check(i + 1, frame, view)[0] for i, frame in enumerate(frames)] == [STILL] * 7


def _verdicts_of(table, frames: list[np.ndarray]) -> list[Verdict]:
    image, view = table
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, image, view)
    return [shift.check(i + 1, frame, view)[0] for i, frame in enumerate(frames)]


@pytest.mark.parametrize(
    ("dx", "dy", "turn_deg"), [(6.0, 4.0, 0.0), (-5.0, 3.0, -0.8), (5.0, -4.0, 0.3), (0.0, 0.0, 0.8)]
)
def test_a_move_is_measured_whole_turn_and_shift(table, dx, dy, turn_deg):
    """Following a move: the picture's turn and shift, measured by aligning the frames whole, put
    the table's corners where they moved (the shift measured first only starts it)."""
    image, view = table
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, image, view)
    knocked = _moved(image, dx, dy, turn_deg)
    _, measured = shift.check(1, knocked, view)
    motion = shift.motion(knocked, measured)
    assert motion is not None and motion.correlation > 0.9
    truth = _motion(image, dx, dy, turn_deg)
    corners = np.asarray(view.corners_px)
    expected = corners @ truth[:, :2].T + truth[:, 2]
    got = corners @ motion.matrix[:, :2].T + motion.matrix[:, 2]
    assert np.abs(got - expected).max() < 0.3
    assert motion.turn_deg == pytest.approx(turn_deg, abs=0.02)


def test_a_picture_that_is_not_the_table_moved_gives_no_move(table):
    image, view = table
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, image, view)
    other = np.random.default_rng(3).integers(0, 256, image.shape, dtype=np.uint8)
    assert shift.motion(other, Shift(6.0, 4.0, 1.0)) is None


def test_frames_between_those_measured_carry_the_last_verdict(table):
    """Measured every second frame: a knock seen on a measured frame keeps the next one unread too,
    and is taken as the camera's on its third measured frame."""
    config = ViewShiftConfig(measure_every_frames=2)
    assert _verdicts(table, [(0, 0)] + [(6, 4)] * 6, config) == [
        STILL,
        MOVING,
        MOVING,
        MOVING,
        MOVING,
        MOVED,
        STILL,
    ]


def test_a_shift_found_not_to_be_the_cameras_is_not_looked_at_again_for_a_while(table):
    image, view = table
    config = ViewShiftConfig(measure_every_frames=1, recheck_gap_frames=5)
    shift = ViewShift(config)
    shift.check(0, image, view)
    knocked = _moved(image, 6, 4)
    assert [shift.check(i, knocked, view)[0] for i in (1, 2, 3)] == [MOVING, MOVING, MOVED]
    shift.unmoved(3)
    assert [shift.check(i, knocked, view)[0] for i in range(4, 8)] == [STILL] * 4
    assert shift.check(8, knocked, view)[0] is MOVING


def test_a_view_found_again_is_measured_from_its_own_first_frame(table):
    image, view = table
    knocked = _moved(image, 6, 4)
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, image, view)
    shift.start(view, knocked)  # the table found again on the knocked picture
    assert [shift.check(i, knocked, view)[0] for i in (1, 2, 3)] == [STILL] * 3
    other = load_calibration(SAMPLES / "demo_clip.calibration.json")  # another view object
    assert shift.check(4, image, other) == (STILL, None)


def test_measured_ahead_on_the_readers_thread_as_in_the_loop(table):
    image, view = table
    thumbnails = FrameThumbnails(8)
    thumbnails.use_table(table_thumbnail_box(view, image.shape[:2], MotionGateConfig()), 4)
    ahead, here = ViewShift(EVERY_FRAME, thumbnails=thumbnails), ViewShift(EVERY_FRAME)
    ahead.check(0, image, view)
    here.check(0, image, view)
    knocked = _moved(image, -3, 2)
    thumbnails.prepare(knocked)
    ahead.prepare(1, knocked)
    assert ahead.check(1, knocked, view) == here.check(1, knocked, view)


def test_a_view_without_a_playing_area_is_not_measured():
    shift = ViewShift()
    picture = np.zeros((48, 64, 3), np.uint8)
    assert [shift.check(i, picture, object())[0] for i in range(3)] == [STILL] * 3


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=8, max_value=400))
def test_measuring_sides_are_even_ffts_own_and_read_identical_pictures_as_unmoved(limit):
    side = _even_dft_size(limit)
    assert side % 2 == 0 and side <= limit and cv2.getOptimalDFTSize(side) == side
    picture = np.random.default_rng(limit).random((side, side)).astype(np.float32)
    (dx, dy), _ = cv2.phaseCorrelate(picture, picture.copy())
    assert abs(dx) < 1e-6 and abs(dy) < 1e-6  # an odd padded size reads half a pixel off


@pytest.mark.parametrize(
    "bad",
    [
        {"max_shift_px": 0.0},
        {"steady_px": -1.0},
        {"coarse_suspect_px": 0.0},
        {"refit_min_move_px": 0.0},
        {"min_response": 0.0},
        {"min_response": 1.5},
        {"confirm_frames": 0},
        {"measure_every_frames": 0},
        {"recheck_gap_frames": -1},
        {"follow_width_px": 4},
        {"follow_margin_px": -1},
        {"follow_min_correlation": 0.0},
        {"follow_tolerance": 0.0},
        {"follow_iterations": 0},
        {"follow_tries": 0},
        {"check_width_px": 4},
        {"check_iterations": 0},
        {"follow_blur_px": 4},
        {"check_outlier_levels": 0.0},
    ],
)
def test_a_config_that_cannot_be_is_refused(bad):
    with pytest.raises(ValueError):
        ViewShiftConfig(**bad)


def test_a_shift_that_is_no_measurement_is_aligned_only_when_a_later_frame_takes_its_verdict(
    table, monkeypatch
):
    """A cut or a player filling the box (a peak below ``min_response``) is never a move, so its
    halves disagreeing are not worth aligning the picture whole for; a later frame whose shift
    stays within ``steady_px`` of it still takes the verdict of aligning that frame, from its
    shift, as when every such frame was aligned at once."""
    image, view = table
    shift = ViewShift(EVERY_FRAME)
    shift.check(0, image, view)
    reference = shift._reference
    now: list[tuple[float, float, float]] = []

    def correlate(small, scale):  # the halves disagree, 6 px apart
        dx, dy, response = now[-1]
        side = [i for i, half in enumerate(reference.halves) if half is scale]
        return Shift(dx + (3.0 if side == [0] else -3.0 if side else 0.0), dy, response)

    aligned = []

    def align(self, picture, against, start, iterations):  # the picture moved whole as it says
        aligned.append((picture, start.dx_px, start.dy_px))
        return PictureMotion(np.array([[1.0, 0.0, start.dx_px], [0.0, 1.0, start.dy_px]]), 0.9)

    monkeypatch.setattr(viewshift, "_correlate", correlate)
    monkeypatch.setattr(ViewShift, "_align", align)
    frames = [image.copy() for _ in range(3)]
    now.append((8.0, 0.0, 0.1))  # no measurement
    verdict, measured = shift.check(1, frames[0], view)
    assert verdict is STILL and not measured.uniform and aligned == []
    now.append((8.5, 0.5, 0.1))  # no measurement again, within steady_px: nothing aligned
    assert shift.check(2, frames[1], view)[0] is STILL and aligned == []
    now.append((8.5, 0.5, 0.6))  # measured, within steady_px of frame 1: its verdict, aligned now
    verdict, measured = shift.check(3, frames[2], view)
    assert len(aligned) == 1 and aligned[0][0] is frames[0] and aligned[0][1:] == (8.0, 0.0)
    assert verdict is MOVING and measured.uniform
    now.append((8.0, 0.5, 0.6))  # the verdict stands, aligned once
    assert shift.check(4, frames[2], view)[0] is MOVING and len(aligned) == 1
