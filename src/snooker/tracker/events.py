"""Stroke events read from trajectories in table mm: first contact, cushion contacts, touching.

Trajectories are (n, 2) arrays of table mm sampled at the frame times ``t`` (n,) seconds, NaN
where the ball was not seen (gaps are interpolated; a ball hidden throughout is skipped).

A ball at rest when the stroke began is hit where the cue ball's path reaches its resting place
just before it sets off. A ball still running from the stroke before (a stroke played while balls
move), or set off by one, is hit where the two centres meet at the same moment.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from snooker.balls import CUE_BALL
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


_JUMP_SIGHTINGS = 2
"""A corrected centre reaches its place on the first sighting after the ball left, or the second
(one frame may still show the blobs half merged): see :func:`_centre_jumped`."""


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


def segment_entry(c0: np.ndarray, c1: np.ndarray, p: np.ndarray, radius: float) -> tuple[float, float]:
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
        closest, u = segment_entry(cue[k - 1], cue[k], p, diameter)
        if closest <= diameter + config.contact_tolerance_mm:
            return k, closest, u
        if (
            loose_hit is None
            and closest <= diameter + config.contact_tolerance_with_deflection_mm
            and _deflection_deg(cue, k) >= config.min_deflection_deg
        ):
            loose_hit = (k, closest, u)
    return loose_hit


def _set_off_away_from(
    t: np.ndarray, path: np.ndarray, rest: np.ndarray, onset: int, cue_at: np.ndarray, config: StrokeConfig
) -> bool:
    """Whether a ball that left ``rest`` at index ``onset`` set off away from the cue ball's centre
    ``cue_at`` (the half-plane beyond the line of centres; a struck ball leaves along it, away from
    the cue ball). Its heading is its sighting farthest from rest within ``departure_heading_s``
    of leaving. A ball seen no more after leaving (into a pocket) is not judged."""
    heading = _farthest_heading(t, path, rest, onset, config)
    return heading is None or _cosine(heading, rest - cue_at) > 0.0


def _farthest_heading(
    t: np.ndarray, path: np.ndarray, rest: np.ndarray, onset: int, config: StrokeConfig
) -> np.ndarray | None:
    """The offset from ``rest`` of a ball's sighting farthest from it within
    ``departure_heading_s`` of leaving at index ``onset`` (None if it is not seen then)."""
    seen = np.isfinite(path).all(axis=1)
    window = seen & (t >= t[onset]) & (t <= t[onset] + config.departure_heading_s)
    if not window.any():
        return None
    offsets = path[window] - rest
    return offsets[int(np.argmax(np.linalg.norm(offsets, axis=1)))]


def run_max_turn_deg(
    rest: np.ndarray,
    course: np.ndarray,
    others: Collection[np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> float:
    """How far (deg) a ball struck at ``rest`` (2, mm) along ``course`` (2, mm, not unit) may run
    off that course: ``pressed_run_max_turn_deg`` where it rested touching one of the balls at rest
    ``others`` (each (2,) mm) ahead of it (no farther apart than a diameter plus
    ``touching_tolerance_mm``, on the side ``course`` points to: the blow is shared with it), else
    ``vanished_run_max_turn_deg`` (a ball alone leaves along the line of centres, turned by throw)."""
    reach = table.ball_diameter_mm + config.touching_tolerance_mm
    if np.all(np.isfinite(course)):
        for other in others:
            to_other = np.asarray(other, dtype=float) - rest
            distance = float(np.linalg.norm(to_other))
            if 0.0 < distance <= reach and float(to_other @ course) > 0.0:
                return config.pressed_run_max_turn_deg
    return config.vanished_run_max_turn_deg


def off_course_mask(
    xy: np.ndarray,
    rest: np.ndarray,
    course: np.ndarray,
    config: StrokeConfig,
    max_turn_deg: float | None = None,
) -> np.ndarray:
    """(n,) which of a ball's sightings ``xy`` (n, 2 mm; NaN unseen) lie away from where it rested
    (``rest``) farther than ``clear_departure_mm`` and more than ``max_turn_deg`` (default
    ``vanished_run_max_turn_deg``; see :func:`run_max_turn_deg`) off the ``course`` it was struck
    on, seen from ``rest``."""
    length = float(np.linalg.norm(course))
    if length == 0.0 or not np.all(np.isfinite(course)):
        return np.zeros(len(xy), dtype=bool)
    limit = config.vanished_run_max_turn_deg if max_turn_deg is None else max_turn_deg
    seen = np.isfinite(xy).all(axis=1)
    away = np.where(seen[:, None], xy, rest) - rest
    cosine = (away @ course) / np.maximum(np.linalg.norm(away, axis=1) * length, 1e-9)
    turned = np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))) > limit
    return away_from_rest(xy, rest, config.clear_departure_mm) & turned


def off_course(
    xy: np.ndarray,
    rest: np.ndarray,
    course: np.ndarray,
    config: StrokeConfig,
    max_turn_deg: float | None = None,
) -> bool:
    """Whether a hit ball's first sighting away from ``rest``, ``xy`` (2, mm), is no sighting of
    it: off the ``course`` it was struck on (by more than ``max_turn_deg``: see
    :func:`off_course_mask`) and farther than ``off_course_unseen_mm`` from its place, never seen
    on its way (see ``StrokeConfig.off_course_unseen_mm``)."""
    if float(np.linalg.norm(xy - rest)) <= config.off_course_unseen_mm:
        return False
    return bool(off_course_mask(xy[None], rest, course, config, max_turn_deg)[0])


def unseen_on_its_way(
    path: np.ndarray,
    first: int,
    rest: np.ndarray,
    course: np.ndarray,
    config: StrokeConfig,
    max_turn_deg: float | None = None,
) -> bool:
    """Whether a hit ball whose sightings are ``path`` (n, 2 mm; NaN unseen), first away from
    ``rest`` at index ``first``, was not seen on its way: that sighting is :func:`off_course`, and
    so is every one of its next sightings away from its place, up to ``off_course_sightings`` in
    all. One of them on its course is the ball seen on its way, and a stray one off it another
    thing its track was given for a frame (the white's blurred blob named red as it runs among the
    reds of a split pack), no ghost taking the track over."""
    if not off_course(path[first], rest, course, config, max_turn_deg):
        return False
    later = path[first + 1 :]
    away = later[away_from_rest(later, rest, config.clear_departure_mm)]
    judged = away[: config.off_course_sightings - 1]
    return bool(off_course_mask(judged, rest, course, config, max_turn_deg).all())


def _back_at_rest(path: np.ndarray, rest: np.ndarray, config: StrokeConfig) -> bool:
    """Whether a ball is seen where it rested at the end of ``path``: its last
    ``steady_sighting_frames`` sightings, the last on the path's last frame, all within
    ``passed_by_return_mm`` of ``rest``."""
    seen = np.isfinite(path).all(axis=1)
    if not seen[-1]:
        return False
    last = path[np.flatnonzero(seen)[-config.steady_sighting_frames :]]
    return bool(np.all(np.linalg.norm(last - rest, axis=1) <= config.passed_by_return_mm))


def _settled_rest(path: np.ndarray, rest: np.ndarray, config: StrokeConfig) -> tuple[np.ndarray, int]:
    """Where a ball rests by the time it is set off, and from which index of ``path`` on: ``rest``
    from the start, moved each time its measured centre
    left it in one step and then stood still (``steady_sighting_frames`` sightings in a row within
    ``passed_by_return_mm`` of their median, a step of at most ``centre_jump_max_mm``). Detected
    again with another window or a neighbour's blob nearby, a resting ball's centre can shift by a
    pixel or two (11 mm at a broadcast's far end) and stay: read from the old place, that ball
    "set off" long before the cue ball came, and its contact was refused (Task2 clip 8's red)."""
    settled, start = rest, 0
    seen = np.isfinite(path).all(axis=1)
    n = config.steady_sighting_frames
    while True:
        k = departure_index(path[start:], settled, config.onset_displacement_mm, 1)
        if k is None:
            return settled, start
        k += start
        after = np.flatnonzero(seen[k:])[:n] + k
        if len(after) < n:
            return settled, start
        plateau = np.median(path[after], axis=0)
        steady = np.linalg.norm(path[after] - plateau, axis=1).max() <= config.passed_by_return_mm
        if not steady or np.linalg.norm(plateau - settled) > config.centre_jump_max_mm:
            return settled, start
        settled, start = plateau, k


def _centre_jumped(path: np.ndarray, rest: np.ndarray, onset: int, config: StrokeConfig) -> bool:
    """Whether a ball's measured centre moved off ``rest`` at ``onset`` in one jump and no farther
    (``StrokeConfig.centre_jump_max_mm``): seen on at least ``steady_sighting_frames`` frames from
    ``onset`` on, the last on the path's last frame, the first two no farther from ``rest`` than
    ``centre_jump_max_mm`` and the later ones, as a rule (their median), no farther than those by
    more than a centre's jitter (``passed_by_return_mm``)."""
    seen = np.isfinite(path).all(axis=1)
    if not seen[-1]:
        return False
    after = path[onset:][seen[onset:]]
    if len(after) < config.steady_sighting_frames:
        return False
    away = np.linalg.norm(after - rest, axis=1)
    jump = float(away[:_JUMP_SIGHTINGS].max())
    later = float(np.median(away[_JUMP_SIGHTINGS:])) if len(away) > _JUMP_SIGHTINGS else jump
    return bool(jump <= config.centre_jump_max_mm and later <= jump + config.passed_by_return_mm)


def _velocity_lost(t: np.ndarray, path: np.ndarray, k: int, span: int) -> np.ndarray:
    """The cue ball's velocity lost in a contact found between frames ``k - 1`` and ``k`` (mm/s):
    :func:`_velocity_change` at the frame, of ``k - 1``, ``k`` and ``k + 1``, where the change is
    largest. The contact's frame is found from centres a pixel or two off, and may be one early or
    late; chords that straddle the contact share its change between them and turn the direction
    (by ~20 degrees, Task2 clip 6 at 1080 lines), while the frame where the path's two straight
    runs meet loses the most. NaN where none can be measured."""
    best = np.array([math.nan, math.nan])
    for at in (k - 1, k, k + 1):
        change = _velocity_change(t, path, at, span)
        if np.all(np.isfinite(change)) and not (np.linalg.norm(change) <= np.linalg.norm(best)):
            best = change
    return best


def _velocity_change(t: np.ndarray, path: np.ndarray, k: int, span: int) -> np.ndarray:
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
    running_from_before: Collection[str] = (),
) -> tuple[Contact, ...]:
    """The ball(s) the cue ball hit first: each object ball that started moving right after the
    cue ball's path came within a diameter (plus tolerance) of where it rested, or one of
    ``running_from_before`` (balls still running from the stroke before, in a stroke played while
    they ran) or set off by one of those, where the two met. Balls reached within
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
        p, settled_at = _settled_rest(raw, np.asarray(rest[label], dtype=float), config)
        seen = np.isfinite(raw).all(axis=1)
        departure = departure_index(raw[settled_at:], p, config.onset_displacement_mm, 1)
        if departure is not None:
            onset = departure + settled_at
        elif seen.any() and not seen[-1]:
            onset = int(np.flatnonzero(seen)[-1]) + 1  # it vanished (in a pocket or out of sight)
        else:
            continue
        at_rest_before = np.flatnonzero(seen[:onset])
        last_rest = int(at_rest_before[-1]) if len(at_rest_before) else 0
        reach = int(np.searchsorted(t, t[onset] + config.max_onset_lead_s, side="right")) - 1
        hit = _first_segment_within(cue, p, min(max(reach, onset), len(cue) - 1), diameter, config)
        if hit is None:
            continue
        k, closest, u = hit
        t_contact = float(t[k - 1] + u * (t[k] - t[k - 1]))
        at = cue[k - 1] + u * (cue[k] - cue[k - 1])
        others = [np.asarray(xy, dtype=float) for other, xy in rest.items() if other != label]
        turn = run_max_turn_deg(p, p - at, others, config, table)
        if departure is not None and unseen_on_its_way(raw, onset, p, p - at, config, turn):
            # first found far off the line of centres, never seen on its way: not the ball (a dark
            # spot named like it); the ball vanished where it rested, when it was struck
            raw = raw.copy()
            raw[onset:][off_course_mask(raw[onset:], p, p - at, config, turn)] = np.nan
            seen = np.isfinite(raw).all(axis=1)
            onset = last_rest + 1
        # A ball hidden when it was hit started moving somewhere in the hidden stretch.
        allowed_delay = (
            config.max_onset_delay_s
            + float(t[onset] - t[last_rest])
            - float(t[onset] - t[onset - 1] if onset else 0.0)
        )
        loose = closest > diameter + config.contact_tolerance_mm
        if _back_at_rest(raw, p, config):
            continue  # its measured centre shifted as the cue ball's blob passed over it: no hit
        if _centre_jumped(raw, p, onset, config):
            continue  # its measured centre corrected once as the cue ball's blob left it: no hit
        if loose and not _set_off_away_from(t, raw, p, onset, at, config):
            continue  # its measured centre shifted towards the cue ball passing by: no hit
        if -config.max_onset_lead_s <= t[onset] - t_contact <= allowed_delay:
            lost = _velocity_lost(t, cue, k, config.impulse_span_frames)
            contacts.append(
                Contact(
                    label, t_contact, closest, (float(at[0]), float(at[1])), (float(lost[0]), float(lost[1]))
                )
            )
            observed[label] = bool(np.isfinite(cue_path[k - 1]).all() and np.isfinite(cue_path[k]).all())
    running = {label: path for label, path in paths.items() if label in running_from_before}
    driven = {
        label: raw
        for label, raw in paths.items()
        if label in rest
        and label not in observed
        and _reached_by_running(t, raw, np.asarray(rest[label], dtype=float), running, config, table)
    }
    for contact, both_seen in _contacts_in_motion(t, cue_path, cue, running | driven, config, table):
        contacts.append(contact)
        observed[contact.label] = both_seen
    contacts.sort(key=lambda c: (c.t, c.distance_mm))
    at_once = [c for c in contacts if _at_once(c.t - contacts[0].t, config)]
    earliest = _touched_together(
        _struck_ones(at_once, t, paths, rest, config, table), t, cue, rest, config, table
    )
    movers, mover = _first_movers(t, cue_path, paths, rest, running, config, table)
    if mover is not None and not {c.label for c in earliest} & set(movers):
        # The balls that moved first were set off by the first contact. The path's contact is
        # overruled where the cue ball's path there is a guess (not seen at both ends of the
        # step), or where it came after those balls were already running (something else
        # moved them first).
        guessed = not contacts or not observed[contacts[0].label]
        too_late = bool(contacts) and contacts[0].t - mover.t > config.max_onset_delay_s
        hit_after = bool(contacts) and mover.t - contacts[0].t > config.first_mover_after_contact_s
        if (guessed or too_late) and not hit_after:
            return (mover,)
    if earliest:
        earliest += _set_off_with(earliest[0], t, paths, rest, config, table, {c.label for c in earliest})
    return tuple(_touched_together(earliest, t, cue, rest, config, table))


def _struck_ones(
    contacts: list[Contact],
    t: np.ndarray,
    paths: dict[str, np.ndarray],
    rest: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> list[Contact]:
    """Of several contacts read as one simultaneous hit, those whose ball set off as the cue ball
    would send it: away from the cue ball's centre where it met it (the half-plane beyond the line
    of centres), and, where the cue ball's path missed it by more than the tight tolerance, along
    that line (within ``set_off_with_max_angle_deg``). In a pack hit at speed, a frame's straight
    chord of the cue ball passes within reach of the struck red's neighbours too, and one set
    moving by the pack within the onset delay (often back towards the cue ball) reads as hit at the
    same time. A ball's heading is read on its first sighting ``clear_departure_mm`` from rest and
    on its farthest within ``departure_heading_s`` (the first can be a centre pulled by the cue
    ball's blob merging with it, the farthest can come after a cushion turned it): either one will
    do. A ball met in motion has no resting place to judge from and stays; if none would stay, all
    do."""
    if len(contacts) < 2:
        return contacts
    tight = table.ball_diameter_mm + config.contact_tolerance_mm
    along_centres = math.cos(math.radians(config.set_off_with_max_angle_deg))
    kept = []
    for contact in contacts:
        cue_at = np.asarray(contact.cue_xy, dtype=float)
        if contact.label in rest and contact.label in paths and np.all(np.isfinite(cue_at)):
            raw = paths[contact.label]
            p, settled_at = _settled_rest(raw, np.asarray(rest[contact.label], dtype=float), config)
            clear = departure_index(raw[settled_at:], p, config.clear_departure_mm, 1)
            onset = departure_index(raw[settled_at:], p, config.onset_displacement_mm, 1)
            if clear is not None and onset is not None:
                first = raw[settled_at + clear] - p
                farthest = _farthest_heading(t, raw, p, settled_at + onset, config)
                headings = [first] if farthest is None else [first, farthest]
                off_the_cue_ball = max(_cosine(heading, p - cue_at) for heading in headings)
                needed = along_centres if contact.distance_mm > tight else 0.0
                if off_the_cue_ball <= needed:
                    continue
        kept.append(contact)
    return kept or contacts


def _touched_together(
    contacts: list[Contact],
    t: np.ndarray,
    cue: np.ndarray,
    rest: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> list[Contact]:
    """Of several contacts read as one simultaneous hit, those the cue ball touched together: the
    cue ball's line of approach (on from its sighting before the first contact, along its step
    from the one before that: the chord through the contact turns with the deflection) first meets
    one of the balls within a diameter; each other ball stays only if it rested within a diameter
    plus ``contact_tolerance_mm`` of the cue ball there. In a cluster a cue ball deflected off one
    ball meets another a few milliseconds later, within a frame (simulated clusters: such a second
    ball rests 10-75 mm beyond touching, a ball truly hit at once within 5 mm). Balls met in motion
    stay; where the approach is not known (no two sightings before) or meets none of the balls,
    all do."""
    resting = [c for c in contacts if c.label in rest]
    if len(resting) < 2:
        return contacts
    k = int(np.searchsorted(t, min(c.t for c in resting)))
    if k < 2:
        return contacts
    start, step = cue[k - 1], cue[k - 1] - cue[k - 2]
    diameter = table.ball_diameter_mm
    places = [np.asarray(rest[c.label], dtype=float) for c in resting]
    # the line of approach as a segment long enough to pass every one of the balls
    length = (max(float(np.linalg.norm(p - start)) for p in places) + diameter) / max(
        float(np.linalg.norm(step)), _TINY_STEP_MM
    )
    end = start + length * step
    entries = [segment_entry(start, end, p, diameter) for p in places]
    met = [u for closest, u in entries if closest <= diameter]
    if not met:
        return contacts
    touching_at = start + min(met) * (end - start)
    return [
        c
        for c in contacts
        if c.label not in rest
        or float(np.linalg.norm(np.asarray(rest[c.label], dtype=float) - touching_at))
        <= diameter + config.contact_tolerance_mm
    ]


_TINY_STEP_MM = 1e-9
"""A step (mm) below which the cue ball's approach has no direction (guards a division by zero)."""


