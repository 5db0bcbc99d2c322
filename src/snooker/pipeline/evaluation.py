"""Scoring the pipeline on the labelled broadcast clips (Bucharest 2020 Task2 pots, Task3 tracks).

Task2: one clip, at most one pot; the truth is ``NO`` or ``YES POCKET COLOUR`` with pockets numbered
by their place in the image (1 top-left, 2 top-right, 3 bottom-left, 4 bottom-right, 5 middle-left,
6 middle-right). The original score: a correct NO earns 4 units; on a YES clip, answering YES
earns 2, the right pocket 1, the right colour 1.

Task3: the cue ball (ball 1) and one object ball (ball 2), the first frame's box given; the truth
is a box per frame while the ball is on the table. The original rule: tracked if IoU > 0.2 in at
least 80 % of the truth frames. We also report the centre error in pixels and in table mm.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import pickle
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from snooker.balls import ball_kind
from snooker.calibration import TableNotFound, find_table
from snooker.calibration.table import STANDARD_TABLE
from snooker.pipeline.analyze import (
    AnalysisConfig,
    Detector,
    VideoAnalysis,
    default_view_check,
    fast_detector,
    frame_log_lines,
)
from snooker.referee import Referee
from snooker.tracker import StrokeEvents
from snooker.vision.classic import ClassicDetector
from snooker.vision.otherview import CueBallSighting, OtherViewCueBall
from snooker.vision.types import BallDetections, Frame

TASK2_POCKET_UNITS = 1
TASK2_YES_UNITS = 2
TASK2_COLOUR_UNITS = 1
TASK2_NO_UNITS = 4
TASK2_CLIP_UNITS = 4
TASK3_IOU_THRESHOLD = 0.2
TASK3_FRAME_FRACTION = 0.8
CACHE_FORMAT = 2
"""The version of :class:`ClipDetections` in a detection cache's file names (2: with the cue ball
in other views): a cache written by an older version is not read, it is written anew."""


@dataclass(frozen=True)
class ClipResult:
    """What the evaluations need from one analysed clip: per-frame balls, pots and the view."""

    frames: list[dict]
    pots: list[dict]
    view: object | None
    strokes: list[dict]
    other_views: list[dict] = field(default_factory=list)
    """The cue ball in frames that did not show the table (``VideoAnalysis.other_views``)."""

    @classmethod
    def of(cls, analysis: VideoAnalysis) -> ClipResult:
        return cls(
            analysis.frames,
            analysis.all_pots(),
            analysis.view,
            [s.to_analysis() for s in analysis.strokes],
            analysis.other_views,
        )


def analysis_config(fast_path: bool = True) -> AnalysisConfig:
    """The frame loop's default configuration, with its fast path on or off (everything detected
    and checked in full on every frame: the reference the fast path is compared with)."""
    config = AnalysisConfig()
    if fast_path:
        return config
    gates = config.fast_path
    off = replace(
        gates,
        detection=replace(gates.detection, enabled=False),
        view_check=replace(gates.view_check, enabled=False),
    )
    return replace(config, fast_path=off)


def run_clip(path: Path, detector: Detector, config: AnalysisConfig | None = None) -> VideoAnalysis:
    """Analyse one video file to the end."""
    return replay_detections(detect_clip(path, detector, config), config)


@dataclass(frozen=True)
class ClipDetections:
    """What the perception front end saw in a clip, frame by frame, so the tracker can be re-run
    without decoding and detecting again: the view (calibration JSON, None if no table was found)
    and ``(index, t, detections or None, shows_table)`` per frame; the cue ball where no table shows."""

    view_json: str | None
    frames: list[tuple[int, float, BallDetections | None, bool]]
    other_views: dict[int, CueBallSighting] = field(default_factory=dict)
    """The cue ball in the frames that did not show the table, by frame index."""


def detect_clip(path: Path, detector: Detector, config: AnalysisConfig | None = None) -> ClipDetections:
    """Decode, calibrate (on the first frame showing a table), check the view and detect, per frame,
    as the frame loop does (through its fast path, per ``config``)."""
    from snooker.vision.sources import open_source

    config = config or AnalysisConfig()
    shows_table = default_view_check(config)
    detector = fast_detector(detector, config)
    other_view = OtherViewCueBall(config.other_view) if config.other_view.enabled else None
    view = None
    frames: list[tuple[int, float, BallDetections | None, bool]] = []
    sightings: dict[int, CueBallSighting] = {}
    with open_source(str(path)) as source:
        for frame in source:
            if view is None:
                with contextlib.suppress(TableNotFound):
                    view = find_table(frame.image)
            ok = view is not None and bool(shows_table(frame.image, view))
            if ok:
                frames.append((frame.index, frame.t, detector(frame.image, view), ok))
                if other_view is not None:
                    other_view.reset()
                continue
            frames.append((frame.index, frame.t, None, False))
            sighting = None if other_view is None else other_view(frame.image, frame.t)
            if sighting is not None:
                sightings[frame.index] = sighting
    return ClipDetections(None if view is None else view.to_json(), frames, sightings)


def replay_detections(clip: ClipDetections, config: AnalysisConfig | None = None) -> VideoAnalysis:
    """Run the tracker and stroke finder over recorded detections (see :class:`ClipDetections`)."""
    from snooker.calibration import TableView

    view = None if clip.view_json is None else TableView.from_json(clip.view_json)
    by_index = {i: (det, ok) for i, _t, det, ok in clip.frames}
    current = {"index": 0}
    sightings = clip.other_views
    analysis = VideoAnalysis(
        lambda image, v: by_index[current["index"]][0],
        view=view,
        config=config,
        find_table=lambda image: (_ for _ in ()).throw(RuntimeError("no table in this clip")),
        shows_table=lambda image, v: by_index[current["index"]][1],
        other_view=lambda frame: sightings.get(frame.index),
    )
    blank = np.zeros((1, 1, 3), dtype=np.uint8)
    for index, t, _det, _ok in clip.frames:
        current["index"] = index
        analysis.process(Frame(index, t, blank))
    analysis.finish()
    return analysis


def frame_loop_clip(path: Path, detector: Detector, config: AnalysisConfig | None = None) -> VideoAnalysis:
    """Analyse one video file through the frame loop itself (``VideoAnalysis``, read ahead as
    ``analyze`` reads, tracked in this process): the table found again after cuts, a knocked camera
    followed (``detect_clip`` finds the table once and keeps it)."""
    from snooker.vision.sources import open_source, read_ahead

    analysis = VideoAnalysis(detector, config=config or AnalysisConfig())
    with open_source(str(path)) as source, read_ahead(source, prepare=analysis.prepare) as frames:
        for frame in frames:
            analysis.process(frame)
    analysis.finish()
    return analysis


def clip_result(
    path: Path,
    detector: Detector,
    cache: Path | None = None,
    config: AnalysisConfig | None = None,
    frame_loop: bool = False,
) -> ClipResult:
    """The clip's result; with ``cache`` (a folder) the detections are kept there and reused, so
    only the tracker runs again (delete the folder after changing the detector or calibration).
    ``frame_loop``: through the frame loop itself (:func:`frame_loop_clip`; no cache)."""
    if frame_loop:
        if cache is not None:
            raise ValueError("a clip analysed through the frame loop keeps no detection cache")
        return ClipResult.of(frame_loop_clip(path, detector, config))
    if cache is None:
        return ClipResult.of(run_clip(path, detector, config))
    cached = cache / f"{path.parent.name}-{path.stem}.detections.v{CACHE_FORMAT}.pkl"
    if cached.exists():
        with cached.open("rb") as f:
            clip = pickle.load(f)
    else:
        clip = detect_clip(path, detector, config)
        cache.mkdir(parents=True, exist_ok=True)
        with cached.open("wb") as f:
            pickle.dump(clip, f)
    return ClipResult.of(replay_detections(clip, config))


def image_pocket_numbers(pockets_px: dict[str, tuple[float, float]]) -> dict[str, int]:
    """Task2's number for each pocket from where it appears in the image (see module docstring)."""
    names = sorted(pockets_px, key=lambda n: pockets_px[n][1])
    rows = {"top": names[:2], "middle": names[2:4], "bottom": names[4:]}
    numbers = {"top": (1, 2), "bottom": (3, 4), "middle": (5, 6)}
    out = {}
    for row, pair in rows.items():
        left, right = sorted(pair, key=lambda n: pockets_px[n][0])
        out[left], out[right] = numbers[row]
    return out


