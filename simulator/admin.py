from django.contrib import admin

from .models import SimulationChunk, SimulationRun


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin):
    list_display = ("id", "mode", "status", "games", "seed", "deck_name", "user", "progress", "created_at")
    list_filter = ("mode", "status")
    readonly_fields = ("spec", "result", "request_key")


@admin.register(SimulationChunk)
class SimulationChunkAdmin(admin.ModelAdmin):
    list_display = ("run", "index", "elapsed_s", "created_at")