def _contacts_in_motion(
    t: np.ndarray,
    cue_path: np.ndarray,
    cue: np.ndarray,
    moving: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> list[tuple[Contact, bool]]:
    """The cue ball's first meeting with each ball of ``moving`` (label → path, mm; balls still
    running from the stroke before, or set off by one), after the cue ball left its place: the
    first frame step on which the two centres, both moving straight across it, came within a
    diameter plus ``contact_tolerance_mm``. With it, whether the cue ball was seen at both ends of
    that step. A ball's resting place says nothing of where a moving ball was met."""
    diameter = table.ball_diameter_mm
    start = departure_index(cue, cue[0], config.onset_displacement_mm, 1)
    if start is None:
        return []
    out = []
    for label, raw in moving.items():
        other = fill_gaps(t, raw)
        if other is None:
            continue
        for k in range(max(start, 1), len(t)):
            closest, u = closest_in_step(cue[k - 1], cue[k], other[k - 1], other[k], diameter)
            if closest <= diameter + config.contact_tolerance_mm:
                at = cue[k - 1] + u * (cue[k] - cue[k - 1])
                both_seen = bool(np.isfinite(cue_path[k - 1]).all() and np.isfinite(cue_path[k]).all())
                contact = Contact(
                    label, float(t[k - 1] + u * (t[k] - t[k - 1])), closest, (float(at[0]), float(at[1]))
                )
                out.append((contact, both_seen))
                break
    return out


def closest_in_step(
    c0: np.ndarray, c1: np.ndarray, p0: np.ndarray, p1: np.ndarray, radius: float
) -> tuple[float, float]:
    """Two centres moving straight and evenly from ``c0``, ``p0`` to ``c1``, ``p1`` over one step:
    their closest distance, and the step fraction u where they first come within ``radius`` (or
    are closest). The cue ball's path against a resting ball, seen from the moving ball's frame."""
    start = c0 - p0
    return segment_entry(start, start + (c1 - c0) - (p1 - p0), np.zeros(2), radius)


def _set_off_with(
    contact: Contact,
    t: np.ndarray,
    paths: dict[str, np.ndarray],
    rest: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
    taken: set[str],
) -> list[Contact]:
    """Balls hit at the same instant as ``contact`` though the cue ball's path missed them by a
    little more than the tight tolerance (a frame's path is a straight chord; a symmetric hit does
    not turn the cue ball): balls that rested within a diameter plus the loose tolerance of the cue
    ball at the contact, set off on the same frame as the ball it hit, away from the cue ball
    rather than away from that ball (which would have driven them), and along the line of centres
    (within ``set_off_with_max_angle_deg``: in a pack, the neighbours of the ball hit set off on
    the same frame, driven through the pack every way)."""
    if contact.label not in rest:
        return []  # met moving: no resting place for balls to be set off with it from
    cue_at = np.asarray(contact.cue_xy, dtype=float)
    hit_rest = np.asarray(rest[contact.label], dtype=float)
    hit_onset = departure_index(paths[contact.label], hit_rest, config.onset_displacement_mm, 1)
    if hit_onset is None or not np.all(np.isfinite(cue_at)):
        return []
    reach = table.ball_diameter_mm + config.contact_tolerance_with_deflection_mm
    along_centres = math.cos(math.radians(config.set_off_with_max_angle_deg))
    out = []
    for label, raw in paths.items():
        if label in taken or label not in rest:
            continue
        p = np.asarray(rest[label], dtype=float)
        distance = float(np.linalg.norm(p - cue_at))
        onset = departure_index(raw, p, config.onset_displacement_mm, 1)
        if distance > reach or onset is None or not _at_once(abs(t[onset] - t[hit_onset]), config):
            continue
        run = departure_index(raw, p, config.clear_departure_mm, config.steady_sighting_frames)
        if run is None:
            continue
        heading = raw[run + config.steady_sighting_frames - 1] - p
        off_the_cue_ball = _cosine(heading, p - cue_at)
        if off_the_cue_ball > _cosine(heading, p - hit_rest) and off_the_cue_ball >= along_centres:
            out.append(Contact(label, contact.t, distance, contact.cue_xy))
    return out


def _at_once(gap_s: float, config: StrokeConfig) -> bool:
    """Whether two times ``gap_s`` apart are one instant: within ``simultaneous_window_s``, the
    window's end included (one frame at 50 fps, whose frame times differ by a rounding more)."""
    return gap_s <= config.simultaneous_window_s + _TIME_ROUNDING_S


_TIME_ROUNDING_S = 1e-9
"""The rounding of frame times (s): differences of ``i / fps`` are off by about 1e-17."""


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of the angle between two vectors (-1 where either is zero)."""
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    return float(a @ b) / (na * nb) if na > 0.0 and nb > 0.0 else -1.0


def _first_movers(
    t: np.ndarray,
    cue_path: np.ndarray,
    paths: dict[str, np.ndarray],
    rest: dict[str, np.ndarray],
    running: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> tuple[list[str], Contact | None]:
    """The balls that moved first, and the one the cue ball hit among them, for a cue ball not seen
    where it hit it (a power shot blurs it out of sight): in a stroke the first balls to move are
    the one the cue ball hit and those it drove into at once; the hit one is taken to be the one
    that rested nearest the cue ball's last sighting. Only clear departures count: away from rest
    by twice the onset displacement on ``steady_sighting_frames`` sightings in a row (not the
    jitter of a ball under the player's arm). A ball set off by one still running from the stroke
    before (``running``: label → path; a stroke played while balls move) is not among them: the cue
    ball did not move it."""
    onsets: dict[str, int] = {}
    for label, raw in paths.items():
        if label not in rest:
            continue
        p = np.asarray(rest[label], dtype=float)
        k = departure_index(raw, p, config.clear_departure_mm, config.steady_sighting_frames)
        if (
            k is None
            or _reached_by_running(t, raw, p, running, config, table)
            or _centre_jumped(raw, p, k, config)
            or _towards_cue_ball(t, raw, p, k, cue_path, config, table)
        ):
            continue  # not moved, moved by a ball still running, or its centre corrected (not moved)
        onsets[label] = k
    if not onsets:
        return [], None
    first = min(onsets.values())
    movers = [label for label, k in onsets.items() if _at_once(t[k] - t[first], config)]
    cue_seen = np.flatnonzero(np.isfinite(cue_path).all(axis=1))
    if not len(cue_seen):
        return movers, None
    # The cue ball's sighting nearest in time to the departure: its last before, else its first after.
    before = cue_seen[cue_seen <= first]
    near_cue = cue_path[before[-1] if len(before) else cue_seen[0]]
    label = min(movers, key=lambda b: float(np.linalg.norm(np.asarray(rest[b], dtype=float) - near_cue)))
    if not _may_have_reached(t, cue_path, np.asarray(rest[label], dtype=float), first, config, table):
        return movers, None
    return movers, Contact(label, float(t[first]), math.nan)


def _towards_cue_ball(
    t: np.ndarray,
    path: np.ndarray,
    rest: np.ndarray,
    onset: int,
    cue_path: np.ndarray,
    config: StrokeConfig,
    table: TableSpec,
) -> bool:
    """Whether a ball that clearly left ``rest`` at index ``onset`` set off towards the cue ball
    where its path came nearest ``rest`` up to then (straight across the frames it was unseen; up
    to ``max_onset_lead_s`` after), leaving out the steps that come nearer than a diameter less
    ``contact_tolerance_mm``: no cue ball is there, one blurred as it passed close was measured
    over the ball (a rendered 960 x 540 broadcast stroke: 12 mm from a red it came back off a
    cushion to hit 4 s later, and the red's departure then read "towards" it); none left, not
    judged. Its heading (its sighting farthest from ``rest`` within ``departure_heading_s``, as
    :func:`_set_off_away_from` reads it) on the cue ball's side. A ball
    the cue ball hit leaves along the line of centres, away from it; a ball's measured centre
    pulled towards the cue ball's blob as it comes by (a coarsely compressed frame flattening the
    ball's own look, Task2 clip 11 at a low bit rate) moves towards it, the ball at rest. Not
    judged where the cue ball was not seen by then, nor where the ball rested nearer a cushion
    (the line a ball touching it has its centre on) than that sighting lies from ``rest``: driven
    into the cushion, it came back off it towards the cue ball (Task2 clip 3: the black 23 mm
    from the baulk cushion)."""
    heading = _farthest_heading(t, path, rest, onset, config)
    last = min(int(np.searchsorted(t, t[onset] + config.max_onset_lead_s, side="right")), len(cue_path))
    filled = fill_gaps(t[:last], cue_path[:last])
    if heading is None or filled is None:
        return False
    r = table.ball_radius_mm
    cushion_gap = min(rest[0] - r, table.width_mm - r - rest[0], rest[1] - r, table.length_mm - r - rest[1])
    if cushion_gap < float(np.linalg.norm(heading)):
        return False
    overlap = table.ball_diameter_mm - config.contact_tolerance_mm
    nearest, best = None, math.inf
    for c0, c1 in pairwise(filled):
        d = c1 - c0
        dd = float(d @ d)
        u = 0.0 if dd == 0.0 else float(np.clip((rest - c0) @ d / dd, 0.0, 1.0))
        point = c0 + u * d
        gap = float(np.linalg.norm(point - rest))
        if overlap <= gap < best:
            nearest, best = point, gap
    return nearest is not None and _cosine(heading, rest - nearest) <= 0.0


def _may_have_reached(
    t: np.ndarray, cue_path: np.ndarray, rest: np.ndarray, onset: int, config: StrokeConfig, table: TableSpec
) -> bool:
    """Whether the cue ball may have hit a ball resting at ``rest`` that clearly set off at index
    ``onset``: it went unseen shortly before (see ``first_mover_unseen_window_s``), or its path up
    to then, straight across the frames it was unseen, came within a diameter plus
    ``first_mover_reach_mm`` of ``rest``."""
    last = min(int(np.searchsorted(t, t[onset] + config.max_onset_lead_s, side="right")), len(cue_path))
    first = int(np.searchsorted(t, t[onset] - config.first_mover_unseen_window_s, side="left"))
    if not np.isfinite(cue_path[first:last]).all():
        return True
    filled = fill_gaps(t[:last], cue_path[:last])
    if filled is None:
        return True
    reach = table.ball_diameter_mm + config.first_mover_reach_mm
    if len(filled) == 1:
        return bool(np.linalg.norm(filled[0] - rest) <= reach)
    return any(
        segment_entry(filled[k - 1], filled[k], rest, table.ball_diameter_mm)[0] <= reach
        for k in range(1, len(filled))
    )


def _reached_by_running(
    t: np.ndarray,
    path: np.ndarray,
    rest: np.ndarray,
    running: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
) -> bool:
    """Whether a ball still ``running`` from the stroke before (label → path, mm) came within a
    diameter plus the contact tolerance of ``rest`` (where the ball of ``path`` rested) from
    ``max_onset_delay_s`` before that ball started moving to ``max_onset_lead_s`` after (the
    window a contact by the cue ball is allowed): that ball, not the cue ball, set it off."""
    onset = departure_index(path, rest, config.onset_displacement_mm, 1)
    if onset is None or not running:
        return False
    first = int(np.searchsorted(t, t[onset] - config.max_onset_delay_s, side="left"))
    last = int(np.searchsorted(t, t[onset] + config.max_onset_lead_s, side="right")) - 1
    reach = table.ball_diameter_mm + config.contact_tolerance_mm
    for other in running.values():
        filled = fill_gaps(t, other)
        if filled is None:
            continue
        for k in range(max(first, 1), min(last, len(filled) - 1) + 1):
            if segment_entry(filled[k - 1], filled[k], rest, table.ball_diameter_mm)[0] <= reach:
                return True
    return False


def away_from_rest(path: np.ndarray, rest: np.ndarray, displacement_mm: float) -> np.ndarray:
    """(n,) which sightings of a ball (``path`` (n, 2) mm, NaN where unseen) lie farther than
    ``displacement_mm`` from where it rested (``rest``, mm)."""
    seen = np.isfinite(path).all(axis=1)
    return seen & (np.linalg.norm(np.where(seen[:, None], path, rest) - rest, axis=1) > displacement_mm)


def departure_index(
    path: np.ndarray, rest: np.ndarray, displacement_mm: float, min_frames: int
) -> int | None:
    """The first of ``min_frames`` sightings in a row of a ball farther than ``displacement_mm`` from
    where it rested (``path`` (n, 2) mm, NaN where unseen); None if it never left."""
    away = away_from_rest(path, rest, displacement_mm)
    run = np.convolve(away.astype(int), np.ones(min_frames, int), mode="valid")
    starts = np.flatnonzero(run == min_frames)
    return int(starts[0]) if len(starts) else None


def pocket_ahead(
    start: np.ndarray, direction: np.ndarray, table: TableSpec, max_angle_deg: float
) -> str | None:
    """The pocket a ball sent from ``start`` along ``direction`` heads for: the pocket whose mouth
    lies closest in angle to the direction, if within ``max_angle_deg`` or if the line the ball
    runs on passes between the mouth's jaws (None otherwise).

    The mouth has a width: seen from close by it spans a wider angle than ``max_angle_deg`` (a
    ball resting 70 mm from a corner mouth, 86 mm wide, sees it across ±38°), so a ball sent
    into the jaws from there heads for the pocket though its direction is 20-30° off the mouth's
    centre; from far away the angle (12° is 210 mm at a metre) is the wider allowance."""
    norm = float(np.linalg.norm(direction))
    if norm == 0.0 or not np.all(np.isfinite(direction)):
        return None
    u = np.asarray(direction, dtype=float) / norm
    best, best_angle = None, math.inf
    for name, pocket in table.pockets.items():
        to_mouth = np.array(pocket.mouth_centre) - start
        distance = float(np.linalg.norm(to_mouth))
        if distance == 0.0:
            continue
        angle = math.degrees(math.acos(float(np.clip(to_mouth @ u / distance, -1.0, 1.0))))
        # the angle within which the line through ``start`` passes between the jaws
        spanned = math.degrees(math.asin(min(1.0, pocket.mouth_width_mm / 2.0 / distance)))
        if angle <= max(max_angle_deg, min(spanned, 90.0)) and angle < best_angle:
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
    cue_xy: np.ndarray | None,
    others: dict[str, np.ndarray],
    config: StrokeConfig,
    table: TableSpec,
    image_xy: dict[str, np.ndarray] | None = None,
    rest_gaps: dict[str, tuple[float, float]] | None = None,
) -> tuple[str, ...]:
    """Labels of the balls the cue ball rests against (all at rest), nearest first.

    Where ``rest_gaps`` has a ball (the distance between the two centres where they came to rest,
    mm, and the millimetres an image pixel spans along it there; see
    ``StrokeConfig.touching_rest_sightings``), it touches when that distance is at most a diameter
    plus ``touching_gap_px`` of those pixels: two fitted centres that close are off by up to about
    a pixel, so the tolerance follows the picture's resolution where the balls lie.

    Else the tolerance is what the two centres' errors may add up to along their line: the
    rounding of each image centre (``centre_rounding_px``), scaled by the millimetres one image
    pixel spans along that line where the balls lie (from their image centres ``image_xy``, px,
    when given: about 7 mm at the far end of a broadcast view, 3 mm near the camera), plus the
    other errors (``touching_tolerance_mm``: calibration, blob shape)."""
    if cue_xy is None:
        return ()
    image_xy = image_xy or {}
    rest_gaps = rest_gaps or {}
    near = []
    for label, xy in others.items():
        if label in rest_gaps:
            gap, mm_per_px = rest_gaps[label]
            if gap <= table.ball_diameter_mm + config.touching_gap_px * mm_per_px:
                near.append((gap, label))
            continue
        gap = float(np.linalg.norm(np.asarray(xy) - cue_xy))
        tolerance = config.touching_tolerance_mm
        if CUE_BALL in image_xy and label in image_xy:
            gap_px = float(np.linalg.norm(image_xy[label] - image_xy[CUE_BALL]))
            if gap_px > 0.0:
                tolerance += 2.0 * config.centre_rounding_px * gap / gap_px
        if gap <= table.ball_diameter_mm + tolerance:
            near.append((gap, label))
    return tuple(label for _, label in sorted(near))


def left_its_place(path: np.ndarray, rest: np.ndarray, onset: int, config: StrokeConfig) -> bool:
    """Whether a ball whose measured centre was first seen away from ``rest`` (2, mm) at index
    ``onset`` of ``path`` (n, 2 mm, NaN unseen) truly left its place: it is not seen back there when
    the path ends (``passed_by_return_mm``), and its centre did not just correct once, by at most
    ``centre_jump_max_mm``, and stay (a neighbour's blob leaving it)."""
    return not (_back_at_rest(path, rest, config) or _centre_jumped(path, rest, onset, config))
