"""The C allocator set for the frame loop: frame-sized arrays kept in the heap, not mapped afresh.

Each frame the loop makes arrays the size of a frame or a good part of one (colour conversions,
masks, distances: 1-4 MB each). glibc maps blocks that large from the system and gives them back
when they are freed, unless they are below its mmap threshold, which it raises only as far as
the largest block freed so far; so the next frame touches fresh pages and faults on each one.
With the threshold above any frame's array the blocks are reused from the heap: frames of
another view (the cue ball's follower, full-frame work) 15 % faster, the table's frames as
before (docs/PERFORMANCE.md, nineteenth session). A process setting, made by the commands that
run the frame loop when they start (never on import).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass

M_TRIM_THRESHOLD = -1
"""glibc's ``mallopt`` parameter: free memory at the heap's top kept before it is given back."""
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter: the smallest block mapped from the system on its own."""


@dataclass(frozen=True)
class AllocatorConfig:
    """``mmap_threshold_bytes``: blocks below it come from the heap (32 MiB, glibc's upper limit
    on 64-bit systems; a 1280 x 720 float32 image is 3.5 MiB); ``trim_threshold_bytes``: free
    heap kept rather than given back (setting the first turns glibc's own adjustment of both off,
    so this one must be set with it: alone it makes every large block mapped afresh)."""

    mmap_threshold_bytes: int = 32 * 2**20
    trim_threshold_bytes: int = 512 * 2**20

    def __post_init__(self) -> None:
        if self.mmap_threshold_bytes <= 0 or self.trim_threshold_bytes <= 0:
            raise ValueError("the allocator's thresholds must be positive")


def keep_frame_arrays(config: AllocatorConfig | None = None) -> bool:
    """Set the thresholds where the C library is glibc; False (nothing changed) elsewhere."""
    config = config or AllocatorConfig()
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, config.mmap_threshold_bytes)) and bool(
        mallopt(M_TRIM_THRESHOLD, config.trim_threshold_bytes)
    )
