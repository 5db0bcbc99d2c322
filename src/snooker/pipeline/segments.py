"""One long video analysed as segments on several cores, stitched back into one analysis.

A video of ``n`` frames is cut evenly into segments; each is analysed by a fresh
:class:`~snooker.pipeline.analyze.VideoAnalysis` over its own frames plus an overlap into the next
one (:func:`plan_segments`). Two neighbours are joined at a *stitch frame* ``q`` inside the overlap
(:func:`find_stitch`): a frame both analyses read, with no stroke running in either (nor within a
margin of it), no ball moving, the later analysis past its warm-up, and both holding the same balls
(same names, same places within a tolerance, each seen there by at least one of them: a ball one
analysis holds where the other sees it is the same ball; one missing from either, or held unseen
by both, rejects the frame). Everything before ``q``
comes from the earlier analysis, everything from ``q`` on from the later one, whose ball identities
(``red-N`` numbers, track ids) are renamed to the earlier one's at ``q``; balls it first sees after
``q`` get fresh ones (:func:`rename`). Where no such frame exists (a stroke running through the
whole overlap, a replay) nothing is stitched: the caller re-analyses the two segments as one
(:func:`stitch_segments`' ``reanalyse``). The functions here are pure over the workers' results
(:class:`SegmentResult`); the process pool is the command's (``snooker.app.analyze``).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.optimize import linear_sum_assignment

from snooker.pipeline.analyze import analysis_document
from snooker.tracker import StrokeEvents
from snooker.tracker.strokes import OutsideEvent
from snooker.tracker.types import CushionContact

RED_LABEL = re.compile(r"^red-(\d+)$")


@dataclass(frozen=True)
class SegmentConfig:
    """When and how one video is split into segments (counts are frames of the video).

    ``min_segment_frames``: a video is cut into at most ``frame_count // min_segment_frames``
    segments (a worker process's start — imports, finding the table — and the overlap only pay
    on long parts); fewer than two and it is analysed in one piece.
    ``overlap_frames``: each segment but the last reads this many frames into the next one; the
    stitch frame is looked for there (long enough to hold a pause between strokes even with a
    replay in it: 60 s at 25 fps).
    ``warmup_frames``: the later analysis must have read this many frames of its segment before a
    stitch frame (the tracker confirms its balls and learns which rest, 3 s at 30 fps).
    ``stroke_margin_frames``: no stroke of either analysis may start or end within this many
    frames of the stitch frame (their start and end frames can differ by a few frames).
    ``position_tolerance_mm``: both analyses place each ball within this distance at the stitch
    frame (calibrations of the same view differ by a few mm; a red's neighbour in a pack
    lies a ball diameter, 52.5 mm, away).
    ``starting_view_search_frames``: the view every later segment starts from is looked for in at
    most this many frames from the video's start (else each segment finds its own).
    """

    min_segment_frames: int = 3000
    overlap_frames: int = 1500
    warmup_frames: int = 90
    stroke_margin_frames: int = 5
    position_tolerance_mm: float = 20.0
    starting_view_search_frames: int = 300

    def __post_init__(self) -> None:
        if self.min_segment_frames < 1 or self.overlap_frames < 1:
            raise ValueError("min_segment_frames and overlap_frames must be >= 1")
        if not 0 <= self.warmup_frames < self.overlap_frames:
            raise ValueError("warmup_frames must lie in [0, overlap_frames)")
        if self.stroke_margin_frames < 0 or self.position_tolerance_mm <= 0:
            raise ValueError("stroke_margin_frames must be >= 0 and position_tolerance_mm > 0")


@dataclass(frozen=True)
class Segment:
    """Frames ``[start, stop)`` of the video for one worker (``stop`` None: to the video's end);
    ``stop`` includes the overlap into the next segment."""

    start: int
    stop: int | None


def plan_segments(frame_count: int | None, jobs: int, config: SegmentConfig) -> list[Segment]:
    """Cuts of a video of ``frame_count`` frames for ``jobs`` workers, even in the frames each
    worker reads (every segment but the last also reads the overlap); ``[]`` when it is not worth
    splitting (one job, frame count unknown — a stream — or too short)."""
    if not frame_count or jobs < 2:
        return []
    count = min(jobs, frame_count // config.min_segment_frames)
    if count < 2:
        return []
    own = (frame_count + (count - 1) * config.overlap_frames) / count - config.overlap_frames
    cuts = [round(k * own) for k in range(count)] + [frame_count]
    return [
        Segment(cuts[k], None if k == count - 1 else min(cuts[k + 1] + config.overlap_frames, frame_count))
        for k in range(count)
    ]


@dataclass
class SegmentResult:
    """What one worker's analysis of frames ``[start, stop)`` found (``stop`` None: to the end).

    ``frames`` are analysis.json frame records (read frames only); ``skips`` runs of skipped frames
    ``(first, last, reason)`` (inclusive); ``views`` the calibration attempts ``{frame, found}``;
    ``calibration`` the view's record without them (None where no table was found); ``read`` how
    many frames were read from ``start`` on; ``finished`` whether the analysis was closed normally.
    """

    start: int
    stop: int | None
    read: int = 0
    fps: float | None = None
    width: int | None = None
    height: int | None = None
    frames: list[dict] = field(default_factory=list)
    strokes: list[StrokeEvents] = field(default_factory=list)
    outside_events: list[OutsideEvent] = field(default_factory=list)
    skips: list[tuple[int, int, str]] = field(default_factory=list)
    views: list[dict] = field(default_factory=list)
    calibration: dict | None = None
    finished: bool = False
    error: str | None = None

    @property
    def end(self) -> int:
        """One past the last frame read."""
        return self.start + self.read

    def describe(self) -> str:
        stop = "the end" if self.stop is None else str(self.stop)
        return f"frames {self.start}–{stop}"


def skip_runs(runs: list[tuple[int, int, str]], frame: int, reason: str) -> None:
    """Add skipped ``frame`` to ``runs`` (frames in increasing order), extending the last run."""
    if runs and runs[-1][2] == reason and runs[-1][1] == frame - 1:
        runs[-1] = (runs[-1][0], frame, reason)
    else:
        runs.append((frame, frame, reason))


# --------------------------------------------------------------------- stitch frame
def _busy(frame: int, strokes: list[StrokeEvents], margin: int) -> bool:
    return any(s.start_frame - margin <= frame <= s.end_frame + margin for s in strokes)


def match_balls(
    earlier: list[dict], later: list[dict], tolerance_mm: float
) -> tuple[dict[str, str], dict[int, int]] | None:
    """The later analysis's labels and track ids at one frame mapped to the earlier one's (balls
    of a kind paired by least total distance), or None where they do not hold the same balls: a
    kind counted differently (a ball missing from one), a pair farther apart than
    ``tolerance_mm``, or a ball neither saw on this frame (held where it was last seen by both)."""
    labels: dict[str, str] = {}
    ids: dict[int, int] = {}
    kinds = {b["ball"] for b in earlier} | {b["ball"] for b in later}
    for kind in sorted(kinds):
        ours = [b for b in earlier if b["ball"] == kind]
        theirs = [b for b in later if b["ball"] == kind]
        if len(ours) != len(theirs):
            return None
        a = np.array([[b["x_mm"], b["y_mm"]] for b in ours], dtype=float)
        b_ = np.array([[b["x_mm"], b["y_mm"]] for b in theirs], dtype=float)
        cost = np.linalg.norm(a[:, None, :] - b_[None, :, :], axis=2)
        rows, cols = linear_sum_assignment(cost)
        for r, c in zip(rows, cols, strict=True):
            if cost[r, c] > tolerance_mm or not (ours[r]["visible"] or theirs[c]["visible"]):
                return None
            labels[theirs[c]["label"]] = ours[r]["label"]
            ids[theirs[c]["id"]] = ours[r]["id"]
    return labels, ids


def find_stitch(earlier: SegmentResult, later: SegmentResult, config: SegmentConfig) -> int | None:
    """The first frame where ``later`` can take over from ``earlier`` (see the module), or None."""
    later_frames = {f["i"]: f for f in later.frames}
    first = later.start + config.warmup_frames
    margin = config.stroke_margin_frames
    for record in earlier.frames:
        q = record["i"]
        other = later_frames.get(q)
        if q < first or other is None:
            continue
        if _busy(q, earlier.strokes, margin) or _busy(q, later.strokes, margin):
            continue
        if any(b["moving"] for b in record["balls"]) or any(b["moving"] for b in other["balls"]):
            continue
        if not record["balls"]:
            continue
        if match_balls(record["balls"], other["balls"], config.position_tolerance_mm) is not None:
            return q
    return None


# --------------------------------------------------------------------- trimming and renaming
def trim(result: SegmentResult, lo: int | None, hi: int | None) -> SegmentResult:
    """What ``result`` says about frames ``[lo, hi)`` (None: unbounded): frames, strokes (by start
    frame), events, skips, views; ``read`` counts the frames of that range it read."""
    low = result.start if lo is None else max(lo, result.start)
    high = result.end if hi is None else min(hi, result.end)

    def inside(frame: int) -> bool:
        return (lo is None or frame >= lo) and (hi is None or frame < hi)

    skips = [(max(a, low), min(b, high - 1), reason) for a, b, reason in result.skips]
    return replace(
        result,
        start=low,
        read=max(0, high - low),
        frames=[f for f in result.frames if inside(f["i"])],
        strokes=[s for s in result.strokes if inside(s.start_frame)],
        outside_events=[e for e in result.outside_events if inside(e.frame)],
        skips=[(a, b, reason) for a, b, reason in skips if a <= b],
        views=[v for v in result.views if inside(v["frame"])],
    )


@dataclass
class Identities:
    """Renaming of one analysis's balls: labels and track ids at the stitch frame, and the next
    fresh red number and track id for balls first seen after it."""

    labels: dict[str, str]
    ids: dict[int, int]
    next_red: int
    next_id: int

    def label(self, label: str) -> str:
        if label not in self.labels:
            if RED_LABEL.match(label):
                self.labels[label] = f"red-{self.next_red}"
                self.next_red += 1
            else:
                self.labels[label] = label
        return self.labels[label]

    def track(self, track_id: int) -> int:
        if track_id not in self.ids:
            self.ids[track_id] = self.next_id
            self.next_id += 1
        return self.ids[track_id]


def rename(result: SegmentResult, names: Identities) -> SegmentResult:
    """``result`` with every ball label and track id renamed (frames, their events, strokes — first
    contact, pots, off table, touching, cushion contacts, positions — and outside events), fresh
    names given in order of first appearance."""
    frames = []
    for record in result.frames:
        balls = [{**b, "id": names.track(b["id"]), "label": names.label(b["label"])} for b in record["balls"]]
        renamed = {**record, "balls": balls}
        if "events" in record:
            renamed["events"] = [{**e, "ball": names.label(e["ball"])} for e in record["events"]]
        frames.append(renamed)
    return replace(
        result,
        frames=frames,
        strokes=[_rename_stroke(s, names) for s in result.strokes],
        outside_events=[replace(e, label=names.label(e.label)) for e in result.outside_events],
    )


def _rename_stroke(stroke: StrokeEvents, names: Identities) -> StrokeEvents:
    def labels(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(names.label(v) for v in values)

    return replace(
        stroke,
        first_contact=labels(stroke.first_contact),
        potted=tuple(replace(p, label=names.label(p.label)) for p in stroke.potted),
        off_table=labels(stroke.off_table),
        touching=labels(stroke.touching),
        cushion_contacts=tuple(
            CushionContact(names.label(c.label), c.cushion, c.frame) for c in stroke.cushion_contacts
        ),
        positions_before={names.label(k): v for k, v in stroke.positions_before.items()},
        positions_after={names.label(k): v for k, v in stroke.positions_after.items()},
    )


def _highest(result: SegmentResult) -> tuple[int, int]:
    """The highest red number and track id ``result`` uses (0 where none)."""
    reds, ids = [0], [0]
    for record in result.frames:
        for b in record["balls"]:
            ids.append(b["id"])
            found = RED_LABEL.match(b["label"])
            if found:
                reds.append(int(found.group(1)))
    for stroke in result.strokes:
        for label in (*stroke.positions_before, *stroke.positions_after, *(p.label for p in stroke.potted)):
            found = RED_LABEL.match(label)
            if found:
                reds.append(int(found.group(1)))
    return max(reds), max(ids)


# --------------------------------------------------------------------- the whole video
@dataclass
class Stitched:
    """The segments joined: ``parts`` (trimmed, renamed) in order, the stitch frames between them,
    and what went wrong (a failed segment, segments left out after it)."""

    parts: list[SegmentResult]
    cuts: list[int]
    error: str | None = None

    @property
    def strokes(self) -> list[StrokeEvents]:
        return [s for part in self.parts for s in part.strokes]

    def document(self, video: str, rulings: list[dict] | None = None) -> dict:
        """The ``analysis.json`` document of the whole video (frames: the total read)."""
        parts = self.parts
        skipped: dict[str, int] = {}
        for part in parts:
            for a, b, reason in part.skips:
                skipped[reason] = skipped.get(reason, 0) + b - a + 1
        calibrated = [p for p in parts if p.calibration is not None]
        calibration = None
        if calibrated:
            calibration = {**calibrated[-1].calibration, "views": [v for p in parts for v in p.views]}
        first = parts[0] if parts else SegmentResult(0, None)
        record = {
            "path": video,
            "fps": first.fps,
            "frames": sum(p.read for p in parts),
            "width": next((p.width for p in parts if p.width), None),
            "height": next((p.height for p in parts if p.height), None),
        }
        complete = self.error is None and all(p.finished and p.error is None for p in parts)
        return analysis_document(
            record,
            calibration,
            [f for p in parts for f in p.frames],
            self.strokes,
            [e for p in parts for e in p.outside_events],
            skipped,
            complete=complete,
            rulings=rulings,
            error=self.error,
        )


def join(chain: list[SegmentResult], cuts: list[int], config: SegmentConfig) -> list[SegmentResult]:
    """The analyses of ``chain`` trimmed at ``cuts`` (``cuts[k]`` joins ``chain[k]`` to
    ``chain[k + 1]``), each later one renamed to the identities of the one before it."""
    parts: list[SegmentResult] = []
    previous: SegmentResult | None = None
    top_red, top_id = 0, 0
    for k, result in enumerate(chain):
        lo = cuts[k - 1] if k else None
        hi = cuts[k] if k < len(cuts) else None
        current = trim(result, lo, None)
        if previous is not None and lo is not None:
            at_q = next(f for f in previous.frames if f["i"] == lo)
            theirs = next(f for f in current.frames if f["i"] == lo)
            matched = match_balls(at_q["balls"], theirs["balls"], config.position_tolerance_mm)
            if matched is None:
                raise ValueError(f"frame {lo} does not join the analyses (not a stitch frame)")
            current = rename(current, Identities(*matched, next_red=top_red + 1, next_id=top_id + 1))
        red, track = _highest(current)
        top_red, top_id = max(top_red, red), max(top_id, track)
        parts.append(trim(current, None, hi))
        previous = current
    return parts


Reanalyse = Callable[[int, int | None], SegmentResult | None]
"""``reanalyse(start, stop)``: a fresh analysis of frames ``[start, stop)`` in one piece (None
where that cannot be done now: interrupted)."""


def stitch_segments(
    results: list[SegmentResult],
    config: SegmentConfig,
    reanalyse: Reanalyse,
    report: Callable[[str], None],
) -> Stitched:
    """Join the segments' analyses (in video order) into one. Two neighbours with no stitch frame
    are analysed again as one piece (``reanalyse``, said through ``report``); a segment that
    failed ends the chain: what came before it and what it read are kept, the rest is named in
    the error."""
    chain: list[SegmentResult] = []
    cuts: list[int] = []
    pending = deque(results)
    error = None
    while pending:
        result = pending.popleft()
        if chain:
            q = find_stitch(chain[-1], result, config)
            if q is None and result.error is None:
                earlier = chain[-1]
                report(
                    f"no quiet frame where the analyses of {earlier.describe()} and {result.describe()} "
                    f"agree (a stroke or a cut away across the overlap): analysing frames "
                    f"{earlier.start}–{'the end' if result.stop is None else result.stop} in one piece"
                )
                union = reanalyse(earlier.start, result.stop)
                if union is None:
                    error = f"{result.describe()} could not be joined to the frames before it"
                    pending.appendleft(result)
                    break
                chain.pop()
                del cuts[max(len(chain) - 1, 0) :]
                pending.appendleft(union)
                continue
            if q is None:
                error = f"{result.describe()}: {result.error}"
                pending.appendleft(result)
                break
            cuts.append(q)
        chain.append(result)
        if result.error is not None:
            error = f"{result.describe()}: {result.error}"
            break
    if pending and chain:
        error = f"{error}; frames from {chain[-1].end} on were not analysed"
    return Stitched(join(chain, cuts, config), cuts, error)
