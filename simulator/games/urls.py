"""/<game>/simulate/… and /<game>/api/simulations/ for the hosted games' simulations (simulator/games/views.py)."""
from django.urls import path

import roc_site.game_urls  # noqa: F401  (registers the <game:…> converter)
import simulator.urls  # noqa: F401  (registers the <runref:…> converter)

from roc_site.api_views import drf_view
from roc_site.throttling import SimulationRateThrottle

from simulator import views_play

from . import views

urlpatterns = [
    path("<game:game>/simulate/", views.simulate_page, name="game-simulate"),
    path("<game:game>/simulate/runs/<runref:pk>/", views.run_page, name="game-run"),
    path("<game:game>/simulate/runs/<runref:pk>/replay/", views.replay_page, name="game-replay"),
    # the playtest table and the judge sandbox (simulator/views_play.py, through the game's play kit)
    path("<game:game>/play/", views_play.game_playtest_new, name="game-play"),
    path("<game:game>/play/sandbox/", views_play.game_sandbox, name="game-sandbox"),
    path("<game:game>/play/<str:token>/", views_play.game_playtest_table, name="game-play-table"),
    path("<game:game>/play/<str:token>/act/", views_play.game_playtest_act, name="game-play-act"),
    path("<game:game>/strategies/", views.strategy_editor, name="game-strategies"),
    path("<game:game>/strategies/parse/", views.strategy_parse, name="game-strategy-parse"),
    path("<game:game>/round-robin/", views.round_robin_page, name="game-round-robin"),
    # served through DRF (roc_site/api_views.py): token or session, CSRF for the session, r1's run throttle
    path("<game:game>/api/simulations/", drf_view(views.api_simulations, throttle_classes=[SimulationRateThrottle]),
         name="game-api-simulations"),
    path("<game:game>/api/round-robin/", drf_view(views.api_round_robin), name="game-api-round-robin"),
]
