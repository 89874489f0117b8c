"""Import cycles inside a package, counting every import: module level, function-local and
``TYPE_CHECKING`` ones (grimp reads them all from the source)."""

from __future__ import annotations

import grimp


def import_cycles(package: str, root: str = "foya_desktop") -> list[list[str]]:
    """Each strongly connected group of two or more modules of ``package`` (sorted), or a self-import."""
    graph = grimp.build_graph(root, cache_dir=None)
    inside = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    edges = {m: {t for t in graph.find_modules_directly_imported_by(m) if t in inside} for m in inside}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:  # iterative Tarjan: no recursion limit on big packages
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            nxt = next(targets, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in edges[node]:
                    groups.append(sorted(group))

    for module in sorted(inside):
        if module not in index:
            visit(module)
    return sorted(groups)
