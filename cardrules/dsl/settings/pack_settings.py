"""The setting of the pack: ``deck``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from lark import Token

from cardrules.cards import CardSet, Rank, card
from cardrules.counted import count_range
from cardrules.rules import DeckRule, SpecialKind, Variant

from .. import limits
from .declaration import SettingSpec, always
from .effect_checks import Context, NoOp
from .statement import Setting, StatementBuilder, short_number, tokens

__all__ = ["PACK"]


def _deck(v: Variant) -> str:
    low = v.deck.lowest
    text = "standard 52" if low == 2 else f"{Rank(low).label} to ace"
    if v.deck.packs > 1:
        text = f"{v.deck.packs} standard packs"
    added = []
    if v.deck.jokers:
        added.append(f"{v.deck.jokers} joker" + ("s" if v.deck.jokers > 1 else ""))
    added += [f"{k.count} {k.plural}" for k in v.deck.specials]
    if added:
        text += " with " + " and ".join(added)
    if v.deck.removed:
        text += ("," if added else "") + " without "
        removed = v.deck.removed
        ranks = _whole_ranks(removed)
        if len(ranks) >= 2:
            # Whole ranks as ranks (one rank alone is its four cards: `2s` is 2♠).
            text += _ranks_text(ranks)
            removed &= ~sum(_rank_mask(r) for r in ranks)
            text += ", " if removed else ""
        text += " ".join(str(c) for c in CardSet(removed))
    elif v.deck.removed_for:
        text += (
            ("," if added else "")
            + " without "
            + ", ".join(
                " ".join(str(c) for c in CardSet(mask))
                + f" for {lo if lo == hi else f'{lo} to {hi}'} players"
                for lo, hi, mask in v.deck.removed_for
            )
        )
    return text


def _check_deck(c: Context) -> Iterator[NoOp]:
    counts = set(c.v.players.counts())
    for lo, hi, _mask in c.v.deck.removed_for:
        if not counts & set(range(lo, hi + 1)):
            what = f"{lo}" if lo == hi else f"{lo} to {hi}"
            yield NoOp(
                "deck",
                f"the cards out `for {what} players` in `deck` have no effect: the game is "
                f"for {count_range(c.v.players.min, c.v.players.max, 'player')}",
                ("players",),
                hint="take them out of the line",
                part=True,
            )


# --------------------------------------------------------------------------- whole ranks

_RANK_OF_PLURAL: Final = {
    **{f"{n}s": n for n in range(2, 11)},
    **{f"{w}s": r for w, r in (("j", 11), ("q", 12), ("k", 13), ("a", 14))},
    **{f"{w}s": r for w, r in (("jack", 11), ("queen", 12), ("king", 13), ("ace", 14))},
}


def _rank_mask(rank: int) -> int:
    """The mask of the four cards of ``rank`` (2-14)."""
    return sum(1 << (13 * suit + rank - 2) for suit in range(4))


def _ranks_mask(b: StatementBuilder, tok: Token, lowest: int) -> int:
    """The cards of the whole ranks a ``RANKS_OUT`` token names: ``2s to 6s``
    (a range, low to high) or ``2s, 3s and 4s`` (a list)."""
    words = [w for w in str(tok).replace(",", " ").lower().split() if w not in ("to", "and")]
    ranks = [_RANK_OF_PLURAL[w] for w in words]
    if " to " in f" {str(tok).lower()} ".replace("\t", " "):
        lo, hi = ranks
        if lo >= hi:
            raise b.error(
                tok,
                f"the ranks run from {Rank(lo).label}s down to {Rank(hi).label}s",
                expected=f"the lower rank first, such as `{Rank(hi).label}s to {Rank(lo).label}s`",
            )
        ranks = list(range(lo, hi + 1))
    mask = 0
    for r in ranks:
        if r < lowest:
            raise b.error(
                tok,
                f"the {Rank(r).label}s are not in a pack of {Rank(lowest).label} to ace",
                expected=f"ranks from {Rank(lowest).label} to ace",
            )
        if mask & _rank_mask(r):
            raise b.error(tok, f"the {Rank(r).label}s are taken out twice")
        mask |= _rank_mask(r)
    return mask


def _whole_ranks(removed: int) -> list[int]:
    """The ranks whose four cards are all in ``removed``, low to high."""
    return [r for r in range(2, 15) if removed & _rank_mask(r) == _rank_mask(r)]


def _ranks_text(ranks: list[int]) -> str:
    """``2s to 6s`` for a run of three or more ranks, else ``2s, 5s and 9s``."""
    labels = [f"{Rank(r).label}s" for r in ranks]
    if len(ranks) >= 3 and ranks[-1] - ranks[0] == len(ranks) - 1:
        return f"{labels[0]} to {labels[-1]}"
    return ", ".join(labels[:-1]) + f" and {labels[-1]}"


# --------------------------------------------------------------------------- the parse


def _ranks_and_cards_out(
    b: StatementBuilder,
    out: dict[str, Any],
    lowest: int,
    pack: int,
    mask_of: Callable[[Iterable[Token]], int],
) -> int:
    """The cards of `without 2s to 6s, 7♣`: whole ranks, then single cards."""
    removed = _ranks_mask(b, out["ranks"], lowest)
    if out["cards"]:
        extra = mask_of(out["cards"])
        if extra & removed:
            raise b.error(out["cards"][0], f"{card(str(out['cards'][0]))} is taken out twice")
        removed |= extra
    if not pack & ~removed:
        raise b.error(out["ranks"], "every card of the pack is taken out")
    return removed


def _parse_deck(b: StatementBuilder, c: list[Any]) -> Setting:
    removed = 0
    lowest = 2
    packs = 1
    if len(c) > 3 and isinstance(c[3], Token) and c[3].type == "V_STANDARD_PACKS":
        # Several standard packs shuffled together: `2 standard packs`.
        packs = b.number(c[2], 1, limits.MAX_PACKS, "a number of packs")
        c = [*c[:2], *c[4:]]
    if len(c) > 2 and isinstance(c[2], int):
        # A short pack by rank: `9 to ace` (each suit from the 9 up to the ace).
        to: Token = c[3]
        if c[4] != 14:
            raise b.error(
                to,
                "a pack by rank runs up to the ace",
                expected="the lowest rank, then `to ace`, such as `9 to ace`",
            )
        if c[2] == 14:
            raise b.error(c[0], "a pack of aces only is too short", expected="such as `9 to ace`")
        lowest = c[2]
    jokers = 0
    toks = list(tokens(c[2:]))
    for i, t in enumerate(toks):
        if t.type == "V_JOKERS":
            n = toks[i - 1]
            jokers = b.number(n, 1, 2, "a number of jokers")
            if packs > 1:
                raise b.error(
                    n,
                    "jokers are not known with several packs",
                    expected="`2 standard packs` without jokers",
                )
            toks[i - 1 : i + 1] = []
            break
    specials = _special_kinds(b, toks)
    pack = DeckRule(lowest=lowest, jokers=jokers, specials=specials).cards

    def mask_of(cards: Iterable[Token]) -> int:
        removed = 0
        for t in cards:
            k = card(str(t))
            if removed >> k & 1:
                raise b.error(t, f"{k} is taken out twice")
            if k not in pack:
                if k.is_joker:
                    raise b.error(
                        t,
                        f"{k} is not in this pack",
                        expected="a card of the pack (`with 2 jokers` adds LJ and BJ)",
                    )
                raise b.error(
                    t,
                    f"{k} is not in a pack of {Rank(lowest).label} to ace",
                    expected=f"a card from {Rank(lowest).label} to ace",
                )
            removed |= 1 << k
        return removed

    for t in toks:
        if t.type == "INT" and str(t) != "52":
            raise b.error(
                t,
                f"only the standard 52-card pack is known, not {short_number(str(t))}",
                expected="`standard 52`, then `without` and the cards to take out",
            )
    lists = [x for x in c[2:] if isinstance(x, list)]
    fors = [x for x in c[2:] if isinstance(x, tuple)]
    ranks_out = [x for x in c[2:] if isinstance(x, dict)]
    if ranks_out:
        removed = _ranks_and_cards_out(b, ranks_out[0], lowest, pack.mask, mask_of)
    elif lists:
        removed = mask_of(lists[0])
    by_count: list[tuple[int, int, int]] = []
    for cards, lo_tok, hi_tok in fors:
        lo = b.number(lo_tok, 2, limits.MAX_PLAYERS, "players")
        hi = lo if hi_tok is None else b.number(hi_tok, lo, limits.MAX_PLAYERS, "players")
        if any(a <= hi and lo <= b for a, b, _ in by_count):
            raise b.error(
                lo_tok,
                f"the cards out for {lo if lo == hi else f'{lo} to {hi}'} players are "
                "already given",
                hint="give each number of players once",
            )
        by_count.append((lo, hi, mask_of(cards)))
    return b.setting(
        c,
        ("deck.removed", removed),
        ("deck.lowest", lowest),
        ("deck.jokers", jokers),
        ("deck.removed_for", tuple(sorted(by_count))),
        ("deck.specials", specials),
        ("deck.packs", packs),
    )


def _identical(v: Variant) -> str:
    return f"the {v.deck.identical or 'first'} played ranks higher"


def _check_identical(c: Context) -> Iterator[NoOp]:
    if c.v.deck.packs <= 1 and c.v.deck.identical:
        yield NoOp(
            "identical cards",
            "`identical cards` has no effect: the pack holds each card once",
            ("deck",),
            hint="take the line out, or play with `deck: 2 standard packs`",
        )


def _parse_identical(b: StatementBuilder, c: list[Any]) -> Setting:
    which = "first" if c[2].type == "V_FIRST_RANKS_HIGHER" else "last"
    return b.setting(c, ("deck.identical", which))


def _special_kinds(b: StatementBuilder, toks: list[Token]) -> tuple[SpecialKind, ...]:
    """The kinds of special card of the deck line (``with 4 wizards and 4
    jesters``), taken out of ``toks``: at most ``limits.MAX_SPECIAL_CARDS`` in all,
    each name once."""
    kinds: list[SpecialKind] = []
    total = 0
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.type != "SPECIAL_KIND":
            i += 1
            continue
        n = b.number(toks[i - 1], 1, limits.MAX_SPECIAL_CARDS, f"a number of {t}")
        total += n
        if total > limits.MAX_SPECIAL_CARDS:
            raise b.error(
                toks[i - 1],
                f"{total} special cards are too many for one pack",
                expected=f"at most {limits.MAX_SPECIAL_CARDS} special cards besides the two "
                "jokers (they are X1 to X10)",
            )
        plural = str(t).lower()
        if len(plural) > limits.MAX_WORD_LENGTH:
            raise b.error(t, f"{plural[:20]!r}... is too long a name for a kind of card")
        if any(k.plural == plural for k in kinds):
            raise b.error(t, f"the {plural} are added twice", hint="give each kind once")
        singular = plural[:-1] if plural.endswith("s") and len(plural) > 1 else plural
        kinds.append(SpecialKind(plural, n, singular))
        del toks[i - 1 : i + 1]
        i -= 1
    return tuple(kinds)


#: The pack's settings.
PACK: Final = (
    SettingSpec(
        "deck",
        "K_DECK",
        "deck",
        (
            "deck.removed",
            "deck.lowest",
            "deck.jokers",
            "deck.removed_for",
            "deck.specials",
            "deck.packs",
        ),
        parse=_parse_deck,
        samples=(
            "deck: standard 52 without 2♣",
            "deck: 9 to ace without 9♣",
            "deck: standard 52 without 2s to 6s",
            "deck: standard 52 without 2s, 3s and 4s, 5♣",
            "deck: 2 standard packs",
            "deck: standard 52 without 2♦ for 3 players, 2♦ 2♣ for 5 to 6 players",
            "deck: standard 52 with 4 wizards and 4 jesters",
        ),
        render=_deck,
        written=always,
        where="every game; cards out for a number of players only for a number the game allows",
        check=_check_deck,
        page_rule="Pack",
        old_saves={
            "deck.lowest": 2,
            "deck.jokers": 0,
            "deck.removed_for": (),
            "deck.specials": (),
            "deck.packs": 1,
        },
    ),
    SettingSpec(
        "identical cards",
        "K_IDENTICAL_CARDS",
        "identical_cards",
        ("deck.identical",),
        parse=_parse_identical,
        samples=(
            "identical cards: the first played ranks higher",
            "identical cards: the last played ranks higher",
        ),
        render=_identical,
        written=lambda v: bool(v.deck.identical),
        where="a game of several packs (`deck: 2 standard packs`)",
        check=_check_identical,
        page_rule="Pack",
        old_saves={"deck.identical": ""},
    ),
)
