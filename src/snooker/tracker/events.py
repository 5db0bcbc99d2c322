"""Stroke events read from trajectories in table mm: first contact, cushion contacts, touching.

Trajectories are (n, 2) arrays of table mm sampled at the frame times ``t`` (n,) seconds, NaN
where the ball was not seen (gaps are interpolated; a ball hidden throughout is skipped).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from snooker.calibration.table import TableSpec
from snooker.tracker.config import StrokeConfig


@dataclass(frozen=True)
class Contact:
    """The cue ball reached ``label`` at time ``t`` (s) with closest approach ``distance_mm``."""

    label: str
    t: float
    distance_mm: float
    cue_xy: tuple[float, float] = (math.nan, math.nan)
    """Where the cue ball's centre was at the contact (mm)."""
    impulse: tuple[float, float] = (math.nan, math.nan)
    """The cue ball's velocity lost in the contact (mm/s): the direction the struck ball set off in
    (equal masses; spin acts only later). NaN where the path around the contact is too short."""


def fill_gaps(t: np.ndarray, path: np.ndarray) -> np.ndarray | None:
    """``path`` with NaN rows linearly interpolated in time (ends held); None if never seen."""
    seen = np.isfinite(path).all(axis=1)
    if not seen.any():
        return None
    if seen.all():
        return path.astype(float)
    out = np.empty_like(path, dtype=float)
    for axis in range(2):
        out[:, axis] = np.interp(t, t[seen], path[seen, axis])
    return out


def _segment_entry(c0: np.ndarray, c1: np.ndarray, p: np.ndarray, radius: float) -> tuple[float, float]:
    """Closest distance from ``p`` to segment c0→c1, and the segment parameter u ∈ [0, 1] where the
    moving point first comes within ``radius`` of ``p`` (or of closest approach if it never does)."""
    d = c1 - c0
    dd = float(d @ d)
    if dd == 0.0:
        return float(np.linalg.norm(p - c0)), 0.0
    u_close = float(np.clip((p - c0) @ d / dd, 0.0, 1.0))
    closest = float(np.linalg.norm(c0 + u_close * d - p))
    if closest > radius:
        return closest, u_close
    f = c0 - p
    b, c = 2.0 * float(f @ d), float(f @ f) - radius * radius
    disc = max(b * b - 4.0 * dd * c, 0.0)
    u_enter = (-b - math.sqrt(disc)) / (2.0 * dd)
    return closest, float(np.clip(u_enter, 0.0, u_close))


def _first_segment_within(
    cue: np.ndarray, p: np.ndarray, onset: int, diameter: float, config: StrokeConfig
) -> tuple[int, float, float] | None:
    """The first step of the cue ball's path (index k: from k-1 to k, up to ``onset``) that came
    within a diameter plus the tight tolerance of ``p``; failing that, the first within the loose
    tolerance where the path turned. Returns (k, closest distance, entry parameter) or None."""
    loose_hit = None
    for k in range(1, onset + 1):
        closest, u = _segment_entry(cue[k - 1], cue[k], p, diameter)
        if closest <= diameter + config.contact_tolerance_mm:
            return k, closest, u
        if (
            loose_hit is None
            and closest <= diameter + config.contact_tolerance_with_deflection_mm
            and _deflection_deg(cue, k) >= config.min_deflection_deg
        ):
            loose_hit = (k, closest, u)
    return loose_hit


def _velocity_lost(t: np.ndarray, path: np.ndarray, k: int, span: int) -> np.ndarray:
    """Velocity into frame ``k`` minus velocity from frame ``k + 1`` on (mm/s), each over up to
    ``span`` frames (a one-frame step carries a position's whole error); NaN near the ends."""
    back, ahead = min(span, k), min(span, len(path) - 2 - k)
    if back < 1 or ahead < 1:
        return np.array([math.nan, math.nan])
    before = (path[k] - path[k - back]) / (t[k] - t[k - back])
    after = (path[k + 1 + ahead] - path[k + 1]) / (t[k + 1 + ahead] - t[k + 1])
    return before - after


