from rest_framework.routers import DefaultRouter

from .api import CardViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False   # the API root is the whole API's (roc_site/api.py)
router.register("cards", CardViewSet, basename="card")
urlpatterns = router.urls
