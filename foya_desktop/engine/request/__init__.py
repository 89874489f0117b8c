"""What the model sees: compiled history, context window, prompt, automatic compaction and its
summary, and the reply of one model step as it accumulates."""
