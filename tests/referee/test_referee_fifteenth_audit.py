"""Fifteenth audit: the referee's geometry against an independent brute-force model.

The model is written here from the definitions (Section 2 "snookered"; 3.14(b) "possible to hit in
a straight line any part"; 3.14(c) "centrally ... for reds the fully visible width of any red not
hidden by a colour"; 3.10 with the cue ball in hand: snookered from every place in the D; 3.7
re-spotting), with none of geometry.py's machinery (no critical lines, no vertex candidates): it
samples many straight cue-ball paths (fine angles across each ball on; for the D a fine grid of
places), sweeps a ball of the table's diameter along each (the first distance at which the moving
centre comes within a diameter of a ball, or within a radius of a cushion nose), and reads the
answers off what each path meets first. Where a sampled model and the exact referee disagree, the
model looks again finer (thin windows between balls), or at the referee's own witness place in
the D, and a disagreement that flips when every ball not on is made 0.01 mm fatter or thinner is
within the resolution of the layout, not a fault.

One fault found: the referee ignored the cushions for 3.14, so a cue ball in a pocket's jaws whose
every straight line to a ball on is stopped by a jaw ("angled") was judged to have a clear path and
a miss was called. A cushion never snookers (Section 2), but "possible to hit in a straight line"
(3.14(b): "możliwe jest trafienie w linii prostej jakiejkolwiek części jakiejkolwiek bili") is not
possible through a cushion. Rows below fail on the code before (a miss was called).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from referee_logs import last, match, safe, stroke

from snooker.calibration.table import STANDARD_TABLE as T
from snooker.referee import geometry as G

D = T.ball_diameter_mm
R = D / 2.0
W, L = T.width_mm, T.length_mm
CFG = G.DEFAULT_GEOMETRY_CONFIG
RHO = R - CFG.cushion_tolerance_mm
"""How near a cushion nose the model lets the cue ball's centre come (the referee's config)."""
EPS = 0.01
"""mm by which every ball not on is made fatter / thinner to tell a layout on a knife edge."""
LO, HI = np.array([R, R]), np.array([W - R, L - R])
SEGMENTS = np.array([[c.start, c.end] for c in T.cushions], dtype=float)
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")


# ---------------------------------------------------------------------------------------------
# The model: sweeping a ball along straight paths


def _dirs(angles: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(angles), np.sin(angles)], axis=-1)


def _contact(cue: np.ndarray, dirs: np.ndarray, centres: np.ndarray, diameter: float) -> np.ndarray:
    """(k, m) distance the cue ball's centre runs from ``cue`` along ``dirs`` before it comes within
    ``diameter`` of each centre: the smallest root of |cue + t·u − p| = diameter; inf = never."""
    if len(centres) == 0:
        return np.full((len(dirs), 0), np.inf)
    rel = centres - cue
    b = dirs @ rel.T
    disc = b * b - (np.einsum("md,md->m", rel, rel) - diameter * diameter)[None, :]
    t = b - np.sqrt(np.maximum(disc, 0.0))
    return np.where((disc > 0.0) & (b > 0.0), np.maximum(t, 0.0), np.inf)


def _cushion(cue: np.ndarray, dirs: np.ndarray) -> np.ndarray:
    """(k,) distance before the centre comes within RHO of a cushion nose (jaw to jaw), inf = never."""
    best = np.full(len(dirs), np.inf)
    for a, b in SEGMENTS:
        length = float(np.hypot(*(b - a)))
        s = (b - a) / length
        n = np.array([-s[1], s[0]])
        at = float(np.clip((cue - a) @ s, 0.0, length))
        away = cue - (a + at * s)
        gap = float(np.hypot(*away))
        if gap < RHO:  # already inside: stopped if it moves towards the nose
            best = np.where(dirs @ away < 0.0, 0.0, best)
            continue
        for end in (a, b):
            rel = end - cue
            bb = dirs @ rel
            disc = bb * bb - (rel @ rel - RHO * RHO)
            t = bb - np.sqrt(np.maximum(disc, 0.0))
            best = np.where((disc > 0) & (t >= 0), np.minimum(best, t), best)
        for side in (-1.0, 1.0):
            den = dirs @ n
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                t = ((a + side * RHO * n - cue) @ n) / den
                hit_at = (cue[None, :] + t[:, None] * dirs - a) @ s
            ok = np.isfinite(t) & (t >= 0) & (hit_at >= 0) & (hit_at <= length)
            best = np.where(ok, np.minimum(best, t), best)
    return best


def _cones(cue: np.ndarray, on: np.ndarray):
    rel = on - cue
    dist = np.hypot(rel[:, 0], rel[:, 1])
    return np.arctan2(rel[:, 1], rel[:, 0]), dist, np.arcsin(np.clip(D / dist, 0.0, 1.0))


def model_snookered(cue, on, off, eps=0.0) -> bool:
    """No ball on can be hit on both extreme edges (the two grazing paths) before a ball not on."""
    bearing, dist, half = _cones(cue, on)
    for j in range(len(on)):
        reach = math.sqrt(max(dist[j] ** 2 - D * D, 0.0))
        u = _dirs(np.array([bearing[j] - half[j], bearing[j] + half[j]]))
        met = _contact(cue, u, off, D + eps).min(axis=1, initial=np.inf)
        if np.all(met >= reach):
            return False
    return True


def model_snookering(cue, on, off) -> set[int]:
    """Indices of the balls not on met before a ball on on one of its extreme-edge paths."""
    bearing, dist, half = _cones(cue, on)
    found: set[int] = set()
    for j in range(len(on)):
        reach = math.sqrt(max(dist[j] ** 2 - D * D, 0.0))
        u = _dirs(np.array([bearing[j] - half[j], bearing[j] + half[j]]))
        found |= set(np.nonzero(np.any(_contact(cue, u, off, D) < reach, axis=0))[0].tolist())
    return found


def model_any_part(cue, on, off, eps=0.0, samples=720, cushions=True) -> bool:
    """Some sampled straight path meets a ball on before a ball not on (and before a cushion)."""
    bearing, _, half = _cones(cue, on)
    for j in range(len(on)):
        u = _dirs(bearing[j] + np.linspace(-half[j], half[j], samples + 2)[1:-1])
        first_on = _contact(cue, u, on, D).min(axis=1)
        first_off = _contact(cue, u, off, D + eps).min(axis=1, initial=np.inf)
        if cushions:
            first_off = np.minimum(first_off, _cushion(cue, u))
        if np.any(first_on < first_off):
            return True
    return False


def model_full_ball(cue, on, off, is_red, eps=0.0, samples=256) -> bool:
    """A colour on: the path at its centre meets it before a ball not on (or a cushion). A red on:
    so does every sampled path across its width, edges included (no cushion hides a width)."""
    bearing, dist, half = _cones(cue, on)
    for j in range(len(on)):
        centre = _dirs(np.array([bearing[j]]))
        if _cushion(cue, centre)[0] < dist[j] - D:
            continue
        spread = np.linspace(-half[j], half[j], samples + 1) if is_red[j] else np.zeros(1)
        u = _dirs(bearing[j] + spread)
        target = _contact(cue, u, on[j : j + 1], D - 1e-9)[:, 0]
        target = np.where(np.isinf(target), math.sqrt(max(dist[j] ** 2 - D * D, 0.0)), target)
        if np.all(_contact(cue, u, off, D + eps).min(axis=1, initial=np.inf) >= target):
            return True
    return False


def d_grid(step: float) -> np.ndarray:
    cx, cy = T.d_centre
    xs = np.arange(cx - T.d_radius_mm, cx + T.d_radius_mm + 1e-9, step)
    ys = np.arange(cy - T.d_radius_mm, cy + 1e-9, step)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    return grid[T.in_d(grid)]


def legal(places: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Places in the D touching no ball (3.5 / the referee's placement gap)."""
    if len(centres) == 0:
        return places
    gaps = np.linalg.norm(places[:, None, :] - centres[None, :, :], axis=-1)
    return places[np.all(gaps > D + CFG.touch_tolerance_mm, axis=1)]


