"""The preview page: a local web server showing every face's proof beside its diagnostics, live."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import re
import selectors
import socket
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from . import reports
from .session import Session

HOST = "127.0.0.1"  # never the network: the page shows unpublished work
IDLE_SECONDS = 10  # a request must arrive whole within this long of connecting, or the connection is closed
RESPONSE_SECONDS = 60  # a response must be taken within this long (a kit PDF over loopback takes well under 1 s)
WORKERS = 4  # threads that answer whole requests; no thread ever waits on a client's request
MAX_WAITING = 256  # connections still sending their request; more are refused at once
MAX_HEAD = 16384  # bytes of a request's line and headers


# A lab report is a static page with inline style and data: charts; it runs no script and reaches nothing.
REPORT_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'"
)
# A PDF opens in the browser's own viewer, which a page policy would block; it may not be framed elsewhere.
PDF_POLICY = "frame-ancestors 'none'"


def content_policy(page: bytes) -> str:
    """Return a strict Content-Security-Policy for the page: its own inline script and style, by hash, and nothing else.

    Images and the JSON API come from this server only; no plug-ins, frames, forms or base URL.
    """

    def hashes(tag: bytes) -> str:
        found = re.findall(rb"<" + tag + rb">(.*?)</" + tag + rb">", page, re.S)
        sources = [f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'" for body in found]
        return " ".join(sources) or "'none'"

    scripts, styles = hashes(b"script"), hashes(b"style")
    return (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


@dataclass
class _Waiting:
    """A connection still sending its request: what it sent so far, and when it must have sent it all."""

    deadline: float
    head: bytearray = field(default_factory=bytearray)


class PreviewServer(HTTPServer):
    """Serves the page, the sessions' state as JSON, and their proof images.

    Slow clients cannot starve it: one thread reads every connection's request without blocking (a
    selector), each within a total deadline from connecting; only a complete request goes to the bounded
    pool of WORKERS threads, whose writes have a total deadline too. One request per connection.
    """

    def __init__(self, sessions: Sequence[Session], port: int = 8000):
        self.sessions = {s.game_id: s for s in sessions}
        self.page = resources.files("generator.iterate").joinpath("page.html").read_bytes()
        self.policy = content_policy(self.page)
        super().__init__((HOST, port), _Handler)  # type: ignore[arg-type]  # built by _answer, with the head
        self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="cardpress-serve-worker")
        self._waiting: dict[socket.socket, _Waiting] = {}
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()  # not serving yet: shutdown has nothing to wait for
        self._wake_r, self._wake_w = socket.socketpair()

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Accept connections and read their requests until `shutdown`; hand each whole request to the pool."""
        self._stopped.clear()
        with selectors.DefaultSelector() as selector:
            selector.register(self.socket, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            try:
                while not self._stop.is_set():
                    soonest = min(
                        (w.deadline for w in self._waiting.values()), default=time.monotonic() + poll_interval
                    )
                    for key, _ in selector.select(max(0.0, min(poll_interval, soonest - time.monotonic()))):
                        if key.fileobj is self.socket:
                            self._accept(selector)
                        elif key.fileobj is not self._wake_r:
                            self._read(selector, key.fileobj)  # type: ignore[arg-type]  # our own sockets
                    now = time.monotonic()
                    for conn in [c for c, w in self._waiting.items() if w.deadline <= now]:
                        self._drop(selector, conn)  # too slow: the request never came whole
            finally:
                for conn in list(self._waiting):
                    self._drop(selector, conn)
                self._stopped.set()

    def _accept(self, selector: selectors.BaseSelector) -> None:
        try:
            conn, _ = self.socket.accept()
        except OSError:
            return
        if len(self._waiting) >= MAX_WAITING:
            conn.close()
            return
        conn.setblocking(False)
        self._waiting[conn] = _Waiting(time.monotonic() + _Handler.timeout)
        selector.register(conn, selectors.EVENT_READ)

    def _read(self, selector: selectors.BaseSelector, conn: socket.socket) -> None:
        waiting = self._waiting[conn]
        try:
            data = conn.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        waiting.head += data
        end = waiting.head.find(b"\r\n\r\n")
        if not data or (end < 0 and len(waiting.head) > MAX_HEAD):
            self._drop(selector, conn)
        elif end >= 0:
            selector.unregister(conn)
            del self._waiting[conn]
            self._pool.submit(self._answer, conn, bytes(waiting.head[: end + 4]))

    def _drop(self, selector: selectors.BaseSelector, conn: socket.socket) -> None:
        self._waiting.pop(conn, None)
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(conn)
        conn.close()

    def _answer(self, conn: socket.socket, head: bytes) -> None:
        """Answer one whole request on a worker thread, then close the connection."""
        try:
            conn.setblocking(True)
            _Handler(conn, conn.getpeername(), self, head)
        except OSError:
            pass  # the client went away, or took too long to read the answer
        finally:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def shutdown(self) -> None:
        """Stop serving and wait for the loop to end (requests being answered are finished)."""
        self._stop.set()
        self._wake_w.send(b"x")
        self._stopped.wait()
        self._pool.shutdown(wait=True)

    def server_close(self) -> None:
        super().server_close()
        self._wake_r.close()
        self._wake_w.close()

    def hosts(self) -> set[str]:
        """Return the Host headers a request may carry: this server's own address, by number or as localhost.

        Anything else is a page elsewhere reaching this server by DNS rebinding, and is refused.
        """
        port = self.server_address[1]
        return {f"{HOST}:{port}", f"localhost:{port}"}

    @property
    def url(self) -> str:
        """Return the page's address."""
        return f"http://{HOST}:{self.server_address[1]}/"

    def version(self) -> str:
        """Return a token that changes whenever any session publishes a rebuild or a lab report is written."""
        built = ".".join(str(s.version) for s in self.sessions.values())
        written = "|".join(reports.stamp(self.reports_folder(s)) for s in self.sessions.values())
        return f"{built}:{hashlib.blake2b(written.encode(), digest_size=6).hexdigest()}"

    def state(self) -> dict[str, Any]:
        """Return everything the page shows: each game's faces and diagnostics, and links to its latest reports."""
        return {
            "version": self.version(),
            "games": [{**s.snapshot(), "reports": self.reports(s)} for s in self.sessions.values()],
        }

    @staticmethod
    def reports_folder(session: Session) -> Path:
        """Return where a game's lab reports are: OUT/<game>/ (simulate, sweep and compare write there)."""
        return session.out / session.game_id

    def reports(self, session: Session) -> list[dict[str, Any]]:
        """Return the game's latest reports, newest first, as the page links them."""
        return [r.to_json(session.game_id) for r in reports.latest(self.reports_folder(session))]

    def start(self) -> threading.Thread:
        """Serve in a background thread; stop with shutdown()."""
        thread = threading.Thread(target=self.serve_forever, name="cardpress-serve", daemon=True)
        thread.start()
        return thread


class _Writer(io.RawIOBase):
    """A socket's writing end with one deadline for everything written: a client that reads an answer a
    byte at a time cannot keep a worker for long."""

    def __init__(self, conn: socket.socket, seconds: float):
        self.conn, self.deadline = conn, time.monotonic() + seconds

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        view = memoryview(data)
        while view:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the client took too long to read the answer")
            self.conn.settimeout(min(left, IDLE_SECONDS))
            sent = self.conn.send(view[: 1 << 16])
            view = view[sent:]
        return len(data)


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = IDLE_SECONDS  # the whole request must arrive within this long of connecting (PreviewServer)
    policy: str | None = None  # this response's own Content-Security-Policy, when not the page's

    def __init__(self, conn: socket.socket, address: Any, server: PreviewServer, head: bytes):
        self.head = head  # the request line and headers, read whole by the server's selector
        super().__init__(conn, address, server)

    def setup(self) -> None:
        self.connection = self.request
        self.rfile = io.BytesIO(self.head)  # nothing more is read from the client: no thread waits on it
        self.wfile = _Writer(self.connection, RESPONSE_SECONDS)  # type: ignore[assignment]

    def handle(self) -> None:
        self.close_connection = True
        self.handle_one_request()

    def finish(self) -> None:
        pass  # the writer writes straight through; the server closes the connection

    def do_GET(self) -> None:
        self.policy = None  # a kept-alive connection's last response does not lend this one its policy
        if (self.headers.get("Host") or "").strip().lower() not in self.server.hosts():
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, "unknown host")
            return
        path = unquote(urlsplit(self.path).path)
        if path in ("/", "/index.html"):
            self._send(self.server.page, "text/html; charset=utf-8")
        elif path == "/api/version":
            self._json({"version": self.server.version()})
        elif path == "/api/state":
            self._json(self.server.state())
        elif path.startswith("/proofs/"):
            self._proof(path.split("/")[2:])
        elif path.startswith("/kits/"):
            self._kit(path.split("/")[2:])
        elif path.startswith("/reports/"):
            self._report(path.removeprefix("/reports/"))
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def _proof(self, parts: list[str]) -> None:
        """Send a proof PNG the page lists; nothing else on disk is reachable."""
        session = self.server.sessions.get(parts[0]) if len(parts) == 2 else None
        known = {f["file"] for f in session.snapshot()["faces"]} if session else set()
        if not session or parts[1] not in known:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        try:
            data = (session.proofs.folder / parts[1]).read_bytes()
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(data, "image/png", cache=True)

    def _kit(self, parts: list[str]) -> None:
        """Send a kit PDF the page links; nothing else on disk is reachable."""
        from ..build import kit_path

        session = self.server.sessions.get(parts[0]) if len(parts) == 2 else None
        papers = {k["file"]: k["paper"] for k in session.snapshot().get("kits", [])} if session else {}
        if not session or parts[1] not in papers:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        try:
            data = kit_path(session.out, session.game_id, papers[parts[1]]).read_bytes()
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(data, "application/pdf", policy=PDF_POLICY)

    def _report(self, rest: str) -> None:
        """Send a file of a listed report (page, Markdown, JSON or chart); nothing else on disk is reachable."""
        game, _, relative = rest.partition("/")
        session = self.server.sessions.get(game)
        found = reports.read(self.server.reports_folder(session), relative) if session else None
        if found is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        data, kind = found
        self._send(data, kind, policy=REPORT_POLICY if kind.startswith("text/html") else None)

    def _json(self, value: Any) -> None:
        self._send(json.dumps(value).encode("utf-8"), "application/json")

    def _send(self, data: bytes, kind: str, cache: bool = False, policy: str | None = None) -> None:
        self.policy = policy
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        # Image URLs carry the proof's stamp, so they may be cached; everything else is live.
        self.send_header("Cache-Control", "max-age=3600" if cache else "no-store")
        self.end_headers()
        self.wfile.write(data)

    def end_headers(self) -> None:
        """Send the headers every response carries (errors included): no sniffing, the strict policy."""
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", self.policy or self.server.policy)
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal is for diagnostics, not for every poll
