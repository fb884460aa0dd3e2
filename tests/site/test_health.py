import json
import socket

import pytest
from django.db import connection


def test_tests_run_on_postgresql(db):
    assert connection.vendor == "postgresql"


def test_healthz_reports_database_and_broker_ok(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok"}


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # free again once closed: nothing listens there


def test_healthz_names_the_broker_when_it_cannot_be_reached(client, db, monkeypatch):
    # Celery's broker_url reads the environment before its configuration
    monkeypatch.setenv("CELERY_BROKER_URL", f"redis://127.0.0.1:{closed_port()}/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["database"] == "ok"
    assert body["broker"].startswith("error")


@pytest.mark.django_db(transaction=True)
def test_healthz_names_the_database_when_it_cannot_be_reached(client):
    settings_dict = connection.settings_dict
    real_host, real_port = settings_dict["HOST"], settings_dict["PORT"]
    connection.close()
    settings_dict["HOST"], settings_dict["PORT"] = "127.0.0.1", closed_port()
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        settings_dict["HOST"], settings_dict["PORT"] = real_host, real_port
    assert response.status_code == 503
    assert response.json()["database"].startswith("error")
    assert response.json()["broker"] == "ok"
