"""What makes a connection usable, checked when it is added (not at the first run).

A port out of range, a URL without a host, credentials typed into the URL or
control characters in a name would otherwise surface much later as an
"internal error" from the HTTP stack, or leak a key into the database.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from foya_desktop.core.errors import BadInput
from foya_desktop.core.model import Connection


def check_connection(conn: Connection) -> None:
    """Raise ``BadInput`` with a sentence for the first thing wrong with ``conn``."""
    name = conn.name
    if not name.strip():
        raise BadInput("A connection needs a name.")
    if name != name.strip() or any(unicodedata.category(c).startswith("C") for c in name):
        raise BadInput("A connection name cannot start or end with spaces or contain control "
                       "characters (tabs, newlines, escapes).")
    if len(name) > 100:
        raise BadInput("A connection name can be at most 100 characters long.")
    check_base_url(conn.base_url)
    if any(unicodedata.category(c).startswith("C") for c in conn.model):
        raise BadInput("A model name cannot contain control characters.")
    if conn.context_window <= 0:
        raise BadInput(f"The context window must be a positive number of tokens, not {conn.context_window}.")
    if conn.api_key_env and not conn.api_key_env.replace("_", "").isalnum():
        raise BadInput(f"{conn.api_key_env!r} is not an environment variable name (letters, digits, _).")


def check_base_url(url: str) -> None:
    """An http(s) URL with a host, a valid port and no credentials."""
    if url != url.strip() or any(unicodedata.category(c).startswith("C") for c in url) or " " in url:
        raise BadInput("The base URL cannot contain spaces or control characters.")
    if not url.startswith(("http://", "https://")):
        raise BadInput("The base URL must start with http:// or https://.")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise BadInput("The base URL is not a valid URL.") from None
    # credentials first: the sentences below quote the URL, and a key typed into it must never be
    # repeated (on the terminal, in the log, in a turn's stored error)
    if "@" in parts.netloc:
        raise BadInput("The base URL contains a user name or key (user:key@host). Remove it and store the "
                       "key in the OS keyring (--ask-key) or name an environment variable (--api-key-env).")
    try:
        port = parts.port
    except ValueError:
        raise BadInput(f"The base URL {url} has an invalid port; ports are 1 to 65535.") from None
    if not parts.hostname:
        raise BadInput(f"The base URL {url} has no host name.")
    if port == 0:
        raise BadInput(f"The base URL {url} has an invalid port; ports are 1 to 65535.")
    if parts.query or parts.fragment:
        raise BadInput("The base URL cannot have a query (?…) or fragment (#…); give only the address "
                       "up to the API version, e.g. https://api.openai.com/v1.")
