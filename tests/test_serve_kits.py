"""The preview page links the kit PDFs, and the server sends those PDFs and nothing else."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from test_serve import browser  # noqa: F401  the headless-browser fixture

from generator.build import build

pytestmark = pytest.mark.browser


@pytest.fixture
def served(project, tmp_path):
    """A project with a built A4 kit, served by `cardpress serve --paper a4 --no-pdf`; yield its address."""
    build(project, "pocket-foundry", papers=["a4"], players=None, out=project / "output")
    log = (tmp_path / "serve.log").open("w")
    args = ["serve", "pocket-foundry", "--port", "0", "--dpi", "40", "--no-pdf", "--paper", "A4"]
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "generator", *args], cwd=project, stdout=subprocess.PIPE, stderr=log, text=True
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:"), line
        yield line.split()[1]
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, "", b""


def test_the_page_links_the_kit_pdfs(served, browser, project):  # noqa: F811
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(served)
    links = WebDriverWait(browser, 40, poll_frequency=0.1).until(
        lambda d: d.execute_script(
            'return [...document.querySelectorAll("a.kit")].map((a) => [a.textContent, a.getAttribute("href")])'
        )
    )
    assert links == [["A4 PDF", "/kits/pocket-foundry/pocket-foundry-a4.pdf"]]
    status, kind, data = get(served + links[0][1][1:])
    assert (status, kind) == (200, "application/pdf")
    assert data == (project / "output/pocket-foundry/pocket-foundry-a4.pdf").read_bytes()
    for other in (
        "kits/pocket-foundry/pocket-foundry-letter.pdf",
        "kits/pocket-foundry/..%2Fpocket-foundry-a4.pdf",
        "kits/nope/pocket-foundry-a4.pdf",
        "kits/pocket-foundry/proofs.json",
    ):
        assert get(served + other)[0] == 404, other
