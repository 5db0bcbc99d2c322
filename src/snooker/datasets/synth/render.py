"""Render the table and balls as a camera sees them, with exact labels (OpenCV + numpy, vectorised).

The static scene is drawn once per camera and options and cached: the floor, the table's sides,
the bed cloth (texture, lighting fall-off, markings; shaded beyond the cushion noses, where the
camera sees the cushion faces and the pocket throats), and at the rail's height the cloth-covered
cushion tops, the wooden rail, the pocket openings and the light leathers lining them. Balls are
ray-cast per ball patch through the pinhole ``Camera`` — an exact perspective sphere lit by the
canopy (a broad light from above, plus specular highlights of its lamps), anti-aliased at the
silhouette — with a soft contact shadow; a moving ball is drawn at several instants of the
shutter interval (motion blur). Then occluders (the player: cue, arms, hands, body, head; shaded
tubes), the score graphic, optics blur, sensor noise and JPEG compression.

The look follows the Bucharest 2020 broadcast stills (``scripts/eval_synth.py --look`` compares
them): the broadcast camera's pose, the cloth's and the rails' colours, the pocket leathers where
the calibration layer expects them, and each ball colour's core colour as the classical detector
measures it.

Labels are computed from the camera model, not from the picture: a ball's centre in pixels is the
projection of its 3-D centre, its radius the silhouette's angular radius through the focal length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np

from snooker.balls import ball_kind
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.geometry import TableGeometry

BGR = tuple[int, int, int]

BALL_COLOURS_BGR: dict[str, BGR] = {
    "white": (146, 225, 206),
    "red": (15, 14, 146),
    "yellow": (15, 205, 252),
    "green": (42, 101, 0),
    "brown": (12, 72, 111),
    "blue": (136, 79, 0),
    "pink": (106, 100, 232),
    "black": (10, 23, 7),
}
"""Albedo of each ball colour (BGR) before shading. Fitted so that, under the default lighting and
the broadcast camera, each ball's core colour (Lab, as the classical detector measures it) matches
its mean over the Bucharest 2020 broadcast stills (``scripts/eval_synth.py --look`` compares them):
broadcast whites are a warm, slightly green-tinged white, the green ball is darker and bluer than
the cloth."""


NOISE_FIELD_PAD_PX = 64
"""The sensor-noise field is this much larger than a picture; each picture takes a window of it."""
EXPOSURE_RANGE: tuple[float, float] = (0.85, 1.1)
"""Range of the overall exposure gain of a randomised look."""


@dataclass(frozen=True)
class ScoreGraphic:
    """A broadcast score bar: two names, frame and point scores, and the break.

    ``centre_px`` is the bar's centre; ``None`` puts it just below the near rail at the bottom of
    the image (within the picture), the break box (when there is a break) above it.
    ``size_px`` is (width, height); ``None`` scales it to the picture as on television (half its
    width, ``height_fraction`` of its height).
    """

    players: tuple[str, str] = ("A. ONE", "B. TWO")
    scores: tuple[int, int] = (0, 0)
    frames: tuple[int, int] = (0, 0)
    best_of: int = 7
    break_points: int | None = None
    centre_px: tuple[float, float] | None = None
    size_px: tuple[int, int] | None = None
    width_fraction: float = 0.5
    height_fraction: float = 0.047
    gap_fraction: float = 0.0
    """Gap between the near rail's outer edge and the bar's top, in bar heights (placed bar)."""

    def size_in(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) px of the bar in a picture of that size."""
        if self.size_px is not None:
            return self.size_px
        return max(8, round(self.width_fraction * width)), max(6, round(self.height_fraction * height))


@dataclass(frozen=True)
class Capsule:
    """An occluder: a tapered tube through world points (n, 3) mm with radii (n,) mm, one colour.

    Cues, forearms and bodies are capsules; they are drawn over the balls (they sit above them).
    """

    name: str
    points_mm: tuple[tuple[float, float, float], ...]
    radii_mm: tuple[float, ...]
    colour_bgr: BGR


