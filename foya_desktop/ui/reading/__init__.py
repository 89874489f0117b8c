"""Reading and finding: Ctrl+F in a session, search across sessions, quote and edit-as-new."""
