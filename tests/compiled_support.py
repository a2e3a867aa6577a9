"""Games played the same way by the pure-Python and the mypyc-compiled engine.

``tests/test_compiled_build.py`` runs this file in a child process, once with the
checkout first on ``sys.path`` (the pure-Python engine) and once with a scratch
directory holding the compiled wheel first (the compiled engine), and compares
what the two print. Run as a script::

    python tests/compiled_support.py WHERE KIND MODULE...

``WHERE`` is put first on ``sys.path`` before ``cardrules`` is imported;
``KIND`` is ``pure`` or ``compiled``, what every ``MODULE`` (dotted names, the
modules of ``hatch_build.COMPILED``) must be imported as, from ``WHERE``. It
prints one JSON object: where each module was imported from, and what
:func:`play_cases` played.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardrules import Game

#: The games played: a whole game of a trick game with bids and trumps
#: (Kachuful), of the shedding game (Kazhutha), and of a partnership game that
#: calls trumps and goes alone (Euchre), each from two seeds.
CASES = (
    ("kachuful", 4, 1),
    ("kachuful", 4, 2),
    ("kazhutha", 4, 1),
    ("kazhutha", 5, 2),
    ("euchre", 4, 1),
    ("euchre", 4, 2),
)

#: At most this many take-backs in a game (each agreed to by every seat asked).
TAKE_BACKS = 6
#: The step at which the game is cloned (and the clone played on apart), and
#: the step at which it is saved and the game goes on from the loaded save.
CLONE_AT, SAVE_AT = 25, 40


def log(g: Game) -> list[str]:
    """The whole event log of ``g``, one ``repr`` of its tuple form an event."""
    return [repr(ev.astuple()) for ev in g.events]


def digest(g: Game) -> str:
    """A short digest of :func:`log` (for the side games, whose logs are not kept)."""
    return hashlib.sha256("\n".join(log(g)).encode()).hexdigest()[:16]


def step(g: Game, rng: random.Random) -> None:
    """One random legal action, of the lowest seat the game waits for."""
    seat = min(g.waiting_for)
    g.apply(rng.choice(g.legal_actions(seat)), seat)


def try_take_back(g: Game, notes: list[str]) -> bool:
    """A take-back by the first seat that may make one: alone if it may, else
    by a request every seat asked agrees to. Whether one was made."""
    for seat in range(g.players):
        if g.can_undo(seat):
            notes.append(f"seat {seat} took back {g.take_back(seat)!r}")
            return True
    for seat in range(g.players):
        if g.can_request_take_back(seat):
            request = g.request_take_back(seat)
            undone: tuple[Any, ...] = ()
            for asked in request.asked:
                undone = g.answer(asked, True)
            notes.append(f"seat {seat} took back {undone!r} with {request.asked}")
            return True
    return False


def play_case(name: str, players: int, seed: int) -> dict[str, Any]:
    """A whole seeded game of ``name`` by a seeded random policy, with
    take-backs, an engine undo now and then, a clone played on apart, and a
    save the game goes on from; then a whole game by ``Game.playout``.

    Returns:
        The log, result and final save of the game, and what was checked on
        the way (every check is also compared between the two engines).
    """
    import cardrules
    from cardrules import Game

    variant = cardrules.load(name)
    g = Game(variant, players, seed, take_backs="before the hand ends")
    rng = random.Random(seed)
    notes: list[str] = []  # the take-backs
    undos: list[str] = []
    checks: dict[str, Any] = {}
    steps = since_take_back = 0
    while not g.is_over and steps < 20_000:
        steps += 1
        if steps == CLONE_AT:
            before = g.to_json()
            copy = g.clone()
            copy_rng = random.Random(seed + 100)
            for _ in range(30):
                if not copy.is_over:
                    step(copy, copy_rng)
            checks["clone"] = {
                "original unchanged": g.to_json() == before,
                "clone played on": digest(copy),
            }
        if steps == SAVE_AT:
            text = g.to_json()
            loaded = Game.from_json(text)
            checks["save"] = {
                "loaded equal": loaded == g,
                "saves again the same": loaded.to_json() == text,
                "take-backs in the save": text.count('"undone"'),
            }
            g = loaded  # the game goes on from the save
        draw = rng.random()
        if draw < 0.08 and len(notes) < TAKE_BACKS and try_take_back(g, notes):
            since_take_back = 0
            continue
        if draw > 0.97 and since_take_back:
            undos.append(repr(g.undo()))
            since_take_back -= 1
            continue
        step(g, rng)
        since_take_back += 1
    final = g.to_json()
    again = Game.from_json(final)
    checks["final save"] = {
        "loaded equal": again == g,
        "saves again the same": again.to_json() == final,
        "take-backs in the save": final.count('"undone"'),
    }
    played = Game(variant, players, seed)
    playout_result = played.playout(rng=random.Random(seed * 7))
    return {
        "events": log(g),
        "result": g.result.to_dict() if g.result is not None else None,
        "save": final,
        "take-backs": notes,
        "undos": undos,
        "checks": checks,
        "playout": {"log": digest(played), "result": playout_result.to_dict()},
    }


def play_cases() -> dict[str, Any]:
    """:func:`play_case` of every case of :data:`CASES`, by ``name/players/seed``."""
    return {f"{n}/{p}/{s}": play_case(n, p, s) for n, p, s in CASES}


def imported_from(where: Path, kind: str, modules: list[str]) -> dict[str, str]:
    """Where each of ``modules`` was imported from, after checking it is a file
    under ``where``, an extension module (``compiled``) or a ``.py`` (``pure``)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found: dict[str, str] = {}
    for name in modules:
        file = getattr(importlib.import_module(name), "__file__", None) or "?"
        found[name] = file
        inside = Path(file).resolve().is_relative_to(where.resolve())
        right_kind = file.endswith(suffixes) if kind == "compiled" else file.endswith(".py")
        if not (inside and right_kind):
            raise SystemExit(f"{name} was imported from {file}, not as {kind} from {where}")
    return found


def main(argv: list[str]) -> None:
    """The script: see the module's docstring."""
    where, kind, *modules = argv
    sys.path.insert(0, where)
    found = imported_from(Path(where), kind, modules)
    print(json.dumps({"modules": found, "games": play_cases()}))


if __name__ == "__main__":
    main(sys.argv[1:])
