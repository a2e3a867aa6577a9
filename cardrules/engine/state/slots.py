"""The engine's state, declared once: every slot of :class:`~cardrules.engine.game.Game`
with its type, what it holds, the module that owns it and how a copy treats it.

A slot's **owner** is the engine module (a phase of the hand, or the game's
setup) that writes it; a few modules still write a slot they do not own, each
listed in the slot's ``also`` (an honest record, kept exact by
``tests/test_state_owners.py``: a module that stops writing a slot must leave
the list, and no other module may start). The shared slots (the log, the seat
to act, the phase, the legal set) are owned by
:mod:`~cardrules.engine.state.transitions`, whose few functions are the other
modules' way to change them; the one other writer is the hot path, the play
of a card (:func:`~cardrules.engine.phases.trick._play_card`), which writes them
inline.

Everything else about the slots is derived from :data:`SLOTS`:

* ``Game.__slots__`` is :data:`GAME_SLOTS`;
* the slot annotations of ``Game`` and the body of ``Game.clone`` are written
  from the declarations by :func:`game_source` (run ``python
  cardrules/engine/state/slots.py`` after changing :data:`SLOTS`; the test checks
  that ``game.py`` is current): mypy and mypyc need the annotations in the class,
  and a written-out clone is three times as fast as a loop over the names;
* :data:`STATE_SLOTS` (what a checkpoint keeps and an undo restores) and
  :data:`NOT_STATE_SLOTS` (the log, its caches, the take-back machinery).

Adding a slot: one :class:`Slot` here (the module that will write it as its
owner), ``python cardrules/engine/state/slots.py``, then the code that sets it
at the game's creation (``Game._setup`` or the hand's start) and uses it.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Final, Literal, NamedTuple

#: How :meth:`Game.clone` copies a slot: ``value`` shares it (an immutable value,
#: or a list replaced rather than changed in place), ``list`` copies the list,
#: ``optional_list`` copies the list unless it is None, ``cache`` starts empty (None),
#: ``shared`` is shared copy-on-write (``_share`` marks it shared: the streams,
#: :class:`~cardrules.engine.events._Streams`).
CopyKind = Literal["value", "list", "optional_list", "cache", "shared"]


class Slot(NamedTuple):
    """One slot of :class:`~cardrules.engine.game.Game`."""

    name: str
    """The attribute's name (private: a leading underscore)."""
    type: str
    """Its type, as written in the class's annotation."""
    owner: str
    """The engine module (its name in ``cardrules/engine/``) that writes it."""
    holds: str
    """What it holds, in a line."""
    copy: CopyKind = "value"
    """How a clone copies it (see :data:`CopyKind`)."""
    state: bool = True
    """Whether it is state between two actions (a checkpoint keeps it); False
    for the log, its caches and the take-back machinery."""
    also: tuple[str, ...] = ()
    """Other engine modules that write it: ``trick`` for the shared slots (the
    hot path, :func:`~cardrules.engine.phases.trick._play_card`, writes them inline),
    and writes not yet moved to the owner (most are kept apart by the import
    graph: the owner imports the writer, as ``trick`` imports ``end``, which
    imports ``deal`` and ``undo``)."""


