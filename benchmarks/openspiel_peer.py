"""OpenSpiel's ``oh_hell`` as a peer for benchmarks and differential tests.

OpenSpiel (``pip install open_spiel``, the ``bench`` extra) ships a C++ Oh Hell
with Python bindings. This module drives it in two ways:

* :func:`time_random_hands` plays one-hand games with uniformly random legal
  actions and chance outcomes, to compare raw speed with our engine, by one of
  three drivers (:data:`DRIVERS`): the fastest from Python (the reference), an
  older, slower one that draws chance outcomes through a probability loop,
  and OpenSpiel's own C++ playout with uniform random bots;
* :func:`play_stacked` forces a given deal, dealer and trump card through the
  chance nodes and lets a callback choose every bid and card, so that the same
  hand can be replayed in cardrules and the results compared.

How OpenSpiel's ``oh_hell`` works (verified against open_spiel 2.0.2):

* Chance nodes, in order: the number of tricks (a single outcome when
  ``num_tricks_fixed`` is set), the dealer (uniform over the seats), then
  ``players * num_tricks`` card deals, each a uniform draw from the undealt
  cards. Deal number ``i`` goes to seat ``i % players`` whoever the dealer is
  (seat 0 always gets the first card). One more card is drawn from the rest of
  the deck and turned up: its suit is trumps and the card itself is out of play.
  Every chance node is uniform over its ``legal_actions()``
  (:func:`check_uniform_chance` verifies it).
* Card action ids are ``rank_index * 4 + suit`` with ``rank_index`` 0 for a two
  up to 12 for an ace and suits in the order clubs, diamonds, **spades, hearts**
  (so 0 = C2, 1 = D2, 2 = S2, 3 = H2, 4 = C3, ..., 51 = HA).
* Bid action ids are ``52 + bid`` for bids ``0..num_tricks``.
* The seat after the dealer bids first, then clockwise (increasing seat
  numbers) to the dealer. The dealer bids last and is hooked: they may not make
  the bids add up to ``num_tricks``.
* The seat after the dealer leads the first trick; a trick's winner leads the
  next. One must follow the led suit if able, and may otherwise play anything
  (no obligation to trump or to beat the card on the table). The highest trump
  wins, else the highest card of the led suit; aces are high.
* Scoring with the defaults (``off_bid_penalty=False``, ``points_per_trick=1``):
  one point per trick taken, plus 10 if the bid was exact. With
  ``off_bid_penalty=True``: ``points_per_trick * tricks + 10`` if exact, else
  ``-points_per_trick * |tricks - bid|``.

Our numbering: ``card = suit * 13 + (rank - 2)`` with clubs 0, diamonds 1,
hearts 2, spades 3 and ranks 2..14 (ace high), as in :mod:`cardrules.cards`;
a bid is its number of tricks.

Run ``python benchmarks/openspiel_peer.py [HANDS] [SEED] [RUNS]`` for the speed
of each driver alone.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final, Literal, TypedDict

__all__ = [
    "DRIVERS",
    "NUM_CARDS",
    "Driver",
    "StackedResult",
    "Step",
    "available",
    "bid_to_ours",
    "bid_to_spiel",
    "card_to_ours",
    "card_to_spiel",
    "check_uniform_chance",
    "load_game",
    "play_random_hand",
    "play_stacked",
    "random_hands_per_second",
    "sample_hands",
    "time_random_hands",
    "to_ours",
    "to_spiel",
]

NUM_CARDS: Final = 52
"""Cards in the deck; OpenSpiel's bid ids start right after the card ids."""

_NUM_SUITS: Final = 4
_RANKS_PER_SUIT: Final = 13
# Our suit (clubs, diamonds, hearts, spades) -> OpenSpiel's (C, D, S, H), and
# back: hearts and spades swap places, so the table is its own inverse.
_SUIT_SWAP: Final = (0, 1, 3, 2)

Step = tuple[int, list[int], int]
"""One decision: (seat, legal actions in our encoding, the one chosen)."""


class StackedResult(TypedDict):
    """What :func:`play_stacked` returns."""

    steps: list[Step]
    """Every decision in order: the ``players`` bids first, then the cards."""
    bids: list[int]
    """Each seat's bid."""
    tricks_won: list[int]
    """Each seat's number of tricks taken."""
    returns: list[float]
    """OpenSpiel's ``returns()``: each seat's score for the hand."""


