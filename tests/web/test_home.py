"""The front page and the health check answer."""

from __future__ import annotations


def test_the_home_page_names_the_service(client, game, append):
    append(game, "GameStarted")

    response = client.get("/")

    assert response.status_code == 200
    assert "AEGEAPOLIS" in response.text and "Games running on this server: 1." in response.text


def test_the_health_check_reports_the_database(client, db):
    response = client.get("/healthz")

    assert response.status_code == 200 and response.json()["ok"] is True
