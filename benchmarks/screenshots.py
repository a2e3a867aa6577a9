"""Screenshots of the rules site and of a hot-seat terminal game, and page heights.

Regenerates ``docs/screenshots/``: the Hearts, Spades and Kachuful pages at 1280
and 390 pixels wide (``<game>-1280.png``, ``<game>-390.png``) and a hot-seat
game of Kachuful for two people at one terminal (``hot-seat-terminal.png``: the
terminal's text, drawn in an HTML ``<pre>`` and photographed). It prints the
height of each rules page at 1280 pixels and, at 390 pixels, every table wider
than the page's column (a table a phone would have to scroll sideways).

Not part of ``make test``: it needs the docs extra (MkDocs), Playwright and
Debian's Chromium (``/usr/bin/chromium``), and Pillow to keep each picture under
about 300 kB. Run it from the repository's root::

    python benchmarks/screenshots.py                 # build the site, then shoot
    python benchmarks/screenshots.py --site /tmp/s   # an already built site
    python benchmarks/screenshots.py --heights-only  # measure, write nothing
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import io
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"

#: The pages photographed, and the widths: a laptop and a phone (an iPhone 12
#: to 15 is 390 pixels wide).
SHOT_PAGES = ("hearts", "spades", "kachuful")
WIDTHS = (1280, 390)

#: The largest picture written, in bytes (a picture is made smaller until it fits).
MAX_BYTES = 300_000

#: The hot-seat game: two people (seats 1 and 3) and two bots at one terminal.
HOT_SEAT = ("kachuful", "--players", "4", "--humans", "1,3", "--seed", "7", "--no-color")

#: The most answers the two people give (the screenshot shows the start).
HOT_SEAT_TURNS = 8

#: The lines of the terminal shown: from the second person's first turn on.
TERMINAL_LINES = 64


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 for as long as the block runs: its address."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def build_site(into: Path) -> Path:
    """Build the site with MkDocs into ``into`` (strict: a warning fails)."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(into)],
        cwd=ROOT,
        check=True,
    )
    return into


def small_png(png: bytes, most: int = MAX_BYTES) -> bytes:
    """``png`` as a PNG of at most ``most`` bytes, still legible: fewer colours
    first (32, then 16), then only the top of the page (a page's opening is what
    a screenshot is for; the heights printed say how long the whole page is)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = image.height
    while True:
        for colors in (32, 16):
            buf = io.BytesIO()
            shown = image.crop((0, 0, image.width, height)) if height < image.height else image
            shown.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(
                buf, format="PNG", optimize=True
            )
            if buf.tell() <= most:
                return buf.getvalue()
        if height < 400:
            return buf.getvalue()
        height = int(height * 0.85)


#: JavaScript: the tables wider than their column, as "width/column: first header cell".
_WIDE_TABLES = """() => [...document.querySelectorAll('.md-content table')]
  .filter(t => t.getBoundingClientRect().width > 0)
  .map(t => {
    const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
    return [t.scrollWidth, box.clientWidth, (t.rows[0]?.innerText || '').slice(0, 40)];
  })
  .filter(([w, c]) => w > c + 1)
  .map(([w, c, h]) => `${w}/${c}px: ${h.replace(/\\s+/g, ' ')}`)"""


def _answer(screen: str) -> str:
    """What a person types at the prompt that ends ``screen``: the first card the
    game says may be played, else the first card in hand; a bid of 1."""
    if screen.rstrip().endswith("quit) >") and "Your bid" in screen.splitlines()[-1]:
        return "1"
    allowed = [ln for ln in screen.splitlines() if ln.startswith("You may play: ")]
    if allowed:
        return allowed[-1].removeprefix("You may play: ").split()[0]
    return "1"


def terminal_text() -> str:
    """The terminal of a hot-seat game (:data:`HOT_SEAT`) in a pseudo-terminal of
    80 columns, as a person sees it (long lines cut by the game), its two people
    each answering the prompt in turn (:func:`_answer`) and pressing Enter when
    their name is called: :data:`TERMINAL_LINES` lines."""
    import os
    import re

    import pexpect  # the test extra: a pseudo-terminal of 80 columns, as a person has

    ansi = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cardrules.cli", "play", *HOT_SEAT],
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=30,
        env={**os.environ, "TERM": "xterm-256color"},
        cwd=str(ROOT),
    )
    screen = ""
    turns = 0
    try:
        while turns <= HOT_SEAT_TURNS:
            k = child.expect([r"press Enter[^\n]*", r"quit\) > ", pexpect.EOF, pexpect.TIMEOUT])
            part = child.before + (child.after if isinstance(child.after, str) else "")
            screen += part
            if k >= 2:
                break
            if k == 0:  # the next person takes the seat (the screen was cleared)
                child.sendline("")
                screen += "\n"
                continue
            text = ansi.sub("", screen).replace("\r\n", "\n")
            answer = "quit" if turns == HOT_SEAT_TURNS else _answer(text)
            child.sendline(answer)
            turns += 1
    finally:
        child.terminate(force=True)
    out = ansi.sub("", screen).replace("\r\n", "\n").replace("\r", "").encode()
    lines = out.decode("utf-8", "replace").splitlines()
    # The greeting is shown again on the screen cleared for the first person: start there.
    greetings = [i for i, line in enumerate(lines[:12]) if line.startswith(lines[0][:20])]
    start = greetings[-1] if lines else 0
    return "\n".join(lines[start : start + TERMINAL_LINES])


def terminal_page(text: str) -> str:
    """``text`` as a page that looks like a terminal window of 80 columns (a longer
    line wraps, as it would there)."""
    return (
        "<!doctype html><meta charset='utf-8'><style>"
        "body{margin:0;background:#1e1e1e}"
        "pre{margin:0;padding:16px 20px;color:#e6e6e6;background:#1e1e1e;"
        "font:15px/1.35 'DejaVu Sans Mono',monospace;width:80ch;white-space:pre-wrap}"
        "</style><pre>" + html.escape(text) + "</pre>"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure the pages, write the screenshots, and print what was done."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="an already built site (default: build one)")
    ap.add_argument("--heights-only", action="store_true", help="measure, write no picture")
    ap.add_argument("--all", action="store_true", help="measure every rules page")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or build_site(Path(tmp) / "site")
        pages = sorted(p.stem for p in (site / "games").glob("*.html") if p.stem != "index")
        measured = pages if args.all else list(SHOT_PAGES)
        OUT.mkdir(parents=True, exist_ok=True)
        with serve(site) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for width in WIDTHS:
                context = browser.new_context(viewport={"width": width, "height": 900})
                page = context.new_page()
                for name in measured:
                    page.goto(f"{base}/games/{name}.html")
                    height = page.evaluate("document.documentElement.scrollHeight")
                    wide = page.evaluate(_WIDE_TABLES)
                    print(f"{name} at {width} px: {height} px high", *(f"; wide {w}" for w in wide))
                    if name in SHOT_PAGES and not args.heights_only:
                        shot = small_png(page.screenshot(full_page=True))
                        (OUT / f"{name}-{width}.png").write_bytes(shot)
                context.close()
            if not args.heights_only:
                context = browser.new_context(viewport={"width": 900, "height": 600})
                page = context.new_page()
                page.set_content(terminal_page(terminal_text()))
                shot = small_png(page.locator("pre").screenshot())
                (OUT / "hot-seat-terminal.png").write_bytes(shot)
                context.close()
            browser.close()
    if not args.heights_only:
        for path in sorted(OUT.glob("*.png")):
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
