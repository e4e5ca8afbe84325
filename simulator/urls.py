from django.urls import path

from . import chart_views, tuning_views, views

app_name = "simulator"
urlpatterns = [
    path("simulate/", views.simulate, name="simulate"),
    path("simulate/runs/<int:pk>/", views.run_detail, name="run"),
    path("simulate/runs/<int:pk>/retry/", views.run_retry, name="retry"),
    path("simulate/charts.css", chart_views.charts_stylesheet, name="charts_css"),
    # tuning (issue 15)
    path("tune/", tuning_views.tune_page, name="tune"),
    path("tune/meta/", tuning_views.meta_page, name="tune_meta"),
    path("tune/runs/<int:pk>/", tuning_views.tuning_run, name="tuning_run"),
    path("tune/runs/<int:pk>/cancel/", tuning_views.tuning_cancel, name="tuning_cancel"),
    path("tune/runs/<int:pk>/cells/<str:cell>/", tuning_views.tuning_cell, name="tuning_cell"),
]
