"""``view_image``: hand an image file inside the project to the model.

The type comes from magic bytes, not the file name, so a renamed text file is
refused rather than sent as a broken image; the size cap keeps requests
within what providers accept.
"""

from __future__ import annotations

from typing import Any

from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_str, confined, image_mime, rel, run_guarded
from foya_desktop.tools.fdwalk import open_resolved
from foya_desktop.tools.paths import real_root

MAX_IMAGE_BYTES = 5 * 1024 * 1024

VIEW_IMAGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "PNG, JPEG, GIF or WebP file inside the project."},
    },
    "required": ["path"],
    "additionalProperties": False,
}


class ViewImageTool:
    """``view_image``: one image as an attachment of the tool result."""

    name = "view_image"
    description = (f"Look at an image file inside the project (PNG, JPEG, GIF, WebP; at most "
                   f"{MAX_IMAGE_BYTES // (1024 * 1024)} MiB).")
    parameters = VIEW_IMAGE_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Check the path."""
        resolved = confined(ctx, arg_str(args, "path"))
        return Action(kind="read", summary=f"View image {rel(ctx, resolved)}", paths=(resolved,))

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Read and sniff in a worker thread."""
        return await run_guarded(lambda: self._view(args, ctx))

    def _view(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        resolved = confined(ctx, arg_str(args, "path"))
        shown = rel(ctx, resolved)
        with open_resolved(real_root(ctx.workdir), resolved, "rb") as fh:
            data = fh.read(MAX_IMAGE_BYTES + 1)
        if len(data) > MAX_IMAGE_BYTES:
            return ToolOutput(f"{shown} is larger than {MAX_IMAGE_BYTES} bytes; too big to view.",
                              is_error=True)
        mime = image_mime(data)
        if mime is None:
            return ToolOutput(f"{shown} is not a PNG, JPEG, GIF or WebP image.", is_error=True)
        return ToolOutput(f"Image {shown} ({mime}, {len(data)} bytes)", images=((mime, data),))
