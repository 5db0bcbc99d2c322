"""The allocator setting: frame-sized blocks then come from the heap (glibc), bad settings refused."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from snooker.app.allocator import AllocatorConfig

MAPPED_BY_ITSELF = """
import ctypes, ctypes.util
from snooker.app.allocator import keep_frame_arrays
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]

def mapped_by_itself(size):
    # glibc marks a block mapped from the system on its own in its header (the size word's bit 2)
    block = libc.malloc(size)
    header = ctypes.c_size_t.from_address(block - ctypes.sizeof(ctypes.c_size_t)).value
    libc.free(block)
    return bool(header & 2)

frame_float32 = 1280 * 720 * 4
before = mapped_by_itself(frame_float32)
kept = keep_frame_arrays()
print(before, kept, mapped_by_itself(frame_float32), mapped_by_itself(64 * 2**20))
"""


def test_thresholds_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        AllocatorConfig(mmap_threshold_bytes=0)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="a glibc setting")
def test_a_frame_sized_block_comes_from_the_heap_once_set():
    """In a fresh process a 720p float32 image's block is mapped from the system on its own (and
    given back when freed); once set it comes from the heap; far larger blocks are still mapped."""
    out = subprocess.run([sys.executable, "-c", MAPPED_BY_ITSELF], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "False", "True"]
