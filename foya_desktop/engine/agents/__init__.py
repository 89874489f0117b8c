"""The personas (VPs): the built-in Omni, user-defined VPs and a session's roster."""
