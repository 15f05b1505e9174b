"""Text for Castle of the Devil events and views (filled in with the Castle game)."""
