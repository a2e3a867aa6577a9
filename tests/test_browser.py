"""The rules site in a real browser: Debian's Chromium, driven by playwright-python.

The built site is served on 127.0.0.1; the test reads the Kachuful deal
schedule, prints it (print media: no navigation, tables kept whole, a PDF),
searches for "hook", follows a "Differences from" link and saves a screenshot,
and checks that there were no console errors and that no request went anywhere
but 127.0.0.1. It never downloads a browser. It skips only when
/usr/bin/chromium is missing and the CI environment variable is not set.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

if not CHROMIUM.exists() and not IN_CI:
    pytest.skip(
        "Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True
    )

from playwright.sync_api import ConsoleMessage, Page, Request, Route, sync_playwright  # noqa: E402
from test_site import build_site  # noqa: E402

from cardrules.rulebook import builtin_variants  # noqa: E402

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    site = build_site()
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _house_rule() -> tuple[str, str]:
    """A built-in house rule (name, parent name): kachuful-zon or oh-hell-no-hook if present."""
    by_name = {v.name: v for v in builtin_variants()}
    for name in ("kachuful-zon", "oh-hell-no-hook"):
        v = by_name.get(name)
        if v is not None and v.parent:
            return name, v.parent
    child = next(v for v in by_name.values() if v.parent)
    assert child.parent is not None
    return child.name, child.parent


def _schedule_trumps(page: Page) -> list[str]:
    # The schedule is drawn as a chart, its table kept as text under a <details>: open it.
    summary = page.locator("xpath=//h3[@id='deal-schedule']/following::details[1]/summary")
    if summary.count():
        summary.first.click()
    table = page.locator("xpath=//h3[@id='deal-schedule']/following::table[1]")
    table.wait_for()
    headers = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    col = headers.index("Trumps")
    rows = table.locator("tbody tr")
    return [rows.nth(i).locator("td").nth(col).inner_text().strip() for i in range(rows.count())]


def test_site_in_chromium(base_url: str, tmp_path: Path) -> None:
    errors: list[str] = []
    elsewhere: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.append(msg.text)

    def on_failed(request: Request) -> None:
        # A local fetch that the browser itself cancels when the page moves on
        # (the favicon, a search index still loading) is not a broken page.
        local = urlsplit(request.url).hostname == "127.0.0.1"
        if not (local and request.failure == "net::ERR_ABORTED"):
            errors.append(f"failed: {request.url} ({request.failure})")

    def guard(route: Route, request: Request) -> None:
        host = urlsplit(request.url).hostname
        if request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            elsewhere.append(request.url)
            route.abort()

    child, parent = _house_rule()
    parent_title = next(v.title for v in builtin_variants() if v.name == parent)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.route("**/*", guard)
            page = context.new_page()
            page.on("console", on_console)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("requestfailed", lambda r: on_failed(r))

            # The Kachuful page and its deal schedule: Ka-Chu-Fu-L, hand by hand.
            page.goto(f"{base_url}/games/kachuful/")
            trumps = _schedule_trumps(page)
            order = ["spades ♠", "diamonds ♦", "clubs ♣", "hearts ♥"]
            assert trumps[:8] == order * 2
            assert all(t == order[i % 4] for i, t in enumerate(trumps[:-1]))
            page.screenshot(path=str(tmp_path / "kachuful.png"), full_page=True)

            # On paper: no header, navigation or table of contents, and tables kept whole.
            page.emulate_media(media="print")
            for chrome in (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary"):
                assert not page.locator(chrome).first.is_visible(), chrome
            assert page.locator("article").first.is_visible()
            table = page.locator("xpath=//h3[@id='deal-schedule']/following::table[1]")
            assert table.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
            pdf = page.pdf(path=str(tmp_path / "kachuful.pdf"))
            assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
            page.emulate_media(media="screen")
            assert page.locator(".md-header").first.is_visible()

            # Search for "hook".
            box = page.locator("input.md-search__input")
            if not box.is_visible():  # narrow screens: open search from the header button
                page.locator("label.md-header__button[for='__search']").click()
            box.click()
            box.press_sequentially("hook", delay=30)
            results = page.locator(".md-search-result__item")
            results.first.wait_for(timeout=15_000)
            assert results.count() >= 1
            assert "hook" in page.locator(".md-search-result").inner_text().lower()
            page.keyboard.press("Escape")

            # A house rule's "Differences from" link leads to its parent's page.
            page.goto(f"{base_url}/games/{child}/")
            heading = page.locator("h2", has_text="Differences from")
            assert heading.count() == 1
            link = page.locator(
                "xpath=//h2[starts-with(normalize-space(.), 'Differences from')]"
                "/following-sibling::p[1]//a"
            ).first
            link.click()
            page.wait_for_url(f"{base_url}/games/{parent}/")
            assert page.locator("h1").first.inner_text().strip().rstrip("¶").strip() == parent_title
            shot = tmp_path / "parent.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        finally:
            browser.close()
    assert not errors, errors
    assert not elsewhere, elsewhere
