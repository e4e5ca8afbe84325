"""/<game>/simulate/… and /<game>/api/simulations/ for the hosted games' simulations (simulator/games/views.py)."""
from django.urls import path

import roc_site.game_urls  # noqa: F401  (registers the <game:…> converter)
import simulator.urls  # noqa: F401  (registers the <runref:…> converter)

from roc_site.api_views import drf_view
from roc_site.throttling import SimulationRateThrottle

from . import views

urlpatterns = [
    path("<game:game>/simulate/", views.simulate_page, name="game-simulate"),
    path("<game:game>/simulate/runs/<runref:pk>/", views.run_page, name="game-run"),
    path("<game:game>/simulate/runs/<runref:pk>/replay/", views.replay_redirect, name="game-replay"),
    path("<game:game>/simulate/runs/<runref:pk>/games/<int:index>/", views.replay_page, name="game-replay-game"),
    path("<game:game>/strategies/", views.strategy_editor, name="game-strategies"),
    path("<game:game>/strategies/parse/", views.strategy_parse, name="game-strategy-parse"),
    path("<game:game>/round-robin/", views.round_robin_page, name="game-round-robin"),
    path("<game:game>/round-robin/games/<int:i>/<int:j>/<int:k>/", views.round_robin_game,
         name="game-round-robin-game"),
    # served through DRF (roc_site/api_views.py): token or session, CSRF for the session, r1's run throttle
    path("<game:game>/api/simulations/", drf_view(views.api_simulations, throttle_classes=[SimulationRateThrottle]),
         name="game-api-simulations"),
    path("<game:game>/api/round-robin/", drf_view(views.api_round_robin), name="game-api-round-robin"),
]
