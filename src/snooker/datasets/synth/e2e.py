"""End to end on rendered synthetic clips: render → video file → the real pipeline → compare.

A scenario (or a whole frame played by the simple player) is filmed by the renderer into an mp4;
the clip then goes through exactly what ``snooker-referee analyze`` runs — frames from
``snooker.vision.sources``, calibration (``find_table`` on the frames, or the camera's own
calibration when asked), the classical detector, the tracker and the stroke finder — and the
frame log it writes (with an ``edge_fall`` line for a ball that fell from a pocket's edge by
itself, as ``analyze`` writes it) is ruled by the referee. Everything is compared with the truth
the simulation knows exactly:

- strokes are paired by their start frame;
- events per kind (first contact, pot with its pocket, ball off the table, cue ball potted or off,
  touching ball), counted as true, missed and invented;
- rulings: the referee's call on the perceived frame log against its call on the truth frame
  log (same referee, so only perception can make them differ: foul or not, penalty, points), and
  against the truth's own simple-rule fouls;
- positions: every ball the tracker shows as seen, against the truth position of that colour's
  nearest ball, in table millimetres (at rest and moving apart).

A scenario clip starts in the middle of a frame (red on, the cue ball on the table), which a
frame log cannot say: the referee would take the first stroke for a break-off played from hand.
So both logs are ruled after an opening line — a fair break-off — unless the clip itself starts
a frame (all reds on the table, the cue ball in the D).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from snooker.balls import CUE_BALL, FULL_RACK_REDS, ball_kind
from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.clip import ClipConfig, with_settle, write_clip
from snooker.datasets.synth.physics import Trajectory
from snooker.datasets.synth.render import RenderOptions

EVENT_KINDS: tuple[str, ...] = ("first_contact", "pot", "off_table", "cue_ball", "touching")
"""Event kinds compared: first-contact balls, pots (ball and pocket), object balls off the table,
the cue ball potted or off the table, balls touching the cue ball at the end."""

OPENING_LINE: dict = {
    "type": "stroke",
    "first_contact": ["red"],
    "potted": [],
    "off_table": [],
    "cue_ball": "on_table",
}
"""A fair break-off with nothing potted: after it, red is on and the cue ball is on the table."""


@dataclass(frozen=True)
class EndToEndConfig:
    """How clips are filmed and read for the end-to-end comparison."""

    settle_s: float = 1.5
    """Rest filmed after the balls stop, so that the tracker sees the stroke end (it waits for
    every ball to rest ``StrokeConfig.rest_duration_s``)."""
    calibration: str = "auto"
    """``auto``: the pipeline finds the table in the frames (``find_table``); ``truth``: it is given
    the camera's own calibration (what a calibration file next to a clip holds)."""
    stroke_match_frames: int = 15
    """A perceived stroke pairs with a truth stroke whose start frame is at most this far away."""
    min_visible: float = 0.5
    """Truth balls less visible than this (hidden by the player, the graphic) are not scored for
    position."""
    clip: ClipConfig = field(default_factory=ClipConfig)


@dataclass(frozen=True)
class PipelineRun:
    """What the pipeline made of a clip: the ``analysis.json`` document and the frame log."""

    analysis: dict
    frame_log: list[dict]
    calibrated: bool


def film(
    traj: Trajectory,
    camera: Camera,
    stem: Path,
    name: str,
    ball_on: str | list[str] | None,
    seed: int,
    options: RenderOptions | None = None,
    config: EndToEndConfig | None = None,
    extra: dict | None = None,
) -> dict:
    """Render ``<stem>.mp4`` and ``<stem>.json`` (the truth) with the settling tail; returns the truth."""
    config = config or EndToEndConfig()
    return write_clip(
        with_settle(traj, config.settle_s),
        camera,
        stem,
        name,
        ball_on,
        seed=seed,
        options=options,
        config=config.clip,
        extra=extra,
    )


