"""One module per scene: the menu, the table, the help overlay (set-up, holding area, hand-off, end report and
settings will join them)."""
