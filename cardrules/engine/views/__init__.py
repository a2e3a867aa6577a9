"""What a seat (or a program) is shown: views and results, observation
vectors, information states, the typed event records, the JSON form of
records, action notation, and the words of a refusal.
"""
