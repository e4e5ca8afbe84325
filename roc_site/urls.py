from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import views
from .api import ApiRootView

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("roc_site.accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI under the site's CSP: its bundle from our static files (drf-spectacular-sidecar), its start-up
    # script from /api/docs/?script (the split view), our stylesheet instead of the template's inline <style>.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/docs.html"),
         name="api-docs"),
    path("api/", ApiRootView.as_view(), name="api-root"),
    path("api/", include("cards.api_urls")),
    path("api/", include("decks.api_urls")),
    path("api/", include("simulator.api_urls")),
    path("", include("cards.urls")),
    path("", include("decks.urls")),
    path("", include("simulator.urls")),
    path("", include("roc_site.game_urls")),  # /<game>/… for every game of the registry (CONTRACTS §7)
    path("", include("simulator.games.urls")),  # /<game>/simulate/…, /<game>/api/simulations/ (realms, regions)
]

if settings.DEBUG:  # pragma: no cover - uploaded media in development only
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
