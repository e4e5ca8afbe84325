"""The stylesheet of the simulator's SVG charts (kept out of the SVGs for the Content-Security-Policy)."""
from django.http import HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from .charts import chart_css


@require_GET
@cache_control(public=True, max_age=3600)
def charts_stylesheet(request):
    return HttpResponse(chart_css(), content_type="text/css; charset=utf-8")
