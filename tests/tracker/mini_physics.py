"""A small event-driven 2-D snooker physics for tracker tests: rolling with constant deceleration
(velocity held constant over short intervals), elastic collisions of equal balls solved exactly in
time, cushions with restitution, pockets that swallow balls.

Not a replacement for the synthetic-footage generator: it exists so the stroke-event finder can be
scored on many random shots with exact truth (who the cue ball hit first, what was potted) from
detections alone, in well under a second per shot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from snooker.calibration.table import STANDARD_TABLE

TABLE = STANDARD_TABLE
R = TABLE.ball_radius_mm
D = TABLE.ball_diameter_mm
MOUTHS = np.array([p.mouth_centre for p in TABLE.pockets.values()])
POCKETS = list(TABLE.pockets)
LOW = np.array([R, R])
SIMULTANEOUS_GAP_MM = 0.5
"""Balls this close to touching the cue ball when it hits another are hit at the same time."""
HIGH = np.array([TABLE.width_mm - R, TABLE.length_mm - R])


@dataclass(frozen=True)
class PhysicsConfig:
    substeps_per_frame: int = 3
    """Velocities are held constant over 1/(fps·substeps) s; events inside are solved exactly."""
    deceleration_mm_s2: float = 400.0
    cushion_restitution: float = 0.8
    pocket_radius_mm: float = 45.0
    """A ball whose centre passes this close to a pocket's mouth centre drops."""
    simultaneous_s: float = 0.002
    max_time_s: float = 6.0
    fps: float = 30.0
    rest_speed_mm_s: float = 5.0


@dataclass
class Shot:
    labels: list[str]
    samples_t: np.ndarray
    samples_xy: np.ndarray
    """(frames, balls, 2) mm, NaN once a ball is potted."""
    first_contact: tuple[str, ...]
    potted: dict[str, str] = field(default_factory=dict)


def simulate(
    labels: list[str],
    xy: np.ndarray,
    cue_velocity: np.ndarray,
    config: PhysicsConfig | None = None,
    rest_before_s: float = 0.5,
    rest_after_s: float = 1.2,
) -> Shot:
    """Strike ball 0 (the cue ball) with ``cue_velocity`` mm/s at ``rest_before_s``; sample at fps."""
    cfg = config or PhysicsConfig()
    pos = np.array(xy, dtype=float)
    vel = np.zeros_like(pos)
    vel[0] = cue_velocity
    alive = np.ones(len(pos), dtype=bool)
    first: list[tuple[float, int]] = []
    potted: dict[str, str] = {}
    frame_dt = 1.0 / cfg.fps
    step = frame_dt / cfg.substeps_per_frame
    samples = [pos.copy() for _ in range(round(rest_before_s * cfg.fps))]
    t, still_for, k = 0.0, 0.0, 0
    while t < cfg.max_time_s and still_for < rest_after_s:
        _advance(pos, vel, alive, step, t, first, potted, labels, cfg)
        t += step
        speed = np.linalg.norm(vel, axis=1)
        slow = np.maximum(speed - cfg.deceleration_mm_s2 * step, 0.0)
        slow[slow < cfg.rest_speed_mm_s] = 0.0
        vel *= np.where(speed > 0, slow / np.maximum(speed, 1e-12), 0.0)[:, None]
        still_for = still_for + step if not np.any(vel[alive]) else 0.0
        k += 1
        if k % cfg.substeps_per_frame == 0:
            samples.append(np.where(alive[:, None], pos, np.nan))
    samples_xy = np.array(samples)
    contacts: tuple[str, ...] = ()
    if first:
        t_first = first[0][0]
        contacts = tuple(labels[j] for tt, j in first if tt - t_first <= cfg.simultaneous_s)
    return Shot(labels, np.arange(len(samples_xy)) * frame_dt, samples_xy, contacts, potted)


