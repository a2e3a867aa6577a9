"""Matches: game after game of one variant, the loser of each taking a letter of a word.

A variant whose rules give a match word (``match word: ...``) is played to that
word: the loser of each finished game takes the word's next letter, and the
first seat to hold the whole word loses the match. A :class:`Match` drives
:class:`~cardrules.engine.game.Game` objects one after the other behind the
same interface (``to_act``, ``legal_actions``, ``apply``, ``view``, ``events``,
``to_json``...).
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs

from cardrules.engine.actions import Action
from cardrules.engine.events import Entry, GameEvent, LetterEvent, MatchOverEvent
from cardrules.engine.game import Event, Game
from cardrules.engine.state.saves import (
    _check_state,
    _is_int,
    _most_hands,
    _read_json,
    _replay_into,
    _same,
    _save_variant,
    _saved_lists,
    _settings,
    _want,
)
from cardrules.engine.views.view import Result, View
from cardrules.errors import CardrulesError, SaveError, VariantError
from cardrules.jsontext import describe as _show
from cardrules.rules import Variant

__all__ = ["Match"]

MATCH_FORMAT: Final = "cardrules.match"
MATCH_VERSION: Final = 1
#: Without ``max_games``, a match stops (unfinished) after this many games.
DEFAULT_MAX_GAMES: Final = 1000


def _game_seed(seed: int, k: int) -> int:
    """The seed of game ``k + 1`` of the match with ``seed``: always a 64-bit seed
    (taken modulo 2**64; the same value as ``seed * 1_000_003 + k`` for any match
    seed below about 1.8e13)."""
    return (seed * 1_000_003 + k) % 2**64


class Match:
    """Games of ``variant`` until one seat has taken every letter of its match word.

    Args:
        variant: the rules; ``variant.match.word`` must not be empty.
        players: the number of seats.
        seed: the seed of the match (each game's seed follows from it).
        first_dealer: the first game's dealer, overriding the variant's rule.
        max_tricks: passed to every game (an unfinished game gives no letter).
        max_games: stop the match, unfinished, after this many games.

    Raises:
        VariantError: if the variant has no match word or cannot be played.
    """

    def __init__(
        self,
        variant: Variant,
        players: int = 4,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        max_tricks: int | None = None,
        max_games: int | None = None,
    ) -> None:
        if not variant.match.word:
            raise VariantError(f"{variant.name} has no match word: play single games with Game")
        if max_games is not None and (type(max_games) is not int or max_games < 1):
            raise ValueError(f"max_games must be a positive int or None, got {max_games!r}")
        first = Game(variant, players, seed, first_dealer=first_dealer, max_tricks=max_tricks)
        self._v = variant
        self._n = players
        self._seed = first.seed
        self._fd = first_dealer
        self._max_tricks = max_tricks
        self._max_games = DEFAULT_MAX_GAMES if max_games is None else max_games
        self._word = variant.match.word
        self._letters = [0] * players
        self._games: list[Game] = [first]
        self._log: list[Entry] = []  # match events between games: ("letter", ...), ...
        self._loser: int | None = None
        self._over = False
        self._finish_games()

    # ------------------------------------------------------------- running games

    @property
    def game(self) -> Game:
        """The game being played (the last one once the match is over)."""
        return self._games[-1]

    def _finish_games(self) -> None:
        """Score finished games and start the next one, until a game needs a decision."""
        while self.game.is_over and not self._over:
            g = self.game
            res = g.result
            assert res is not None
            k = len(self._games)
            if res.finished and res.loser is not None:
                s = res.loser
                self._letters[s] += 1
                self._log.append(("letter", k, s, self._word[self._letters[s] - 1]))
                if self._letters[s] == len(self._word):
                    self._loser = s
                    self._over = True
                    self._log.append(("match over", k, s))
                    return
            if k >= self._max_games:
                self._over = True
                self._log.append(("match over", k, None))
                return
            if self._v.match.loser_deals and res.loser is not None:
                dealer = res.loser
            else:
                dealer = g._next_seat[g.dealer]  # the deal passes on
            self._games.append(
                Game(
                    self._v,
                    self._n,
                    _game_seed(self._seed, k),
                    first_dealer=dealer,
                    max_tricks=self._max_tricks,
                )
            )

    # ------------------------------------------------------------- the Game interface

    @property
    def variant(self) -> Variant:
        """The rules."""
        return self._v

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def seed(self) -> int:
        """The match seed."""
        return self._seed

    @property
    def game_number(self) -> int:
        """The current game, from 1."""
        return len(self._games)

    @property
    def letters(self) -> tuple[str, ...]:
        """The letters each seat has taken, such as ``("", "AB", "A", "")`` for a
        word that begins ``AB``."""
        return tuple(self._word[:k] for k in self._letters)

    @property
    def to_act(self) -> int | None:
        """The seat to act in the current game, ``None`` once the match is over."""
        return None if self._over else self.game.to_act

    @property
    def waiting_for(self) -> frozenset[int]:
        """Every seat that may act now (in bidding order: :attr:`waiting_order`)."""
        return frozenset() if self._over else self.game.waiting_for

    @property
    def waiting_order(self) -> tuple[int, ...]:
        """Every seat that may act now, in bidding order (:attr:`Game.waiting_order
        <cardrules.engine.game.Game.waiting_order>`)."""
        return () if self._over else self.game.waiting_order

    @property
    def is_over(self) -> bool:
        """True once a seat holds the whole word (or ``max_games`` was reached)."""
        return self._over

    @property
    def result(self) -> Result | None:
        """Once over: ``loser`` is the seat holding the whole word (``None`` if the
        match stopped at ``max_games``); ``winners`` are the other seats; ``totals``
        are the numbers of letters."""
        if not self._over:
            return None
        from fractions import Fraction

        loser = self._loser
        return Result(
            winners=tuple(s for s in range(self._n) if s != loser) if loser is not None else (),
            totals=tuple(Fraction(k) for k in self._letters),
            shared=loser is not None and self._n > 2,
            finished=loser is not None,
            loser=loser,
        )

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The legal actions in the current game (see :meth:`Game.legal_actions`)."""
        return () if self._over else self.game.legal_actions(seat)

    def apply(self, action: Action, seat: int) -> None:
        """Act for ``seat`` in the current game (see :meth:`Game.apply`: the seat is
        required); when the game ends, the next one is dealt.

        Raises:
            InvalidAction: as :meth:`Game.apply`.
            IllegalAction: as :meth:`Game.apply`, or once the match is over
                (code ``match_over``).
        """
        if self._over:
            from cardrules.errors import IllegalAction

            raise IllegalAction(
                "the match is over",
                code="match_over",
                data={"seat": seat if type(seat) is int and 0 <= seat < self._n else None},
            )
        self.game.apply(action, seat)
        if self.game.is_over:
            self._finish_games()

    def apply_as_current(self, action: Action) -> None:
        """Act for whoever is to move in the current game (see
        :meth:`Game.apply_as_current`): for scripts, never for a server."""
        if self._over:
            self.apply(action, -1)
        self.game.apply_as_current(action)
        if self.game.is_over:
            self._finish_games()

    def view(self, seat: int) -> View:
        """The current game's view for ``seat``, with every seat's letters."""
        return attrs.evolve(self.game.view(seat), letters=self.letters)

    @property
    def events(self) -> list[Event]:
        """The log of every game, each opened by ``("game", number, players, seed)``
        and followed by its ``("letter", game, seat, letter)`` and, at the end,
        ``("match over", game, loser)``."""
        return self._merged(None)

    def events_for(self, seat: int) -> list[Event]:
        """The log as ``seat`` may see it (see :meth:`Game.events_for`)."""
        return self._merged(seat)

    def _merged(self, seat: int | None) -> list[Event]:
        out: list[Event] = []
        for k, g in enumerate(self._games, start=1):
            out.append(GameEvent(0, k, self._n, None if seat is not None else g.seed))
            out.extend(g.events if seat is None else g.events_for(seat))
            version = g.version
            for e in self._log:
                if e[1] == k:
                    out.append(
                        LetterEvent(version, *e[1:])
                        if e[0] == "letter"
                        else MatchOverEvent(version, *e[1:])
                    )
        return out

    def clone(self) -> Match:
        """An independent copy."""
        m = Match.__new__(Match)
        m.__dict__.update(self.__dict__)
        m._letters = self._letters[:]
        m._games = [*self._games[:-1], self._games[-1].clone()]
        m._log = self._log[:]
        return m

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self._v == other._v and self._games == other._games and self._log == other._log

    def __hash__(self) -> int:
        raise TypeError("a Match is mutable and cannot be hashed")

    # ------------------------------------------------------------- save and restore

    def to_json(self) -> str:
        """The match as JSON: its settings and every game's save."""
        return json.dumps(
            {
                "format": MATCH_FORMAT,
                "version": MATCH_VERSION,
                "players": self._n,
                "seed": self._seed,
                "first_dealer": self._fd,
                "max_tricks": self._max_tricks,
                "max_games": self._max_games,
                "games": [json.loads(g.to_json()) for g in self._games],
                "letters": list(self.letters),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str | bytes, variant: Variant | None = None) -> Match:
        """Restore a match saved by :meth:`to_json`, replaying and checking every game.

        A match save is read as a game save is (see :meth:`Game.from_json`): the
        same byte limit (``cardrules.engine.state.saves.MAX_SAVE_BYTES``) and bounds, a
        byte-order mark allowed, exact int fields. Each game must be the game the
        match deals next (its seed, dealer and settings), and its actions are
        replayed into the match.

        Args:
            text: the saved JSON (``str`` or UTF-8 ``bytes``).
            variant: the variant it must have been played with; ``None``: the
                rules stored in the first game's save.

        Raises:
            SaveError: for anything malformed or inconsistent.
        """
        return _load_match(cls, _read_json(text, "saved match"), variant)


def _load_match(cls: type[Match], data: dict[str, Any], variant: Variant | None) -> Match:
    """:meth:`Match.from_json` of the parsed save."""
    _want(
        data.get("format") == MATCH_FORMAT,
        f"not a cardrules saved match (format must be {MATCH_FORMAT!r})",
    )
    version = data.get("version")
    _want(
        _is_int(version) and version == MATCH_VERSION,
        f"unsupported match save version {_show(version)}",
    )
    players, seed, fd, mt = _settings(data, "the saved match: ")
    max_games = data.get("max_games")
    _want(
        max_games is None or (_is_int(max_games) and max_games >= 1),
        f"the saved match: max_games must be a positive int or null, not {_show(max_games)}",
    )
    most_games = DEFAULT_MAX_GAMES if max_games is None else max_games
    games = data.get("games")
    _want(isinstance(games, list) and len(games) >= 1, "the saved match has no games")
    assert isinstance(games, list)
    _want(
        len(games) <= most_games,
        f"the saved match has {len(games):,} games, but it stops after {most_games:,}",
    )
    _want(all(isinstance(gd, dict) for gd in games), "each game of a saved match is an object")
    v = _save_variant(games[0], variant, "game 1 of the save: ")
    try:
        m = cls(v, players, seed, first_dealer=fd, max_tricks=mt, max_games=max_games)
    except (CardrulesError, ValueError) as e:
        raise SaveError(f"the saved match settings are not valid: {e}") from None
    for k, gd in enumerate(games, start=1):
        label = f"game {k} of the save: "
        _want(
            m.game_number == k and not m.is_over,
            f"game {k} of the save does not follow from the games before it",
        )
        g = m.game
        if k > 1:
            _save_variant(gd, v, label)  # the match's variant: same name and rules
        _check_match_game(gd, g, label)
        _, most = _most_hands(v, g.players, label)
        deals, actions = _saved_lists(gd, g._rules, g.players, most, label)
        _replay_into(g, deals, actions, m.apply, label)
        _check_state(g, gd, label)
    _want(
        m.game_number == len(games),
        f"the save ends with game {len(games)}, but its games lead to game {m.game_number}",
    )
    letters = data.get("letters")
    _want(_same(letters, list(m.letters)), "the saved letters do not match the games")
    return m


def _check_match_game(gd: dict[str, Any], g: Game, label: str) -> None:
    """A game of a match save must have the settings the match gave that game."""
    players, seed, fd, mt = _settings(gd, label)
    _want(players == g.players, f"{label}a game of {players} players in a match of {g.players}")
    _want(seed == g.seed, f"{label}the game was not dealt as the match deals it (its seed)")
    _want(
        _same(fd, g._first_dealer_given),
        f"{label}the game's first dealer is {_show(fd)}; the match gave it {g._first_dealer_given}",
    )
    _want(
        _same(mt, g._max_tricks),
        f"{label}the game's max_tricks is {_show(mt)}; the match's is {g._max_tricks}",
    )
    _want(
        _same(gd.get("decks", []), []) and _same(gd.get("decks_reuse", False), False),
        f"{label}the games of a match are shuffled from their seeds, not dealt from decks",
    )
