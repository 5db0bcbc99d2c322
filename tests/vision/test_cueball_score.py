"""The learned cue-ball score's model file and features (``snooker.vision.cueball_score``): the
packaged model loads and agrees with its own JSON, a broken file is refused naming the file and the
field, scores are probabilities, and the features say what they claim on a drawn side view."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from side_views import LAYOUT, H, radius_at, side_view

from snooker.vision.cueball_score import (
    DEFAULT_MODEL,
    SCALAR_FEATURES,
    CueBallScoreModel,
    ScoreFeatureConfig,
    packaged_model,
)
from snooker.vision.otherview import OtherViewConfig, training_candidates

COUNT = ScoreFeatureConfig().count


def test_the_packaged_model_loads_with_the_features_the_code_makes():
    model = packaged_model()
    assert len(model.mean) == COUNT == len(SCALAR_FEATURES) + 2 * 8 * 8 + 2
    record = json.loads(DEFAULT_MODEL.read_text())
    assert (
        record["training"]["held_out"]["top_scored_is_cue_ball"]
        > record["training"]["held_out"]["whitest_is_cue_ball"]
    )


def test_the_json_round_trip_scores_the_same(tmp_path):
    model = packaged_model()
    path = tmp_path / "model.json"
    path.write_text(model.to_json())
    features = np.random.default_rng(0).normal(model.mean, model.scale, (50, COUNT)).astype(np.float32)
    assert np.allclose(CueBallScoreModel.load(path)(features), model(features))


def _broken(record: dict, change: str) -> dict:
    broken = json.loads(json.dumps(record))
    if change == "schema":
        broken["schema"] = "something/else"
    elif change == "short_mean":
        broken["mean"] = broken["mean"][:-1]
    elif change == "zero_scale":
        broken["scale"][3] = 0.0
    elif change == "missing_bias":
        del broken["logistic"]["bias"]
    elif change == "hidden_shape":
        broken["perceptron"]["output_weights"] = broken["perceptron"]["output_weights"][:-2]
    elif change == "not_a_number":
        broken["perceptron"]["output_bias"] = "big"
    elif change == "other_features":
        broken["features"]["names"].remove("found_by_whiteness")
    return broken


@pytest.mark.parametrize(
    "change, named",
    [
        ("schema", "schema"),
        ("short_mean", "mean"),
        ("zero_scale", "scale"),
        ("missing_bias", "bias"),
        ("hidden_shape", "output_weights"),
        ("not_a_number", "big"),
        ("other_features", "found_by_whiteness"),
    ],
)
def test_a_broken_model_is_refused_naming_the_file_and_the_field(tmp_path, change, named):
    path = tmp_path / "model.json"
    path.write_text(json.dumps(_broken(json.loads(DEFAULT_MODEL.read_text()), change)))
    with pytest.raises(ValueError, match=named) as error:
        CueBallScoreModel.load(path)
    assert str(path) in str(error.value)


@pytest.mark.parametrize("text, named", [(None, "cannot read"), ("{not json", "not JSON")])
def test_a_missing_or_unreadable_model_is_refused(tmp_path, text, named):
    path = tmp_path / "model.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError, match=named):
        CueBallScoreModel.load(path)


def test_features_of_the_wrong_width_are_refused():
    with pytest.raises(ValueError, match=f"{COUNT}"):
        packaged_model()(np.zeros((2, COUNT - 1), np.float32))


@settings(max_examples=50, deadline=None)
@given(hnp.arrays(np.float32, (3, COUNT), elements=st.floats(-1e6, 1e6, width=32)))
def test_scores_are_probabilities(features):
    scores = packaged_model()(features)
    assert scores.shape == (3,) and np.all((scores >= 0) & (scores <= 1))


def test_feature_config_rejects_nonsense():
    with pytest.raises(ValueError):
        ScoreFeatureConfig(patch_px=1)
    with pytest.raises(ValueError):
        ScoreFeatureConfig(patch_radii=0.0)
    with pytest.raises(ValueError):
        ScoreFeatureConfig(thumbnail_spread_floor=0.0)


@pytest.fixture(scope="module")
def described():
    balls = [*LAYOUT, ("white", 520, 480)]
    candidates, features = training_candidates(side_view(balls), OtherViewConfig(), ScoreFeatureConfig())
    return balls, candidates, features


class TestFeaturesOnADrawnView:
    def test_one_row_of_finite_features_per_candidate(self, described):
        _, candidates, features = described
        assert features.shape == (len(candidates), COUNT) and features.dtype == np.float32
        assert np.all(np.isfinite(features))

    def test_the_named_features_measure_what_they_say(self, described):
        balls, candidates, features = described
        column = {name: k for k, name in enumerate(SCALAR_FEATURES)}
        for _name, x, y in balls:
            k = int(np.argmin([np.hypot(c.x_px - x, c.y_px - y) for c in candidates]))
            row = features[k]
            assert row[column["whiteness"]] == pytest.approx(candidates[k].whiteness, abs=1e-3)
            assert row[column["radius_over_height"]] * H == pytest.approx(radius_at(y), rel=0.3)
            assert row[column["sized_alike"]] == 1.0  # drawn balls agree in size with the others
            assert row[column["found_by_rim"]] == row[column["found_by_whiteness"]] == 0.0
            assert 0.6 < row[column["radius_over_plane"]] < 1.4
        white = int(np.argmax([c.whiteness for c in candidates]))
        assert features[white, column["core_lightness"]] > features[:, column["core_lightness"]].mean()
