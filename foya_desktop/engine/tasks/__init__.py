"""Background commands a VP started: their records, output tails and the tools that manage them."""