# ---------------------------------------------------------------------------------------------
# Layouts (seeded)


class Layouts:
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def place(self, n, existing, lo=LO, hi=HI, gap=1.5):
        pts, out = list(existing), []
        for _ in range(4000):
            if len(out) >= n:
                break
            p = lo + self.rng.random(2) * (hi - lo)
            if all(np.hypot(*(p - q)) > D + gap for q in pts):
                pts.append(p)
                out.append(p)
        return out

    def name(self, points, reds):
        balls = {}
        for i, p in enumerate(points):
            balls.setdefault(f"red-{i + 1}" if i < reds else COLOURS[(i - reds) % 6], p)
        return balls

    def random(self):
        """Balls anywhere, or crowded round the cue ball; any set of balls on (a free ball with
        several on, reds, one colour in the colours phase)."""
        cue = self.place(1, [])[0]
        lo, hi = (
            (np.maximum(LO, cue - 400), np.minimum(HI, cue + 400)) if self.rng.random() < 0.6 else (LO, HI)
        )
        pts = self.place(int(self.rng.integers(1, 12)), [cue], lo, hi)
        if not pts:
            return None
        balls = self.name(pts, int(self.rng.integers(0, len(pts) + 1)))
        ids = list(balls)
        on = list(self.rng.choice(ids, size=int(self.rng.integers(1, len(ids) + 1)), replace=False))
        return cue, balls, on

    def near_path(self):
        """A ball not on within ±1 mm (log-uniform down to 1e-4 mm) of grazing an edge path."""
        cue = self.place(1, [])[0]
        target = self.place(1, [cue])[0]
        rel = target - cue
        dist = float(np.hypot(*rel))
        edge = math.atan2(rel[1], rel[0]) + self.rng.choice([-1, 1]) * math.asin(min(D / dist, 1.0))
        e = np.array([math.cos(edge), math.sin(edge)])
        n = np.array([-e[1], e[0]])
        along = self.rng.random() * math.sqrt(max(dist * dist - D * D, 0.0))
        delta = self.rng.choice([-1, 1]) * 10 ** self.rng.uniform(-4, 0)
        blocker = cue + along * e + self.rng.choice([-1, 1]) * (D + delta) * n
        if min(np.hypot(*(blocker - cue)), np.hypot(*(blocker - target))) <= D + 0.01:
            return None
        return cue, {"red-1": target, "pink": blocker}, ["red-1"]

    def gap(self):
        """A ball on behind two balls not on whose gap is just under or over a ball's width."""
        cue = self.place(1, [])[0]
        target = self.place(1, [cue])[0]
        rel = target - cue
        dist = float(np.hypot(*rel))
        if dist < 4 * D:
            return None
        u = rel / dist
        n = np.array([-u[1], u[0]])
        along = self.rng.uniform(2 * D, dist - 2 * D)
        width = D + self.rng.choice([-1, 1]) * 10 ** self.rng.uniform(-3, 0.5)
        shift = self.rng.uniform(-D, D)
        balls = {
            "red-1": target,
            "blue": cue + along * u + n * (shift + width / 2 + R),
            "pink": cue + along * u + n * (shift - width / 2 - R),
        }
        if self.rng.random() < 0.5:
            balls["red-2"] = target + n * self.rng.uniform(D + 2, 3 * D) * self.rng.choice([-1, 1])
        pts = [cue, *balls.values()]
        if any(np.any(p < LO) or np.any(p > HI) for p in pts[1:]):
            return None
        if any(np.hypot(*(p - q)) <= D + 0.01 for i, p in enumerate(pts) for q in pts[:i]):
            return None
        return cue, balls, [b for b in balls if b.startswith("red")]

    def jaws(self):
        """The cue ball in a pocket's jaws (or hanging over a cushion line); balls along the cushions."""
        pockets = list(T.pockets.values())
        mouth = np.array(pockets[int(self.rng.integers(len(pockets)))].mouth_centre)
        for _ in range(1000):
            cue = mouth + self.rng.uniform(-60, 60, 2)
            inside_table = np.all(cue >= LO) and np.all(cue <= HI)
            on_cloth = np.all(cue > -40) and cue[0] < W + 40 and cue[1] < L + 40
            if not inside_table and on_cloth and _segment_gap(cue) >= R:
                break
        else:
            return None
        balls: dict[str, np.ndarray] = {}
        for k in range(int(self.rng.integers(1, 5))):
            for _ in range(100):
                p = np.clip(mouth + self.rng.uniform(-400, 400, 2), LO, HI)
                if self.rng.random() < 0.6:  # frozen to the nearer cushion
                    axis = int(self.rng.integers(2))
                    p[axis] = LO[axis] if p[axis] - LO[axis] < HI[axis] - p[axis] else HI[axis]
                if np.hypot(*(p - cue)) > D + 1 and all(np.hypot(*(p - q)) > D + 1 for q in balls.values()):
                    balls[f"red-{k + 1}" if k < 2 else COLOURS[k]] = p
                    break
        if not balls:
            return None
        ids = list(balls)
        on = ids[: int(self.rng.integers(1, len(ids) + 1))]
        return cue, balls, on

    def in_hand(self, wall: bool):
        """The D crowded, or a ball on up the table behind a wall of balls not on with gaps near a
        ball's width (snookered from some of the D, not all)."""
        cx, cy = T.d_centre
        if not wall:
            pts = self.place(
                int(self.rng.integers(2, 12)),
                [],
                np.array([cx - 420, cy - 320]),
                np.array([cx + 420, cy + 250]),
            )
            pts += self.place(int(self.rng.integers(1, 4)), pts)
            balls = self.name(pts, int(self.rng.integers(0, len(pts) + 1)))
            ids = list(balls)
            return (
                None,
                balls,
                list(
                    self.rng.choice(ids, size=int(self.rng.integers(1, min(3, len(ids)) + 1)), replace=False)
                ),
            )
        target = self.place(1, [], np.array([R, cy + 100]), HI)[0]
        pts = [target]
        toward = np.array([cx, cy - 150]) - target
        u = toward / np.hypot(*toward)
        n = np.array([-u[1], u[0]])
        d0 = self.rng.uniform(D + 5, min(float(np.hypot(*toward)) - 100, 400))
        k = int(self.rng.integers(2, 7))
        spread = np.abs(self.rng.normal(0, 1, k - 1)) * self.rng.choice([0.1, 1, 10, 40], k - 1)
        offs = np.cumsum(np.r_[0, D + spread + 0.05])
        for o in offs - offs.mean() + self.rng.normal(0, 30):
            p = target + d0 * u + o * n + self.rng.normal(0, 2) * u
            if np.all(p > LO) and np.all(p < HI) and all(np.hypot(*(p - q)) > D + 0.05 for q in pts):
                pts.append(p)
        pts += self.place(int(self.rng.integers(0, 3)), pts)
        balls = self.name(pts, int(self.rng.integers(0, len(pts) + 1)))
        return None, balls, [next(iter(balls))]


