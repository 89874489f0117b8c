"""Tools the agent can call. No Qt. Every path goes through ``paths.resolve_inside``."""
