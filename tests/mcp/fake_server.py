"""A small real MCP server written with the SDK's FastMCP, for the tests.

``python -m tests.mcp.fake_server stdio TAG [--big]`` or
``python -m tests.mcp.fake_server http|sse TAG PORT``. ``TAG`` only marks the command
line, so a test can find the process in ``/proc``. ``--big`` adds tools with long
descriptions (for the schema-deferral test). Mode ``bad`` exits at once with an
error on stderr (a server that fails to start).
"""

from __future__ import annotations

import asyncio
import os
import sys

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ToolAnnotations


def build(port: int = 0, big: bool = False) -> FastMCP:
    server = FastMCP("fake", host="127.0.0.1", port=port or 8000, log_level="WARNING")

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    def echo(text: str) -> str:
        """Repeat the text back."""
        return f"echo: {text}"

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    def read_path(path: str) -> str:
        """Pretend to read a path (the argument is what matters)."""
        return f"read {path}"

    @server.tool()
    def write_note(text: str) -> str:
        """A tool with side effects (no hints)."""
        return f"noted {text}"

    @server.tool()
    async def slow(seconds: float) -> str:
        """Sleep, then answer."""
        await asyncio.sleep(seconds)
        return "slept"

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    def authorization(ctx: Context) -> str:  # type: ignore[type-arg]
        """The Authorization header this call arrived with (HTTP transports only)."""
        request = ctx.request_context.request
        headers = getattr(request, "headers", None)
        return f"authorization: {headers.get('authorization', '') if headers is not None else ''}"

    @server.tool()
    def crash() -> str:
        """Die at once."""
        print("fake-mcp: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)

    if big:
        for i in range(40):
            def make(i: int) -> None:
                def many(x: str) -> str:
                    return f"{i}:{x}"
                many.__name__ = f"bulk_{i}"
                server.tool(name=f"bulk_{i}", description=f"Bulk tool {i}. " + "Long words. " * 200)(many)
            make(i)
    return server


def main() -> None:
    mode = sys.argv[1]
    print(f"fake-mcp starting ({mode})", file=sys.stderr, flush=True)
    if mode == "bad":
        print("fake-mcp: cannot open the database", file=sys.stderr, flush=True)
        sys.exit(2)
    if mode == "stdio":
        build(big="--big" in sys.argv).run("stdio")
    elif mode == "sse":
        build(port=int(sys.argv[3])).run("sse")
    else:
        build(port=int(sys.argv[3])).run("streamable-http")


if __name__ == "__main__":
    main()
