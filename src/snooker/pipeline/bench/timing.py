"""Timing bookkeeping shared by the benchmarks: stages, a per-frame stage clock, summaries, the machine."""

from __future__ import annotations

import datetime as dt
import math
import os
import platform
import resource
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

BENCH_SCHEMA = "snooker.bench/1"
STAGES: tuple[str, ...] = ("decode", "calibration", "detection", "other_view", "tracking", "referee", "other")
"""Per-frame stages, in the order the pipeline runs them: "other_view" is the cue ball looked for in
frames that do not show the table; "other" is the frame loop's bookkeeping."""
PROCESS_STAGE = "process"
"""Internal clock key: the whole ``VideoAnalysis.process`` call ("other" is what its stages leave)."""
NESTED_IN_PROCESS: tuple[str, ...] = ("calibration", "detection", "other_view", "tracking")

Reporter = Callable[[str], None]


class BenchError(RuntimeError):
    """A benchmark input that cannot be used (a clip that does not open, no clips at all)."""


def summarise_ms(seconds: list[float] | np.ndarray) -> dict[str, float]:
    """Median, 95th percentile, minimum, mean and total of durations given in seconds, in ms.

    On a loaded machine the minimum is closest to the work's own cost; the median is what it costs
    there and then."""
    values = np.asarray(seconds, dtype=float) * 1000.0
    if values.size == 0:
        nan = math.nan
        return {"median_ms": nan, "p95_ms": nan, "min_ms": nan, "mean_ms": nan, "total_ms": 0.0}
    return {
        "median_ms": round(float(np.median(values)), 3),
        "min_ms": round(float(values.min()), 3),
        "p95_ms": round(float(np.percentile(values, 95)), 3),
        "mean_ms": round(float(values.mean()), 3),
        "total_ms": round(float(values.sum()), 3),
    }


def peak_rss_mib() -> float:
    """The process's peak resident set size so far (MiB; Linux reports ``ru_maxrss`` in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1)


def machine_info() -> dict[str, Any]:
    """What the numbers were measured on, so runs can be compared."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    info: dict[str, Any] = {
        "utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "usable_cpus": usable,
        "load_average_1_5_15": [round(v, 2) for v in os.getloadavg()],
        "opencv": cv2.__version__,
        "opencv_threads": cv2.getNumThreads(),
        "numpy": np.__version__,
        "git_commit": _git_commit(),
    }
    return info


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def _git_commit() -> str | None:
    repo = Path(__file__).resolve().parent  # any folder of the checkout names its commit
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


class _Timed:
    """``fn`` called with its time counted into ``stage`` of ``clock``; its other attributes (an
    object's methods: the other view's ``reset``, ``prepare`` and ``close``) are ``fn``'s own."""

    def __init__(self, clock: StageClock, stage: str, fn: Callable[..., Any]) -> None:
        self._clock, self._stage, self._fn = clock, stage, fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._clock.measure(self._stage):
            return self._fn(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # its own, or asked of a bare copy (deepcopy) before it has any
            raise AttributeError(name)
        return getattr(self._fn, name)


class StageClock:
    """Wall time per pipeline stage, one row per frame.

    ``wrap(stage, fn)`` returns ``fn`` timed into ``stage`` (its other attributes passed through:
    the frame loop resets and prepares what it calls); ``measure(stage)`` times a block;
    ``now`` is the clock (seconds).
    ``end_frame()`` closes the frame's row: "other" is the part of ``VideoAnalysis.process`` its
    nested stages (calibration, detection, other_view, tracking) do not account for.
    """

    def __init__(self, now: Callable[[], float] = time.perf_counter) -> None:
        self.rows: list[dict[str, float]] = []
        self._now = now
        self._current = self._empty()

    @staticmethod
    def _empty() -> dict[str, float]:
        return dict.fromkeys((*STAGES, PROCESS_STAGE), 0.0)

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        return _Timed(self, stage, fn)

    @contextmanager
    def measure(self, stage: str) -> Iterator[None]:
        if stage not in self._current:
            raise KeyError(f"unknown stage {stage!r}")
        started = self._now()
        try:
            yield
        finally:
            self._current[stage] += self._now() - started

    def end_frame(self) -> dict[str, float]:
        row = self._current
        nested = sum(row[stage] for stage in NESTED_IN_PROCESS)
        row["other"] = max(0.0, row.pop(PROCESS_STAGE) - nested)
        self.rows.append(row)
        self._current = self._empty()
        return row

    def per_stage(self) -> dict[str, list[float]]:
        """Seconds per frame for each stage (aligned lists)."""
        return {stage: [row[stage] for row in self.rows] for stage in STAGES}
