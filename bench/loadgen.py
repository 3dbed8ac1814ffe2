"""A small, bounded HTTP load generator for the loopback bench: threads with plain sockets.

It talks to 127.0.0.1 only, sends at most the requests it is given, and stops at a time limit.
Each thread works through its own list of requests in order (one game's orders are sequential).
Every request is its own connection (`Connection: close`, as gunicorn's sync workers answer
anyway) and is sent as bytes built before the clock starts: the generator shares the machine's
cores with the server it measures, and http.client's request building and header parsing cost
it about twice the CPU per order of writing the bytes and reading to the end.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    def wire(self, host: str, port: int) -> bytes:
        """The request as sent: HTTP/1.1, closed after its answer."""
        headers = {"Host": f"{host}:{port}", **self.headers, "Connection": "close"}
        if self.body or self.method in ("POST", "PUT", "PATCH"):
            headers["Content-Length"] = str(len(self.body))
        head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        return f"{self.method} {self.path} HTTP/1.1\r\n{head}\r\n".encode("latin-1") + self.body


@dataclass
class LoadResult:
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


class BadResponse(Exception):
    pass


def exchange(host: str, port: int, wire: bytes, timeout: float = 30.0) -> tuple[int, bytes]:
    """Send one request's bytes, read the answer to its end; (status, whole response)."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(wire)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    response = b"".join(chunks)
    status_line = response.split(b"\r\n", 1)[0].split()
    if len(status_line) < 2 or not status_line[0].startswith(b"HTTP/") or not status_line[1].isdigit():
        raise BadResponse(f"not an HTTP answer: {response[:60]!r}")
    return int(status_line[1]), response


def run(
    port: int, scripts: list[list[Request]], time_limit: float = 60.0, host: str = "127.0.0.1"
) -> LoadResult:
    """Send each script's requests in order, one thread per script, until done or `time_limit` passes."""
    if host not in ("127.0.0.1", "::1", "localhost"):
        raise ValueError("the load generator only talks to the loopback interface")
    result = LoadResult()
    lock = threading.Lock()
    wired = [[request.wire(host, port) for request in script] for script in scripts]
    deadline = time.monotonic() + time_limit

    def worker(script: list[bytes]) -> None:
        for wire in script:
            if time.monotonic() > deadline:
                return
            before = time.perf_counter()
            try:
                status, _response = exchange(host, port, wire)
            except (OSError, BadResponse) as error:
                with lock:
                    result.errors.append(f"{type(error).__name__}: {error}")
                continue
            elapsed = time.perf_counter() - before
            with lock:
                result.statuses[status] = result.statuses.get(status, 0) + 1
                result.latencies.append(elapsed)

    threads = [threading.Thread(target=worker, args=(script,)) for script in wired]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.perf_counter() - started
    return result