def run_pipeline(video: Path, truth: dict | None = None, config: EndToEndConfig | None = None) -> PipelineRun:
    """Analyse ``video`` as ``snooker-referee analyze`` does (classical detector), to the end.

    With ``config.calibration == "truth"`` the camera's calibration from ``truth`` is given to the
    pipeline instead of letting it find the table.
    """
    import json

    from snooker.calibration import TableView
    from snooker.pipeline.analyze import VideoAnalysis, frame_log_lines
    from snooker.vision.detector import make_detector
    from snooker.vision.sources import open_source

    config = config or EndToEndConfig()
    view = None
    if config.calibration == "truth":
        if truth is None:
            raise ValueError("calibration 'truth' needs the clip's truth document")
        view = TableView.from_json(json.dumps(truth["calibration"]["table_view"]))
    elif config.calibration != "auto":
        raise ValueError(f"calibration must be 'auto' or 'truth', got {config.calibration!r}")
    analysis = VideoAnalysis(make_detector("classic"), view=view)
    video_info = {"path": str(video), "fps": None, "frames": 0, "width": None, "height": None}
    with open_source(str(video)) as source:
        video_info["fps"] = source.fps
        for frame in source:
            video_info["frames"] += 1
            video_info["height"], video_info["width"] = frame.image.shape[:2]
            analysis.process(frame)
    analysis.finish()
    lines = frame_log_lines(analysis.strokes, outside_events=analysis.outside_events)
    return PipelineRun(analysis.analysis(video_info), lines, analysis.view is not None)


# ------------------------------------------------------------------------------ comparison
@dataclass
class Tally:
    """True, missed and invented counts (per event kind, or anything else counted)."""

    hit: int = 0
    missed: int = 0
    invented: int = 0

    def add(self, other: Tally) -> None:
        self.hit += other.hit
        self.missed += other.missed
        self.invented += other.invented

    @property
    def precision(self) -> float:
        found = self.hit + self.invented
        return self.hit / found if found else 1.0

    @property
    def recall(self) -> float:
        there = self.hit + self.missed
        return self.hit / there if there else 1.0

    def to_dict(self) -> dict:
        return {
            "true": self.hit,
            "missed": self.missed,
            "invented": self.invented,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
        }


@dataclass(kw_only=True)
class Counts:
    """What is counted when clips are compared with their truth (one clip's, or a sum over clips)."""

    strokes: Tally = field(default_factory=Tally)
    events: dict[str, Tally] = field(default_factory=lambda: {k: Tally() for k in EVENT_KINDS})
    first_contact_right: int = 0
    truth_strokes: int = 0
    rulings_compared: int = 0
    foul_agree: int = 0
    penalty_agree: int = 0
    points_agree: int = 0
    expected_foul_agree: int = 0
    position_errors_mm: dict[str, list[float]] = field(default_factory=lambda: {"rest": [], "moving": []})

    def add_counts(self, other: Counts) -> None:
        self.strokes.add(other.strokes)
        for kind in EVENT_KINDS:
            self.events[kind].add(other.events[kind])
        self.first_contact_right += other.first_contact_right
        self.truth_strokes += other.truth_strokes
        self.rulings_compared += other.rulings_compared
        self.foul_agree += other.foul_agree
        self.penalty_agree += other.penalty_agree
        self.points_agree += other.points_agree
        self.expected_foul_agree += other.expected_foul_agree
        for k in self.position_errors_mm:
            self.position_errors_mm[k] += other.position_errors_mm[k]


@dataclass(kw_only=True)
class ClipScore(Counts):
    """The comparison of one clip with its truth."""

    name: str
    calibrated: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def all_right(self) -> bool:
        """Every stroke found, every event right, every ruling the same as on the truth."""
        events_ok = all(t.missed == 0 and t.invented == 0 for t in self.events.values())
        strokes_ok = self.strokes.missed == 0 and self.strokes.invented == 0
        rulings_ok = self.foul_agree == self.penalty_agree == self.points_agree == self.rulings_compared
        return events_ok and strokes_ok and rulings_ok and self.first_contact_right == self.truth_strokes


def stroke_events(line: dict) -> Counter:
    """The comparable events of a frame-log stroke line, as a multiset of (kind, detail) tuples."""
    events: Counter = Counter()
    for ball in line.get("first_contact", []):
        events[("first_contact", ball_kind(ball))] += 1
    for pot in line.get("potted", []):
        ball, pocket = (pot["ball"], pot.get("pocket")) if isinstance(pot, dict) else (pot, None)
        events[("pot", ball_kind(ball), pocket)] += 1
    for ball in line.get("off_table", []):
        events[("off_table", ball_kind(ball))] += 1
    if line.get("cue_ball", "on_table") != "on_table":
        events[("cue_ball", line["cue_ball"])] += 1
    for ball in line.get("touching", []):
        events[("touching", ball_kind(ball))] += 1
    return events