#: Every slot of ``Game``, grouped by owner. The order is the annotations' order.
SLOTS: Final[tuple[Slot, ...]] = (
    # ------------------------------------------------------------ the game's setup
    Slot(
        "_rules",
        "_Rules",
        "game",
        "the compiled rules (engine/state/compiled_rules.py); of this hand, when a line "
        "has a condition on the hand",
        also=("deal",),
    ),
    Slot("_variant", "Variant", "game", "the variant, as loaded"),
    Slot("_players", "int", "game", "the number of seats"),
    Slot("_seed", "int", "game", "the random seed of the deals", also=("worlds",)),
    Slot("_first_dealer_given", "int | None", "game", "the first dealer given to the constructor"),
    Slot("_max_tricks", "int | None", "game", "the bound on the number of tricks, if any"),
    Slot(
        "_decks",
        "tuple[tuple[int, ...], ...]",
        "game",
        "the card orders given to deal",
        also=("worlds",),
    ),
    Slot(
        "_decks_reuse",
        "bool",
        "game",
        "whether the one given card order deals every hand",
        also=("worlds",),
    ),
    Slot(
        "_draws",
        "tuple[int, ...]",
        "game",
        "recorded draws of dead cards (the power)",
        also=("worlds",),
    ),
    Slot(
        "_cuts",
        "tuple[tuple[tuple[int, Card], ...], ...]",
        "game",
        "recorded cuts",
        also=("worlds",),
    ),
    Slot(
        "_forced",
        "list[tuple[tuple[int, ...], int]]",
        "game",
        "recorded deals (restore, replay, sampled worlds)",
        copy="list",
        state=False,
        also=("worlds",),
    ),
    Slot("_sizes", "tuple[int, ...]", "game", "the hand size of each hand of the schedule"),
    Slot("_largest", "int", "game", "the largest hand size of the schedule"),
    Slot("_order", "tuple[tuple[int, ...], ...]", "game", "each dealer's seats in deal order"),
    # ------------------------------------------------------------ the deal of a hand
    Slot("_hand_index", "int", "deal", "the index of the hand being played (-1 before)"),
    Slot("_size", "int", "deal", "this hand's size"),
    Slot("_redeals", "int", "deal", "the deals thrown in so far (`redeal:`), the game's"),
    Slot("_redeal_run", "int", "deal", "this hand's deals thrown in so far, in a row"),
    Slot(
        "_redeal_prev",
        "list[int] | None",
        "deal",
        "the previous hand's tricks, while seats keep or show (`may be shown`)",
    ),
    Slot("_dealer", "int", "deal", "this hand's dealer"),
    Slot("_turned", "int", "deal", "the card turned up for trumps (-1: none)"),
    Slot(
        "_undealt",
        "int",
        "deal",
        "the mask of the cards not dealt (the stock)",
        also=(
            "trumps",
            "worlds",
        ),
    ),
    Slot(
        "_hands",
        "list[int]",
        "deal",
        "each seat's cards (a mask)",
        copy="list",
        also=("play", "trick", "trumps", "undo", "worlds"),
    ),
    Slot(
        "_known",
        "list[int]",
        "deal",
        "each seat's cards that every seat knows it holds (replaced, never changed in "
        "place: a clone shares it)",
        also=("trick", "trumps"),
    ),
    Slot("_seats", "tuple[int, ...]", "deal", "this hand's seats in order", also=("alone",)),
    Slot(
        "_seats_per_trick",
        "int",
        "deal",
        "the number of seats that play to a trick",
        also=("alone", "knockout", "trick"),
    ),
    Slot(
        "_out",
        "list[bool]",
        "deal",
        "each seat: out of the game (replaced, never changed in place: a clone shares it)",
        also=("knockout", "trick"),
    ),
    Slot(
        "_dead", "int", "deal", "the mask of the cards in dead tricks", also=("shedding", "trick")
    ),
    Slot(
        "_dead_by",
        "list[int]",
        "deal",
        "each seat's cards in dead tricks (replaced, never changed in place: a clone shares it)",
        also=("shedding", "trick"),
    ),
    # ------------------------------------------------------------ trumps and ranks
    Slot("_trump", "int", "ranks", "the trump suit (-1: none)"),
    Slot("_ranks", "RankTables", "ranks", "this hand's effective suits and powers"),
    # ------------------------------------------------------------ the tricks
    Slot(
        "_won",
        "list[int]",
        "trick",
        "each seat's won cards (a mask)",
        copy="list",
        also=("deal", "undo"),
    ),
    Slot(
        "_tricks",
        "list[int]",
        "trick",
        "each seat's tricks won this hand",
        copy="list",
        also=("deal", "undo"),
    ),
    # ------------------------------------------------------------ the bidding
    Slot(
        "_bids",
        "list[int]",
        "bidding",
        "each seat's bid (-1: none)",
        copy="value",
        also=("trumps",),
    ),
    Slot(
        "_blind",
        "list[bool]",
        "bidding",
        "each seat: its bid was blind",
        copy="value",
        also=("trumps",),
    ),
    Slot(
        "_looked",
        "list[bool]",
        "bidding",
        "each seat: has looked at its cards",
        copy="value",
        also=("trumps",),
    ),
    Slot(
        "_forehead",
        "bool",
        "bidding",
        "whether this hand is played forehead",
        also=("trumps",),
    ),
    Slot(
        "_phase",
        "int",
        "transitions",
        "the phase of the hand (engine/state/tables.py: _BID, _PLAY...)",
    ),
    Slot("_to_act", "int", "transitions", "the seat to act (-1: none)", also=("trick",)),
    Slot(
        "_waiting",
        "list[int] | None",
        "bidding",
        "the seats yet to bid simultaneously (None: bids in turn)",
        copy="optional_list",
        also=("end", "passing", "trumps"),
    ),
    Slot("_bid_pos", "int", "bidding", "how many seats have bid in turn"),
    Slot("_auction_out", "int", "bidding", "the seats that have passed in an auction (a mask)"),
    Slot(
        "_contract",
        "int",
        "bidding",
        "an auction of contracts: the rank of the highest contract bid (-1: none)",
        also=("trumps",),
    ),
    Slot(
        "_contract_seat",
        "int",
        "bidding",
        "an auction of contracts: the seat that made the highest bid (-1: none)",
        also=("trumps",),
    ),
    Slot(
        "_amender",
        "int",
        "bidding",
        "the seat that may amend its bid (-1: none)",
        also=("end", "trumps"),
    ),
    # ------------------------------------------------------------ the trick in play
    Slot(
        "_trick",
        "list[int]",
        "trick",
        "the cards of the trick in play",
        copy="list",
        also=("deal", "shedding", "undo"),
    ),
    Slot(
        "_trick_seats",
        "list[int]",
        "trick",
        "who played them",
        copy="list",
        also=("deal", "play", "shedding", "undo"),
    ),
    Slot(
        "_leader", "int", "trick", "the seat that led the trick", also=("play", "shedding", "undo")
    ),
    Slot(
        "_winning_card",
        "int",
        "trick",
        "the trick's winning card so far",
        also=("play", "shedding", "undo"),
    ),
    Slot("_winning_seat", "int", "trick", "who played it", also=("play", "shedding", "undo")),
    Slot(
        "_broken_prev",
        "int",
        "trick",
        "the broken suits before the last card",
        also=("deal", "shedding", "undo"),
    ),
    Slot(
        "_broken_suits",
        "int",
        "trick",
        "the broken suits (a 4-bit set)",
        also=("deal", "score", "shedding", "undo"),
    ),
    Slot("_forced_lead", "bool", "play", "whether the lead was forced (no choice)", also=("deal",)),
    # ------------------------------------------------------------ the pass
    Slot(
        "_chosen",
        "list[int]",
        "passing",
        "each seat's cards chosen to pass (replaced, never changed in place: a clone shares it)",
        also=("worlds",),
    ),
    Slot("_pass_distance", "int", "passing", "how many seats along the cards go (0: no pass)"),
    # ------------------------------------------------------------ the choice of trumps
    Slot("_maker", "int", "trumps", "the seat that made trumps (-1: none)"),
    Slot("_alone", "int", "alone", "the seat going alone (-1: none)", also=("trumps",)),
    Slot("_defender", "int", "alone", "the seat defending alone (-1: none)", also=("trumps",)),
    Slot(
        "_discarded",
        "int",
        "trumps",
        "the cards the dealer or declarer discarded, a mask (0: none)",
        also=("worlds",),
    ),
    Slot("_call_stage", "int", "trumps", "the round of the choice of trumps"),
    Slot("_downtown", "bool", "trumps", "whether the hand's ranks are reversed (downtown)"),
    Slot("_misere", "bool", "trumps", "whether the hand's contract is misère"),
    Slot(
        "_open_seat",
        "int",
        "trumps",
        "the declarer of an open misère, its hand laid face up after the first trick (-1: none)",
    ),
    Slot(
        "_kitty",
        "int",
        "trumps",
        "the kitty's cards, face down until the declarer takes them (a mask)",
        also=("deal", "worlds"),
    ),
    Slot("_call_pos", "int", "trumps", "how many seats have spoken in the round"),
    # ------------------------------------------------------------ seating
    Slot(
        "_next_seat",
        "tuple[int, ...]",
        "alone",
        "seat -> the next seat to play this hand",
        also=("knockout",),
    ),
    Slot(
        "_next_seat_all",
        "tuple[int, ...]",
        "alone",
        "seat -> the next seat, nobody sitting out",
        also=("trumps",),
    ),
    # ------------------------------------------------------------ the counts of the game
    Slot("_tricks_played", "int", "trick", "the tricks completed this hand", also=("deal", "undo")),
    Slot("_total_tricks", "int", "trick", "the tricks completed in the game", also=("undo",)),
    Slot(
        "_scores",
        "list[Num]",
        "score",
        "each seat's score (replaced at each hand's score, never changed in place: a "
        "clone shares it)",
    ),
    Slot(
        "_counters",
        "list[tuple[int, ...]]",
        "score",
        "each seat's counters (replaced at each hand's score, never changed in place)",
    ),
    Slot(
        "_hand_cases",
        "tuple[tuple[int, tuple[Mapping[str, Value] | None, ...]], ...]",
        "score",
        "games whose file names cases of the score (``case``): each hand scored, with "
        "each seat's variables its cases are named from (replaced, never changed in place)",
    ),
    Slot("_extra", "int", "end", "the extra hands played to break a tie"),
    # ------------------------------------------------------------ the log and its caches
    Slot(
        "_events",
        "list[Entry]",
        "transitions",
        "the log",
        copy="list",
        state=False,
        also=(
            "trick",
            "worlds",
        ),
    ),
    Slot(
        "_streams",
        "_Streams | None",
        "game",
        "the typed streams built so far and the count of actions (events.py), or None "
        "until first asked for; shared with a clone, copied on write",
        copy="shared",
        state=False,
    ),
    Slot(
        "_legal",
        "tuple[Action, ...] | None",
        "transitions",
        "the legal actions of the seat to act (None: not worked out yet)",
        also=("trick",),
    ),
    Slot(
        "_legal_mask",
        "int",
        "transitions",
        "in the play, the mask of the cards that may be played (else 0)",
        also=("trick",),
    ),
    Slot("_result", "Result | None", "end", "the result, once the game is over", also=("game",)),
    # ------------------------------------------------------------ take-backs
    Slot(
        "_undo",
        "list[Checkpoint] | None",
        "undo",
        "the checkpoints for undo (engine/state/undo.py), None until first needed",
        copy="optional_list",
        state=False,
        also=("worlds",),
    ),
    Slot(
        "_take_backs",
        "TakeBacks | None",
        "game",
        "the table's take-back policy (None: the variant's)",
        state=False,
    ),
    Slot(
        "_request",
        "TakeBackRequest | None",
        "undo",
        "the pending take-back request (engine/state/undo.py), ended by any change",
        state=False,
        also=("game", "saves", "worlds"),
    ),
    Slot(
        "_retracted",
        "list[tuple[int, tuple[int, ...]]]",
        "undo",
        "who made actions since taken back by players, after how many actions "
        "(engine/state/undo.py, _take_back_span): (m, seats), m growing; replaced, never "
        "changed in place (a clone shares it)",
        copy="value",
        state=False,
        also=("saves", "worlds"),
    ),
    Slot(
        "_history",
        "History | None",
        "history",
        "the players' take-backs (engine/state/history.py), None while there are none; "
        "never changed: a take-back makes a new one",
        state=False,
    ),
)

