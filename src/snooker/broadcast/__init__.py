"""Outputs for people and graphics: the ZeroMQ scoreboard feed, overlay page, referee console."""
