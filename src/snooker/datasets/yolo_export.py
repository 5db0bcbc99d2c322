"""Export labelled frames as an ultralytics (YOLO format) detection data set.

A labelled frame is an image with its balls (``BallDetections``: centres and radii in image px,
names) and optionally its calibration. It is prepared exactly as the detector prepares frames
(``snooker.vision.yolo_input``: table crop, fixed ball scale), then cut into square tiles so the
network trains at the resolution it runs at without paying for whole frames. Labels are one line
per ball, ``CLASS CX CY W H``, normalised to the tile; classes follow ``BALL_NAMES``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from snooker.balls import BALL_NAMES
from snooker.vision.types import BallDetections
from snooker.vision.yolo_input import InputConfig, NetworkInput, ScaledView, prepare_input

CLASS_NAMES: tuple[str, ...] = BALL_NAMES
"""YOLO class index → ball name."""


@dataclass(frozen=True)
class TileConfig:
    """How prepared frames are cut into training tiles.

    - ``tile_px``: side of a square tile (network px); training runs at this image size.
    - ``tiles_per_frame``: tiles cut from each frame (count).
    - ``ball_centred_fraction``: share of tiles centred near a random ball (the rest uniform).
    - ``min_visible_fraction``: a ball cut by the tile edge is labelled when at least this share
      of its box is inside; balls less visible are greyed out so they teach nothing wrong.
    - ``jitter_fraction``: a ball-centred tile's centre moves by up to this fraction of the tile.
    - ``class_balanced``: a ball-centred tile picks a ball name first (uniformly among the names
      present), then a ball of that name — otherwise reds (up to 15 per frame) swamp the colours.
    """

    tile_px: int = 320
    tiles_per_frame: int = 4
    ball_centred_fraction: float = 0.75
    min_visible_fraction: float = 0.5
    jitter_fraction: float = 0.35
    class_balanced: bool = True


@dataclass(frozen=True)
class LabelledFrame:
    """One frame with its balls: ``image`` (H, W, 3) uint8 BGR, ``balls`` in image px, ``view`` or None."""

    name: str
    image: np.ndarray
    balls: BallDetections
    view: ScaledView | None


@dataclass(frozen=True)
class Tile:
    """A training image and its boxes: ``boxes`` (n, 5) = class, x0, y0, x1, y1 in tile px."""

    name: str
    image: np.ndarray
    boxes: np.ndarray


def network_boxes(balls: BallDetections, prepared: NetworkInput) -> np.ndarray:
    """(n, 5) class, x0, y0, x1, y1 in network px for the balls of one frame."""
    if len(balls) == 0:
        return np.zeros((0, 5))
    centres = prepared.to_network(balls.xy_px)
    radii = balls.radius_px * prepared.scale
    classes = np.array([CLASS_NAMES.index(str(name)) for name in balls.ball], dtype=float)
    return np.column_stack([classes, centres - radii[:, None], centres + radii[:, None]])


def cut_tiles(
    name: str, prepared: NetworkInput, boxes: np.ndarray, config: TileConfig, rng: np.random.Generator
) -> Iterator[Tile]:
    """Square tiles of the prepared frame; boxes clipped to each tile, poorly visible balls greyed."""
    size = config.tile_px
    valid_w, valid_h = prepared.valid_size
    image = prepared.image[:valid_h, :valid_w]
    if valid_w < size or valid_h < size:
        padded = np.full((max(size, valid_h), max(size, valid_w), 3), 114, dtype=np.uint8)
        padded[:valid_h, :valid_w] = image
        image = padded
    height, width = image.shape[:2]
    for k in range(config.tiles_per_frame):
        if len(boxes) and rng.random() < config.ball_centred_fraction:
            ball = boxes[_pick_ball(boxes[:, 0], config.class_balanced, rng)]
            centre = (ball[1:3] + ball[3:5]) / 2 + rng.uniform(-1, 1, 2) * config.jitter_fraction * size
            x0, y0 = (centre - size / 2).round().astype(int)
        else:
            x0, y0 = rng.integers(0, width - size + 1), rng.integers(0, height - size + 1)
        x0, y0 = int(np.clip(x0, 0, width - size)), int(np.clip(y0, 0, height - size))
        tile = image[y0 : y0 + size, x0 : x0 + size].copy()
        yield Tile(f"{name}_t{k}", tile, _clip_boxes(tile, boxes, x0, y0, config))


def _pick_ball(classes: np.ndarray, class_balanced: bool, rng: np.random.Generator) -> int:
    """Index of the ball a tile is centred on: uniform over balls, or over names then balls."""
    if not class_balanced:
        return int(rng.integers(len(classes)))
    name = rng.choice(np.unique(classes))
    return int(rng.choice(np.flatnonzero(classes == name)))


def _clip_boxes(tile: np.ndarray, boxes: np.ndarray, x0: int, y0: int, config: TileConfig) -> np.ndarray:
    """Boxes moved into tile px and clipped; grey out (in ``tile``) balls too little inside."""
    if len(boxes) == 0:
        return np.zeros((0, 5))
    size = tile.shape[0]
    moved = boxes.copy()
    moved[:, [1, 3]] -= x0
    moved[:, [2, 4]] -= y0
    clipped = moved.copy()
    clipped[:, 1:] = np.clip(moved[:, 1:], 0, size)
    area = np.prod(moved[:, 3:5] - moved[:, 1:3], axis=1)
    inside = np.prod(np.maximum(clipped[:, 3:5] - clipped[:, 1:3], 0), axis=1)
    visible = inside / np.maximum(area, 1e-9)
    keep = visible >= config.min_visible_fraction
    for box in clipped[(~keep) & (visible > 0)]:
        x_a, y_a, x_b, y_b = np.round(box[1:]).astype(int)
        cv2.rectangle(tile, (x_a, y_a), (x_b, y_b), (114, 114, 114), thickness=-1)
    return clipped[keep]


def frame_tiles(
    frame: LabelledFrame, input_config: InputConfig, tile_config: TileConfig, rng: np.random.Generator
) -> Iterator[Tile]:
    """Prepare one labelled frame as the detector would, then cut it into tiles."""
    prepared = prepare_input(frame.image, frame.view, input_config)
    yield from cut_tiles(frame.name, prepared, network_boxes(frame.balls, prepared), tile_config, rng)


def label_lines(boxes: np.ndarray, size: tuple[int, int]) -> list[str]:
    """YOLO label lines ``CLASS CX CY W H`` (normalised) for boxes in an image of (width, height)."""
    width, height = size
    lines = []
    for cls, x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        w, h = (x1 - x0) / width, (y1 - y0) / height
        lines.append(f"{int(cls)} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}")
    return lines


def write_tiles(root: Path, split: str, tiles: Iterable[Tile]) -> int:
    """Write tiles as ``root/images/split/*.png`` and ``root/labels/split/*.txt``; return the count."""
    image_dir, label_dir = root / "images" / split, root / "labels" / split
    image_dir.mkdir(parents=True, exist_ok=True)
    label_dir.mkdir(parents=True, exist_ok=True)
    count = 0
    for tile in tiles:
        height, width = tile.image.shape[:2]
        if not cv2.imwrite(str(image_dir / f"{tile.name}.png"), tile.image):
            raise OSError(f"could not write {image_dir / tile.name}.png")
        lines = label_lines(tile.boxes, (width, height))
        (label_dir / f"{tile.name}.txt").write_text("".join(line + "\n" for line in lines))
        count += 1
    return count


def write_data_yaml(root: Path, splits: dict[str, str] | None = None) -> Path:
    """Write ``root/data.yaml`` with absolute paths (ultralytics' settings pin a datasets folder)."""
    splits = splits or {"train": "images/train", "val": "images/val"}
    root = root.resolve()
    lines = [f"path: {root}"]
    lines += [f"{split}: {root / folder}" for split, folder in splits.items()]
    lines.append("names:")
    lines += [f"  {index}: {name}" for index, name in enumerate(CLASS_NAMES)]
    path = root / "data.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def read_label_file(path: Path, size: tuple[int, int]) -> np.ndarray:
    """Boxes (n, 5) class, x0, y0, x1, y1 px from a YOLO label file of an image of (width, height)."""
    width, height = size
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    if not rows:
        return np.zeros((0, 5))
    data = np.array(rows, dtype=float)
    if data.shape[1] != 5:
        raise ValueError(f"{path}: expected 5 numbers per line, got {data.shape[1]}")
    cx, cy, w, h = data[:, 1] * width, data[:, 2] * height, data[:, 3] * width, data[:, 4] * height
    return np.column_stack([data[:, 0], cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


@dataclass(frozen=True)
class LeakCheckConfig:
    """How training clips that show an evaluation still are found and left out.

    - ``thumbnail_size``: (width, height) px both images are shrunk to before comparing.
    - ``max_mean_difference``: a clip frame whose mean absolute grey-level difference (0–255) to
      a still is below this shows the same scene; its whole clip is left out.
    - ``frame_step``: only every this-many-th clip frame is compared (frames).
    """

    thumbnail_size: tuple[int, int] = (160, 90)
    max_mean_difference: float = 10.0
    frame_step: int = 2


def _thumbnail(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def clips_showing_stills(
    clips: Iterable[Path], stills: Iterable[np.ndarray], config: LeakCheckConfig
) -> dict[Path, float]:
    """For each clip, the smallest mean difference of any of its frames to any still.

    Clips whose value is below ``config.max_mean_difference`` contain (nearly) one of the stills:
    training on them would leak the evaluation set into the training set.
    """
    thumbs = np.stack([_thumbnail(still, config.thumbnail_size) for still in stills])
    result: dict[Path, float] = {}
    for clip in clips:
        capture = cv2.VideoCapture(str(clip))
        if not capture.isOpened():
            raise OSError(f"cannot open video {clip}")
        best, index = np.inf, 0
        try:
            while True:
                ok, frame = capture.read()
                if not ok:
                    break
                if index % config.frame_step == 0:
                    diff = np.abs(thumbs - _thumbnail(frame, config.thumbnail_size)).mean(axis=(1, 2, 3))
                    best = min(best, float(diff.min()))
                index += 1
        finally:
            capture.release()
        result[Path(clip)] = best
    return result


def sample_clip_frames(clip: Path, every_n_frames: int) -> Iterator[tuple[int, np.ndarray]]:
    """(frame index, BGR image) of every ``every_n_frames``-th frame of a video file."""
    capture = cv2.VideoCapture(str(clip))
    if not capture.isOpened():
        raise OSError(f"cannot open video {clip}")
    index = 0
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            if index % every_n_frames == 0:
                yield index, frame
            index += 1
    finally:
        capture.release()


SHORT_NAMES = {
    "white": "W",
    "red": "R",
    "yellow": "Y",
    "green": "G",
    "brown": "Br",
    "blue": "Bl",
    "pink": "P",
    "black": "K",
}
"""Two-letter tags drawn on label overlays."""


def draw_labels(image: np.ndarray, balls: BallDetections) -> np.ndarray:
    """A copy of ``image`` with each ball's circle and name drawn, for checking labels by eye."""
    colours = {
        "white": (255, 255, 255),
        "red": (0, 0, 255),
        "yellow": (0, 255, 255),
        "green": (0, 160, 0),
        "brown": (30, 80, 140),
        "blue": (255, 0, 0),
        "pink": (203, 160, 255),
        "black": (40, 40, 40),
    }
    out = image.copy()
    for (x, y), r, name in zip(balls.xy_px, balls.radius_px, balls.ball, strict=True):
        centre = (round(float(x)), round(float(y)))
        cv2.circle(out, centre, round(float(r)) + 3, colours[str(name)], 1, cv2.LINE_AA)
        cv2.putText(
            out, str(name)[:2], (centre[0] + 8, centre[1] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255)
        )
    return out


@dataclass(frozen=True)
class SynthConfig:
    """Random synthetic scenes for training: layouts, broadcast camera poses, looks, occluders.

    Distances are table mm, colours BGR 0–255, probabilities 0–1. Ranges are (low, high).
    """

    reds_range: tuple[int, int] = (0, 15)
    pack_probability: float = 0.3
    """A scene keeps part of the triangle of reds (the pack) near the pink spot."""
    colour_on_spot_probability: float = 0.5
    colour_missing_probability: float = 0.15
    white_missing_probability: float = 0.05
    cluster_probability: float = 0.35
    """A placed ball is put touching or nearly touching one already placed."""
    occluder_probability: float = 0.5
    score_graphic_probability: float = 0.7
    min_visible_fraction: float = 0.4
    """Balls less visible than this (behind the cue, arm, graphic) are not labelled."""
    back_mm: tuple[float, float] = (4500.0, 7500.0)
    """Camera distance behind the top cushion; with ``height_mm`` this brackets the broadcast
    view (far/near cushion width ratio about 0.67, table 0.74 near-widths tall in the image)."""
    height_mm: tuple[float, float] = (3000.0, 4500.0)
    target_along_mm: tuple[float, float] = (1200.0, 1700.0)
    fill: tuple[float, float] = (0.74, 0.88)
    cloth_jitter_bgr: float = 18.0
    ambient: tuple[float, float] = (0.25, 0.45)
    diffuse: tuple[float, float] = (0.6, 0.9)
    specular: tuple[float, float] = (0.5, 1.0)
    noise_sigma: tuple[float, float] = (1.0, 4.0)
    blur_sigma_px: tuple[float, float] = (0.4, 1.1)
    jpeg_quality: tuple[int, int] = (60, 95)


class CameraView:
    """A synthetic camera seen as the calibration's view (corners, ball radius, mm ↔ px)."""

    def __init__(self, camera: object, table: object) -> None:
        self.camera = camera
        self.table = table

    @property
    def corners_px(self) -> np.ndarray:
        return self.camera.project_table(self.table.corners, z_mm=0.0)

    def image_to_table(self, xy_px: np.ndarray) -> np.ndarray:
        """(n, 2) px → (n, 2) table mm on the ball-centre plane."""
        to_table = np.linalg.inv(self.camera.homography(self.table.ball_radius_mm))
        points = np.asarray(xy_px, dtype=float).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(points, to_table).reshape(-1, 2)

    def ball_radius_px(self, xy_mm: np.ndarray) -> np.ndarray:
        xy = np.atleast_2d(np.asarray(xy_mm, dtype=float))
        centres = np.column_stack([xy, np.full(len(xy), self.table.ball_radius_mm)])
        return self.camera.ball_radius_px(centres, self.table.ball_radius_mm)


def _uniform(rng: np.random.Generator, bounds: tuple[float, float]) -> float:
    return float(rng.uniform(bounds[0], bounds[1]))


def random_layout(
    rng: np.random.Generator, config: SynthConfig, table: object
) -> dict[str, tuple[float, float]]:
    """Ball id → (x, y) mm: non-overlapping balls on the cloth, some on spots, clusters, a pack."""
    d, r = table.ball_diameter_mm, table.ball_radius_mm
    placed: dict[str, tuple[float, float]] = {}

    def free(xy: np.ndarray) -> bool:
        inside = r <= xy[0] <= table.width_mm - r and r <= xy[1] <= table.length_mm - r
        return inside and all(np.hypot(*(xy - np.asarray(p))) >= d * 1.001 for p in placed.values())

    def place(ball_id: str, preferred: tuple[float, float] | None) -> None:
        if preferred is not None and free(np.asarray(preferred)):
            placed[ball_id] = preferred
            return
        for _ in range(200):
            if placed and rng.random() < config.cluster_probability:
                anchor = np.asarray(list(placed.values())[rng.integers(len(placed))])
                angle = rng.uniform(0, 2 * np.pi)
                xy = anchor + (d * rng.uniform(1.0, 1.6)) * np.array([np.cos(angle), np.sin(angle)])
            else:
                xy = np.array([rng.uniform(r, table.width_mm - r), rng.uniform(r, table.length_mm - r)])
            if free(xy):
                placed[ball_id] = (float(xy[0]), float(xy[1]))
                return

    rack = table.rack_positions()
    reds = int(rng.integers(config.reds_range[0], config.reds_range[1] + 1))
    in_pack = int(rng.integers(0, reds + 1)) if rng.random() < config.pack_probability else 0
    for k in range(1, in_pack + 1):
        place(f"red-{k}", rack[f"red-{k}"])
    for k in range(in_pack + 1, reds + 1):
        place(f"red-{k}", None)
    for colour, spot in table.spots.items():
        if rng.random() >= config.colour_missing_probability:
            place(colour, spot if rng.random() < config.colour_on_spot_probability else None)
    if rng.random() >= config.white_missing_probability:
        place("white", None)
    return placed


def synthetic_frames(count: int, rng: np.random.Generator, config: SynthConfig) -> Iterator[LabelledFrame]:
    """``count`` rendered broadcast-camera frames with exact labels (``snooker.datasets.synth``)."""
    from snooker.calibration.table import STANDARD_TABLE
    from snooker.datasets.synth.camera import Camera
    from snooker.datasets.synth.render import RenderOptions, ScoreGraphic, cue_and_arm, render_still

    table = STANDARD_TABLE
    base = RenderOptions()
    for k in range(count):
        camera = Camera.broadcast(
            back_mm=_uniform(rng, config.back_mm),
            height_mm=_uniform(rng, config.height_mm),
            target_along_mm=_uniform(rng, config.target_along_mm),
            fill=_uniform(rng, config.fill),
        )
        positions = random_layout(rng, config, table)
        occluders: tuple = ()
        if "white" in positions and rng.random() < config.occluder_probability:
            occluders = cue_and_arm(positions["white"], float(rng.uniform(0, 360)), table)
        cloth = tuple(
            int(np.clip(c + rng.normal(0, config.cloth_jitter_bgr), 0, 255)) for c in base.cloth_bgr
        )
        options = replace(
            base,
            cloth_bgr=cloth,
            ambient=_uniform(rng, config.ambient),
            diffuse=_uniform(rng, config.diffuse),
            specular=_uniform(rng, config.specular),
            noise_sigma=_uniform(rng, config.noise_sigma),
            optics_blur_sigma_px=_uniform(rng, config.blur_sigma_px),
            jpeg_quality=int(rng.integers(config.jpeg_quality[0], config.jpeg_quality[1] + 1)),
            texture_seed=int(rng.integers(1 << 30)),
            occluders=occluders,
            score_graphic=ScoreGraphic() if rng.random() < config.score_graphic_probability else None,
        )
        image, labels = render_still(positions, camera, rng, options)
        shown = [b for b in labels.balls if b.visible >= config.min_visible_fraction]
        balls = BallDetections(
            xy_px=np.array([[b.x_px, b.y_px] for b in shown]).reshape(-1, 2),
            radius_px=np.array([b.r_px for b in shown]),
            ball=np.array([b.ball for b in shown], dtype=object),
            confidence=np.ones(len(shown)),
            xy_mm=np.array([[b.x_mm, b.y_mm] for b in shown]).reshape(-1, 2),
        )
        yield LabelledFrame(f"synth_{k:05d}", image, balls, CameraView(camera, table))


def temporally_consistent(inventories: list[tuple[int, ...]], half_window: int) -> np.ndarray:
    """Which frames of a clip have the inventory most of their neighbours have.

    ``inventories`` are per-colour counts of consecutive sampled frames (as labelled by the
    classical detector). A frame is kept when its inventory is the one that the majority of the
    frames within ``half_window`` samples on either side (itself included) share: a flicker — a
    ball missed or invented in one frame — is dropped, while a pot (a lasting change) is not.
    """
    n = len(inventories)
    keep = np.zeros(n, dtype=bool)
    for i in range(n):
        window = inventories[max(0, i - half_window) : i + half_window + 1]
        same = sum(1 for inventory in window if inventory == inventories[i])
        keep[i] = same * 2 > len(window)
    return keep
