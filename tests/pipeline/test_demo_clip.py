"""The shipped demo clip (`make demo`) analysed end to end agrees with its own truth file: the same
strokes, first contacts and pots (a phantom stroke here is what a user sees first)."""

from __future__ import annotations

import json
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_the_demo_clip_gives_the_strokes_of_its_truth(demo_clip_analysed):
    """``demo_clip_analysed``: ``analyze samples/demo_clip.mp4 --referee`` (tests/conftest.py)."""
    truth = json.loads((SAMPLES / "demo_clip.json").read_text())
    strokes = json.loads((demo_clip_analysed / "analysis.json").read_text())["strokes"]
    expected = [stroke["log"] for stroke in truth["strokes"]]
    assert [s["first_contact"] for s in strokes] == [e["first_contact"] for e in expected]
    assert [[(p["ball"], p["pocket"]) for p in s["potted"]] for s in strokes] == [
        [(p["ball"], p["pocket"]) for p in e["potted"]] for e in expected
    ]