def _deflection_deg(path: np.ndarray, k: int) -> float:
    """Angle between the cue ball's step into frame ``k`` and its step two frames later."""
    if k < 1 or k + 2 >= len(path):
        return 0.0
    before, after = path[k] - path[k - 1], path[k + 2] - path[k + 1]
    nb, na = np.linalg.norm(before), np.linalg.norm(after)
    if nb == 0.0 or na == 0.0:
        return 180.0 if nb > 0.0 else 0.0
    return math.degrees(math.acos(float(np.clip(before @ after / (nb * na), -1.0, 1.0))))


def first_contacts(
    t: np.ndarray,
    cue_path: np.ndarray,
    paths: dict[str, np.ndarray],
    rest: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> tuple[Contact, ...]:
    """The ball(s) the cue ball hit first: each object ball that started moving right after the
    cue ball's path came within a diameter (plus tolerance) of where it rested. Balls reached within
    ``simultaneous_window_s`` of the earliest are hit at the same time."""
    cue = fill_gaps(t, cue_path)
    if cue is None:
        return ()
    diameter = table.ball_diameter_mm
    contacts: list[Contact] = []
    observed: dict[str, bool] = {}  # the cue ball seen at both ends of the step that reached the ball
    for label, raw in paths.items():
        if label not in rest:
            continue
        p = np.asarray(rest[label], dtype=float)
        seen = np.isfinite(raw).all(axis=1)
        displaced = seen & (
            np.linalg.norm(np.where(seen[:, None], raw, p) - p, axis=1) > config.onset_displacement_mm
        )
        if displaced.any():
            onset = int(np.flatnonzero(displaced)[0])
        elif seen.any() and not seen[-1]:
            onset = int(np.flatnonzero(seen)[-1]) + 1  # it vanished (in a pocket or out of sight)
        else:
            continue
        at_rest_before = np.flatnonzero(seen[:onset])
        last_rest = int(at_rest_before[-1]) if len(at_rest_before) else 0
        # A ball hidden when it was hit started moving somewhere in the hidden stretch.
        allowed_delay = (
            config.max_onset_delay_s
            + float(t[onset] - t[last_rest])
            - float(t[onset] - t[onset - 1] if onset else 0.0)
        )
        reach = int(np.searchsorted(t, t[onset] + config.max_onset_lead_s, side="right")) - 1
        hit = _first_segment_within(cue, p, min(max(reach, onset), len(cue) - 1), diameter, config)
        if hit is None:
            continue
        k, closest, u = hit
        t_contact = float(t[k - 1] + u * (t[k] - t[k - 1]))
        if -config.max_onset_lead_s <= t[onset] - t_contact <= allowed_delay:
            at = cue[k - 1] + u * (cue[k] - cue[k - 1])
            lost = _velocity_lost(t, cue, k, config.impulse_span_frames)
            contacts.append(
                Contact(
                    label, t_contact, closest, (float(at[0]), float(at[1])), (float(lost[0]), float(lost[1]))
                )
            )
            observed[label] = bool(np.isfinite(cue_path[k - 1]).all() and np.isfinite(cue_path[k]).all())
    contacts.sort(key=lambda c: (c.t, c.distance_mm))
    if not contacts or not observed[contacts[0].label]:
        # The cue ball's path there is a guess: trust the balls that moved first instead, unless
        # the guess names one of them.
        movers, mover = _first_movers(t, cue_path, paths, rest, config)
        earliest = [c.label for c in contacts if c.t - contacts[0].t <= config.simultaneous_window_s]
        if mover is not None and not set(earliest) & set(movers):
            return (mover,)
    if not contacts:
        return ()
    earliest = contacts[0].t
    return tuple(c for c in contacts if c.t - earliest <= config.simultaneous_window_s)


def _first_movers(
    t: np.ndarray,
    cue_path: np.ndarray,
    paths: dict[str, np.ndarray],
    rest: dict[str, np.ndarray],
    config: StrokeConfig,
) -> tuple[list[str], Contact | None]:
    """The balls that moved first, and the one the cue ball hit among them, for a cue ball not seen
    where it hit it (a power shot blurs it out of sight): in a stroke the first balls to move are
    the one the cue ball hit and those it drove into at once; the hit one is taken to be the one
    that rested nearest the cue ball's last sighting. Only clear departures count: away from rest
    by twice the onset displacement on ``steady_sighting_frames`` sightings in a row (not the
    jitter of a ball under the player's arm)."""
    onsets: dict[str, int] = {}
    for label, raw in paths.items():
        if label not in rest:
            continue
        p = np.asarray(rest[label], dtype=float)
        seen = np.isfinite(raw).all(axis=1)
        away = seen & (
            np.linalg.norm(np.where(seen[:, None], raw, p) - p, axis=1) > 2.0 * config.onset_displacement_mm
        )
        run = np.convolve(away.astype(int), np.ones(config.steady_sighting_frames, int), mode="valid")
        starts = np.flatnonzero(run == config.steady_sighting_frames)
        if len(starts):
            onsets[label] = int(starts[0])
    if not onsets:
        return [], None
    first = min(onsets.values())
    movers = [label for label, k in onsets.items() if t[k] - t[first] <= config.simultaneous_window_s]
    cue_seen = np.flatnonzero(np.isfinite(cue_path[: first + 1]).all(axis=1))
    if not len(cue_seen):
        return movers, None
    last_cue = cue_path[cue_seen[-1]]
    label = min(movers, key=lambda b: float(np.linalg.norm(np.asarray(rest[b], dtype=float) - last_cue)))
    return movers, Contact(label, float(t[first]), math.nan)


def pocket_ahead(
    start: np.ndarray, direction: np.ndarray, table: TableSpec, max_angle_deg: float
) -> str | None:
    """The pocket a ball sent from ``start`` along ``direction`` heads for: the pocket whose mouth
    lies closest in angle to the direction, if within ``max_angle_deg`` (None otherwise)."""
    norm = float(np.linalg.norm(direction))
    if norm == 0.0 or not np.all(np.isfinite(direction)):
        return None
    u = np.asarray(direction, dtype=float) / norm
    best, best_angle = None, max_angle_deg
    for name, pocket in table.pockets.items():
        to_mouth = np.array(pocket.mouth_centre) - start
        distance = float(np.linalg.norm(to_mouth))
        if distance == 0.0:
            continue
        angle = math.degrees(math.acos(float(np.clip(to_mouth @ u / distance, -1.0, 1.0))))
        if angle <= best_angle:
            best, best_angle = name, angle
    return best


def cushion_contacts(
    t: np.ndarray, path: np.ndarray, config: StrokeConfig, table: TableSpec
) -> list[tuple[str, int]]:
    """(cushion name, index) for each time the ball came within a radius plus tolerance of a
    cushion nose while its motion towards that cushion reversed."""
    filled = fill_gaps(t, path)
    if filled is None or len(filled) < 3:
        return []
    reach = table.ball_radius_mm + config.cushion_tolerance_mm
    x, y = filled[:, 0], filled[:, 1]
    half = table.length_mm / 2.0
    rails = (
        ("baulk", y, lambda k: "baulk"),
        ("top", table.length_mm - y, lambda k: "top"),
        ("left", x, lambda k: "left_lower" if y[k] < half else "left_upper"),
        ("right", table.width_mm - x, lambda k: "right_lower" if y[k] < half else "right_upper"),
    )
    dt = float(np.median(np.diff(t))) if len(t) > 1 else 1.0
    window = max(1, round(config.cushion_window_s / max(dt, 1e-6)))
    out = []
    for _rail, gap, name_at in rails:
        for k in range(1, len(gap) - 1):
            if gap[k] > reach or gap[k] > gap[k - 1] or gap[k] > gap[k + 1]:
                continue
            came_in = float(np.max(gap[max(0, k - window) : k])) - gap[k]
            went_out = float(np.max(gap[k + 1 : k + 1 + window])) - gap[k]
            if came_in >= config.cushion_rebound_mm and went_out >= config.cushion_rebound_mm:
                out.append((name_at(k), k))
    out.sort(key=lambda item: item[1])
    return out


def touching(
    cue_xy: np.ndarray | None, others: dict[str, np.ndarray], config: StrokeConfig, table: TableSpec
) -> tuple[str, ...]:
    """Labels of the balls within a diameter plus tolerance of the cue ball (all at rest)."""
    if cue_xy is None:
        return ()
    limit = table.ball_diameter_mm + config.touching_tolerance_mm
    near = [
        (float(np.linalg.norm(np.asarray(xy) - cue_xy)), label)
        for label, xy in others.items()
        if np.linalg.norm(np.asarray(xy) - cue_xy) <= limit
    ]
    return tuple(label for _, label in sorted(near))
