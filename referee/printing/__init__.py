"""Printed pages as PDF (fpdf2, vector, with the Noto Sans font embedded): the faction sheet, a player's mat for a
physical game and the end-of-battle report with its dice report. Each module reads what it prints and computes no
rule: the numbers come from the engine (``rules/``, ``game/``), as the window and the command line show them."""
