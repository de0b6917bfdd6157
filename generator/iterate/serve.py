"""The preview page: a local web server showing every face's proof beside its diagnostics, live."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import unquote, urlsplit

from . import reports
from .session import Session

HOST = "127.0.0.1"  # never the network: the page shows unpublished work


class PreviewServer(ThreadingHTTPServer):
    """Serves the page, the sessions' state as JSON, and their proof images."""

    daemon_threads = True

    def __init__(self, sessions: Sequence[Session], port: int = 8000):
        self.sessions = {s.game_id: s for s in sessions}
        self.page = resources.files("generator.iterate").joinpath("page.html").read_bytes()
        super().__init__((HOST, port), _Handler)

    @property
    def url(self) -> str:
        """Return the page's address."""
        return f"http://{HOST}:{self.server_address[1]}/"

    def version(self) -> str:
        """Return a token that changes whenever any session publishes a rebuild or a lab report is written."""
        built = ".".join(str(s.version) for s in self.sessions.values())
        written = "|".join(reports.stamp(self.reports_folder(s)) for s in self.sessions.values())
        return f"{built}:{hashlib.blake2b(written.encode(), digest_size=6).hexdigest()}"

    def state(self) -> dict:
        """Return everything the page shows: each game's faces and diagnostics, and links to its latest reports."""
        return {
            "version": self.version(),
            "games": [{**s.snapshot(), "reports": self.reports(s)} for s in self.sessions.values()],
        }

    @staticmethod
    def reports_folder(session: Session):
        """Return where a game's lab reports are: OUT/<game>/ (simulate, sweep and compare write there)."""
        return session.out / session.game_id

    def reports(self, session: Session) -> list[dict]:
        """Return the game's latest reports, newest first, as the page links them."""
        return [r.to_json(session.game_id) for r in reports.latest(self.reports_folder(session))]

    def start(self) -> threading.Thread:
        """Serve in a background thread; stop with shutdown()."""
        thread = threading.Thread(target=self.serve_forever, name="cardpress-serve", daemon=True)
        thread.start()
        return thread


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer

    def do_GET(self) -> None:
        path = unquote(urlsplit(self.path).path)
        if path in ("/", "/index.html"):
            self._send(self.server.page, "text/html; charset=utf-8")
        elif path == "/api/version":
            self._json({"version": self.server.version()})
        elif path == "/api/state":
            self._json(self.server.state())
        elif path.startswith("/proofs/"):
            self._proof(path.split("/")[2:])
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

    def _report(self, rest: str) -> None:
        """Send a file of a listed report (page, Markdown, JSON or chart); nothing else on disk is reachable."""
        game, _, relative = rest.partition("/")
        session = self.server.sessions.get(game)
        found = reports.read(self.server.reports_folder(session), relative) if session else None
        if found is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(*found)

    def _json(self, value) -> None:
        self._send(json.dumps(value).encode("utf-8"), "application/json")

    def _send(self, data: bytes, kind: str, cache: bool = False) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        # Image URLs carry the proof's stamp, so they may be cached; everything else is live.
        self.send_header("Cache-Control", "max-age=3600" if cache else "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:
        pass  # the terminal is for diagnostics, not for every poll
