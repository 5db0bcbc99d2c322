"""find_table and shows_table on the real broadcast footage (skipped where it is absent)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.calibration import TableNotFound, find_table, shows_table

pytestmark = pytest.mark.footage

VALID_STILLS = [n for n in range(1, 51) if n != 42]  # 42.jpg is a broken 87x76 stub
CLIPS = list(range(1, 26))
CROWD_ENDINGS = [1, 3, 5, 8]
"""Task2 clips whose last frame is a crowd or player close-up, not the table."""
SIDE_VIEWS = [(1, 0), (2, 0), (12, 0)]
"""Task4 (clip, frame) showing the table from a low side angle: not a full-table view."""


def _frame(path: Path, index: int | None = None) -> np.ndarray:
    capture = cv2.VideoCapture(str(path))
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    target = {"first": 0, "middle": count // 2, "last": count - 1}[index] if isinstance(index, str) else index
    capture.set(cv2.CAP_PROP_POS_FRAMES, target or 0)
    ok, frame = capture.read()
    capture.release()
    assert ok, f"cannot read frame {target} of {path}"
    return frame


def _six_pockets_inside(view, shape) -> bool:
    pockets = np.array(list(view.pockets_px.values()))
    return len(pockets) == 6 and bool(np.all((pockets >= 0) & (pockets < [shape[1], shape[0]])))


def test_every_valid_still_shows_a_table_and_six_pockets(still_views):
    assert sorted(still_views) == VALID_STILLS
    missing = []
    for still, (image, view) in still_views.items():
        if isinstance(view, TableNotFound):
            missing.append(f"{still}: {view}")
            continue
        if not (_six_pockets_inside(view, image.shape) and shows_table(image, view)):
            missing.append(f"{still}: pockets outside the frame or view not confirmed")
    assert not missing, missing


@pytest.mark.parametrize("still", [1, 12, 30])
def test_broadcast_camera_has_baulk_at_the_far_end(still_views, still):
    view = still_views[still][1]
    corners = view.corners_px
    assert corners[:2, 1].max() < corners[2:, 1].min()  # baulk corners are the upper pair
    assert corners[0, 0] > corners[1, 0]  # seen from behind the top cushion, baulk-left is on the right


def test_every_clip_shows_the_table_at_its_start_and_middle(bucharest):
    missing = []
    for clip in CLIPS:
        path = bucharest / "Task2" / f"{clip}.mp4"
        for where in ("first", "middle"):
            frame = _frame(path, where)
            try:
                view = find_table(frame)
            except TableNotFound as exc:
                missing.append(f"clip {clip} {where}: {exc}")
                continue
            if not _six_pockets_inside(view, frame.shape):
                missing.append(f"clip {clip} {where}: pockets outside the frame")
    assert not missing, missing


@pytest.mark.parametrize("clip", CROWD_ENDINGS)
def test_cut_to_the_crowd_is_not_the_table(bucharest, clip):
    path = bucharest / "Task2" / f"{clip}.mp4"
    view = find_table(_frame(path, "first"))
    last = _frame(path, "last")
    assert not shows_table(last, view)
    with pytest.raises(TableNotFound):
        find_table(last)


@pytest.mark.parametrize(("clip", "index"), SIDE_VIEWS)
def test_low_side_views_are_not_full_table_views(bucharest, clip, index):
    frame = _frame(bucharest / "Task4" / f"{clip}.mp4", index)
    with pytest.raises(TableNotFound):
        find_table(frame)


@pytest.mark.parametrize("still", [1, 12, 30, 44])
def test_zooms_flips_and_moves_are_not_the_calibrated_view(still_views, still):
    image, view = still_views[still]
    h, w = image.shape[:2]
    not_the_view = {
        "zoom_centre": cv2.resize(image[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4], (w, h)),
        "zoom_corner": cv2.resize(image[: h // 2, : w // 2], (w, h)),
        "zoom_near_end": cv2.resize(image[h // 3 :, w // 3 :], (w, h)),
        "flipped_blurred": cv2.GaussianBlur(cv2.flip(image, 0), (31, 31), 0),
        "camera_moved": np.roll(image, 40, axis=1),
        "noise": np.random.default_rng(still).integers(0, 256, image.shape, dtype=np.uint8),
    }
    wrongly_accepted = [name for name, frame in not_the_view.items() if shows_table(frame, view)]
    assert not wrongly_accepted
    assert shows_table(np.roll(image, 3, axis=1), view), "a 3 px camera shake is still the same view"
