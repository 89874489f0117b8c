"""Cards for what a turn waits on: approval requests and AskUser questions."""
