"""Operations on a whole session: branch, rewind, delete, compact, sub-agents and start-up recovery."""
