"""The calibration and detector loading shared by ``analyze`` and ``live``."""

from __future__ import annotations

import pytest

from snooker.app.inputs import InputError, load_view_and_detector


def test_without_a_calibration_the_table_is_left_to_be_found():
    view, detector = load_view_and_detector(None, "classic")
    assert view is None and callable(detector)


@pytest.mark.parametrize("content", [None, "{not json", '{"version": 999}'])
def test_an_unusable_calibration_file_is_an_error_naming_it(tmp_path, content):
    path = tmp_path / "table.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match=r"table\.json"):
        load_view_and_detector(path, "classic")
