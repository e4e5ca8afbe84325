"""Rules engines of the games other than r1 (whose engine is `simulator/engine/`), one package each.

Every engine has the r1 engine's shape (`protocol.py`): decisions as actions with printable texts, seeded
randomness, a log citing the rules, positions printed and loaded, a per-player view for policies.
"""
