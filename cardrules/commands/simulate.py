"""The ``simulate`` command: play many seeded games between bots and print the figures."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from cardrules.cli import Command, UsageError, check_number
from cardrules.commands.progress import ProgressBar, progress_bar
from cardrules.commands.variants import add_set_option, check_players, load_argument
from cardrules.simulate import (
    DEFAULT_MAX_TRICKS,
    MAX_GAMES,
    MAX_JOBS,
    MAX_RECORDED_GAMES,
    MAX_SEED,
    MAX_TRICKS_LIMIT,
    Summary,
    simulate,
)

__all__ = ["COMMANDS", "ProgressBar", "format_summary", "plot_summary"]


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def format_summary(s: Summary) -> str:
    """The summary as text tables for people."""
    lines = [
        f"{s.variant}: {s.games} games, {s.players} players, seed {s.seed}"
        + (f" ({s.unfinished} unfinished, stopped by the trick limit)" if s.unfinished else ""),
        f"game length: {s.average_hands:.1f} hands, {s.average_tricks:.1f} tricks, "
        f"{s.average_actions:.1f} actions on average",
        "",
    ]
    if s.mode == "shedding":
        return _format_shedding(s, lines)
    # A game without bids (nobody ever bid) has no exact bids to show.
    bidding = any(s.bids)
    head = f"{'seat':>4}  {'bot':<10} {'wins':>6} {'win rate':>8} {'avg score':>9}"
    if bidding:
        head += f" {'exact bids':>10}"
    lines.append(head)
    for seat in range(s.players):
        wins = s.wins[seat] + s.shared_wins[seat]
        row = (
            f"{seat + 1:>4}  {s.bots[seat]:<10} {wins:>6} {_pct(s.win_rate(seat)):>8} "
            f"{s.average_score(seat):>9.1f}"
        )
        if bidding:
            row += f" {_pct(s.exact_rate(seat)):>10}"
        lines.append(row)
    if any(s.shared_wins):
        lines.append(f"(wins include {sum(s.shared_wins)} shared wins)")
    if s.mode == "tricks" and s.by_size and bidding:
        lines += ["", "exact bids by hand size:"]
        lines.append(
            f"{'cards':>5}  " + " ".join(f"{f'{i + 1}:{s.bots[i]}':>12}" for i in range(s.players))
        )
        for size, bids, exact in s.by_size:
            cells = " ".join(
                f"{_pct(exact[i] / bids[i]) if bids[i] else '-':>12}" for i in range(s.players)
            )
            lines.append(f"{size:>5}  {cells}")
    return "\n".join(lines) + "\n"


def _format_shedding(s: Summary, lines: list[str]) -> str:
    """Shedding games: how often each seat was left holding cards, and game lengths."""
    lines[1] = f"game length: {s.average_tricks:.1f} tricks, {s.average_actions:.1f} cards played"
    lines.append(f"{'seat':>4}  {'bot':<10} {'lost':>6} {'loss rate':>9}")
    for seat in range(s.players):
        lines.append(
            f"{seat + 1:>4}  {s.bots[seat]:<10} {s.losers[seat]:>6} {_pct(s.loser_rate(seat)):>9}"
        )
    lines.append(
        f"{'':>4}  {'nobody':<10} {s.no_loser:>6} {_pct(_share(s.no_loser, s.finished)):>9}"
    )
    lines.append("(the loss rate of a seat is its share of finished games; fair: one in players)")
    lines.append("")
    if s.length_counts:
        lo, hi = s.length_counts[0][0], s.length_counts[-1][0]
        lines.append(
            f"tricks per game: {lo} to {hi}, {s.average_tricks:.1f} on average, "
            f"median {s.length_percentile(50)}, 99th percentile {s.length_percentile(99)}"
        )
    lines.append(f"games with no loser: {s.no_loser}")
    lines.append(f"unfinished games (stopped by the trick limit): {s.unfinished}")
    return "\n".join(lines) + "\n"


def _share(a: int, b: int) -> float:
    return a / b if b else 0.0


def plot_summary(s: Summary, path: str) -> None:
    """Draw the summary's charts into an image file (matplotlib, Agg backend).

    Trick games: the distribution of final scores per seat and the exact-bid
    rate by hand size. Shedding games: the losers per seat and the game lengths.

    Raises:
        RuntimeError: if matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'cardrules[plot]'") from None
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    labels = [f"{i}: {b}" for i, b in enumerate(s.bots, start=1)]
    if s.mode == "tricks":
        values = [float(k) for pairs in s.score_counts for k, _ in pairs]
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        bins = [lo + (hi - lo) * i / 30 for i in range(31)] if hi > lo else [lo - 0.5, lo + 0.5]
        for seat in range(s.players):
            pairs = s.score_counts[seat]
            if pairs:
                left.hist(
                    [float(k) for k, _ in pairs],
                    weights=[v for _, v in pairs],
                    bins=bins,
                    alpha=0.5,
                    label=labels[seat],
                )
        left.set_title("Final scores")
        left.set_xlabel("score")
        left.set_ylabel("games")
        for seat in range(s.players):
            rates = s.exact_rate_by_size(seat)
            right.plot(
                list(rates), [100 * r for r in rates.values()], marker="o", label=labels[seat]
            )
        right.set_title("Exact bids by hand size")
        right.set_xlabel("cards in the hand")
        right.set_ylabel("exact bids (%)")
        right.set_ylim(0, 100)
    else:
        left.bar([*labels, "nobody"], [*s.losers, s.no_loser])
        left.set_title("Losers")
        left.set_ylabel("games")
        if s.length_counts:
            right.bar([k for k, _ in s.length_counts], [v for _, v in s.length_counts])
        right.set_title("Game length")
        right.set_xlabel("tricks")
        right.set_ylabel("games")
    for ax in (left, right):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    fig.suptitle(f"{s.variant}, {s.players} players, {s.games} games (seed {s.seed})")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="NAME_OR_FILE", help="a built-in name or a variant file")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="number of players (needed only when the game allows more than one count)",
    )
    p.add_argument(
        "--games",
        type=int,
        default=1000,
        metavar="G",
        help=f"games to play, 0 to {MAX_GAMES:,} (1000)",
    )
    p.add_argument(
        "--bots",
        default="heuristic",
        metavar="BOT,...",
        help="bots by seat, comma-separated: heuristic, random, pimc, ismcts; the last one "
        "fills the remaining seats (heuristic,random = one Heuristic against Randoms)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the seed, 0 to 2**64 - 1 (0)")
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="J",
        help=f"worker processes, 1 to {MAX_JOBS}, or auto: one per CPU (at most {MAX_JOBS}); "
        "the figures do not depend on it (1)",
    )
    p.add_argument(
        "--max-tricks",
        type=int,
        default=DEFAULT_MAX_TRICKS,
        metavar="T",
        help=f"stop a game after T tricks, as unfinished; 1 to {MAX_TRICKS_LIMIT:,} "
        f"({DEFAULT_MAX_TRICKS})",
    )
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw charts into an image file")
    p.add_argument(
        "--records",
        metavar="DIR",
        help="write every game as a record (see cardrules replay) into DIR, made if "
        "missing: one file a game, named VARIANT-Np-seedS-INDEX.record, the same bytes "
        f"for the same seed; at most {MAX_RECORDED_GAMES:,} games",
    )
    bar = p.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar on stderr (the default when stderr is a terminal)",
    )
    bar.add_argument("--no-progress", dest="progress", action="store_false")


