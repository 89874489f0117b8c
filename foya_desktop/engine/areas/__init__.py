"""The kernel's small area façades (issue 7): each object holds the doors of one area.

``engine/kernel.py`` composes them (``kernel.sessions``, ``kernel.turns``, …); the UI sees
each through a matching Protocol in ``ui/kernel_api.py``. The older areas live beside their
concept (``engine/projects.py``, ``engine/search.py``, ``engine/lifecycle.py`` and the
``ops.py`` of ``mcp``, ``memory``, ``transfer`` and ``project_files``); the ones here were
methods of the kernel itself. A façade is a thin door: the rules live in the modules it calls.
"""
