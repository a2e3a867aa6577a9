"""The settings of the play of the cards: ``first lead``, ``follow``,
``lead``, ``first trick``, ``broken by``, ``breaking cards``, ``leader out``
and ``leading trumps``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import attrs

from cardrules.card_rules import (
    ANY_CARD,
    FOLLOW_SUIT,
    BreakTrigger,
    CardChoice,
    CardTerm,
    TermKind,
    follow_choice,
    lead_choice,
)
from cardrules.cards import Card, Suit, card
from cardrules.rules import FirstLead, FirstLeader, LeaderOut, ShedLoser, TrumpNamer, Variant

from .declaration import SettingSpec, always
from .effect_checks import Context, NoOp, is_option, shedding_only
from .statement import Setting, StatementBuilder, suit_of, tokens

__all__ = ["PLAY"]


# ---- how each is written


def _first_lead(v: Variant) -> str:
    p = v.play
    if p.first_leader is FirstLeader.DECLARER:
        return "declarer"
    if p.first_leader is FirstLeader.DEALER_NEXT or p.lead_card is None:
        return "dealer's neighbour"
    text = f"holder of {p.lead_card}" + "".join(f" otherwise {k}" for k in p.lead_card_else)
    if p.first_lead is FirstLead.CARD:
        return text + " leads it"
    if p.first_lead is FirstLead.SUIT:
        return text + f" leads any {p.lead_card.suit.word[:-1]}"
    return text + " leads any card"


def _follow(v: Variant) -> str:
    p = v.play
    if p.follow == ANY_CARD:
        return "any card"
    if not p.must_follow:
        return str(p.follow)
    parts = ["must follow suit"]
    if p.must_trump:
        parts.append("must trump when void")
    if p.must_beat:
        parts.append("must beat when able")
    return ", ".join(parts)


def _shorthand_lead(v: Variant) -> bool:
    """Whether ``leading trumps:`` can write the lead rule (else ``lead:`` does)."""
    return v.play.lead in (ANY_CARD, lead_choice(trumps_once_broken=True))


def _leading_trumps(v: Variant) -> str:
    return "once broken" if v.play.lead == lead_choice(trumps_once_broken=True) else "any time"


# ---- where each changes nothing


def _pack_constant(c: Context, term: CardTerm) -> tuple[bool, str] | None:
    """For a ``suit``, ``higher`` or ``lower`` term: whether it matches every
    card of the pack (True) or none (False), and why; ``None`` if some and not
    others."""
    v = c.v
    k = term.kind
    # A joker has no printed suit or rank: no such term names it.
    pack = [x for x in v.deck.cards if not x.is_joker]
    if k is TermKind.SUIT:
        matched = sum(1 for x in pack if x.suit is term.suit)
    elif k is TermKind.HIGHER:
        matched = sum(1 for x in pack if x.rank > (term.rank or 0))
    else:
        matched = sum(1 for x in pack if x.rank < (term.rank or 0))
    if 0 < matched < v.deck.size:
        return None
    every = matched > 0
    plain = str(attrs.evolve(term, negated=False, unbroken=False))
    if k is TermKind.SUIT and term.suit is not None:
        plain = f"a {term.suit.word[:-1]}"
    return every, f"{'every' if every else 'no'} card of the pack is {plain}"


def _plain_constant(c: Context, term: CardTerm, leading: bool | None) -> tuple[bool, str] | None:
    """For the other kinds of term: whether it matches every card (True) or none
    (False) whatever happens, and why; ``None`` if it depends on the play."""
    k = term.kind
    if k is TermKind.ANY:
        return True, ""
    if k is TermKind.TRUMPS and c.never_trumps:
        return False, c.no_trumps_why
    if k is TermKind.SUIT_LED and leading:
        return False, "the leader of a trick has no suit led"
    if k is TermKind.WINNING and leading:
        return True, "every card a leader leads is winning"
    if k is TermKind.CARD and term.card is not None and term.card not in c.v.deck.cards:
        return False, f"{term.card} is taken out of the pack"
    return None


def _constant(c: Context, term: CardTerm, leading: bool | None) -> tuple[bool, str] | None:
    """Whether a term of a card-set list matches every card (True) or none
    (False) in this game whatever happens, and why (``""`` for a plain ``any
    card``); ``None`` if it depends on the play. ``leading``: the list is for
    the leader (True), a follower (False) or both (None)."""
    if term.kind in (TermKind.SUIT, TermKind.HIGHER, TermKind.LOWER):
        fact = _pack_constant(c, term)
    else:
        fact = _plain_constant(c, term, leading)
    if fact is None:
        return None
    every, why = fact
    if every and term.unbroken:
        return None  # the unbroken part of every card still depends on the play
    return (not every if term.negated else every), why


def _choice(
    c: Context, key: str, choice: CardChoice, leading: bool | None, default: CardChoice
) -> Iterator[NoOp]:
    """The card-set list of ``key``: as a whole, when (not being ``default``) it
    leaves every card playable whatever happens; else each term or set in it
    that changes nothing."""
    options = choice.options
    parts: list[str] = []
    reasons: list[str] = []
    imposes = False  # some set, reached, may leave out some cards
    decided = False
    for i, option in enumerate(options):
        facts = [(term, _constant(c, term, leading)) for term in option.terms]
        for term, fact in facts:
            if fact is not None and fact[1]:
                parts.append(
                    f"`{attrs.evolve(term, negated=False)}` in `{key}:` has no effect: {fact[1]}"
                )
                reasons.append(fact[1])
        dead = any(fact is not None and not fact[0] for _, fact in facts)
        everything = all(fact is not None and fact[0] for _, fact in facts)
        if not decided and not dead:
            decided = True
            imposes = not everything
        if everything and i + 1 < len(options):
            parts.extend(
                f"`{later}` in `{key}:` has no effect: `{option}` before it always leaves "
                "a card to play"
                for later in options[i + 1 :]
            )
            break
    if key != "follow" and not imposes and choice != default:
        why = reasons[0] if reasons else f"`{options[0]}` comes first"
        verb = "led" if leading else "played"
        yield NoOp(
            key,
            f"`{key}` has no effect: {why}, so any card may be {verb} as before",
            ("trumps", "deck"),
        )
        return
    for message in dict.fromkeys(parts):
        yield NoOp(key, message, ("trumps", "deck"), hint="take it out of the list", part=True)


def _check_follow(c: Context) -> Iterator[NoOp]:
    p = c.v.play
    if p.follow == follow_choice(must_follow=True, must_trump=p.must_trump, must_beat=p.must_beat):
        # A short form: its own trumps terms come with `must beat` and `must trump`.
        if p.must_trump and c.never_trumps:
            yield NoOp(
                "follow",
                f"`must trump when void` in `follow` has no effect: {c.no_trumps_why}",
                ("trumps",),
                hint="take it out of the line",
                part=True,
            )
        return
    yield from _choice(c, "follow", p.follow, False, FOLLOW_SUIT)


def _lead_keys(v: Variant) -> tuple[str, str | None]:
    """The setting that gave the lead rule (``lead`` or ``leading trumps``), and
    the other one if the same file says it too (and so it changes nothing)."""
    said = [(k, pos) for k in ("lead", "leading trumps") if (pos := v.position(k)) is not None]
    if not said:
        return ("leading trumps" if v.play.lead == ANY_CARD else "lead"), None
    rank = {k: (is_option(pos), pos.path == v.path, pos.line) for k, pos in said}
    winner = max(rank, key=lambda k: rank[k])
    others = [(k, pos) for k, pos in said if k != winner]
    win_pos = v.position(winner)
    if others and win_pos is not None and others[0][1].path == win_pos.path:
        return winner, others[0][0]
    return winner, None


def _check_lead(c: Context) -> Iterator[NoOp]:
    """The lead rule's check: it looks at both lines, ``lead`` and ``leading trumps``."""
    v = c.v
    key, replaced = _lead_keys(v)
    if replaced is not None:
        pos = v.position(key)
        assert pos is not None
        yield NoOp(
            replaced,
            f"`{replaced}` has no effect: `{key}:` on line {pos.line} replaces it",
            hint="delete one of the two lines",
        )
    lead = v.play.lead
    if key == "leading trumps":
        if lead == lead_choice(trumps_once_broken=True) and c.never_trumps:
            yield NoOp(
                key,
                f"`leading trumps: once broken` has no effect: {c.no_trumps_why}",
                ("trumps",),
                hint="write `leading trumps: any time`, or delete the line",
            )
        return
    yield from _choice(c, key, lead, True, ANY_CARD)


