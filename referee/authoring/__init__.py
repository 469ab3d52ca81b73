"""Making and printing factions: writing faction files safely (``faction_io``) and the printable sheet (``sheet``).

Only ``sheet`` needs pygame, and it imports it itself; the rest is plain Python.
"""
