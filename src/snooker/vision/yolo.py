"""The YOLO ball detector: a small ultralytics network trained here, run fully offline.

The network (yolo11n built from its yaml, 8 classes = ``BALL_NAMES``) was trained by
``scripts/train_yolo.py`` on synthetic renders and on training-clip frames labelled by the
classical detector; its weights ship in ``snooker/vision/weights/``. A frame is cropped to the
table and scaled to a fixed ball size (``yolo_input``); the raw network output (a box and eight
class scores per anchor) is decoded here rather than through ultralytics' post-processing so that
every detection keeps all its class scores. The game's constraints (one white, at most one of
each colour, at most 15 reds) are then applied jointly by an assignment of detections to ball
slots that maximises the summed log class score, so a second "pink" with a good red score becomes
the red it probably is instead of being dropped.

Weights ending in ``.onnx`` run through onnxruntime (no torch at run time); ``.pt`` through torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from snooker.balls import BALL_NAMES, FULL_RACK_REDS, RED
from snooker.vision.types import BallDetections
from snooker.vision.yolo_input import InputConfig, NetworkInput, prepare_input
from snooker.vision.yolo_offline import OfflineConfig, import_ultralytics

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
DEFAULT_WEIGHTS = WEIGHTS_DIR / "balls_yolo11n.pt"
"""The shipped network (trained by scripts/train_yolo.py; its arguments sit next to it as JSON)."""


@dataclass(frozen=True)
class YoloConfig:
    """Everything the YOLO detector decides with.

    - ``weights``: the network file (``.pt`` for torch, ``.onnx`` for onnxruntime).
    - ``input``: how a frame is cropped and scaled for the network.
    - ``candidate_score``: anchors whose best class score (0–1) is below this are ignored.
    - ``nms_iou``: boxes overlapping more than this IoU are one ball (class-agnostic).
    - ``min_class_score``: a detection is kept only if the name it is given scores at least this
      (0–1); below it, leaving the ball out is cheaper in the assignment.
    - ``max_reds``: reds at most on the table (count).
    - ``off_table_margin_mm``: centres farther than this outside the playing area are dropped.
    - ``offline``: how ultralytics / torch are set up (threads, config folder).
    """

    weights: Path = DEFAULT_WEIGHTS
    input: InputConfig = field(default_factory=InputConfig)
    candidate_score: float = 0.05
    nms_iou: float = 0.45
    min_class_score: float = 0.25
    max_reds: int = FULL_RACK_REDS
    off_table_margin_mm: float = 30.0
    offline: OfflineConfig = field(default_factory=OfflineConfig)

    def __post_init__(self) -> None:
        for name in ("candidate_score", "nms_iou", "min_class_score"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must lie in (0, 1), got {value}")
        if self.max_reds < 0:
            raise ValueError(f"max_reds must be >= 0, got {self.max_reds}")


@dataclass(frozen=True)
class RawDetections:
    """Network output after NMS, in network px: ``boxes`` (n, 4) x0, y0, x1, y1; ``scores`` (n, 8)."""

    boxes: np.ndarray
    scores: np.ndarray


def assign_ball_names(
    scores: np.ndarray, max_reds: int, min_class_score: float
) -> tuple[np.ndarray, np.ndarray]:
    """Name detections jointly under the game's constraints.

    ``scores`` (n, len(BALL_NAMES)) are class scores in [0, 1]. Slots: one per non-red ball and
    ``max_reds`` reds; assigning detection i to a slot of name c costs -log(score[i, c]), leaving it
    out costs -log(min_class_score). Returns ``names`` (n,) object ("" = left out) and ``keep`` (n,).
    """
    n = len(scores)
    names = np.full(n, "", dtype=object)
    keep = np.zeros(n, dtype=bool)
    if n == 0:
        return names, keep
    slots = [name for name in BALL_NAMES if name != RED] + [RED] * max_reds
    slot_class = np.array([BALL_NAMES.index(name) for name in slots], dtype=int)
    costs = -np.log(np.clip(scores, 1e-9, 1.0))
    reject = np.full((n, n), -np.log(min_class_score))
    matrix = np.concatenate([costs[:, slot_class], reject], axis=1)
    rows, cols = linear_sum_assignment(matrix)
    for row, col in zip(rows, cols, strict=True):
        if col < len(slots):
            names[row] = slots[col]
            keep[row] = True
    return names, keep


def decode_output(output: np.ndarray, config: YoloConfig) -> RawDetections:
    """Raw yolo11 output (1, 4 + classes, anchors): centre-size boxes and sigmoid class scores."""
    prediction = np.asarray(output, dtype=np.float32)[0].T
    boxes_cxcywh, scores = prediction[:, :4], prediction[:, 4:]
    best = scores.max(axis=1)
    candidate = best >= config.candidate_score
    boxes_cxcywh, scores, best = boxes_cxcywh[candidate], scores[candidate], best[candidate]
    if len(best) == 0:
        return RawDetections(np.zeros((0, 4)), np.zeros((0, len(BALL_NAMES))))
    top_left = boxes_cxcywh[:, :2] - boxes_cxcywh[:, 2:] / 2
    rects = np.column_stack([top_left, boxes_cxcywh[:, 2:]]).tolist()
    kept = np.asarray(cv2.dnn.NMSBoxes(rects, best.tolist(), config.candidate_score, config.nms_iou)).reshape(
        -1
    )
    boxes = np.column_stack([top_left, top_left + boxes_cxcywh[:, 2:]])[kept]
    return RawDetections(boxes.astype(float), scores[kept].astype(float))


class _TorchNetwork:
    """A .pt checkpoint run through torch, returning the raw (1, 4 + classes, anchors) output."""

    def __init__(self, weights: Path, offline: OfflineConfig) -> None:
        import_ultralytics(offline)
        import torch
        from ultralytics.nn.tasks import load_checkpoint

        self._torch = torch
        model, _ = load_checkpoint(str(weights), device="cpu", fuse=True)
        self._model = model.float().eval()
        self.class_names = tuple(model.names[i] for i in range(len(model.names)))

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        with self._torch.inference_mode():
            output = self._model(self._torch.from_numpy(blob))
        output = output[0] if isinstance(output, (list, tuple)) else output
        return output.numpy()


class _OnnxNetwork:
    """An .onnx export run through onnxruntime (no torch needed)."""

    def __init__(self, weights: Path, offline: OfflineConfig) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = offline.threads
        self._session = onnxruntime.InferenceSession(
            str(weights), options, providers=["CPUExecutionProvider"]
        )
        self._input_name = self._session.get_inputs()[0].name
        meta = self._session.get_modelmeta().custom_metadata_map
        names = _parse_names(meta.get("names", ""))
        self.class_names = names or BALL_NAMES

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        return self._session.run(None, {self._input_name: blob})[0]


def _parse_names(text: str) -> tuple[str, ...]:
    """Class names from ultralytics' ONNX metadata (``{0: 'white', 1: 'red', ...}``)."""
    import ast

    if not text:
        return ()
    mapping = ast.literal_eval(text)
    return tuple(mapping[i] for i in sorted(mapping))