def _check_leading_trumps(_c: Context) -> Iterator[NoOp]:
    """Nothing of its own: the lead rule's check, under ``lead``, looks at both lines."""
    return iter(())


def _check_first_trick(c: Context) -> Iterator[NoOp]:
    yield from _choice(c, "first trick", c.v.play.first_trick, None, ANY_CARD)


def _no_unbroken(c: Context) -> bool:
    """Whether no card-set rule of the game uses ``unbroken``."""
    p = c.v.play
    lists = (p.follow, p.lead, p.first_trick)
    return not any(t.unbroken for rule in lists for o in rule.options for t in o.terms)


def _check_broken_by(c: Context) -> Iterator[NoOp]:
    if c.v.play.broken_by == (BreakTrigger.ANY_PLAY,):
        return  # the default rule said again
    if _no_unbroken(c):
        yield NoOp(
            "broken by",
            "`broken by` has no effect: no `follow:`, `lead:` or `first trick:` rule "
            "uses `unbroken`",
            ("follow", "lead", "leading trumps", "first trick"),
        )


def _check_first_lead(c: Context) -> Iterator[NoOp]:
    p = c.v.play
    if p.first_leader is FirstLeader.DECLARER and c.v.trumps.namer is TrumpNamer.NOBODY:
        yield NoOp(
            "first lead",
            "`first lead: declarer` has no effect: nobody makes trumps in this game, so "
            "the dealer's neighbour always leads",
            ("trumps",),
            hint="write `first lead: dealer's neighbour`",
        )
    if not p.lead_card_else or p.lead_card is None:
        return
    packs = [c.v.deck.cards_for(n) for n in c.v.players.counts()]
    named = (p.lead_card, *p.lead_card_else)
    for i, k in enumerate(p.lead_card_else, start=1):
        if not any(k in pack and not any(x in pack for x in named[:i]) for pack in packs):
            yield NoOp(
                "first lead",
                f"`otherwise {k}` in `first lead` has no effect: for every number of players "
                f"a card named before it is in the pack",
                ("deck", "players"),
                hint="take it out of the line",
                part=True,
            )