def _segment_gap(p: np.ndarray) -> float:
    gaps = []
    for a, b in SEGMENTS:
        s = (b - a) / np.hypot(*(b - a))
        t = np.clip((p - a) @ s, 0.0, np.hypot(*(b - a)))
        gaps.append(float(np.hypot(*(p - a - t * s))))
    return min(gaps)


def _split(balls, on):
    ids = list(balls)
    mask = np.array([i in on for i in ids])
    centres = np.array([balls[i] for i in ids], dtype=float)
    is_red = np.array([i.startswith("red") for i in ids])[mask]
    return centres[mask], centres[~mask], is_red, centres


def _plain(balls):
    return {k: (float(v[0]), float(v[1])) for k, v in balls.items()}


def _judge(referee: bool, model) -> str:
    """'agree', 'resolution' (the answer flips within ±EPS mm of the balls not on) or 'DISAGREE'."""
    if referee == model(0.0):
        return "agree"
    return "resolution" if model(-EPS) != model(EPS) else "DISAGREE"


# ---------------------------------------------------------------------------------------------
# Cue ball on the table: snookered, any part, full ball, the snookering balls


FIXED_COUNT = 240
"""Layouts per kind (random, near a path, a gap of about a ball's width, the jaws) per question."""


def _fixed_layouts():
    maker = Layouts(15)
    kinds = {"random": maker.random, "near_path": maker.near_path, "gap": maker.gap, "jaws": maker.jaws}
    for kind, make in kinds.items():
        made = 0
        while made < FIXED_COUNT:
            layout = make()
            if layout is not None:
                made += 1
                yield kind, layout


