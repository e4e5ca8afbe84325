from django.urls import path

from . import views

app_name = "decks"
urlpatterns = [
    path("decks/", views.deck_list, name="list"),
    path("decks/import/", views.deck_import, name="import"),
    path("decks/new/", views.deck_new, name="new"),
    path("decks/archive.json", views.account_archive, name="archive"),
    path("decks/archive/import/", views.account_archive_import, name="archive-import"),
    path("decks/check/", views.deck_check_fragment, name="check"),
    path("decks/browser/", views.card_browser, name="browser"),
    path("decks/charts.css", views.charts_stylesheet, name="charts-css"),
    path("decks/preview/", views.markdown_preview, name="preview"),
    path("decks/<int:pk>/edit/", views.deck_edit, name="edit"),
    path("decks/<int:pk>/", views.deck_detail, name="detail"),
    path("decks/<int:pk>/versions/<int:number>/restore/", views.deck_restore, name="restore"),
    path("decks/<int:pk>/publish/", views.deck_publish, name="publish"),
    path("decks/<int:pk>/delete/", views.deck_delete_view, name="delete"),
    path("decks/<int:pk>/undelete/", views.deck_undelete_view, name="undelete"),
    path("decks/<int:pk>/copy/", views.deck_copy_view, name="copy"),
    path("decks/<int:pk>/import/", views.deck_import_into, name="import-into"),
    path("decks/<int:pk>/compare/", views.deck_compare, name="compare"),
    path("decks/<int:pk>/image.png", views.deck_image, name="image"),
    path("collection/", views.collection_page, name="collection"),
    path("collection/export.csv", views.collection_export, name="collection-export"),
    path("collection/cards/<slug:code>/", views.collection_set_card, name="collection-card"),
    path("decklists/", views.decklist_list, name="decklists"),
    path("decklists/<int:pk>/image.png", views.decklist_image, name="decklist-image"),
    path("decklists/<int:pk>/copy/", views.decklist_copy_view, name="decklist-copy"),
    path("decklists/<int:pk>/like/", views.decklist_like_view, name="decklist-like"),
    path("decklists/<int:pk>/favourite/", views.decklist_favourite_view, name="decklist-favourite"),
    path("decklists/<int:pk>-<slug:slug>/", views.decklist_detail, name="decklist"),
    path("decklists/<int:pk>/", views.decklist_detail, name="decklist-short"),
]
