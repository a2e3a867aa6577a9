"""``python -m cardrules.server``: the same as ``cardrules serve``."""

from __future__ import annotations

import sys

from cardrules.cli import main

if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
