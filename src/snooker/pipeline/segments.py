"""One long video analysed as segments on several cores, joined back into one analysis.

A video of ``n`` frames gets evenly spaced starts (:func:`plan_segments`), one per worker process,
each running a fresh :class:`~snooker.pipeline.analyze.VideoAnalysis` from its start. A segment
does not stop at the next one's start: it reads on until it finds a *hand-over frame* ``q``
(:class:`Handover`): a frame both analyses read with a quiet stretch around it (no stroke running
in either, no ball moving, the cue ball seen), the later analysis past its warm-up, and both
holding the same balls (same names, same places within a tolerance, each seen there by at least
one of them). The later analysis publishes its quiet frames to a file as it reads them; the
earlier one looks there at each of its own. Where no such frame comes (strokes back to back, a
replay) the earlier analysis reads to the end, as one process would have: splitting never costs
more than the other cores' work. Everything before ``q`` comes from the earlier analysis,
everything from ``q`` on from the later one, whose ball identities (``red-N`` numbers, track ids)
are renamed to the earlier one's at ``q``; balls it first sees after ``q`` get fresh ones
(:func:`rename`, :func:`chain_segments`). Apart from :class:`Handover`'s files the functions
here are pure over the workers' results (:class:`SegmentResult`); the process pool is the
command's (``snooker.app.analyze``).
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

from snooker.balls import CUE_BALL
from snooker.pipeline.analyze import analysis_document
from snooker.tracker import StrokeEvents
from snooker.tracker.replays import Replay
from snooker.tracker.strokes import OutsideEvent
from snooker.tracker.types import CushionContact
from snooker.vision.sources import UNDECODED

RED_LABEL = re.compile(r"^red-(\d+)$")


@dataclass(frozen=True)
class SegmentConfig:
    """When and how one video is split into segments (counts are frames of the video).

    ``min_segment_frames``: a video is cut into at most ``frame_count // min_segment_frames``
    segments (a worker process's start — imports, finding the table — only pays on long parts);
    fewer than two and it is analysed in one piece.
    ``warmup_frames``: the later analysis must have read this many frames of its segment before it
    can take over (the tracker confirms its balls and learns which rest; 3 s at 30 fps).
    ``stroke_margin_frames``: the frames this far before a hand-over frame must be quiet too (both
    analyses' stroke starts can differ by a few frames).
    ``settle_frames``: a frame counts as quiet only once this many frames after it were quiet as
    well (no ball moving, no stroke running, the cue ball seen): a stroke's start is dated back to
    the cue ball's last rest, so it is only known for sure some frames later.
    ``position_tolerance_mm``: both analyses place each ball within this distance at the hand-over
    frame (calibrations of the same view differ by a few mm; a red's neighbour in a pack lies a
    ball diameter, 52.5 mm, away).
    ``starting_view_search_frames``: the view every later segment starts from is looked for in at
    most this many frames from the video's start (else each segment finds its own).
    ``pending_frames``: how many of its quiet frames the earlier analysis keeps waiting for the
    later one to judge (the later one may run behind); older ones are given up.
    ``later_niceness``: how much lower (Unix ``nice`` steps) the processes of every segment but
    the first run: the first one is on the critical path, and where it never hands over it must
    not be slowed by work that will be thrown away.
    """

    min_segment_frames: int = 3000
    warmup_frames: int = 90
    stroke_margin_frames: int = 5
    settle_frames: int = 30
    position_tolerance_mm: float = 20.0
    starting_view_search_frames: int = 300
    pending_frames: int = 1800
    later_niceness: int = 10

    def __post_init__(self) -> None:
        if self.min_segment_frames < 1:
            raise ValueError("min_segment_frames must be >= 1")
        if min(self.warmup_frames, self.stroke_margin_frames, self.settle_frames) < 0:
            raise ValueError("warmup_frames, stroke_margin_frames and settle_frames must be >= 0")
        if self.position_tolerance_mm <= 0:
            raise ValueError("position_tolerance_mm must be > 0")
        if self.later_niceness < 0 or self.pending_frames < 1:
            raise ValueError("later_niceness must be >= 0 and pending_frames >= 1")


@dataclass(frozen=True)
class Segment:
    """A worker's part of the video: it reads from frame ``start`` until it hands over to the
    next segment's analysis, or to ``stop`` (None: the video's end) where it never can."""

    start: int
    stop: int | None


def plan_segments(frame_count: int | None, jobs: int, config: SegmentConfig) -> list[Segment]:
    """Even starts of a video of ``frame_count`` frames for ``jobs`` workers; ``[]`` when it is
    not worth splitting (one job, frame count unknown — a stream — or too short)."""
    if not frame_count or jobs < 2:
        return []
    count = min(jobs, frame_count // config.min_segment_frames)
    if count < 2:
        return []
    return [Segment(round(k * frame_count / count), None) for k in range(count)]


@dataclass
class SegmentResult:
    """What one worker's analysis from frame ``start`` found: it read until it handed over
    (``handed_over_at``) or to ``stop`` (None: the video's end).

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
    other_views: list[dict] = field(default_factory=list)
    """The cue ball in frames of other views (``VideoAnalysis.other_views``)."""
    strokes: list[StrokeEvents] = field(default_factory=list)
    outside_events: list[OutsideEvent] = field(default_factory=list)
    replays: list[Replay] = field(default_factory=list)
    """Replays whose strokes were dropped (``VideoAnalysis.stage.replays``)."""
    skips: list[tuple[int, int, str]] = field(default_factory=list)
    views: list[dict] = field(default_factory=list)
    gaps: list[dict] = field(default_factory=list)
    """Where the source lacked frames (``SourceGap.to_record``), by the frame after each."""
    calibration: dict | None = None
    finished: bool = False
    error: str | None = None
    handed_over_at: int | None = None
    """The frame from which the next segment's analysis takes over (None: this one read on to
    its ``stop``)."""

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


# --------------------------------------------------------------------- hand-over frame
def match_balls(
    earlier: list[dict], later: list[dict], tolerance_mm: float
) -> tuple[dict[str, str], dict[int, int]] | None:
    """The later analysis's labels and track ids at one frame mapped to the earlier one's (balls
    of a kind paired by least total distance), or None where the later one, which is to take
    over, knows less of the table than the earlier one:

    - a ball the earlier one sees has no ball of its kind in the later one within
      ``tolerance_mm`` (seen or held there);
    - a ball the later one sees is paired with one the earlier one also sees, farther away;
    - two paired balls, both held unseen, lie farther apart.

    What the later one knows better is accepted: a ball the earlier one holds unseen where it last
    saw it and the later one sees elsewhere (moved out of the earlier one's sight), a ball only
    the later one sees, and a ball the earlier one holds unseen that the later one has not met
    (it finds it as soon as it shows). Later balls left unpaired are not in the mapping (they get
    fresh names: :class:`Identities`)."""
    labels: dict[str, str] = {}
    ids: dict[int, int] = {}
    kinds = {b["ball"] for b in earlier} | {b["ball"] for b in later}
    for kind in sorted(kinds):
        ours = [b for b in earlier if b["ball"] == kind]
        theirs = [b for b in later if b["ball"] == kind]
        paired_ours = np.zeros(len(ours), dtype=bool)
        if ours and theirs:
            a = np.array([[b["x_mm"], b["y_mm"]] for b in ours], dtype=float)
            b_ = np.array([[b["x_mm"], b["y_mm"]] for b in theirs], dtype=float)
            cost = np.linalg.norm(a[:, None, :] - b_[None, :, :], axis=2)
            rows, cols = linear_sum_assignment(cost)
            for r, c in zip(rows, cols, strict=True):
                close = cost[r, c] <= tolerance_mm
                if not close and (ours[r]["visible"] or not theirs[c]["visible"]):
                    return None
                paired_ours[r] = True
                labels[theirs[c]["label"]] = ours[r]["label"]
                ids[theirs[c]["id"]] = ours[r]["id"]
        if any(ball["visible"] and not paired for ball, paired in zip(ours, paired_ours, strict=True)):
            return None
    return labels, ids


def is_quiet(record: dict, in_stroke: bool) -> bool:
    """Whether a frame record (analysis.json) can hold a hand-over: balls on the table, none
    moving, the cue ball seen, and no stroke running."""
    balls = record["balls"]
    return (
        not in_stroke
        and bool(balls)
        and not any(b["moving"] for b in balls)
        and any(b["ball"] == CUE_BALL and b["visible"] for b in balls)
    )


class QuietFrames:
    """The frames of one analysis that have settled quiet: pushed one by one as they are read, a
    frame ``q`` is given back once frames ``q - stroke_margin_frames`` to ``q + settle_frames``
    were all read, in a row, and quiet (:func:`is_quiet`)."""

    def __init__(self, config: SegmentConfig) -> None:
        self.before, self.after = config.stroke_margin_frames, config.settle_frames
        self._recent: deque[tuple[int, dict, bool]] = deque(maxlen=self.before + self.after + 1)

    def push(self, record: dict, in_stroke: bool) -> dict | None:
        """Take the next frame read; the record of the frame that settled quiet with it, if any."""
        if self._recent and record["i"] != self._recent[-1][0] + 1:
            self._recent.clear()  # a frame skipped: quiet runs start again
        self._recent.append((record["i"], record, is_quiet(record, in_stroke)))
        if len(self._recent) == self._recent.maxlen and all(quiet for _, _, quiet in self._recent):
            return self._recent[self.before][1]
        return None


@dataclass(frozen=True)
class HandoverFiles:
    """A segment's links to its neighbours (see :class:`Handover`): the file its frames are
    published to (None for the first segment), and the next segment's file and first frame
    (None for the last)."""

    publish: Path | None = None
    follow: Path | None = None
    follow_start: int | None = None

    def __post_init__(self) -> None:
        if (self.follow is None) != (self.follow_start is None):
            raise ValueError("follow and follow_start are given together")


class Handover:
    """Where one segment's analysis hands over to the next one's, found while both run in their
    own processes. The later one *publishes* one line per frame it reads to a file: the frame and,
    for the frame that settled with it (:class:`QuietFrames`) past its warm-up, that frame's
    balls. The earlier one reads on past the later one's start and keeps its own settled quiet
    frames *pending* until the later one has judged the same frames; the first one both found
    quiet, holding the balls alike (:func:`match_balls`), is the hand-over, even if the earlier
    one has read past it meanwhile (a later part that runs behind — it runs at a lower priority —
    loses nothing). Until then the earlier analysis simply reads on, so a video that never joins
    costs no more than one process reading it all.

    ``start`` is this analysis's first frame, ``files`` its links to its neighbours.
    """

    def __init__(self, config: SegmentConfig, start: int, files: HandoverFiles | None = None) -> None:
        files = files or HandoverFiles()
        self.config = config
        self.quiet = QuietFrames(config)
        self.first_published = start + config.warmup_frames
        self.first_followed = (
            None if files.follow_start is None else files.follow_start + config.warmup_frames
        )
        self._out = None if files.publish is None else files.publish.open("w", encoding="utf-8")
        self._follow = files.follow
        self._offset = 0
        self._lines: deque[bytes] = deque()
        self._pending: deque[dict] = deque(maxlen=config.pending_frames)
        self._their_read = -1
        self._theirs: dict[int, list[dict]] = {}

    def push(self, record: dict, in_stroke: bool) -> int | None:
        """Take the frame record just read (and whether a stroke is running); the hand-over frame
        once this analysis may stop reading, else None."""
        settled = self.quiet.push(record, in_stroke)
        if self._out is not None:
            published = settled is not None and settled["i"] >= self.first_published
            line = (
                {"read": record["i"], "i": settled["i"], "balls": settled["balls"]}
                if published
                else {"read": record["i"]}
            )
            self._out.write(json.dumps(line) + "\n")
            self._out.flush()
        if self.first_followed is None:
            return None
        if settled is not None and settled["i"] >= self.first_followed:
            self._pending.append(settled)
        while self._pending:
            judged, theirs = self._judged(self._pending[0]["i"])
            if not judged:
                return None
            mine = self._pending.popleft()
            if theirs is not None and match_balls(mine["balls"], theirs, self.config.position_tolerance_mm):
                return mine["i"]
        return None

    def _judged(self, frame: int) -> tuple[bool, list[dict] | None]:
        """Whether the next analysis has judged ``frame`` yet (read the frames it settles with),
        and its balls there where it found it quiet. Its lines are read only as far as needed,
        and what lies before ``frame`` is forgotten."""
        needed = frame + self.config.settle_frames
        while self._their_read < needed:
            line = self._next_line()
            if line is None:
                return False, None
            self._their_read = line["read"]
            if "i" in line:
                self._theirs[line["i"]] = line["balls"]
        for old in [k for k in self._theirs if k < frame]:
            del self._theirs[old]
        return True, self._theirs.pop(frame, None)

    def _next_line(self) -> dict | None:
        """The next complete line the next analysis published (None: none yet)."""
        if not self._lines and self._follow is not None and self._follow.exists():
            with self._follow.open("rb") as source:
                source.seek(self._offset)
                data = source.read()
            complete = data[: data.rfind(b"\n") + 1]  # a line still being written waits
            self._offset += len(complete)
            self._lines.extend(complete.splitlines())
        return json.loads(self._lines.popleft()) if self._lines else None

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None


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
        other_views=[f for f in result.other_views if inside(f["i"])],
        strokes=[s for s in result.strokes if inside(s.start_frame)],
        outside_events=[e for e in result.outside_events if inside(e.frame)],
        replays=[r for r in result.replays if inside(r.first_frame)],
        skips=[(a, b, reason) for a, b, reason in skips if a <= b],
        views=[v for v in result.views if inside(v["frame"])],
        gaps=[g for g in result.gaps if inside(g["after_frame"] + 1)],
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

    @property
    def outside_events(self) -> list[OutsideEvent]:
        return [e for part in self.parts for e in part.outside_events]

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
            **source_record([g for p in parts for g in p.gaps]),
        }
        complete = self.error is None and all(p.finished and p.error is None for p in parts)
        return analysis_document(
            record,
            calibration,
            [f for p in parts for f in p.frames],
            self.strokes,
            self.outside_events,
            skipped,
            complete=complete,
            rulings=rulings,
            error=self.error,
            other_views=[f for p in parts for f in p.other_views],
            replays=[r for p in parts for r in p.replays],
        )


def source_record(gaps: list[dict]) -> dict:
    """analysis.json's ``video`` fields on what the source lacked (``SourceStats.to_record``), from
    the gaps of the parts joined."""
    undecodable = sum(g["missing_frames"] for g in gaps if g["why"] in UNDECODED)
    missing = sum(g["missing_frames"] for g in gaps) - undecodable
    return {"frames_missing": missing, "frames_undecodable": undecodable, "gaps": gaps}


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


def chain_segments(results: list[SegmentResult], config: SegmentConfig) -> Stitched:
    """Join the segments' analyses (in video order) into one: each hands over to the next at its
    ``handed_over_at``; one that read on to its stop (it never found a frame to hand over at)
    covers the rest of the video, and the analyses after it are left out. A segment that failed
    ends the chain: what came before it and what it read are kept, the rest is named in the
    error."""
    chain: list[SegmentResult] = []
    cuts: list[int] = []
    error = None
    for k, result in enumerate(results):
        chain.append(result)
        if result.error is not None:
            error = f"{result.describe()}: {result.error}"
            if k + 1 < len(results):
                error += f"; frames from {result.end} on were not analysed"
            break
        if result.handed_over_at is None or k + 1 == len(results):
            break
        cuts.append(result.handed_over_at)
    return Stitched(join(chain, cuts, config), cuts, error)