@dataclass(frozen=True)
class PotTruth:
    """Task2 truth: ``potted`` False for NO; else the image pocket number and the colour."""

    potted: bool
    pocket: int | None = None
    colour: str | None = None

    @classmethod
    def read(cls, path: Path) -> PotTruth:
        words = path.read_text().split()
        if not words or words[0] not in ("YES", "NO"):
            raise ValueError(f"{path}: expected NO or YES POCKET COLOUR, got {words}")
        if words[0] == "NO":
            return cls(False)
        return cls(True, int(words[1]), words[2].lower())


def stroke_facts(strokes: list[StrokeEvents]) -> list[tuple]:
    """What a referee rules on, per stroke: first contact, pots with pockets, balls off the table,
    the cue ball's fate (ball names, not track labels: two runs of one clip number reds alike)."""
    return [
        (
            tuple(sorted(ball_kind(label) for label in s.first_contact)),
            tuple(sorted((p.ball, p.pocket or "") for p in s.potted)),
            tuple(sorted(ball_kind(label) for label in s.off_table)),
            s.cue_ball,
        )
        for s in strokes
    ]


def final_score(strokes: list[StrokeEvents]) -> list[int]:
    """The score after ``strokes``, as the referee rules their frame log."""
    referee = Referee()
    for line in frame_log_lines(strokes):
        referee.apply(line)
    return list(referee.scoreboard()["score"])


