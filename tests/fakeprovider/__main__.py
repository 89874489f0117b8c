"""``python -m tests.fakeprovider --port N --script script.json [--cycle]``

Runs the fake provider until interrupted (SIGINT/SIGTERM) and prints its base
URL on the first line of stdout, so a parent process can read where it is.
The script file is a JSON list of replies (see ``reply_from_json``), or
``{"cycle": true, "replies": [...]}``. Without a script every request gets an
echo of the last user message.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from tests.fakeprovider.bodies import last_user_text
from tests.fakeprovider.script import Reply, reply_from_json
from tests.fakeprovider.server import FakeProviderServer


def _echo(body: dict[str, Any]) -> Reply:
    return Reply(text=f"echo: {last_user_text(body)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fakeprovider")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--script", type=Path, help="JSON file with the replies to give, in order")
    parser.add_argument("--cycle", action="store_true", help="repeat the script forever")
    args = parser.parse_args(argv)
    server = FakeProviderServer(args.port)
    if args.script is None:
        server.responder = _echo
    else:
        data = json.loads(args.script.read_text(encoding="utf-8"))
        replies = data["replies"] if isinstance(data, dict) else data
        cycle = args.cycle or (isinstance(data, dict) and bool(data.get("cycle")))
        server.script(*(reply_from_json(item) for item in replies), cycle=cycle)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with server:
        print(server.base_url, flush=True)
        while not stop.wait(0.2):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
