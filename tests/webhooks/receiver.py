"""A real webhook receiver for the tests: an http.server on 127.0.0.1 in a thread that
keeps every request (headers and body) and answers as the test plans."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = Callable[[BaseHTTPRequestHandler], None]


def status(code: int, body: bytes = b"") -> Answer:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(code)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
    return answer


@dataclass
class Receiver:
    url: str
    plan: list[Answer]  # one answer per request; the last one repeats
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    def wait_for(self, count: int, timeout: float = 10) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.requests) >= count, timeout)


@contextmanager
def receiver(*plan: Answer) -> Iterator[Receiver]:
    state = Receiver(url="", plan=list(plan) or [status(200, b"ok")])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with state.arrived:
                state.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                index = min(len(state.requests), len(state.plan)) - 1
                state.arrived.notify_all()
            try:
                state.plan[index](self)
            except OSError:
                pass  # the sender hung up (cut at its timeout or size limit)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def hang(release: threading.Event) -> Answer:
    """Answers nothing until ``release`` is set (the test sets it when done)."""
    def answer(handler: BaseHTTPRequestHandler) -> None:
        release.wait(60)
    return answer


def huge(size: int) -> Answer:
    """A 200 whose body is ``size`` bytes, written in 64 KB pieces."""
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(size))
        handler.end_headers()
        piece = b"x" * 65536
        for _ in range(size // len(piece)):
            handler.wfile.write(piece)
    return answer
