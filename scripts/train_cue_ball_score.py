"""Train the learned cue-ball score of other views on labelled clips, and report how it generalises.

    .venv/bin/pip install scikit-learn==1.9.1     # a training-time dependency only
    .venv/bin/python scripts/train_cue_ball_score.py [--data DIR] [--clips 1 2 3] [--folds 5]
        [--candidates out/cue_ball_candidates.npz] [--write src/snooker/vision/weights/cue_ball_score.json]

For every frame of the clips that does not show the calibrated table (as the frame loop decides:
the table found once, then the view check on each frame), every candidate a scored follower may see
(``snooker.vision.otherview.training_candidates``) is described; it is the cue ball where its box
overlaps the labelled box with IoU > 0.2 (the Task3/Task4 criterion). The clips are split into
``--folds`` groups (clip number modulo folds); each group is scored by a model trained on the
others, so the report is on clips the model never saw: per frame with the cue ball among the
candidates, whether the top-scored candidate is it, against the whitest (the rule the score
replaces), and per frame without it, how often a candidate still scores ``min_score``. Then the
model is fitted on all clips and, with ``--write``, saved with these figures.

The model: features standardised, then the mean of a logistic regression's and a one-hidden-layer
perceptron's probabilities (``snooker.vision.cueball_score.CueBallScoreModel``). Unless
``--no-mirror``, every clip's frames are also described mirrored left to right (a camera on the
other side of the table), as extra training views; the held-out figures are on the frames as
filmed (clips held out with their mirrored frames). Measured (before white discs were
candidates): mirroring makes the top-scored candidate right in 2231 frames held out, against 2211
without. With white discs (2026-12-04): the cue ball among the candidates in 2361 frames, the
top-scored right in 2324.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from snooker.datasets.shared import bucharest_training

DEFAULT_DATA = bucharest_training()
HIDDEN_UNITS = 32
"""The perceptron's hidden layer."""
LOGISTIC_C = 0.1
"""Inverse L2 strength of the logistic regression."""
PERCEPTRON_ALPHA = 1e-2
"""L2 strength of the perceptron."""


@dataclass
class Described:
    """The candidates of a set of frames: features (n, F), whether each is the cue ball, its clip
    and frame, its whiteness (the rule compared against) and whether its frame was mirrored (a
    training view only: the figures are measured on the frames as filmed)."""

    features: np.ndarray
    is_cue_ball: np.ndarray
    clip: np.ndarray
    frame: np.ndarray
    whiteness: np.ndarray
    mirrored: np.ndarray


def describe_clip(args: tuple[Path, Path, bool]) -> Described:
    """The candidates of the other-view frames of one clip (mirrored or not), labelled by its truth."""
    import cv2

    from snooker.pipeline.evaluation import labelled_other_view_candidates, read_boxes

    video, truth_file, mirrored = args
    cv2.setNumThreads(1)
    found = labelled_other_view_candidates(video, read_boxes(truth_file), mirrored=mirrored)
    count = len(found.features)
    clip = np.full(count, int(video.stem))
    return Described(
        found.features, found.is_cue_ball, clip, found.frame, found.whiteness, np.full(count, mirrored)
    )


