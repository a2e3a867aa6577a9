"""The phases of a hand, in the order a hand goes through them: the deal,
passing, bidding, making trumps and going alone, the play of a card and
the end of a trick (trick-taking, ranked and shedding play), knock-outs,
scoring (seat by seat and by team) and the end of a hand or of the game.

:class:`~cardrules.engine.game.Game` drives them; they never import it
(they name ``Game`` for the type checker only).
"""
