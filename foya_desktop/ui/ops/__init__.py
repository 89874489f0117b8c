"""Session operations in the window: branch, rewind, delete, compact, sub-agent sessions."""
