from rest_framework.routers import DefaultRouter

from .api import SimulationViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("simulations", SimulationViewSet, basename="simulation")
urlpatterns = router.urls
