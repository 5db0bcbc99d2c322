"""find_table on the real broadcast stills (skipped where the shared footage is absent)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from snooker.calibration import find_table

pytestmark = pytest.mark.footage


@pytest.mark.parametrize("still", [1, 12, 30])
def test_finds_table_with_baulk_at_the_far_end(bucharest, still):
    image = cv2.imread(str(bucharest / "Task1" / f"{still}.jpg"))
    view = find_table(image)
    corners = view.corners_px
    # Broadcast camera behind the top cushion: baulk corners are the far (upper) pair in the image.
    assert corners[:2, 1].max() < corners[2:, 1].min()
    # Seen from behind the top cushion, baulk-left is on the image's right.
    assert corners[0, 0] > corners[1, 0]
    assert set(view.pockets_px) == {
        "baulk_left",
        "baulk_right",
        "middle_left",
        "middle_right",
        "top_left",
        "top_right",
    }
    assert np.isfinite(view.homography).all()
