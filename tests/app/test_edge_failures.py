"""Failures at the edges no other test reached: a feed message a subscriber cannot use (nested too
deeply to read, fields of another shape) shown as unreadable, never a traceback in ``watch``; an
analysis that cannot be written whole (a full disk, a file size limit) leaving no half-written
file and keeping the frame log where it fits; and a calibration given that fits a source's first
frames but not those after its size changed, refused by ``analyze`` as ``live`` refuses it."""

from __future__ import annotations

import json
import resource
import signal
import socket
import threading
from pathlib import Path

import cv2
import pytest
import zmq

from snooker.app.analyze import _conclude
from snooker.app.watch import describe
from snooker.broadcast.feed import FeedMessage, FeedSubscriber
from snooker.cli import main
from snooker.pipeline.joining import JoinConfig

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"
CALIBRATION = SAMPLES / "demo_clip.calibration.json"
RECEIVE_S = 5.0
"""How long a test waits for a message on a local socket (s)."""
SEND_EVERY_S = 0.05
"""How often the raw publisher repeats its message until a subscriber has it (s): a ZeroMQ
subscriber misses what was sent before it connected."""
DEEP = b"[" * 100_000
"""A body nested far deeper than Python's JSON reader can follow (it raises RecursionError)."""


def _raw_publisher() -> tuple[zmq.Socket, str]:
    raw = zmq.Context.instance().socket(zmq.PUB)
    raw.setsockopt(zmq.LINGER, 0)
    port = raw.bind_to_random_port("tcp://127.0.0.1")
    return raw, f"tcp://127.0.0.1:{port}"


def test_a_feed_body_nested_too_deeply_is_an_unreadable_message():
    raw, endpoint = _raw_publisher()
    try:
        with FeedSubscriber(endpoint) as sub:
            got = None
            for _ in range(int(RECEIVE_S / SEND_EVERY_S)):
                raw.send_multipart([b"table/t/state/", DEEP])
                if (got := sub.receive(SEND_EVERY_S)) is not None:
                    break
            assert got is not None and got.error == "body is JSON nested too deeply to read"
            assert sub.stats.malformed >= 1
    finally:
        raw.close()


def test_watch_shows_a_body_nested_too_deeply_as_unreadable_and_goes_on(capsys):
    raw, endpoint = _raw_publisher()
    stop = threading.Event()

    def publish() -> None:
        while not stop.wait(SEND_EVERY_S):
            raw.send_multipart([b"table/t/event/", DEEP])

    sender = threading.Thread(target=publish, daemon=True)
    sender.start()
    try:
        assert main(["watch", endpoint, "--count", "2", "--timeout", str(RECEIVE_S)]) == 0
    finally:
        stop.set()
        sender.join()
        raw.close()
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    lines = captured.out.splitlines()
    assert len(lines) == 2 and all(
        "unreadable message" in line and "nested too deeply" in line for line in lines
    )


BODY = {"schema": "snooker.feed/1", "seq": 1, "epoch": "e", "table": "t"}

ODD_MESSAGES = [
    # (id, kind, the body's fields beyond the envelope, what the line shows)
    ("players_an_object", "state", {"players": {"a": "Ann"}, "striker": 0}, "player 1 to play"),
    ("players_empty", "state", {"players": [], "striker": 1}, "player 2 to play"),
    ("potted_a_number", "event", {"event": "POT", "potted": 5}, "POT 5"),
    ("potted_without_ball", "event", {"event": "POT", "potted": [{"pocket": "top_left"}]}, "POT {'pocket'"),
    ("potted_names", "event", {"event": "POT", "potted": ["red", {"ball": "blue"}]}, "POT red, blue"),
]


@pytest.mark.parametrize(
    ("kind", "fields", "shown"), [c[1:] for c in ODD_MESSAGES], ids=[c[0] for c in ODD_MESSAGES]
)
def test_watch_describes_a_message_of_another_shape_without_raising(kind, fields, shown):
    # A players object raised KeyError, a potted number TypeError, a pot without its ball KeyError:
    # each stopped `watch` with a traceback (a publisher of another version on the port).
    message = FeedMessage(f"table/t/{kind}/", "t", kind, {**BODY, **fields})
    line = describe(message)
    assert line.startswith("[table t #1]") and shown in line, line


FILE_SIZE_LIMIT_BYTES = 64 * 1024
"""The largest file this process may write in the test below (RLIMIT_FSIZE): the frame log fits,
the analysis does not, as on a disk that fills up while the analysis is written."""


@pytest.fixture
def file_size_limit():
    """Writes past FILE_SIZE_LIMIT_BYTES fail with EFBIG (SIGXFSZ ignored, as a full disk fails
    them with ENOSPC) for the test's duration."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT_BYTES, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def test_an_analysis_that_cannot_be_written_whole_leaves_no_half_file_and_keeps_the_frame_log(
    tmp_path: Path, capsys, file_size_limit
):
    # The analysis was written first: it failed half written, left analysis.json.tmp (4 KB of
    # broken JSON) behind, and the frame log, which fitted, was never written.
    doc = {"frames": [{"i": i, "balls": "x" * 100} for i in range(1000)], "strokes": [], "pots": []}
    assert len(json.dumps(doc)) > FILE_SIZE_LIMIT_BYTES
    assert _conclude(tmp_path, doc, [], None, None, JoinConfig()) == 1
    err = capsys.readouterr().err
    assert f"cannot write {tmp_path / 'analysis.json'}" in err and "frame_log.jsonl written" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame_log.jsonl"]
    assert json.loads((tmp_path / "frame_log.jsonl").read_text().splitlines()[0])["type"] == "match"


SIZE_CHANGES_AT = 8
"""The still from which on the folder below holds the demo clip's frames at SMALLER_SIZE."""
STILLS = 12
SMALLER_SIZE = (640, 360)
"""Another camera's (or mode's) frame size, width x height px: the calibration is for 960 x 540."""


