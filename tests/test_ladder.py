"""The bot ladder (benchmarks/ladder.py): duplicate deals really rotated, its
arithmetic, any executor, and the ``--smoke`` run."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import sys
from pathlib import Path

import pytest

from cardrules import load

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import ladder


def test_interval_on_a_known_sample() -> None:
    """Mean and Student-t half-width: 1, 2, 3, 4 has mean 2.5, sd sqrt(5/3),
    t(3) = 3.182, so 3.182 * 1.29099 / 2 = 2.0540 (to 4 places)."""
    mean, half = ladder.interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(3.182 * math.sqrt(5 / 3) / 2, rel=1e-9)
    assert half == pytest.approx(2.0540, abs=1e-4)
    # Beyond 31 observations: the normal 1.96.
    sample = [float(i % 2) for i in range(100)]
    assert ladder.interval(sample)[1] == pytest.approx(1.96 * 0.502519 / 10, rel=1e-5)
    assert ladder.interval([3.0]) == (3.0, math.inf)
    assert math.isnan(ladder.interval([])[0])


def test_sides_are_seats_or_teams() -> None:
    assert ladder.sides(load("oh-hell"), 4) == ((0,), (1,), (2,), (3,))
    assert ladder.sides(load("spades"), 4) == ((0, 2), (1, 3))


def test_every_bot_plays_every_side_of_the_same_deals() -> None:
    """The duplicate design: each (variant, deal) is played once per bot and
    side, from the same seed, the bot in its side's seats and the field bot in
    every other seat."""
    lad = ladder.run_ladder(["random", "heuristic"], ["oh-hell", "spades"], 2, seed=5)
    for variant, sides in (("oh-hell", 4), ("spades", 2)):
        recs = [r for r in lad.records if r.variant == variant]
        assert len(recs) == 2 * 2 * sides  # bots x deals x sides
        for deal in (0, 1):
            here = [r for r in recs if r.deal == deal]
            assert len({r.game_seed for r in here}) == 1, "not the same deal"
            for bot in ("random", "heuristic"):
                mine = [r for r in here if r.bot == bot]
                assert sorted(r.side for r in mine) == list(ladder.sides(load(variant), 4))
                for r in mine:
                    assert all(
                        (label == bot) if s in r.side else (label == "heuristic")
                        for s, label in enumerate(r.seats)
                    )
        # Different deals are different games.
        assert len({r.game_seed for r in recs}) == 2
    # The field bot playing itself: its margin over the field is exactly 0.
    row = lad.row("heuristic", "oh-hell")
    assert row.margin == 0.0 and row.margin_ci == 0.0
    assert lad.row("random", "oh-hell").margin < 0


def _rec(bot: str, deal: int, side: int, points: float, hands: int = 2) -> ladder.GameRecord:
    return ladder.GameRecord(
        bot=bot,
        variant="oh-hell",
        deal=deal,
        side=(side,),
        seats=(),
        game_seed=deal,
        hands=hands,
        points=points,
        bids=hands,
        exact=1,
        won=side == 0,
        lost=False,
        finished=True,
        seconds=0.0,
    )


def test_rows_pair_each_game_with_the_field_on_the_same_deal_and_side() -> None:
    """Points per hand are per game (deal, side); the margin is the paired
    difference with the field bot's game on the same deal and side."""
    recs = [
        _rec("a", 0, 0, 10), _rec("a", 0, 1, 30),  # 5, 15 a hand
        _rec("a", 1, 0, 20), _rec("a", 1, 1, 20),  # 10, 10
        _rec("h", 0, 0, 8), _rec("h", 0, 1, 8),    # 4, 4
        _rec("h", 1, 0, 12), _rec("h", 1, 1, 16),  # 6, 8
    ]  # fmt: skip
    a, h = ladder._rows(load("oh-hell"), recs, ["a", "h"], "h")
    assert a.points_per_hand == 10.0
    assert a.points_ci == pytest.approx(3.182 * math.sqrt(50 / 3) / 2)  # 5, 15, 10, 10
    assert h.points_per_hand == 5.5
    assert a.margin == pytest.approx(4.5)  # differences 1, 11, 4, 2
    assert a.margin_ci == pytest.approx(3.182 * math.sqrt(61 / 3) / 2)
    assert a.exact_rate == 0.5 and a.win_rate == 0.5
    assert a.games == 4 and a.hands == 8 and a.deals == 2


