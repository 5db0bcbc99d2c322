"""Frame sources, ball detectors (classical and YOLO), colour identification, view checks."""
