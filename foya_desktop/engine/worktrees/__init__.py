"""Git worktree sessions: a session bound to a worktree Foya adds beside the repository."""
