"""The pygame-ce table view: scenes, drawing of what a player sees, input turned into intents."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