@pytest.fixture(scope="module")
def fixed_verdicts():
    verdicts: dict[tuple[str, str], dict[str, int]] = {}
    bad = []
    for kind, (cue, balls, on) in _fixed_layouts():
        on_c, off_c, is_red, _ = _split(balls, on)
        plain, at = _plain(balls), (float(cue[0]), float(cue[1]))
        questions = {
            "snookered": (
                G.snookered(at, plain, on),
                lambda e, cue=cue, on_c=on_c, off_c=off_c, is_red=is_red: model_snookered(
                    cue, on_c, off_c, e
                ),
            ),
            "any_part": (
                G.clear_path_to_any_part(at, plain, on),
                lambda e, cue=cue, on_c=on_c, off_c=off_c, is_red=is_red: model_any_part(cue, on_c, off_c, e),
            ),
            "full_ball": (
                G.full_ball_available(at, plain, on),
                lambda e, cue=cue, on_c=on_c, off_c=off_c, is_red=is_red: model_full_ball(
                    cue, on_c, off_c, is_red, e
                ),
            ),
        }
        for question, (referee, model) in questions.items():
            verdict = _judge(referee, model)
            if verdict == "DISAGREE" and question == "any_part" and referee:
                # A window thinner than the samples: look again, 400 000 paths per ball on.
                verdict = _judge(
                    referee,
                    lambda e, cue=cue, on_c=on_c, off_c=off_c, is_red=is_red: model_any_part(
                        cue, on_c, off_c, e, samples=400_000
                    ),
                )
                verdict = "agree (finer)" if verdict == "agree" else verdict
            tally = verdicts.setdefault((kind, question), {})
            tally[verdict] = tally.get(verdict, 0) + 1
            tally[f"referee {referee}"] = tally.get(f"referee {referee}", 0) + 1
            if verdict == "DISAGREE":
                bad.append((kind, question, referee, at, plain, on))
        if kind != "jaws" and G.snookered(at, plain, on):
            ids_off = [b for b in balls if b not in on]
            named = set(G.snookering_balls(at, plain, on))
            expected = {ids_off[k] for k in model_snookering(cue, on_c, off_c)}
            tally = verdicts.setdefault((kind, "snookering_balls"), {})
            verdict = "agree" if named == expected else "DISAGREE"
            tally[verdict] = tally.get(verdict, 0) + 1
            if verdict == "DISAGREE":
                bad.append((kind, "snookering_balls", sorted(named), at, plain, on))
    return verdicts, bad


