"""Reports made from a finished or running battle: the summary and the dice report."""
