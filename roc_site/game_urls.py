"""The /<game>/ prefix (CONTRACTS §7): every hosted game of the registry (cards/games/registry.py) at
/<game>/cards/, /<game>/decks/, /<game>/decklists/, /<game>/collection/, /<game>/hands/ and /<game>/api/…; the
`game` converter accepts a registered game's slug on each request. /r1/… redirects to r1's own URLs. The API views
are served through DRF (roc_site/api_views.py): a token or the session, as on r1's API, CSRF checked for the session."""
from django.urls import path, re_path, register_converter

from cards import game_views as cv
from cards.game_views import GameConverter
from decks import game_views as dv
from roc_site import views as site_views
from roc_site.api_views import drf_view

register_converter(GameConverter, "game")

urlpatterns = [
    re_path(r"^r1/(?P<rest>.*)$", dv.r1_prefix, name="r1-prefix"),
    path("<game:game>/", dv.game_home, name="game-home"),
    path("<game:game>/game.css", cv.game_css, name="game-css"),
    path("<game:game>/rules/", site_views.rules, name="game-rules"),
    path("<game:game>/cards/", cv.card_list, name="game-cards"),
    path("<game:game>/cards/syntax/", cv.syntax, name="game-syntax"),
    path("<game:game>/cards/<slug:code>/", cv.card_detail, name="game-card"),
    path("<game:game>/cards/<slug:code>.png", cv.card_image, name="game-card-image"),
    path("<game:game>/decks/", dv.deck_list, name="game-decks"),
    path("<game:game>/decks/new/", dv.editor, name="game-deck-new"),
    path("<game:game>/decks/live/", dv.live, name="game-deck-live"),
    path("<game:game>/decks/area/", dv.area, name="game-deck-area"),
    path("<game:game>/decks/browser/", dv.browser, name="game-deck-browser"),
    path("<game:game>/decks/<int:pk>/", dv.deck_detail, name="game-deck"),
    path("<game:game>/decks/<int:pk>/edit/", dv.editor, name="game-deck-edit"),
    path("<game:game>/decks/<int:pk>/export.txt", dv.deck_text, name="game-deck-text"),
    path("<game:game>/decks/<int:pk>.png", dv.deck_image, name="game-deck-image"),
    path("<game:game>/decks/<int:pk>/publish/", dv.deck_publish, name="game-deck-publish"),
    path("<game:game>/decks/<int:pk>/delete/", dv.deck_delete, name="game-deck-delete"),
    path("<game:game>/decks/<int:pk>/versions/<int:number>/restore/", dv.deck_restore, name="game-deck-restore"),
    path("<game:game>/decklists/", dv.decklists, name="game-decklists"),
    path("<game:game>/decklists/<int:pk>-<slug:slug>/", dv.decklist_detail, name="game-decklist"),
    path("<game:game>/decklists/<int:pk>.png", dv.decklist_image, name="game-decklist-image"),
    path("<game:game>/collection/", dv.collection, name="game-collection"),
    path("<game:game>/hands/", dv.hands_page, name="game-hands"),
    path("<game:game>/api/cards/", drf_view(cv.api_cards), name="game-api-cards"),
    path("<game:game>/api/cards/<slug:code>/", drf_view(cv.api_card), name="game-api-card"),
    path("<game:game>/api/decks/", drf_view(dv.api_decks), name="game-api-decks"),
    path("<game:game>/api/decks/validate/", drf_view(dv.api_validate, authenticate=False), name="game-api-validate"),
    path("<game:game>/api/decklists/", drf_view(dv.api_decklists), name="game-api-decklists"),
    path("<game:game>/api/hands/", drf_view(dv.api_hands, authenticate=False), name="game-api-hands"),
]
