"""The battle service: one place plays a battle; the window, the command line and the computer are its clients.

A client takes a seat (a side, the referee of a physical game, or a spectator) and gets that seat's screen; it sends
intents and never holds the battle's state.
"""
