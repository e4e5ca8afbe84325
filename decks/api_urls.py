from rest_framework.routers import DefaultRouter

from .api import DeckViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("decks", DeckViewSet, basename="deck")
urlpatterns = router.urls
