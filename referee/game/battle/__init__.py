"""The battle's state and its words: the state and its declared parts, the sides, cards and missions, the
dice, the action kinds and intents, the mission scores. Below everything else in ``game/``."""