def _pyspiel() -> Any:
    """Import ``pyspiel`` (untyped C++ bindings) without the type checker."""
    return importlib.import_module("pyspiel")


def available() -> bool:
    """Whether OpenSpiel is installed and knows the ``oh_hell`` game."""
    try:
        pyspiel = _pyspiel()
    except ImportError:
        return False
    return "oh_hell" in pyspiel.registered_names()


@cache
def load_game(
    players: int = 4,
    num_tricks: int = 10,
    off_bid_penalty: bool = False,
    points_per_trick: int = 1,
) -> Any:
    """Load (once per set of parameters) OpenSpiel's ``oh_hell`` game."""
    return _pyspiel().load_game(
        "oh_hell",
        {
            "players": players,
            "num_tricks_fixed": num_tricks,
            "off_bid_penalty": off_bid_penalty,
            "points_per_trick": points_per_trick,
        },
    )


# --- Encodings ---------------------------------------------------------------


def card_to_spiel(card: int) -> int:
    """Our card number (``suit * 13 + rank - 2``) to OpenSpiel's action id."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"not a card number: {card}")
    suit, rank_index = divmod(card, _RANKS_PER_SUIT)
    return rank_index * _NUM_SUITS + _SUIT_SWAP[suit]


def card_to_ours(action: int) -> int:
    """OpenSpiel's card action id (``rank_index * 4 + suit``) to our card number."""
    if not 0 <= action < NUM_CARDS:
        raise ValueError(f"not a card action id: {action}")
    rank_index, spiel_suit = divmod(action, _NUM_SUITS)
    return _SUIT_SWAP[spiel_suit] * _RANKS_PER_SUIT + rank_index


def bid_to_spiel(bid: int) -> int:
    """A bid (number of tricks) to OpenSpiel's action id."""
    if bid < 0:
        raise ValueError(f"not a bid: {bid}")
    return NUM_CARDS + bid


def bid_to_ours(action: int) -> int:
    """OpenSpiel's bid action id to the bid (number of tricks)."""
    if action < NUM_CARDS:
        raise ValueError(f"not a bid action id: {action}")
    return action - NUM_CARDS


def to_ours(action: int) -> int:
    """Any bid or play action id to ours: a card number, or a number of tricks.

    OpenSpiel's ids are unambiguous (cards are 0-51, bids 52 and up); ours are
    not, so the way back needs :func:`to_spiel`'s ``bid`` flag.
    """
    return card_to_ours(action) if action < NUM_CARDS else bid_to_ours(action)


def to_spiel(value: int, *, bid: bool) -> int:
    """Our card number (``bid=False``) or bid (``bid=True``) to OpenSpiel's id."""
    return bid_to_spiel(value) if bid else card_to_spiel(value)


# --- Random play ---------------------------------------------------------------

Driver = Literal["uniform", "by_probability", "native"]
"""How random hands are played: see :data:`DRIVERS`."""

DRIVERS: Final[tuple[Driver, ...]] = ("uniform", "by_probability", "native")
"""The ways :func:`time_random_hands` can play OpenSpiel's hands:

* ``"uniform"`` (the reference): from Python, every node, chance or decision,
  is ``state.apply_action(choice(state.legal_actions()))`` with the bound
  methods of the state and of one ``random.Random``. That is a fair draw of
  the chance outcomes only because ``oh_hell``'s are uniform, which
  :func:`check_uniform_chance` verifies;
* ``"by_probability"`` (an extra, slower row): the chance outcomes drawn by
  their probabilities through ``state.chance_outcomes()`` and a Python loop
  over the partial sums (:func:`play_random_hand`), the decisions as above;
* ``"native"``: OpenSpiel's C++ random playout, ``pyspiel.evaluate_bots`` with
  one ``pyspiel.make_uniform_random_bot`` a seat (each hand a fresh initial
  state and a new seed): no Python between the first and the last action.
"""

_SEED_BITS: Final = 31  # evaluate_bots and the bots take a C++ int seed


