"""YOLO data-set export: label lines, tiles, data.yaml, the leak check."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.balls import BALL_NAMES
from snooker.datasets.yolo_export import (
    CLASS_NAMES,
    LeakCheckConfig,
    TileConfig,
    clips_showing_stills,
    cut_tiles,
    label_lines,
    read_label_file,
    write_data_yaml,
    write_tiles,
)
from snooker.vision.yolo_input import NetworkInput


def test_classes_are_the_ball_names() -> None:
    assert CLASS_NAMES == BALL_NAMES


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 7), st.floats(0, 200), st.floats(0, 100), st.floats(1, 50), st.floats(1, 50)
        ),
        max_size=10,
    )
)
def test_label_lines_round_trip(tmp_path_factory: pytest.TempPathFactory, rows: list[tuple]) -> None:
    boxes = np.array([[c, x, y, x + w, y + h] for c, x, y, w, h in rows]).reshape(-1, 5)
    path = tmp_path_factory.mktemp("labels") / "a.txt"
    path.write_text("".join(line + "\n" for line in label_lines(boxes, (320, 240))))
    back = read_label_file(path, (320, 240))
    np.testing.assert_allclose(back, boxes, atol=1e-3)


def _prepared(width: int, height: int) -> NetworkInput:
    image = np.full((height, width, 3), 60, dtype=np.uint8)
    return NetworkInput(image=image, offset_px=(0.0, 0.0), scale=1.0, valid_size=(width, height))


def test_tiles_keep_visible_balls_and_grey_out_cut_ones() -> None:
    prepared = _prepared(640, 480)
    # A ball fully inside any tile near the centre, and one at the frame's corner.
    boxes = np.array([[1, 310, 230, 326, 246], [2, 0, 0, 16, 16]], dtype=float)
    config = TileConfig(tile_px=320, tiles_per_frame=20, ball_centred_fraction=1.0, jitter_fraction=0.3)
    tiles = list(cut_tiles("f", prepared, boxes, config, np.random.default_rng(0)))
    assert len(tiles) == 20
    for tile in tiles:
        assert tile.image.shape == (320, 320, 3)
        assert np.all(tile.boxes[:, 1:] >= 0) and np.all(tile.boxes[:, 1:] <= 320)
        widths = tile.boxes[:, 3] - tile.boxes[:, 1]
        assert np.all(widths >= 16 * config.min_visible_fraction - 1e-9)


def test_small_frames_are_padded_to_a_tile() -> None:
    prepared = _prepared(200, 100)
    boxes = np.array([[0, 50, 50, 66, 66]], dtype=float)
    tiles = list(
        cut_tiles("s", prepared, boxes, TileConfig(tile_px=320, tiles_per_frame=2), np.random.default_rng(1))
    )
    assert all(tile.image.shape == (320, 320, 3) for tile in tiles)
    assert all(len(tile.boxes) == 1 for tile in tiles)


def test_written_dataset_is_readable(tmp_path: Path) -> None:
    prepared = _prepared(400, 400)
    boxes = np.array([[3, 100, 100, 116, 116]], dtype=float)
    tiles = cut_tiles(
        "w", prepared, boxes, TileConfig(tile_px=320, tiles_per_frame=3), np.random.default_rng(2)
    )
    assert write_tiles(tmp_path, "train", tiles) == 3
    yaml_text = write_data_yaml(tmp_path).read_text()
    assert f"path: {tmp_path.resolve()}" in yaml_text
    assert "  7: black" in yaml_text
    labels = sorted((tmp_path / "labels" / "train").glob("*.txt"))
    images = sorted((tmp_path / "images" / "train").glob("*.png"))
    assert [p.stem for p in labels] == [p.stem for p in images]
    assert all(cv2.imread(str(p)).shape == (320, 320, 3) for p in images)


def _smooth_scene(seed: int) -> np.ndarray:
    """A picture that survives video compression: a gradient and a few discs."""
    rng = np.random.default_rng(seed)
    image = np.zeros((90, 160, 3), dtype=np.uint8)
    image[:] = np.linspace(40, 200, 160, dtype=np.uint8)[None, :, None]
    for _ in range(5):
        centre = (int(rng.integers(10, 150)), int(rng.integers(10, 80)))
        cv2.circle(image, centre, 8, tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    return image


def test_leak_check_finds_a_clip_containing_a_still(tmp_path: Path) -> None:
    frames = [_smooth_scene(k) for k in range(4)]
    clip = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 90))
    for frame in frames:
        writer.write(frame)
    writer.release()
    unrelated = 255 - _smooth_scene(9)
    config = LeakCheckConfig(frame_step=1)
    assert clips_showing_stills([clip], [frames[2]], config)[clip] < config.max_mean_difference
    assert clips_showing_stills([clip], [unrelated], config)[clip] > config.max_mean_difference
