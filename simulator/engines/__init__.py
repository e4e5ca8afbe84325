"""The rules engines, one package per game (`r1/`, `realms/`, `regions/`), and `common/`, what they share.

Every engine offers the shape of `common/protocol.py`: decisions as actions with printable texts, seeded
randomness, a log citing the rules, positions printed and loaded, a per-player view for policies. See
docs/engine.md, "Layout", for how a game plugs in.
"""
