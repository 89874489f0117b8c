"""Operations on a whole session: branch, rewind, delete, "compact now", sub-agents (and the
tools that start them) and start-up recovery. Each takes the session through its owner."""
