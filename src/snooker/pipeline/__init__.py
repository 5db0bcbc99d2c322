"""Orchestration: the frame loop from a source through calibration, vision, tracker, referee."""
