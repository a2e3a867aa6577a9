"""Matches: game after game of one variant, the loser of each taking a letter of a word.

Kazhutha is played to K-A-Z-H-U-T-H-A: the kazhutha of each game takes the
next letter, and the first seat to hold the whole word loses the match. A
:class:`Match` drives :class:`~cardrules.engine.game.Game` objects one after
the other behind the same interface (``to_act``, ``legal_actions``, ``apply``,
``view``, ``events``, ``to_json``...).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

import attrs

from cardrules.engine.actions import Action
from cardrules.engine.game import Event, Game
from cardrules.engine.view import Result, View
from cardrules.errors import CardrulesError, SaveError, VariantError
from cardrules.rules import Variant

__all__ = ["Match"]

MATCH_FORMAT: Final = "cardrules.match"
MATCH_VERSION: Final = 1
#: Without ``max_games``, a match stops (unfinished) after this many games.
DEFAULT_MAX_GAMES: Final = 1000


def _game_seed(seed: int, k: int) -> int:
    return seed * 1_000_003 + k


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
        self._log: list[Event] = []  # match events between games: ("letter", ...), ...
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
                dealer = g._nxt[g.dealer]  # the deal passes on
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
        """The letters each seat has taken, such as ``("", "KA", "K", "")``."""
        return tuple(self._word[:k] for k in self._letters)

    @property
    def to_act(self) -> int | None:
        """The seat to act in the current game, ``None`` once the match is over."""
        return None if self._over else self.game.to_act

    @property
    def waiting_for(self) -> frozenset[int]:
        """Every seat that may act now."""
        return frozenset() if self._over else self.game.waiting_for

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

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Act in the current game; when it ends, the next one is dealt.

        Raises:
            IllegalAction: as :meth:`Game.apply`, or once the match is over.
        """
        if self._over:
            from cardrules.errors import IllegalAction

            raise IllegalAction("the match is over")
        self.game.apply(action, seat)
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
            out.append(("game", k, self._n, None if seat is not None else g.seed))
            out.extend(g.events if seat is None else g.events_for(seat))
            out.extend(e for e in self._log if e[1] == k)
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
    def from_json(cls, text: str, variant: Variant | None = None) -> Match:
        """Restore a match saved by :meth:`to_json`, replaying and checking every game.

        Raises:
            SaveError: for anything malformed or inconsistent.
        """
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:
            raise SaveError(f"saved match is not valid JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != MATCH_FORMAT:
            raise SaveError(f"not a cardrules saved match (format must be {MATCH_FORMAT!r})")
        if data.get("version") != MATCH_VERSION:
            raise SaveError(f"unsupported match save version {data.get('version')!r}")
        games = data.get("games")
        if not isinstance(games, list) or not games:
            raise SaveError("the saved match has no games")
        restored: list[Game] = [
            Game.from_json(json.dumps(gd, ensure_ascii=False), variant) for gd in games
        ]
        v = restored[0].variant
        try:
            m = cls(
                v,
                data.get("players"),  # type: ignore[arg-type]
                data.get("seed"),
                first_dealer=data.get("first_dealer"),
                max_tricks=data.get("max_tricks"),
                max_games=data.get("max_games"),
            )
        except (CardrulesError, ValueError, TypeError) as e:
            raise SaveError(f"the saved match settings are not valid: {e}") from None
        # Rebuild by replaying each game's actions into the match.
        for k, g in enumerate(restored, start=1):
            if m.game_number != k or m.is_over:
                raise SaveError(f"game {k} of the save does not follow from the games before it")
            if m.game.seed != g.seed:
                raise SaveError(f"game {k} of the save was not dealt as the match deals it")
            try:
                for seat, aid in _actions(g):
                    m.apply(Action.from_id(aid), seat)
            except CardrulesError as e:
                raise SaveError(f"game {k} of the save does not replay: {e}") from None
            if m._games[k - 1] != g:
                raise SaveError(f"game {k} of the save was not dealt as the match deals it")
        if list(m.letters) != data.get("letters"):
            raise SaveError("the saved letters do not match the games")
        return m


def _actions(g: Game) -> Sequence[tuple[int, int]]:
    data = json.loads(g.to_json())
    return [(a[0], a[1]) for a in data["actions"]]
