"""Loaders for the real labelled footage, the synthetic generator, shipped samples."""
