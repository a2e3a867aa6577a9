"""The bot ladder: how each bot does against a field of heuristic bots, on duplicate deals.

Every bot of the ladder plays every side of the same seeded deals: for each
deal (a whole game, dealt from one seed) and each side (a seat, or a team's
seats in a game with teams), the bot takes that side and the *field* bot
(the heuristic bot) every other seat. So each bot meets exactly the same
cards in exactly the same seats as every other bot, the heuristic bot
included (its row is the field playing itself), and the difference between
two bots on a deal is free of the luck of the cards.

Per bot and variant it reports the exact-bid rate (games with bids), the
points per hand with a 95% interval, its margin over the heuristic bot (the
same deals and seats, points per hand in the direction that wins: fewer in
Hearts) with a paired 95% interval, and the win rate (the loss rate in a
shedding game, where one player loses). Intervals are Student's t over the
games, one figure per (deal, side) (see :func:`interval`); the margin pairs
each game with the field bot's game on the same deal and side.

It also reports each bot's CPU time per decision (``time.process_time``
around each of its decisions, in the process that plays the game: with a
thread pool as the executor, the other threads' work counts too, so measure
it here or on processes).

Run ``python benchmarks/ladder.py`` for the full ladder, ``--quick`` for a
short one (a few minutes on 2 cores), ``--smoke`` to check in seconds that it
runs (its figures mean nothing), ``--json`` for machine-readable output and
``--jobs N`` for a process pool. ``--out FILE`` appends each game to ``FILE``
as a JSON line as soon as it is played, so a run that is stopped keeps its
games, and ``--resume`` plays only the games ``FILE`` does not hold yet.
A bot from outside cardrules is named by its import path,
``--bots mypkg.mybots:MyBot`` (or ``--bot``, repeatable), with keyword
arguments after it (``mypkg.mybots:MyBot:depth=3``): a class or function
taking a seed (and those keywords) and returning a bot. From Python,
:func:`run_ladder` takes the bots (names, ``name:key=value`` budgets, import
paths, or ``(label, factory)`` pairs), the variants, the deals and any
:class:`concurrent.futures.Executor` (a Dask client's
``client.get_executor()`` spreads a long ladder over a cluster).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import importlib
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))

from cardrules import Game, load  # noqa: E402
from cardrules.bots import BOTS, Bot, BotFactory, decide  # noqa: E402
from cardrules.engine.views.event_types import ScoreEvent  # noqa: E402
from cardrules.rules import Mode, Variant  # noqa: E402
from cardrules.simulate import game_seed  # noqa: E402

#: The ladder's variants (4 players each).
VARIANTS = ("oh-hell", "kachuful", "callbreak", "kazhutha", "spades", "hearts")
#: The ladder's bots, weakest first.
BOT_NAMES = ("random", "heuristic", "pimc", "ismcts")
#: The field: the bot in every seat the measured bot does not hold.
FIELD = "heuristic"

#: Two-sided 95% quantiles of Student's t by degrees of freedom (1 to 30);
#: beyond 30 the normal 1.96.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def interval(sample: Sequence[float]) -> tuple[float, float]:
    """The mean of ``sample`` and the half-width of its 95% interval (Student's t).

    Args:
        sample: independent observations (one per deal).

    Returns:
        ``(mean, half_width)``; the half-width is ``inf`` for fewer than 2
        observations.

    Example:
        >>> interval([1.0, 2.0, 3.0, 4.0])
        (2.5, 2.0539...)
    """
    n = len(sample)
    if n == 0:
        return (math.nan, math.inf)
    mean = statistics.fmean(sample)
    if n < 2:
        return (mean, math.inf)
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    return (mean, t * statistics.stdev(sample) / math.sqrt(n))


# --------------------------------------------------------------------------- bots


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class BotSpec:
    """A bot of the ladder: a label and how to build it from a seed.

    ``name`` is a registered bot (``cardrules.bots.BOTS``); ``options`` its
    keyword arguments (``pimc:worlds=8:policy=random``); or ``path`` an
    import path ``module:attr`` to a callable ``seed -> Bot`` from outside
    cardrules (imported again where the game is played, so it travels to
    worker processes by name); or ``factory`` any picklable ``seed -> Bot``.
    """

    label: str
    name: str = ""
    options: tuple[tuple[str, int | float | str], ...] = ()
    factory: BotFactory | None = None
    path: str = ""

    def build(self, seed: int) -> Bot:
        """A new bot of this kind with ``seed``.

        Raises:
            ValueError: if an outside bot cannot be imported or built, or
                what it builds cannot choose a move.
        """
        if self.factory is not None:
            return self.factory(seed)
        if self.path:
            bot = _import_path(self.path)(seed, **dict(self.options))
            if not any(
                callable(getattr(bot, m, None)) for m in ("choose", "choose_in", "choose_context")
            ):
                raise ValueError(f"{self.path} built {type(bot).__name__}, which has no choose")
            return bot  # type: ignore[no-any-return]
        maker: Callable[..., Bot] = BOTS[self.name]  # type: ignore[assignment]
        return maker(seed, **dict(self.options))

    @staticmethod
    def parse(spec: str | tuple[str, BotFactory] | BotSpec) -> BotSpec:
        """A spec from ``"name"``, ``"name:key=value:..."``,
        ``"package.module:Attr[:key=value...]"`` or ``(label, factory)``.

        Raises:
            ValueError: for an unknown bot name, an import path that does not
                import or names nothing callable, or a malformed option.
        """
        if isinstance(spec, BotSpec):
            return spec
        if isinstance(spec, tuple):
            label, factory = spec
            return BotSpec(label=label, factory=factory)
        if not isinstance(spec, str) or len(spec) > MAX_SPEC:
            raise ValueError(f"a bot is a name or an import path of at most {MAX_SPEC} characters")
        name, *opts = spec.strip().split(":")
        path = ""
        if name.strip().lower() not in BOTS and opts and "=" not in opts[0]:
            path = f"{name.strip()}:{opts.pop(0).strip()}"
            _import_path(path)  # refuse it now, not in a worker
        else:
            name = name.strip().lower()
            if name not in BOTS:
                raise ValueError(
                    f"unknown bot {name!r}: choose from {', '.join(sorted(BOTS))}, "
                    "or name one by its import path, package.module:Attr"
                )
        options = []
        for opt in opts:
            key, eq, val = opt.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"bot option {opt!r} is not key=value")
            options.append((key.strip(), _value(val.strip())))
        if path:
            return BotSpec(label=spec.strip(), options=tuple(options), path=path)
        return BotSpec(label=spec.strip(), name=name, options=tuple(options))


#: The longest bot spec accepted.
MAX_SPEC = 300


def _import_path(path: str) -> Callable[..., Any]:
    """The callable named by ``module:attr`` (``attr`` may be dotted).

    Raises:
        ValueError: if the module does not import or the name is not callable.
    """
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise ValueError(f"an import path is package.module:Attr, got {path!r}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"cannot import {module_name!r} for the bot {path!r}: {e}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{module_name!r} has no {attr!r} (the bot {path!r})")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"the bot {path!r} is not a class or function taking a seed")
    return obj  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- games


def sides(variant: Variant, players: int) -> tuple[tuple[int, ...], ...]:
    """The sides a ladder bot takes in turn: each team's seats, or each seat alone."""
    teams = variant.teams
    if teams and sum(map(len, teams)) == players:
        return tuple(tuple(t) for t in teams)
    return tuple((s,) for s in range(players))


@dataclass(frozen=True)
class _Task:
    """One game: a bot on one side of one deal (picklable)."""

    variant: Variant
    players: int
    bot: BotSpec
    field_bot: BotSpec
    seed: int
    deal: int
    side: tuple[int, ...]
    max_tricks: int


@dataclass(frozen=True)
class GameRecord:
    """What one ladder game gives: the measured side's figures.

    Attributes:
        bot: the measured bot's label.
        variant: the variant's name.
        deal: the deal's number.
        side: the seats the bot held.
        seats: each seat's bot label, for checking the rotation.
        game_seed: the seed the game was dealt from.
        hands: hands played.
        points: the side's total points (the first seat's total; partners share it).
        bids: bids the side made.
        exact: bids it made exactly.
        won: whether the side won (a shared win counts).
        lost: shedding games: whether a seat of the side was left holding cards.
        finished: whether the game reached its end.
        seconds: how long the game took.
        decisions: how many decisions the measured bot made.
        cpu_seconds: the CPU time of those decisions (``time.process_time``).
    """

    bot: str
    variant: str
    deal: int
    side: tuple[int, ...]
    seats: tuple[str, ...]
    game_seed: int
    hands: int
    points: float
    bids: int
    exact: int
    won: bool
    lost: bool
    finished: bool
    seconds: float
    decisions: int = 0
    cpu_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object (tuples as lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameRecord:
        """A record from :meth:`to_json`'s object.

        Raises:
            ValueError: if a field is missing or of the wrong kind.
        """
        try:
            return GameRecord(
                bot=str(data["bot"]),
                variant=str(data["variant"]),
                deal=int(data["deal"]),
                side=tuple(int(s) for s in data["side"]),
                seats=tuple(str(s) for s in data["seats"]),
                game_seed=int(data["game_seed"]),
                hands=int(data["hands"]),
                points=float(data["points"]),
                bids=int(data["bids"]),
                exact=int(data["exact"]),
                won=bool(data["won"]),
                lost=bool(data["lost"]),
                finished=bool(data["finished"]),
                seconds=float(data["seconds"]),
                decisions=int(data.get("decisions", 0)),
                cpu_seconds=float(data.get("cpu_seconds", 0.0)),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a ladder game: {e}") from None


def play_one(task: _Task) -> GameRecord:
    """Play one ladder game (the unit of work handed to the executor)."""
    t0 = time.perf_counter()
    seed = game_seed(task.seed, task.deal)
    g = Game(task.variant, players=task.players, seed=seed, max_tricks=task.max_tricks)
    bots = [
        (task.bot if s in task.side else task.field_bot).build(game_seed(task.seed, task.deal, s))
        for s in range(task.players)
    ]
    side = task.side
    decisions = 0
    cpu = 0.0
    clock = time.process_time
    while not g.is_over:
        seat = g.to_act
        if seat is None:
            seat = min(g.waiting_for)
        if seat in side:
            c0 = clock()
            action = decide(bots[seat], g, seat)
            cpu += clock() - c0
            decisions += 1
        else:
            action = decide(bots[seat], g, seat)
        g.apply(action, seat)
    hands = bids = exact = 0
    for ev in g.events:
        if not isinstance(ev, ScoreEvent):
            continue
        hands += 1
        for s in task.side:
            b = ev.bids[s]
            if b is not None:
                bids += 1
                exact += int(b == ev.tricks[s])
    res = g.result
    assert res is not None
    if task.variant.mode is Mode.SHEDDING:
        hands = max(hands, 1)
    me = task.side[0]
    return GameRecord(
        bot=task.bot.label,
        variant=task.variant.name,
        deal=task.deal,
        side=task.side,
        seats=tuple(
            task.bot.label if s in task.side else task.field_bot.label for s in range(task.players)
        ),
        game_seed=seed,
        hands=hands,
        points=float(res.totals[me]),
        bids=bids,
        exact=exact,
        won=me in res.winners,
        lost=res.loser is not None and res.loser in task.side,
        finished=res.finished,
        seconds=time.perf_counter() - t0,
        decisions=decisions,
        cpu_seconds=cpu,
    )


# --------------------------------------------------------------------------- the ladder


@dataclass
class Row:
    """One bot's figures on one variant (see :func:`run_ladder`)."""

    bot: str
    variant: str
    games: int
    hands: int
    deals: int
    exact_rate: float | None
    points_per_hand: float
    points_ci: float
    margin: float | None
    margin_ci: float | None
    win_rate: float
    loss_rate: float | None
    seconds_per_game: float
    cpu_ms_per_decision: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (infinite and missing figures as ``None``)."""
        out: dict[str, Any] = {}
        for k, v in self.__dict__.items():
            out[k] = None if isinstance(v, float) and not math.isfinite(v) else v
        return out


@dataclass
class Ladder:
    """The ladder's rows and games."""

    rows: list[Row]
    records: list[GameRecord] = field(repr=False)
    settings: dict[str, Any]

    def row(self, bot: str, variant: str) -> Row:
        """The row of ``bot`` on ``variant``."""
        for r in self.rows:
            if r.bot == bot and r.variant == variant:
                return r
        raise KeyError((bot, variant))


Unit = tuple[int, tuple[int, ...]]


def _per_unit(records: Iterable[GameRecord], higher_wins: bool) -> dict[Unit, float]:
    """Each game's points per hand, by (deal, side), in the direction that wins."""
    sign = 1.0 if higher_wins else -1.0
    return {(r.deal, r.side): sign * r.points / max(1, r.hands) for r in records}


def _rows(
    variant: Variant, records: list[GameRecord], labels: Sequence[str], field_label: str
) -> list[Row]:
    higher = variant.scoring.higher_wins
    shedding = variant.mode is Mode.SHEDDING
    by_bot = {b: [r for r in records if r.bot == b] for b in labels}
    field_units = _per_unit(by_bot.get(field_label, []), higher)
    if shedding:
        field_units = _loss_per_unit(by_bot.get(field_label, []))
    rows = []
    for b in labels:
        recs = by_bot[b]
        if not recs:
            continue
        units = _per_unit(recs, higher)
        mean, ci = interval([v if higher else -v for v in units.values()])
        own = _loss_per_unit(recs) if shedding else units
        margin = margin_ci = None
        if by_bot.get(field_label):
            common = sorted(set(own) & set(field_units))
            diffs = [own[u] - field_units[u] for u in common]
            if shedding:  # fewer losses is better
                diffs = [-x for x in diffs]
            margin, margin_ci = interval(diffs)
        bids = sum(r.bids for r in recs)
        finished = [r for r in recs if r.finished]
        decisions = sum(r.decisions for r in recs)
        rows.append(
            Row(
                bot=b,
                variant=variant.name,
                games=len(recs),
                hands=sum(r.hands for r in recs),
                deals=len({r.deal for r in recs}),
                exact_rate=sum(r.exact for r in recs) / bids if bids else None,
                points_per_hand=mean,
                points_ci=ci,
                margin=margin,
                margin_ci=margin_ci,
                win_rate=sum(r.won for r in finished) / len(finished) if finished else math.nan,
                loss_rate=(sum(r.lost for r in finished) / len(finished) if finished else math.nan)
                if shedding
                else None,
                seconds_per_game=statistics.fmean(r.seconds for r in recs),
                cpu_ms_per_decision=(
                    1000 * sum(r.cpu_seconds for r in recs) / decisions if decisions else math.nan
                ),
            )
        )
    return rows


def _loss_per_unit(records: Iterable[GameRecord]) -> dict[Unit, float]:
    return {(r.deal, r.side): float(r.lost) for r in records}


def tasks_for(
    variants: Sequence[Variant],
    players: int,
    specs: Sequence[BotSpec],
    field_spec: BotSpec,
    deals: int,
    seed: int,
    max_tricks: int,
) -> list[_Task]:
    """Every game of a ladder: each bot on each side of each deal of each variant."""
    out = []
    for v in variants:
        for deal in range(deals):
            for spec in specs:
                for side in sides(v, players):
                    out.append(_Task(v, players, spec, field_spec, seed, deal, side, max_tricks))
    return out


def run_ladder(
    bots: Sequence[str | tuple[str, BotFactory] | BotSpec] = BOT_NAMES,
    variants: Sequence[str | Variant] = VARIANTS,
    deals: int = 10,
    *,
    players: int = 4,
    field_bot: str | tuple[str, BotFactory] | BotSpec = FIELD,
    seed: int = 2024,
    executor: cf.Executor | None = None,
    jobs: int = 1,
    max_tricks: int = 5000,
    progress: Callable[[int, int], None] | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
) -> Ladder:
    """Play the ladder and summarise it.

    Args:
        bots: the bots to rank: registered names (``"pimc"``), names with
            budgets (``"ismcts:iterations=100"``), or ``(label, factory)``
            pairs (a picklable ``seed -> Bot``).
        variants: variants by name or as :class:`Variant`.
        deals: deals (seeded games) per variant; each is played once per bot
            and side.
        players: seats at the table.
        field_bot: the bot in the other seats (the heuristic bot).
        seed: the ladder's seed (deal ``i`` is dealt from
            ``simulate.game_seed(seed, i)``).
        executor: where to play the games (any
            :class:`concurrent.futures.Executor`, as for ``cardrules.simulate``).
        jobs: without ``executor``: 1 plays here, more on a process pool.
        max_tricks: a bound on the tricks of one game.
        progress: called as ``progress(done, total)`` after each game.
        out: a file to append each game to, as a JSON line
            (:meth:`GameRecord.to_json` and the ladder's ``seed``,
            ``players``, ``field`` and ``max_tricks``), written as soon as the
            game is played.
        resume: with ``out``: read the games ``out`` holds and play only the
            others (the figures are those of every game). Without it, an
            ``out`` that already holds games is refused.

    Returns:
        The :class:`Ladder`.

    Raises:
        ValueError: for a bad bot, or an ``out`` that holds games (without
            ``resume``), or games of another ladder (another seed, players,
            field or bound), or a line that is not a ladder game.
    """
    specs = [BotSpec.parse(b) for b in bots]
    field_spec = BotSpec.parse(field_bot)
    vs = [load(v) if isinstance(v, str) else v for v in variants]
    tasks = tasks_for(vs, players, specs, field_spec, deals, seed, max_tricks)
    meta = {"ladder_seed": seed, "players": players, "field": field_spec.label}
    meta["max_tricks"] = max_tricks
    records: list[GameRecord] = []
    total = len(tasks)
    sink: TextIO | None = None
    if out is not None:
        wanted = {_task_key(t) for t in tasks}
        records = [r for r in _read_out(out, meta, resume) if _record_key(r) in wanted]
        have = {_record_key(r) for r in records}
        tasks = [t for t in tasks if _task_key(t) not in have]
        sink = open(out, "a", encoding="utf-8")  # noqa: SIM115  # closed below

    def keep(rec: GameRecord) -> None:
        records.append(rec)
        if sink is not None:
            sink.write(json.dumps({**rec.to_json(), **meta}, sort_keys=True) + "\n")
            sink.flush()
        if progress is not None:
            progress(len(records), total)

    try:
        _play_all(tasks, executor, jobs, keep)
    finally:
        if sink is not None:
            sink.close()
    records.sort(key=lambda r: (r.variant, r.bot, r.deal, r.side))
    labels = [s.label for s in specs]
    rows: list[Row] = []
    for v in vs:
        rows += _rows(v, [r for r in records if r.variant == v.name], labels, field_spec.label)
    settings = {
        "bots": labels,
        "field": field_spec.label,
        "variants": [v.name for v in vs],
        "deals": deals,
        "players": players,
        "seed": seed,
    }
    return Ladder(rows=rows, records=records, settings=settings)


def _play_all(
    tasks: Sequence[_Task],
    executor: cf.Executor | None,
    jobs: int,
    keep: Callable[[GameRecord], None],
) -> None:
    """Play ``tasks`` here or on the executor, handing each game to ``keep``."""
    if executor is None and jobs == 1:
        for t in tasks:
            keep(play_one(t))
        return
    own = executor is None
    ex = cf.ProcessPoolExecutor(max_workers=jobs) if executor is None else executor
    try:
        futures = [ex.submit(play_one, t) for t in tasks]
        for fut in cf.as_completed(futures):
            keep(fut.result())
    finally:
        if own:
            ex.shutdown(wait=True, cancel_futures=True)


def _task_key(t: _Task) -> tuple[str, str, int, tuple[int, ...]]:
    return (t.variant.name, t.bot.label, t.deal, t.side)


def _record_key(r: GameRecord) -> tuple[str, str, int, tuple[int, ...]]:
    return (r.variant, r.bot, r.deal, r.side)


#: The largest results file ``--resume`` reads.
MAX_OUT_BYTES = 500_000_000


def _read_out(out: str | os.PathLike[str], meta: dict[str, Any], resume: bool) -> list[GameRecord]:
    """The games a results file holds (none if it is missing or empty).

    A last line cut short (a run killed while writing it) is dropped, and the
    file cut back to its last whole line.
    """
    path = Path(out)
    if not path.exists() or path.stat().st_size == 0:
        return []
    if not path.is_file():
        raise ValueError(f"{path} is not a file")
    if not resume:
        raise ValueError(f"{path} already holds games: --resume to go on, or remove it")
    if path.stat().st_size > MAX_OUT_BYTES:
        raise ValueError(f"{path} is larger than {MAX_OUT_BYTES:,} bytes")
    data = path.read_bytes()
    if not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        with path.open("r+b") as f:
            f.truncate(len(data))
    out_records = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            raise ValueError(f"{path}:{number}: not a JSON line") from None
        if not isinstance(obj, dict):
            raise ValueError(f"{path}:{number}: not a ladder game")
        other = {k: obj.get(k) for k in meta}
        if other != meta:
            raise ValueError(f"{path}:{number}: a game of another ladder ({other}, not {meta})")
        try:
            out_records.append(GameRecord.from_json(obj))
        except ValueError as e:
            raise ValueError(f"{path}:{number}: {e}") from None
    return out_records


# --------------------------------------------------------------------------- output


def _pm(mean: float | None, ci: float | None, digits: int = 2) -> str:
    if mean is None or ci is None or not math.isfinite(mean):
        return "-"
    if not math.isfinite(ci):
        return f"{mean:+.{digits}f}"
    return f"{mean:+.{digits}f} ± {ci:.{digits}f}"


def markdown(ladder: Ladder) -> str:
    """The ladder as a Markdown table (one block per variant)."""
    lines = [
        "| variant | bot | games | exact bids | points/hand (95%) | margin over field (95%) "
        "| win rate | s/game | CPU ms/decision |",
        "|:--|:--|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in ladder.rows:
        exact = "-" if r.exact_rate is None else f"{100 * r.exact_rate:.1f}%"
        rate, word = (r.win_rate, "") if r.loss_rate is None else (r.loss_rate, "lost ")
        win = f"{word}{100 * rate:.1f}%" if math.isfinite(rate) else "-"
        points = _pm(r.points_per_hand, r.points_ci)
        cpu = f"{r.cpu_ms_per_decision:.2f}" if math.isfinite(r.cpu_ms_per_decision) else "-"
        lines.append(
            f"| {r.variant} | {r.bot} | {r.games} | {exact} | {points} "
            f"| {_pm(r.margin, r.margin_ci)} | {win} | {r.seconds_per_game:.2f} | {cpu} |"
        )
    return "\n".join(lines)


#: Budgets by mode: deals per variant, and the search bots' budgets.
MODES: dict[str, dict[str, Any]] = {
    "full": {"deals": 20, "bots": ("random", "heuristic", "pimc", "ismcts")},
    "quick": {"deals": 3, "bots": ("random", "heuristic", "pimc", "ismcts")},
    "smoke": {
        "deals": 1,
        "bots": ("random", "heuristic", "pimc:worlds=1", "ismcts:iterations=4"),
        "variants": ("oh-hell", "kazhutha", "spades"),
        "max_tricks": 30,
    },
}


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (``python benchmarks/ladder.py --help``)."""
    p = argparse.ArgumentParser(description="the bot ladder on duplicate deals")
    p.add_argument("--quick", action="store_true", help="a short ladder (a few minutes)")
    p.add_argument("--smoke", action="store_true", help="check it runs (figures mean nothing)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    p.add_argument("--deals", type=int, default=None, help="deals per variant")
    p.add_argument("--seed", type=int, default=2024, help="the ladder's seed (2024)")
    p.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots, e.g. pimc:worlds=8, or an outside bot by its "
        "import path, mypkg.mybots:MyBot[:key=value]",
    )
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="one more bot (a name or mypkg.mybots:MyBot); repeatable, added after --bots",
    )
    p.add_argument(
        "--out", default=None, metavar="FILE", help="append each game to FILE as a JSON line"
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="with --out: play only the games FILE does not hold yet",
    )
    p.add_argument("--variants", default=None, help="comma-separated variants")
    args = p.parse_args(argv)
    if not 1 <= args.jobs <= 32:
        p.error("--jobs must be from 1 to 32")
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    cfg = MODES[mode]
    if args.resume and args.out is None:
        p.error("--resume needs --out FILE")
    bots = args.bots.split(",") if args.bots else ([] if args.bot else list(cfg["bots"]))
    bots += args.bot
    variants = args.variants.split(",") if args.variants else list(cfg.get("variants", VARIANTS))
    deals = args.deals if args.deals is not None else cfg["deals"]
    if not 1 <= deals <= 100_000:
        p.error("--deals must be from 1 to 100,000")
    t0 = time.perf_counter()
    # The progress of the run on standard error: a live bar on a terminal (rich
    # when installed), plain lines at each tenth in a pipe or a log.
    from cardrules.commands.progress import progress_bar

    try:
        with progress_bar("ladder", sys.stderr) as bar:
            ladder = run_ladder(
                bots,
                variants,
                deals,
                seed=args.seed,
                jobs=args.jobs,
                max_tricks=cfg.get("max_tricks", 5000),
                progress=bar,
                out=args.out,
                resume=args.resume,
            )
    except ValueError as e:
        p.error(str(e))
    elapsed = time.perf_counter() - t0
    if args.json:
        out = {
            "mode": mode,
            "settings": ladder.settings,
            "seconds": elapsed,
            "rows": [r.to_dict() for r in ladder.rows],
        }
        print(json.dumps(out, indent=2))
    else:
        print(f"bot ladder ({'--' + mode if mode != 'full' else 'full'}): {ladder.settings}")
        print(markdown(ladder))
        print(f"{len(ladder.records)} games in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