def _jobs(text: str) -> int:
    """``--jobs``: a number, or ``auto`` for one per CPU (at most :data:`MAX_JOBS`)."""
    if text.strip().lower() == "auto":
        return max(1, min(MAX_JOBS, os.cpu_count() or 1))
    return int(text)


def _run(args: argparse.Namespace) -> int:
    # The command line's own numbers first, before anything is loaded or started.
    check_number("--games", args.games, 0, MAX_GAMES)
    check_number("--jobs", args.jobs, 1, MAX_JOBS)
    check_number("--seed", args.seed, 0, MAX_SEED, "2**64 - 1")
    check_number("--max-tricks", args.max_tricks, 1, MAX_TRICKS_LIMIT)
    if args.plot and not os.path.isdir(os.path.dirname(os.path.abspath(args.plot))):
        raise UsageError(f"--plot: there is no folder for {args.plot}")
    if args.records is not None:
        _check_records(args.records, args.games)
    v = load_argument(args.variant, args.overrides)
    if args.players is None:
        if v.players.min != v.players.max:
            raise UsageError(
                f"--players: {v.name} is for {v.players.min} to {v.players.max} players; "
                "say how many"
            )
        args.players = v.players.min
    check_players(v, args.players)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    # With a bar, smaller chunks (about a hundred of them) so it moves smoothly;
    # the figures are the same whatever the chunking.
    chunk = max(1, min(250, -(-args.games // 100))) if show else None
    try:
        with progress_bar(v.name) if show else contextlib.nullcontext() as bar:
            summary = simulate(
                v,
                args.players,
                args.games,
                bots,
                seed=args.seed,
                jobs=args.jobs,
                max_tricks=args.max_tricks,
                progress=bar,
                chunk_size=chunk,
                records=args.records,
            )
        if args.plot:
            try:
                plot_summary(summary, args.plot)
            except OSError as exc:
                raise RuntimeError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
    except (ValueError, RuntimeError) as exc:
        print(f"cardrules: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        sys.stdout.write(format_summary(summary))
        if args.plot:
            print(f"\nchart written to {args.plot}")
    if args.records is not None and not args.json:
        print(f"\n{args.games:,} records written to {args.records}")
    return 0


def _check_records(path: str, games: int) -> None:
    """``--records``: a folder, or a path where one can be made; a bounded run."""
    if games > MAX_RECORDED_GAMES:
        raise UsageError(
            f"--records: at most {MAX_RECORDED_GAMES:,} games are written as records, not {games:,}"
        )
    if not path or "\0" in path:
        raise UsageError("--records: name a folder")
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--records: {path} is not a folder")


COMMANDS = [
    Command(
        "simulate",
        "play many seeded games between bots and print win and exact-bid rates",
        _configure,
        _run,
        description=(
            "Play G seeded games of a variant between bots and summarise them: wins per "
            "seat, exact bids per seat and per hand size, average scores and game "
            "length (losers and game lengths for shedding games). The same seed gives "
            "the same figures whatever --jobs is."
        ),
    ),
]
