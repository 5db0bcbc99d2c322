"""docs/FRAME_LOG.md lists every foul reason code (generated table) and every extra line type."""

from __future__ import annotations

from pathlib import Path

import pytest

from snooker.referee import FoulReason
from snooker.referee.log import EVENT_TYPES
from snooker.referee.reasons import foul_reasons_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "FRAME_LOG.md"


def test_the_doc_holds_the_generated_table_of_foul_reasons():
    assert foul_reasons_markdown() in DOC.read_text()


@pytest.mark.parametrize("reason", list(FoulReason), ids=[r.code for r in FoulReason])
def test_every_foul_reason_code_is_documented_with_its_text(reason):
    text = DOC.read_text()
    assert f"`{reason.code}`" in text
    assert reason.text in text


@pytest.mark.parametrize("line_type", sorted(EVENT_TYPES.values()))
def test_every_line_type_is_documented(line_type):
    assert f"| `{line_type}` |" in DOC.read_text()
