from django.urls import path

from . import chart_views, views

app_name = "simulator"
urlpatterns = [
    path("simulate/", views.simulate, name="simulate"),
    path("simulate/runs/<int:pk>/", views.run_detail, name="run"),
    path("simulate/runs/<int:pk>/retry/", views.run_retry, name="retry"),
    path("simulate/charts.css", chart_views.charts_stylesheet, name="charts_css"),
]
