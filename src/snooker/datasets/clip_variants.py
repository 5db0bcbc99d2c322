"""Transformed copies of real clips, to measure how the pipeline does on footage it was not tuned on
(``scripts/make_clip_variants.py`` writes them for the Task2 clips; tests write single ones).

Written with OpenCV's MPEG-4 encoder (``mp4v``), so every variant is also re-encoded once:
``copy`` (the same size and rate) separates what the re-encoding does from what the change does.
``knocked`` moves the picture 5, 3 px and turns it 0.4° from 2 s on, as a camera knocked on its
mount; ``knocked_turned`` only turns it 0.8° about its centre, ``knocked_small`` only moves it 2,
-1.5 px (2.5 px). The variants named ``look_<name>`` show each clip as another broadcast would
(:data:`snooker.vision.photometric.BROADCAST_PERTURBATIONS`: exposure, white balance, tone curve,
saturation, blur, compression), frame by frame. Written under a temporary or ``out/`` folder, never
into the repository.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from snooker.vision.photometric import BROADCAST_PERTURBATIONS, Perturbation


@dataclass(frozen=True)
class Variant:
    """How a clip is changed: the frame size (None: as it is) and how it is resized, the frame
    rate written, which source frames are dropped (every ``drop_every``-th, counted from 1; 0:
    none), the encoder's bit rate (bit/s; 0: its default), a photometric change applied to each
    frame after resizing (None: none), and a knocked camera: from ``knock_from_s`` (s of the
    source; None: never) on, the picture moved by ``knock_px`` (dx, dy frame px) and turned
    ``knock_turn_deg`` (clockwise as seen) about its centre, as a camera knocked on its mount."""

    size: tuple[int, int] | None = None
    interpolation: int = cv2.INTER_AREA
    fps: float = 30.0
    drop_every: int = 0
    bitrate: int = 0
    look: Perturbation | None = None
    knock_from_s: float | None = None
    knock_px: tuple[float, float] = (0.0, 0.0)
    knock_turn_deg: float = 0.0


def _look_without_size(perturbation: Perturbation) -> dict[str, object]:
    """The perturbation's photometric fields, its size left to :class:`Variant` (resized once)."""
    fields = dict(vars(perturbation))
    del fields["name"], fields["size"]
    return fields


LOW_BITRATE = 40_000
"""Asked of the MPEG-4 encoder for a poor stream; it bottoms out at its coarsest quantiser (about
620 kbit/s and 33.6 dB PSNR on these clips, against about 40 dB at its default)."""

VARIANTS = {
    "copy": Variant(),
    "p1080": Variant(size=(1920, 1080), interpolation=cv2.INTER_LINEAR),
    "p540": Variant(size=(960, 540)),
    "p480w": Variant(size=(854, 480)),
    "low_bitrate": Variant(bitrate=LOW_BITRATE),
    "fps25": Variant(fps=25.0, drop_every=6),
    "knocked": Variant(knock_from_s=2.0, knock_px=(5.0, 3.0), knock_turn_deg=0.4),
    "knocked_turned": Variant(knock_from_s=2.0, knock_turn_deg=0.8),
    "knocked_small": Variant(knock_from_s=2.0, knock_px=(2.0, -1.5)),
} | {
    f"look_{p.name}": Variant(size=p.size, look=Perturbation(p.name, **_look_without_size(p)))
    for p in BROADCAST_PERTURBATIONS
    if _look_without_size(p) != _look_without_size(Perturbation(p.name))
}


def write_variant(source: Path, target: Path, variant: Variant) -> int:
    """Write ``source`` changed by ``variant`` to ``target``; the frames written."""
    capture = cv2.VideoCapture(str(source))
    if not capture.isOpened():
        raise OSError(f"cannot read {source}")
    width, height = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    source_fps = capture.get(cv2.CAP_PROP_FPS) or variant.fps
    size = variant.size or (width, height)
    params = [cv2.VIDEOWRITER_PROP_BITRATE, variant.bitrate] if variant.bitrate else []
    writer = cv2.VideoWriter(
        str(target), cv2.CAP_FFMPEG, cv2.VideoWriter_fourcc(*"mp4v"), variant.fps, size, params
    )
    if not writer.isOpened():
        capture.release()
        raise OSError(f"cannot write {target}")
    read = written = 0
    try:
        while True:
            ok, image = capture.read()
            if not ok:
                break
            read += 1
            if variant.drop_every and read % variant.drop_every == 0:
                continue
            if variant.size is not None:
                image = cv2.resize(image, variant.size, interpolation=variant.interpolation)
            if variant.knock_from_s is not None and read > variant.knock_from_s * source_fps:
                image = _knocked(image, variant)
            if variant.look is not None:
                image = variant.look.apply(image)
            writer.write(image)
            written += 1
    finally:
        writer.release()
        capture.release()
    return written


def _knocked(image: np.ndarray, variant: Variant) -> np.ndarray:
    """``image`` as the knocked camera shows it (the edge repeated where nothing was)."""
    height, width = image.shape[:2]
    move = cv2.getRotationMatrix2D((width / 2, height / 2), -variant.knock_turn_deg, 1.0)
    move[:, 2] += variant.knock_px
    return cv2.warpAffine(image, move, (width, height), borderMode=cv2.BORDER_REPLICATE)
