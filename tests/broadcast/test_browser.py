"""The overlay page and the console in real headless Chromium (Debian's, driven by Playwright)."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.broadcast.web import Bridge, BridgeThread, WebConfig
from snooker.record.session import MatchSession
from snooker.record.store import MatchRecord

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BROADCAST = {"width": 1920, "height": 1080}
WAIT_MS = 10_000
BAR_BGR = (40, 22, 12)  # the overlay's bar colour rgba(12, 22, 40, 0.92), as BGR
MATCH = {
    "type": "match",
    "schema": "snooker.log/1",
    "players": ["Ann Able", "Ben Baker"],
    "best_of": 7,
    "breaker": 0,
}
POT_RED = {"type": "stroke", "first_contact": ["red"], "potted": ["red"]}
POT_BLACK = {"type": "stroke", "first_contact": ["black"], "potted": ["black"]}
MISS_ALL = {"type": "stroke", "first_contact": []}
MISS = {"type": "stroke", "first_contact": [], "clear_path": True, "full_ball": True}


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make system-deps)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def served(tmp_path: Path):
    record = MatchRecord(tmp_path / "match.sqlite").open()
    session = MatchSession(record)
    bridge = Bridge(WebConfig(port=0))
    bridge.attach_session(session)
    runner = BridgeThread(bridge)
    runner.start()
    yield bridge, session
    runner.stop()
    record.close()


def _texts(page, ids: list[str]) -> dict[str, str]:
    return {i: page.text_content(f"#{i}").strip() for i in ids}


def test_overlay_shows_the_state_on_connect_then_pushes_and_is_transparent(browser, served, tmp_path: Path):
    bridge, session = served
    for line in (MATCH, POT_RED, POT_BLACK, POT_RED):
        session.apply(line)
    page = browser.new_page(viewport=BROADCAST)
    page.goto(bridge.url("/overlay"))
    page.wait_for_function("document.body.dataset.renders >= 1", timeout=WAIT_MS)
    board = session.scoreboard()
    ids = ["player-0-name", "player-0-score", "player-1-name", "player-1-score", "player-0-frames", "break"]
    shown = _texts(page, [*ids, "ball-on", "remaining", "reds"])
    assert shown["player-0-name"] == "Ann Able" and shown["player-1-name"] == "Ben Baker"
    assert shown["player-0-score"] == str(board["score"][0]) == "9"
    assert shown["player-1-score"] == "0" and shown["player-0-frames"] == "0"
    assert shown["break"] == str(board["break"]) == "9"
    assert shown["ball-on"] == str(board["ball_on"]).upper()
    assert shown["remaining"] == str(board["points_remaining"]) and shown["reds"] == str(board["reds"])
    assert "to-play" in page.get_attribute("#player-0", "class")

    png = tmp_path / "overlay.png"
    page.screenshot(path=str(png), omit_background=True)
    image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    assert image.shape == (1080, 1920, 4)
    box = page.locator("#main").bounding_box()
    x0, y0 = int(box["x"]) + 2, int(box["y"]) + 2
    x1, y1 = int(box["x"] + box["width"]) - 2, int(box["y"] + box["height"]) - 2
    alpha = image[:, :, 3]
    assert alpha[: y0 - 60, :].max() == 0  # everything above the scoreboard is see-through
    assert alpha[:, : max(0, x0 - 10)].max() == 0 and alpha[:, x1 + 10 :].max() == 0
    assert (alpha[y0:y1, x0:x1] > 200).mean() > 0.95  # the bar itself is (nearly) opaque
    name_box = page.locator("#player-0-name").bounding_box()
    corner = image[int(name_box["y"]) - 4, int(box["x"]) + 4, :3].astype(int)
    assert np.abs(corner - np.array(BAR_BGR)).max() <= 12
    name_pixels = image[
        int(name_box["y"]) : int(name_box["y"] + name_box["height"]),
        int(name_box["x"]) : int(name_box["x"] + name_box["width"]),
        :3,
    ]
    assert (name_pixels.min(axis=2) > 200).sum() > 50  # white lettering is drawn on the bar

    session.apply(MISS_ALL)  # a foul: the page is told at once, and says so
    page.wait_for_function("document.getElementById('player-1-score').textContent !== '0'", timeout=WAIT_MS)
    assert page.text_content("#player-1-score") == str(session.scoreboard()["score"][1])
    assert "FOUL" in page.text_content("#event")
    assert "to-play" in page.get_attribute("#player-1", "class")
    page.close()


def test_console_buttons_apply_decisions_and_a_bad_token_is_refused(browser, served):
    bridge, session = served
    for line in (MATCH, MISS):
        session.apply(line)
    assert "replace" in session.scoreboard()["options"]
    page = browser.new_page()
    page.goto(bridge.console_url())
    page.wait_for_function("!document.querySelector('button[data-choice=replace]').disabled", timeout=WAIT_MS)
    page.click("button[data-choice=replace]")
    page.wait_for_function("document.getElementById('result').className === 'ok'", timeout=WAIT_MS)
    assert session.applied_lines[-1] == {"type": "decision", "choice": "replace"}
    assert page.text_content("#striker") == "Ann Able"  # the offender plays again from the replaced position

    page.fill("#line", '{"type": "stroke", "first_contact": ["red"], "potted": ["red"]}')
    page.click("#send-line")
    page.wait_for_function("document.getElementById('score-0').textContent === '1'", timeout=WAIT_MS)
    page.click("#undo")
    page.wait_for_function("document.getElementById('score-0').textContent === '0'", timeout=WAIT_MS)
    page.fill("#line", "{broken")
    page.click("#send-line")
    assert "not JSON" in page.text_content("#result")
    page.close()

    intruder = browser.new_page()
    intruder.goto(bridge.url("/console?token=guess"))
    intruder.click("#concede")
    intruder.wait_for_function("document.getElementById('result').className === 'error'", timeout=WAIT_MS)
    assert "refused (401)" in intruder.text_content("#result")
    assert session.applied_lines[-1] == {"type": "decision", "choice": "replace"}
    intruder.close()


def test_overlay_shows_nothing_until_it_has_a_state(browser):
    bridge = Bridge(WebConfig(port=0))  # follows nothing yet: no state to show
    runner = BridgeThread(bridge)
    runner.start()
    try:
        page = browser.new_page(viewport=BROADCAST)
        page.goto(bridge.url("/overlay"))
        page.wait_for_function("document.body.dataset.connected === 'true'", timeout=WAIT_MS)
        assert not page.is_visible("#main")
        image = cv2.imdecode(
            np.frombuffer(page.screenshot(omit_background=True), np.uint8), cv2.IMREAD_UNCHANGED
        )
        assert image[:, :, 3].max() == 0  # a fully transparent frame
        bridge.push({"players": ["X", "Y"], "score": [1, 2]}, [])
        page.wait_for_function("document.body.dataset.renders >= 1", timeout=WAIT_MS)
        assert page.is_visible("#main") and page.text_content("#player-1-score") == "2"
        page.close()
    finally:
        runner.stop()


def test_overlay_marks_scores_that_are_no_longer_live(browser):
    """A followed feed that falls silent or ends: the last scores stay on air, dimmed and labelled;
    live again, the label goes."""
    bridge = Bridge(WebConfig(port=0))
    runner = BridgeThread(bridge)
    runner.start()
    try:
        bridge.push({"players": ["X", "Y"], "score": [1, 2]}, [])
        page = browser.new_page(viewport=BROADCAST)
        page.goto(bridge.url("/overlay"))
        page.wait_for_function("document.body.dataset.renders >= 1", timeout=WAIT_MS)
        assert page.get_attribute("body", "data-feed") == "live" and not page.is_visible("#feed-note")
        live_opacity = page.eval_on_selector("#main", "e => getComputedStyle(e).opacity")
        for feed, note in (("silent", "SCORES PAUSED"), ("ended", "SCORING ENDED")):
            bridge.push_feed(feed)
            page.wait_for_function(f"document.body.dataset.feed === '{feed}'", timeout=WAIT_MS)
            assert page.is_visible("#feed-note") and page.text_content("#feed-note") == note
            assert float(page.eval_on_selector("#main", "e => getComputedStyle(e).opacity")) < float(
                live_opacity
            )
            assert page.text_content("#player-1-score") == "2"  # the last scores stay on air
        bridge.push_feed("live")
        page.wait_for_function("document.body.dataset.feed === 'live'", timeout=WAIT_MS)
        assert not page.is_visible("#feed-note")
        page.close()
    finally:
        runner.stop()


def test_overlay_and_console_four_handed_show_sides_the_side_to_play_and_its_snookers(browser, served):
    """Four-handed (3.17): scores, frames and snookers are per side, the striker a player. With the
    third player (Cat, Ann's partner) to play and her side 40 behind with 13 left on the pink and the
    black, the overlay shows the sides by their players, the arrow at Ann & Cat and the five
    snookers they need (27 beyond what remains, six a snooker on the pink); the console names the
    sides the same way."""
    bridge, session = served
    players = ["Ann Able", "Ben Baker", "Cat Cole", "Dan Dale"]
    session.apply({**MATCH, "players": players})
    ruling = session.apply(
        {
            "type": "table",
            "reds": 0,
            "colours": ["pink", "black"],
            "ball_on": "pink",
            "score": [0, 40],
            "striker": 2,
        }
    )
    assert ruling["snookers_required"] == [5, 0] and ruling["striker"] == 2
    page = browser.new_page(viewport=BROADCAST)
    page.goto(bridge.url("/overlay"))
    page.wait_for_function("document.body.dataset.renders >= 1", timeout=WAIT_MS)
    shown = _texts(page, ["player-0-name", "player-1-name", "player-0-score", "player-1-score", "snookers"])
    assert shown == {
        "player-0-name": "Ann Able & Cat Cole",
        "player-1-name": "Ben Baker & Dan Dale",
        "player-0-score": "0",
        "player-1-score": "40",
        "snookers": "5",
    }
    assert page.is_visible("#snookers-wrap")
    assert "to-play" in page.get_attribute("#player-0", "class")
    assert "to-play" not in page.get_attribute("#player-1", "class")
    page.close()
    console = browser.new_page()
    console.goto(bridge.console_url())
    console.wait_for_function("document.getElementById('name-0').textContent !== '-'", timeout=WAIT_MS)
    assert console.text_content("#name-0") == "Ann Able & Cat Cole"
    assert console.text_content("#name-1") == "Ben Baker & Dan Dale"
    assert console.text_content("#striker") == "Cat Cole"
    console.close()


def test_overlay_shows_the_match_highest_break_and_who_made_it(browser, served):
    """``match_highest_break`` (per player, the whole match): hidden before any break; Ann's 9 in the
    first frame stays on air, named, after she concedes it and a new frame begins (the frame's own
    ``highest_break`` is then 0)."""
    bridge, session = served
    session.apply(MATCH)
    page = browser.new_page(viewport=BROADCAST)
    page.goto(bridge.url("/overlay"))
    page.wait_for_function("document.body.dataset.renders >= 1", timeout=WAIT_MS)
    assert not page.is_visible("#high-break-wrap")
    for line in (POT_RED, POT_BLACK, POT_RED, MISS_ALL, POT_RED, {"type": "concede"}, {"type": "new_frame"}):
        assert "error" not in session.apply(line)
    board = session.scoreboard()
    assert board["highest_break"] == [0, 0] and board["match_highest_break"] == [9, 1]
    page.wait_for_function("document.getElementById('high-break').textContent === '9'", timeout=WAIT_MS)
    assert page.is_visible("#high-break-wrap")
    assert page.text_content("#high-break-by") == "(Ann Able)"
    page.close()