def fit(features: np.ndarray, is_cue_ball: np.ndarray, seed: int):  # -> CueBallScoreModel
    """The model fitted to ``features`` (n, F) and labels (n,)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler

    from snooker.vision.cueball_score import CueBallScoreModel, ScoreFeatureConfig

    scaler = StandardScaler().fit(features)
    z = scaler.transform(features)
    logistic = LogisticRegression(max_iter=2000, C=LOGISTIC_C).fit(z, is_cue_ball)
    perceptron = MLPClassifier((HIDDEN_UNITS,), alpha=PERCEPTRON_ALPHA, max_iter=500, random_state=seed).fit(
        z, is_cue_ball
    )
    return CueBallScoreModel(
        mean=scaler.mean_.astype(float),
        scale=np.where(scaler.scale_ > 0, scaler.scale_, 1.0).astype(float),
        logistic_weights=logistic.coef_[0].astype(float),
        logistic_bias=float(logistic.intercept_[0]),
        hidden_weights=perceptron.coefs_[0].astype(float),
        hidden_bias=perceptron.intercepts_[0].astype(float),
        output_weights=perceptron.coefs_[1][:, 0].astype(float),
        output_bias=float(perceptron.intercepts_[1][0]),
        features=ScoreFeatureConfig(),
    )


def frame_figures(data: Described, scores: np.ndarray, min_score: float, min_whiteness: float) -> dict:
    """Per frame: with the cue ball among the candidates, is the top-scored (the whitest, at least
    ``min_whiteness``) it; without it, does a candidate still score ``min_score``."""
    from snooker.pipeline.evaluation import LabelledCandidates, top_candidate_hits

    with_ball = scored_right = whitest_right = without_ball = false_alarms = 0
    for clip in np.unique(data.clip):
        mine = data.clip == clip
        part = LabelledCandidates(
            data.features[mine], data.is_cue_ball[mine], data.frame[mine], data.whiteness[mine]
        )
        frames, right, whitest = top_candidate_hits(part, scores[mine], min_whiteness)
        with_ball, scored_right, whitest_right = (
            with_ball + frames,
            scored_right + right,
            whitest_right + whitest,
        )
        for index in np.unique(part.frame):
            rows = part.frame == index
            if not part.is_cue_ball[rows].any():
                without_ball += 1
                false_alarms += bool(scores[mine][rows].max() >= min_score)
    return {
        "frames_with_cue_ball_candidate": with_ball,
        "top_scored_is_cue_ball": scored_right,
        "whitest_is_cue_ball": whitest_right,
        "frames_without": without_ball,
        "frames_without_scoring_min_score": false_alarms,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder holding Task4/")
    parser.add_argument("--clips", type=int, nargs="*", help="clip numbers (default: all)")
    parser.add_argument("--folds", type=int, default=5, help="clip groups for the held-out report")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="processes describing clips")
    parser.add_argument(
        "--candidates", type=Path, help="an .npz to keep the described candidates in and reuse"
    )
    parser.add_argument("--write", type=Path, help="save the model fitted on all clips here (JSON)")
    parser.add_argument(
        "--no-mirror", action="store_true", help="train on the frames as filmed only (not also mirrored)"
    )
    args = parser.parse_args(argv)
    try:
        import sklearn
    except ImportError:
        print("train_cue_ball_score: needs scikit-learn (pip install scikit-learn==1.9.1)", file=sys.stderr)
        return 2
    from snooker.vision.otherview import OtherViewConfig

    videos, truths = args.data / "Task4", args.data / "Task4" / "ground-truth"
    if not truths.is_dir():
        print(f"train_cue_ball_score: no Task4 truth under {args.data}", file=sys.stderr)
        return 2
    clips = args.clips or sorted(int(p.stem) for p in videos.glob("*.mp4"))
    if args.candidates is not None and args.candidates.exists():
        with np.load(args.candidates) as kept:
            data = Described(*(kept[name] for name in Described.__dataclass_fields__))
        data = _only(data, np.isin(data.clip, clips) & ~(args.no_mirror & data.mirrored))
    else:
        mirrors = (False,) if args.no_mirror else (False, True)
        jobs = [(videos / f"{n}.mp4", truths / f"{n}_ball_1_gt.txt", m) for m in mirrors for n in clips]
        with Pool(max(1, args.jobs)) as pool:
            parts = pool.map(describe_clip, jobs)
        data = Described(
            *(np.concatenate([getattr(p, name) for p in parts]) for name in Described.__dataclass_fields__)
        )
        if args.candidates is not None:
            args.candidates.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(args.candidates, **data.__dict__)
    cue_balls = int(data.is_cue_ball.sum())
    mirrored = int(data.mirrored.sum())
    print(
        f"{len(data.features)} candidates ({mirrored} of mirrored frames), {cue_balls} of them the cue ball, "
        f"{len(clips)} clips"
    )
    config = OtherViewConfig()
    held_out = np.zeros(len(data.features))
    for fold in range(args.folds):
        test = np.isin(data.clip, [n for n in clips if n % args.folds == fold])
        if not test.any() or test.all():
            continue
        model = fit(data.features[~test], data.is_cue_ball[~test], args.seed)
        held_out[test] = model(data.features[test])
    everything, filmed = data, ~data.mirrored
    held_out, data = held_out[filmed], _only(data, filmed)
    figures = frame_figures(data, held_out, config.min_score, config.min_whiteness)
    with_ball = figures["frames_with_cue_ball_candidate"]
    print(
        f"held out ({args.folds} clip groups): of {with_ball} frames with the cue ball among the candidates, "
        f"the top-scored is it in {figures['top_scored_is_cue_ball']}, the whitest in "
        f"{figures['whitest_is_cue_ball']}; of {figures['frames_without']} frames without it, "
        f"{figures['frames_without_scoring_min_score']} have a candidate scoring {config.min_score}"
    )
    for n in clips:
        part = _only(data, data.clip == n)
        clip_figures = frame_figures(part, held_out[data.clip == n], config.min_score, config.min_whiteness)
        print(
            f"  clip {n:2d}: {clip_figures['top_scored_is_cue_ball']:4d} / "
            f"{clip_figures['frames_with_cue_ball_candidate']:4d} scored, "
            f"{clip_figures['whitest_is_cue_ball']:4d} whitest"
        )
    if args.write is not None:
        model = fit(everything.features, everything.is_cue_ball, args.seed)
        training = {
            "training": {
                "clips": [f"Task4/{n}.mp4" for n in clips],
                "mirrored_too": not args.no_mirror,
                "candidates": len(everything.features),
                "cue_ball_candidates": int(everything.is_cue_ball.sum()),
                "held_out": {"folds": args.folds, **figures},
                "scikit_learn": sklearn.__version__,
                "seed": args.seed,
            }
        }
        args.write.write_text(model.to_json(training))
        print(f"wrote {args.write}")
    return 0


def _only(data: Described, keep: np.ndarray) -> Described:
    return Described(*(getattr(data, name)[keep] for name in Described.__dataclass_fields__))


if __name__ == "__main__":
    sys.exit(main())