#: ``Game.__slots__``: every slot's name.
GAME_SLOTS: Final[tuple[str, ...]] = tuple(s.name for s in SLOTS)

#: The slots of :class:`Game` that make up its state between two actions (a
#: checkpoint keeps them, an undo restores them): every slot but the log, the
#: recorded deals (never changed during a game), the checkpoints themselves,
#: the table's take-back policy (a setting of the table, not of the state), the
#: pending take-back request (about the state, never restored: any change of
#: the game, an action or an undo, ends it), and who acted after actions still
#: in the log, in actions since taken back (the memory of the players'
#: take-backs, which the engine's undo leaves alone).
STATE_SLOTS: Final[tuple[str, ...]] = tuple(sorted(s.name for s in SLOTS if s.state))

#: The slots that are not state (see :data:`STATE_SLOTS`).
NOT_STATE_SLOTS: Final[tuple[str, ...]] = tuple(s.name for s in SLOTS if not s.state)

#: The owner and the other writers of each slot, by name.
WRITERS: Final[dict[str, tuple[str, ...]]] = {s.name: (s.owner, *s.also) for s in SLOTS}

_BEGIN_ANNOTATIONS = "    # BEGIN the slots (written by cardrules/engine/state/slots.py)\n"
_END_ANNOTATIONS = "    # END the slots\n"
_BEGIN_CLONE = "        # BEGIN the copy (written by cardrules/engine/state/slots.py)\n"
_END_CLONE = "        # END the copy\n"


