"""What a VP may do without asking: the approval policy, grants and secret scrubbing."""
