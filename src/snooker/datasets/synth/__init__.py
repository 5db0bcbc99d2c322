"""Synthetic snooker footage with exact ground truth: physics, camera, renderer, scenarios.

Import the parts from their modules (``snooker.datasets.synth.render`` …); importing this
package does no work.
"""
