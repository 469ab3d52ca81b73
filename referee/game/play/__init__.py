"""The engine: set-up steps, actions and their effects, turns, the legal actions, previews (``session``),
undo, corrections, victory and the seals. Reads ``battle/`` and ``views/``."""
