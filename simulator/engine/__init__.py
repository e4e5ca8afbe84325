"""The rules engine for A Reign of Kings, ruleset r1. Pure Python: imports nothing from Django."""
