"""The rules of Section 3 as a pure fold over the frame log (no cv2, zmq, vision or tracker).

Public API: ``Referee`` (``apply(line) -> ruling``, ``scoreboard()``), ``RefereeConfig`` and
``replay(lines) -> rulings``; foul reason codes in ``FoulReason``. Importing this package does no work.
"""

from snooker.referee.reasons import FoulReason
from snooker.referee.referee import Referee, Ruling, replay
from snooker.referee.state import RefereeConfig

__all__ = ["FoulReason", "Referee", "RefereeConfig", "Ruling", "replay"]