@dataclass(frozen=True)
class RenderOptions:
    """Everything about the look of a picture except the camera and the ball positions."""

    cloth_bgr: BGR = (18, 168, 16)
    cushion_bgr: BGR = (20, 140, 20)
    """The cloth on the cushion tops (a little darker than the bed: it slopes away from the lights)."""
    rail_bgr: BGR = (22, 12, 50)
    apron_bgr: BGR = (14, 10, 32)
    floor_bgr: BGR = (40, 40, 110)
    pocket_bgr: BGR = (10, 10, 10)
    leather_bgr: BGR = (125, 170, 215)
    """The light leather plates lining the pocket openings on the rail."""
    marking_bgr: BGR = (120, 200, 110)
    marking_width_mm: float = 5.0
    """Width of the baulk line and the D (chalked lines, faint from far away)."""
    cushion_face_shade: float = 0.7
    """Brightness of the cushion faces and noses (in shadow) relative to the cloth."""
    cushion_nose_band_mm: float = 12.0
    """Width of the shaded band along each cushion nose, seen from above."""
    texture_seed: int = 7
    cloth_texture_strength: float = 0.05
    """Relative amplitude of the cloth's nap and grain."""
    lighting_falloff: float = 0.22
    """Relative brightness lost from the table centre to its corners (canopy lighting)."""
    light_height_mm: float = 1000.0
    """Height of the canopy lights above the cloth."""
    light_positions_y_frac: tuple[float, ...] = (0.3, 0.7)
    """Canopy lights along the table's centre line, as fractions of its length."""
    ambient: float = 0.45
    diffuse: float = 0.9
    light_wrap: float = 0.6
    """How far past the equator the canopy's broad light reaches on a ball (0: only the top half
    is lit; 1: the whole ball, darkest underneath)."""
    specular: float = 0.9
    shininess: float = 60.0
    shadow_strength: float = 0.45
    shadow_radius_factor: float = 1.1
    """Contact shadow radius as a multiple of the ball radius."""
    optics_blur_sigma_px: float = 0.6
    noise_sigma: float = 2.5
    """Sensor noise, standard deviation in 8-bit levels (0 for a clean picture)."""
    jpeg_quality: int | None = None
    """Encode and decode the still as JPEG at this quality (None: no compression)."""
    motion_blur_samples: int = 7
    """Sub-frame instants a moving ball is drawn at."""
    draw_markings: bool = True
    score_graphic: ScoreGraphic | None = None
    occluders: tuple[Capsule, ...] = ()
    geometry: TableGeometry = field(default_factory=TableGeometry)

    def clean(self) -> RenderOptions:
        """The same look without noise, blur or compression (for exact measurement)."""
        return replace(self, optics_blur_sigma_px=0.0, noise_sigma=0.0, jpeg_quality=None)

    @classmethod
    def randomised(cls, rng: np.random.Generator, **overrides) -> RenderOptions:
        """A plausible random look: exposure, cloth shade, lighting, noise and compression vary.

        The exposure scales everything lit alike (cloth, cushions, leathers, balls), as a brighter
        or darker broadcast does; colours then vary a little on their own."""

        def jitter(colour: BGR, spread: int, gain: float = 1.0) -> BGR:
            return tuple(int(np.clip(c * gain + rng.integers(-spread, spread + 1), 0, 255)) for c in colour)

        base = cls()
        exposure = float(rng.uniform(*EXPOSURE_RANGE))
        values = {
            "cloth_bgr": jitter(base.cloth_bgr, 10, exposure),
            "cushion_bgr": jitter(base.cushion_bgr, 10, exposure),
            "leather_bgr": jitter(base.leather_bgr, 10, exposure),
            "rail_bgr": jitter(base.rail_bgr, 12),
            "floor_bgr": jitter(base.floor_bgr, 40),
            "ambient": base.ambient * exposure,
            "diffuse": base.diffuse * exposure,
            "texture_seed": int(rng.integers(0, 2**31)),
            "lighting_falloff": float(rng.uniform(0.1, 0.3)),
            "specular": float(rng.uniform(0.5, 1.0)),
            "noise_sigma": float(rng.uniform(0.5, 5.0)),
            "optics_blur_sigma_px": float(rng.uniform(0.0, 1.0)),
            "jpeg_quality": int(rng.integers(50, 95)),
        }
        values.update(overrides)
        return replace(base, **values)


@dataclass(frozen=True)
class BallLabel:
    """One ball in a rendered picture: id, colour name, centre and radius in px, box, visibility.

    ``x_px``/``y_px`` project the 3-D ball centre; ``box`` is (x0, y0, x1, y1) px of the circle;
    ``visible`` is the fraction of the ball's silhouette not hidden by other balls, occluders or
    the image border; ``x_mm``/``y_mm``/``z_mm`` give the centre on the table.
    """

    id: str
    ball: str
    x_px: float
    y_px: float
    r_px: float
    box: tuple[float, float, float, float]
    visible: float
    x_mm: float
    y_mm: float
    z_mm: float

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "ball": self.ball,
            "x_px": round(self.x_px, 3),
            "y_px": round(self.y_px, 3),
            "r_px": round(self.r_px, 3),
            "box": [round(v, 3) for v in self.box],
            "visible": round(self.visible, 4),
            "x_mm": round(self.x_mm, 3),
            "y_mm": round(self.y_mm, 3),
            "z_mm": round(self.z_mm, 3),
        }


@dataclass(frozen=True)
class RenderLabels:
    """What is where in a rendered picture: balls, the score graphic's box, occluders' boxes (px)."""

    balls: tuple[BallLabel, ...]
    score_graphic_box: tuple[int, int, int, int] | None
    occluder_boxes: dict[str, tuple[int, int, int, int]]

    def to_dict(self) -> dict:
        return {
            "balls": [b.to_dict() for b in self.balls],
            "score_graphic_box": None if self.score_graphic_box is None else list(self.score_graphic_box),
            "occluder_boxes": {k: list(v) for k, v in self.occluder_boxes.items()},
        }


Positions = dict[str, tuple[float, ...]]
"""Ball id → (x_mm, y_mm) on the cloth, or (x_mm, y_mm, z_mm) for the centre's height."""