def _advance(pos, vel, alive, duration, t0, first, potted, labels, cfg) -> None:
    """Move the balls for ``duration`` s at constant velocity, resolving events in time order."""
    left = duration
    for _ in range(64):
        s, event = _next_event(pos, vel, alive, left)
        if event is None:
            _move(pos, vel, alive, left, potted, labels, cfg)
            return
        _move(pos, vel, alive, s, potted, labels, cfg)
        left -= s
        kind, i, j = event
        if not (alive[i] and (kind == "cushion" or alive[j])):
            continue
        if kind == "ball":
            n = (pos[j] - pos[i]) / np.linalg.norm(pos[j] - pos[i])
            approach = float((vel[i] - vel[j]) @ n)
            if approach > 0:
                if 0 in (i, j):
                    # Every ball the cue ball touches at this instant is hit at the same time.
                    t_hit = t0 + duration - left
                    gaps = np.linalg.norm(pos - pos[0], axis=1)
                    for other in np.flatnonzero(alive & (gaps <= D + SIMULTANEOUS_GAP_MM)):
                        fresh = int(other) not in [o for _, o in first]
                        if other != 0 and fresh and (not first or t_hit - first[0][0] <= cfg.simultaneous_s):
                            first.append((t_hit, int(other)))
                vel[i] -= approach * n
                vel[j] += approach * n
        else:
            vel[i, j] *= -cfg.cushion_restitution


def _next_event(pos, vel, alive, horizon):
    """Earliest ball-ball contact or cushion hit within ``horizon`` s: (s, (kind, i, j)) or (None, None)."""
    idx = np.flatnonzero(alive)
    best_s, best = horizon, None
    p = pos[idx][None, :, :] - pos[idx][:, None, :]
    v = vel[idx][None, :, :] - vel[idx][:, None, :]
    a = np.einsum("ijk,ijk->ij", v, v)
    b = 2.0 * np.einsum("ijk,ijk->ij", p, v)
    c = np.einsum("ijk,ijk->ij", p, p) - D * D
    disc = b * b - 4.0 * a * c
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (-b - np.sqrt(np.maximum(disc, 0.0))) / (2.0 * a)
    ok = np.triu((a > 0) & (b < 0) & (disc >= 0) & (s >= -1e-9) & (s <= best_s), 1)
    if ok.any():
        s_ok = np.where(ok, s, np.inf)
        a_i, b_j = np.unravel_index(int(np.argmin(s_ok)), s_ok.shape)
        best_s, best = max(float(s_ok[a_i, b_j]), 0.0), ("ball", int(idx[a_i]), int(idx[b_j]))
    for axis in range(2):
        with np.errstate(divide="ignore", invalid="ignore"):
            low = np.where(vel[idx, axis] < 0, (LOW[axis] - pos[idx, axis]) / vel[idx, axis], np.inf)
            high = np.where(vel[idx, axis] > 0, (HIGH[axis] - pos[idx, axis]) / vel[idx, axis], np.inf)
        hit = np.minimum(np.maximum(low, 0.0), np.maximum(high, 0.0))
        k = int(np.argmin(hit)) if len(hit) else 0
        if len(hit) and hit[k] < best_s:
            best_s, best = float(hit[k]), ("cushion", int(idx[k]), axis)
    return best_s, best


def _move(pos, vel, alive, s, potted, labels, cfg) -> None:
    """Advance by ``s`` s; a ball whose path passes a pocket mouth drops into it."""
    start = pos.copy()
    pos += np.where(alive[:, None], vel * s, 0.0)
    for i in np.flatnonzero(alive & np.any(vel != 0, axis=1)):
        seg = pos[i] - start[i]
        u = np.clip(((MOUTHS - start[i]) @ seg) / max(float(seg @ seg), 1e-12), 0.0, 1.0)
        d = np.linalg.norm(start[i] + u[:, None] * seg - MOUTHS, axis=1)
        if d.min() <= cfg.pocket_radius_mm:
            alive[i] = False
            vel[i] = 0.0
            potted[labels[i]] = POCKETS[int(np.argmin(d))]
