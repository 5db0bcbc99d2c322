"""TableView's versioned JSON and the calibration file helpers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from snooker.calibration import CalibrationError, TableView, load_calibration, save_calibration
from snooker.calibration.synthetic import broadcast_camera
from snooker.calibration.view import SCHEMA


@pytest.fixture(scope="module")
def view() -> TableView:
    return TableView(camera=broadcast_camera(), source="synthetic")


def test_json_round_trip_keeps_the_mapping(view):
    again = TableView.from_json(view.to_json())
    grid = np.array([[0.0, 0.0], [889.0, 1784.5], [1778.0, 3569.0]])
    assert np.allclose(again.table_to_image(grid), view.table_to_image(grid))
    assert np.allclose(again.homography, view.homography)
    assert again.source == "synthetic"


def test_json_carries_the_contract_fields(view):
    doc = json.loads(view.to_json())
    assert doc["schema"] == SCHEMA
    assert len(doc["corners_px"]) == 4
    assert set(doc["pockets_px"]) == {
        "baulk_left",
        "baulk_right",
        "middle_left",
        "middle_right",
        "top_left",
        "top_right",
    }


def test_save_and_load_round_trip(view, tmp_path):
    path = save_calibration(view, tmp_path / "sub" / "table.json")
    loaded = load_calibration(path)
    assert np.allclose(loaded.corners_px, view.corners_px)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"schema": "snooker.calibration/0"}', "schema"),
        (json.dumps({"schema": SCHEMA}), "incomplete"),
        (json.dumps({"schema": SCHEMA, "camera": {"matrix": [[1, 0], [0, 1]]}}), "incomplete"),
    ],
    ids=["garbage", "not_object", "old_schema", "no_camera", "bad_matrix"],
)
def test_corrupt_files_raise_calibration_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        load_calibration(path)


def test_missing_file_names_the_file(tmp_path):
    with pytest.raises(CalibrationError, match="does not exist"):
        load_calibration(tmp_path / "nowhere.json")
