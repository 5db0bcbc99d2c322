"""A pinhole camera looking at the table: the projection the synthetic renderer and its truth share.

World frame: table millimetres (CONTRACTS.md) with ``z`` up, the cloth at ``z = 0``; a resting
ball's centre sits at ``z = 26.25`` mm. Camera frame: ``x`` right, ``y`` down, ``z`` forward (the
OpenCV convention), so a world point ``X`` maps to pixels by ``K (R X + t)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from snooker.calibration.table import STANDARD_TABLE, TableSpec


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: intrinsics ``K`` (3x3, px), world-to-camera rotation ``R`` (3x3) and
    translation ``t`` (3, mm), image ``width`` x ``height`` px. No lens distortion."""

    name: str
    width: int
    height: int
    K: np.ndarray
    R: np.ndarray
    t: np.ndarray

    def __post_init__(self) -> None:
        for field_name, shape in (("K", (3, 3)), ("R", (3, 3)), ("t", (3,))):
            value = np.asarray(getattr(self, field_name), dtype=float)
            if value.shape != shape:
                raise ValueError(f"camera {field_name} must have shape {shape}, got {value.shape}")
            value.setflags(write=False)
            object.__setattr__(self, field_name, value)
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"camera image size must be positive, got {self.width}x{self.height}")

    # ---------------------------------------------------------------- construction
    @classmethod
    def look_at(
        cls,
        name: str,
        image_size: tuple[int, int],
        eye_mm: tuple[float, float, float],
        target_mm: tuple[float, float, float],
        up_hint: tuple[float, float, float],
        focal_px: float,
    ) -> Camera:
        """A camera at ``eye_mm`` looking at ``target_mm``; ``up_hint`` is the world direction
        that should point up in the image. The principal point is the image centre."""
        eye, target = np.asarray(eye_mm, float), np.asarray(target_mm, float)
        forward = target - eye
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.asarray(up_hint, float))
        if np.linalg.norm(right) < 1e-9:
            raise ValueError("camera up_hint is parallel to the viewing direction")
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        rotation = np.stack([right, down, forward])
        width, height = image_size
        intrinsics = np.array([[focal_px, 0.0, width / 2.0], [0.0, focal_px, height / 2.0], [0.0, 0.0, 1.0]])
        return cls(name, int(width), int(height), intrinsics, rotation, -rotation @ eye)

    @classmethod
    def overhead(
        cls,
        image_size: tuple[int, int] = (1280, 720),
        height_mm: float = 4500.0,
        margin_mm: float = 180.0,
        table: TableSpec = STANDARD_TABLE,
    ) -> Camera:
        """A camera straight above the table centre, the table's long axis along the image's
        longer side (baulk on the left or at the bottom), the table plus ``margin_mm`` filling it."""
        width, height = image_size
        cx, cy = table.width_mm / 2.0, table.length_mm / 2.0
        landscape = width >= height
        up_hint = (-1.0, 0.0, 0.0) if landscape else (0.0, 1.0, 0.0)
        along_wide = table.length_mm + 2 * margin_mm
        along_narrow = table.width_mm + 2 * margin_mm
        wide_px, narrow_px = max(width, height), min(width, height)
        focal = height_mm * min(wide_px / along_wide, narrow_px / along_narrow)
        return cls.look_at("overhead", image_size, (cx, cy, height_mm), (cx, cy, 0.0), up_hint, focal)

    @classmethod
    def broadcast(
        cls,
        image_size: tuple[int, int] = (1280, 720),
        end: str = "top",
        back_mm: float = 5500.0,
        height_mm: float = 3650.0,
        target_along_mm: float = 1400.0,
        fill: float = 0.80,
        table: TableSpec = STANDARD_TABLE,
    ) -> Camera:
        """The broadcast main camera: high behind one end, looking down the table.

        ``end="top"`` puts the camera behind the top (black-spot) cushion, as on TV (the D at the
        far end); ``end="baulk"`` behind the baulk cushion. ``back_mm`` is the horizontal distance
        behind that cushion, ``height_mm`` above the cloth, ``target_along_mm`` how far from the
        near cushion the optical axis meets the cloth; the focal length makes the table's near
        width span ``fill`` of the image height-limited frame. The defaults put the camera where
        the calibration finds the main camera of the Bucharest broadcast stills (about 5.5 m
        behind and 3.6 m above the top cushion, the table filling the frame's height).
        """
        if end not in ("top", "baulk"):
            raise ValueError(f"broadcast camera end must be 'top' or 'baulk', got {end!r}")
        width, height = image_size
        cx = table.width_mm / 2.0
        if end == "top":
            eye = (cx, table.length_mm + back_mm, height_mm)
            target = (cx, table.length_mm - target_along_mm, 0.0)
        else:
            eye = (cx, -back_mm, height_mm)
            target = (cx, target_along_mm, 0.0)
        unit = cls.look_at("broadcast", image_size, eye, target, (0.0, 0.0, 1.0), 1.0)
        corners = np.column_stack([table.corners, np.zeros(4)])
        projected = unit.project(corners)
        span_x = np.ptp(projected[:, 0])
        span_y = np.ptp(projected[:, 1])
        focal = min(fill * width / span_x, fill * height / span_y)
        return cls.look_at("broadcast", image_size, eye, target, (0.0, 0.0, 1.0), focal)

    # ---------------------------------------------------------------- geometry
    @property
    def position_mm(self) -> np.ndarray:
        """The camera centre in world mm."""
        return -self.R.T @ self.t

    @property
    def focal_px(self) -> float:
        return float(self.K[0, 0])

    def to_camera(self, xyz_mm: np.ndarray) -> np.ndarray:
        """World points (n, 3) mm → camera-frame points (n, 3) mm."""
        return np.atleast_2d(np.asarray(xyz_mm, float)) @ self.R.T + self.t

    def project(self, xyz_mm: np.ndarray) -> np.ndarray:
        """World points (n, 3) mm → pixels (n, 2). Points behind the camera give NaN."""
        cam = self.to_camera(xyz_mm)
        uvw = cam @ self.K.T
        with np.errstate(divide="ignore", invalid="ignore"):
            px = uvw[:, :2] / uvw[:, 2:3]
        px[cam[:, 2] <= 0] = np.nan
        return px

    def project_table(self, xy_mm: np.ndarray, z_mm: float | None = None, table: TableSpec = STANDARD_TABLE):
        """Table points (n, 2) mm at height ``z_mm`` (default: ball centres) → pixels (n, 2)."""
        xy = np.atleast_2d(np.asarray(xy_mm, float))
        z = table.ball_radius_mm if z_mm is None else z_mm
        return self.project(np.column_stack([xy, np.full(len(xy), z)]))

    def ball_radius_px(self, xyz_mm: np.ndarray, radius_mm: float = STANDARD_TABLE.ball_radius_mm):
        """Apparent radius (n,) px of balls centred at ``xyz_mm`` (n, 3): the half-angle of the
        sphere's silhouette cone, through the focal length."""
        cam = self.to_camera(xyz_mm)
        distance = np.linalg.norm(cam, axis=1)
        half_angle = np.arcsin(np.clip(radius_mm / distance, 0.0, 1.0))
        return self.focal_px * np.tan(half_angle)

    def homography(self, z_mm: float = 0.0) -> np.ndarray:
        """3x3 homography from table mm ``(x, y, 1)`` on the plane ``z = z_mm`` to pixels."""
        m = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z_mm + self.t])
        return m / m[2, 2]

    def pixel_rays(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Unit world directions (…, 3) of the rays through pixel centres ``(u, v)``."""
        k_inv = np.linalg.inv(self.K)
        pix = np.stack([u, v, np.ones_like(u)], axis=-1).astype(float)
        directions = pix @ (self.R.T @ k_inv).T
        return directions / np.linalg.norm(directions, axis=-1, keepdims=True)

    def calibration(self, table: TableSpec = STANDARD_TABLE) -> dict:
        """This camera as calibration JSON: what ``analyze`` reports (CONTRACTS.md §3), the full
        camera model, the homographies of the cloth and the ball-centre plane, and under
        ``table_view`` the document ``snooker.calibration.view.TableView.from_json`` loads."""
        corners = self.project_table(table.corners, z_mm=0.0)
        pockets = {
            name: self.project_table([pocket.mouth_centre], z_mm=0.0)[0].tolist()
            for name, pocket in table.pockets.items()
        }
        return {
            "schema": "snooker.synth.camera/1",
            "camera": self.name,
            "image_size": [self.width, self.height],
            "corners_px": corners.tolist(),
            "corners_order": ["baulk_left", "baulk_right", "top_right", "top_left"],
            "pockets_px": pockets,
            "homography_cloth": self.homography(0.0).tolist(),
            "homography_ball_centre": self.homography(table.ball_radius_mm).tolist(),
            "ball_radius_mm": table.ball_radius_mm,
            "K": self.K.tolist(),
            "R": self.R.tolist(),
            "t": self.t.tolist(),
            "position_mm": self.position_mm.tolist(),
            "table_view": json.loads(self.table_view(table).to_json()),
        }

    def table_view(self, table: TableSpec = STANDARD_TABLE):
        """This camera as the calibration layer's ``TableView`` (source ``"synthetic"``)."""
        import cv2

        from snooker.calibration.camera import CameraModel
        from snooker.calibration.view import TableView

        rvec = cv2.Rodrigues(np.ascontiguousarray(self.R))[0].reshape(3)
        size = (self.width, self.height)
        model = CameraModel(matrix=self.K.copy(), rvec=rvec, tvec=self.t.copy(), image_size=size)
        return TableView(camera=model, table=table, source="synthetic")

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "K": self.K.tolist(),
            "R": self.R.tolist(),
            "t": self.t.tolist(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Camera:
        return cls(data["name"], int(data["width"]), int(data["height"]), data["K"], data["R"], data["t"])