def test_the_referee_agrees_with_the_sweep_model_on_the_table(fixed_verdicts):
    verdicts, bad = fixed_verdicts
    assert not bad, bad[:5]
    for kind in ("random", "near_path", "gap", "jaws"):
        for question in ("snookered", "any_part", "full_ball"):
            tally = verdicts[(kind, question)]
            assert sum(n for v, n in tally.items() if not v.startswith("referee")) == FIXED_COUNT


def test_the_hard_layouts_are_hard(fixed_verdicts):
    """The generators reach both answers, and the jaws reach angled layouts (no straight line)."""
    verdicts, _ = fixed_verdicts
    for kind, question in (("near_path", "snookered"), ("gap", "any_part")):  # seen through the gap or not
        for answer in (True, False):
            assert verdicts[(kind, question)].get(f"referee {answer}", 0) > FIXED_COUNT // 10
    assert verdicts[("jaws", "any_part")].get("referee False", 0) > FIXED_COUNT // 10  # angled
    assert verdicts[("jaws", "any_part")].get("referee True", 0) > FIXED_COUNT // 10


# ---------------------------------------------------------------------------------------------
# Cue ball in hand: the D


HAND_COUNT = 30
"""Layouts per kind (crowded D, a wall up the table) for the in-hand questions."""
HAND_STEP_MM = 6.0
"""The model's grid over the D."""


