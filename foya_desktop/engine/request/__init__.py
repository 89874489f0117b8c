"""What the model sees: the compiled history, the context window, the system prompt and the tools."""
