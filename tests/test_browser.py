"""The rules site in a real browser, looked at as a reader would: Debian's Chromium,
driven by playwright-python.

The built site is served on 127.0.0.1. The tests take full-page screenshots of
the home page, the comparison page and a rules page of every family at 1280
and 390 pixels wide, and fail when the page body is wider than the window, an
image does not load, the console shows an error or any request goes anywhere
but 127.0.0.1. They print the rules page of every family's game and the
family's longest page (print media, A4) and count the pages of each PDF: a
card-box sheet is two pages at most. They read the
Kachuful deal schedule, search for "hook" and follow a "Differences from" link.
Then they open the site from disk (``file://`` addresses), follow links from
the home page to a rules page and search there too.

The screenshots and the page counts go to ``build/screenshots/`` (the list of
files and counts in ``build/screenshots/summary.txt``, also printed). The tests
never download a browser; they skip only when /usr/bin/chromium is missing and
the CI environment variable is not set.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

if not CHROMIUM.exists() and not IN_CI:
    pytest.skip(
        "Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True
    )
if not IN_CI:
    pytest.importorskip("playwright", reason="the browser extra: pip install -e '.[browser]'")

from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    Route,
    sync_playwright,
)
from test_site import ROOT, build_site  # noqa: E402

from cardrules.rulebook import builtin_variants  # noqa: E402
from cardrules.rulebook.catalog import families  # noqa: E402

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]

#: Where the screenshots and the PDF page counts are written (gitignored).
SHOTS = ROOT / "build" / "screenshots"

#: The widths looked at: a laptop, and a phone (an iPhone 12 to 15 is 390 wide).
WIDTHS = (1280, 390)

#: Pages a printed rules page may take: a card-box sheet.
MAX_PRINTED_PAGES = 2


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Path:
    return build_site()


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def summary() -> Iterator[list[str]]:
    """Lines for build/screenshots/summary.txt, written (and printed) at the end."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []
    yield lines
    text = "\n".join(lines) + "\n"
    (SHOTS / "summary.txt").write_text(text, encoding="utf-8")
    print(f"\n{SHOTS / 'summary.txt'}:\n{text}")


class Watch:
    """A browser context that records console errors, failed loads and any request
    that would leave the machine (which it refuses)."""

    def __init__(self, browser: Browser, allowed: Callable[[str], bool], width: int) -> None:
        self.errors: list[str] = []
        self.elsewhere: list[str] = []
        self.allowed = allowed
        self.context: BrowserContext = browser.new_context(viewport={"width": width, "height": 900})
        self.context.route("**/*", self._guard)
        self.page: Page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        self.page.on("requestfailed", self._failed)

    def _guard(self, route: Route, request: Request) -> None:
        if request.url.startswith(("data:", "blob:")) or self.allowed(request.url):
            route.continue_()
        else:
            self.elsewhere.append(request.url)
            route.abort()

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.errors.append(f"console: {msg.text} ({self.page.url})")

    def _failed(self, request: Request) -> None:
        # A local fetch that the browser itself cancels when the page moves on
        # (the favicon, a search index still loading) is not a broken page.
        if not (self.allowed(request.url) and request.failure == "net::ERR_ABORTED"):
            self.errors.append(f"failed: {request.url} ({request.failure})")

    def check(self) -> None:
        assert not self.errors, self.errors
        assert not self.elsewhere, f"requests leaving 127.0.0.1: {self.elsewhere}"

    def close(self) -> None:
        self.context.close()


def _local(url: str) -> bool:
    return urlsplit(url).hostname == "127.0.0.1"


def _family_pages() -> list[str]:
    """A rules page of each family: the family's own game."""
    return list(families(builtin_variants()))


