from django.apps import AppConfig


class SimulatorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "simulator"

    def ready(self):
        # The tuning runs' tasks live in their own module; Celery's autodiscovery reads only tasks.py.
        from . import tuning_tasks  # noqa: F401
