"""A session's in-memory life: its runtime state, its queue, and who may hold it busy."""
