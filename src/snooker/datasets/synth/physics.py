"""Event-based 2-D snooker physics with exact event times.

Why not pooltool-billiards: evaluated (0.6.0, in a scratch venv): it installs only with
``--no-deps`` plus a hand-picked panda3d (~725 MB), its first ``simulate`` compiles with numba for
74–112 s on a fresh machine (more than this package's whole test budget, and CI starts fresh),
and its snooker table (1746.5 x 3544.5 mm) is not ``TableSpec``'s, so truth and drawing would
disagree at the pockets. It is deterministic for a fixed layout. This module follows the same
established model (the one pooltool implements, after Leckie & Greenspan / Alciatore):

- Between events every ball moves with constant acceleration, so positions are quadratic in time:
  *sliding* (contact point slips; friction ``mu_slide`` acts against the slip, which keeps its
  direction and reaches zero at ``2|u0| / (7 mu_slide g)``), *rolling* (rolling resistance
  ``mu_roll`` until it stops), *stationary*. Side spin decays with ``spin_friction`` and never
  curves the path (no swerve, no squirt).
- Events are the earliest roots of polynomials: ball–ball contact (quartic), ball–cushion line
  (quadratic), ball–jaw point (quartic), pocket capture (quartic), mode transitions.
- Ball–ball: equal masses, restitution ``e_ball``, frictionless (no throw); contacts at the same
  instant (a cue ball hitting two balls at once, a frozen pack) are solved together.
- Ball–cushion and jaw: an impulse at the ball's equator with restitution ``e_cushion`` and
  Coulomb friction ``mu_cushion`` (capped so the slip never reverses), then
  ``cushion_spin_retention`` of the top/back spin survives (the real nose is above the centre).
- A ball is potted when its centre enters the pocket's capture circle (geometry.py); the jaw
  faces in front of it let a ball rattle and stay out.
- A ball hanging on the edge of a pocket that drops a while after it stopped: a scripted fall.
  A ``Shot`` with ``topple`` sets the ball rolling (no cue, no spin offsets) and is recorded as a
  ``topple`` event, not a ``strike``.
- Forced off the table: a scripted jump. A ball listed in ``Shot.leaves_table`` that reaches a
  cushion nose at ``min_jump_speed`` or more leaves the cloth at that instant and flies on over
  the rail on a parabola; it takes no further part.

Units: mm, s, rad/s; the table frame of CONTRACTS.md. Everything is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from snooker.balls import CUE_BALL, ball_kind
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.datasets.synth.geometry import GeometryConfig, TableGeometry

STATIONARY, SLIDING, ROLLING, POTTED, AIRBORNE, GONE = range(6)
MODE_NAMES = ("stationary", "sliding", "rolling", "potted", "airborne", "gone")


class SimulationError(RuntimeError):
    """The simulation could not finish (too many events, or an invalid layout)."""


@dataclass(frozen=True)
class PhysicsConfig:
    """Physical constants and numerical tolerances (units in each name or docstring)."""

    gravity_mm_s2: float = 9810.0
    mu_slide: float = 0.2
    """Ball–cloth sliding friction coefficient."""
    mu_roll: float = 0.012
    """Ball–cloth rolling resistance coefficient."""
    spin_friction: float = 0.0117
    """Side-spin decay coefficient: wz decelerates at 5 spin_friction g / (2 R) rad/s²."""
    e_ball: float = 0.95
    """Ball–ball coefficient of restitution."""
    e_cushion: float = 0.80
    """Ball–cushion (and jaw) coefficient of restitution."""
    mu_cushion: float = 0.2
    """Ball–cushion friction coefficient."""
    cushion_spin_retention: float = 0.5
    """Fraction of top/back spin kept through a cushion contact."""
    min_jump_speed_mm_s: float = 600.0
    """A ball scripted to leave the table does so at a cushion reached at least this fast."""
    jump_lift_mm_s: float = 1400.0
    """Upward speed of a ball leaving the table (scripted jump)."""
    airborne_duration_s: float = 0.6
    """How long a ball that left the table is followed in the air before it is gone."""
    rest_speed_mm_s: float = 1.0
    """A ball slower than this whose contact point slips slower than this is at rest."""
    min_closing_speed_mm_s: float = 1e-3
    """Contacts closing slower than this are grazing and ignored (no zero-impulse loops)."""
    simultaneous_s: float = 1e-9
    """Events closer in time than this are simultaneous."""
    settle_contact_speed_mm_s: float = 20.0
    """After a contact closing slower than this its balls roll without slip, or rest if they are
    this slow (a sliding ball steered by its spin into a ball would otherwise touch it endlessly)."""
    max_events: int = 20000
    max_time_s: float = 60.0


@dataclass(frozen=True)
class Shot:
    """One cue stroke: the cue ball is struck at ``time_s`` (seconds after the clip starts).

    ``speed_mm_s``: cue-ball speed; ``angle_deg``: direction in the table frame (0 = +x towards
    baulk-right, 90 = +y up the table); ``top``: tip offset above the centre as a fraction of the
    radius (0.4 = natural roll, negative = draw); ``side``: offset to the right (+) or left (−);
    ``leaves_table``: balls that jump off at their first fast cushion (scripted, see module doc);
    ``topple``: no cue stroke but a ball at rest (on the edge of a pocket) set rolling by itself
    at ``speed_mm_s`` along ``angle_deg``, with no tip offset (a ``topple`` event, see module doc).
    """

    speed_mm_s: float
    angle_deg: float
    top: float = 0.0
    side: float = 0.0
    time_s: float = 0.0
    ball: str = CUE_BALL
    leaves_table: tuple[str, ...] = ()
    topple: bool = False

    def __post_init__(self) -> None:
        if not (0.0 < self.speed_mm_s <= 15000.0):
            raise ValueError(f"shot speed must be in (0, 15000] mm/s, got {self.speed_mm_s}")
        if math.hypot(self.top, self.side) > 0.75:
            raise ValueError("the tip offset (top, side) must stay within 0.75 ball radii of the centre")
        if self.time_s < 0:
            raise ValueError("shot time_s must not be negative")
        if self.topple and (self.top or self.side or self.leaves_table):
            raise ValueError("a topple has no tip offset and sends no ball off the table")


@dataclass(frozen=True)
class Event:
    """Something that happened at time ``t`` (s): ``kind`` is ``strike``, ``ball_ball``,
    ``cushion`` (``where`` = cushion name or ``jaw:<pocket>:<k>``), ``pot`` (``where`` =
    pocket), ``off_table``, ``topple`` (a ball set rolling by itself, see ``Shot.topple``) or
    ``rest`` (every ball at rest: after the last shot, and before a later shot when the balls
    stopped before it); ``balls`` are the balls involved; ``speed_mm_s`` the
    closing speed of a contact."""

    t: float
    kind: str
    balls: tuple[str, ...] = ()
    where: str = ""
    speed_mm_s: float = 0.0

    def to_dict(self) -> dict:
        out = {"t": round(self.t, 9), "kind": self.kind, "balls": list(self.balls)}
        if self.where:
            out["where"] = self.where
        if self.speed_mm_s:
            out["speed_mm_s"] = round(self.speed_mm_s, 3)
        return out


@dataclass(frozen=True)
class Piece:
    """One ball's motion from ``t0`` until the next piece: position ``r0 + v0 dt + a dt²/2``
    (mm, dt = t − t0), height ``z0 + vz dt − g dt²/2`` while airborne, nothing once ``mode`` is
    potted or gone."""

    t0: float
    mode: int
    r0: tuple[float, float]
    v0: tuple[float, float]
    a: tuple[float, float]
    t_end: float = math.inf
    """The piece stops moving at ``t_end`` (the ball comes to rest there)."""
    vz: float = 0.0


@dataclass
class Trajectory:
    """The simulated stroke(s): events with exact times and per-ball motion pieces.

    ``positions(times)`` samples ball centres (x, y, z) mm at any times (NaN once a ball is potted
    or gone); ``frame_times`` are the video frames' times at ``fps``; ``rest_time`` is when all
    balls came to rest after the last strike.
    """

    balls: tuple[str, ...]
    events: list[Event]
    pieces: dict[str, list[Piece]]
    fps: float
    duration_s: float
    rest_time: float
    start_layout: dict[str, tuple[float, float]]
    final_layout: dict[str, tuple[float, float]]
    ball_radius_mm: float
    gravity_mm_s2: float
    shots: tuple[Shot, ...] = field(default_factory=tuple)
    energy: list[tuple[float, float]] = field(default_factory=list)
    """(t, kinetic energy per unit ball mass, mm²/s²) on the cloth, after each event."""

    @property
    def frame_times(self) -> np.ndarray:
        n = math.floor(self.duration_s * self.fps + 1e-9) + 1
        return np.arange(n) / self.fps

    def position(self, ball: str, times: np.ndarray) -> np.ndarray:
        """(len(times), 3) mm centres of ``ball``; NaN where it is potted or gone."""
        times = np.atleast_1d(np.asarray(times, float))
        out = np.full((len(times), 3), np.nan)
        pieces = self.pieces[ball]
        starts = np.array([p.t0 for p in pieces])
        index = np.searchsorted(starts, times, side="right") - 1
        for k, piece in enumerate(pieces):
            sel = index == k
            if not np.any(sel) or piece.mode in (POTTED, GONE):
                continue
            dt = np.minimum(times[sel], piece.t_end) - piece.t0
            dt = np.maximum(dt, 0.0)
            xy = np.asarray(piece.r0) + np.outer(dt, piece.v0) + 0.5 * np.outer(dt**2, piece.a)
            z = np.full(len(dt), self.ball_radius_mm)
            if piece.mode == AIRBORNE:
                z = z + piece.vz * dt - 0.5 * self.gravity_mm_s2 * dt**2
            out[sel, :2] = xy
            out[sel, 2] = z
        before = index < 0
        if np.any(before):
            out[before] = [*self.start_layout[ball], self.ball_radius_mm]
        return out

    def positions(self, times: np.ndarray) -> dict[str, np.ndarray]:
        return {b: self.position(b, times) for b in self.balls}

    def moving(self, ball: str, times: np.ndarray) -> np.ndarray:
        """Whether ``ball`` is moving (on the cloth or in the air) at each of ``times``."""
        times = np.atleast_1d(np.asarray(times, float))
        pieces = self.pieces[ball]
        starts = np.array([p.t0 for p in pieces])
        index = np.searchsorted(starts, times, side="right") - 1
        out = np.zeros(len(times), bool)
        for k, piece in enumerate(pieces):
            if piece.mode in (SLIDING, ROLLING, AIRBORNE):
                sel = index == k
                out[sel] = times[sel] < piece.t_end
        return out


# ------------------------------------------------------------------------------ the simulator
class _State:
    """Mutable per-ball arrays during one simulation (never escapes ``simulate``)."""

    def __init__(self, ids: list[str], layout: dict, radius: float):
        n = len(ids)
        self.ids = ids
        self.r = np.array([layout[b] for b in ids], float).reshape(n, 2)
        self.v = np.zeros((n, 2))
        self.w = np.zeros((n, 3))
        self.mode = np.full(n, STATIONARY)
        self.radius = radius


def simulate(
    layout: dict[str, tuple[float, float]],
    shot: Shot | Sequence[Shot],
    table: TableSpec = STANDARD_TABLE,
    config: PhysicsConfig | None = None,
    fps: float = 30.0,
    lead_in_s: float = 0.5,
    tail_s: float = 0.7,
    geometry: GeometryConfig | None = None,
) -> Trajectory:
    """Simulate ``shot`` (or several, each at its ``time_s`` after ``lead_in_s``) from ``layout``.

    ``layout`` maps ball ids to (x_mm, y_mm) centres; every ball must lie where one can rest (the
    playing area or a pocket's throat, ``TableGeometry.can_rest``) and not overlap another. The
    clip runs ``lead_in_s`` before the first strike and ``tail_s`` after everything has come to
    rest; frames are sampled at ``fps``. Deterministic.
    """
    config = config or PhysicsConfig()
    geo = TableGeometry(table, geometry or GeometryConfig())
    shots = tuple(sorted([shot] if isinstance(shot, Shot) else list(shot), key=lambda s: s.time_s))
    if not shots:
        raise ValueError("simulate needs at least one shot")
    _validate_layout(layout, geo, shots)
    ids = list(layout)
    state = _State(ids, layout, table.ball_radius_mm)
    sim = _Simulator(state, geo, config, shots, lead_in_s)
    sim.run()
    rest = sim.rest_time
    final = {
        b: (float(state.r[i, 0]), float(state.r[i, 1]))
        for i, b in enumerate(ids)
        if state.mode[i] == STATIONARY
    }
    return Trajectory(
        balls=tuple(ids),
        events=sim.events,
        pieces=sim.pieces,
        fps=fps,
        duration_s=rest + tail_s,
        rest_time=rest,
        start_layout={b: (float(x), float(y)) for b, (x, y) in layout.items()},
        final_layout=final,
        ball_radius_mm=table.ball_radius_mm,
        gravity_mm_s2=config.gravity_mm_s2,
        shots=tuple(Shot(**{**s.__dict__, "time_s": s.time_s + lead_in_s}) for s in shots),
        energy=sim.energy,
    )


def _validate_layout(layout: dict, geo: TableGeometry, shots: tuple[Shot, ...]) -> None:
    table = geo.table
    if not layout:
        raise ValueError("the layout has no balls")
    for bid, xy in layout.items():
        ball_kind(bid)
        if len(xy) != 2 or not all(math.isfinite(float(v)) for v in xy):
            raise ValueError(f"ball {bid!r} position must be two finite numbers (mm), got {xy!r}")
    ids = list(layout)
    xy = np.array([layout[b] for b in ids], float)
    off = ~geo.can_rest(xy)
    if np.any(off):
        names = [ids[i] for i in np.nonzero(off)[0]]
        raise ValueError(f"balls off the playing area and out of every pocket's throat: {names}")
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2) + np.eye(len(ids)) * 1e9
    i, j = np.unravel_index(np.argmin(d), d.shape)
    if d[i, j] < table.ball_diameter_mm - 1e-6:
        raise ValueError(f"balls {ids[i]} and {ids[j]} overlap ({d[i, j]:.2f} mm apart)")
    for s in shots:
        if s.ball not in layout:
            raise ValueError(f"the shot strikes {s.ball!r}, which is not in the layout")


class _Simulator:
    def __init__(self, state: _State, geo: TableGeometry, config: PhysicsConfig, shots, lead_in_s: float):
        self.s = state
        self.geo = geo
        self.c = config
        self.R = state.radius
        self.shots = [Shot(**{**sh.__dict__, "time_s": sh.time_s + lead_in_s}) for sh in shots]
        self.leaves = {b for sh in shots for b in sh.leaves_table}
        self.t = 0.0
        self.events: list[Event] = []
        self.pieces: dict[str, list[Piece]] = {b: [] for b in state.ids}
        self.rest_time = 0.0
        self.airborne_until: dict[int, float] = {}
        self.energy: list[tuple[float, float]] = []
        segs = geo.segments
        self.seg_a = np.array([s.start for s in segs])
        self.seg_b = np.array([s.end for s in segs])
        self.seg_n = np.array([s.normal for s in segs])
        self.seg_names = [s.name for s in segs]
        self.seg_is_nose = np.array([s.pocket is None for s in segs])
        self.points = np.array([p for _, p in geo.corner_points])
        self.point_names = [n for n, _ in geo.corner_points]
        self.pocket_names = list(geo.table.pockets)
        self.pocket_centres = np.array([geo.table.pockets[p].drop_centre for p in self.pocket_names])
        self.pocket_radii = np.array([geo.capture_radius_mm(p) for p in self.pocket_names])
        for i in range(len(state.ids)):
            self._record(i)

    # ------------------------------------------------------------ motion
    def _accel(self, i: int) -> np.ndarray:
        s, g = self.s, self.c.gravity_mm_s2
        if s.mode[i] == SLIDING:
            u = self._slip(i)
            norm = np.linalg.norm(u)
            return -self.c.mu_slide * g * u / norm if norm > 0 else np.zeros(2)
        if s.mode[i] == ROLLING:
            speed = np.linalg.norm(s.v[i])
            return -self.c.mu_roll * g * s.v[i] / speed if speed > 0 else np.zeros(2)
        return np.zeros(2)

    def _slip(self, i: int) -> np.ndarray:
        v, w = self.s.v[i], self.s.w[i]
        return np.array([v[0] - self.R * w[1], v[1] + self.R * w[0]])

    def _transition_dt(self, i: int) -> float:
        s, g = self.s, self.c.gravity_mm_s2
        if s.mode[i] == SLIDING:
            return 2.0 * np.linalg.norm(self._slip(i)) / (7.0 * self.c.mu_slide * g)
        if s.mode[i] == ROLLING:
            return np.linalg.norm(s.v[i]) / (self.c.mu_roll * g)
        if s.mode[i] == AIRBORNE:
            return max(self.airborne_until[i] - self.t, 0.0)
        return math.inf

    def _advance(self, dt: float) -> None:
        """Move every ball on by ``dt`` seconds within its current mode."""
        if dt <= 0:
            return
        s, g, R = self.s, self.c.gravity_mm_s2, self.R
        spin_decel = 5.0 * self.c.spin_friction * g / (2.0 * R)
        for i in range(len(s.ids)):
            mode = s.mode[i]
            if mode in (SLIDING, ROLLING, AIRBORNE):
                a = self._accel(i) if mode != AIRBORNE else np.zeros(2)
                if mode == SLIDING:
                    u = self._slip(i)
                    norm = np.linalg.norm(u)
                    if norm > 0:
                        uhat = u / norm
                        rate = 5.0 * self.c.mu_slide * g / (2.0 * R)
                        s.w[i, 0] += rate * dt * (-uhat[1])
                        s.w[i, 1] += rate * dt * uhat[0]
                s.r[i] += s.v[i] * dt + 0.5 * a * dt * dt
                s.v[i] += a * dt
                if mode == ROLLING:
                    s.w[i, 0], s.w[i, 1] = -s.v[i, 1] / R, s.v[i, 0] / R
            if mode not in (POTTED, GONE, AIRBORNE) and s.w[i, 2] != 0.0:
                wz = s.w[i, 2]
                s.w[i, 2] = math.copysign(max(abs(wz) - spin_decel * dt, 0.0), wz)
        self.t += dt

    def _record(self, i: int) -> None:
        s = self.s
        mode = int(s.mode[i])
        a = self._accel(i) if mode in (SLIDING, ROLLING) else np.zeros(2)
        piece_vz = 0.0
        if mode == AIRBORNE:
            piece_vz = self.c.jump_lift_mm_s
        t_end = self.t + self._transition_dt(i) if mode in (SLIDING, ROLLING) else math.inf
        if mode == AIRBORNE:
            t_end = math.inf
        piece = Piece(self.t, mode, tuple(s.r[i]), tuple(s.v[i]), tuple(a), t_end, piece_vz)
        pieces = self.pieces[s.ids[i]]
        if pieces and abs(pieces[-1].t0 - self.t) < 1e-12:
            pieces[-1] = piece
        else:
            pieces.append(piece)

    # ------------------------------------------------------------ event search
    def _moving(self) -> np.ndarray:
        return np.isin(self.s.mode, (SLIDING, ROLLING))

    def _on_table(self) -> np.ndarray:
        return np.isin(self.s.mode, (STATIONARY, SLIDING, ROLLING))

    def _next_event(self):
        """(dt, kind, payload) of the earliest event from now."""
        s = self.s
        best = [math.inf, "none", None]

        def offer(dt, kind, payload):
            if dt < best[0] - self.c.simultaneous_s:
                best[:] = [dt, kind, [payload]]
            elif dt <= best[0] + self.c.simultaneous_s and kind == best[1] == "ball_ball":
                best[2].append(payload)

        for sh in self.shots:
            if sh.time_s >= self.t - 1e-12:
                offer(max(sh.time_s - self.t, 0.0), "strike", sh)
                break
        for i in range(len(s.ids)):
            if s.mode[i] in (SLIDING, ROLLING, AIRBORNE):
                offer(self._transition_dt(i), "transition", i)
        moving = np.nonzero(self._moving())[0]
        if len(moving) == 0:
            return best
        horizon = best[0]
        accel = {int(i): self._accel(int(i)) for i in moving}
        # Cushion lines: signed distance n·(r − a) − R is quadratic in dt.
        for i in moving:
            a2, v, r = 0.5 * accel[int(i)], s.v[i], s.r[i]
            qa = self.seg_n @ a2
            qb = self.seg_n @ v
            qc = np.einsum("ij,ij->i", self.seg_n, r - self.seg_a) - self.R
            for k in range(len(qa)):
                for root in _quadratic_roots(qa[k], qb[k], qc[k]):
                    if root < -1e-9 or root > horizon:
                        continue
                    rate = 2 * qa[k] * root + qb[k]
                    if rate >= -self.c.min_closing_speed_mm_s:
                        continue
                    p = r + v * root + a2 * root * root
                    along = self.seg_b[k] - self.seg_a[k]
                    frac = (p - self.seg_a[k]) @ along / (along @ along)
                    if 0.0 <= frac <= 1.0:
                        offer(max(root, 0.0), "segment", (int(i), k))
                        horizon = min(horizon, best[0])
        horizon = best[0]
        reach = {int(i): _reach(s.v[i], accel[int(i)], horizon) for i in moving}
        # Jaw points and pocket capture circles: quartics.
        for i in moving:
            a2, v, r = 0.5 * accel[int(i)], s.v[i], s.r[i]
            for k, q in enumerate(self.points):
                if np.linalg.norm(r - q) - self.R > reach[int(i)]:
                    continue
                root = _first_contact_root(a2, v, r - q, self.R, horizon, self.c.min_closing_speed_mm_s)
                if root is not None:
                    offer(root, "point", (int(i), k))
            for k, centre in enumerate(self.pocket_centres):
                gap = np.linalg.norm(r - centre) - self.pocket_radii[k]
                if gap > reach[int(i)]:
                    continue
                root = _first_contact_root(
                    a2, v, r - centre, self.pocket_radii[k], horizon, 0.0, inside_ok=True
                )
                if root is not None:
                    offer(root, "pot", (int(i), k))
        horizon = best[0] + self.c.simultaneous_s
        # Ball pairs with at least one moving ball.
        on_table = np.nonzero(self._on_table())[0]
        for i in moving:
            for j in on_table:
                if j == i or (j in moving and j < i):
                    continue
                gap = np.linalg.norm(s.r[i] - s.r[j]) - 2 * self.R
                rj = reach.get(int(j), 0.0) if j in moving else 0.0
                if gap > reach[int(i)] + rj + 1e-9:
                    continue
                aj = accel.get(int(j), np.zeros(2))
                root = _first_contact_root(
                    0.5 * (accel[int(i)] - aj),
                    s.v[i] - s.v[j],
                    s.r[i] - s.r[j],
                    2 * self.R,
                    horizon,
                    self.c.min_closing_speed_mm_s,
                )
                if root is not None:
                    offer(root, "ball_ball", (min(int(i), int(j)), max(int(i), int(j))))
                    horizon = best[0] + self.c.simultaneous_s
        return best

    # ------------------------------------------------------------ main loop
    def run(self) -> None:
        s = self.s
        for _ in range(self.c.max_events):
            dt, kind, payload = self._next_event()
            pending = any(sh.time_s > self.t + 1e-12 for sh in self.shots)
            if kind == "none" or not math.isfinite(dt):
                if pending:
                    raise SimulationError("a shot is pending but no event was found")
                break
            self._advance(dt)
            if self.t > self.c.max_time_s:
                raise SimulationError(f"the simulation ran past {self.c.max_time_s} s")
            changed: set[int] = set()
            if kind == "strike":
                changed |= self._strike(payload[0])
            elif kind == "transition":
                changed |= self._transition(payload[0])
            elif kind == "segment":
                i, k = payload[0]
                changed |= self._cushion(
                    i, np.asarray(self.seg_n[k]), self.seg_names[k], bool(self.seg_is_nose[k])
                )
            elif kind == "point":
                i, k = payload[0]
                normal = s.r[i] - self.points[k]
                changed |= self._cushion(i, normal / np.linalg.norm(normal), self.point_names[k], False)
            elif kind == "pot":
                i, k = payload[0]
                changed |= self._pot(i, k)
            elif kind == "ball_ball":
                changed |= self._collide(sorted(set(payload)))
            for i in sorted(changed):
                self._record(i)
            self.energy.append((self.t, self._kinetic_energy()))
            if not self._moving().any() and not np.isin(s.mode, (AIRBORNE,)).any():
                if pending:
                    self.events.append(Event(self.t, "rest"))
                    continue
                self.rest_time = self.t
                self.events.append(Event(self.t, "rest"))
                return
        else:
            raise SimulationError(f"more than {self.c.max_events} events")
        self.rest_time = self.t
        self.events.append(Event(self.t, "rest"))

    def _kinetic_energy(self) -> float:
        """Translational plus rotational energy per unit mass of the balls on the cloth."""
        s = self.s
        on = self._on_table()
        inertia = 0.4 * self.R * self.R
        return float(0.5 * np.sum(s.v[on] ** 2) + 0.5 * inertia * np.sum(s.w[on] ** 2))

    # ------------------------------------------------------------ event handlers
    def _strike(self, shot: Shot) -> set[int]:
        s, R = self.s, self.R
        i = s.ids.index(shot.ball)
        if s.mode[i] in (POTTED, AIRBORNE, GONE):
            raise SimulationError(f"cannot strike {shot.ball}: it is not on the table")
        if shot.topple and s.mode[i] != STATIONARY:
            raise SimulationError(f"cannot topple {shot.ball}: it is moving")
        self.shots.remove(shot)
        theta = math.radians(shot.angle_deg)
        d = np.array([math.cos(theta), math.sin(theta), 0.0])
        side_dir = np.cross(d, [0.0, 0.0, 1.0])
        offset = R * (shot.side * side_dir + shot.top * np.array([0.0, 0.0, 1.0]))
        v = shot.speed_mm_s * d
        w = 5.0 / (2.0 * R * R) * np.cross(offset, v)
        s.v[i] = v[:2]
        s.w[i] = w
        if shot.topple:  # it rolls off the edge, it is not struck
            s.w[i, 0], s.w[i, 1] = -v[1] / R, v[0] / R
        s.mode[i] = SLIDING
        self._settle_mode(i)
        kind = "topple" if shot.topple else "strike"
        self.events.append(Event(self.t, kind, (shot.ball,), speed_mm_s=shot.speed_mm_s))
        return {i}

    def _settle_mode(self, i: int) -> None:
        s = self.s
        if s.mode[i] not in (SLIDING, ROLLING, STATIONARY):
            return
        speed = np.linalg.norm(s.v[i])
        slip = np.linalg.norm(self._slip(i))
        if speed < self.c.rest_speed_mm_s and slip < self.c.rest_speed_mm_s:
            s.mode[i] = STATIONARY
            s.v[i] = 0.0
            s.w[i, :2] = 0.0
        elif slip > 1e-6:
            s.mode[i] = SLIDING
        elif speed > 1e-6:
            s.mode[i] = ROLLING
            s.w[i, 0], s.w[i, 1] = -s.v[i, 1] / self.R, s.v[i, 0] / self.R
        else:
            s.mode[i] = STATIONARY
            s.v[i] = 0.0
            s.w[i, :2] = 0.0

    def _transition(self, i: int) -> set[int]:
        s = self.s
        if s.mode[i] == SLIDING:
            s.mode[i] = ROLLING
            s.w[i, 0], s.w[i, 1] = -s.v[i, 1] / self.R, s.v[i, 0] / self.R
            if np.linalg.norm(s.v[i]) < 1e-6:
                s.mode[i] = STATIONARY
                s.v[i] = 0.0
                s.w[i, :2] = 0.0
        elif s.mode[i] == ROLLING:
            s.mode[i] = STATIONARY
            s.v[i] = 0.0
            s.w[i, :2] = 0.0
        elif s.mode[i] == AIRBORNE:
            s.mode[i] = GONE
        return {i}

    def _cushion(self, i: int, normal: np.ndarray, name: str, is_nose: bool) -> set[int]:
        s, c, R = self.s, self.c, self.R
        vn = float(s.v[i] @ normal)
        if vn >= 0:
            return set()
        bid = s.ids[i]
        if is_nose and bid in self.leaves and -vn >= c.min_jump_speed_mm_s:
            self.leaves.discard(bid)
            s.mode[i] = AIRBORNE
            self.airborne_until[i] = self.t + c.airborne_duration_s
            self.events.append(Event(self.t, "off_table", (bid,), name, -vn))
            return {i}
        self.events.append(Event(self.t, "cushion", (bid,), name, -vn))
        n3 = np.array([normal[0], normal[1], 0.0])
        tangent = np.array([-normal[1], normal[0], 0.0])
        contact = -R * n3
        v3 = np.array([s.v[i, 0], s.v[i, 1], 0.0])
        slip_t = float((v3 + np.cross(s.w[i], contact)) @ tangent)
        jn = -(1.0 + c.e_cushion) * vn
        jt = -math.copysign(min(c.mu_cushion * jn, 2.0 / 7.0 * abs(slip_t)), slip_t)
        impulse = jn * n3 + jt * tangent
        s.v[i] += impulse[:2]
        s.w[i] += 5.0 / (2.0 * R * R) * np.cross(contact, impulse)
        s.w[i, :2] *= c.cushion_spin_retention
        s.mode[i] = SLIDING
        self._settle_mode(i)
        return {i}

    def _pot(self, i: int, k: int) -> set[int]:
        s = self.s
        s.mode[i] = POTTED
        s.v[i] = 0.0
        s.w[i] = 0.0
        self.events.append(Event(self.t, "pot", (s.ids[i],), self.pocket_names[k]))
        return {i}

    def _collide(self, pairs: list[tuple[int, int]]) -> set[int]:
        """Resolve contacts that happen at this instant together (frictionless, equal masses)."""
        s, c = self.s, self.c
        contacts = []
        for i, j in pairs:
            n = s.r[j] - s.r[i]
            n /= np.linalg.norm(n)
            closing = float((s.v[i] - s.v[j]) @ n)
            if closing > 0.5 * c.min_closing_speed_mm_s:
                contacts.append((i, j, n, closing))
        if not contacts:
            return set()
        active = list(range(len(contacts)))
        impulses = np.zeros(len(contacts))
        while active:
            m = len(active)
            matrix = np.zeros((m, m))
            rhs = np.zeros(m)
            for a_, ka in enumerate(active):
                ia, ja, na, closing = contacts[ka]
                rhs[a_] = (1.0 + c.e_ball) * closing
                for b_, kb in enumerate(active):
                    ib, jb, nb, _ = contacts[kb]
                    coupling = (ja == jb) + (ia == ib) - (ja == ib) - (ia == jb)
                    matrix[a_, b_] = coupling * float(na @ nb)
            lam = np.linalg.lstsq(matrix, rhs, rcond=None)[0]
            if np.all(lam >= -1e-12):
                impulses[:] = 0.0
                impulses[active] = np.maximum(lam, 0.0)
                break
            active.pop(int(np.argmin(lam)))
        changed = set()
        for k, (i, j, n, closing) in enumerate(contacts):
            if impulses[k] <= 0:
                continue
            s.v[i] -= impulses[k] * n
            s.v[j] += impulses[k] * n
            self.events.append(Event(self.t, "ball_ball", (s.ids[i], s.ids[j]), speed_mm_s=closing))
            changed |= {i, j}
        gentle = max(closing for _, _, _, closing in contacts) < c.settle_contact_speed_mm_s
        for i in changed:
            s.mode[i] = SLIDING
            if gentle:
                self._roll_without_gaining_energy(i)
            self._settle_mode(i)
        return changed

    def _roll_without_gaining_energy(self, i: int) -> None:
        """Make ball ``i`` roll (no slip, so friction no longer steers it back into the ball it
        just touched), slowing it so its energy does not grow; at rest if it is slow."""
        s, R = self.s, self.R
        speed = float(np.linalg.norm(s.v[i]))
        if speed < self.c.settle_contact_speed_mm_s:
            s.v[i] = 0.0
            s.w[i, :2] = 0.0
            return
        energy = 0.5 * speed**2 + 0.2 * R * R * float(s.w[i, 0] ** 2 + s.w[i, 1] ** 2)
        s.v[i] *= min(1.0, math.sqrt(energy / (0.7 * speed**2)))
        s.w[i, 0], s.w[i, 1] = -s.v[i, 1] / R, s.v[i, 0] / R


# ------------------------------------------------------------------------------ root finding
def _reach(v: np.ndarray, a: np.ndarray, horizon: float) -> float:
    """An upper bound on how far a ball travels within ``horizon`` seconds."""
    if not math.isfinite(horizon):
        horizon = 1e3
    return float(np.linalg.norm(v) * horizon + 0.5 * np.linalg.norm(a) * horizon**2) + 1e-6


def _quadratic_roots(a: float, b: float, c: float) -> list[float]:
    if abs(a) < 1e-12:
        return [-c / b] if abs(b) > 1e-12 else []
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    sq = math.sqrt(disc)
    q = -0.5 * (b + math.copysign(sq, b))
    roots = [q / a]
    if q != 0:
        roots.append(c / q)
    return sorted(roots)


def _first_contact_root(
    a2: np.ndarray,
    v: np.ndarray,
    d0: np.ndarray,
    distance: float,
    horizon: float,
    min_closing: float,
    inside_ok: bool = False,
) -> float | None:
    """Earliest dt in [0, horizon] at which |d0 + v dt + a2 dt²| = distance while closing faster
    than ``min_closing`` (mm/s).

    ``d0`` is the relative position now. With ``inside_ok`` a point already inside counts at 0
    (a ball already in a capture circle falls at once). Two already touching that do not close
    now may close later (a ball's spin curving it back into the ball it just left): see
    :func:`_next_contact_from_touching`.
    """
    f0 = float(d0 @ d0) - distance * distance
    closing_limit = -2.0 * distance * min_closing
    closing_now = 2.0 * float(d0 @ v) < closing_limit
    coeffs = [
        float(a2 @ a2),
        2.0 * float(a2 @ v),
        float(v @ v) + 2.0 * float(a2 @ d0),
        2.0 * float(v @ d0),
        f0,
    ]
    if f0 <= 2 * distance * _TOUCHING_GAP_MM:
        if inside_ok and f0 <= 0:
            return 0.0
        if closing_now:
            return 0.0
        return _next_contact_from_touching(coeffs, horizon, closing_limit) if min_closing > 0 else None
    coeffs = _without_vanishing_leads(coeffs)
    if len(coeffs) < 2:
        return None
    real = _real_roots(coeffs)
    poly = np.poly1d(coeffs)
    deriv = poly.deriv()
    for root in real:
        if root < -1e-9 or root > horizon:
            continue
        for _ in range(3):
            slope = deriv(root)
            if slope == 0:
                break
            root -= poly(root) / slope
        root = max(root, 0.0)
        if root > horizon:
            continue
        if deriv(root) < closing_limit or (min_closing == 0.0 and deriv(root) < 0):
            return root
    return None


_TOUCHING_GAP_MM = 1e-6
"""Two surfaces this close (mm) touch: a contact between them is judged by its closing speed now."""


def _next_contact_from_touching(coeffs: list[float], horizon: float, closing_limit: float) -> float | None:
    """Earliest dt in (0, horizon] at which two surfaces touching now but not closing (the
    quartic ``coeffs`` of |d|² − distance², highest power first, ``closing_limit`` < 0 its rate
    at the slowest closing that counts) close again, no farther apart than now: where they come
    back to touching while closing, or, when they press together from the start (a tangential
    ball that its spin turns into the other), where the closing reaches twice the slowest that
    counts, so that the contact is surely resolved.

    With f(dt) − f(0) = dt · h(dt) (h the cubic ``coeffs[:-1]``, ``back``): a root of h is a
    return to touching, taken if f′ closes there; a root of f′ − 2 ``closing_limit``
    (``pressing``) is taken if h < 0 there, i.e. they are pressed closer than now.
    """
    deriv = np.poly1d(coeffs).deriv()
    back = np.poly1d(coeffs[:-1])
    pressing = np.polysub(deriv.coeffs, [2.0 * closing_limit])
    candidates = sorted(
        (root, returning)
        for p, returning in ((back.coeffs, True), (pressing, False))
        for root in _real_roots(_without_vanishing_leads(list(p)))
        if 0.0 < root <= horizon
    )
    for root, returning in candidates:
        if deriv(root) < closing_limit and (returning or back(root) < 0.0):
            return root
    return None


_VANISHING_COEFFICIENT = 1e-18
"""A leading polynomial coefficient smaller than this (in the units of its power of seconds) is
dropped: its roots would be numerical noise far away."""
_REAL_ROOT_IMAG_SHARE = 1e-7
"""A root whose imaginary part is at most this share of its size (at least 1 s) is taken as real."""


def _without_vanishing_leads(coeffs: list[float]) -> list[float]:
    """``coeffs`` (highest power first) without leading ones below ``_VANISHING_COEFFICIENT``."""
    while coeffs and abs(coeffs[0]) < _VANISHING_COEFFICIENT:
        coeffs = coeffs[1:]
    return coeffs


def _real_roots(coeffs: list[float]) -> list[float]:
    """The real roots (s) of the polynomial ``coeffs`` (highest power first), ascending."""
    share = _REAL_ROOT_IMAG_SHARE
    return sorted(float(r.real) for r in np.roots(coeffs) if abs(r.imag) <= share * max(1.0, abs(r.real)))
