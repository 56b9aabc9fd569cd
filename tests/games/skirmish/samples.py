"""Sample data for every skirmish event and command, for ``tests/games/test_registry.py``."""

from __future__ import annotations

SAMPLES = {
    "GameStarted": {"game": "skirmish", "rules_version": "skirmish-3", "commitment": "ab" * 32, "seats": ["red", "blue"],
                    "scenario": "{}"},
    "FigureActivated": {"figure": "ana", "side": "red", "round": 1},
    "FigureMoved": {"figure": "ana", "start": [0, 0], "to": [2, 1], "path": [[1, 0], [2, 1]], "cost": 3,
                    "doubled": [], "passed": [[1, 0]], "chosen": True},
    "AttackRolled": {"figure": "ana", "target": "z1", "roll": 12, "attack": 5, "total": 17, "defense": 14,
                     "cover": True, "corner": [1, 1], "screens": ["low objects at C2"], "critical": False,
                     "hit": True, "damage": 10},
    "FigureDefeated": {"figure": "z1", "at": [4, 1]},
    "DoorContested": {"door": "door1", "figure": "z1", "holder": "ana", "want_open": True, "figure_attack": 3,
                      "figure_bonus": 2, "holder_attack": 5, "holder_bonus": 0, "throws": [[10, 15, 8, 13]],
                      "winner": "z1", "open": True, "rule": "SK-10"},
    "DoorTaken": {"door": "door1", "figure": "z1", "holder": "ana", "open": True},
    "DoorDecisionsDue": {"figure": "ana", "doors": ["door1"]},
    "DoorDecided": {"door": "door1", "figure": "ana", "open": False, "was_open": False, "rule": "SK-7"},
    "DoorReleased": {"door": "door1", "figure": "ana", "was_open": True},
    "DoorHolderDefeated": {"door": "door1", "figure": "ana", "open": True},
    "ActivationEnded": {"figure": "ana", "next_side": "blue"},
    "RoundEnded": {"round": 1, "next_side": "blue"},
    "GameEnded": {"winner": None, "reason": "all 8 rounds are played"},
    "Activate": {"figure": "ana"},
    "Move": {"figure": "ana", "to": [2, 1], "path": [[1, 0], [2, 1]]},
    "Attack": {"figure": "ana", "target": "z1"},
    "ContestDoor": {"figure": "z1", "door": "door1", "open": True},
    "EndActivation": {"figure": "ana"},
    "DecideDoor": {"figure": "ana", "door": "door1", "open": False},
}
