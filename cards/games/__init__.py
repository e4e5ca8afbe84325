"""The card games the site hosts, one package each (`r1`, `realms`, `regions`).

Each package holds that game's pure-Python facts and rules (no Django import): card schema and loader rules,
deck identity and legality, search keys, card frame. The engines live in `simulator/engines/<game>/`
(r1's in `simulator/engines/r1/`). See docs/games/.
"""
