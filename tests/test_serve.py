"""The preview page in a real headless browser: it shows every face, and follows edits to the card files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
MACHINES = "cards/pocket-foundry/machines.yaml"


def _browser_or_skip() -> None:
    """Skip when this machine has no browser; in CI (CI=1, set by .ci/run) that is a failure instead."""
    missing = [name for name, path in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)) if not path]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium")
    if missing:
        reason = f"needs {', '.join(missing)} (apt-get install chromium chromium-driver; pip install selenium)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser test: {reason}")
        pytest.skip(reason)


@pytest.fixture
def browser():
    _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)  # Debian's driver: no download
    yield driver
    driver.quit()


@pytest.fixture
def server(project, tmp_path):
    """Run `cardpress serve` on a free port of 127.0.0.1, as a user would; yield its address."""
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "serve",
            "pocket-foundry",
            "--root",
            str(project),
            "--port",
            "0",
            "--dpi",
            "60",
            "--no-pdf",
        ],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:"), line + (tmp_path / "serve.log").read_text()
        url = line.split()[1]
        with urllib.request.urlopen(url + "api/version", timeout=5) as answer:  # bound to loopback, answering
            assert answer.status == 200
        yield url
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def edit(project: Path, old: str, new: str) -> None:
    path = project / MACHINES
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


FACE = """
const face = document.querySelector(`[data-face="${arguments[0]}"]`);
if (!face) return null;
const img = face.querySelector("img");
return {stamp: face.dataset.stamp, loaded: img.complete && img.naturalWidth > 0, classes: face.className,
        codes: [...face.querySelectorAll(".diag")].map((d) => d.dataset.code), text: face.innerText};
"""


def test_the_page_shows_every_face_and_follows_card_edits(server, browser, project):
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 40, poll_frequency=0.1)
    browser.get(server)
    first = wait.until(lambda d: (f := d.execute_script(FACE, "feed-belt-1/front")) and f["loaded"] and f)
    assert "Feed Belt · copy 1 (front)" in first["text"] and first["codes"] == []
    assert browser.find_element("id", "shown").text == "21 of 21 faces"
    assert browser.find_element("id", "status").text == "up to date"

    # A changed card file shows up as a new proof of that card, marked as changed.
    edit(project, 'colour: "#c8741c"', 'colour: "#1c8a74"')
    recoloured = wait.until(
        lambda d: (
            (f := d.execute_script(FACE, "feed-belt-1/front")) and f["stamp"] != first["stamp"] and f["loaded"] and f
        )
    )
    assert "changed" in recoloured["classes"]
    assert browser.execute_script(FACE, "small-press-1/front")["stamp"]  # the others are still there

    # A problem shows up beside the face it concerns, and the status says the kit was still built.
    edit(project, "    glyph: feed-belt\n", "    glyph: feed-belt\n    art: art/not-drawn-yet.png\n")
    warned = wait.until(lambda d: (f := d.execute_script(FACE, "feed-belt-1/front")) and f["codes"] and f)
    assert warned["codes"] == ["A001"] and "not-drawn-yet.png does not exist" in warned["text"]
    assert browser.execute_script(FACE, "small-press-1/front")["codes"] == []

    # Filters: by deck, and by card.
    browser.get(server + "?deck=starter")
    wait.until(lambda d: d.find_element("id", "shown").text == "2 of 21 faces")
    browser.get(server + "?card=ticket-stamp-2")
    wait.until(lambda d: d.find_element("id", "shown").text == "2 of 21 faces")  # its front, and its back
    assert browser.execute_script(FACE, "ticket-stamp-2/front") and browser.execute_script(FACE, "market-back")


def test_the_page_links_the_latest_lab_reports(server, browser, project):
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 40, poll_frequency=0.1)
    browser.get(server)
    wait.until(lambda d: d.find_element("id", "status").text == "up to date")
    folder = project / "output" / "pocket-foundry" / "sweep" / "ticket-stamp-run-gain-points"
    folder.mkdir(parents=True)
    (folder / "sweep.json").write_text('{"title": "pocket-foundry: sweep of Ticket Stamp points", "sections": {}}')
    (folder / "sweep.html").write_text("<!DOCTYPE html><title>the sweep</title><h1>Sweep report</h1>")
    # A report written while the page is open appears without a rebuild.
    link = wait.until(lambda d: d.find_elements("css selector", '[data-reports="pocket-foundry"] a'))[0]
    assert link.text == "pocket-foundry: sweep of Ticket Stamp points"
    assert link.get_attribute("href") == server + "reports/pocket-foundry/sweep/ticket-stamp-run-gain-points/sweep.html"
    browser.get(link.get_attribute("href"))
    assert browser.find_element("tag name", "h1").text == "Sweep report"
