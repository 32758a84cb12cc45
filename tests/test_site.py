"""The Django project itself: pages render, languages switch, the database answers."""
import pytest
from django.core.management import call_command
from django.db import connection


@pytest.mark.django_db
def test_home_page_is_russian_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ru">' in html
    assert "htmx" in html  # the vendored htmx script tag from django-htmx


@pytest.mark.django_db
def test_language_switch_to_english(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert '<html lang="en">' in client.get("/").content.decode()


@pytest.mark.django_db
def test_database_answers():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_system_checks_pass():
    call_command("check")


def test_unknown_page_is_a_404_not_a_500(client):
    assert client.get("/no/such/page/").status_code == 404
