from django.urls import path, register_converter

from . import chart_views, tuning_views, views, views_play


class RunRef:
    """A run's id (its owner's address) or its share token (simulator/access.py decides which and who)."""

    regex = r"[0-9]{1,18}|[A-Za-z0-9_-]{16,40}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)


register_converter(RunRef, "runref")

app_name = "simulator"
urlpatterns = [
    path("simulate/", views.simulate, name="simulate"),
    path("simulate/runs/<runref:pk>/", views.run_detail, name="run"),
    path("simulate/runs/<runref:pk>/retry/", views.run_retry, name="retry"),
    path("simulate/runs/<runref:pk>/share/", views.run_share, name="share"),
    # watch, judge and play (views_play.py)
    path("simulate/runs/<runref:pk>/games/<int:index>/", views_play.replay_page, name="replay"),
    path("play/sandbox/", views_play.sandbox, name="sandbox"),
    path("play/decklists/", views_play.playtest_decklists, name="playtest_decklists"),
    path("play/", views_play.playtest_new, name="playtest"),
    path("play/<str:token>/", views_play.playtest_table, name="playtest_table"),
    path("play/<str:token>/act/", views_play.playtest_act, name="playtest_act"),
    path("play/<str:token>/replay/", views_play.playtest_replay, name="playtest_replay"),
    path("simulate/charts.css", chart_views.charts_stylesheet, name="charts_css"),
    # tuning
    path("tune/", tuning_views.tune_page, name="tune"),
    path("tune/meta/", tuning_views.meta_page, name="tune_meta"),
    path("tune/runs/<runref:pk>/", tuning_views.tuning_run, name="tuning_run"),
    path("tune/runs/<runref:pk>/cancel/", tuning_views.tuning_cancel, name="tuning_cancel"),
    path("tune/runs/<runref:pk>/share/", views.tuning_share, name="tuning_share"),
    path("tune/runs/<runref:pk>/cells/<str:cell>/", tuning_views.tuning_cell, name="tuning_cell"),
    path("tune/runs/<runref:pk>/cells/<str:cell>/games/<int:index>/", tuning_views.tuning_game, name="tuning_game"),
]
