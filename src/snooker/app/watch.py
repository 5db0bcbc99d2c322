"""snooker-referee watch ENDPOINT: subscribe to a scoreboard feed and print what arrives.

Human-readable by default (one line per state or event); ``--json`` prints one JSON object per
message, ``{"topic": ..., "body": ...}``, exactly as received.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from snooker.broadcast.feed import FEED_ENDED, FeedError, FeedMessage, FeedSubscriber

POLL_S = 0.2
"""How often (seconds) the loop wakes to check --count/--timeout while no message arrives."""
SILENT_AFTER_S = 3.0
"""A feed that said something and then nothing for this long (s) is said to be silent: the
contract re-sends the state at least once a second, so the publisher stopped or cannot be reached,
and the last line shown is no longer live."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("endpoint", help="feed to read, e.g. tcp://127.0.0.1:5556")
    parser.add_argument("--table", default=None, help="only this table id (default: every table)")
    parser.add_argument("--json", action="store_true", help="print raw messages as JSON lines")
    parser.add_argument("--count", type=int, default=None, help="stop after this many messages")
    parser.add_argument(
        "--timeout", type=float, default=None, help="stop after this many seconds without a message"
    )
    parser.add_argument("--states", action="store_true", help="print heartbeat states too (default: changes)")


def _pair(value: Any, index: int, default: str = "-") -> str:
    if isinstance(value, list | tuple) and len(value) > index:
        return str(value[index])
    return default


def _ball_names(potted: Any) -> list[str]:
    """The balls an event's ``potted`` names: a list of ``{"ball": ...}`` (or of names); a field of
    another shape, from a publisher that does not keep the contract, is shown as it is, never
    raised on."""
    if not isinstance(potted, list | tuple):
        return [str(potted)]
    return [str(p.get("ball", p)) if isinstance(p, dict) else str(p) for p in potted]


def describe(message: FeedMessage) -> str:
    """One human line for a message."""
    body = message.body
    head = f"[table {message.table} #{body.get('seq', '?')}]"
    if message.error:
        return f"{head} unreadable message on {message.topic!r}: {message.error}"
    if message.kind == "event":
        extra = ""
        if body.get("potted"):
            extra = " " + ", ".join(_ball_names(body["potted"]))
        score = body.get("score")
        tail = f"  (score {_pair(score, 0)}-{_pair(score, 1)})" if score else ""
        return f"{head} {body.get('event', '?')}{extra}{tail}"
    players = body.get("players")
    if not isinstance(players, list | tuple) or not players:  # another publisher's, or none
        players = ["player 1", "player 2"]
    score, frames = body.get("score"), body.get("frames")
    striker = body.get("striker")
    to_play = players[striker] if isinstance(striker, int) and 0 <= striker < len(players) else "?"
    parts = [
        f"{_pair(players, 0)} {_pair(score, 0)} ({_pair(frames, 0)})",
        f"{_pair(score, 1)} ({_pair(frames, 1)}) {_pair(players, 1)}",
    ]
    details = [f"break {body.get('break', 0)}", f"on {body.get('ball_on', '?')}"]
    if "reds" in body:
        details.append(f"reds {body['reds']}")
    if "points_remaining" in body:
        details.append(f"remaining {body['points_remaining']}")
    if body.get("status"):
        details.append(str(body["status"]))
    if body.get("feed") == FEED_ENDED:
        details.append("feed ended")
    return f"{head} {' - '.join(parts)} | {' | '.join(details)} | {to_play} to play"


def watch(
    subscriber: FeedSubscriber,
    out: TextIO,
    as_json: bool,
    count: int | None,
    timeout_s: float | None,
    every_state: bool,
    notices: TextIO = sys.stderr,
) -> int:
    """Print messages until ``count`` are printed or none arrives for ``timeout_s``; how many printed.
    A feed its publisher ended, one silent for ``SILENT_AFTER_S`` after a message, and one back
    again, is said on ``notices``."""
    printed, last_state, quiet_since = 0, None, time.monotonic()
    heard, silent = False, False
    while count is None or printed < count:
        message = subscriber.receive(POLL_S)
        if message is None:
            quiet_s = time.monotonic() - quiet_since
            if heard and not silent and quiet_s >= SILENT_AFTER_S:
                silent = True
                print(
                    f"feed silent for {SILENT_AFTER_S:.0f} s: the publisher stopped or cannot be reached; "
                    "the last state shown is not live",
                    file=notices,
                    flush=True,
                )
            if timeout_s is not None and quiet_s >= timeout_s:
                break
            continue
        if silent:
            print("feed back", file=notices, flush=True)
        heard, silent, quiet_since = True, False, time.monotonic()
        if message.kind == "state" and message.body.get("feed") == FEED_ENDED:
            silent = True  # the silence that follows is said here, once
            print("the publisher ended the feed: the last state shown is final", file=notices, flush=True)
        if message.kind == "state" and not every_state and not as_json:
            signature = {k: v for k, v in message.body.items() if k not in ("seq", "sent_at")}
            if signature == last_state:
                continue  # a heartbeat repeating what is already shown
            last_state = signature
        if as_json:
            line = json.dumps({"topic": message.topic, "body": message.body, "error": message.error})
        else:
            line = describe(message)
        print(line, file=out, flush=True)
        printed += 1
    return printed


def run(args: argparse.Namespace) -> int:
    try:
        with FeedSubscriber(args.endpoint, args.table) as subscriber:
            print(f"watching {args.endpoint} (Ctrl-C to stop)", file=sys.stderr, flush=True)
            watch(subscriber, sys.stdout, args.json, args.count, args.timeout, args.states)
            if subscriber.stats.restarts:
                print(f"publisher restarted {subscriber.stats.restarts} time(s)", file=sys.stderr)
    except FeedError as exc:
        print(f"snooker-referee watch: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
