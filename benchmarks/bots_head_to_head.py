"""The heuristic bot against an earlier version of itself, on the same deals.

Usage::

    python benchmarks/bots_head_to_head.py REV GAME [GAMES] [SEED]

``REV`` is a git revision of this repository (such as a commit before a change
to ``cardrules/bots/heuristic.py``). The script loads that revision's
heuristic bot and plays two series of ``GAMES`` seeded games for four players
(the same seeds): the old bot at every seat, then this checkout's bot at seat
0 against three old ones. It prints seat 0's win rate, loss rate (shedding
games), exact bids and average score in each series: what changed is the
difference between the two lines.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardrules.bots import HeuristicBot  # noqa: E402
from cardrules.simulate import simulate  # noqa: E402


def _old_bot(rev: str) -> type:
    """The ``HeuristicBot`` class of revision ``rev``."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:cardrules/bots/heuristic.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    folder = Path(tempfile.mkdtemp())
    path = folder / "old_heuristic.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_heuristic", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_heuristic"] = module
    spec.loader.exec_module(module)
    return module.HeuristicBot  # type: ignore[no-any-return]


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        print(__doc__)
        raise SystemExit(2)
    rev, game = argv[0], argv[1]
    games = int(argv[2]) if len(argv) > 2 else 300
    seed = int(argv[3]) if len(argv) > 3 else 2024
    old = _old_bot(rev)
    series = (("old at every seat", [old] * 4), ("new at seat 0", [HeuristicBot, old, old, old]))
    print(f"{game}: {games} games, 4 players, seed {seed}, old = {rev}")
    for label, bots in series:
        s = simulate(game, 4, games, bots=bots, seed=seed)
        print(
            f"  {label:<18} seat 0: wins {s.win_rate(0):6.1%}  losses {s.loser_rate(0):6.1%}"
            f"  exact bids {s.exact_rate(0):6.1%}  average score {s.average_score(0):8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
