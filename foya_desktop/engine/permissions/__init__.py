"""What a VP may do without asking: the approval policy, grants, secret scrubbing, and which
tools it is offered at all."""