@pytest.fixture(scope="module")
def two_sizes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of stills whose size changes part way (a folder from two cameras, a stream that
    changed mode), read by ``analyze`` as a source like any other."""
    folder = tmp_path_factory.mktemp("two_sizes")
    capture = cv2.VideoCapture(str(CLIP))
    for index in range(STILLS):
        ok, image = capture.read()
        assert ok
        if index >= SIZE_CHANGES_AT:
            image = cv2.resize(image, SMALLER_SIZE)
        cv2.imwrite(str(folder / f"still{index:03d}.png"), image)
    capture.release()
    return folder


SIZE_CHANGES = [
    # (id, the calibration given, exit status, what the error says (None: none), frames written)
    ("calibration_given", CALIBRATION, 1,
     f"does not fit {{folder}}: from frame {SIZE_CHANGES_AT} on, it was made for 960x540 images, "
     "these are 640x360",
     SIZE_CHANGES_AT),
    ("table_found_in_the_frames", None, 0, None, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("calibration", "status", "said", "frames"),
    [c[1:] for c in SIZE_CHANGES],
    ids=[c[0] for c in SIZE_CHANGES],
)
def test_analyze_checks_a_calibration_against_every_frame_size_as_live_does(
    two_sizes, tmp_path, capsys, calibration, status, said, frames
):
    # The calibration was checked against the first frame only: the smaller stills were read with
    # it, every one "not showing the table", and the analysis said complete, exit 0.
    given = ["--calibration", str(calibration)] if calibration is not None else []
    assert main(["analyze", str(two_sizes), "--out", str(tmp_path), *given]) == status
    err = capsys.readouterr().err
    assert "Traceback" not in err
    doc = json.loads((tmp_path / "analysis.json").read_text())
    if said is None:
        assert doc["complete"] is True
        return
    assert said.format(folder=two_sizes) in err, err
    assert doc["complete"] is False and said.format(folder=two_sizes) in doc["error"]
    assert [frame["i"] for frame in doc["frames"]] == list(range(frames))  # what was read is kept


def test_a_picture_one_pixel_high_is_no_table_not_a_traceback(tmp_path, capsys):
    # The cloth's outline in it has a hull of two points, on which OpenCV's approxPolyN asserts:
    # detect, calibrate --auto and analyze each stopped with a cv2.error traceback (analyze writing
    # nothing).
    image = cv2.resize(cv2.VideoCapture(str(CLIP)).read()[1], (960, 1))
    still = tmp_path / "strip.png"
    cv2.imwrite(str(still), image)
    assert main(["detect", str(still), "--json"]) == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no table found in the image" in err, err


FAILS_ON_FRAME = 120
"""The frame on which the fault below is raised: the demo clip's first stroke (frames 16-82) has
settled (frame 104), its second starts at frame 121."""


def test_a_fault_on_one_frame_keeps_the_analysis_of_the_frames_before_it(tmp_path, monkeypatch, capsys):
    # A fault no handler named (a bug, an OpenCV assertion on a picture nobody foresaw) left the
    # command with a traceback and nothing written, and with several videos one at a time, the
    # videos after it not analysed; live skips such a frame and goes on.
    import snooker.app.analyze as command

    class Faulty(command.VideoAnalysis):
        def process(self, frame, *args, **kwargs):
            if frame.index == FAILS_ON_FRAME:
                raise RuntimeError("a fault nobody foresaw\nsecond line")
            return super().process(frame, *args, **kwargs)

    monkeypatch.setattr(command, "VideoAnalysis", Faulty)
    assert main(["analyze", str(CLIP), "--out", str(tmp_path), "--referee"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    said = f"the analysis failed on frame {FAILS_ON_FRAME} (RuntimeError: a fault nobody foresaw)"
    assert said in err, err
    doc = json.loads((tmp_path / "analysis.json").read_text())
    assert doc["complete"] is False and said in doc["error"]
    assert doc["strokes"][0]["first_contact"] == ["red"] and doc["rulings"][0]["score"] == [1, 0]
    log = [json.loads(line) for line in (tmp_path / "frame_log.jsonl").read_text().splitlines()]
    assert [line["type"] for line in log] == ["match", "table", "stroke"]


NOT_THIS_MACHINE = "192.0.2.1"
"""An address of TEST-NET-1 (RFC 5737): no interface of this machine has it, so nothing binds it."""


@pytest.mark.parametrize(
    ("host", "port_in_use", "remedy"),
    [("127.0.0.1", True, "address already in use (choose another port)"),
     (NOT_THIS_MACHINE, False, "(check --host)")],
    ids=["port_in_use", "host_not_this_machine"],
)  # fmt: skip
def test_serve_where_the_overlay_cannot_be_served_says_what_to_change(
    tmp_path, capsys, host, port_in_use, remedy
):
    # Every failure to serve said "choose another port", an address of another machine too.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1] if port_in_use else 0
        record = tmp_path / "m.sqlite"
        assert main(["serve", "--host", host, "--port", str(port), "--record", str(record)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"cannot serve the overlay on {host}" in err and remedy in err, err