class Renderer:
    """Renders pictures for one camera and one look; the static table is drawn once and cached."""

    def __init__(
        self, camera: Camera, options: RenderOptions | None = None, table: TableSpec = STANDARD_TABLE
    ):
        self.camera = camera
        self.options = options or RenderOptions()
        self.table = table
        self.geometry = self.options.geometry
        self._noise_field: np.ndarray | None = None

    # ---------------------------------------------------------------- static scene
    @cached_property
    def background(self) -> np.ndarray:
        """The empty table (H, W, 3) float32 BGR in 0..255."""
        opts, cam = self.options, self.camera
        image = np.empty((cam.height, cam.width, 3), np.float32)
        image[:] = opts.floor_bgr
        rows = np.linspace(0.75, 1.1, cam.height, dtype=np.float32)[:, None, None]
        image *= rows
        self._draw_cloth(image)
        self._draw_table_body(image)
        self._draw_top(image)
        return image

    def _poly_px(self, xyz: np.ndarray) -> np.ndarray:
        return np.round(self.camera.project(np.asarray(xyz, float)) * 16).astype(np.int32)

    def _fill(self, image: np.ndarray, xyz: np.ndarray, colour) -> None:
        pts = self._poly_px(xyz)
        if np.isnan(self.camera.project(np.asarray(xyz, float))).any():
            return
        cv2.fillPoly(image, [pts], tuple(float(c) for c in colour), cv2.LINE_AA, shift=4)

    def _draw_table_body(self, image: np.ndarray) -> None:
        """The table's outer sides (apron) that face the camera, from the rail to the floor."""
        opts, t, g = self.options, self.table, self.geometry
        e = g.outer_extent_mm
        top = g.config.rail_height_mm
        floor = -780.0
        outer = np.array(
            [[-e, -e], [t.width_mm + e, -e], [t.width_mm + e, t.length_mm + e], [-e, t.length_mm + e]]
        )
        cam_pos = self.camera.position_mm
        centre = outer.mean(axis=0)
        for k in range(4):
            a, b = outer[k], outer[(k + 1) % 4]
            outward = (a + b) / 2.0 - centre
            if outward @ (cam_pos[:2] - (a + b) / 2.0) <= 0:
                continue
            self._fill(image, np.array([[*a, top], [*b, top], [*b, floor], [*a, floor]]), opts.apron_bgr)

    @cached_property
    def _cloth_texture(self) -> tuple[np.ndarray, float, float]:
        """Bed cloth texture in table mm at ``scale`` mm per texel: (texture, scale, margin_mm).

        It runs out to the rail's outer edge, under the cushions and into the pocket throats, so
        that a camera looking at a far cushion sees its face; beyond the noses it is shaded (the
        cushion faces and throats are in shadow)."""
        opts, t = self.options, self.table
        margin = self.geometry.outer_extent_mm
        scale = 3.0
        w = math.ceil((t.width_mm + 2 * margin) / scale)
        h = math.ceil((t.length_mm + 2 * margin) / scale)
        rng = np.random.default_rng(opts.texture_seed)
        coarse = cv2.resize(rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h))
        fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8)
        nap = 1.0 + opts.cloth_texture_strength * (0.6 * coarse + 0.4 * fine)
        xs_mm = np.arange(w, dtype=np.float32) * scale - margin
        ys_mm = np.arange(h, dtype=np.float32) * scale - margin
        xs = xs_mm / t.width_mm - 0.5
        ys = ys_mm / t.length_mm - 0.5
        radial = (xs[None, :] * 2) ** 2 * 0.5 + (ys[:, None] * 2) ** 2 * 0.5
        light = 1.0 - opts.lighting_falloff * radial
        outside = (
            (xs_mm[None, :] < 0)
            | (xs_mm[None, :] > t.width_mm)
            | (ys_mm[:, None] < 0)
            | (ys_mm[:, None] > t.length_mm)
        )
        light = np.where(outside, light * opts.cushion_face_shade, light)
        texture = np.asarray(opts.cloth_bgr, np.float32)[None, None, :] * (nap * light)[:, :, None]
        if opts.draw_markings:
            self._draw_markings(texture, scale, margin)
        return texture, scale, margin

    def _draw_markings(self, texture: np.ndarray, scale: float, margin: float) -> None:
        t, colour = self.table, tuple(float(c) for c in self.options.marking_bgr)

        def px(p):
            return (round((p[0] + margin) / scale * 16), round((p[1] + margin) / scale * 16))

        thickness = max(1, round(self.options.marking_width_mm / scale))
        by = t.baulk_line_y_mm
        cv2.line(texture, px((0, by)), px((t.width_mm, by)), colour, thickness, cv2.LINE_AA, 4)
        arc = t.d_boundary(96)[:48]
        cv2.polylines(
            texture, [np.array([px(p) for p in arc], np.int32)], False, colour, thickness, cv2.LINE_AA, 4
        )
        for spot in t.spots.values():
            cv2.circle(texture, px(spot), round(4.0 / scale * 16), colour, -1, cv2.LINE_AA, 4)

    def _warp_onto(
        self, image: np.ndarray, texture: np.ndarray, alpha: np.ndarray, scale, margin, z_mm
    ) -> None:
        """Composite a texture laid out in table mm (texel (i, j) ↔ (j*scale - margin,
        i*scale - margin)) on the plane ``z = z_mm`` over ``image``, weighted by ``alpha``."""
        texel_to_table = np.array([[scale, 0, -margin], [0, scale, -margin], [0, 0, 1]])
        homography = self.camera.homography(z_mm) @ texel_to_table
        size = (self.camera.width, self.camera.height)
        warped = cv2.warpPerspective(texture * alpha[:, :, None], homography, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(alpha, homography, size, flags=cv2.INTER_LINEAR)
        image *= 1.0 - mask[:, :, None]
        image += warped

    def _draw_cloth(self, image: np.ndarray) -> None:
        texture, scale, margin = self._cloth_texture
        self._warp_onto(image, texture, np.ones(texture.shape[:2], np.float32), scale, margin, 0.0)

    @cached_property
    def _top_texture(self) -> tuple[np.ndarray, np.ndarray, float, float]:
        """What lies at the rail's height, in table mm: the cloth-covered cushion tops, the wooden
        rail, the pocket openings and the light leathers lining them; transparent over the bed and
        the pocket throats. Returns (colour texture, alpha, scale mm per texel, margin mm)."""
        opts, t, g = self.options, self.table, self.geometry
        e = g.outer_extent_mm
        margin = e + g.config.leather_width_mm  # the leathers stand out of the rail a little
        scale = 2.0
        w = math.ceil((t.width_mm + 2 * margin) / scale)
        h = math.ceil((t.length_mm + 2 * margin) / scale)
        rng = np.random.default_rng(opts.texture_seed + 1)
        colour = np.empty((h, w, 3), np.float32)
        grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
        colour[:] = np.asarray(opts.rail_bgr, np.float32)
        colour *= (1.0 + 0.6 * opts.cloth_texture_strength * grain)[:, :, None]
        alpha = np.zeros((h, w), np.float32)

        def pts(xy) -> np.ndarray:
            return np.round((np.asarray(xy, float) + margin) / scale * 16).astype(np.int32)

        def disc(centre, radius, value, target) -> None:
            cv2.circle(target, tuple(pts(centre)), round(radius / scale * 16), value, -1, cv2.LINE_AA, 4)

        def poly(xy, value, target) -> None:
            cv2.fillPoly(target, [pts(xy)], value, cv2.LINE_AA, shift=4)

        leather = tuple(float(c) for c in opts.leather_bgr)
        hole = tuple(float(c) for c in opts.pocket_bgr)
        poly(
            [[-e, -e], [t.width_mm + e, -e], [t.width_mm + e, t.length_mm + e], [-e, t.length_mm + e]],
            1.0,
            alpha,
        )
        for name in t.pockets:
            disc(g.hole_centre_mm(name), g.hole_radius_mm(name) + g.config.leather_width_mm, leather, colour)
            disc(g.hole_centre_mm(name), g.hole_radius_mm(name) + g.config.leather_width_mm, 1.0, alpha)
        for name, pocket in t.pockets.items():
            throat = [pocket.jaws[0], pocket.jaws[1], g.jaw_face_end(name, 1), g.jaw_face_end(name, 0)]
            poly(throat, 0.0, alpha)
        for name in t.pockets:
            disc(g.hole_centre_mm(name), g.hole_radius_mm(name), hole, colour)
            disc(g.hole_centre_mm(name), g.hole_radius_mm(name), 1.0, alpha)
        segments = {s.name: s for s in g.segments}
        cushion = tuple(float(c) for c in opts.cushion_bgr)
        nose_colour = tuple(float(c) * opts.cushion_face_shade for c in opts.cushion_bgr)
        nose_fraction = opts.cushion_nose_band_mm / g.config.cushion_width_mm
        for c in t.cushions:
            start, end = np.asarray(c.start), np.asarray(c.end)
            start_face, end_face = _face_end_at(g, segments, start), _face_end_at(g, segments, end)
            poly([start, end, end_face, start_face], cushion, colour)
            poly([start, end, end_face, start_face], 1.0, alpha)
            band_start = start + nose_fraction * (start_face - start)
            band_end = end + nose_fraction * (end_face - end)
            poly([start, end, band_end, band_start], nose_colour, colour)
        p = t.pockets
        bed = [
            p["baulk_left"].jaws[0],
            p["baulk_right"].jaws[0],
            p["baulk_right"].jaws[1],
            p["middle_right"].jaws[0],
            p["middle_right"].jaws[1],
            p["top_right"].jaws[1],
            p["top_right"].jaws[0],
            p["top_left"].jaws[0],
            p["top_left"].jaws[1],
            p["middle_left"].jaws[1],
            p["middle_left"].jaws[0],
            p["baulk_left"].jaws[1],
        ]
        poly(bed, 0.0, alpha)
        return colour, alpha, scale, margin

    def _draw_top(self, image: np.ndarray) -> None:
        colour, alpha, scale, margin = self._top_texture
        self._warp_onto(image, colour, alpha, scale, margin, self.geometry.config.rail_height_mm)

    # ---------------------------------------------------------------- balls
    def render(
        self,
        positions: Positions,
        rng: np.random.Generator,
        motion: dict[str, np.ndarray] | None = None,
        occluders: tuple[Capsule, ...] | None = None,
        score_graphic: ScoreGraphic | None = None,
        finish: bool = True,
    ) -> tuple[np.ndarray, RenderLabels]:
        """Render balls at ``positions`` over the cached table; returns (BGR uint8, labels).

        ``motion`` maps a moving ball id to (k, 3) world mm centres across the shutter interval
        (drawn blurred; the label uses ``positions``). ``occluders`` and ``score_graphic``
        default to the options'. ``finish=False`` skips blur, noise and compression (video
        frames get those from the writer's own pass).
        """
        opts = self.options
        occluders = opts.occluders if occluders is None else occluders
        score_graphic = opts.score_graphic if score_graphic is None else score_graphic
        image = self.background.copy()
        centres = {bid: _xyz(p, self.table.ball_radius_mm) for bid, p in positions.items()}
        ids = list(centres)
        for bid in ids:
            ball_kind(bid)  # a clear error for an unknown ball id
        cam = self.camera
        depth = {bid: float(cam.to_camera(centres[bid])[0, 2]) for bid in ids}
        order = sorted(ids, key=lambda b: -depth[b])
        self._draw_shadows(image, [centres[b] for b in order])
        coverages: dict[str, tuple[np.ndarray, tuple[int, int, int, int], float]] = {}
        for bid in order:
            samples = motion.get(bid) if motion else None
            path = np.atleast_2d(samples) if samples is not None else centres[bid][None, :]
            coverages[bid] = self._draw_ball(image, bid, path)
        occluder_mask, occluder_boxes = self._draw_occluders(image, occluders)
        score_box = self._draw_score_graphic(image, score_graphic) if score_graphic else None
        labels = self._labels(order, centres, coverages, occluder_mask, score_box)
        out = np.clip(image, 0, 255)
        out = self.finish(out, rng) if finish else out.astype(np.uint8)
        return out, RenderLabels(labels, score_box, occluder_boxes)

    def finish(self, image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Optics blur, sensor noise and JPEG compression of a float or uint8 picture."""
        opts = self.options
        out = np.asarray(image, np.float32)
        if opts.optics_blur_sigma_px > 0:
            out = cv2.GaussianBlur(out, (0, 0), opts.optics_blur_sigma_px)
        if opts.noise_sigma > 0:
            out = cv2.scaleAdd(self._noise(rng, out.shape), float(opts.noise_sigma), out)
        out8 = cv2.convertScaleAbs(out)
        if opts.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(opts.jpeg_quality)])
            if ok:
                out8 = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out8

    def _noise(self, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        """Unit Gaussian sensor noise of ``shape``: a window at a random offset (and sign) into a
        larger field drawn once from ``rng`` (drawing a whole field per frame is the slowest step)."""
        pad = NOISE_FIELD_PAD_PX
        if self._noise_field is None or self._noise_field.shape[2:] != shape[2:]:
            self._noise_field = rng.standard_normal((shape[0] + pad, shape[1] + pad, *shape[2:]), np.float32)
        field = self._noise_field
        if field.shape[0] < shape[0] + pad or field.shape[1] < shape[1] + pad:
            field = self._noise_field = rng.standard_normal(
                (shape[0] + pad, shape[1] + pad, *shape[2:]), np.float32
            )
        dy, dx = (int(v) for v in rng.integers(0, pad, 2))
        window = field[dy : dy + shape[0], dx : dx + shape[1]]
        return -window if rng.random() < 0.5 else window

    def _draw_shadows(self, image: np.ndarray, centres: list[np.ndarray]) -> None:
        """Darken the cloth under each ball with a soft contact shadow (inside the balls' box)."""
        opts, r, cam = self.options, self.table.ball_radius_mm, self.camera
        on_cloth = [c for c in centres if c[2] <= 2 * r]
        if opts.shadow_strength <= 0 or not on_cloth:
            return
        rings = [_circle(c[:2], r * opts.shadow_radius_factor, 24) for c in on_cloth]
        polys = [cam.project(np.column_stack([ring, np.zeros(len(ring))])) for ring in rings]
        if any(np.isnan(p).any() for p in polys):
            return
        blur = max(1.0, 0.25 * float(np.median(cam.ball_radius_px(np.asarray(on_cloth), r))))
        pad = int(np.ceil(4 * blur)) + 2
        stacked = np.concatenate(polys)
        x0 = max(int(np.floor(stacked[:, 0].min())) - pad, 0)
        y0 = max(int(np.floor(stacked[:, 1].min())) - pad, 0)
        x1 = min(int(np.ceil(stacked[:, 0].max())) + pad, cam.width)
        y1 = min(int(np.ceil(stacked[:, 1].max())) + pad, cam.height)
        if x1 <= x0 or y1 <= y0:
            return
        shade = np.zeros((y1 - y0, x1 - x0), np.float32)
        for poly in polys:
            pts = np.round((poly - [x0, y0]) * 16).astype(np.int32)
            cv2.fillPoly(shade, [pts], 1.0, cv2.LINE_AA, shift=4)
        shade = cv2.GaussianBlur(shade, (0, 0), blur)
        image[y0:y1, x0:x1] *= (1.0 - opts.shadow_strength * np.clip(shade, 0, 1))[:, :, None]

    def _draw_ball(self, image: np.ndarray, bid: str, path: np.ndarray):
        """Ray-cast the ball at each centre in ``path`` (k, 3) and composite the average.

        Returns (coverage patch, patch box (x0, y0, x1, y1), total coverage of the sharp ball).
        """
        cam, opts, r = self.camera, self.options, self.table.ball_radius_mm
        centres_px = cam.project(path)
        radii_px = cam.ball_radius_px(path, r)
        if np.isnan(centres_px).any():
            return np.zeros((0, 0), np.float32), (0, 0, 0, 0), 0.0
        pad = 2.0
        x0 = math.floor(np.min(centres_px[:, 0] - radii_px) - pad)
        y0 = math.floor(np.min(centres_px[:, 1] - radii_px) - pad)
        x1 = math.ceil(np.max(centres_px[:, 0] + radii_px) + pad) + 1
        y1 = math.ceil(np.max(centres_px[:, 1] + radii_px) + pad) + 1
        full_area = float(np.pi * np.mean(radii_px) ** 2)
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x1, cam.width), min(y1, cam.height)
        if cx1 <= cx0 or cy1 <= cy0:
            return np.zeros((0, 0), np.float32), (0, 0, 0, 0), full_area
        us, vs = np.meshgrid(np.arange(cx0, cx1, dtype=float), np.arange(cy0, cy1, dtype=float))
        rays = cam.pixel_rays(us, vs)
        eye = cam.position_mm
        albedo = np.asarray(BALL_COLOURS_BGR[ball_kind(bid)], np.float32) / 255.0
        lights = np.array(
            [
                [self.table.width_mm / 2.0, f * self.table.length_mm, opts.light_height_mm]
                for f in opts.light_positions_y_frac
            ]
        )
        colour_sum = np.zeros((*us.shape, 3), np.float32)
        cover_sum = np.zeros(us.shape, np.float32)
        for centre in path:
            to_centre = centre - eye
            along = rays @ to_centre
            perp = np.sqrt(np.maximum(to_centre @ to_centre - along**2, 0.0))
            distance = np.linalg.norm(to_centre)
            pixel_mm = distance / cam.focal_px
            coverage = np.clip((r - perp) / pixel_mm + 0.5, 0.0, 1.0).astype(np.float32)
            inside = np.minimum(perp, r * 0.9999)
            hit = eye + rays * (along - np.sqrt(r**2 - inside**2))[..., None]
            normal = (hit - centre) / r
            view = -rays
            # The canopy lights the whole upper half of the ball (a broad source over the table):
            # brightest on top, falling off past the equator ("wrapped" diffuse light).
            diffuse = np.clip((normal[..., 2] + opts.light_wrap) / (1.0 + opts.light_wrap), 0.0, 1.0)
            highlight = np.zeros(us.shape)
            for light in lights:
                to_light = light - centre
                to_light /= np.linalg.norm(to_light)
                half = to_light + view
                half /= np.linalg.norm(half, axis=-1, keepdims=True)
                highlight += np.maximum(np.sum(normal * half, axis=-1), 0.0) ** opts.shininess
            shade = opts.ambient + opts.diffuse * diffuse
            colour = albedo[None, None, :] * shade[..., None] + opts.specular * highlight[..., None]
            colour_sum += (np.clip(colour, 0.0, 1.2) * 255.0).astype(np.float32) * coverage[..., None]
            cover_sum += coverage
        k = len(path)
        alpha = cover_sum / k
        patch = image[cy0:cy1, cx0:cx1]
        patch *= 1.0 - alpha[..., None]
        patch += colour_sum / k
        return alpha, (cx0, cy0, cx1, cy1), full_area

    def _draw_occluders(self, image: np.ndarray, occluders: tuple[Capsule, ...]):
        """Draw capsules (each inside its own box only); returns (coverage mask, boxes by name)."""
        cam = self.camera
        mask_all = np.zeros(image.shape[:2], np.float32)
        boxes: dict[str, tuple[int, int, int, int]] = {}
        for capsule in occluders:
            pts = np.asarray(capsule.points_mm, float)
            px = cam.project(pts)
            if np.isnan(px).any():
                continue
            radii = cam.ball_radius_px(pts, 1.0) * np.asarray(capsule.radii_mm, float)
            x0 = max(int(np.floor(np.min(px[:, 0] - radii))) - 2, 0)
            y0 = max(int(np.floor(np.min(px[:, 1] - radii))) - 2, 0)
            x1 = min(int(np.ceil(np.max(px[:, 0] + radii))) + 3, cam.width)
            y1 = min(int(np.ceil(np.max(px[:, 1] + radii))) + 3, cam.height)
            if x1 <= x0 or y1 <= y0:
                continue
            local = px - [x0, y0]
            mask = _capsule_mask((y1 - y0, x1 - x0), local, radii)
            # A round object lit from above: darker towards its outline (nested, shrinking tubes).
            shade = np.zeros_like(mask)
            for fraction, brightness in OCCLUDER_SHADING:
                np.maximum(shade, brightness * _capsule_mask(mask.shape, local, radii * fraction), out=shade)
            region = image[y0:y1, x0:x1]
            region *= 1.0 - mask[..., None]
            colour = np.asarray(capsule.colour_bgr, np.float32)[None, None, :]
            region += (mask * np.maximum(shade, OCCLUDER_SHADING[0][1]))[..., None] * colour
            np.maximum(mask_all[y0:y1, x0:x1], mask, out=mask_all[y0:y1, x0:x1])
            ys, xs = np.nonzero(mask > 0.5)
            if len(xs):
                boxes[capsule.name] = (
                    int(xs.min()) + x0,
                    int(ys.min()) + y0,
                    int(xs.max()) + x0 + 1,
                    int(ys.max()) + y0 + 1,
                )
        return mask_all, boxes

    def _draw_score_graphic(self, image: np.ndarray, graphic: ScoreGraphic) -> tuple[int, int, int, int]:
        cam = self.camera
        w, h = graphic.size_in(cam.width, cam.height)
        if graphic.centre_px is None:
            # As on television: the bar's top edge at the near rail's outer edge (it covers the
            # table's side and the corner pockets' leathers), a break box above it over the rail.
            t, g = self.table, self.geometry
            c = g.outer_extent_mm
            sides = np.array(
                [
                    [t.width_mm / 2, -c],
                    [t.width_mm / 2, t.length_mm + c],
                    [-c, t.length_mm / 2],
                    [t.width_mm + c, t.length_mm / 2],
                ]
            )
            projected = cam.project_table(sides, z_mm=g.config.rail_height_mm)
            bottom = projected[int(np.nanargmax(projected[:, 1]))]
            cx = cam.width / 2.0
            cy = float(
                np.clip(bottom[1] + h * (0.5 + graphic.gap_fraction), h / 2.0, cam.height - h / 2.0 - 2)
            )
        else:
            cx, cy = graphic.centre_px
        bar = _score_bar(graphic, (w, h))
        bh = bar.shape[0]
        x0, y1 = round(cx - w / 2), round(cy + h / 2)
        y0 = y1 - bh
        ix0, iy0 = max(x0, 0), max(y0, 0)
        ix1, iy1 = min(x0 + w, cam.width), min(y1, cam.height)
        if ix1 > ix0 and iy1 > iy0:
            region = bar[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0].astype(np.float32)
            drawn = np.any(bar[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0] > 0, axis=-1)
            target = image[iy0:iy1, ix0:ix1]
            target[drawn] = region[drawn]
        return (ix0, iy0, ix1, iy1)

    def _labels(self, order, centres, coverages, occluder_mask, score_box) -> tuple[BallLabel, ...]:
        cam, r = self.camera, self.table.ball_radius_mm
        front = np.zeros((cam.height, cam.width), np.float32)
        if score_box is not None:
            x0, y0, x1, y1 = score_box
            front[y0:y1, x0:x1] = 1.0
        front = np.maximum(front, occluder_mask)
        visible: dict[str, float] = {}
        for bid in reversed(order):  # nearest first
            alpha, (x0, y0, x1, y1), full_area = coverages[bid]
            if alpha.size == 0 or full_area <= 0:
                visible[bid] = 0.0
                continue
            seen = float(np.sum(alpha * (1.0 - front[y0:y1, x0:x1])))
            visible[bid] = float(np.clip(seen / full_area, 0.0, 1.0))
            front[y0:y1, x0:x1] = np.maximum(front[y0:y1, x0:x1], alpha)
        out = []
        for bid in sorted(centres, key=_ball_sort_key):
            c = centres[bid]
            u, v = cam.project(c[None, :])[0]
            rad = float(cam.ball_radius_px(c[None, :], r)[0])
            out.append(
                BallLabel(
                    bid,
                    ball_kind(bid),
                    float(u),
                    float(v),
                    rad,
                    (u - rad, v - rad, u + rad, v + rad),
                    visible[bid],
                    float(c[0]),
                    float(c[1]),
                    float(c[2]),
                )
            )
        return tuple(out)


def render_still(
    positions: Positions,
    camera: Camera,
    rng: np.random.Generator,
    options: RenderOptions | None = None,
) -> tuple[np.ndarray, RenderLabels]:
    """Render one picture of balls at ``positions`` (ball id → (x_mm, y_mm[, z_mm])) seen by
    ``camera``; returns (BGR uint8 image, labels). ``rng`` drives the sensor noise only."""
    return Renderer(camera, options).render(positions, rng)


@dataclass(frozen=True)
class PlayerLook:
    """Sizes (mm) and colours of the player drawn over the table (broadcast players wear a white
    shirt and a dark waistcoat). Distances along the cue line are measured back from the cue ball."""

    cue_length_mm: float = 1470.0
    cue_rise: float = 0.09
    """Height the cue gains per mm towards its butt (a cue held at about 5°)."""
    bridge_mm: float = 280.0
    """Cue ball to bridge hand."""
    chin_behind_bridge_mm: float = 380.0
    """Bridge hand to the chin over the cue."""
    max_lean_mm: float = 300.0
    """How far inside the cushion the player's chin can come; farther shots are played off a rest."""
    shoulder_half_width_mm: float = 190.0
    torso_length_mm: float = 600.0
    torso_radii_mm: tuple[float, float] = (160.0, 185.0)
    arm_radii_mm: tuple[float, float] = (42.0, 55.0)
    """Sleeve radius at the wrist and at the shoulder."""
    hand_radius_mm: float = 42.0
    head_radius_mm: float = 100.0
    shirt_bgr: BGR = (232, 234, 236)
    waistcoat_bgr: BGR = (32, 28, 28)
    skin_bgr: BGR = (140, 165, 210)
    hair_bgr: BGR = (30, 40, 55)
    cue_bgr: BGR = (120, 185, 215)
    tip_bgr: BGR = (140, 95, 55)
    """The cue's leather tip, blue with chalk."""
    tip_length_mm: float = 12.0
    rest_bgr: BGR = (60, 60, 70)


def cue_and_arm(
    cue_ball_mm: tuple[float, float],
    aim_deg: float,
    table: TableSpec = STANDARD_TABLE,
    tip_gap_mm: float = 25.0,
    look: PlayerLook | None = None,
) -> tuple[Capsule, ...]:
    """The player addressing the cue ball along ``aim_deg`` (degrees, table frame, 0 = +x): cue,
    bridge hand and arm, cue arm and hand, torso and head, as occluders in drawing order.

    The player stands at the table: the chin comes over the cue behind the bridge hand, but never
    more than ``max_lean_mm`` inside the cushion; when the cue ball is farther in, the cue rests
    on a rest whose head takes the bridge hand's place. So, as on television, the arms, the cue
    and the body come in over the cushion, and the cue ball sits just ahead of the cue tip.
    """
    look = look or PlayerLook()
    direction = np.array([math.cos(math.radians(aim_deg)), math.sin(math.radians(aim_deg))])
    side = np.array([-direction[1], direction[0]])
    ball = np.asarray(cue_ball_mm, float)
    r = table.ball_radius_mm
    back = _distance_to_cushion(ball, -direction, table)

    def at(along: float, across: float = 0.0, z: float = 0.0) -> tuple[float, float, float]:
        xy = ball - direction * along + side * across
        return (float(xy[0]), float(xy[1]), float(z))

    tip_at = r + tip_gap_mm
    bridge_at = r + look.bridge_mm
    chin_at = bridge_at + look.chin_behind_bridge_mm
    on_rest = chin_at < back - look.max_lean_mm
    if on_rest:
        chin_at = back - look.max_lean_mm
    butt_at = max(tip_at + look.cue_length_mm, chin_at + 500.0)
    cue_z = r + 5.0

    def cue_height(along: float) -> float:
        return cue_z + look.cue_rise * (along - tip_at)

    shoulder_at = chin_at + 120.0
    shoulder_z = 330.0
    w = look.shoulder_half_width_mm
    grip_at = butt_at - 150.0
    grip = at(grip_at, 0.0, cue_height(grip_at))
    capsules = [
        Capsule(
            "body",
            (
                at(shoulder_at, 0.0, shoulder_z),
                at(shoulder_at + look.torso_length_mm, 0.0, shoulder_z - 80.0),
            ),
            look.torso_radii_mm,
            look.waistcoat_bgr,
        )
    ]
    if on_rest:
        rest_hand = at(chin_at - 120.0, w * 0.6, 110.0)
        capsules.append(Capsule("rest", (at(bridge_at, 0.0, 30.0), rest_hand), (12.0, 10.0), look.rest_bgr))
        bridge_hand = rest_hand
        elbow = at(chin_at - 20.0, w * 0.9, 200.0)
    else:
        bridge_hand = at(bridge_at, 0.0, 20.0)
        elbow = at(bridge_at + 200.0, w * 0.85, 110.0)
    capsules += [
        Capsule(
            "bridge_arm",
            (bridge_hand, elbow, at(shoulder_at, w, shoulder_z)),
            (look.arm_radii_mm[0], 0.5 * sum(look.arm_radii_mm), look.arm_radii_mm[1]),
            look.shirt_bgr,
        ),
        Capsule("bridge_hand", (bridge_hand,), (look.hand_radius_mm,), look.skin_bgr),
        Capsule(
            "cue",
            (at(tip_at + look.tip_length_mm, 0.0, cue_z), at(butt_at, 0.0, cue_height(butt_at))),
            (5.0, 15.0),
            look.cue_bgr,
        ),
        Capsule(
            "cue_tip",
            (at(tip_at, 0.0, cue_z), at(tip_at + look.tip_length_mm, 0.0, cue_z)),
            (5.0, 5.0),
            look.tip_bgr,
        ),
        Capsule(
            "cue_arm",
            (grip, at(grip_at - 60.0, -w * 0.8, grip[2] + 330.0), at(shoulder_at, -w, shoulder_z)),
            (look.arm_radii_mm[0], 0.5 * sum(look.arm_radii_mm), look.arm_radii_mm[1]),
            look.shirt_bgr,
        ),
        Capsule("cue_hand", (grip,), (look.hand_radius_mm,), look.skin_bgr),
        Capsule("head", (at(chin_at + 40.0, 0.0, 290.0),), (look.head_radius_mm,), look.hair_bgr),
    ]
    return tuple(capsules)


def _distance_to_cushion(point: np.ndarray, direction: np.ndarray, table: TableSpec) -> float:
    """How far from ``point`` (on the table) along unit ``direction`` the cushion noses lie (mm)."""
    limits = []
    for axis, size in ((0, table.width_mm), (1, table.length_mm)):
        if direction[axis] > 1e-9:
            limits.append((size - point[axis]) / direction[axis])
        elif direction[axis] < -1e-9:
            limits.append(-point[axis] / direction[axis])
    return float(max(0.0, min(limits)))


def _score_bar(graphic: ScoreGraphic, size: tuple[int, int]) -> np.ndarray:
    """The score bar of ``size`` (w, h) as a uint8 picture (black = transparent), break box above."""
    w, h = size
    extra = h if graphic.break_points is not None else 0
    bar = np.zeros((h + extra, w, 3), np.uint8)
    name_w, score_w = int(w * 0.3), int(w * 0.1)
    mid_w = w - 2 * (name_w + score_w)
    frames = f"{graphic.frames[0]} ({graphic.best_of}) {graphic.frames[1]}"
    parts = [
        (name_w, (40, 215, 245), graphic.players[0], (20, 20, 20)),
        (score_w, (250, 250, 250), str(graphic.scores[0]), (20, 20, 20)),
        (mid_w, (200, 120, 30), frames, (250, 250, 250)),
        (score_w, (250, 250, 250), str(graphic.scores[1]), (20, 20, 20)),
        (name_w, (40, 215, 245), graphic.players[1], (20, 20, 20)),
    ]
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, h / 48.0
    x = 0
    for width, fill, text, ink in parts:
        cv2.rectangle(bar, (x, extra), (x + width - 1, extra + h - 1), fill, -1)
        (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
        cv2.putText(
            bar, text, (x + (width - tw) // 2, extra + (h + th) // 2), font, scale, ink, 2, cv2.LINE_AA
        )
        x += width
    if extra:
        bw = int(w * 0.2)
        cv2.rectangle(bar, (w - bw, 0), (w - 1, extra - 1), (250, 250, 250), -1)
        cv2.putText(
            bar, f"Break {graphic.break_points}", (w - bw + 6, extra - h // 3), font, scale, (20, 20, 20), 2
        )
    return bar


def _xyz(p, default_z: float) -> np.ndarray:
    values = [float(v) for v in p]
    if len(values) == 2:
        values.append(default_z)
    if len(values) != 3 or not all(math.isfinite(v) for v in values):
        raise ValueError(
            f"a ball position must be (x_mm, y_mm) or (x_mm, y_mm, z_mm) finite numbers, got {p!r}"
        )
    return np.asarray(values)


def _circle(centre: np.ndarray, radius: float, n: int) -> np.ndarray:
    angles = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)])


OCCLUDER_SHADING: tuple[tuple[float, float], ...] = ((1.0, 0.72), (0.8, 0.85), (0.55, 0.95), (0.3, 1.0))
"""(radius fraction, brightness) of the nested tubes that shade a capsule from its rim inwards."""


def _capsule_mask(shape: tuple[int, int], centres_px: np.ndarray, radii_px: np.ndarray) -> np.ndarray:
    """Anti-aliased coverage (0..1) of a tapered tube through ``centres_px`` (n, 2) with radii (n,)."""
    mask = np.zeros(shape, np.float32)
    for k in range(len(centres_px)):
        centre = tuple(int(v) for v in np.round(centres_px[k] * 16))
        cv2.circle(mask, centre, max(1, round(radii_px[k] * 16)), 1.0, -1, cv2.LINE_AA, 4)
        if k + 1 < len(centres_px):
            quad = _tapered_quad(centres_px[k], centres_px[k + 1], radii_px[k], radii_px[k + 1])
            cv2.fillPoly(mask, [np.round(quad * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    return mask


def _tapered_quad(a: np.ndarray, b: np.ndarray, ra: float, rb: float) -> np.ndarray:
    d = b - a
    n = np.array([-d[1], d[0]]) / max(float(np.linalg.norm(d)), 1e-9)
    return np.array([a + n * ra, b + n * rb, b - n * rb, a - n * ra])


def _face_end_at(geometry: TableGeometry, segments: dict, point: np.ndarray) -> np.ndarray:
    """The rail end of the jaw face that starts at jaw ``point``."""
    for seg in segments.values():
        if seg.pocket is not None and np.allclose(seg.start, point):
            return np.asarray(seg.end)
    raise ValueError(f"no jaw face starts at {point}")


def _ball_sort_key(bid: str) -> tuple[int, int, str]:
    kind = ball_kind(bid)
    order = ("white", "red", "yellow", "green", "brown", "blue", "pink", "black").index(kind)
    number = int(bid.split("-")[1]) if bid.startswith("red-") and bid.split("-")[1].isdigit() else 0
    return order, number, bid
