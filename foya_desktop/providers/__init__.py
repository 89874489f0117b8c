"""Model providers over httpx: OpenAI-compatible Chat Completions and Anthropic Messages."""
