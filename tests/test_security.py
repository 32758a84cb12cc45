"""Deployment hygiene: `check --deploy` with the production settings of the README, security headers."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game

ROOT = Path(__file__).resolve().parents[1]

PRODUCTION_ENV = {
    "DJANGO_SECRET_KEY": "x" * 10 + "k3J9vQ2pL8sW4mN7bR1tY6uH0cF5gD2aZ9eX3iO8wS",
    "DJANGO_ALLOWED_HOSTS": "companion.example,192.168.1.10",
    "DJANGO_SECURE_COOKIES": "1",
    "DJANGO_SSL_REDIRECT": "1",
    "DJANGO_HSTS_SECONDS": "31536000",
    "DJANGO_BEHIND_HTTPS_PROXY": "1",
}


def test_check_deploy_passes_with_the_documented_production_settings():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}  # set by the e2e tests
    env.update(PRODUCTION_ENV)
    proc = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_settings_are_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PRODUCTION_ENV:
        assert name in readme, name


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/boards/", "/ping/"])
def test_security_headers(client, url):
    r = client.get(url)
    csp = r["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r["X-Content-Type-Options"] == "nosniff"
    assert r["X-Frame-Options"] == "DENY"
    assert r["Referrer-Policy"] == "same-origin"
    assert r["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in r["Permissions-Policy"]


@pytest.mark.django_db
def test_pages_have_no_inline_scripts_or_styles(client):
    game = create_game("CSP", [("A", DEFAULT_SEATING[2][0]), ("B", DEFAULT_SEATING[2][1])])
    client.get(f"/host/{game.host_token}/")
    for url in ["/", f"/g/{game.pk}/", f"/g/{game.pk}/seats/", "/boards/"]:
        html = client.get(url).content.decode()
        assert "<script>" not in html and " onclick=" not in html and " style=\"" not in html, url
        for tag in html.split("<script")[1:]:
            assert " src=" in tag.split(">", 1)[0], url  # every script is a file of this app
