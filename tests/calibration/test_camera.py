"""The camera fit: the vectorised focal scan and the analytic Jacobian give the camera they did."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.camera import _orthogonality_residuals, fit_camera, intrinsics
from snooker.calibration.synthetic import broadcast_camera, overhead_camera


def _explicit_residual(homography: np.ndarray, focal: float, image_size: tuple[int, int]) -> float:
    b = np.linalg.inv(intrinsics(focal, image_size)) @ homography
    a, c = b[:, 0], b[:, 1]
    na, nc = np.linalg.norm(a), np.linalg.norm(c)
    return float((a @ c / (na * nc)) ** 2 + ((na - nc) / (na + nc)) ** 2)


@pytest.mark.parametrize("seed", range(5))
def test_orthogonality_residuals_equal_the_inverse_intrinsics_form(seed: int) -> None:
    rng = np.random.default_rng(seed)
    homography = rng.normal(size=(3, 3))
    focals = np.geomspace(300.0, 5000.0, 40)
    size = (1280, 720)
    expected = [_explicit_residual(homography, f, size) for f in focals]
    np.testing.assert_allclose(_orthogonality_residuals(homography, focals, size), expected, rtol=1e-9)


def _table_points(rng: np.random.Generator, n: int) -> np.ndarray:
    xy = rng.uniform([0.0, 0.0], [1778.0, 3569.0], size=(n, 2))
    z = rng.choice([0.0, 26.25, 40.0], size=(n, 1))
    return np.hstack([xy, z])


@pytest.mark.parametrize(
    ("camera", "focal_free"),
    [
        (broadcast_camera(), True),
        (broadcast_camera(focal_px=1500.0, distance_mm=4000.0), True),
        (overhead_camera(), False),
    ],
    ids=["broadcast", "broadcast-zoomed", "overhead-focal-fixed"],
)
def test_fit_camera_recovers_the_camera_that_saw_the_points(camera, focal_free: bool) -> None:
    rng = np.random.default_rng(3)
    points = _table_points(rng, 12)
    seen = camera.project(points)
    fitted, residual = fit_camera(points, seen, camera.image_size)
    if focal_free:
        assert np.max(residual) < 0.05
        assert fitted.focal_px == pytest.approx(camera.focal_px, rel=0.01)
    else:
        # Straight down the focal is not observable and the prior's is kept: the pose absorbs it,
        # leaving only the points' heights (≤ 40 mm of a 4.5 m drop) a fraction of a pixel off.
        assert fitted.focal_px != pytest.approx(camera.focal_px, rel=0.01)
        assert np.max(residual) < 0.5
    np.testing.assert_allclose(fitted.project(points), seen, atol=np.max(residual) + 1e-9)


@pytest.mark.parametrize("camera", [broadcast_camera(), overhead_camera()], ids=["focal-free", "focal-fixed"])
def test_fit_camera_projects_each_trial_pose_once(camera, monkeypatch) -> None:
    import snooker.calibration.camera as module

    poses: list[tuple[float, ...]] = []
    project_points = module.cv2.projectPoints

    def counted(points, rvec, tvec, matrix, distortion):
        poses.append((*np.ravel(rvec), *np.ravel(tvec), float(matrix[0, 0])))
        return project_points(points, rvec, tvec, matrix, distortion)

    monkeypatch.setattr(module.cv2, "projectPoints", counted)
    points = _table_points(np.random.default_rng(5), 12)
    fit_camera(points, camera.project(points), camera.image_size)
    trials = poses[:-1]  # the last projects the fitted camera for its residuals
    assert len(trials) > 3 and len(set(trials)) == len(trials)
