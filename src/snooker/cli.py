"""snooker-referee: one console script, one subcommand per job.

Each subcommand lives in ``snooker.app.<module>`` exposing ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their command runs, so a missing optional
dependency (torch, a browser) only affects the command that needs it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("snooker.app.replay", "rule a frame log and print calls and scores"),
    "calibrate": ("snooker.app.calibrate", "click the table's four corners and save a calibration"),
    "detect": ("snooker.app.detect", "find and identify the balls in one image"),
    "analyze": ("snooker.app.analyze", "track a video and write analysis.json and a frame log"),
    "live": ("snooker.app.live", "referee a live camera, stream or file in real time"),
    "watch": ("snooker.app.watch", "subscribe to a scoreboard feed and print what arrives"),
    "serve": ("snooker.app.serve", "serve the overlay page and the referee console"),
}


def build_parser(commands: dict[str, tuple[str, str]]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="snooker-referee", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_module, help_text) in commands.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    available = {name: spec for name, spec in COMMANDS.items() if _module_exists(spec[0])}
    parser = build_parser(available)
    if not argv or argv[0] not in available:
        parser.parse_args(argv)
        return 2
    name, rest = argv[0], argv[1:]
    module = importlib.import_module(available[name][0])
    sub = argparse.ArgumentParser(prog=f"snooker-referee {name}", description=available[name][1])
    module.add_arguments(sub)
    args = sub.parse_args(rest)
    return int(module.run(args) or 0)


def _module_exists(module_name: str) -> bool:
    return importlib.util.find_spec(module_name) is not None


if __name__ == "__main__":
    sys.exit(main())
