"""A pinhole camera looking at the table, estimated from points whose table position is known.

Why a camera and not just a homography: a homography maps one plane. Ball centres sit 26.25 mm
above the cloth and the cushion tops about 40 mm; in the high end-on broadcast view the difference
between the planes is several pixels at the far cushion. A pinhole camera (intrinsics ``K``, lens
distortion, pose ``rvec``/``tvec``) maps points at any height.

Model: table frame millimetres (x, y on the cloth, z up) → camera via ``R(rvec) · X + tvec`` →
pixels via ``K`` and OpenCV's distortion model (``cv2.projectPoints``). Square pixels, no skew;
the principal point is the image centre. The focal length is estimated from the plane's
perspective (a rectangle seen obliquely fixes it: Zhang's orthogonality constraints on the
homography). Seen straight from above it is not observable, and only then does the prior focal
length (``CameraPrior.default_hfov_deg``) decide; for that view the choice barely matters, since
heights change image positions by ``h / camera height`` only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from scipy.optimize import least_squares
from scipy.spatial.transform import Rotation


@dataclass(frozen=True)
class CameraPrior:
    """What is assumed about a camera before seeing the table."""

    default_hfov_deg: float = 50.0
    """Horizontal field of view used when the view does not reveal the focal length (degrees)."""
    min_hfov_deg: float = 3.0
    """Narrowest field of view considered (a long zoom), degrees."""
    max_hfov_deg: float = 120.0
    """Widest field of view considered, degrees."""
    prior_weight: float = 2.0
    """Weight of the focal-length prior in the fit, in pixels of residual per unit of log focal."""
    observable_spread: float = 1e-4
    """Below this change of the orthogonality residual over the focal range, the view does not
    reveal the focal length (a camera looking straight down) and the default is used, fixed."""


DEFAULT_PRIOR = CameraPrior()


@dataclass(frozen=True, eq=False)
class CameraModel:
    """A pinhole camera: table mm (x, y, z up from the cloth) → image pixels.

    ``matrix``: (3, 3) intrinsics K (px); ``distortion``: (5,) OpenCV k1 k2 p1 p2 k3;
    ``rvec``/``tvec``: (3,) rotation vector and translation (mm), table frame → camera frame;
    ``image_size``: (width, height) px.
    """

    matrix: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray
    image_size: tuple[int, int]
    distortion: np.ndarray = field(default_factory=lambda: np.zeros(5))

    def __post_init__(self) -> None:
        object.__setattr__(self, "matrix", np.asarray(self.matrix, dtype=float).reshape(3, 3))
        object.__setattr__(self, "rvec", np.asarray(self.rvec, dtype=float).reshape(3))
        object.__setattr__(self, "tvec", np.asarray(self.tvec, dtype=float).reshape(3))
        object.__setattr__(self, "distortion", np.asarray(self.distortion, dtype=float).reshape(-1))
        object.__setattr__(self, "image_size", (int(self.image_size[0]), int(self.image_size[1])))
        if not np.all(np.isfinite(self.matrix)) or self.matrix[0, 0] <= 0:
            raise ValueError("camera matrix must be finite with a positive focal length")
        for name in ("rvec", "tvec", "distortion"):
            if not np.all(np.isfinite(getattr(self, name))):
                raise ValueError(f"camera {name} must be finite numbers")
        if min(self.image_size) <= 0:
            raise ValueError(f"camera image_size must be positive, got {self.image_size}")
        # pixels → plane homographies by height (mm), computed once each: the camera never changes
        object.__setattr__(self, "_plane_inverses", {})

    @property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(self.rvec)[0]

    @property
    def focal_px(self) -> float:
        return float(self.matrix[0, 0])

    @property
    def centre_mm(self) -> np.ndarray:
        """The camera's optical centre in table mm."""
        return -self.rotation.T @ self.tvec

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """The 3x3 homography from table (x, y) mm at height ``height_mm`` to undistorted pixels."""
        r = self.rotation
        h = self.matrix @ np.column_stack([r[:, 0], r[:, 1], height_mm * r[:, 2] + self.tvec])
        return h / h[2, 2]

    def project(self, xyz_mm: np.ndarray) -> np.ndarray:
        """Pixels (n, 2) of table points ``xyz_mm`` (n, 3)."""
        pts = np.asarray(xyz_mm, dtype=float).reshape(-1, 1, 3)
        if len(pts) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(pts, self.rvec, self.tvec, self.matrix, self.distortion)
        return px.reshape(-1, 2)

    def undistort(self, xy_px: np.ndarray) -> np.ndarray:
        """Remove lens distortion from pixel positions (n, 2), keeping the same camera matrix."""
        pts = np.asarray(xy_px, dtype=float).reshape(-1, 1, 2)
        if len(pts) == 0 or not np.any(self.distortion):
            return pts.reshape(-1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix).reshape(-1, 2)

    def back_project(self, xy_px: np.ndarray, height_mm: float) -> np.ndarray:
        """Table (x, y) mm (n, 2) of the points at ``height_mm`` seen at pixels ``xy_px`` (n, 2)."""
        pts = self.undistort(xy_px)
        if len(pts) == 0:
            return np.zeros((0, 2))
        inverse = self._plane_inverses.get(height_mm)
        if inverse is None:
            inverse = self._plane_inverses[height_mm] = np.linalg.inv(self.plane_homography(height_mm))
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), inverse).reshape(-1, 2)

    def moved_in_picture(self, motion: np.ndarray) -> CameraModel:
        """This camera once its picture moved by ``motion`` (2, 3): a rotation by an angle and a
        shift (frame px), mapping where a point was seen to where it is seen now.

        The picture turning is the camera rolling about its optical axis (square pixels turn about
        the principal point), and its shift is the principal point moving with the picture: exactly
        the picture's move, whatever pan or tilt of the mount caused it (a pan's slight perspective
        is left out). Lens distortion stays centred on the moved principal point."""
        motion = np.asarray(motion, dtype=float).reshape(2, 3)
        angle = math.atan2(motion[1, 0], motion[0, 0])
        cos, sin = math.cos(angle), math.sin(angle)
        roll = np.array([[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]])
        matrix = self.matrix.copy()
        matrix[:2, 2] = roll[:2, :2] @ self.matrix[:2, 2] + motion[:, 2]
        # composed as rotations, not read back from a matrix: a broadcast camera's pose turns by
        # nearly 180°, where a matrix's rotation vector loses digits
        rotation = Rotation.from_rotvec([0.0, 0.0, angle]) * Rotation.from_rotvec(self.rvec)
        return replace(self, matrix=matrix, rvec=rotation.as_rotvec(), tvec=roll @ self.tvec)

    def to_dict(self) -> dict:
        return {
            "matrix": self.matrix.tolist(),
            "distortion": self.distortion.tolist(),
            "rvec": self.rvec.tolist(),
            "tvec": self.tvec.tolist(),
            "image_size": list(self.image_size),
        }

    @classmethod
    def from_dict(cls, data: dict) -> CameraModel:
        return cls(
            matrix=np.array(data["matrix"], dtype=float),
            rvec=np.array(data["rvec"], dtype=float),
            tvec=np.array(data["tvec"], dtype=float),
            image_size=tuple(data["image_size"]),
            distortion=np.array(data.get("distortion", [0.0] * 5), dtype=float),
        )


