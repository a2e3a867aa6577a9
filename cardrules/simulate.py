"""Play many seeded games between bots and summarise them, on any executor.

:func:`simulate` splits the games into chunks and runs each chunk as one task
on a :class:`concurrent.futures.Executor`: in this process (the default), a
:class:`~concurrent.futures.ProcessPoolExecutor` (``jobs=4``), or a cluster's
executor, such as a Dask ``distributed`` client's ``client.get_executor()``.
Game ``i`` is dealt from a seed derived from ``(seed, i)`` only, and its bots
are seeded from ``(seed, i, seat)``, so the figures are the same however the
games are chunked and wherever they run. Each chunk returns a
:class:`Summary`; summaries of disjoint games merge exactly (``a + b``).

Example:
    >>> from cardrules.simulate import simulate
    >>> s = simulate("kachuful", 4, 20, ["heuristic", "random"], seed=1)  # doctest: +SKIP
    >>> s.win_rate(0), s.exact_rate(0)                                     # doctest: +SKIP
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import itertools
import os
import re
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from fractions import Fraction
from typing import Any, ClassVar, Final

from attrs import frozen

from cardrules.bots import BOTS, Bot, BotFactory, decide, make_bot
from cardrules.counted import count_range
from cardrules.engine.events import log_entries
from cardrules.engine.game import MAX_SEED, MAX_TRICKS_LIMIT, Game
from cardrules.errors import CardrulesError, VariantError
from cardrules.rules import Mode, Variant

__all__ = [
    "DEFAULT_MAX_TRICKS",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_RECORDED_GAMES",
    "MAX_SEED",
    "MAX_TASKS_IN_FLIGHT",
    "MAX_TRICKS_LIMIT",
    "SimulationError",
    "Summary",
    "game_seed",
    "record_name",
    "simulate",
]

#: The default bound on the tricks of one simulated game (a runaway shedding
#: game stops there and counts as unfinished).
DEFAULT_MAX_TRICKS: Final = 5000
#: The most games one call of :func:`simulate` plays (about a day of one core).
MAX_GAMES: Final = 10_000_000
#: The most worker processes :func:`simulate` starts itself (``jobs``); a
#: bigger cluster is reached through ``executor=``.
MAX_JOBS: Final = 32
#: The most chunks handed to an executor at a time (more are handed over as
#: those finish), so a long simulation holds a bounded number of futures.
MAX_TASKS_IN_FLIGHT: Final = 1024
#: The most games one call of :func:`simulate` writes as records (``records=``):
#: a record is a few kilobytes, so about a few gigabytes at most.
MAX_RECORDED_GAMES: Final = 1_000_000


class SimulationError(CardrulesError):
    """An argument of :func:`simulate` that is of the wrong type or out of bounds."""

    default_code: ClassVar[str] = "bad_argument"


def _describe(x: object) -> str:
    """A short description of a bad argument (never a 5,000-digit repr)."""
    if type(x) is int and x.bit_length() > 64:
        return f"an int of {x.bit_length():,} bits"
    if isinstance(x, str):
        return repr(x) if len(x) <= 30 else repr(x[:27] + "...")
    if isinstance(x, int | float | bool | type(None)):
        return repr(x)
    return f"a {type(x).__name__}"


def _check_int(name: str, value: object, low: int, high: int, high_text: str = "") -> int:
    if type(value) is not int or not low <= value <= high:
        top = high_text or f"{high:,}"
        raise SimulationError(
            f"{name} must be an int from {low:,} to {top}, got {_describe(value)}"
        )
    return value


BotSpec = str | BotFactory
Progress = Callable[[int, int], None]


def game_seed(seed: int, index: int, seat: int | None = None) -> int:
    """The seed of game ``index`` of a simulation (or of its bot at ``seat``).

    It depends on ``(seed, index, seat)`` only, never on how games are chunked.

    Args:
        seed: the simulation's seed.
        index: the game's number, from 0.
        seat: a seat, for the seed of that seat's bot.

    Returns:
        A non-negative 63-bit int.
    """
    tag = b"cardrules.simulate:%d:%d" % (seed, index)
    if seat is not None:
        tag += b":%d" % seat
    return int.from_bytes(hashlib.sha256(tag).digest()[:8], "big") >> 1


def _pairs(counter: Counter[Any]) -> tuple[tuple[Any, int], ...]:
    return tuple(sorted((k, v) for k, v in counter.items() if v))


def _add_pairs(
    a: tuple[tuple[Any, int], ...], b: tuple[tuple[Any, int], ...]
) -> tuple[tuple[Any, int], ...]:
    c: Counter[Any] = Counter(dict(a))
    c.update(dict(b))
    return _pairs(c)


def _num(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


def _div(a: float | Fraction | int, b: int) -> float:
    return float(a) / b if b else 0.0


@frozen
class Summary:
    """The figures of a batch of simulated games; summaries of disjoint batches
    with the same settings merge exactly with ``+`` (or :meth:`merge`).

    Per-seat tuples are indexed by seat. Counts are exact (ints and
    :class:`~fractions.Fraction` sums); rates and averages are computed from
    them by the methods, so merged and single-run figures are identical.

    Attributes:
        variant: the variant's name.
        mode: ``"tricks"`` or ``"shedding"``.
        players: the number of seats.
        bots: the bot of each seat, by name.
        seed: the simulation's seed.
        games: games played.
        finished: games that reached their end (the others hit ``max_tricks``).
        first_game: the number of the first game covered (for chunks).
        wins: per seat, games won outright.
        shared_wins: per seat, games whose win was shared.
        score_sums: per seat, the sum of final totals (finished games).
        score_counts: per seat, ``(final total, games)`` pairs (finished games).
        bids: per seat, hands in which the seat bid.
        exact: per seat, hands in which it made its bid exactly.
        by_size: ``(hand size, bids per seat, exact per seat)`` triples.
        hands: hands played, all games together.
        tricks: tricks played, all games together.
        actions: actions taken, all games together.
        length_counts: ``(tricks in the game, games)`` pairs (finished games).
        losers: shedding games: per seat, games lost (left holding cards).
        no_loser: shedding games: finished games with no loser.
    """

    variant: str
    mode: str
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int = 0
    finished: int = 0
    first_game: int = 0
    wins: tuple[int, ...] = ()
    shared_wins: tuple[int, ...] = ()
    score_sums: tuple[Fraction, ...] = ()
    score_counts: tuple[tuple[tuple[Fraction, int], ...], ...] = ()
    bids: tuple[int, ...] = ()
    exact: tuple[int, ...] = ()
    by_size: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = ()
    hands: int = 0
    tricks: int = 0
    actions: int = 0
    length_counts: tuple[tuple[int, int], ...] = ()
    losers: tuple[int, ...] = ()
    no_loser: int = 0

    # ------------------------------------------------------------------ merging

    def _key(self) -> tuple[object, ...]:
        return (self.variant, self.mode, self.players, self.bots, self.seed)

    def __add__(self, other: Summary) -> Summary:
        """The summary of both batches (same variant, players, bots and seed).

        Raises:
            ValueError: if the settings differ.
        """
        if not isinstance(other, Summary):
            return NotImplemented
        if self._key() != other._key():
            raise ValueError(
                f"cannot merge summaries of different simulations: {self._key()} and {other._key()}"
            )
        if other.games == 0:
            return self
        if self.games == 0:
            return other

        def vec(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        sizes: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for size, b, e in (*self.by_size, *other.by_size):
            old = sizes.get(size)
            sizes[size] = (b, e) if old is None else (vec(old[0], b), vec(old[1], e))
        return Summary(
            variant=self.variant,
            mode=self.mode,
            players=self.players,
            bots=self.bots,
            seed=self.seed,
            games=self.games + other.games,
            finished=self.finished + other.finished,
            first_game=min(self.first_game, other.first_game),
            wins=vec(self.wins, other.wins),
            shared_wins=vec(self.shared_wins, other.shared_wins),
            score_sums=vec(self.score_sums, other.score_sums),
            score_counts=tuple(
                _add_pairs(a, b) for a, b in zip(self.score_counts, other.score_counts, strict=True)
            ),
            bids=vec(self.bids, other.bids),
            exact=vec(self.exact, other.exact),
            by_size=tuple((k, *sizes[k]) for k in sorted(sizes)),
            hands=self.hands + other.hands,
            tricks=self.tricks + other.tricks,
            actions=self.actions + other.actions,
            length_counts=_add_pairs(self.length_counts, other.length_counts),
            losers=vec(self.losers, other.losers),
            no_loser=self.no_loser + other.no_loser,
        )

    @staticmethod
    def merge(parts: Iterable[Summary]) -> Summary:
        """Merge several summaries (at least one).

        Raises:
            ValueError: if there are none, or their settings differ.
        """
        it = iter(parts)
        try:
            total = next(it)
        except StopIteration:
            raise ValueError("nothing to merge") from None
        for part in it:
            total = total + part
        return total

    # ------------------------------------------------------------------ figures

    @property
    def unfinished(self) -> int:
        """Games stopped by ``max_tricks`` before their end."""
        return self.games - self.finished

    def win_rate(self, seat: int) -> float:
        """The share of finished games ``seat`` won, a shared win counting as a win."""
        return _div(self.wins[seat] + self.shared_wins[seat], self.finished)

    def exact_rate(self, seat: int) -> float:
        """The share of hands in which ``seat`` made its bid exactly (0 without bids)."""
        return _div(self.exact[seat], self.bids[seat])

    def exact_rate_by_size(self, seat: int) -> dict[int, float]:
        """``seat``'s exact-bid rate per hand size."""
        return {size: _div(e[seat], b[seat]) for size, b, e in self.by_size if b[seat]}

    def average_score(self, seat: int) -> float:
        """``seat``'s average final total over finished games."""
        return _div(self.score_sums[seat], self.finished)

    def loser_rate(self, seat: int) -> float:
        """Shedding games: the share of finished games ``seat`` lost."""
        return _div(self.losers[seat], self.finished)

    def length_percentile(self, q: float) -> int | None:
        """The nearest-rank ``q`` percentile (0 < q <= 100) of the finished games'
        lengths in tricks (``50`` for the median), ``None`` without finished games."""
        total = sum(c for _, c in self.length_counts)
        if not total:
            return None
        rank = max(1, -(-total * q // 100))
        seen = 0
        for k, c in self.length_counts:
            seen += c
            if seen >= rank:
                return int(k)
        return int(self.length_counts[-1][0])

    @property
    def average_tricks(self) -> float:
        """Tricks per game (all games)."""
        return _div(self.tricks, self.games)

    @property
    def average_hands(self) -> float:
        """Hands per game (all games)."""
        return _div(self.hands, self.games)

    @property
    def average_actions(self) -> float:
        """Actions per game (all games)."""
        return _div(self.actions, self.games)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data: settings, the raw counts and the
        derived rates and averages."""
        seats = []
        for s in range(self.players):
            seat: dict[str, Any] = {
                "seat": s,
                "bot": self.bots[s],
                "wins": self.wins[s],
                "shared_wins": self.shared_wins[s],
                "win_rate": self.win_rate(s),
                "average_score": self.average_score(s),
                "scores": {str(k): v for k, v in self.score_counts[s]},
            }
            if self.mode == "tricks":
                seat["bids"] = self.bids[s]
                seat["exact"] = self.exact[s]
                seat["exact_rate"] = self.exact_rate(s)
                seat["exact_rate_by_size"] = {
                    str(k): v for k, v in self.exact_rate_by_size(s).items()
                }
            else:
                seat["lost"] = self.losers[s]
                seat["loser_rate"] = self.loser_rate(s)
            seats.append(seat)
        out: dict[str, Any] = {
            "variant": self.variant,
            "mode": self.mode,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.unfinished,
            "average_hands": self.average_hands,
            "average_tricks": self.average_tricks,
            "average_actions": self.average_actions,
            "game_lengths": {str(k): v for k, v in self.length_counts},
            "seats": seats,
        }
        if self.mode == "shedding":
            out["no_loser"] = self.no_loser
        return out


# --------------------------------------------------------------------------- running games


@frozen
class _Job:
    """One chunk of games: everything a worker needs (picklable)."""

    variant: Variant
    players: int
    bots: tuple[BotSpec, ...]
    names: tuple[str, ...]
    seed: int
    start: int
    stop: int
    max_tricks: int | None
    records: str | None = None


def _bot(spec: BotSpec, seed: int) -> Bot:
    return make_bot(spec, seed) if isinstance(spec, str) else spec(seed)


def _run_chunk(job: _Job) -> Summary:
    """Play games ``job.start`` to ``job.stop - 1`` and summarise them."""
    n = job.players
    shedding = job.variant.mode is Mode.SHEDDING
    wins = [0] * n
    shared = [0] * n
    sums = [Fraction(0)] * n
    counts: list[Counter[Fraction]] = [Counter() for _ in range(n)]
    bids = [0] * n
    exact = [0] * n
    by_size: dict[int, tuple[list[int], list[int]]] = {}
    lengths: Counter[int] = Counter()
    losers = [0] * n
    no_loser = finished = hands = tricks = actions = 0
    for i in range(job.start, job.stop):
        g = Game(job.variant, players=n, seed=game_seed(job.seed, i), max_tricks=job.max_tricks)
        bots = [_bot(spec, game_seed(job.seed, i, s)) for s, spec in enumerate(job.bots)]
        while not g.is_over:
            seat = g.to_act
            if seat is None:
                seat = min(g.waiting_for)
            g.apply(decide(bots[seat], g, seat), seat)
        if job.records is not None:
            _write_record(
                g, os.path.join(job.records, record_name(job.variant.name, job.seed, i, n))
            )
        game_tricks = 0
        # The engine's own log (cheap tuples, bids -1 when not made): no
        # records are built for a game only counted.
        for ev in log_entries(g):
            kind = ev[0]
            if kind in ("play", "bid", "look", "amend", "pass"):
                actions += 1
            elif kind == "trick" or kind in _SHED_TRICK_EVENTS:
                game_tricks += 1
            elif kind == "score":
                hands += 1
                size_row = by_size.setdefault(_hand_size(g, ev[1]), ([0] * n, [0] * n))
                for s, (b, t) in enumerate(zip(ev[2], ev[3], strict=True)):
                    if b >= 0:
                        bids[s] += 1
                        size_row[0][s] += 1
                        if b == t:
                            exact[s] += 1
                            size_row[1][s] += 1
        if shedding and not any(ev[0] == "score" for ev in log_entries(g)):
            hands += 1
        tricks += game_tricks
        res = g.result
        assert res is not None
        if not res.finished:
            continue
        finished += 1
        lengths[game_tricks] += 1
        for s in res.winners:
            if res.shared:
                shared[s] += 1
            else:
                wins[s] += 1
        for s, total in enumerate(res.totals):
            sums[s] += total
            counts[s][total] += 1
        if shedding:
            if res.loser is None:
                no_loser += 1
            else:
                losers[res.loser] += 1
    return Summary(
        variant=job.variant.name,
        mode="shedding" if shedding else "tricks",
        players=n,
        bots=job.names,
        seed=job.seed,
        games=job.stop - job.start,
        finished=finished,
        first_game=job.start,
        wins=tuple(wins),
        shared_wins=tuple(shared),
        score_sums=tuple(sums),
        score_counts=tuple(_pairs(c) for c in counts),
        bids=tuple(bids),
        exact=tuple(exact),
        by_size=tuple((k, tuple(b), tuple(e)) for k, (b, e) in sorted(by_size.items())),
        hands=hands,
        tricks=tricks,
        actions=actions,
        length_counts=_pairs(lengths),
        losers=tuple(losers),
        no_loser=no_loser,
    )


def record_name(variant: str, seed: int, index: int, players: int) -> str:
    """The file name of game ``index`` of a simulation written as records.

    It depends on the variant's name, the number of players, the
    simulation's seed and the game's number only, so the same simulation
    writes the same files wherever its games run.

    Args:
        variant: the variant's name (characters other than letters, digits,
            ``-`` and ``_`` become ``_``).
        seed: the simulation's seed.
        index: the game's number, from 0.
        players: the number of seats.

    Returns:
        Such as ``oh-hell-4p-seed7-00000012.record``.

    Example:
        >>> record_name("oh-hell", 7, 12, 4)
        'oh-hell-4p-seed7-00000012.record'
    """
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", variant)[:80] or "game"
    return f"{safe}-{players}p-seed{seed}-{index:08d}.record"


def _write_record(game: Game, path: str) -> None:
    """Write ``game``'s record to ``path`` whole or not at all (a temporary
    file renamed), so a killed run leaves no half-written record."""
    from cardrules.record import dump

    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(dump(game))
    os.replace(tmp, path)


#: Event kinds of the shedding mode that end a trick (besides ``trick``).
_SHED_TRICK_EVENTS: Final = frozenset({"dead", "pickup"})


def _hand_size(g: Game, hand_number: int) -> int:
    sizes = g.hand_sizes
    if 1 <= hand_number <= len(sizes):
        return sizes[hand_number - 1]
    return max(sizes)  # tie-break hands are of the largest size


def _names(bots: Sequence[BotSpec]) -> tuple[str, ...]:
    out = []
    for b in bots:
        if isinstance(b, str):
            key = b.strip().lower()
            if key not in BOTS:
                raise SimulationError(
                    f"unknown bot {_describe(b)}: choose from {', '.join(sorted(BOTS))}"
                )
            out.append(key)
        else:
            out.append(str(getattr(b, "name", None) or getattr(b, "__name__", repr(b))))
    return tuple(out)


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(games, start + size)


def simulate(
    variant: Variant | str,
    players: int,
    games: int,
    bots: Sequence[BotSpec] | BotSpec = "random",
    seed: int = 0,
    executor: cf.Executor | None = None,
    jobs: int = 1,
    max_tricks: int | None = DEFAULT_MAX_TRICKS,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    records: str | os.PathLike[str] | None = None,
) -> Summary:
    """Play ``games`` seeded games between bots and summarise them.

    Args:
        variant: a :class:`Variant` or the name (or path) of one.
        players: the number of seats, within the variant's range.
        games: how many games to play, 0 to :data:`MAX_GAMES`.
        bots: one bot per seat, each a name (``"heuristic"``, ``"random"``) or a
            picklable callable ``seed -> Bot`` (a bot class); a shorter list is
            padded with its last entry (``["heuristic", "random"]`` is one
            Heuristic against Randoms), and a single name plays every seat.
        seed: the simulation's seed, 0 to ``2**64 - 1``: the same seed gives
            the same figures, whatever the chunking, ``jobs`` or executor.
        executor: where to run the chunks, such as a Dask client's
            ``client.get_executor()``; it is not shut down here.
        jobs: without ``executor``: 1 runs here, more (up to :data:`MAX_JOBS`)
            runs on a process pool of that many workers.
        max_tricks: stop a game after this many tricks, 1 to
            :data:`MAX_TRICKS_LIMIT` (it counts as unfinished); ``None`` for
            no bound.
        chunk_size: games per task; by default about four tasks per worker,
            at most 250 games each. At most :data:`MAX_TASKS_IN_FLIGHT` tasks
            are handed to the executor at a time.
        progress: called as ``progress(games_done, games)`` after each chunk.
        records: a folder (made if missing) to write every game into as a
            record (:func:`cardrules.record.dump`), one file a game named by
            :func:`record_name`; at most :data:`MAX_RECORDED_GAMES` games.
            The same seed writes byte-identical files whatever the chunking
            or executor; on a cluster the folder must be one every worker
            can write to (a shared file system).

    Every argument is checked before anything is allocated or started.

    Returns:
        The merged :class:`Summary`.

    Raises:
        SimulationError: for an argument of the wrong type or out of bounds
            (``games`` 0 to :data:`MAX_GAMES`, ``jobs`` 1 to :data:`MAX_JOBS`,
            ``seed`` 0 to ``2**64 - 1``, ``max_tricks`` 1 to
            :data:`MAX_TRICKS_LIMIT` or ``None``, ``chunk_size`` 1 to
            :data:`MAX_GAMES` or ``None``), more bots than seats, an unknown
            bot name, or ``records`` that is not a folder that can be made
            and written to, with more than :data:`MAX_RECORDED_GAMES` games,
            or for rules that no variant file can write.
        VariantError: if the variant cannot be loaded or played by ``players``
            (a number of players outside its range is refused before any game
            is set up).
    """
    _check_arguments(players, games, jobs, seed, max_tricks, chunk_size, progress, executor)
    variant = _variant_for(variant, players)
    specs = _bot_specs(bots, players)
    names = _names(specs)
    probe = Game(variant, players=players, seed=0)  # fail early on a variant/player-count mismatch
    folder = _records_folder(records, games, probe)
    workers = jobs if executor is None else max(jobs, 4)
    if chunk_size is None:
        chunk_size = max(1, min(250, -(-games // (4 * workers))))
    tasks = (
        _Job(variant, players, tuple(specs), names, seed, a, b, max_tricks, folder)
        for a, b in _chunks(games, chunk_size)
    )
    total = Summary(
        variant=variant.name,
        mode="shedding" if variant.mode is Mode.SHEDDING else "tricks",
        players=players,
        bots=names,
        seed=seed,
        wins=(0,) * players,
        shared_wins=(0,) * players,
        score_sums=(Fraction(0),) * players,
        score_counts=((),) * players,
        bids=(0,) * players,
        exact=(0,) * players,
        losers=(0,) * players,
    )
    # Summaries of disjoint games merge exactly in any order, so each part is
    # merged as it arrives: memory does not grow with the number of chunks.
    if progress is not None:
        progress(0, games)
    if executor is None and jobs == 1:
        return _merge_here(tasks, total, games, progress)
    return _merge_from(executor, jobs, tasks, total, games, progress)


def _check_arguments(
    players: object,
    games: object,
    jobs: object,
    seed: object,
    max_tricks: object,
    chunk_size: object,
    progress: object,
    executor: object,
) -> None:
    """:func:`simulate`'s checks of its arguments' types and bounds, in order."""
    if type(players) is not int:
        raise SimulationError(f"players must be an int, got {_describe(players)}")
    _check_int("games", games, 0, MAX_GAMES)
    _check_int("jobs", jobs, 1, MAX_JOBS)
    _check_int("seed", seed, 0, MAX_SEED, "2**64 - 1")
    if max_tricks is not None:
        _check_int("max_tricks", max_tricks, 1, MAX_TRICKS_LIMIT)
    if chunk_size is not None:
        _check_int("chunk_size", chunk_size, 1, MAX_GAMES)
    if progress is not None and not callable(progress):
        raise SimulationError(f"progress must be callable, got {_describe(progress)}")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise SimulationError(f"executor must have a submit method, got {_describe(executor)}")


def _records_folder(records: object, games: int, probe: Game) -> str | None:
    """The folder of ``records=``, made if missing and checked before any game."""
    if records is None:
        return None
    if not isinstance(records, str | os.PathLike):
        raise SimulationError(f"records must be a folder's path, got {_describe(records)}")
    path = os.fspath(records)
    if not isinstance(path, str) or not path or "\0" in path:
        raise SimulationError(f"records must be a folder's path, got {_describe(records)}")
    if games > MAX_RECORDED_GAMES:
        raise SimulationError(
            f"records: at most {MAX_RECORDED_GAMES:,} games are written as records, not {games:,}"
        )
    from cardrules.record import dump

    try:
        dump(probe)
    except CardrulesError as exc:
        raise SimulationError(f"records: {exc}") from None
    if os.path.exists(path) and not os.path.isdir(path):
        raise SimulationError(f"records: {_describe(path)} is not a folder")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise SimulationError(
            f"records: cannot make the folder {_describe(path)}: {exc.strerror or exc}"
        ) from None
    if not os.path.isdir(path):
        raise SimulationError(f"records: {_describe(path)} is not a folder")
    if not os.access(path, os.W_OK | os.X_OK):
        raise SimulationError(f"records: cannot write into the folder {_describe(path)}")
    return os.path.abspath(path)


def _variant_for(variant: Variant | str, players: int) -> Variant:
    """The variant to simulate (loaded when named), checked against ``players``."""
    if isinstance(variant, str):
        from cardrules.dsl import load

        variant = load(variant)
    if not isinstance(variant, Variant):
        raise SimulationError(f"variant must be a Variant or a name, got {_describe(variant)}")
    if players not in variant.players:
        raise VariantError(
            f"{variant.name} is for "
            f"{count_range(variant.players.min, variant.players.max, 'player')}, "
            f"not {_describe(players)}"
        )
    return variant


def _bot_specs(bots: Sequence[BotSpec] | BotSpec, players: int) -> list[BotSpec]:
    """One bot per seat: ``bots`` as a list, padded with its last entry."""
    specs: list[BotSpec]
    if isinstance(bots, str) or callable(bots):
        specs = [bots]
    elif isinstance(bots, Sized) and len(bots) > players:
        raise SimulationError(f"{len(bots):,} bots for {players} seats")
    else:
        try:
            specs = list(itertools.islice(bots, players + 1))
        except TypeError:
            raise SimulationError(
                f"bots must be a bot name, a bot factory or a list of them, got {_describe(bots)}"
            ) from None
    if not specs:
        raise SimulationError("name at least one bot")
    if len(specs) > players:
        raise SimulationError(f"more than {players} bots for {players} seats")
    specs += [specs[-1]] * (players - len(specs))
    return specs


def _merge_here(
    tasks: Iterator[_Job], total: Summary, games: int, progress: Progress | None
) -> Summary:
    """Play the chunks here, one after another, each merged into ``total``."""
    done = 0
    for job in tasks:
        part = _run_chunk(job)
        total = total + part
        done += part.games
        if progress is not None:
            progress(done, games)
    return total


def _merge_from(
    executor: cf.Executor | None,
    jobs: int,
    tasks: Iterator[_Job],
    total: Summary,
    games: int,
    progress: Progress | None,
) -> Summary:
    """Play the chunks on ``executor`` (without one, on a process pool of
    ``jobs`` workers, shut down after), at most :data:`MAX_TASKS_IN_FLIGHT`
    at a time, each merged into ``total`` as it arrives."""
    done = 0
    own = executor is None
    ex: cf.Executor = cf.ProcessPoolExecutor(max_workers=jobs) if own else executor  # type: ignore[assignment]
    try:
        pending = {
            ex.submit(_run_chunk, job) for job in itertools.islice(tasks, MAX_TASKS_IN_FLIGHT)
        }
        while pending:
            finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                part = fut.result()
                total = total + part
                done += part.games
                if progress is not None:
                    progress(done, games)
            for job in itertools.islice(tasks, len(finished)):
                pending.add(ex.submit(_run_chunk, job))
    finally:
        if own:
            ex.shutdown(wait=True, cancel_futures=True)
    return total


class _CallableModule(types.ModuleType):
    """Lets ``cardrules.simulate(...)`` work even once this module is imported
    (importing a submodule binds ``cardrules.simulate`` to the module)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Summary:
        return simulate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
