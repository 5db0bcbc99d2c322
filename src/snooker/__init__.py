"""An automatic snooker referee: camera → table → balls → strokes → rulings → feed."""

__version__ = "0.1.0"