def _annotations() -> str:
    lines = [_BEGIN_ANNOTATIONS]
    for s in SLOTS:
        comment = f"{s.owner}: {s.holds}"
        lines.extend(f"    # {part}\n" for part in textwrap.wrap(comment, 90))
        lines.append(f"    {s.name}: {s.type}\n")
    lines.append(_END_ANNOTATIONS)
    return "".join(lines)


def _clone_body() -> str:
    lines = [_BEGIN_CLONE]
    for s in SLOTS:
        if s.copy == "list":
            value = f"self.{s.name}[:]"
        elif s.copy == "optional_list":
            value = f"None if self.{s.name} is None else self.{s.name}[:]"
        elif s.copy == "cache":
            value = "None"
        elif s.copy == "shared":
            value = f"_share(self.{s.name})"
        else:
            value = f"self.{s.name}"
        lines.append(f"        g.{s.name} = {value}\n")
    lines.append(_END_CLONE)
    return "".join(lines)


def _replace_block(text: str, begin: str, end: str, block: str) -> str:
    start = text.index(begin)
    stop = text.index(end, start) + len(end)
    return text[:start] + block + text[stop:]


def game_source(text: str) -> str:
    """``game.py``'s text ``text`` with its slot annotations and the body of its
    ``clone`` written from :data:`SLOTS` (between their ``BEGIN``/``END`` lines)."""
    text = _replace_block(text, _BEGIN_ANNOTATIONS, _END_ANNOTATIONS, _annotations())
    return _replace_block(text, _BEGIN_CLONE, _END_CLONE, _clone_body())


def main(argv: list[str]) -> int:
    """``python cardrules/engine/state/slots.py [--check]``: write ``game.py``'s
    slot annotations and clone from :data:`SLOTS` (``--check``: only say whether
    they are current; exit status 1 if not)."""
    path = Path(__file__).parents[1] / "game.py"
    text = path.read_text(encoding="utf-8")
    new = game_source(text)
    if "--check" in argv:
        if new != text:
            print(f"{path} is not current: run python cardrules/engine/state/slots.py")
            return 1
        return 0
    if new != text:
        path.write_text(new, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover - a tool
    sys.exit(main(sys.argv[1:]))
