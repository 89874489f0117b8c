"""The message timeline: a windowed model, a painted delegate, incremental markdown."""