def task2_units(truth: PotTruth, answer: PotTruth) -> int:
    """The original task's units for one clip (out of 4)."""
    if not truth.potted:
        return TASK2_NO_UNITS if not answer.potted else 0
    if not answer.potted:
        return 0
    return (
        TASK2_YES_UNITS
        + (TASK2_POCKET_UNITS if answer.pocket == truth.pocket else 0)
        + (TASK2_COLOUR_UNITS if answer.colour == truth.colour else 0)
    )


def pot_answer(result: ClipResult) -> PotTruth:
    """Our Task2 answer: the first pot of a stroke, its image pocket and colour.

    A ball that drops while no stroke is played is not the clip's pot (it is a ball moved outside a
    stroke, or a false track), unless no stroke was seen at all (the cue ball was never tracked).
    """
    pots = [p for p in result.pots if p["in_stroke"]] if result.strokes else result.pots
    if not pots:
        return PotTruth(False)
    first = pots[0]
    numbers = image_pocket_numbers(result.view.pockets_px) if result.view is not None else {}  # type: ignore[attr-defined]
    return PotTruth(True, numbers.get(first["pocket"]), first["ball"])


# ----------------------------------------------------------------------------- Task3
def read_boxes(path: Path) -> dict[int, tuple[float, float, float, float]]:
    """Task3 boxes ``{frame: (xmin, ymin, xmax, ymax)}`` (the count line is skipped)."""
    boxes = {}
    for line in path.read_text().splitlines()[1:]:
        parts = line.split()
        if len(parts) == 5:
            frame, *box = (float(p) for p in parts)
            boxes[int(frame)] = tuple(box)
    return boxes


def iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class TrackScore:
    """One Task3 track: the fraction of truth frames with IoU above the threshold, and centre errors."""

    label: str | None
    frames: int
    hit_fraction: float
    centre_errors_px: tuple[float, ...]
    centre_errors_mm: tuple[float, ...]
    frames_in_view: int = 0
    """Truth frames the pipeline analysed (the table was in view; a cut to another camera is skipped)."""
    hits: int = 0
    """Of those, the frames with IoU above the threshold."""
    hits_other_views: int = 0
    """The cue ball's frames in other views (no table in view) with IoU above the threshold,
    from ``other_views`` (counted in ``hit_fraction`` too)."""

    @property
    def passed(self) -> bool:
        return self.hit_fraction >= TASK3_FRAME_FRACTION

    @property
    def hit_fraction_in_view(self) -> float:
        """The hit fraction over the frames where the table was in view (how well the ball is
        followed, apart from how much of the clip shows the table)."""
        return self.hits / self.frames_in_view if self.frames_in_view else 0.0

    @property
    def frames_other_views(self) -> int:
        return self.frames - self.frames_in_view

    @property
    def hit_fraction_other_views(self) -> float:
        """The hit fraction over the truth frames where the table was not in view."""
        return self.hits_other_views / self.frames_other_views if self.frames_other_views else 0.0


