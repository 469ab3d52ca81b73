"""What a seat may see of the battle: the player view, its types and words, and the battlefield built from
a view. Reads the state (``battle/``) and nothing above it."""
