"""Background task records of the session on screen."""