def score_track(
    result: ClipResult, truth: dict[int, tuple[float, float, float, float]], cue: bool
) -> TrackScore:
    """Follow the ball whose track starts in the first truth box and score it against the truth
    (the cue ball also in the frames of other views, where no table showed)."""
    by_frame = {rec["i"]: rec for rec in result.frames}
    other_views = {rec["i"]: rec["cue_ball"] for rec in result.other_views} if cue else {}
    label = _pick_label(by_frame, truth, cue)
    hits, in_view, hits_other, errors_px, errors_mm = 0, 0, 0, [], []
    view = result.view
    for frame, box in truth.items():
        rec = by_frame.get(frame)
        in_view += rec is not None
        if rec is None and frame in other_views:
            seen = other_views[frame]
            x, y, r = seen["x_px"], seen["y_px"], seen["r_px"]
            hits_other += iou((x - r, y - r, x + r, y + r), box) > TASK3_IOU_THRESHOLD
        ball = (
            None
            if rec is None or label is None
            else next((b for b in rec["balls"] if b["label"] == label), None)
        )
        if ball is None:
            continue
        r = ball["r_px"] or (box[2] - box[0]) / 2.0
        ours = (ball["x_px"] - r, ball["y_px"] - r, ball["x_px"] + r, ball["y_px"] + r)
        hits += iou(ours, box) > TASK3_IOU_THRESHOLD
        centre = ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)
        errors_px.append(math.dist(centre, (ball["x_px"], ball["y_px"])))
        if view is not None:
            truth_mm = view.image_to_table(np.array([centre]))[0]  # type: ignore[attr-defined]
            errors_mm.append(math.dist(truth_mm, (ball["x_mm"], ball["y_mm"])))
    n = len(truth)
    return TrackScore(
        label,
        n,
        (hits + hits_other) / n if n else 0.0,
        tuple(errors_px),
        tuple(errors_mm),
        in_view,
        hits,
        hits_other,
    )


def _pick_label(by_frame: dict[int, dict], truth: dict[int, tuple[float, ...]], cue: bool) -> str | None:
    """The track nearest the truth box on the earliest frame both exist (the cue ball if ``cue``)."""
    for frame in sorted(truth):
        rec = by_frame.get(frame)
        if rec is None or not rec["balls"]:
            continue
        box = truth[frame]
        centre = ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)
        candidates = [b for b in rec["balls"] if (b["ball"] == "white") == cue]
        if not candidates:
            continue
        best = min(candidates, key=lambda b: math.dist(centre, (b["x_px"], b["y_px"])))
        if math.dist(centre, (best["x_px"], best["y_px"])) <= max(box[2] - box[0], box[3] - box[1]):
            return best["label"]
    return None


def add_clip_arguments(parser: argparse.ArgumentParser, default_data: Path, data_help: str) -> None:
    """The options every footage evaluation takes: where the data is, which clips, a detection cache,
    the detector and whether the fast path is used."""
    parser.add_argument("--data", type=Path, default=default_data, help=data_help)
    parser.add_argument("--clips", type=int, nargs="*", help="clip numbers (default: all)")
    parser.add_argument("--cache", type=Path, help="folder to keep / reuse per-clip detections")
    parser.add_argument("--detector", default="classic", choices=("classic", "yolo"))
    parser.add_argument(
        "--no-fast-path", action="store_true", help="detect and check the view in full on every frame"
    )
    parser.add_argument(
        "--frame-loop",
        action="store_true",
        help="analyse through the frame loop itself, as `analyze` does (the table found again after "
        "cuts, a knocked camera followed); no --cache",
    )


@dataclass(frozen=True)
class LabelledCandidates:
    """The other-view cue-ball candidates of one clip, described for the learned score
    (``snooker.vision.cueball_score``): features (n, F) float32, whether each is the labelled cue
    ball (its box overlaps the truth box by IoU over ``match_iou``), its frame index and its
    whiteness (the rule the score replaces)."""

    features: np.ndarray
    is_cue_ball: np.ndarray
    frame: np.ndarray
    whiteness: np.ndarray


def labelled_other_view_candidates(
    path: Path,
    truth: dict[int, tuple[float, float, float, float]],
    match_iou: float = TASK3_IOU_THRESHOLD,
    frame_step: int = 1,
    config: AnalysisConfig | None = None,
    mirrored: bool = False,
) -> LabelledCandidates:
    """Every candidate a scored follower may see in the frames of the video ``path`` that do not
    show the calibrated table (decided as the frame loop decides: the table found once, then the
    view check), in every ``frame_step``-th such frame, labelled by ``truth`` (Task3/Task4 boxes).
    ``mirrored``: the frames (and boxes) flipped left to right first, as another camera on the
    other side of the table would show them (more training views)."""
    from snooker.vision.cueball_score import ScoreFeatureConfig
    from snooker.vision.otherview import training_candidates
    from snooker.vision.sources import open_source

    config = config or AnalysisConfig()
    shows_table = default_view_check(config)
    features = ScoreFeatureConfig()
    view = None
    rows: list[np.ndarray] = []
    labels: list[bool] = []
    frames: list[int] = []
    white: list[float] = []
    seen = 0
    with open_source(str(path)) as source:
        for frame in source:
            image = np.ascontiguousarray(frame.image[:, ::-1]) if mirrored else frame.image
            if view is None:
                with contextlib.suppress(TableNotFound):
                    view = find_table(image)
            if view is not None and shows_table(image, view):
                continue
            seen += 1
            if (seen - 1) % frame_step:
                continue
            candidates, described = training_candidates(image, config.other_view, features)
            box = truth.get(frame.index)
            if box is not None and mirrored:
                width = image.shape[1]
                box = (width - box[2], box[1], width - box[0], box[3])
            for candidate, row in zip(candidates, described, strict=True):
                r = candidate.r_px
                mine = (candidate.x_px - r, candidate.y_px - r, candidate.x_px + r, candidate.y_px + r)
                labels.append(box is not None and iou(mine, box) > match_iou)
                rows.append(row)
                frames.append(frame.index)
                white.append(candidate.whiteness)
    return LabelledCandidates(
        np.array(rows, np.float32).reshape(len(rows), features.count),
        np.array(labels, bool),
        np.array(frames, int),
        np.array(white, float),
    )