def _sample_chance(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """Draw one chance outcome with its probability."""
    u = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if u < total:
            return action
    return outcomes[-1][0]  # rounding left u above the last partial sum


def play_random_hand(game: Any, rng: random.Random) -> Any:
    """Play one hand with chance outcomes drawn by probability (the slow driver).

    Returns:
        The terminal state.
    """
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample_chance(state.chance_outcomes(), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def check_uniform_chance(hands: int = 20, seed: int = 0, players: int = 4, tricks: int = 10) -> int:
    """Verify that every chance node of ``oh_hell`` has uniform outcomes.

    Plays ``hands`` random hands; at every chance node the outcomes of
    ``chance_outcomes()`` must be exactly ``legal_actions()`` and all have the
    same probability (to 1e-12), so that ``rng.choice(legal_actions())`` draws
    them with their probabilities.

    Returns:
        The number of chance nodes checked.

    Raises:
        ValueError: ``hands`` is not positive.
        RuntimeError: A chance node whose outcomes are not uniform.
    """
    if hands <= 0:
        raise ValueError("hands must be positive")
    game = load_game(players, tricks)
    rng = random.Random(seed)
    checked = 0
    for hand in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [action for action, _ in outcomes]
                expected = 1.0 / len(legal)
                if sorted(actions) != sorted(legal) or any(
                    abs(p - expected) > 1e-12 for _, p in outcomes
                ):
                    raise RuntimeError(
                        f"oh_hell chance node {len(state.history())} of hand {hand} is not "
                        f"uniform over legal_actions(): {outcomes}"
                    )
                checked += 1
            state.apply_action(rng.choice(legal))
    return checked


def _hand_player(driver: Driver, game: Any, seed: int) -> Callable[[], Any]:
    """A function that plays one random hand with ``driver`` and returns its terminal state.

    Everything that can be set up once (the random generator, the bound
    methods, the bots) is set up here, before any clock starts.
    """
    rng = random.Random(seed)
    new_state = game.new_initial_state
    if driver == "uniform":
        choice = rng.choice

        def play_uniform() -> Any:
            state = new_state()
            apply, legal, terminal = state.apply_action, state.legal_actions, state.is_terminal
            while not terminal():
                apply(choice(legal()))
            return state

        return play_uniform
    if driver == "by_probability":
        return lambda: play_random_hand(game, rng)
    if driver == "native":
        pyspiel = _pyspiel()
        bots = [
            pyspiel.make_uniform_random_bot(seat, rng.getrandbits(_SEED_BITS))
            for seat in range(game.num_players())
        ]
        evaluate, bits = pyspiel.evaluate_bots, rng.getrandbits

        def play_native() -> Any:
            state = new_state()
            evaluate(state, bots, bits(_SEED_BITS))
            return state

        return play_native
    raise ValueError(f"no driver {driver!r}; the drivers are {', '.join(DRIVERS)}")


def sample_hands(driver: Driver, hands: int, seed: int) -> list[tuple[list[int], list[float]]]:
    """Play ``hands`` hands of 4-player, 10-trick oh_hell as :func:`time_random_hands` does.

    Returns:
        Each hand's actions (``history()``, chance outcomes included) and
        ``returns()``.
    """
    if hands <= 0:
        raise ValueError("hands must be positive")
    play = _hand_player(driver, load_game(4, 10), seed)
    out: list[tuple[list[int], list[float]]] = []
    for _ in range(hands):
        state = play()
        out.append((list(state.history()), list(state.returns())))
    return out


def time_random_hands(hands: int, seed: int, driver: Driver = "uniform") -> tuple[float, float]:
    """Play ``hands`` random one-hand games of 4-player, 10-trick oh_hell.

    Every bid and card is drawn uniformly among the legal ones and every
    chance outcome with its probability, the way ``driver`` says (see
    :data:`DRIVERS`), all from ``seed``. The game is loaded and the driver set
    up before the clocks start.

    Returns:
        The seconds taken: wall time (``time.perf_counter``) and this
        process's CPU time (``time.process_time``, which leaves out the time
        spent waiting for a shared CPU).
    """
    if hands <= 0:
        raise ValueError("hands must be positive")
    play = _hand_player(driver, load_game(4, 10), seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(hands):
        play()
    return time.perf_counter() - wall, time.process_time() - cpu


def random_hands_per_second(hands: int, seed: int, driver: Driver = "uniform") -> float:
    """Hands per second of wall time of :func:`time_random_hands`."""
    return hands / time_random_hands(hands, seed, driver)[0]


# --- Stacked play ----------------------------------------------------------------


def _stack_chance_actions(deal: Sequence[Sequence[int]], trump_card: int, dealer: int) -> list[int]:
    """The chance actions after the number of tricks that give this deal."""
    players = len(deal)
    num_tricks = len(deal[0])
    if any(len(hand) != num_tricks for hand in deal):
        raise ValueError("every seat must be dealt the same number of cards")
    if not 0 <= dealer < players:
        raise ValueError(f"no seat {dealer} among {players} players")
    cards = [card for hand in deal for card in hand] + [trump_card]
    if len(set(cards)) != len(cards):
        raise ValueError("a card is dealt twice (the trump card is not in any hand)")
    actions = [dealer]
    for i in range(players * num_tricks):
        actions.append(card_to_spiel(deal[i % players][i // players]))
    actions.append(card_to_spiel(trump_card))
    return actions


def _parse_row(text: str, label: str) -> list[int]:
    """Read a row of numbers such as ``Bids:  1 0 3 2`` from ``str(state)``."""
    for line in text.splitlines():
        if line.startswith(label):
            return [int(word) for word in line[len(label) :].split()]
    raise ValueError(f"no {label!r} line in the state")


def play_stacked(
    deal: list[list[int]],
    trump_card: int,
    dealer: int,
    choose: Callable[[list[int]], int],
    *,
    off_bid_penalty: bool = False,
    points_per_trick: int = 1,
) -> StackedResult:
    """Play one hand of oh_hell with a fixed deal, dealer and trump card.

    Args:
        deal: Each seat's cards in our numbering; the number of seats and of
            cards per seat set the game's ``players`` and ``num_tricks_fixed``.
        trump_card: The turned-up card (ours), which is in no hand; its suit
            is trumps.
        dealer: The dealer's seat. The seat after it bids and leads first.
        choose: Given the legal actions in our encoding (bids as numbers of
            tricks, then cards as card numbers), returns the one to take. The
            first ``len(deal)`` calls are the bids.
        off_bid_penalty: OpenSpiel's parameter of that name.
        points_per_trick: OpenSpiel's parameter of that name.

    Returns:
        The decisions taken, the bids, the tricks won and ``returns()``.
    """
    players = len(deal)
    game = load_game(players, len(deal[0]) if deal else 0, off_bid_penalty, points_per_trick)
    state = game.new_initial_state()
    # The number of tricks is fixed, so its chance node has a single outcome.
    ((num_tricks, _),) = state.chance_outcomes()
    state.apply_action(num_tricks)
    for action in _stack_chance_actions(deal, trump_card, dealer):
        if action not in state.legal_actions():
            raise RuntimeError(f"OpenSpiel refuses chance action {action}")
        state.apply_action(action)

    steps: list[Step] = []
    while not state.is_terminal():
        if state.is_chance_node():
            raise RuntimeError("unexpected chance node after the deal")
        seat: int = state.current_player()
        legal = [to_ours(action) for action in state.legal_actions()]
        chosen = choose(list(legal))
        if chosen not in legal:
            raise ValueError(f"seat {seat} chose {chosen}, not among {legal}")
        state.apply_action(to_spiel(chosen, bid=len(steps) < players))
        steps.append((seat, legal, chosen))

    text = str(state)
    return {
        "steps": steps,
        "bids": _parse_row(text, "Bids:"),
        "tricks_won": _parse_row(text, "Tricks Won:"),
        "returns": list(state.returns()),
    }


def main(argv: Sequence[str]) -> None:
    """Print the median of ``RUNS`` measurements of each driver's hands per second."""
    hands = int(argv[0]) if argv else 2000
    seed = int(argv[1]) if len(argv) > 1 else 0
    runs = int(argv[2]) if len(argv) > 2 else 5
    if not available():
        sys.exit("OpenSpiel is not installed: pip install open_spiel")
    checked = check_uniform_chance(seed=seed)
    print(f"oh_hell chance outcomes checked uniform at {checked} chance nodes")
    for driver in DRIVERS:
        time_random_hands(50, seed, driver)  # warm up
        cpu = [hands / time_random_hands(hands, seed + i, driver)[1] for i in range(runs)]
        print(
            f"openspiel oh_hell (4 players, 10 tricks), {driver} driver: {hands} random hands, "
            f"median of {runs}: {statistics.median(cpu):,.0f} hands per CPU second "
            f"(runs: {', '.join(f'{r:,.0f}' for r in cpu)})"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