class YoloDetector:
    """Finds and names the balls in a frame with the trained YOLO network (see module docstring)."""

    depends_only_on_image = True
    """The detections are a function of the image and the view alone (so an unchanged picture may
    reuse them: see ``snooker.vision.gating``)."""

    def __init__(self, weights: Path | str | None = None, config: YoloConfig | None = None) -> None:
        config = config or YoloConfig()
        path = Path(weights) if weights is not None else Path(config.weights)
        if not path.is_file():
            raise FileNotFoundError(f"YOLO weights not found: {path}")
        self.config = config
        self.weights = path
        backend = _OnnxNetwork if path.suffix == ".onnx" else _TorchNetwork
        self._network = backend(path, config.offline)
        if tuple(self._network.class_names) != BALL_NAMES:
            raise ValueError(f"{path} has classes {self._network.class_names}, expected {BALL_NAMES}")

    def __call__(self, frame_bgr: np.ndarray, view: object | None) -> BallDetections:
        return self.detect(frame_bgr, view)

    def raw(self, frame_bgr: np.ndarray, view: object | None) -> tuple[RawDetections, NetworkInput]:
        """Network detections after NMS (network px, all class scores) and the input they refer to."""
        prepared = prepare_input(frame_bgr, view, self.config.input)
        rgb = cv2.cvtColor(prepared.image, cv2.COLOR_BGR2RGB)
        blob = np.ascontiguousarray(rgb.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        return decode_output(self._network(blob), self.config), prepared

    def detect(self, frame_bgr: np.ndarray, view: object | None) -> BallDetections:
        """Balls in ``frame_bgr`` ((H, W, 3) uint8 BGR); ``view`` (a TableView) gives crop, scale and mm."""
        raw, prepared = self.raw(frame_bgr, view)
        centres = prepared.to_source((raw.boxes[:, :2] + raw.boxes[:, 2:]) / 2)
        radii = (raw.boxes[:, 2:] - raw.boxes[:, :2]).mean(axis=1) / 2 / prepared.scale
        xy_mm = np.full((len(centres), 2), np.nan)
        on_table = np.ones(len(centres), dtype=bool)
        if view is not None and len(centres):
            xy_mm = view.image_to_table(centres)
            on_table = view.table.on_playing_area(xy_mm, margin_mm=self.config.off_table_margin_mm)
        scores = raw.scores[on_table]
        names, keep = assign_ball_names(scores, self.config.max_reds, self.config.min_class_score)
        confidence = np.array([scores[i, BALL_NAMES.index(names[i])] for i in np.nonzero(keep)[0]])
        return BallDetections(
            xy_px=centres[on_table][keep],
            radius_px=radii[on_table][keep],
            ball=names[keep],
            confidence=np.clip(confidence, 0.0, 1.0),
            xy_mm=xy_mm[on_table][keep],
        )