def undistort_radial(xy_px: np.ndarray, kappa: float, image_size: tuple[int, int]) -> np.ndarray:
    """Undo one-coefficient radial distortion about the image centre, in pixels.

    The model: ``p_distorted = c + (p - c) · (1 + κ |p - c|²)`` with ``c`` the image centre and ``κ``
    in px⁻² — OpenCV's k1 for a camera of focal ``f`` is ``κ f²``.
    """
    pts = np.asarray(xy_px, dtype=float).reshape(-1, 2)
    if kappa == 0.0 or len(pts) == 0:
        return pts.copy()
    scale = np.hypot(*image_size) / 2.0
    k = intrinsics(scale, image_size)
    dist = np.array([kappa * scale**2, 0.0, 0.0, 0.0, 0.0])
    return cv2.undistortPoints(pts.reshape(-1, 1, 2), k, dist, P=k).reshape(-1, 2)


def with_radial_distortion(camera: CameraModel, kappa: float) -> CameraModel:
    """The same camera with one-coefficient radial distortion ``κ`` (px⁻², see ``undistort_radial``)."""
    dist = np.array([kappa * camera.focal_px**2, 0.0, 0.0, 0.0, 0.0])
    return CameraModel(camera.matrix, camera.rvec, camera.tvec, camera.image_size, dist)


