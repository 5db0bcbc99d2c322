"""Photometric changes another broadcast would make to the same scene, for robustness checks.

A different event, camera or production truck shows the same table with another exposure, white
balance, tone curve, colour saturation, sharpness, compression and resolution. Each
:class:`Perturbation` applies such changes to a BGR frame, so a detector can be scored on the
labelled stills as another broadcast would show them (``scripts/eval_inventory.py --perturb``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Perturbation:
    """One photometric change, applied in this order: resize, channel gains, tone curve,
    saturation, blur, JPEG re-compression. The defaults change nothing."""

    name: str
    size: tuple[int, int] | None = None
    """Output (width, height) px, area-averaged; None keeps the size."""
    gain: float = 1.0
    """Factor on all three channels (exposure), 8-bit values clipped to 0–255."""
    channel_gains_bgr: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Factors on B, G, R (white balance)."""
    gamma: float = 1.0
    """Tone curve ``255 (v / 255) ** gamma``: below 1 lifts the mid-tones, above 1 darkens them."""
    saturation: float = 1.0
    """Factor on the chroma (Lab a and b about neutral): below 1 washes colours out."""
    blur_sigma_px: float = 0.0
    """Standard deviation (px) of a Gaussian blur (soft focus, a softer camera); 0 for none."""
    jpeg_quality: int | None = None
    """Re-encode as JPEG with this quality (0–100); None for none."""

    def apply(self, image_bgr: np.ndarray) -> np.ndarray:
        """The perturbed copy of ``image_bgr`` (H, W, 3) uint8 BGR."""
        image = image_bgr
        if self.size is not None and tuple(image.shape[1::-1]) != self.size:
            image = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        gains = self.gain * np.asarray(self.channel_gains_bgr, dtype=np.float32)
        if self.gamma != 1.0 or np.any(gains != 1.0):
            levels = np.arange(256, dtype=np.float32)[:, None] * gains[None]
            curve = 255.0 * (np.clip(levels, 0.0, 255.0) / 255.0) ** self.gamma
            table = np.clip(np.round(curve), 0, 255).astype(np.uint8)
            image = np.dstack([cv2.LUT(image[..., c], table[:, c]) for c in range(3)])
        if self.saturation != 1.0:
            lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)
            lab[..., 1:] = 128.0 + self.saturation * (lab[..., 1:] - 128.0)
            image = cv2.cvtColor(np.clip(np.round(lab), 0, 255).astype(np.uint8), cv2.COLOR_Lab2BGR)
        if self.blur_sigma_px > 0.0:
            image = cv2.GaussianBlur(image, (0, 0), self.blur_sigma_px)
        if self.jpeg_quality is not None:
            ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
            if not ok:
                raise ValueError(f"JPEG encoding failed for quality {self.jpeg_quality}")
            image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        return np.ascontiguousarray(image)


BROADCAST_PERTURBATIONS: tuple[Perturbation, ...] = (
    Perturbation("darker", gain=0.7),
    Perturbation("brighter", gain=1.3),
    Perturbation("warm", channel_gains_bgr=(0.88, 1.0, 1.12)),
    Perturbation("cool", channel_gains_bgr=(1.12, 1.0, 0.88)),
    Perturbation("green_tint", channel_gains_bgr=(0.95, 1.08, 0.95)),
    Perturbation("magenta_tint", channel_gains_bgr=(1.05, 0.92, 1.05)),
    Perturbation("gamma_0.8", gamma=0.8),
    Perturbation("gamma_1.25", gamma=1.25),
    Perturbation("desaturated", saturation=0.8),
    Perturbation("saturated", saturation=1.25),
    Perturbation("blur", blur_sigma_px=1.2),
    Perturbation("jpeg_q30", jpeg_quality=30),
    Perturbation("960x540", size=(960, 540)),
    Perturbation(
        "other_broadcast",
        size=(960, 540),
        channel_gains_bgr=(0.92, 1.0, 1.08),
        gain=0.85,
        gamma=1.1,
        saturation=0.85,
        jpeg_quality=50,
    ),
)
"""The changes a different broadcast plausibly makes, one at a time, and one combination of them."""


def perturbation_named(name: str) -> Perturbation:
    """The broadcast perturbation called ``name``; KeyError lists the known names."""
    for perturbation in BROADCAST_PERTURBATIONS:
        if perturbation.name == name:
            return perturbation
    known = ", ".join(p.name for p in BROADCAST_PERTURBATIONS)
    raise KeyError(f"unknown perturbation {name!r}; expected one of {known}")


__all__ = ["BROADCAST_PERTURBATIONS", "Perturbation", "perturbation_named"]
