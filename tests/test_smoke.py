import pytest
from django.test import Client


@pytest.mark.django_db
def test_home_page_renders():
    response = Client().get("/")
    assert response.status_code == 200
    assert b"Reign of Kings DB" in response.content


@pytest.mark.django_db
def test_openapi_schema_is_served():
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content


@pytest.mark.processes
def test_engine_imports_without_django_settings():
    import subprocess
    import sys

    code = "import simulator.engines.r1, sys; assert not any(m.startswith('django') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, env={"PATH": ""})
