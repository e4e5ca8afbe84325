from rest_framework.routers import DefaultRouter

from .api import CardViewSet

router = DefaultRouter(trailing_slash=True)
router.register("cards", CardViewSet, basename="card")
urlpatterns = router.urls
