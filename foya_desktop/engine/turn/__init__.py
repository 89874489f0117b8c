"""Running a turn: fan-out to the target VPs, each VP's agent loop, model steps and tool calls."""
