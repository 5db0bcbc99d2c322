"""Training the ball network with ultralytics, offline and reproducibly.

The network is built from ultralytics' own yaml (no pretrained download), with 8 classes named as
``BALL_NAMES``. Every hyper-parameter lives in :class:`TrainConfig`; ``scripts/train_yolo.py``
records it, with the data set's provenance, next to the shipped weights.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from snooker.vision.yolo_offline import OfflineConfig, import_ultralytics


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of one training run (ultralytics argument names where they exist).

    Geometry: ``imgsz`` is the tile side (px) the data set was cut at; no scale change beyond
    ``scale`` (± fraction) is wanted, since inputs are normalised to a fixed ball size. Colour is
    the class, so hue and saturation jitter stay small (a desaturated yellow looks like the white:
    a first run with ``hsv_s`` 0.4 confused the two); lights are above the table, so no vertical
    flip.
    """

    model_yaml: str = "yolo11n.yaml"
    epochs: int = 30
    time: float = 0.0
    """Wall-clock hours to train for; when positive ultralytics fits the epochs to it."""
    imgsz: int = 256
    batch: int = 16
    optimizer: str = "AdamW"
    lr0: float = 0.002
    warmup_epochs: float = 1.0
    close_mosaic: int = 5
    patience: int = 100
    seed: int = 0
    workers: int = 2
    cache: str = "ram"
    hsv_h: float = 0.005
    hsv_s: float = 0.15
    hsv_v: float = 0.25
    degrees: float = 0.0
    translate: float = 0.1
    scale: float = 0.2
    fliplr: float = 0.5
    flipud: float = 0.0
    mosaic: float = 1.0
    mixup: float = 0.0
    offline: OfflineConfig = field(default_factory=lambda: OfflineConfig(verbose=True))

    def ultralytics_arguments(self) -> dict:
        """The keyword arguments for ``YOLO.train`` (everything but the model and offline set-up)."""
        args = asdict(self)
        args.pop("model_yaml")
        args.pop("offline")
        if not args["time"]:
            args.pop("time")
        return args


def train(
    data_yaml: Path, config: TrainConfig, project: Path, name: str, init_weights: Path | None = None
) -> Path:
    """Train on ``data_yaml`` from scratch (the yaml), or on from ``init_weights`` (a checkpoint
    made by an earlier run of this function); return the path of the best checkpoint."""
    import_ultralytics(config.offline)
    from ultralytics import YOLO

    model = YOLO(str(init_weights) if init_weights else config.model_yaml)
    model.train(
        data=str(data_yaml),
        project=str(project.resolve()),
        name=name,
        exist_ok=True,
        device="cpu",
        plots=False,
        deterministic=True,
        verbose=True,
        amp=False,
        **config.ultralytics_arguments(),
    )
    best = project.resolve() / name / "weights" / "best.pt"
    if not best.is_file():
        raise FileNotFoundError(f"training finished without {best}")
    return best


def ship(checkpoint: Path, destination: Path, record: dict) -> Path:
    """Copy a checkpoint to ``destination`` (optimizer state already stripped by ultralytics) and
    write ``record`` (arguments, data provenance, metrics) beside it as JSON."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(checkpoint, destination)
    destination.with_suffix(".json").write_text(json.dumps(record, indent=2, default=str) + "\n")
    return destination


def export_onnx(checkpoint: Path, offline: OfflineConfig, example_size: tuple[int, int]) -> Path:
    """Export ``checkpoint`` to ``.onnx`` beside it: raw output (1, 4 + classes, anchors), input
    height and width dynamic, class names in the metadata. Needs the ``onnx`` package.

    Exported with torch's exporter directly (not ultralytics' ``export``) so the graph keeps the
    raw output that ``YoloDetector`` decodes, identical to the torch path.
    """
    import_ultralytics(offline)
    import onnx
    import torch
    from ultralytics.nn.tasks import load_checkpoint

    model, _ = load_checkpoint(str(checkpoint), device="cpu", fuse=True)
    model = model.float().eval()
    destination = checkpoint.with_suffix(".onnx")
    height, width = example_size
    torch.onnx.export(
        model,
        torch.zeros(1, 3, height, width),
        str(destination),
        dynamo=False,
        opset_version=17,
        input_names=["images"],
        output_names=["output0"],
        dynamic_axes={"images": {2: "height", 3: "width"}, "output0": {2: "anchors"}},
    )
    graph = onnx.load(str(destination))
    entry = graph.metadata_props.add()
    entry.key, entry.value = "names", str(dict(model.names))
    onnx.save(graph, str(destination))
    return destination
