from django.urls import path

from . import image_views, views

app_name = "cards"
urlpatterns = [
    # Owned by the catalogue pages (views.py) ...
    path("cards/", views.card_list, name="list"),
    path("cards/syntax/", views.syntax, name="syntax"),
    path("cards/legend/<slug:name>.png", views.legend_symbol, name="legend-symbol"),
    path("cards/<slug:code>/", views.card_detail, name="detail"),
    # ... and the card images (image_views.py): /cards/CODE.png
    path("cards/<slug:code>.png", image_views.card_image, name="card-image"),
]
