"""A real HTTP model server for tests, speaking both wire formats.

It runs on stdlib ``http.server`` in a background thread, so it works with
any event loop in the test (plain asyncio, qasync under Qt) and from other
processes (``python -m tests.fakeprovider``). Responses are real chunked
HTTP/1.1 streams, so timeouts, cut connections and retries are exercised
exactly as they happen against a vendor.

Which reply a request gets: the next queued reply (:meth:`FakeProviderServer.script`),
else ``responder(body)``, else ``default``, else a 400 error saying the script ran out.
"""

from __future__ import annotations

import collections
import json
import socket
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import ModuleType, TracebackType
from typing import Any

from tests.fakeprovider import anthropic_wire, openai_wire
from tests.fakeprovider.frames import Frame
from tests.fakeprovider.local_server import LlamaServer, OllamaServer
from tests.fakeprovider.script import Fault, Reply

Responder = Callable[[dict[str, Any]], Reply]
_IN_STREAM_FAULTS = ("midstream_error", "cut", "bad_json")


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    path: str
    wire: str
    """``openai`` or ``anthropic``."""
    headers: dict[str, str]
    """Header names lower-cased."""
    body: dict[str, Any]


class FakeProviderServer:
    """Context manager: ``with FakeProviderServer() as server: ... server.base_url``."""

    def __init__(self, port: int = 0, *, default: Reply | None = None, host: str = "127.0.0.1",
                 llama: LlamaServer | None = None, ollama: OllamaServer | None = None) -> None:
        self.default = default
        self.responder: Responder | None = None
        self.llama = llama
        """Answer as llama.cpp's server does: ``/props``, ``/v1/models`` with ``meta``, and HTTP 400
        ``exceed_context_size_error`` for a prompt that does not fit its window (``local_server``)."""
        self.ollama = ollama
        """Answer ``POST /api/show`` as Ollama does."""
        self._lock = threading.Lock()
        self._queue: collections.deque[Reply] = collections.deque()
        self._cycle = False
        self._requests: list[RecordedRequest] = []
        self._stopping = threading.Event()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.fake = self
        self._thread: threading.Thread | None = None

    # ---- lifecycle -------------------------------------------------------
    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: what both adapters take as their base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeProviderServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01},
                                        name="fake-provider", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()  # wakes handlers that hang or stream slowly
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # ---- scripting -------------------------------------------------------
    def script(self, *replies: Reply, cycle: bool = False) -> None:
        """Queue replies, consumed one per request in order (forever, round-robin, if ``cycle``)."""
        with self._lock:
            self._queue.extend(replies)
            self._cycle = cycle

    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received so far."""
        with self._lock:
            return list(self._requests)

    @property
    def pending(self) -> int:
        """Queued replies not yet used."""
        with self._lock:
            return len(self._queue)

    def sleep(self, seconds: float) -> bool:
        """Wait in a handler; returns early (True) when the server is closing."""
        return self._stopping.wait(seconds)

    def record(self, request: RecordedRequest) -> None:
        """Remember a request answered without a scripted reply."""
        with self._lock:
            self._requests.append(request)

    def _take(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self._requests.append(request)
            if self._queue:
                reply = self._queue.popleft()
                if self._cycle:
                    self._queue.append(reply)
                return reply
        if self.responder is not None:
            return self.responder(request.body)
        if self.default is not None:
            return self.default
        return Reply(fault=Fault.status(400, body={"error": {
            "type": "invalid_request_error", "message": "fake provider: no scripted reply left"}}))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeProviderServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up early are part of the tests


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # small SSE writes must not wait for delayed ACKs
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        llama = self.server.fake.llama
        if llama is not None and self.path.rstrip("/") == "/props":
            self._send_json(200, llama.props())
        elif self.path.rstrip("/").endswith("/models"):
            self._send_json(200, llama.models() if llama is not None else
                            {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self._send_json(404, {"error": {"type": "not_found", "message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        wire = _wire_for(path)
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send_json(400, {"error": {"type": "invalid_request_error", "message": "body is not JSON"}})
            return
        fake = self.server.fake
        if path == "/api/show" and fake.ollama is not None:
            self._send_json(200, fake.ollama.show())
            return
        if wire is None:
            self._send_json(404, {"error": {"type": "not_found", "message": f"no route {path}"}})
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        overflow = fake.llama.overflow(body) if fake.llama is not None else None
        if overflow is not None:  # refused before any reply is taken, as llama.cpp does
            fake.record(RecordedRequest(path, wire, headers, body))
            self._send_json(400, overflow)
            return
        reply = fake._take(RecordedRequest(path, wire, headers, body))
        try:
            self._serve(reply, openai_wire if wire == "openai" else anthropic_wire, body, headers)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True

    def _serve(self, reply: Reply, wire: ModuleType, body: dict[str, Any], headers: dict[str, str]) -> None:
        fault = reply.fault
        hang = fault is not None and fault.kind == "hang_before_first_byte"
        if hang and fault is not None and self.server.fake.sleep(fault.seconds):
            self.close_connection = True  # the server is closing
            return
        if fault is not None and fault.kind == "status":
            self._send_status_fault(fault, wire, headers)
            return
        if fault is not None and fault.kind == "html_page":
            page = b"<!DOCTYPE html><html><head><title>Log in to the Wi-Fi</title></head><body>...</body></html>"
            self._send_bytes(200, page, "text/html; charset=utf-8", {})
            return
        if fault is not None and fault.kind in ("endless_line", "endless_event"):
            self._send_endless(fault)
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        frames = wire.render(reply, body)
        if fault is not None and fault.kind == "endless_reply":
            self._stream_endless(frames, fault.size)
        elif fault is not None and fault.kind == "trickle":
            self._trickle(frames, fault)
        else:
            self._stream(reply, frames, wire)

    def _stream(self, reply: Reply, frames: Iterable[Frame], wire: ModuleType) -> None:
        fault = reply.fault if reply.fault and reply.fault.kind in _IN_STREAM_FAULTS else None
        sent_content = 0
        for frame in frames:
            if fault is not None and (sent_content >= fault.after_chunks or frame.role == "tail"):
                if self._inject(fault, wire):
                    return
                fault = None
            if frame.role == "content":
                if reply.delay_per_chunk and self.server.fake.sleep(reply.delay_per_chunk):
                    self._abort()  # the server is closing
                    return
                sent_content += 1
            self._write_chunk(frame.data)
        self._end_chunks()

    def _inject(self, fault: Fault, wire: ModuleType) -> bool:
        """Apply an in-stream fault; True when the stream is over."""
        if fault.kind == "cut":
            self._abort()
            return True
        if fault.kind == "midstream_error":
            self._write_chunk(wire.midstream_error(fault).data)
            self._end_chunks()
            return True
        self._write_chunk(wire.bad_json().data)
        return False

    def _stream_endless(self, frames: list[Frame], size: int) -> None:
        """The frames before the first content frame, then the content frames over and over
        (``size`` bytes of them, or until the client hangs up), then the rest."""
        first = next(i for i, f in enumerate(frames) if f.role == "content")
        last = max(i for i, f in enumerate(frames) if f.role == "content")
        for frame in frames[:first]:
            self._write_chunk(frame.data)
        content = b"".join(f.data for f in frames[first:last + 1] if f.role == "content")
        sent = 0
        while sent < size and not self.server.fake.sleep(0):
            self._write_chunk(content)
            sent += len(content)
        for frame in frames[last + 1:]:
            self._write_chunk(frame.data)
        self._end_chunks()

    def _trickle(self, frames: list[Frame], fault: Fault) -> None:
        """``fault.after_chunks`` content frames at once, then one byte every ``fault.seconds``."""
        head: list[Frame] = []
        content = 0
        while frames and content < fault.after_chunks:
            head.append(frames.pop(0))
            if head[-1].role == "content":
                content += 1
        for frame in head:
            self._write_chunk(frame.data)
        for byte in b"".join(f.data for f in frames):
            if self.server.fake.sleep(fault.seconds):
                self._abort()  # the server is closing
                return
            self._write_chunk(bytes([byte]))
        self._end_chunks()

    def _send_endless(self, fault: Fault) -> None:
        """Stream ``fault.size`` bytes that never complete an event (stops when the client hangs up)."""
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        piece = b"x" * 65536 if fault.kind == "endless_line" else b"data: " + b"y" * 65530 + b"\n"
        if fault.kind == "endless_line":
            self._write_chunk(b"data: ")  # (an empty chunk would end the chunked body)
        sent = 0
        while sent < fault.size:
            self._write_chunk(piece)
            sent += len(piece)
        self._end_chunks()

    def _send_status_fault(self, fault: Fault, wire: ModuleType, headers: dict[str, str]) -> None:
        key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
        body = fault.body if fault.body is not None else wire.error_body(fault.code, key)
        extra = {"retry-after": fault.retry_after} if fault.retry_after is not None else {}
        if isinstance(body, str):
            self._send_bytes(fault.code, body.encode(), "text/plain; charset=utf-8", extra)
        else:
            self._send_json(fault.code, body, extra)

    def _send_json(self, code: int, body: dict[str, Any], extra: dict[str, str] | None = None) -> None:
        self._send_bytes(code, json.dumps(body).encode(), "application/json", extra or {})

    def _send_bytes(self, code: int, data: bytes, content_type: str, extra: dict[str, str]) -> None:
        self.send_response(code)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _end_chunks(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _abort(self) -> None:
        """Drop the connection mid-body: no terminating chunk, no terminal event."""
        self.close_connection = True
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)


def _wire_for(path: str) -> str | None:
    if path in ("/v1/chat/completions", "/chat/completions"):
        return "openai"
    if path in ("/v1/messages", "/messages"):
        return "anthropic"
    return None
