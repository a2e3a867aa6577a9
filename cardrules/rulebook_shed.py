"""The sections of a rules page for a shedding game (Kazhutha and its family)."""

from __future__ import annotations

from cardrules.rulebook_words import (
    all_out_phrase,
    dead_trick_phrase,
    first_lead_phrase,
    follow_phrase,
    left_or_right,
    match_phrase,
)
from cardrules.rules import DeadTricks, Variant

__all__ = ["shedding_sections"]


def shedding_sections(v: Variant) -> list[str]:
    """Playing, dead tricks and cuts worked through, getting out, and the match letters."""
    side = left_or_right(v)
    out = [
        "## Playing",
        "",
        "The aim is to get rid of all your cards. There are no trumps and nobody bids.",
        "",
        first_lead_phrase(v),
        "",
        f"Play goes to the {side}. {follow_phrase(v)}",
        "",
        "A trick ends in one of two ways:",
        "",
        "- **Everyone follows suit.** The trick is *dead*. "
        + dead_trick_phrase(v)
        + " Whoever played the highest card of the suit led leads the next trick, with any "
        "card.",
        "- **Someone cannot follow.** They play any card: that is a *cut*. The trick stops at "
        "once, and the players after them do not play to it. Whoever played the highest card "
        "of the suit led picks up every card of the trick, the cut card too, adds them to "
        "their hand, and leads the next trick.",
        "",
        "### A dead trick and a cut, worked through",
        "",
        f"Four players, Asha, Ben, Chitra and Dev, sit so that play goes from each to the "
        f"next in that order (each player's {side}-hand neighbour is the next one).",
        "",
        "1. Asha leads the 7♥. Ben plays the 2♥, Chitra the J♥ and Dev the 5♥. Everyone "
        "followed suit, so the trick is dead: the four cards leave the game"
        + (
            " face up, where anyone may count them"
            if v.shedding.dead_tricks is DeadTricks.FACE_UP
            else " face down, and nobody may look at them again"
        )
        + ". The J♥ was the highest heart, so Chitra leads next.",
        "2. Chitra leads the 9♣ and Dev plays the K♣. Asha has no clubs left, so she cuts "
        "with the A♦. The trick stops there: Ben does not play. The A♦ is the higher card, "
        "but it is not a club, so it does not count. Dev played the highest club, so he picks "
        "up all three cards (9♣, K♣ and A♦), adds them to his hand and leads the next trick.",
        "",
        "Everyone saw which cards Dev picked up, so you may remember that he now holds the A♦.",
        "",
        "## Getting out",
        "",
        "A player with no cards left is out and safe, and takes no further part in the game. "
        "If the player who should lead is out, the next player still in leads instead.",
        "",
        "Play goes on until at most one player holds cards. That player loses the game. "
        + all_out_phrase(v),
        "",
        "## Match letters",
        "",
        match_phrase(v),
        "",
    ]
    if v.match.word:
        letters = v.match.word.upper()
        rows = [f"| {i + 1} | {'-'.join(letters[: i + 1])} |" for i in range(len(letters))]
        out += [
            "| Games lost | Letters held |",
            "| ---: | :--- |",
            *rows,
            "",
        ]
    return out
