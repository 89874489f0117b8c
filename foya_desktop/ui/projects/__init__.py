"""Projects in the sidebar: creating, binding, managing."""
