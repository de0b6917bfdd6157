"""The preview page: a local web server showing every face's proof beside its diagnostics, live."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from . import reports
from .session import Session

HOST = "127.0.0.1"  # never the network: the page shows unpublished work
IDLE_SECONDS = 10  # a connection that sends nothing for this long is closed (a slow client cannot hold a thread)


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


class PreviewServer(ThreadingHTTPServer):
    """Serves the page, the sessions' state as JSON, and their proof images."""

    daemon_threads = True

    def __init__(self, sessions: Sequence[Session], port: int = 8000):
        self.sessions = {s.game_id: s for s in sessions}
        self.page = resources.files("generator.iterate").joinpath("page.html").read_bytes()
        self.policy = content_policy(self.page)
        super().__init__((HOST, port), _Handler)

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


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = IDLE_SECONDS  # applied to the socket by StreamRequestHandler.setup
    policy: str | None = None  # this response's own Content-Security-Policy, when not the page's

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
