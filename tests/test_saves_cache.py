"""The speed work on saves (issue 13, item 9) keeps what a save says and what it
refuses: ``to_json`` writes exactly ``json.dumps`` of its object with the variant
part cached, and ``from_json`` caches only variants that passed every check, by
their rules text and idle settings, in a bounded cache.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator

import pytest

import cardrules
from cardrules.dsl import builtin_names, load_text
from cardrules.engine import Game
from cardrules.engine.state import saves
from cardrules.errors import SaveError


@pytest.fixture(autouse=True)
def _cold_caches() -> Iterator[None]:
    saves._clear_variant_cache()
    yield
    saves._clear_variant_cache()


def _played(v: cardrules.Variant, players: int, seed: int, steps: int | None) -> Game:
    g = Game(v, players=players, seed=seed)
    rng = random.Random(seed)
    k = 0
    while not g.is_over and (steps is None or k < steps):
        seat = rng.choice(sorted(g.waiting_for))
        g.apply(rng.choice(g.legal_actions(seat)), seat)
        k += 1
    return g


def _message(fn: object) -> str:
    assert callable(fn)
    with pytest.raises(SaveError) as info:
        fn()
    return str(info.value)


@pytest.mark.parametrize("name", builtin_names())
def test_to_json_is_the_compact_json_of_its_object_every_variant(name: str) -> None:
    """The spliced text (the variant part cached) is the text ``json.dumps`` makes
    of the whole object, with the keys in the save's order, cache cold or warm."""
    v = cardrules.load(name)
    for steps in (0, 17, None):
        g = _played(v, v.players.min, seed=5, steps=steps)
        saves._clear_variant_cache()
        cold = g.to_json()
        warm = g.to_json()
        assert warm == cold
        d = json.loads(cold)
        assert cold == json.dumps(d, ensure_ascii=False, separators=(",", ":"))
        assert list(d)[:4] == ["format", "version", "variant", "players"]
        assert d["variant"]["name"] == v.name
        restored = Game.from_json(cold)
        assert restored == g and restored.to_json() == cold


def test_a_second_restore_reuses_the_variant_of_the_first() -> None:
    g = _played(cardrules.load("kachuful"), 4, seed=2, steps=40)
    text = g.to_json()
    first, second = Game.from_json(text), Game.from_json(text)
    assert first == second == g
    assert first.variant is second.variant
    assert first.variant == g.variant
    # A game made from the restored variant saves the same rules.
    assert json.loads(second.to_json())["variant"] == json.loads(text)["variant"]


def test_the_idle_settings_are_part_of_what_is_cached() -> None:
    """A line that changes nothing is a warning only for the settings the save
    lists as idle: the same rules text with another idle list is checked again,
    and refused as it is with a cold cache."""
    v = load_text("game: house\nextends: oh-hell-trumps-broken\ntrumps: none\n")
    text = _played(v, 4, seed=1, steps=6).to_json()
    assert json.loads(text)["variant"]["idle"] == ["leading trumps"]
    Game.from_json(text)  # cached with its idle list
    d = json.loads(text)
    d["variant"]["idle"] = []
    bad = json.dumps(d, ensure_ascii=False)
    warm = _message(lambda: Game.from_json(bad))
    saves._clear_variant_cache()
    cold = _message(lambda: Game.from_json(bad))
    assert warm == cold
    assert "leading trumps" in warm


def test_refused_rules_are_refused_every_time_and_never_cached() -> None:
    text = _played(cardrules.load("oh-hell"), 4, seed=3, steps=9).to_json()
    d = json.loads(text)
    d["variant"]["rules"] = d["variant"]["rules"].replace("players: 3 to 7", "players: 9 to 3")
    assert d["variant"]["rules"] != json.loads(text)["variant"]["rules"]
    bad = json.dumps(d, ensure_ascii=False)
    messages = {_message(lambda: Game.from_json(bad)) for _ in range(3)}
    assert len(messages) == 1
    assert "the save's rules are not a valid variant" in messages.pop()
    assert not any(key[0] == d["variant"]["rules"] for key in saves._VARIANTS)
    assert Game.from_json(text).to_json() == text


def test_the_variant_cache_is_bounded_and_keeps_the_latest() -> None:
    texts = []
    for i in range(saves._MAX_CACHED_VARIANTS + 6):
        v = load_text(f'game: house-{i}\nextends: oh-hell\ntitle: "House {i}"\n')
        texts.append(_played(v, 4, seed=i, steps=5).to_json())
    for t in texts:
        Game.from_json(t)
    assert len(saves._VARIANTS) == saves._MAX_CACHED_VARIANTS
    names = {v.name for v in saves._VARIANTS.values()}
    assert "house-0" not in names
    assert f"house-{len(texts) - 1}" in names
    # A hit moves a variant to the back: restoring the oldest kept one keeps it
    # through the next insertion.
    oldest = next(iter(saves._VARIANTS.values())).name
    Game.from_json(texts[int(oldest.split("-")[1])])
    Game.from_json(texts[0])  # parsed again, evicting another
    assert oldest in {v.name for v in saves._VARIANTS.values()}
    assert len(saves._VARIANTS) == saves._MAX_CACHED_VARIANTS


def test_cards_in_other_spellings_and_orders_still_restore() -> None:
    """A deal's cards are read through a table of the texts ``to_json`` writes;
    any other spelling ``card`` reads, in any order, is read as before, and a
    card that is none is refused with the same message."""
    g = _played(cardrules.load("oh-hell"), 4, seed=4, steps=10)
    d = json.loads(g.to_json())
    hand = d["deals"][0]["hands"][0]
    d["deals"][0]["hands"][0] = [cardrules.card(x).code.lower() for x in reversed(hand)]
    assert Game.from_json(json.dumps(d, ensure_ascii=False)) == g
    d["deals"][0]["hands"][0][0] = "Z♠"
    message = _message(lambda: Game.from_json(json.dumps(d, ensure_ascii=False)))
    assert message.startswith("deal 1: seat 0: ")
    d["deals"][0]["hands"][0][0] = 7
    message = _message(lambda: Game.from_json(json.dumps(d, ensure_ascii=False)))
    assert message == "deal 1: seat 0: 7 is not a card"


def test_threads_restore_and_save_alike_while_the_cache_is_emptied() -> None:
    games = [_played(cardrules.load(n), 4, seed=6, steps=30) for n in ("kachuful", "spades")]
    texts = [g.to_json() for g in games]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for i in range(40):
                t = texts[(i + k) % 2]
                assert Game.from_json(t).to_json() == t
                if i % 7 == k:
                    saves._clear_variant_cache()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