def pair_strokes(truth_starts: list[int], seen_starts: list[int], max_gap: int) -> list[tuple[int, int]]:
    """Pairs (truth index, perceived index) by nearest start frame, each used once, in time order."""
    pairs: list[tuple[int, int]] = []
    candidates = sorted(
        (abs(t - s), i, j)
        for i, t in enumerate(truth_starts)
        for j, s in enumerate(seen_starts)
        if abs(t - s) <= max_gap
    )
    used_truth: set[int] = set()
    used_seen: set[int] = set()
    for _, i, j in candidates:
        if i in used_truth or j in used_seen:
            continue
        pairs.append((i, j))
        used_truth.add(i)
        used_seen.add(j)
    return sorted(pairs)


def starts_a_frame(truth: dict) -> bool:
    """Whether the clip opens a frame: every red on the table and the cue ball in the D."""
    if not truth["frames"]:
        return False
    balls = truth["frames"][0]["balls"]
    reds = sum(1 for b in balls if b["ball"] == "red")
    cue = [b for b in balls if b["id"] == CUE_BALL]
    in_d = bool(cue) and bool(STANDARD_TABLE.in_d(np.array([cue[0]["x_mm"], cue[0]["y_mm"]]))[0])
    return reds == FULL_RACK_REDS and in_d


def rule(lines: list[dict], opening: bool) -> list[dict]:
    """The referee's ruling on each stroke line of a frame log (after the opening line if asked)."""
    from snooker.referee import Referee

    referee = Referee()
    header = next((line for line in lines if line.get("type") == "match"), None)
    if header is not None:
        referee.apply(header)
    if opening:
        referee.apply(OPENING_LINE)
    return [referee.apply(line) for line in lines if line.get("type") == "stroke"]


def compare(truth: dict, run: PipelineRun, config: EndToEndConfig | None = None) -> ClipScore:
    """Score one clip's pipeline run against its truth (see the module docstring)."""
    config = config or EndToEndConfig()
    score = ClipScore(name=truth["name"], calibrated=run.calibrated)
    truth_strokes = truth["strokes"]
    seen_strokes = run.analysis["strokes"]
    seen_lines = [line for line in run.frame_log if line.get("type") == "stroke"]
    pairs = pair_strokes(
        [s["analysis"]["start_frame"] for s in truth_strokes],
        [s["start_frame"] for s in seen_strokes],
        config.stroke_match_frames,
    )
    paired_truth = {i for i, _ in pairs}
    paired_seen = {j for _, j in pairs}
    score.truth_strokes = len(truth_strokes)
    score.strokes = Tally(len(pairs), len(truth_strokes) - len(pairs), len(seen_strokes) - len(pairs))
    for i, j in pairs:
        truth_line, seen_line = truth_strokes[i]["log"], seen_lines[j]
        _tally_events(score, stroke_events(truth_line), stroke_events(seen_line))
        if sorted(truth_line["first_contact"]) == sorted(seen_line["first_contact"]):
            score.first_contact_right += 1
        else:
            seen_first, truth_first = seen_line["first_contact"], truth_line["first_contact"]
            score.notes.append(f"stroke {i}: first contact {seen_first} (truth {truth_first})")
    for i in set(range(len(truth_strokes))) - paired_truth:
        _tally_events(score, stroke_events(truth_strokes[i]["log"]), Counter())
        score.notes.append(f"stroke {i} not found")
    for j in set(range(len(seen_strokes))) - paired_seen:
        _tally_events(score, Counter(), stroke_events(seen_lines[j]))
        score.notes.append(f"stroke seen at frame {seen_strokes[j]['start_frame']} that was not played")
    _compare_rulings(score, truth, run, pairs)
    _position_errors(score, truth, run, config)
    return score


def _tally_events(score: ClipScore, truth: Counter, seen: Counter) -> None:
    for kind in EVENT_KINDS:
        t = Counter({k: v for k, v in truth.items() if k[0] == kind})
        s = Counter({k: v for k, v in seen.items() if k[0] == kind})
        both = sum((t & s).values())
        score.events[kind].add(Tally(both, sum(t.values()) - both, sum(s.values()) - both))
        if t != s:
            score.notes.append(f"{kind}: seen {sorted(s.elements())} truth {sorted(t.elements())}")


