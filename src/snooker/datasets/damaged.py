"""Damaged video files, as they come from the field, made from a clip of our own (the tests use the
shipped demo clip; never shared footage): an AVI
(MJPG) with an empty frame chunk (how AVI marks a frame a camera dropped) or a damaged JPEG, an
MP4 with damaged packets, cut short, without its index (``moov``), or whose timestamps jump over
frames never recorded. Each is edited at the container level, as the damage happens, so the real
decoder (OpenCV's FFmpeg) meets it."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

MP4_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts"}
"""MP4 boxes that hold other boxes (down to the sample tables edited here)."""


def read_images(path: Path) -> list[np.ndarray]:
    """Every frame of the video at ``path`` that OpenCV decodes, in order (BGR)."""
    capture = cv2.VideoCapture(str(path))
    images = []
    while True:
        ok, image = capture.read()
        if not ok:
            break
        images.append(image)
    capture.release()
    return images


# ------------------------------------------------------------------------------------------ AVI
def write_mjpg_avi(path: Path, images: list[np.ndarray], fps: float) -> Path:
    """``images`` as an MJPG AVI (OpenCV's own AVI writer: a ``movi`` list of ``00dc`` chunks and
    an ``idx1`` index)."""
    height, width = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    for image in images:
        writer.write(image)
    writer.release()
    return path


def _riff_chunks(data: bytes, start: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    """(id, offset, size) of the RIFF chunks in ``data[start:end]``."""
    offset = start
    while offset + 8 <= end:
        kind, size = data[offset : offset + 4], struct.unpack("<I", data[offset + 4 : offset + 8])[0]
        yield kind, offset, size
        offset += 8 + size + (size & 1)


def avi_frames(data: bytes) -> list[bytes]:
    """The frame chunks' payloads (JPEGs) of an AVI, in order."""
    movi = next(
        o for k, o, _ in _riff_chunks(data, 12, len(data)) if k == b"LIST" and data[o + 8 : o + 12] == b"movi"
    )
    size = struct.unpack("<I", data[movi + 4 : movi + 8])[0]
    return [data[o + 8 : o + 8 + s] for _, o, s in _riff_chunks(data, movi + 12, movi + 8 + size)]


def avi_with_frames(data: bytes, payloads: list[bytes]) -> bytes:
    """The AVI ``data`` with its frame chunks' payloads replaced (an empty one: a dropped frame, as
    AVI writers mark it), its ``movi`` list and ``idx1`` index rebuilt to match."""
    top = list(_riff_chunks(data, 12, len(data)))
    movi = next(o for k, o, _ in top if k == b"LIST" and data[o + 8 : o + 12] == b"movi")
    index = next(o for k, o, _ in top if k == b"idx1")
    old = list(_riff_chunks(data, movi + 12, movi + 8 + struct.unpack("<I", data[movi + 4 : movi + 8])[0]))
    relative = struct.unpack("<I", data[index + 16 : index + 20])[0] - old[0][1]  # idx1's offset origin
    body, entries = bytearray(b"movi"), bytearray()
    for (kind, _, _), payload in zip(old, payloads, strict=True):
        at = movi + 8 + len(body)
        entries += kind + struct.pack("<III", 0x10 if payload else 0, at + relative, len(payload))
        body += kind + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) & 1 else b"")
    out = bytearray(data[:movi]) + b"LIST" + struct.pack("<I", len(body)) + body
    out += b"idx1" + struct.pack("<I", len(entries)) + entries
    out[4:8] = struct.pack("<I", len(out) - 8)
    return bytes(out)


# ------------------------------------------------------------------------------------------ MP4
def _boxes(
    data: bytes, start: int, end: int, path: tuple[bytes, ...] = ()
) -> Iterator[tuple[tuple[bytes, ...], int, int]]:
    """(path of box types, offset, size) of every box in ``data[start:end]``, depth first."""
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset : offset + 8])
        yield (*path, kind), offset, size
        if kind in MP4_CONTAINERS:
            yield from _boxes(data, offset + 8, offset + size, (*path, kind))
        offset += size


def mp4_box(data: bytes, kind: bytes) -> tuple[int, int]:
    """(offset, size) of the first box of type ``kind``."""
    return next((o, s) for p, o, s in _boxes(data, 0, len(data)) if p[-1] == kind)


def _replace_box(data: bytes, at: int, box: bytes) -> bytes:
    """``data`` with the box at offset ``at`` replaced by ``box``, the boxes holding it resized (the
    sample tables come after the frames in these files, so no frame offset moves)."""
    size = struct.unpack(">I", data[at : at + 4])[0]
    out = bytearray(data[:at] + box + data[at + size :])
    for path, offset, length in _boxes(data, 0, len(data)):
        if path[-1] in MP4_CONTAINERS and offset < at < offset + length:
            out[offset : offset + 4] = struct.pack(">I", length + len(box) - size)
    return bytes(out)


def mp4_with_time_gaps(data: bytes, gaps: dict[int, int]) -> bytes:
    """The MP4 ``data`` (one video track of constant frame rate) with its timestamps jumping:
    ``gaps[k]`` frame times missing before sample ``k`` (the sample before it lasts that much
    longer, as in a recording whose camera dropped frames: variable frame rate)."""
    at, _ = mp4_box(data, b"stts")
    count, delta = struct.unpack(">II", data[at + 16 : at + 24])
    entries, start = [], 0
    for sample in sorted(gaps):
        if sample - 1 > start:
            entries.append((sample - 1 - start, delta))
        entries.append((1, delta * (1 + gaps[sample])))
        start = sample
    entries.append((count - start, delta))
    box = struct.pack(">I4sII", 16 + 8 * len(entries), b"stts", 0, len(entries))
    return _replace_box(data, at, box + b"".join(struct.pack(">II", *entry) for entry in entries))


def mp4_index_first(data: bytes) -> bytes:
    """The MP4 ``data`` with its index (``moov``) moved before its frames (``mdat``), as streaming
    recorders write it, so a file cut short still opens; chunk offsets moved to match."""
    moov_at, moov_size = mp4_box(data, b"moov")
    moov = bytearray(data[moov_at : moov_at + moov_size])
    for path, offset, _ in _boxes(data, 0, len(data)):
        if path[-1] == b"stco":
            for k in range(struct.unpack(">I", data[offset + 12 : offset + 16])[0]):
                entry = offset + 16 + 4 * k - moov_at
                moov[entry : entry + 4] = struct.pack(
                    ">I", struct.unpack(">I", moov[entry : entry + 4])[0] + moov_size
                )
    ftyp_at, ftyp_size = mp4_box(data, b"ftyp")
    head = ftyp_at + ftyp_size
    return data[:head] + bytes(moov) + data[head:moov_at] + data[moov_at + moov_size :]


def overwritten(data: bytes, fraction: float, length: int) -> bytes:
    """``data`` with ``length`` bytes from ``fraction`` of the way in overwritten by a byte ramp."""
    at = int(len(data) * fraction)
    ramp = bytes(k % 256 for k in range(length))
    return data[:at] + ramp + data[at + length :]
