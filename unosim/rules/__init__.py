"""What the game is: cards, rule switches and their registry, bot strategies' registry, configs."""
