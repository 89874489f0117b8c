"""MCP servers per project: trust (``trust``) and the running servers (``servers``)."""
