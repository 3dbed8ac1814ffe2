"""A small, bounded HTTP load generator for the loopback bench: threads with http.client.

It talks to 127.0.0.1 only, sends at most the requests it is given, and stops at a time limit.
Each thread works through its own list of requests in order (one game's orders are sequential).
"""

from __future__ import annotations

import http.client
import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class LoadResult:
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run(
    port: int, scripts: list[list[Request]], time_limit: float = 60.0, host: str = "127.0.0.1"
) -> LoadResult:
    """Send each script's requests in order, one thread per script, until done or `time_limit` passes."""
    if host not in ("127.0.0.1", "::1", "localhost"):
        raise ValueError("the load generator only talks to the loopback interface")
    result = LoadResult()
    lock = threading.Lock()
    deadline = time.monotonic() + time_limit

    def worker(script: list[Request]) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        try:
            for request in script:
                if time.monotonic() > deadline:
                    return
                before = time.perf_counter()
                try:
                    conn.request(request.method, request.path, body=request.body, headers=request.headers)
                    response = conn.getresponse()
                    response.read()
                    status = response.status
                except (OSError, http.client.HTTPException) as error:
                    conn.close()
                    conn = http.client.HTTPConnection(host, port, timeout=30)
                    with lock:
                        result.errors.append(f"{type(error).__name__}: {error}")
                    continue
                elapsed = time.perf_counter() - before
                with lock:
                    result.statuses[status] = result.statuses.get(status, 0) + 1
                    result.latencies.append(elapsed)
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, args=(script,)) for script in scripts]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.perf_counter() - started
    return result
