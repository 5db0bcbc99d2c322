"""Set-ups several test files share, each made once per test process."""

from __future__ import annotations

from pathlib import Path

import pytest

from snooker.cli import main

DEMO_CLIP = Path(__file__).resolve().parents[1] / "samples" / "demo_clip.mp4"
"""The shipped synthetic clip (``scripts/make_demo_clip.py``, ``make demo``)."""


@pytest.fixture(scope="session")
def demo_clip_analysed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder ``snooker-referee analyze samples/demo_clip.mp4 --referee`` writes, made once:
    its ``analysis.json`` and ``frame_log.jsonl``, for tests that only read them."""
    out = tmp_path_factory.mktemp("demo_clip_analysed")
    assert main(["analyze", str(DEMO_CLIP), "--out", str(out), "--referee"]) == 0
    return out
