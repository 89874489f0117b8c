"""How local model servers describe themselves, and how they refuse a prompt longer than their window.

The shapes are the real servers', read in their sources:

* llama.cpp ``tools/server``: ``GET /props`` carries ``default_generation_settings.n_ctx`` (one
  slot's window), ``total_slots`` and ``chat_template_caps`` (``supports_tools`` is ``false`` when
  the chat template cannot render tools: the server answers 200 and drops them); ``GET /v1/models``
  lists the model with ``meta.n_ctx_train``; a prompt of ``n_ctx`` tokens or more is refused with
  HTTP 400 and ``{"error": {"code": 400, "message": "request (N tokens) exceeds the available context
  size (M tokens), try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": N,
  "n_ctx": M}}`` (``server_task_result_error::to_json`` adds the two counts).
* Ollama: ``POST /api/show {"model": …}`` answers ``model_info`` with
  ``"<architecture>.context_length"``.

The fake counts a request's tokens as characters / 4 of its messages and tools (close to what a
small model's tokenizer gives for English), so a test can outgrow a window as a real session does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LlamaServer:
    """A llama.cpp ``llama-server`` started with ``-c n_ctx`` (one slot)."""

    n_ctx: int = 4096
    n_ctx_train: int = 8192
    supports_tools: bool = True
    model: str = "SmolLM2-135M-Instruct-Q8_0.gguf"

    def props(self) -> dict[str, Any]:
        """``GET /props``."""
        return {"default_generation_settings": {"id": 0, "n_ctx": self.n_ctx, "params": {"n_predict": -1}},
                "total_slots": 1, "model_alias": self.model, "model_path": f"models/{self.model}",
                "modalities": {"vision": False, "audio": False},
                "chat_template_caps": {"supports_tools": self.supports_tools,
                                       "supports_tool_calls": self.supports_tools,
                                       "supports_system_role": True, "supports_parallel_tool_calls": False},
                "build_info": "b6000-fake"}

    def models(self) -> dict[str, Any]:
        """``GET /v1/models``."""
        return {"object": "list", "data": [{"id": self.model, "object": "model", "created": 1700000000,
                                            "owned_by": "llamacpp",
                                            "meta": {"vocab_type": 2, "n_vocab": 49152,
                                                     "n_ctx_train": self.n_ctx_train, "n_embd": 576,
                                                     "n_params": 134515008, "size": 138104832}}]}

    def overflow(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The 400 body when ``body``'s prompt does not fit the slot, else ``None``."""
        tokens = prompt_tokens(body)
        if tokens < self.n_ctx:
            return None
        return {"error": {"code": 400, "message": f"request ({tokens} tokens) exceeds the available context "
                                                  f"size ({self.n_ctx} tokens), try increasing it",
                          "type": "exceed_context_size_error", "n_prompt_tokens": tokens, "n_ctx": self.n_ctx}}


@dataclass(frozen=True)
class OllamaServer:
    """An Ollama server holding one model."""

    context_length: int = 2048
    architecture: str = "llama"

    def show(self) -> dict[str, Any]:
        """``POST /api/show``."""
        return {"modelfile": "FROM fake", "parameters": "", "template": "{{ .Prompt }}",
                "details": {"family": self.architecture, "parameter_size": "135M"},
                "model_info": {"general.architecture": self.architecture,
                               f"{self.architecture}.context_length": self.context_length,
                               f"{self.architecture}.embedding_length": 576},
                "capabilities": ["completion", "tools"]}


def prompt_tokens(body: dict[str, Any]) -> int:
    """Characters / 4 of what a chat request asks the model to read (its messages, system and tools)."""
    chars = len(json.dumps(body.get("messages", []), ensure_ascii=False))
    chars += len(json.dumps(body.get("system", ""), ensure_ascii=False))
    chars += len(json.dumps(body.get("tools", []), ensure_ascii=False))
    return chars // 4
