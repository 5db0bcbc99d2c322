"""Ball identities through time in table mm, motion, strokes and stroke events."""

from snooker.tracker.config import StrokeConfig, TrackerConfig
from snooker.tracker.strokes import OutsideEvent, StrokeSegmenter
from snooker.tracker.tracker import BallTracker
from snooker.tracker.types import BallState, PotEvent, StrokeEvents, TableState, TrackEvent, TrackStatus

__all__ = [
    "BallState",
    "BallTracker",
    "OutsideEvent",
    "PotEvent",
    "StrokeConfig",
    "StrokeEvents",
    "StrokeSegmenter",
    "TableState",
    "TrackEvent",
    "TrackStatus",
    "TrackerConfig",
]