def _look(page: Page, name: str, width: int) -> Path:
    """Screenshot the page and check what a reader would notice: a page wider than
    the window, an image that did not load."""
    page.wait_for_load_state("load")
    wide = page.evaluate("[document.body.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{name} at {width} px: the page is {wide[0]} px wide"
    broken = page.evaluate(
        """() => [...document.images]
            .filter(i => i.complete && i.naturalWidth === 0)
            .map(i => i.currentSrc || i.src)"""
    )
    assert not broken, f"{name} at {width} px: images that did not load: {broken}"
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('.md-content img, .md-content svg[role=img]')]
            .filter(e => !(e.getAttribute('alt') || e.getAttribute('aria-label')
                           || e.querySelector('title')))
            .length"""
    )
    assert unnamed == 0, f"{name} at {width} px: {unnamed} pictures without alt text"
    shot = SHOTS / f"{name.replace('/', '-')}-{width}.jpeg"
    page.screenshot(path=str(shot), full_page=True, type="jpeg", quality=70)
    assert shot.stat().st_size > 5_000
    return shot


def test_pages_at_laptop_and_phone_widths(
    browser: Browser, base_url: str, summary: list[str]
) -> None:
    pages = ["index", "games/index", *(f"games/{n}" for n in _family_pages())]
    for width in WIDTHS:
        watch = Watch(browser, _local, width)
        try:
            for name in pages:
                watch.page.goto(f"{base_url}/{name}.html", wait_until="domcontentloaded")
                shot = _look(watch.page, name, width)
                summary.append(f"screenshot {width} px: {shot}")
            watch.check()
        finally:
            watch.close()


#: JavaScript: the tables shown on the page (not folded) that are wider than the
#: box they scroll in, as "width/box: first row".
_WIDE_TABLES = """() => [...document.querySelectorAll('.md-content table')]
  .filter(t => t.offsetParent !== null && !t.closest('details:not([open])'))
  .map(t => {
    const box = t.closest('.md-typeset__scrollwrap') || t;
    return [box.scrollWidth, box.clientWidth, (t.rows[0]?.innerText || '').slice(0, 40)];
  })
  .filter(([w, c]) => w > c + 1)
  .map(([w, c, h]) => `${w}/${c}: ${h}`)"""


def test_tables_fit_a_phone(browser: Browser, base_url: str) -> None:
    """Issue 25, item 7: at 390 pixels the scoring grid (602 px) and the worked
    hand's score table (502 px) hid their right-hand columns behind a sideways
    scroll; the phone styles make every table shown on these pages fit."""
    watch = Watch(browser, _local, 390)
    try:
        for name in ("kachuful", "spades", "hearts", "callbreak", "oh-hell"):
            watch.page.goto(f"{base_url}/games/{name}.html", wait_until="domcontentloaded")
            assert watch.page.evaluate(_WIDE_TABLES) == [], name
        watch.check()
    finally:
        watch.close()


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def _printed_pages(site: Path) -> list[str]:
    """The rules pages to print: each family's game, and the family's longest page
    (the one most likely to run over), so that every family is checked on paper."""
    names: list[str] = []
    for head, members in families(builtin_variants()).items():
        longest = max(members, key=lambda v: (site / "games" / f"{v.name}.html").stat().st_size)
        names += [head] if longest.name == head else [head, longest.name]
    return names


def test_rules_pages_print_on_two_pages_at_most(
    browser: Browser, site: Path, base_url: str, summary: list[str]
) -> None:
    watch = Watch(browser, _local, 1280)
    counts: dict[str, int] = {}
    try:
        page = watch.page
        page.emulate_media(media="print")
        for name in _printed_pages(site):
            page.goto(f"{base_url}/games/{name}.html", wait_until="domcontentloaded")
            pdf = page.pdf(format="A4")
            assert pdf.startswith(b"%PDF")
            counts[name] = _pdf_pages(pdf)
        kachuful = page.pdf(path=str(SHOTS / "kachuful-print.pdf"), format="A4")
        assert _pdf_pages(kachuful) >= 1
        watch.check()
    finally:
        watch.close()
    summary.append(
        "printed pages (A4): "
        + ", ".join(f"{n} {k}" for n, k in sorted(counts.items(), key=lambda nk: (-nk[1], nk[0])))
    )
    summary.append(f"printed Kachuful page: {SHOTS / 'kachuful-print.pdf'}")
    too_long = {n: k for n, k in counts.items() if k > MAX_PRINTED_PAGES}
    assert not too_long, f"rules pages longer than {MAX_PRINTED_PAGES} printed pages: {too_long}"


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
    table.wait_for(state="attached")
    headers = [(h.text_content() or "").strip() for h in table.locator("thead th").all()]
    col = headers.index("Trumps")
    rows = table.locator("tbody tr:not(.cr-print-note)")
    return [
        (rows.nth(i).locator("td").nth(col).text_content() or "").strip()
        for i in range(rows.count())
    ]


def _search(page: Page, word: str) -> str:
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # narrow screens: open search from the header button
        page.locator("label.md-header__button[for='__search']").click()
    box.click()
    box.press_sequentially(word, delay=30)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15_000)
    assert results.count() >= 1
    text = page.locator(".md-search-result").inner_text()
    page.keyboard.press("Escape")
    return text


def _title(page: Page) -> str:
    return page.locator("h1").first.inner_text().strip().rstrip("¶").strip()


def test_schedule_print_search_and_links(browser: Browser, base_url: str) -> None:
    watch = Watch(browser, _local, 1280)
    try:
        page = watch.page
        # The Kachuful page and its deal schedule: Ka-Chu-Fu-L, hand by hand.
        page.goto(f"{base_url}/games/kachuful.html")
        trumps = _schedule_trumps(page)
        order = ["spades ♠", "diamonds ♦", "clubs ♣", "hearts ♥"]
        assert trumps[:8] == order * 2
        assert all(t == order[i % 4] for i, t in enumerate(trumps[:-1]))

        # On paper: no header, navigation, table of contents or worked examples.
        page.emulate_media(media="print")
        for chrome in (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary"):
            assert not page.locator(chrome).first.is_visible(), chrome
        assert page.locator("article").first.is_visible()
        assert not page.locator("#the-variant-file").is_visible()
        assert page.locator("#sources").is_visible()
        table = page.locator("xpath=//h3[@id='deal-schedule']/following::table[1]")
        assert table.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
        page.emulate_media(media="screen")
        assert page.locator(".md-header").first.is_visible()

        assert "hook" in _search(page, "hook").lower()

        # A house rule's "Differences from" link leads to its parent's page.
        child, parent = _house_rule()
        parent_title = next(v.title for v in builtin_variants() if v.name == parent)
        page.goto(f"{base_url}/games/{child}.html")
        assert page.locator("h2", has_text="Differences from").count() == 1
        link = page.locator(
            "xpath=//h2[starts-with(normalize-space(.), 'Differences from')]"
            "/following-sibling::p[1]//a"
        ).first
        link.click()
        page.wait_for_url(f"{base_url}/games/{parent}.html")
        assert _title(page) == parent_title
        watch.check()
    finally:
        watch.close()


def test_the_site_opened_from_disk(browser: Browser, site: Path, summary: list[str]) -> None:
    """Links go to .html files and search works with file:// addresses, fetching nothing."""
    watch = Watch(browser, lambda url: url.startswith("file:"), 1280)
    try:
        page = watch.page
        page.goto((site / "index.html").as_uri())
        assert _title(page) == "cardrules"
        # The home page's families table links to a rules page...
        page.locator("table.cr-table a", has_text="Kazhutha").first.click()
        page.wait_for_url("**/games/kazhutha.html")
        assert _title(page) == "Kazhutha"
        # ...whose navigation leads to the comparison page and back to a game.
        page.goto((site / "games" / "index.html").as_uri())
        assert _title(page) == "Compare the games"
        page.locator("table.cr-compare a", has_text="Oh Hell").first.click()
        page.wait_for_url("**/games/oh-hell.html")
        assert _title(page) == "Oh Hell"
        assert "hook" in _search(page, "hook").lower()
        shot = SHOTS / "from-disk-oh-hell-1280.png"
        page.screenshot(path=str(shot), full_page=False)
        summary.append(f"opened from disk: {shot}")
        watch.check()
    finally:
        watch.close()
