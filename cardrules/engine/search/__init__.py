"""Search support inside the engine: sampling the hidden cards (worlds) and
playouts.
"""
