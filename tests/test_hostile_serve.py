"""The preview server against a hostile web page: DNS rebinding, content sniffing, idle connections."""

from __future__ import annotations

import base64
import hashlib
import http.client
import re
import socket
from importlib import resources

import pytest

from generator.iterate import serve
from generator.iterate.serve import PreviewServer


@pytest.fixture
def server():
    preview = PreviewServer([], port=0)
    preview.start()
    yield preview
    preview.shutdown()
    preview.server_close()


def get(server: PreviewServer, path: str, host: str | None) -> http.client.HTTPResponse:
    """GET `path` with exactly the Host header given (None: no Host header at all)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    if host is not None:
        connection.putheader("Host", host)
    connection.endheaders()
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


@pytest.mark.parametrize(
    "host",
    ["evil.example:{port}", "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:{port}", "", None],
)
def test_requests_for_another_host_are_refused(server, host):
    """A page elsewhere that rebinds its name to 127.0.0.1 still sends its own name: it gets nothing."""
    port = server.server_address[1]
    for path in ("/", "/api/state", "/api/version", "/proofs/pocket-foundry/x.png"):
        response = get(server, path, host.format(port=port) if host is not None else None)
        assert response.status == 421, (host, path)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_requests_for_this_server_are_answered(server, host):
    response = get(server, "/api/version", host.format(port=server.server_address[1]))
    assert response.status == 200
    assert response.getheader("Content-Type") == "application/json"


def test_every_response_forbids_sniffing_and_carries_a_strict_policy(server):
    port = server.server_address[1]
    page = resources.files("generator.iterate").joinpath("page.html").read_bytes()
    script = re.search(rb"<script>(.*?)</script>", page, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
    for path, status in (("/", 200), ("/api/state", 200), ("/nothing", 404)):
        response = get(server, path, f"127.0.0.1:{port}")
        assert response.status == status
        assert response.getheader("X-Content-Type-Options") == "nosniff"
        policy = response.getheader("Content-Security-Policy")
        assert policy.startswith("default-src 'none'; ")
        assert f"script-src 'sha256-{digest}';" in policy
        assert "'unsafe-inline'" not in policy and "*" not in policy
        assert "connect-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert response.getheader("Cross-Origin-Resource-Policy") == "same-origin"


def test_the_policy_hashes_what_the_page_holds():
    policy = serve.content_policy(b"<style>a{}</style><script>go()</script><script>two()</script>")
    hashed = [f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in (b"a{}", b"go()", b"two()")]
    assert f"style-src {hashed[0]};" in policy
    assert f"script-src {hashed[1]} {hashed[2]};" in policy
    assert "script-src 'none'" in serve.content_policy(b"<p>no script</p>")


def test_an_idle_connection_is_closed(server, monkeypatch):
    """A client that starts a request and never finishes it is cut off (our own 20 s timeout would raise)."""
    monkeypatch.setattr(serve._Handler, "timeout", 0.5)
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=20) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")  # and then nothing more
        while sock.recv(1024):
            pass


def test_sixty_trickling_clients_cannot_starve_a_normal_request(server, monkeypatch):
    """60 connections sending their request a byte at a time hold no thread: a normal request is answered
    while every one of them is still connected, and the threads stay as many as the pool's."""
    import threading

    monkeypatch.setattr(serve._Handler, "timeout", 120)  # their deadline is far off: they stay connected
    port = server.server_address[1]
    before = threading.active_count()
    tricklers = [socket.create_connection(("127.0.0.1", port), timeout=20) for _ in range(60)]
    stop = threading.Event()

    def trickle() -> None:
        request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode() + b"a" * 10_000
        for byte in request:
            for sock in tricklers:
                sock.sendall(bytes([byte]))
            if stop.wait(0.05):
                return

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        response = get(server, "/api/version", f"127.0.0.1:{port}")
        assert response.status == 200
        assert threading.active_count() <= before + serve.WORKERS + 1  # the trickler thread is ours
        for sock in tricklers:  # none was answered or closed: all are still waiting to send their request
            sock.setblocking(False)
            with pytest.raises(BlockingIOError):
                sock.recv(1)
    finally:
        stop.set()
        thread.join(20)
        for sock in tricklers:
            sock.close()


def test_a_client_over_its_deadline_is_cut_off_and_the_server_goes_on(server, monkeypatch):
    monkeypatch.setattr(serve._Handler, "timeout", 0.5)
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        for _ in range(600):  # a byte now and then keeps no idle timer alive: the deadline is total
            try:
                sock.sendall(b"X")
            except OSError:
                break
            sock.settimeout(0.2)
            try:
                if sock.recv(1024) == b"":
                    break
            except TimeoutError:
                continue
        else:
            pytest.fail("a client sending a byte every 0.2 s was never cut off")
    assert get(server, "/api/version", f"127.0.0.1:{port}").status == 200
