"""Where the shared, read-only footage lies: ``$SNOOKER_SHARED_DATA`` if set, else ``shared/data``
beside the checkout (the repository's parent folder). Footage is read from there, never copied in."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA_ENV = "SNOOKER_SHARED_DATA"


def shared_data_root() -> Path:
    """The shared data folder (it may be absent: callers skip or say so)."""
    configured = os.environ.get(SHARED_DATA_ENV)
    if configured:
        return Path(configured)
    return (Path(__file__).resolve().parents[3] / ".." / "shared" / "data").resolve()


def bucharest_training(task: str | None = None) -> Path:
    """The Bucharest 2020 training split, or one of its task folders (``"Task1"`` … ``"Task4"``)."""
    base = shared_data_root() / "bucharest-2020" / "training"
    return base / task if task else base
