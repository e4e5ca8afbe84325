from rest_framework.routers import DefaultRouter

from .api import SimulationViewSet
from .tuning_api import TuningViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("simulations", SimulationViewSet, basename="simulation")
router.register("tuning", TuningViewSet, basename="tuning")
urlpatterns = router.urls
