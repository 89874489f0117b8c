"""The session tree in the sidebar."""
