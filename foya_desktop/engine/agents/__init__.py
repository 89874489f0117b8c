"""The personas (VPs) of a session's roster and the tools that delegate to sub-agents."""
