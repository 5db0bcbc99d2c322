"""The picture size a video packet's sequence header codes, read from the packet's bytes.

OpenCV scales every frame it decodes to the size of the first one, so a video whose picture
changes size (clips of two sizes joined into one stream, an HLS recording that switched quality, a
camera that renegotiated its mode) arrives at one size, stretched where the shape changed, with no
error. The size each frame was coded at is in the sequence headers that open its key frames; these
functions read it from a packet (Annex B start codes, as OpenCV's raw packets give them):

- H.264: the sequence parameter set (NAL type 7), cropping applied;
- MPEG-4 part 2: the video object layer header (start codes 0x20-0x2F);
- MPEG-1/2: the sequence header (0xB3);
- Motion JPEG: the JPEG's start of frame.

:func:`parser_for` gives the reader for a codec (its FOURCC as OpenCV reports it), or None.
"""

from __future__ import annotations

from collections.abc import Callable

Size = tuple[int, int]
"""A picture size: (width, height), px."""

SizeReader = Callable[[bytes], Size | None]
"""The size a packet's sequence header codes, None where the packet holds none (or it cannot be read)."""

START_CODE = b"\x00\x00\x01"


class _Bits:
    """A big-endian bit reader over ``data``; reading past the end raises IndexError."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def bit(self) -> int:
        byte = self.data[self.at >> 3]
        value = (byte >> (7 - (self.at & 7))) & 1
        self.at += 1
        return value

    def bits(self, count: int) -> int:
        value = 0
        for _ in range(count):
            value = (value << 1) | self.bit()
        return value

    def ue(self) -> int:
        """An unsigned Exp-Golomb code (H.264 ue(v))."""
        zeros = 0
        while self.bit() == 0:
            zeros += 1
            if zeros > 31:
                raise IndexError("malformed Exp-Golomb code")
        return (1 << zeros) - 1 + self.bits(zeros)

    def se(self) -> int:
        """A signed Exp-Golomb code (H.264 se(v))."""
        code = self.ue()
        return (code + 1) // 2 if code & 1 else -(code // 2)


def _units(data: bytes) -> list[bytes]:
    """The payloads after each start code 00 00 01 in ``data`` (each up to the next)."""
    starts = []
    at = data.find(START_CODE)
    while at >= 0:
        starts.append(at + len(START_CODE))
        at = data.find(START_CODE, at + len(START_CODE))
    ends = [s - len(START_CODE) for s in starts[1:]] + [len(data)]
    return [data[s:e] for s, e in zip(starts, ends, strict=True)]


H264_HIGH_PROFILES = {100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135}
"""H.264 profiles whose sequence parameter set carries chroma format, bit depths and scaling lists."""


def _h264_rbsp(nal: bytes) -> bytes:
    """A NAL unit's payload with its emulation prevention bytes (00 00 03) removed."""
    return nal.replace(b"\x00\x00\x03", b"\x00\x00")


def _skip_scaling_list(bits: _Bits, size: int) -> None:
    last, following = 8, 8
    for _ in range(size):
        if following:
            following = (last + bits.se() + 256) % 256
        last = following or last


def h264_size(packet: bytes) -> Size | None:
    """The size an H.264 sequence parameter set in ``packet`` codes (after cropping)."""
    for unit in _units(packet):
        if not unit or unit[0] & 0x1F != 7:
            continue
        try:
            return _h264_sps_size(_Bits(_h264_rbsp(unit[1:])))
        except IndexError:
            return None
    return None


def _h264_sps_size(bits: _Bits) -> Size:
    profile = bits.bits(8)
    bits.bits(16)  # constraint flags, level
    bits.ue()  # seq_parameter_set_id
    chroma_format = 1
    if profile in H264_HIGH_PROFILES:
        chroma_format = bits.ue()
        if chroma_format == 3:
            bits.bit()  # separate_colour_plane_flag
        bits.ue()  # bit_depth_luma_minus8
        bits.ue()  # bit_depth_chroma_minus8
        bits.bit()  # qpprime_y_zero_transform_bypass_flag
        if bits.bit():  # seq_scaling_matrix_present_flag
            for k in range(8 if chroma_format != 3 else 12):
                if bits.bit():
                    _skip_scaling_list(bits, 16 if k < 6 else 64)
    bits.ue()  # log2_max_frame_num_minus4
    order_type = bits.ue()
    if order_type == 0:
        bits.ue()
    elif order_type == 1:
        bits.bit()
        bits.se()
        bits.se()
        for _ in range(bits.ue()):
            bits.se()
    bits.ue()  # max_num_ref_frames
    bits.bit()  # gaps_in_frame_num_value_allowed_flag
    width_mbs = bits.ue() + 1
    height_units = bits.ue() + 1
    frames_only = bits.bit()
    if not frames_only:
        bits.bit()  # mb_adaptive_frame_field_flag
    bits.bit()  # direct_8x8_inference_flag
    width, height = 16 * width_mbs, 16 * height_units * (2 - frames_only)
    if bits.bit():  # frame_cropping_flag
        left, right, top, bottom = bits.ue(), bits.ue(), bits.ue(), bits.ue()
        unit_x = 1 if chroma_format in (0, 3) else 2
        unit_y = (2 if chroma_format == 1 else 1) * (2 - frames_only)
        width -= unit_x * (left + right)
        height -= unit_y * (top + bottom)
    return width, height