def top_candidate_hits(
    candidates: LabelledCandidates, scores: np.ndarray, min_whiteness: float
) -> tuple[int, int, int]:
    """Over the frames with the cue ball among the candidates: how many, in how many the top
    ``scores`` one is it, and in how many the whitest is it (and at least ``min_whiteness``)."""
    frames = scored_right = whitest_right = 0
    for index in np.unique(candidates.frame):
        rows = np.flatnonzero(candidates.frame == index)
        labels = candidates.is_cue_ball[rows]
        if not labels.any():
            continue
        frames += 1
        scored_right += bool(labels[np.argmax(scores[rows])])
        whitest = rows[np.argmax(candidates.whiteness[rows])]
        whitest_right += bool(
            candidates.is_cue_ball[whitest] and candidates.whiteness[whitest] >= min_whiteness
        )
    return frames, scored_right, whitest_right


BAULK_LINE_SAMPLES_MM = (
    150.0, 200.0, 250.0, 300.0, 350.0, 400.0, 450.0, 500.0,
    1280.0, 1330.0, 1380.0, 1430.0, 1480.0, 1530.0, 1580.0, 1628.0,
)  # fmt: skip
"""Places along the baulk line (table x, mm) where it is looked for: clear of the D's spots."""
BAULK_LINE_MIN_RIDGE = 6.0
"""The line's brightest place must stand this much (HSV value units) above the profile's median."""


def found_views(stills: list[Path]):
    """(image, view) of every still (image file) whose table ``find_table`` finds."""
    for path in stills:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        try:
            yield image, find_table(image)
        except TableNotFound:
            continue


def spot_offsets(stills: list[Path], max_from_spot_mm: float) -> dict[str, list[list[float]]]:
    """Per colour, the (dx, dy) mm offsets from its spot of the balls the classical detector
    finds within ``max_from_spot_mm`` of it (taken to lie on it) in ``stills``, through the
    table found in each: a calibration without bias reads them at about 0."""
    detector = ClassicDetector()
    spots = STANDARD_TABLE.spots
    offsets: dict[str, list[list[float]]] = {name: [] for name in spots}
    for image, view in found_views(stills):
        detections = detector(image, view)
        for xy, ball in zip(detections.xy_mm, detections.ball, strict=True):
            name = str(ball)
            if name in spots:
                offset = np.asarray(xy, float) - np.asarray(spots[name], float)
                if np.hypot(*offset) <= max_from_spot_mm:
                    offsets[name].append(offset.round(2).tolist())
    return offsets


def baulk_line_offsets(stills: list[Path], search_mm: float) -> list[float]:
    """Per still where the painted baulk line shows, how far beyond 737 mm (along the table) it
    reads (mm): the brightest place within ``search_mm`` across it, at ``BAULK_LINE_SAMPLES_MM``."""
    found = []
    across = np.arange(-search_mm, search_mm + 0.5, 1.0)
    for image, view in found_views(stills):
        value = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 2].astype(np.float32)
        places = []
        for x in BAULK_LINE_SAMPLES_MM:
            xy = np.column_stack([np.full_like(across, x), STANDARD_TABLE.baulk_line_y_mm + across])
            px = view.table_to_image(xy).astype(np.float32)
            rows, cols = px[:, 1].reshape(1, -1), px[:, 0].reshape(1, -1)
            profile = cv2.remap(value, cols, rows, cv2.INTER_LINEAR).ravel()
            best = int(np.argmax(profile))
            if profile[best] - np.median(profile) >= BAULK_LINE_MIN_RIDGE:
                places.append(float(across[best]))
        if places:
            found.append(float(np.median(places)))
    return found