def _compare_rulings(score: ClipScore, truth: dict, run: PipelineRun, pairs: list[tuple[int, int]]) -> None:
    opening = not starts_a_frame(truth)
    truth_lines = truth.get("frame_log", [s["log"] for s in truth["strokes"]])
    truth_log = [run.frame_log[0], *truth_lines] if run.frame_log else []
    truth_rulings = rule(truth_log, opening)
    seen_rulings = rule(run.frame_log, opening)
    for i, j in pairs:
        # A stroke after a missed or invented one is ruled in another state: only the first
        # strokes up to the first unpaired one are compared.
        if i != j:
            break
        mine, theirs = seen_rulings[j], truth_rulings[i]
        score.rulings_compared += 1
        score.foul_agree += bool(mine.get("foul")) == bool(theirs.get("foul"))
        score.penalty_agree += mine.get("penalty") == theirs.get("penalty")
        score.points_agree += mine.get("points") == theirs.get("points")
        expected = truth["strokes"][i].get("expected")
        if expected is not None:
            score.expected_foul_agree += bool(mine.get("foul")) == expected["foul"]
        said, truth_said = mine.get("announcements"), theirs.get("announcements")
        if said != truth_said:
            score.notes.append(f"stroke {i}: referee says {said} (on the truth {truth_said})")


def _position_errors(score: ClipScore, truth: dict, run: PipelineRun, config: EndToEndConfig) -> None:
    truth_frames = {f["i"]: f for f in truth["frames"]}
    for record in run.analysis["frames"]:
        frame = truth_frames.get(record["i"])
        if frame is None:
            continue
        visible = frame.get("visible", {})
        balls = [b for b in frame["balls"] if visible.get(b["id"], 1.0) >= config.min_visible]
        for seen in record["balls"]:
            if not seen.get("visible"):
                continue
            same = [b for b in balls if b["ball"] == seen["ball"]]
            if not same:
                continue
            nearest = min(same, key=lambda b: math.hypot(b["x_mm"] - seen["x_mm"], b["y_mm"] - seen["y_mm"]))
            error = math.hypot(nearest["x_mm"] - seen["x_mm"], nearest["y_mm"] - seen["y_mm"])
            score.position_errors_mm["moving" if nearest["moving"] else "rest"].append(error)


@dataclass(kw_only=True)
class Summary(Counts):
    """Scores over many clips."""

    clips: int = 0
    calibrated: int = 0
    all_right: int = 0

    def add(self, clip: ClipScore) -> None:
        self.clips += 1
        self.calibrated += clip.calibrated
        self.add_counts(clip)
        self.all_right += clip.all_right

    @property
    def first_contact_accuracy(self) -> float:
        return self.first_contact_right / self.truth_strokes if self.truth_strokes else 1.0

    @property
    def ruling_agreement(self) -> float:
        """Share of compared strokes whose foul, penalty and points all agree (the weakest of the three)."""
        if not self.rulings_compared:
            return 1.0
        return min(self.foul_agree, self.penalty_agree, self.points_agree) / self.rulings_compared

    def to_dict(self) -> dict:
        def stats(values: list[float]) -> dict:
            if not values:
                return {"n": 0}
            a = np.asarray(values)
            return {
                "n": len(a),
                "median": round(float(np.median(a)), 1),
                "mean": round(float(a.mean()), 1),
                "p95": round(float(np.percentile(a, 95)), 1),
            }

        compared = max(self.rulings_compared, 1)
        return {
            "clips": self.clips,
            "calibrated": self.calibrated,
            "clips_all_right": self.all_right,
            "strokes": self.strokes.to_dict(),
            "events": {k: t.to_dict() for k, t in self.events.items()},
            "first_contact_accuracy": round(self.first_contact_accuracy, 4),
            "first_contact_accuracy_on_found_strokes": round(
                self.first_contact_right / self.strokes.hit if self.strokes.hit else 1.0, 4
            ),
            "truth_strokes": self.truth_strokes,
            "rulings_compared": self.rulings_compared,
            "foul_agreement": round(self.foul_agree / compared, 4),
            "penalty_agreement": round(self.penalty_agree / compared, 4),
            "points_agreement": round(self.points_agree / compared, 4),
            "ruling_agreement": round(self.ruling_agreement, 4),
            "foul_agreement_with_simple_rules": round(self.expected_foul_agree / compared, 4),
            "position_error_mm": {k: stats(v) for k, v in self.position_errors_mm.items()},
        }