def test_lowest_wins_counts_fewer_points_as_better() -> None:
    """In Hearts the margin is in the direction that wins: fewer points."""
    recs = [
        ladder.GameRecord("a", "hearts", d, (0,), (), d, 1, p, 0, 0, False, False, True, 0.0)
        for d, p in ((0, 2.0), (1, 4.0))
    ] + [
        ladder.GameRecord("h", "hearts", d, (0,), (), d, 1, p, 0, 0, False, False, True, 0.0)
        for d, p in ((0, 6.0), (1, 6.0))
    ]
    a, _ = ladder._rows(load("hearts"), recs, ["a", "h"], "h")
    assert a.points_per_hand == 3.0  # reported as taken
    assert a.margin == 3.0  # 3 fewer a hand than the field
    assert a.exact_rate is None


def test_any_executor_gives_the_same_ladder() -> None:
    """A thread pool (any concurrent.futures.Executor) gives the same figures."""
    args = (["random", "heuristic"], ["kazhutha"], 2)
    serial = ladder.run_ladder(*args, seed=1)
    with cf.ThreadPoolExecutor(2) as ex:
        pooled = ladder.run_ladder(*args, seed=1, executor=ex)
    assert _figures(serial) == _figures(pooled)
    row = serial.row("random", "kazhutha")
    assert row.loss_rate is not None and row.exact_rate is None


def test_bot_specs_parse_budgets() -> None:
    spec = ladder.BotSpec.parse("pimc:worlds=3:policy=random")
    assert spec.options == (("worlds", 3), ("policy", "random"))
    assert spec.build(1).worlds == 3  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        ladder.BotSpec.parse("oracle")
    with pytest.raises(ValueError):
        ladder.BotSpec.parse("pimc:worlds")


