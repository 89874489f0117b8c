"""Sessions out of and into Foya: Markdown to read, JSON to keep and restore."""
