"""A session's in-memory life: its owner (the only writer of task, phase, queue and pause),
the queue's rules, and the scheduler that keeps one owner per session."""