def _first_times(places, dirs, centres, diameter):
    rel = centres[None] - places[:, None]
    b = np.einsum("nad,nmd->nam", dirs, rel)
    disc = b * b - (np.einsum("nmd,nmd->nm", rel, rel)[:, None, :] - diameter * diameter)
    t = b - np.sqrt(np.maximum(disc, 0.0))
    return np.where((disc > 0) & (b > 0), np.maximum(t, 0.0), np.inf)


def _many(places, on, off, is_red, eps, question, samples=24):
    """Per place in the D: both edges free / a sampled path to any part / full ball (vectorised)."""
    out = np.zeros(len(places), dtype=bool)
    for j in range(len(on)):
        rel = on[j] - places
        dist = np.hypot(rel[:, 0], rel[:, 1])
        bearing = np.arctan2(rel[:, 1], rel[:, 0])
        half = np.arcsin(np.clip(D / dist, 0.0, 1.0))
        if question == "edges":
            spread = np.array([-1.0, 1.0])
        elif question == "any":
            spread = np.linspace(-1, 1, samples + 2)[1:-1]
        else:
            spread = np.linspace(-1, 1, samples + 1) if is_red[j] else np.zeros(1)
        dirs = _dirs(bearing[:, None] + half[:, None] * spread[None, :])
        target = _first_times(places, dirs, on[j : j + 1], D - 1e-9)[..., 0]
        target = np.where(np.isinf(target), np.sqrt(np.maximum(dist**2 - D * D, 0.0))[:, None], target)
        met_off = _first_times(places, dirs, off, D + eps).min(-1, initial=np.inf)
        if question == "any":
            out |= np.any(_first_times(places, dirs, on, D).min(-1) < met_off, axis=1)
        else:
            out |= np.all(met_off >= target, axis=1)
    return out


@pytest.fixture(scope="module")
def hand_verdicts():
    maker = Layouts(1515)
    grid = d_grid(HAND_STEP_MM)
    verdicts: dict[str, dict[str, int]] = {}
    bad = []
    for k in range(2 * HAND_COUNT):
        _, balls, on = maker.in_hand(wall=bool(k % 2))
        on_c, off_c, is_red, every = _split(balls, on)
        plain = _plain(balls)
        places = legal(grid, every)
        for question, public, builder, exact in (
            (
                "snookered",
                G.snookered,
                G._can_hit_both_edges,
                lambda w, e, on_c=on_c, off_c=off_c, is_red=is_red: not model_snookered(w, on_c, off_c, e),
            ),
            (
                "any_part",
                G.clear_path_to_any_part,
                G._any_part_open,
                lambda w, e, on_c=on_c, off_c=off_c, is_red=is_red: model_any_part(
                    w, on_c, off_c, e, 200_000
                ),
            ),
            (
                "full_ball",
                G.full_ball_available,
                G._full_ball_open,
                lambda w, e, on_c=on_c, off_c=off_c, is_red=is_red: model_full_ball(
                    w, on_c, off_c, is_red, e, 8192
                ),
            ),
        ):
            kind = {"snookered": "edges", "any_part": "any", "full_ball": "full"}[question]
            found = {0.0: _many(places, on_c, off_c, is_red, 0.0, kind)}
            holds = bool(found[0.0].any())  # some place where a ball on can be hit (as asked)
            referee = public(None, plain, on)
            referee_holds = not referee if question == "snookered" else referee
            if referee_holds == holds:
                verdict = "agree"
            elif referee_holds:  # the referee found a place the grid missed: check that place
                where = builder(plain, on, T, CFG, in_hand=True).where_in_hand(T, CFG)
                good = (
                    where is not None and bool(T.in_d(where[None])[0]) and len(legal(where[None], every)) == 1
                )
                verdict = "agree (witness)" if good and exact(where, 0.0) else "DISAGREE"
                if verdict == "DISAGREE" and good and exact(where, -EPS):
                    verdict = "resolution"
            else:  # the grid found a place the referee did not
                place = places[np.flatnonzero(found[0.0])[0]]
                verdict = "DISAGREE" if exact(place, 0.0) and exact(place, EPS) else "resolution"
            tally = verdicts.setdefault(question, {})
            tally[verdict] = tally.get(verdict, 0) + 1
            tally[f"referee {referee}"] = tally.get(f"referee {referee}", 0) + 1
            if verdict == "DISAGREE":
                bad.append((question, referee, plain, on))
    return verdicts, bad


