"""The composer, its queue and the status line."""
