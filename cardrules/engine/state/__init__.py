"""The game's state and what it is built from: the variant compiled for the
engine, the constant tables and rank orders every phase reads, the order of
the cards in a deal, teams, take-backs (undo and the history of a game) and
saved games.
"""