def _check_breaking_cards(c: Context) -> Iterator[NoOp]:
    p = c.v.play
    if not p.also_breaks:
        return
    if _no_unbroken(c):
        yield NoOp(
            "breaking cards",
            "`breaking cards` has no effect: no `follow:`, `lead:` or `first trick:` rule "
            "uses `unbroken`",
            ("follow", "lead", "leading trumps", "first trick"),
        )
        return
    pack = c.v.deck.cards
    for k, s in p.also_breaks:
        if k not in pack:
            yield NoOp(
                "breaking cards",
                f"`{k} breaks {s.word}` in `breaking cards` has no effect: {k} is taken out "
                "of the pack",
                ("deck",),
                hint=f"take `{k} breaks {s.word}` out of the line",
                part=len(p.also_breaks) > 1,
            )


_leader_out_only_shedding: Final = shedding_only(
    "leader out", lambda v: v.play.leader_out is not LeaderOut.NEXT_IN
)


def _check_leader_out(c: Context) -> Iterator[NoOp]:
    v = c.v
    yield from _leader_out_only_shedding(c)
    if c.tricks or v.play.leader_out is not LeaderOut.NEXT_HIGHEST:
        return
    shown = "`leader out: next highest card` has no effect"
    if v.shedding.loser is ShedLoser.MOST_CARDS:
        yield NoOp(
            "leader out",
            f"{shown}: the game ends as soon as a player goes out "
            "(`loser: most cards when the first goes out`), so nobody leads after it",
            ("loser",),
        )
    elif v.players.max <= 2:
        yield NoOp(
            "leader out",
            f"{shown} with 2 players: when one goes out, the game is over",
            ("players",),
        )


