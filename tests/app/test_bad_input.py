"""Bad input through every `snooker-referee` subcommand a user runs on files: a clear one-line error
naming the file and the problem, a non-zero exit status, no traceback, and whatever was read before
the failure kept (analysis and frame log written, record rows committed)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import pytest

from snooker.cli import main
from snooker.record.store import MatchRecord

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"
CALIBRATION = SAMPLES / "demo_clip.calibration.json"
FRAME_LOG = SAMPLES / "demo_frame.jsonl"
BROKEN_AT_FRAMES = 150
"""Frames of the demo clip written to the clip that breaks off: its first stroke (frames 16-82)
is settled at frame 104, its second starts at frame 121."""
KEPT_FRACTION = 0.8
"""How much of that clip's file is left: it breaks off after its first stroke is settled."""


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of broken inputs made from the shipped samples."""
    folder = tmp_path_factory.mktemp("bad")
    (folder / "empty.mp4").write_bytes(b"")
    (folder / "text.mp4").write_text("this is a text file, not a video\n")
    data = CLIP.read_bytes()
    (folder / "cut.mp4").write_bytes(data[: len(data) // 3])  # the index at the end is lost
    (folder / "malformed.json").write_text('{"schema": "snooker.calibration/1", ')
    other = json.loads(CALIBRATION.read_text())
    other["image_size"] = other["camera"]["image_size"] = [1920, 1080]
    (folder / "other_size.json").write_text(json.dumps(other))
    (folder / "a_file").write_text("in the way\n")
    capture = cv2.VideoCapture(str(CLIP))
    writer = cv2.VideoWriter(str(folder / "whole.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (960, 540))
    for index in range(BROKEN_AT_FRAMES):
        ok, image = capture.read()
        assert ok
        if index == 0:
            cv2.imwrite(str(folder / "still.png"), image)
        writer.write(image)
    writer.release()
    capture.release()
    whole = (folder / "whole.avi").read_bytes()
    (folder / "broken.avi").write_bytes(whole[: int(len(whole) * KEPT_FRACTION)])
    return folder


def _one_error_line(err: str, prefix: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1, err
    return lines[0]


ANALYZE = [
    ("missing_video", ["missing.mp4"], ["missing.mp4", "neither a camera index"], True),
    ("empty_video", ["empty.mp4"], ["empty.mp4", "not a video"], True),
    ("text_named_mp4", ["text.mp4"], ["text.mp4", "not a video"], True),
    ("truncated_mp4", ["cut.mp4"], ["cut.mp4", "not a video"], True),
    (
        "missing_calibration",
        [str(CLIP), "--calibration", "none.json"],
        ["none.json", "does not exist"],
        False,
    ),
    (
        "malformed_calibration",
        [str(CLIP), "--calibration", "malformed.json"],
        ["malformed.json", "JSON"],
        False,
    ),
    (
        "calibration_for_another_size",
        [str(CLIP), "--calibration", "other_size.json"],
        ["other_size.json", "1920x1080", "960x540"],
        True,
    ),
]


@pytest.mark.parametrize(("args", "named", "written"), [c[1:] for c in ANALYZE], ids=[c[0] for c in ANALYZE])
def test_analyze_refuses_clearly_and_writes_what_it_read(
    bad, tmp_path, monkeypatch, capsys, args, named, written
):
    monkeypatch.chdir(bad)
    out = tmp_path / "out"
    assert main(["analyze", *args, "--out", str(out)]) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee analyze: error: ")
    assert all(word in line for word in named), line
    if written:
        doc = json.loads((out / "analysis.json").read_text())
        assert doc["complete"] is False and doc["error"] in line
        assert json.loads((out / "frame_log.jsonl").read_text().splitlines()[0])["type"] == "match"


@pytest.mark.parametrize(
    ("out", "problem"),
    [
        ("a_file", "output folder a_file is a file, not a folder"),
        ("a_file/sub", "cannot create the output folder"),
    ],
    ids=["a_file", "under_a_file"],
)
def test_analyze_with_an_output_folder_it_cannot_make_says_so_before_reading(
    bad, monkeypatch, capsys, out, problem
):
    monkeypatch.chdir(bad)
    assert main(["analyze", str(CLIP), "--out", out]) == 1
    captured = capsys.readouterr()
    assert problem in _one_error_line(captured.err, "snooker-referee analyze: error: ")
    assert captured.out == ""  # nothing was analysed


def test_a_video_that_breaks_off_keeps_the_strokes_and_rulings_before_the_break(bad, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["analyze", str(bad / "broken.avi"), "--out", str(out), "--referee"]) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee analyze: error: ")
    assert "broken.avi" in line and "ended early" in line
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is False and 0 < doc["video"]["frames"] < BROKEN_AT_FRAMES
    first = doc["strokes"][0]
    assert (
        first["truncated"] is False
        and first["first_contact"] == ["red"]
        and [p["ball"] for p in first["potted"]] == ["red"]
    )
    assert doc["rulings"][0]["score"] == [1, 0]
    log = [json.loads(text) for text in (out / "frame_log.jsonl").read_text().splitlines()]
    # the demo clip joins a frame in play (seven reds, the cue ball out of the D): its table first
    assert [line["type"] for line in log[:3]] == ["match", "table", "stroke"]
    assert log[2]["first_contact"] == ["red"]


def test_live_from_a_file_that_breaks_off_fails_and_keeps_its_record(bad, tmp_path, capsys):
    record = tmp_path / "match.sqlite"
    source = str(bad / "broken.avi")
    args = ["live", "--source", source, "--table", "t1", "--record", str(record), "--every-frame"]
    assert main(args) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee live: ")
    assert "broken.avi" in line and "broke off" in line
    with MatchRecord(record) as stored:
        lines = [entry.line for entry in stored.effective_lines()]
    assert [line["type"] for line in lines[:3]] == ["match", "table", "stroke"]
    assert lines[2]["first_contact"] == ["red"]


def test_live_with_a_calibration_for_another_size_fails_at_once_and_keeps_its_record(bad, tmp_path, capsys):
    record = tmp_path / "match.sqlite"
    args = ["live", "--source", str(CLIP), "--table", "t1", "--record", str(record), "--every-frame"]
    assert main([*args, "--calibration", str(bad / "other_size.json")]) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee live: ")
    assert all(word in line for word in ("other_size.json", "demo_clip.mp4", "1920x1080", "960x540")), line
    with MatchRecord(record) as stored:
        assert [entry.line["type"] for entry in stored.effective_lines()] == ["match"]


def test_detect_with_a_calibration_for_another_size_is_refused(bad, capsys):
    code = main(["detect", str(bad / "still.png"), "--json", "--calibration", str(bad / "other_size.json")])
    assert code == 2
    captured = capsys.readouterr()
    line = _one_error_line(captured.err, "snooker-referee detect: ")
    assert all(word in line for word in ("other_size.json", "still.png", "1920x1080", "960x540")), line
    assert captured.out == ""


def test_calibrate_into_a_folder_it_cannot_make_says_so(bad, capsys):
    code = main(["calibrate", str(bad / "still.png"), "--auto", "--out", str(bad / "a_file" / "c.json")])
    assert code == 2
    line = _one_error_line(capsys.readouterr().err, "calibrate: ")
    assert "cannot save the calibration" in line and "a_file" in line


def test_replay_of_an_empty_log_is_an_error(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    assert main(["replay", str(empty)]) == 2
    captured = capsys.readouterr()
    assert "empty.jsonl is empty" in _one_error_line(captured.err, "snooker-referee replay: ")
    assert captured.out == ""


def test_replay_with_a_malformed_line_in_the_middle_rules_every_other_line(tmp_path, capsys):
    lines = FRAME_LOG.read_text().splitlines()
    log = tmp_path / "frame.jsonl"
    log.write_text("\n".join([*lines[:8], '{"type": "stroke", "first_contact": ["red"', *lines[8:]]) + "\n")
    assert main(["replay", str(log)]) == 1
    captured = capsys.readouterr()
    line = _one_error_line(captured.err, "snooker-referee replay: ")
    assert line.startswith(f"snooker-referee replay: frame log {log} line 9: malformed JSON")
    printed = captured.out.splitlines()
    assert len(printed) == len(lines) + 2  # every line, the refused one, the summary
    assert "ERROR" in printed[8] and "SIX" in printed[7]  # the blue before it was ruled
    assert "FRAME TO BEN BAKER" in printed[-2]  # and every line after it


def test_replay_of_a_folder_says_it_is_a_folder(tmp_path, capsys):
    assert main(["replay", str(tmp_path)]) == 2
    line = _one_error_line(capsys.readouterr().err, "snooker-referee replay: ")
    assert line == f"snooker-referee replay: {tmp_path} is a folder, not a frame log"


def test_analyze_with_max_frames_below_one_is_refused(tmp_path, capsys):
    assert main(["analyze", str(CLIP), "--out", str(tmp_path), "--max-frames", "0"]) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee analyze: error: ")
    assert line.endswith("--max-frames must be at least 1 (got 0)")
    assert not (tmp_path / "analysis.json").exists()


def test_resuming_a_record_with_a_malformed_row_names_the_row_and_keeps_it(tmp_path, capsys):
    path = tmp_path / "match.sqlite"
    with MatchRecord(path) as record:
        record.append_line({"type": "match", "players": ["A", "B"]}, {"score": [0, 0]}, "test")
        record.append_line({"type": "stroke", "first_contact": ["red"]}, {"score": [0, 0]}, "test")
        with record.db:
            record.db.execute('UPDATE entries SET line = \'{"type": "stroke", \' WHERE seq = 2')
    args = ["live", "--source", str(CLIP), "--table", "t1", "--record", str(path), "--resume"]
    assert main(args) == 2
    line = _one_error_line(capsys.readouterr().err, "snooker-referee live: ")
    assert str(path) in line and "row 2 has a malformed line" in line
    with MatchRecord(path) as record:
        assert len(record) == 2  # nothing was dropped or added


def test_serve_with_a_missing_lines_file_refuses_before_serving(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", "--lines", "nope.jsonl"]) == 2
    captured = capsys.readouterr()
    assert "--lines nope.jsonl: no such file" in _one_error_line(captured.err, "snooker-referee serve: ")
    assert "overlay" not in captured.out  # nothing was started


def test_serve_lines_with_a_malformed_line_in_the_middle_keep_every_other_line(tmp_path, capsys):
    from snooker.app.serve import read_lines
    from snooker.record.session import MatchSession

    lines = FRAME_LOG.read_text().splitlines()
    stream = io.BytesIO(("\n".join([*lines[:3], "{broken", *lines[3:]]) + "\n").encode())
    with MatchRecord(tmp_path / "m.sqlite") as record:
        session = MatchSession(record)
        read_lines(session, stream, "file:frame.jsonl")
        said = capsys.readouterr().out.splitlines()
        assert [s for s in said if s.startswith("refused")] == [
            "refused: file:frame.jsonl line 4: malformed line (not JSON): "
            "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
        ]
        assert len(record.effective_lines()) == len(lines) and len(record) == len(lines) + 1
        assert session.scoreboard()["match_over"]


def test_a_segment_of_a_long_video_refuses_a_calibration_for_another_size(bad):
    from snooker.app.analyze import AnalyzeOptions, analyze_segment

    options = AnalyzeOptions(calibration=bad / "other_size.json", progress=False)
    result = analyze_segment(str(CLIP), 0, None, options)
    assert result.error is not None and result.read == 1
    assert all(word in result.error for word in ("other_size.json", "1920x1080", "960x540"))


def test_segments_into_an_output_folder_in_the_way_are_refused_before_any_process_starts(bad, capsys):
    from snooker.app.analyze import AnalyzeOptions, analyze_segments
    from snooker.pipeline.segments import Segment

    segments = [Segment(0, 140), Segment(140, None)]
    assert analyze_segments(str(CLIP), bad / "a_file", AnalyzeOptions(), segments) == 1
    assert "is a file, not a folder" in _one_error_line(capsys.readouterr().err, "snooker-referee analyze: ")


def test_detect_of_a_folder_says_it_is_a_folder(tmp_path, capsys):
    assert main(["detect", str(tmp_path), "--json"]) == 2
    line = _one_error_line(capsys.readouterr().err, "snooker-referee detect: ")
    assert line == f"snooker-referee detect: {tmp_path} is a folder, not an image"


def test_an_annotated_video_that_cannot_be_written_is_said_and_the_analysis_still_written(tmp_path, capsys):
    (tmp_path / "annotated.mp4").mkdir()
    assert main(["analyze", str(CLIP), "--out", str(tmp_path), "--annotate", "--max-frames", "5"]) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee analyze: error: ")
    assert line.endswith(f"cannot write the annotated video {tmp_path / 'annotated.mp4'}")
    doc = json.loads((tmp_path / "analysis.json").read_text())
    assert doc["complete"] is False and doc["video"]["frames"] == 1


def test_a_failed_analysis_keeps_the_analysis_an_earlier_run_wrote(bad, tmp_path, monkeypatch, capsys):
    # A run that fails before it tracks anything (here a video that is not one) must not replace the
    # analysis and frame log an earlier run wrote into the same folder.
    monkeypatch.chdir(bad)
    out = tmp_path / "out"
    assert main(["analyze", str(CLIP), "--out", str(out), "--max-frames", "40"]) == 0
    before = {name: (out / name).read_bytes() for name in ("analysis.json", "frame_log.jsonl")}
    capsys.readouterr()
    assert main(["analyze", "text.mp4", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "text.mp4" in _one_error_line(err, "snooker-referee analyze: error: ")
    assert f"the analysis already in {out} is kept" in err
    assert {name: (out / name).read_bytes() for name in before} == before


CALIBRATION_FAULTS = [
    ("camera_tvec_infinite", lambda doc: doc["camera"]["tvec"].__setitem__(0, float("inf")), "tvec"),
    ("camera_rvec_nan", lambda doc: doc["camera"]["rvec"].__setitem__(1, float("nan")), "rvec"),
    ("image_size_negative", lambda doc: doc["camera"].__setitem__("image_size", [-960, 540]), "image_size"),
    (
        "table_width_negative",
        lambda doc: doc.setdefault("table", {}).__setitem__("width_mm", -5.0),
        "table size",
    ),
    ("no_camera", lambda doc: doc.pop("camera"), "no 'camera' field"),
    ("image_size_disagrees", lambda doc: doc.__setitem__("image_size", [1280, 720]), "disagrees"),
]


@pytest.mark.parametrize(
    ("spoil", "named"), [c[1:] for c in CALIBRATION_FAULTS], ids=[c[0] for c in CALIBRATION_FAULTS]
)
def test_a_calibration_with_impossible_numbers_is_refused_by_name(tmp_path, capsys, spoil, named):
    # Non-finite or impossible numbers used to be read, every frame then "did not show the table",
    # and analysis.json held NaN (not JSON).
    doc = json.loads(CALIBRATION.read_text())
    spoil(doc)
    path = tmp_path / "spoiled.json"
    path.write_text(json.dumps(doc))
    assert main(["analyze", str(CLIP), "--out", str(tmp_path / "out"), "--calibration", str(path)]) == 1
    line = _one_error_line(capsys.readouterr().err, "snooker-referee analyze: error: ")
    assert "spoiled.json" in line and named in line, line
    assert "Error(" not in line  # a sentence, not a Python repr


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--port", "99999"],
        ["serve", "--port", "-1"],
        ["live", "--source", str(CLIP), "--http", "70000"],
    ],
    ids=["serve_too_high", "serve_negative", "live_http_too_high"],
)
def test_a_port_out_of_range_is_refused_by_name(capsys, args):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "is out of range: a port is 0 (any free one) to 65535" in err


def test_replay_of_a_log_saved_with_a_byte_order_mark_rules_its_match_line(tmp_path, capsys):
    log = tmp_path / "bom.jsonl"
    log.write_bytes("\ufeff".encode() + FRAME_LOG.read_bytes())
    assert main(["replay", str(log)]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "line 1" not in captured.err
    assert "FRAME TO BEN BAKER" in captured.out


def test_a_line_nested_too_deeply_is_refused_and_every_other_line_ruled(tmp_path, capsys):
    lines = FRAME_LOG.read_text().splitlines()
    log = tmp_path / "deep.jsonl"
    log.write_text("\n".join([*lines[:3], "[" * 100_000, *lines[3:]]) + "\n")
    assert main(["replay", str(log)]) == 1
    captured = capsys.readouterr()
    assert "nested too deeply" in _one_error_line(captured.err, "snooker-referee replay: ")
    assert "FRAME TO BEN BAKER" in captured.out.splitlines()[-2]


LATIN_1_NAME = '{"type": "match", "players": ["Zo\xe9", "Ann"]}'.encode("latin-1")
"""A line saved by an editor in Latin-1: its é is the byte 0xe9, which UTF-8 does not allow there."""


def test_replay_refuses_a_line_that_is_not_utf8_alone_and_rules_every_other_line(tmp_path, capsys):
    lines = FRAME_LOG.read_bytes().splitlines()
    log = tmp_path / "latin1.jsonl"
    log.write_bytes(b"\n".join([*lines[:3], LATIN_1_NAME, *lines[3:]]) + b"\n")
    assert main(["replay", str(log)]) == 1
    captured = capsys.readouterr()
    refusal = _one_error_line(captured.err, "snooker-referee replay: ")
    assert "line 4" in refusal and "not UTF-8" in refusal and "0xe9" in refusal
    assert "FRAME TO BEN BAKER" in captured.out.splitlines()[-2]


def test_replay_from_stdin_reads_bytes_and_refuses_only_the_line_that_is_not_utf8(monkeypatch, capsys):
    lines = FRAME_LOG.read_bytes().splitlines()
    piped = io.TextIOWrapper(io.BytesIO(b"\n".join([*lines[:3], LATIN_1_NAME, *lines[3:]]) + b"\n"))
    monkeypatch.setattr("sys.stdin", piped)
    assert main(["replay", "--json", "-"]) == 1
    rulings = [json.loads(row) for row in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in rulings if "error" in r] == [4]
    assert len(rulings) == len(lines) + 1 and rulings[-1]["match_over"]


def test_serve_lines_refuse_and_record_a_line_that_is_not_utf8_and_apply_the_rest(tmp_path, capsys):
    from snooker.app.serve import read_lines
    from snooker.record.session import MatchSession

    lines = FRAME_LOG.read_bytes().splitlines()
    stream = io.BytesIO(b"\n".join([*lines[:3], LATIN_1_NAME, *lines[3:]]) + b"\n")
    with MatchRecord(tmp_path / "m.sqlite") as record:
        session = MatchSession(record)
        read_lines(session, stream, "file:frame.jsonl")
        refused = [s for s in capsys.readouterr().out.splitlines() if s.startswith("refused")]
        assert len(refused) == 1 and "line 4" in refused[0] and "not UTF-8" in refused[0]
        assert len(record.effective_lines()) == len(lines) and len(record) == len(lines) + 1
        assert session.scoreboard()["match_over"]


def test_a_live_start_that_fails_leaves_no_match_in_the_record(tmp_path, capsys):
    """Before, the match line was written before the feed was bound, so the same command run again
    (the port freed) was refused: the record already held a match."""
    import zmq

    taken = zmq.Context.instance().socket(zmq.PUB)
    taken.setsockopt(zmq.LINGER, 0)
    port = taken.bind_to_random_port("tcp://127.0.0.1")
    record = tmp_path / "m.sqlite"
    args = ["live", "--source", str(CLIP), "--table", "t1", "--record", str(record)]
    try:
        assert main([*args, "--feed", f"tcp://127.0.0.1:{port}"]) == 2
    finally:
        taken.close()
    assert "Address already in use" in _one_error_line(capsys.readouterr().err, "snooker-referee live: ")
    with MatchRecord(record) as stored:
        assert len(stored) == 0


@pytest.mark.parametrize("command", ["serve", "live"])
def test_an_overlay_port_already_taken_is_refused_by_name(tmp_path, capsys, command):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    args = ["serve", "--port", str(port)]
    if command == "live":
        args = ["live", "--source", str(CLIP), "--table", "t1", "--http", str(port)]
    try:
        assert main(args) == 2
    finally:
        taken.close()
    line = _one_error_line(capsys.readouterr().err, f"snooker-referee {command}: ")
    assert f"cannot serve the overlay on 127.0.0.1 port {port}" in line and "choose another port" in line