def intrinsics(focal_px: float, image_size: tuple[int, int]) -> np.ndarray:
    """K for square pixels with the principal point at the image centre."""
    w, h = image_size
    return np.array([[focal_px, 0.0, w / 2.0], [0.0, focal_px, h / 2.0], [0.0, 0.0, 1.0]])


def focal_from_hfov(hfov_deg: float, image_width: int) -> float:
    return image_width / (2.0 * np.tan(np.radians(hfov_deg) / 2.0))


def pose_from_homography(homography: np.ndarray, matrix: np.ndarray, plane_height_mm: float = 0.0):
    """Rotation vector and translation of a camera ``matrix`` that sees plane z = h through ``homography``.

    The homography maps table (x, y) mm on that plane to pixels. Returns (rvec, tvec) with the
    table in front of the camera.
    """
    b = np.linalg.inv(matrix) @ homography
    scale = 2.0 / (np.linalg.norm(b[:, 0]) + np.linalg.norm(b[:, 1]))
    if b[2, 2] * scale < 0:
        scale = -scale
    r1, r2, t = b[:, 0] * scale, b[:, 1] * scale, b[:, 2] * scale
    r = np.column_stack([r1, r2, np.cross(r1, r2)])
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    if np.linalg.det(r) < 0:
        r = u @ np.diag([1.0, 1.0, -1.0]) @ vt
    tvec = t - plane_height_mm * r[:, 2]
    return cv2.Rodrigues(r)[0].reshape(3), tvec


def _orthogonality_residuals(
    homography: np.ndarray, focals: np.ndarray, image_size: tuple[int, int]
) -> np.ndarray:
    """How far K⁻¹H is from two orthonormal columns, for each focal length in ``focals`` (0 for the
    true one). K⁻¹ divides H's first two rows, less the principal point's share of its third, by f."""
    w, h = image_size
    centred = homography[:2, :2] - np.outer([w / 2.0, h / 2.0], homography[2, :2])
    inverse = 1.0 / np.asarray(focals, dtype=float)
    a = np.column_stack([np.outer(inverse, centred[:, 0]), np.full(len(inverse), homography[2, 0])])
    c = np.column_stack([np.outer(inverse, centred[:, 1]), np.full(len(inverse), homography[2, 1])])
    na, nc = np.linalg.norm(a, axis=1), np.linalg.norm(c, axis=1)
    return (np.sum(a * c, axis=1) / (na * nc)) ** 2 + ((na - nc) / (na + nc)) ** 2


def focal_from_homography(
    homography: np.ndarray, image_size: tuple[int, int], prior: CameraPrior = DEFAULT_PRIOR
) -> float | None:
    """The focal length (px) that makes the plane's axes orthogonal and equally scaled.

    Scans focal lengths over the prior's field-of-view range; None when the residual hardly
    changes with the focal length (a camera looking straight down: the focal is not observable).
    """
    w = image_size[0]
    focals = np.geomspace(focal_from_hfov(prior.max_hfov_deg, w), focal_from_hfov(prior.min_hfov_deg, w), 200)
    residuals = _orthogonality_residuals(homography, focals, image_size)
    best = int(np.argmin(residuals))
    spread = residuals.max() - residuals[best]
    if spread < prior.observable_spread or best in (0, len(focals) - 1):
        return None
    return float(focals[best])


def fit_camera(
    object_mm: np.ndarray,
    image_px: np.ndarray,
    image_size: tuple[int, int],
    prior: CameraPrior = DEFAULT_PRIOR,
    weights: np.ndarray | None = None,
    initial: CameraModel | None = None,
) -> tuple[CameraModel, np.ndarray]:
    """Fit focal length and pose to table points ``object_mm`` (n, 3) seen at ``image_px`` (n, 2).

    Needs n >= 4 points, not all collinear. The start comes from a homography (heights ignored)
    unless ``initial`` is given; the fit then minimises the (weighted) reprojection error with a
    weak prior on the focal length. Returns the camera and the per-point residuals (px).
    """
    obj = np.asarray(object_mm, dtype=float).reshape(-1, 3)
    img = np.asarray(image_px, dtype=float).reshape(-1, 2)
    if len(obj) < 4:
        raise ValueError(f"a camera needs at least 4 points, got {len(obj)}")
    wts = np.ones(len(obj)) if weights is None else np.asarray(weights, dtype=float)
    default_f = focal_from_hfov(prior.default_hfov_deg, image_size[0])
    start, focal_fixed = _starting_parameters(obj, img, image_size, prior, default_f, initial)
    residuals = _weighted_residuals(obj, img, wts, image_size, prior, default_f)
    p = _solve(residuals, start, focal_fixed)
    camera = CameraModel(intrinsics(np.exp(p[0]), image_size), p[1:4], p[4:7], image_size)
    per_point = np.linalg.norm(camera.project(obj) - img, axis=1)
    return camera, per_point


