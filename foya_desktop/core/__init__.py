"""Domain types shared by every layer. Standard library only: no Qt, no I/O."""
