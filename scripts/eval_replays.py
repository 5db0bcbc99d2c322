"""Replays from the main camera: does the analysis rule a stroke shown again once, and only once?

    .venv/bin/python scripts/eval_replays.py [--clips 1 2 3] [--slow 1 2] [--jobs 2] [--json OUT]
        [--cut-frames 30] [--replays-off]

For each shared Task2 clip, a broadcast-like video is made (``snooker.datasets.replay_video``):
the stroke live, a cut to another view (Task4 clip 3), the stroke again from the same camera
(each frame shown ``--slow`` times), a wipe, and the table live again (a second of the other view
and a third of a second of wipe; ``--cut-frames N`` makes both N frames). Both the clip alone and
that video are analysed; printed per clip and in total: whether the video's strokes are the
clip's (first contacts, pots with pockets, the cue ball's fate), how many replays were found,
and whether the referee's score after the strokes is the same; ``--replays-off`` analyses as if
replays were not told apart, the baseline. The videos are written under
``out/replays/`` (git-ignored), never into the repository.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from snooker.datasets.replay_video import OTHER_VIEW_TASK4_CLIP, ReplayVideoPlan, write_replay_video
from snooker.datasets.shared import bucharest_training
from snooker.pipeline.analyze import AnalysisConfig
from snooker.tracker.replays import ReplayConfig

DEFAULT_DATA = bucharest_training()


def evaluate_clip(job: tuple[int, int, Path, Path, bool, int | None]) -> dict:
    from snooker.pipeline.evaluation import final_score, run_clip, stroke_facts
    from snooker.vision.detector import make_detector

    number, slow, data, out, replays_on, cut_frames = job
    detector = make_detector("classic")
    config = AnalysisConfig(replays=ReplayConfig(enabled=replays_on))
    clip = data / "Task2" / f"{number}.mp4"
    plain = run_clip(clip, detector, config)
    if not plain.frames:
        return {"clip": number, "slow": slow, "error": "no table tracked in the clip"}
    plan = ReplayVideoPlan(last_frame=int(plain.frames[-1]["i"]), slow=slow)
    if cut_frames is not None:
        plan = replace(plan, cut_frames=cut_frames, wipe_frames=cut_frames)
    video = out / f"{number}_slow{slow}_cut{plan.cut_frames}_wipe{plan.wipe_frames}.mp4"
    write_replay_video(clip, data / "Task4" / f"{OTHER_VIEW_TASK4_CLIP}.mp4", video, plan)
    replayed = run_clip(video, detector, config)
    return {
        "clip": number,
        "slow": slow,
        "strokes_clip": len(plain.strokes),
        "strokes_video": len(replayed.strokes),
        "same_strokes": stroke_facts(plain.strokes) == stroke_facts(replayed.strokes),
        "replays": [r.to_dict() for r in replayed.stage.replays],
        "score_clip": final_score(plain.strokes),
        "score_video": final_score(replayed.strokes),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the Bucharest training folder")
    parser.add_argument("--clips", type=int, nargs="+", default=list(range(1, 26)))
    parser.add_argument("--slow", type=int, nargs="+", default=[1, 2], help="replay slowed this many times")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("out/replays"))
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--cut-frames",
        type=int,
        help="frames of another view before the replay and of the wipe after it (default 30 and 10)",
    )
    parser.add_argument(
        "--replays-off", action="store_true", help="analyse without telling replays apart (the baseline)"
    )
    args = parser.parse_args(argv)
    if not (args.data / "Task2").is_dir():
        print(f"eval_replays: no Task2 clips at {args.data}", file=sys.stderr)
        return 2
    jobs = [
        (n, slow, args.data, args.out, not args.replays_off, args.cut_frames)
        for slow in args.slow
        for n in args.clips
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(evaluate_clip, jobs))
    print(f"{'clip':>4} {'slow':>4} {'strokes':>9} {'same':>5} {'replays':>7}  score clip / video")
    for r in results:
        if "error" in r:
            print(f"{r['clip']:>4} {r['slow']:>4}  {r['error']}")
            continue
        strokes = f"{r['strokes_clip']}/{r['strokes_video']}"
        print(
            f"{r['clip']:>4} {r['slow']:>4} {strokes:>9} {'yes' if r['same_strokes'] else 'NO':>5} "
            f"{len(r['replays']):>7}  {r['score_clip']} / {r['score_video']}"
        )
    for slow in args.slow:
        rows = [r for r in results if r["slow"] == slow and "error" not in r]
        same = sum(r["same_strokes"] for r in rows)
        scores = sum(r["score_clip"] == r["score_video"] for r in rows)
        found = sum(bool(r["replays"]) for r in rows)
        print(
            f"slowed {slow}x: strokes as the clip's in {same}/{len(rows)} videos, score the same in "
            f"{scores}/{len(rows)}, a replay found in {found}/{len(rows)}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
