"""A tiny stand-in referee with the real one's API (apply/scoreboard), for tests of the plumbing."""

from __future__ import annotations

from typing import Any

VALUES = {"red": 1, "yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}


class FakeReferee:
    def __init__(self, config: object = None):
        self.players: list[str] = []
        self.score = [0, 0]
        self.striker = 0
        self.brk = 0
        self.decision_open = False

    def apply(self, line: dict[str, Any] | str) -> dict[str, Any]:
        if not isinstance(line, dict) or "type" not in line:
            return {"error": "malformed line"}
        kind = line["type"]
        if kind == "match":
            self.players = list(line.get("players", []))
        elif kind == "stroke":
            if "boom" in line:
                raise RuntimeError("simulated referee bug")
            potted = [p["ball"] if isinstance(p, dict) else p for p in line.get("potted", [])]
            if line.get("cue_ball") == "potted":
                self.score[1 - self.striker] += 4
                self.striker, self.brk, self.decision_open = 1 - self.striker, 0, True
                return self._ruling(foul=True, penalty=4, announcements=["FOUL"])
            points = sum(VALUES[p] for p in potted)
            self.score[self.striker] += points
            self.brk = self.brk + points if points else 0
            if not points:
                self.striker = 1 - self.striker
            self.decision_open = False
        elif kind == "decision":
            if not self.decision_open:
                return {"error": "no decision is open"}
            if line.get("choice") == "play_again":
                self.striker = 1 - self.striker
            self.decision_open = False
        else:
            return {"error": f"unknown line type {kind!r}"}
        return self._ruling()

    def _ruling(self, foul: bool = False, penalty: int = 0, announcements: list[str] | None = None):
        return {**self.scoreboard(), "foul": foul, "penalty": penalty, "announcements": announcements or []}

    def scoreboard(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "score": list(self.score),
            "frames": [0, 0],
            "break": self.brk,
            "striker": self.striker,
            "ball_on": "red",
            "options": ["play", "play_again"] if self.decision_open else [],
            "status": "playing",
        }
