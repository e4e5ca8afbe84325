"""/<game>/simulate/… (simulator/games/views.py) and /<game>/api/simulations/, the simulations API's own view
(simulator/api.py) with the game taken from the address."""
from django.urls import path

import roc_site.game_urls  # noqa: F401  (registers the <game:…> converter)
import simulator.urls  # noqa: F401  (registers the <runref:…> converter)

from roc_site.api_views import drf_view

from simulator.api import SimulationViewSet

from simulator import tuning_game_views, tuning_views, views_play
from simulator.tuning_api import TuningViewSet

from . import views

urlpatterns = [
    path("<game:game>/simulate/", views.simulate_page, name="game-simulate"),
    path("<game:game>/simulate/runs/<runref:pk>/", views.run_page, name="game-run"),
    path("<game:game>/simulate/runs/<runref:pk>/replay/", views.replay_redirect, name="game-replay"),
    path("<game:game>/simulate/runs/<runref:pk>/games/<int:index>/", views.replay_page, name="game-replay-game"),
    # the playtest table and the judge sandbox (simulator/views_play.py, through the game's play kit)
    path("<game:game>/play/", views_play.game_playtest_new, name="game-play"),
    path("<game:game>/play/sandbox/", views_play.game_sandbox, name="game-sandbox"),
    path("<game:game>/play/<str:token>/", views_play.game_playtest_table, name="game-play-table"),
    path("<game:game>/play/<str:token>/act/", views_play.game_playtest_act, name="game-play-act"),
    path("<game:game>/play/<str:token>/replay/", views_play.game_playtest_replay, name="game-play-replay"),
    path("<game:game>/strategies/", views.strategy_editor, name="game-strategies"),
    path("<game:game>/strategies/parse/", views.strategy_parse, name="game-strategy-parse"),
    path("<game:game>/round-robin/", views.round_robin_page, name="game-round-robin"),
    path("<game:game>/round-robin/games/<int:i>/<int:j>/<int:k>/", views.round_robin_game,
         name="game-round-robin-game"),
    # /api/simulations/'s view (its authentication, CSRF and throttle), kept out of the OpenAPI schema as before:
    # the schema documents the one endpoint and its `game` field
    path("<game:game>/api/simulations/", SimulationViewSet.as_view({"get": "list", "post": "create"}, schema=None),
         name="game-api-simulations"),
    path("<game:game>/api/round-robin/", drf_view(views.api_round_robin), name="game-api-round-robin"),
    # version against version, swaps and the meta matrix (simulator/tuning_game_views.py, tuning_views.py)
    path("<game:game>/tune/", tuning_game_views.game_tune_page, name="game-tune"),
    path("<game:game>/tune/runs/<runref:pk>/", tuning_views.tuning_run, name="game-tuning-run"),
    path("<game:game>/tune/runs/<runref:pk>/cancel/", tuning_views.tuning_cancel, name="game-tuning-cancel"),
    path("<game:game>/tune/runs/<runref:pk>/cells/<str:cell>/", tuning_views.tuning_cell, name="game-tuning-cell"),
    path("<game:game>/tune/runs/<runref:pk>/cells/<str:cell>/games/<int:index>/", tuning_views.tuning_game,
         name="game-tuning-game"),
    # /api/tuning/'s view with the game taken from the address, kept out of the schema as simulations' is
    path("<game:game>/api/tuning/", TuningViewSet.as_view({"get": "list", "post": "create"}, schema=None),
         name="game-api-tuning"),
]
