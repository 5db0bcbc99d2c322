"""The detector factory: classic by name without torch; unknown names refused clearly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from snooker.vision.classic import ClassicDetector
from snooker.vision.detector import BallDetector, UnknownDetectorError, make_detector


def test_classic_by_name() -> None:
    detector = make_detector("classic")
    assert isinstance(detector, ClassicDetector)
    assert isinstance(detector, BallDetector)


def test_unknown_name_is_refused() -> None:
    with pytest.raises(UnknownDetectorError, match="classic"):
        make_detector("hough")


def test_classic_does_not_load_torch() -> None:
    code = (
        "import sys; from snooker.vision.detector import make_detector; "
        "make_detector('classic'); print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
