"""Scoped memory: the person's and the VPs' entries, the ``memory`` tool, and scoped recall."""
