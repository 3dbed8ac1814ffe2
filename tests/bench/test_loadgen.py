"""The bench's load generator: what it sends, what it counts, and that it stays on loopback."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench import loadgen


class _Recorder(BaseHTTPRequestHandler):
    received: list[tuple[str, str, dict[str, str], bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.command, self.path, dict(self.headers), body))
        status = 201 if self.path == "/accept" else 409
        answer = json.dumps({"path": self.path}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[int]:
    _Recorder.received = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def _port_nothing_listens_on() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _post(path: str, body: dict[str, object]) -> loadgen.Request:
    return loadgen.Request(
        "POST",
        path,
        json.dumps(body).encode(),
        {"Authorization": "Bearer t", "Content-Type": "application/json"},
    )


def test_each_script_is_sent_in_order_and_every_answer_is_counted(server: int) -> None:
    scripts = [
        [_post("/accept", {"script": s, "n": n}) for n in range(3)] + [_post("/refuse", {"script": s})]
        for s in range(2)
    ]
    result = loadgen.run(server, scripts, time_limit=30)

    assert result.statuses == {201: 6, 409: 2}
    assert result.errors == []
    assert len(result.latencies) == 8 and all(latency > 0 for latency in result.latencies)
    for script in range(2):
        sent = [
            json.loads(body)
            for _m, _p, _h, body in _Recorder.received
            if json.loads(body)["script"] == script
        ]
        assert sent == [{"script": script, "n": n} for n in range(3)] + [{"script": script}]
    method, _path, headers, _body = _Recorder.received[0]
    assert method == "POST"
    assert headers["Authorization"] == "Bearer t"
    assert headers["Content-Type"] == "application/json"
    assert headers["Connection"] == "close"


def test_a_refused_connection_is_an_error_not_an_answer() -> None:
    result = loadgen.run(_port_nothing_listens_on(), [[_post("/accept", {})]], time_limit=5)
    assert result.statuses == {}
    assert len(result.errors) == 1 and result.errors[0].startswith("ConnectionRefusedError")


def test_nothing_is_sent_after_the_time_limit(server: int) -> None:
    result = loadgen.run(server, [[_post("/accept", {})] * 5], time_limit=-1)
    assert result.statuses == {} and _Recorder.received == []


def test_it_talks_to_the_loopback_interface_only() -> None:
    with pytest.raises(ValueError, match="loopback"):
        loadgen.run(80, [[_post("/accept", {})]], host="example.com")
