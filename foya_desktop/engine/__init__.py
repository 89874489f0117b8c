"""The agent engine: kernel façade, scheduler, turn runner, context compiler. No Qt."""
