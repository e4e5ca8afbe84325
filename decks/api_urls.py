from rest_framework.routers import DefaultRouter

from .api import CollectionViewSet, DecklistViewSet, DeckViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("decks", DeckViewSet, basename="deck")
router.register("decklists", DecklistViewSet, basename="decklist")
router.register("collection", CollectionViewSet, basename="collection")
urlpatterns = router.urls
