"""Model providers over httpx: OpenAI-compatible Chat Completions and Anthropic Messages.

- ``base``: the :class:`Provider` protocol, :class:`Timeouts`, :class:`RetryPolicy`.
- ``registry.make_provider``: the adapter for a :class:`~foya_desktop.core.model.Connection`.
- ``openai`` / ``anthropic``: request bodies; ``*_decoder``: their streams → neutral events.
- ``http``: sending, event-level timeouts, retries before the first event; ``http_errors``:
  HTTP failures → the plain-words error tree, key redaction.
- ``sse``: incremental Server-Sent Events parser.
- ``keys``: API keys in the OS keyring only.

Vendor JSON never leaves this package, and API keys go nowhere but the request header.
"""