def _starting_parameters(
    obj: np.ndarray,
    img: np.ndarray,
    image_size: tuple[int, int],
    prior: CameraPrior,
    default_f: float,
    initial: CameraModel | None,
) -> tuple[np.ndarray, bool]:
    """Where :func:`fit_camera` starts, p = (log f, rvec, tvec), and whether the focal length stays
    fixed at the prior's default: the pose from a homography of the points (heights ignored) unless
    ``initial`` is given; the focal fixed where the homography does not show it (a camera looking
    straight down), else started from the homography's or ``initial``'s."""
    homography, _ = cv2.findHomography(obj[:, :2], img)
    if homography is None:
        raise ValueError("points are degenerate: no homography")
    observed_f = focal_from_homography(homography, image_size, prior)
    if initial is None:
        f0 = default_f if observed_f is None else observed_f
        rvec0, tvec0 = pose_from_homography(homography, intrinsics(f0, image_size), float(obj[:, 2].mean()))
    else:
        f0, rvec0, tvec0 = initial.focal_px, initial.rvec, initial.tvec
    focal_fixed = observed_f is None
    return np.concatenate([[np.log(default_f if focal_fixed else f0)], rvec0, tvec0]), focal_fixed


def _weighted_residuals(
    obj: np.ndarray,
    img: np.ndarray,
    wts: np.ndarray,
    image_size: tuple[int, int],
    prior: CameraPrior,
    default_f: float,
) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """What :func:`fit_camera` minimises: parameters p = (log f, rvec, tvec) -> (the weighted
    reprojection errors of ``obj`` against ``img`` and the focal prior's term, their Jacobian)."""
    points = obj.reshape(-1, 1, 3)
    weights_xy = np.repeat(wts, 2)
    last: list[tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]] = []

    def project(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:func:`project_at` p, or its last answer again where p is the same (the solver asks for
        the residuals and the Jacobian at each point apart, and one projection gives both)."""
        if not last or not np.array_equal(last[0][0], p):
            last[:] = [(p.copy(), project_at(p))]
        return last[0][1]

    def project_at(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The weighted residuals at parameters p = (log f, rvec, tvec) and their Jacobian
        (OpenCV's, by rvec, tvec and f: d/d log f = f (d/d fx + d/d fy))."""
        focal = np.exp(p[0])
        proj, jacobian = cv2.projectPoints(points, p[1:4], p[4:7], intrinsics(focal, image_size), None)
        err = (proj.reshape(-1, 2) - img) * wts[:, None]
        residual = np.concatenate([err.ravel(), [prior.prior_weight * (p[0] - np.log(default_f))]])
        by_log_f = focal * (jacobian[:, 6] + jacobian[:, 7])
        jac = np.zeros((len(residual), 7))
        jac[:-1, 0] = by_log_f * weights_xy
        jac[:-1, 1:] = jacobian[:, :6] * weights_xy[:, None]
        jac[-1, 0] = prior.prior_weight
        return residual, jac

    return project


def _solve(
    project: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], start: np.ndarray, focal_fixed: bool
) -> np.ndarray:
    """The parameters that minimise ``project``'s residuals from ``start`` (Levenberg-Marquardt); with
    the focal length fixed, over the pose alone."""
    if not focal_fixed:
        return least_squares(
            lambda q: project(q)[0], start, jac=lambda q: project(q)[1], method="lm", x_scale="jac"
        ).x

    def with_focal(q: np.ndarray) -> np.ndarray:
        return np.concatenate([start[:1], q])

    pose = least_squares(
        lambda q: project(with_focal(q))[0],
        start[1:],
        jac=lambda q: project(with_focal(q))[1][:, 1:],
        method="lm",
        x_scale="jac",
    ).x
    return np.concatenate([start[:1], pose])
