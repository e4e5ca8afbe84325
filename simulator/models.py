"""Simulation runs as data: what was asked, by whom, with which engine, and what came out."""
from django.conf import settings as django_settings
from django.db import models


class RunStatus(models.TextChoices):
    PENDING = "pending", "waiting for the queue"   # saved, not yet handed to a worker (e.g. broker down)
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


IN_FLIGHT = (RunStatus.PENDING, RunStatus.QUEUED, RunStatus.RUNNING)


class SimulationRun(models.Model):
    MODE_CHOICES = [("hands", "Opening hands and setup"), ("goldfish", "Goldfish"), ("versus", "Head-to-head")]

    mode = models.CharField(max_length=10, choices=MODE_CHOICES)
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.PENDING, db_index=True)
    games = models.PositiveIntegerField(help_text="games played, or opening hands sampled for 'hands'")
    seed = models.BigIntegerField()
    settings = models.JSONField(default=dict, blank=True)
    engine_version = models.CharField(max_length=40)
    request_key = models.CharField(max_length=64, db_index=True,
                                   help_text="sha256 of decks' card data, mode, games, seed, settings, engine version")

    deck_name = models.CharField(max_length=200, blank=True, default="")
    deck_hash = models.CharField(max_length=64, db_index=True)
    deck_counts = models.JSONField(default=dict)
    deck_legal = models.BooleanField(default=True)
    deck_version = models.ForeignKey("decks.DeckVersion", on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="simulations")
    opponent_name = models.CharField(max_length=200, blank=True, default="")
    opponent_hash = models.CharField(max_length=64, blank=True, default="")
    opponent_counts = models.JSONField(null=True, blank=True)
    opponent_version = models.ForeignKey("decks.DeckVersion", on_delete=models.SET_NULL, null=True, blank=True,
                                         related_name="opponent_simulations")
    spec = models.JSONField(help_text="everything a worker needs, card data included (simulator/runner.py)")

    chunks_total = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    progress = models.FloatField(default=0.0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")

    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="simulations")
    session_key = models.CharField(max_length=64, blank=True, default="", db_index=True,
                                   help_text="an anonymous owner (simulator/access.py owner_key)")
    share_token = models.CharField(max_length=32, unique=True, null=True, blank=True,
                                   help_text="set while the owner shares the run: its unguessable link")
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    elapsed_s = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["request_key", "status"])]

    def __str__(self) -> str:
        return f"run {self.pk} ({self.mode}, {self.status})"

    @property
    def ref(self):
        """How this page's links name the run: its id for its owner, its share token for whoever came by the
        shared link (simulator/access.py sets it)."""
        return getattr(self, "_ref", None) or self.pk

    @ref.setter
    def ref(self, value) -> None:
        self._ref = value

    def get_absolute_url(self) -> str:
        game = (self.spec or {}).get("game")  # a hosted game's run (simulator/games): its /<game>/ report page
        return f"/{game}/simulate/runs/{self.ref}/" if game else f"/simulate/runs/{self.ref}/"

    @property
    def is_finished(self) -> bool:
        return self.status in (RunStatus.DONE, RunStatus.FAILED)


class SimulationChunk(models.Model):
    """One chunk's partial result, stored under (run, index): a redelivered chunk finds it and changes nothing."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    result = models.JSONField()
    elapsed_s = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="simulator_chunk_once")]


class TuningRun(models.Model):
    """A compare, tune or matrix run: a sequence of stages of units (simulator/tuning.py)."""

    KIND_CHOICES = [("compare", "Version against version"), ("tune", "Card swaps"), ("matrix", "Meta matrix")]
    CANCELLED = "cancelled"
    STATUS_CHOICES = [*RunStatus.choices, (CANCELLED, "cancelled")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    game = models.CharField(max_length=16, blank=True, default="", db_index=True,
                            help_text="the hosted game's slug ('' for the default game, r1); its pages are /<game>/tune/")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=RunStatus.PENDING, db_index=True)
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    policy = models.CharField(max_length=40, default="greedy")
    opponent_policy = models.CharField(max_length=40, default="greedy")
    target = models.CharField(max_length=10, blank=True, default="")
    engine_version = models.CharField(max_length=60)
    request_key = models.CharField(max_length=64, db_index=True)
    title = models.CharField(max_length=300, blank=True, default="")
    spec = models.JSONField(help_text="everything a worker needs, card data included (simulator/tuning.py)")
    stage = models.PositiveIntegerField(default=0, help_text="the stage being computed")
    stage_units = models.JSONField(default=list, help_text="the units of the current stage")
    games_done = models.PositiveIntegerField(default=0)
    games_planned = models.PositiveIntegerField(default=0)
    progress = models.FloatField(default=0.0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    nightly = models.BooleanField(default=False, db_index=True,
                                  help_text="the nightly meta matrix of the most-liked decklists")
    private = models.BooleanField(default=False, help_text="used a saved deck: only its creator sees it")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="tuning_runs")
    session_key = models.CharField(max_length=64, blank=True, default="", db_index=True,
                                   help_text="an anonymous owner (simulator/access.py owner_key)")
    share_token = models.CharField(max_length=32, unique=True, null=True, blank=True,
                                   help_text="set while the owner shares the run: its unguessable link")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    elapsed_s = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"tuning run {self.pk} ({self.kind}, {self.status})"

    ref = SimulationRun.ref

    def get_absolute_url(self) -> str:
        return f"/{self.game}/tune/runs/{self.ref}/" if self.game else f"/tune/runs/{self.ref}/"

    @property
    def is_finished(self) -> bool:
        return self.status in (RunStatus.DONE, RunStatus.FAILED, self.CANCELLED)


class TuningUnit(models.Model):
    """One unit's partial, stored under (run, stage, index): a redelivered unit finds it and changes nothing."""

    run = models.ForeignKey(TuningRun, on_delete=models.CASCADE, related_name="units")
    stage = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    result = models.JSONField()
    games = models.PositiveIntegerField(default=0)
    elapsed_s = models.FloatField(default=0.0)

    class Meta:
        ordering = ["run", "stage", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "stage", "index"], name="simulator_tuning_unit_once")]
from .playtest_models import PlaytestFrame, PlaytestGame  # noqa: E402,F401  (the playtest table)