# --------------------------------------------------------------------------- the parse


def _parse_first_lead(b: StatementBuilder, c: list[Any]) -> Setting:
    toks = list(tokens(c[2:]))
    others: list[Card] = []
    if toks[0].type == "V_DEALERS_NEIGHBOUR":
        leader, lead_card, lead = FirstLeader.DEALER_NEXT, None, FirstLead.ANY
    elif toks[0].type == "V_DECLARER":
        leader, lead_card, lead = FirstLeader.DECLARER, None, FirstLead.ANY
    else:
        lead_card = card(str(toks[1]))
        leader, lead = FirstLeader.HOLDER, FirstLead.CARD
        # `holder of 2♣ otherwise 3♣ leads it`: the cards that take its place.
        for t in toks[2:]:
            if t.type == "CARD":
                k = card(str(t))
                if k == lead_card or k in others:
                    raise b.error(t, f"{k} is named twice")
                others.append(k)
        toks = [t for t in toks if t.type not in ("CARD", "V_OTHERWISE")]
        toks = [toks[0], toks[0], *toks[1:]]  # the layout below: [holder, card, ...]
        if len(toks) > 2 and toks[2].type == "V_LEADS_ANY":
            lead = FirstLead.ANY
            if toks[3].type == "SUIT":
                lead = FirstLead.SUIT
                suit = suit_of(toks[3])
                for k in (lead_card, *others):
                    if suit is not k.suit:
                        singular = k.suit.word[:-1]
                        raise b.error(
                            toks[3],
                            f"{k} is not one of the {suit.word}",
                            expected=f"`leads any {singular}` or `leads any card`",
                        )
    else_cards = tuple(others)
    return b.setting(
        c,
        ("play.first_leader", leader),
        ("play.lead_card", lead_card),
        ("play.first_lead", lead),
        ("play.lead_card_else", else_cards),
    )


def _parse_follow(b: StatementBuilder, c: list[Any]) -> Setting:
    if isinstance(c[2], CardChoice):
        return b.setting(c, ("play.follow", c[2]))
    toks = list(tokens(c[2:]))
    kinds = [t.type for t in toks]
    for i, t in enumerate(toks):
        if t.type in kinds[:i]:
            raise b.error(t, f"`{str(t).strip()}` is given twice")
    rule = follow_choice(
        must_follow="V_MUST_FOLLOW" in kinds,
        must_trump="V_MUST_TRUMP" in kinds,
        must_beat="V_MUST_BEAT" in kinds,
    )
    return b.setting(c, ("play.follow", rule))


def _parse_lead(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("play.lead", c[2]))


def _parse_first_trick(b: StatementBuilder, c: list[Any]) -> Setting:
    return b.setting(c, ("play.first_trick", c[2]))


def _parse_broken_by(b: StatementBuilder, c: list[Any]) -> Setting:
    triggers = tuple(dict.fromkeys(x for x in c[2:] if isinstance(x, BreakTrigger)))
    return b.setting(c, ("play.broken_by", triggers))


def _parse_breaking_cards(b: StatementBuilder, c: list[Any]) -> Setting:
    pairs: list[tuple[Card, Suit]] = []
    for tok, items in (x for x in c[2:] if isinstance(x, tuple)):
        for pair in items:
            if pair in pairs:
                raise b.error(tok, f"{pair[0]} breaks {pair[1].word} twice")
            if pair[1] == pair[0].suit:
                raise b.error(
                    tok,
                    f"{pair[0]} breaks {pair[1].word} anyway: it is one of them",
                    expected="another suit than the card's own",
                )
            pairs.append(pair)
    return b.setting(c, ("play.also_breaks", tuple(sorted(pairs))))


def _parse_leader_out(b: StatementBuilder, c: list[Any]) -> Setting:
    out = {
        "V_NEXT_PLAYER_IN": LeaderOut.NEXT_IN,
        "V_NEXT_HIGHEST": LeaderOut.NEXT_HIGHEST,
        "V_DRAWS_DEAD": LeaderOut.DRAWS,
    }[c[2].type]
    return b.setting(c, ("play.leader_out", out))


