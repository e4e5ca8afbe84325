"""The saved games of the playtest table (simulator/playtest.py). Imported by simulator/models.py."""
from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models


class PlaytestGame(models.Model):
    """A game at the playtest table: the decks, the seed, the AI's policy and the action history (replayed to
    resume it), plus the frames of its replay. Owned by a user, or by an anonymous session."""

    token = models.CharField(max_length=32, unique=True)
    # the game played (a registry slug); empty is r1, whose games came first and kept their rows as they were
    game = models.CharField(max_length=16, blank=True, default="", db_index=True)
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="playtest_games")
    session_key = models.CharField(max_length=64, blank=True, default="", db_index=True)
    deck_name = models.CharField(max_length=200, blank=True, default="")
    opponent_name = models.CharField(max_length=200, blank=True, default="")
    deck = models.JSONField(help_text="the person's deck (simulator/deckinput.py read_deck)")
    opponent = models.JSONField(help_text="the AI's deck")
    policy = models.CharField(max_length=20, default="greedy")
    first_player = models.IntegerField(null=True, blank=True,
                                       help_text="the first player of setup (§4): 0 the person, 1 the AI, "
                                                 "empty by the rules (§4: at random)")
    seed = models.BigIntegerField()
    engine_version = models.CharField(max_length=40, blank=True, default="")
    history = models.JSONField(default=list, help_text="Game.history: every choice and shortcut answer")
    frames_saved = models.PositiveIntegerField(default=0, help_text="frames of its replay (PlaytestFrame)")
    seen_log = models.PositiveIntegerField(default=0, help_text="log lines already shown to the person")
    finished = models.BooleanField(default=False)
    winner = models.IntegerField(null=True, blank=True)
    reason = models.CharField(max_length=20, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"playtest {self.token}: {self.deck_name} vs {self.opponent_name}"


class PlaytestFrame(models.Model):
    """One frame of a playtest game's replay (a decision of the person and what followed): appended, never
    rewritten, so a decision writes one small row."""

    game = models.ForeignKey(PlaytestGame, on_delete=models.CASCADE, related_name="frames")
    number = models.PositiveIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="playtest_frame_unique")]