def mpeg4_size(packet: bytes) -> Size | None:
    """The size an MPEG-4 part 2 video object layer header in ``packet`` codes (rectangular
    shape only)."""
    for unit in _units(packet):
        if not unit or not 0x20 <= unit[0] <= 0x2F:
            continue
        try:
            return _mpeg4_vol_size(_Bits(unit[1:]))
        except IndexError:
            return None
    return None


def _mpeg4_vol_size(bits: _Bits) -> Size | None:
    bits.bit()  # random_accessible_vol
    bits.bits(8)  # video_object_type_indication
    verid = 1
    if bits.bit():  # is_object_layer_identifier
        verid = bits.bits(4)
        bits.bits(3)
    if bits.bits(4) == 0xF:  # aspect_ratio_info: extended PAR
        bits.bits(16)
    if bits.bit():  # vol_control_parameters
        bits.bits(3)  # chroma_format, low_delay
        if bits.bit():  # vbv_parameters
            bits.bits(15 + 1 + 15 + 1 + 15 + 1 + 3 + 11 + 1 + 15 + 1)
    shape = bits.bits(2)
    if shape == 3 and verid != 1:
        bits.bits(4)
    bits.bit()  # marker
    resolution = bits.bits(16)
    bits.bit()  # marker
    if bits.bit():  # fixed_vop_rate
        bits.bits(max(1, (resolution - 1).bit_length()))
    if shape != 0:
        return None
    bits.bit()
    width = bits.bits(13)
    bits.bit()
    height = bits.bits(13)
    return (width, height) if width and height else None


def mpeg12_size(packet: bytes) -> Size | None:
    """The size an MPEG-1/2 sequence header in ``packet`` codes."""
    for unit in _units(packet):
        if len(unit) >= 4 and unit[0] == 0xB3:
            width = (unit[1] << 4) | (unit[2] >> 4)
            height = ((unit[2] & 0x0F) << 8) | unit[3]
            return (width, height) if width and height else None
    return None


JPEG_START_OF_FRAME = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""JPEG markers that start a frame (baseline, progressive, ...; not DHT, JPG, DAC)."""


def jpeg_size(packet: bytes) -> Size | None:
    """The size the start of frame of a JPEG ``packet`` codes."""
    at = 2 if packet[:2] == b"\xff\xd8" else -1
    while at >= 0 and at + 9 <= len(packet):
        if packet[at] != 0xFF:
            return None
        marker = packet[at + 1]
        if marker in JPEG_START_OF_FRAME:
            height = int.from_bytes(packet[at + 5 : at + 7], "big")
            width = int.from_bytes(packet[at + 7 : at + 9], "big")
            return (width, height) if width and height else None
        at += 2 + int.from_bytes(packet[at + 2 : at + 4], "big")
    return None


READERS: dict[str, SizeReader] = {
    "h264": h264_size,
    "avc1": h264_size,
    "avc3": h264_size,
    "x264": h264_size,
    "fmp4": mpeg4_size,
    "mp4v": mpeg4_size,
    "xvid": mpeg4_size,
    "divx": mpeg4_size,
    "dx50": mpeg4_size,
    "mpg1": mpeg12_size,
    "mpg2": mpeg12_size,
    "mpeg": mpeg12_size,
    "mjpg": jpeg_size,
}
"""The size reader for each codec, by its FOURCC (lower case) as OpenCV reports it."""


def parser_for(fourcc: str) -> SizeReader | None:
    """The size reader for the codec ``fourcc`` names (as ``CAP_PROP_FOURCC``), None where none."""
    return READERS.get(fourcc.strip("\0 ").lower())