def _parse_leading_trumps(b: StatementBuilder, c: list[Any]) -> Setting:
    rule = lead_choice(trumps_once_broken=c[2].type != "V_ANY_TIME")
    return b.setting(c, ("play.lead", rule))


#: The play's settings, in the canonical order of a formatted file.
PLAY: Final = (
    SettingSpec(
        "first lead",
        "K_FIRST_LEAD",
        "first_lead",
        ("play.first_leader", "play.lead_card", "play.first_lead", "play.lead_card_else"),
        parse=_parse_first_lead,
        samples=(
            "first lead: holder of A♠ leads any spade",
            "first lead: holder of 2♣ otherwise 3♣ leads it",
            "first lead: declarer",
        ),
        render=_first_lead,
        written=always,
        where="every game; the cards after `otherwise` only when the card before is taken "
        "out for some number of players",
        check=_check_first_lead,
        page_rule="First lead",
        old_saves={"play.lead_card_else": ()},
    ),
    SettingSpec(
        "follow",
        "K_FOLLOW",
        "follow",
        ("play.follow",),
        parse=_parse_follow,
        samples=(
            "follow: must follow suit, must trump when void",
            "follow: suit led, otherwise any card",
        ),
        render=_follow,
        written=always,
        where="every game; each term matching some cards and not others, each set reachable",
        check=_check_follow,
        page_rule="Following",
    ),
    SettingSpec(
        "lead",
        "K_LEAD",
        "lead",
        (),
        parse=_parse_lead,
        samples=("lead: any card except unbroken hearts, otherwise any card",),
        render=lambda v: str(v.play.lead),
        written=lambda v: not _shorthand_lead(v),
        where="every game, unless `leading trumps:` in the same file replaces it; each term "
        "matching some of a leader's cards",
        check=_check_lead,
        page_rule="Leading",
        shares=("play.lead",),
    ),
    SettingSpec(
        "first trick",
        "K_FIRST_TRICK",
        "first_trick",
        ("play.first_trick",),
        parse=_parse_first_trick,
        samples=("first trick: any card except hearts, otherwise any card",),
        render=lambda v: str(v.play.first_trick),
        where="every game; each term matching some cards and not others",
        check=_check_first_trick,
        page_rule="The first trick",
    ),
    SettingSpec(
        "broken by",
        "K_BROKEN_BY",
        "broken_by",
        ("play.broken_by",),
        parse=_parse_broken_by,
        samples=("broken by: void play, forced lead",),
        render=lambda v: ", ".join(t.value for t in v.play.broken_by),
        where="games whose card-set rules use `unbroken`",
        check=_check_broken_by,
        page_rule="Breaking a suit",
    ),
    SettingSpec(
        "breaking cards",
        "K_BREAKING_CARDS",
        "breaking_cards",
        ("play.also_breaks",),
        parse=_parse_breaking_cards,
        samples=("breaking cards: Q♠ breaks hearts, J♦ breaks clubs and spades",),
        render=lambda v: ", ".join(f"{c} breaks {s.word}" for c, s in v.play.also_breaks),
        written=lambda v: bool(v.play.also_breaks),
        where="games whose card-set rules use `unbroken`, for cards in the pack",
        check=_check_breaking_cards,
        page_rule="Breaking a suit",
        old_saves={"play.also_breaks": ()},
    ),
    SettingSpec(
        "leader out",
        "K_LEADER_OUT",
        "leader_out",
        ("play.leader_out",),
        parse=_parse_leader_out,
        samples=(
            "leader out: next highest card",
            "leader out: draws a dead card",
        ),
        render=lambda v: v.play.leader_out.value,
        where="shedding games that play on after a player goes out, for more than 2 players",
        check=_check_leader_out,
        page_rule="Leading after going out",
    ),
    SettingSpec(
        "leading trumps",
        "K_LEADING_TRUMPS",
        "leading_trumps",
        ("play.lead",),
        parse=_parse_leading_trumps,
        samples=("leading trumps: once broken",),
        render=_leading_trumps,
        written=_shorthand_lead,
        where="games with trumps (`once broken`), unless `lead:` in the same file replaces it",
        check=_check_leading_trumps,
        page_rule="Leading",
    ),
)
