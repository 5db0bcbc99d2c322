"""Run ultralytics fully offline: environment, config folder and font, set before it is imported.

Ultralytics probes the network when it is imported (unless ``YOLO_OFFLINE=1``), tries to pip-install
missing packages (unless ``YOLO_AUTOINSTALL=0``) and downloads ``Arial.ttf`` for its plots on every
training run unless the font already sits in its config folder. :func:`import_ultralytics` sets all
of that up, then imports it; nothing here runs at import time.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

FONT_NAME = "Arial.ttf"
"""The font file ultralytics looks for before downloading one."""


def _default_config_dir() -> Path:
    """The repository's git-ignored ``.yolo/`` when running from a checkout, else a temp folder."""
    repo_root = Path(__file__).resolve().parents[3]
    if (repo_root / "pyproject.toml").is_file() and os.access(repo_root, os.W_OK):
        return repo_root / ".yolo"
    return Path(tempfile.gettempdir()) / f"snooker-yolo-{os.getuid()}"


@dataclass(frozen=True)
class OfflineConfig:
    """How ultralytics is set up to run without the network.

    - ``config_dir``: writable folder used as ``YOLO_CONFIG_DIR`` (settings, font); ``None`` picks
      the repository's ``.yolo/`` or a per-user temp folder.
    - ``threads``: torch / OpenMP threads for training and inference (count).
    - ``verbose``: let ultralytics log (training progress); quiet for inference.
    """

    config_dir: Path | None = None
    threads: int = 2
    verbose: bool = False

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, got {self.threads}")

    def resolved_config_dir(self) -> Path:
        return Path(self.config_dir) if self.config_dir is not None else _default_config_dir()


def _find_font() -> Path:
    """A TrueType font shipped with matplotlib (DejaVuSans), used as ultralytics' Arial.ttf."""
    import matplotlib

    font = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
    if not font.is_file():
        raise FileNotFoundError(f"matplotlib's DejaVuSans.ttf not found at {font}")
    return font


def prepare_offline_environment(config: OfflineConfig | None = None) -> Path:
    """Set the environment so ultralytics makes no network call; return its config folder.

    Must run before the first ``import ultralytics`` in the process (the import reads the
    environment). Safe to call more than once.
    """
    config = config or OfflineConfig()
    config_dir = config.resolved_config_dir()
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    font_path = font_dir / FONT_NAME
    if not font_path.is_file():
        shutil.copyfile(_find_font(), font_path)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_VERBOSE"] = str(config.verbose)
    os.environ["OMP_NUM_THREADS"] = str(config.threads)
    # Idle OpenMP threads sleep instead of spinning: on shared, oversubscribed cores spinning
    # threads made a training step about five times slower (measured, load ~7 on 2 cores).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return config_dir


def import_ultralytics(config: OfflineConfig | None = None) -> ModuleType:
    """Prepare the offline environment, import ultralytics and fix its thread count.

    Raises RuntimeError when ultralytics was already imported without the offline environment
    (it would already have probed the network and chosen its settings folder).
    """
    config = config or OfflineConfig()
    already_imported = "ultralytics" in sys.modules
    if already_imported and os.environ.get("YOLO_OFFLINE") != "1":
        raise RuntimeError(
            "ultralytics was imported before the offline environment was set; "
            "call snooker.vision.yolo_offline.import_ultralytics() before any other import of it"
        )
    prepare_offline_environment(config)
    import torch
    import ultralytics
    from ultralytics.utils import SETTINGS, torch_utils

    torch.set_num_threads(config.threads)
    torch_utils.NUM_THREADS = config.threads
    if SETTINGS.get("sync", False):
        SETTINGS.update({"sync": False})
    return ultralytics
