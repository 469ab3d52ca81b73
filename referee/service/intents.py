"""What a client sends the service: an action in the form a save records it (``kind``, ``actor``, ``args``).

A client builds its intent here and never reaches into the engine for it: the kinds a save may record, the checks an
action given as data must pass (as a save's record entry is checked), and the ``Action`` itself.
"""

from __future__ import annotations

from ..game.battle.intents import Action as Action
from ..game.records.record import ACTION_KINDS as ACTION_KINDS
from ..game.records.record import action_problems as action_problems

__all__ = ["ACTION_KINDS", "Action", "action_problems"]
