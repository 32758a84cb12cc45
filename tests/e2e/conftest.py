"""End-to-end tests in a real headless Chromium (Debian's package), driven by Playwright.

Playwright's own browser download is not used: ``executable_path`` points at /usr/bin/chromium.
Screenshots are kept in ``test-artifacts/`` at the project root.
"""
import os
import shutil
from pathlib import Path

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.asgi_server import AsgiServer

# Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium package (see README)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser):
    contexts = []

    def make(**kwargs):
        kwargs.setdefault("viewport", PHONE)
        kwargs.setdefault("locale", "ru-RU")
        ctx = browser.new_context(**kwargs)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name):
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def live_server(real_db):
    """pytest-django's live server on a database every request thread connects to on its own."""
    server = LiveServer("localhost:0")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def asgi_live_server(real_db):
    """The production ASGI app (uvicorn) with its live streams, on the test's database."""
    server = AsgiServer().start()
    try:
        yield server
    finally:
        server.stop()