def test_the_referee_agrees_with_the_grid_over_the_d(hand_verdicts):
    verdicts, bad = hand_verdicts
    assert not bad, bad[:5]
    # Both answers are reached: snookered from all the D, and not.
    assert verdicts["snookered"].get("referee True", 0) > HAND_COUNT // 4
    assert verdicts["snookered"].get("referee False", 0) > HAND_COUNT // 4


# ---------------------------------------------------------------------------------------------
# 3.7 re-spotting with positions


def model_respot(colours, balls, cue):
    """3.7 read directly, one colour at a time (highest value first after the free own spots):
    own spot; else the highest free spot; else the first free place scanning up from the own spot
    to the top cushion; else (pink, black, and the same for the rest) scanning down the centre line."""
    step = 0.05
    occupied = [np.asarray(p, float) for b, p in balls.items() if b not in colours]
    if cue is not None:
        occupied.append(np.asarray(cue, float))
    spots = {c: np.asarray(p, float) for c, p in T.spots.items()}

    def free(p):
        return all(np.hypot(*(p - q)) > D + CFG.touch_tolerance_mm for q in occupied)

    placed = {}
    order = sorted(colours, key=COLOURS.index, reverse=True)
    for c in order:
        if free(spots[c]):
            placed[c] = spots[c]
            occupied.append(spots[c])
    for c in order:
        if c in placed:
            continue
        where = next((spots[s] for s in reversed(COLOURS) if free(spots[s])), None)
        if where is None:
            up = spots[c] + np.outer(np.arange(0.0, L - R - spots[c][1] + 1e-9, step), [0.0, 1.0])
            down = spots[c] - np.outer(np.arange(0.0, spots[c][1] - R + 1e-9, step), [0.0, 1.0])
            where = next((p for p in up if free(p)), None)
            where = where if where is not None else next((p for p in down if free(p)), None)
        placed[c] = where
        occupied.append(where)
    return placed


RESPOT_COUNT = 150


def test_respotting_agrees_with_the_text_on_crowded_spots():
    rng = np.random.default_rng(37)
    compared = 0
    for _ in range(RESPOT_COUNT):
        potted = list(rng.choice(COLOURS, size=int(rng.integers(1, 4)), replace=False))
        balls = {}
        for c in COLOURS:  # the colours not potted (some gone for good), on their spots or nudged
            if c not in potted and rng.random() < 0.75:
                balls[c] = np.asarray(T.spots[c]) + rng.normal(0, 15, 2) * (rng.random() < 0.3)
        k = 0
        for c in COLOURS:  # reds on or beside the spots, and up the black's line
            if rng.random() < 0.6:
                k += 1
                balls[f"red-{k}"] = np.asarray(T.spots[c]) + rng.normal(0, 30, 2)
        for y in np.arange(T.spots["black"][1] + rng.uniform(40, 60), L - R, rng.uniform(54, 70)):
            if rng.random() < 0.7:
                k += 1
                balls[f"red-{k}"] = np.array([W / 2 + rng.normal(0, 10), y])
        plain = _plain(balls)
        try:
            got = G.respot_positions(potted, plain)
        except ValueError:
            continue
        want = model_respot(potted, plain, None)
        for c in potted:
            assert want[c] is not None, (potted, plain)
            assert np.hypot(*(np.asarray(got[c]) - want[c])) <= 0.05 + CFG.placement_gap_mm, (
                c,
                got,
                want,
                plain,
            )
        compared += 1
    assert compared > RESPOT_COUNT * 0.8