def test_smoke_run_prints_every_bot_and_variant(capsys: pytest.CaptureFixture[str]) -> None:
    """``ladder.py --smoke --json`` runs end to end, with a row per bot and variant."""
    assert ladder.main(["--smoke", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "smoke"
    rows = {(r["variant"], r["bot"]) for r in out["rows"]}
    assert rows == {
        (v, b) for v in ladder.MODES["smoke"]["variants"] for b in out["settings"]["bots"]
    }
    assert ladder.main(["--smoke"]) == 0
    text = capsys.readouterr().out
    assert "| variant | bot |" in text and "pimc" in text and "ismcts" in text


# ------------------------------------------------- CPU, outside bots, results as it goes (issue 24)


def _figures(lad: ladder.Ladder) -> list[dict[str, object]]:
    """The rows without the timings (which differ from run to run)."""
    drop = ("seconds_per_game", "cpu_ms_per_decision")
    return [{k: v for k, v in r.to_dict().items() if k not in drop} for r in lad.rows]


def test_cpu_time_per_decision_is_measured_for_the_measured_bot_only() -> None:
    lad = ladder.run_ladder(["random", "heuristic"], ["oh-hell"], 1, seed=3)
    for r in lad.records:
        assert r.decisions >= 19 + 109 and r.cpu_seconds >= 0.0  # 19 bids, 109 cards
    row = lad.row("heuristic", "oh-hell")
    assert math.isfinite(row.cpu_ms_per_decision) and row.cpu_ms_per_decision >= 0
    assert "CPU ms/decision" in ladder.markdown(lad).splitlines()[0]


BOT_MODULE = '''
from cardrules.bots import RandomBot


class FirstLegal:
    """Always the first legal move (a bot from outside cardrules)."""

    def __init__(self, seed, offset=0):
        self.offset = offset

    def choose(self, view):
        legal = view.legal_actions
        return legal[min(self.offset, len(legal) - 1)]


def random_bot(seed):
    return RandomBot(seed)


NOT_CALLABLE = 3
'''


@pytest.fixture
def outside_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "ladder_outside_bots.py").write_text(BOT_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "ladder_outside_bots"


def test_an_outside_bot_is_named_by_its_import_path(outside_bots: str) -> None:
    spec = ladder.BotSpec.parse(f"{outside_bots}:FirstLegal:offset=1")
    assert spec.path == f"{outside_bots}:FirstLegal" and spec.options == (("offset", 1),)
    assert spec.build(5).offset == 1  # type: ignore[attr-defined]
    lad = ladder.run_ladder(
        [f"{outside_bots}:FirstLegal", f"{outside_bots}:random_bot", "random"], ["kazhutha"], 1
    )
    assert {r.bot for r in lad.records} == {
        f"{outside_bots}:FirstLegal",
        f"{outside_bots}:random_bot",
        "random",
    }
    # the outside random bot is the registered one under another name: same games
    by = {r.bot: r for r in lad.rows}
    assert by[f"{outside_bots}:random_bot"].loss_rate == by["random"].loss_rate
    for bad, message in [
        ("no_such_module_xyz:Bot", "cannot import"),
        (f"{outside_bots}:Missing", "has no"),
        (f"{outside_bots}:NOT_CALLABLE", "not a class or function"),
        (f"{outside_bots}:FirstLegal:offset", "not key=value"),
        ("x" * 400, "at most"),
    ]:
        with pytest.raises(ValueError, match=message):
            ladder.BotSpec.parse(bad)


def test_the_command_takes_outside_bots(
    outside_bots: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--smoke", "--json", "--variants", "kazhutha"]
    assert ladder.main([*argv, "--bot", f"{outside_bots}:FirstLegal", "--bot", "random"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["bots"] == [f"{outside_bots}:FirstLegal", "random"]


def test_results_are_written_as_it_goes_and_a_cut_run_resumes(tmp_path: Path) -> None:
    args = (["random", "heuristic"], ["oh-hell", "spades"], 2)
    whole = ladder.run_ladder(*args, seed=9)
    out = tmp_path / "games.jsonl"
    first = ladder.run_ladder(*args, seed=9, out=out)
    lines = out.read_text().splitlines()
    assert len(lines) == len(whole.records) == 2 * 2 * (4 + 2)
    assert _figures(first) == _figures(whole)
    assert all(json.loads(line)["ladder_seed"] == 9 for line in lines)
    # a run killed after five games, halfway through writing the sixth
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][:17])
    seen: list[tuple[int, int]] = []
    again = ladder.run_ladder(
        *args, seed=9, out=out, resume=True, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[0] == (6, len(lines)) and seen[-1] == (len(lines), len(lines))
    assert _figures(again) == _figures(whole)
    assert len(out.read_text().splitlines()) == len(lines)
    # resuming a finished run plays nothing
    assert _figures(ladder.run_ladder(*args, seed=9, out=out, resume=True)) == _figures(whole)
    assert len(out.read_text().splitlines()) == len(lines)
    with pytest.raises(ValueError, match="already holds games"):
        ladder.run_ladder(*args, seed=9, out=out)
    with pytest.raises(ValueError, match="another ladder"):
        ladder.run_ladder(*args, seed=10, out=out, resume=True)
    out.write_text("[1, 2]\n")
    with pytest.raises(ValueError, match="not a ladder game"):
        ladder.run_ladder(*args, seed=9, out=out, resume=True)


def test_the_command_writes_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "smoke.jsonl"
    argv = ["--smoke", "--json", "--variants", "oh-hell", "--bots", "random", "--out", str(out)]
    assert ladder.main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert len(out.read_text().splitlines()) == 4
    assert ladder.main([*argv, "--resume"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0]["games"] == first["rows"][0]["games"]
    with pytest.raises(SystemExit):
        ladder.main(["--smoke", "--resume"])
