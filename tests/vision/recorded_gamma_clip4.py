"""Colour readings recorded on Task2 clip 4 at gamma 1.25 (``look_gamma_1.25``), where a region
search's naming, started from a transform dragged by one odd reading, named the yellow white
(``ClassicConfig.relabel_from_searched_transform``). Core features follow ``colour.FEATURE_NAMES``."""

from __future__ import annotations

from snooker.vision.colour import FrameTransform

SEARCHED = FrameTransform(log_gain=-0.123, gamma=1.519, chroma_scale=0.861, a_shift=0.93, b_shift=0.75)
"""The transform the clip's last full detection settled on (frame 60), searched from every exposure."""
DRAGGED = FrameTransform(log_gain=-0.280, gamma=1.281, chroma_scale=0.852, a_shift=0.21, b_shift=1.79)
"""The transform frame 83's naming settled on, fitted to the yellow read dim (L 151) while it
passed the white, which was not found."""
AT_REST_84 = {
    "green": (50.0, -29.0, 24.0, 0.23, 72.0, -37.0, 35.0),
    "blue": (42.0, 2.0, -28.0, 1.15, 94.0, -44.0, 42.0),
    "pink": (96.5, 49.0, 25.5, 1.34, 104.0, -47.0, 46.0),
    "black": (2.0, -2.0, 1.0, 0.83, 112.0, -50.0, 48.0),
    "brown": (87.0, -2.5, 38.5, 0.96, 73.0, -37.0, 36.0),
}
"""The colours at rest on frame 84."""
YELLOW = {
    83: (151.0, -25.0, 58.0, 0.74, 75.0, -38.0, 36.0),
    84: (193.0, -7.0, 75.0, 0.90, 76.0, -38.0, 37.0),
    86: (200.0, -11.0, 77.0, 0.88, 78.0, -38.0, 37.0),
    87: (163.0, -11.0, 67.0, 0.91, 78.0, -38.0, 37.0),
}
"""The yellow rolling past the white: read dim on frame 83, bright again on 84-86 (the white not
found on 81-86), and beside the white on 87."""
WHITE_87 = (246.0, -17.0, 41.0, 0.92, 73.0, -37.0, 36.0)
"""The white, found again on frame 87."""
