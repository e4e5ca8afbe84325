"""A Reign of Kings (r1, rulebook 000/001): the game's facts in `facts` (pure Python, no Django import).

The rest of r1 is served by the original apps (cards/, decks/, simulator/engines/r1/); see cards/games/registry.py.
"""