# ---------------------------------------------------------------------------------------------
# Rows through the public path: the cue ball in the jaws, angled (3.14(b))


def _miss_log(before: dict) -> list:
    """Ann leaves the balls ``before``; Ben fails to hit a ball on (no decisions: the referee judges
    the miss from the positions)."""
    after = {**before, "white": [900.0, 1500.0]}
    return [
        match(),
        safe("red", positions={"after": before}),
        stroke([], [], positions={"before": before, "after": after}),
    ]


ANGLED = [
    # (name, positions before Ben's stroke, miss called)
    (
        "in the middle jaws, reds along that cushion both ways: no straight line",
        {"white": [1790.0, 1775.0], "red-1": [W - R, 2400.0], "red-2": [W - R, 1000.0]},
        False,
    ),
    (
        "in the middle jaws, a red along the cushion up the table",
        {"white": [1791.85, 1770.54], "red-1": [1751.75, 2169.17]},
        False,
    ),
    (
        "in the corner jaws, a red on the baulk cushion",
        {"white": [29.99, -9.97], "red-1": [169.39, 26.25]},
        False,
    ),
    (
        "in the corner jaws, two reds on the side cushion",
        {"white": [-18.46, 39.86], "red-1": [26.25, 400.82], "red-2": [26.25, 281.23]},
        False,
    ),
    # On the cloth: a red near a cushion, the pink hiding all of it but a sliver that only a cue
    # ball running through the cushion could reach (the sweep model's minimised finds).
    (
        "a red by the top cushion, its open sliver beyond the cushion",
        {
            "white": [1468.0176885620817, 2018.542610999527],
            "red-1": [285.31198304254644, 3527.8280279641926],
            "pink": [1385.130901740809, 2042.2637913328135],
        },
        False,
    ),
    (
        "a red by the side cushion, its open sliver beyond the cushion",
        {
            "white": [475.72850314118836, 2745.763486025408],
            "red-1": [41.073027558877044, 1903.0370589963063],
            "pink": [391.4165734518674, 2498.7198816560863],
        },
        False,
    ),
    (
        "a red near the top corner, its open sliver beyond the cushion",
        {
            "white": [1153.1227594550037, 2773.874232737328],
            "red-1": [33.028988342083906, 3535.726590952346],
            "pink": [231.55184921892814, 3388.6418105404036],
        },
        False,
    ),
    # Controls: the same reds with the cue ball out of the jaws, on the cloth: a miss.
    (
        "out of the middle jaws: a miss",
        {"white": [1740.0, 1775.0], "red-1": [W - R, 2400.0], "red-2": [W - R, 1000.0]},
        True,
    ),
    (
        "against the cushion, measured 2 mm over its line: still a straight line, a miss",
        {"white": [W - R + 2.0, 1500.0], "red-1": [W - R - 1.0, 2400.0]},
        True,
    ),
]


@pytest.mark.parametrize(("before", "miss"), [c[1:] for c in ANGLED], ids=[c[0] for c in ANGLED])
def test_angled_in_the_jaws_no_miss(before, miss):
    ruling = last(_miss_log(before))
    assert "error" not in ruling
    assert ruling["foul"] is True
    assert ruling["miss"] is miss


def test_a_cushion_never_snookers():
    """Section 2: the jaws stop every straight line, yet the cue ball is not snookered (free ball)."""
    cue, balls = (1790.0, 1775.0), {"red-1": (W - R, 2400.0), "red-2": (W - R, 1000.0)}
    assert not G.clear_path_to_any_part(cue, balls, list(balls))
    assert not G.snookered(cue, balls, list(balls))


def test_a_red_frozen_to_a_cushion_keeps_its_full_width():
    """3.14(c): only a colour hides a red's width; a cushion beside it does not."""
    assert G.full_ball_available((1400.0, 1000.0), {"red-1": (W - R, 2400.0)}, ["red-1"])


def test_the_cushion_tolerance_is_a_length():
    with pytest.raises(ValueError, match="cushion_tolerance_mm"):
        G.GeometryConfig(cushion_tolerance_mm=-1.0)
