"""MCP servers as tools: configuration (``config``), trust, the SDK client and its lifecycle.

Only ``client`` imports the ``mcp`` SDK, and only when a configured server starts.
"""
