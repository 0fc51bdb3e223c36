"""Settings safe by default: DEBUG off, a secret key generated once into the data dir unless one is given
(a weak one is refused), the HTTPS settings on a public interface."""

import os
import subprocess
import sys

import pytest

from tests.samples import REPO


def _manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _make_run_defaults(data_dir, **env):
    """The environment of ``make run`` with nothing configured: no DEBUG, SECRET_KEY, HTTPS nor HOST; the
    test session's servers (the checks here open no connection) and a fresh data dir."""
    from django.conf import settings
    from django.db import connection

    from tests.conftest import database_url

    unset = ("DEBUG", "SECRET_KEY", "HTTPS", "HOST", "SECURE_SSL_REDIRECT")
    return {
        **{k: v for k, v in os.environ.items() if k not in unset},
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "ARRAYBENCH_DATA_DIR": str(data_dir),
        **env,
    }


def _run(*args, env):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


def test_make_run_defaults_on_a_public_interface_pass_the_deploy_check(tmp_path):
    result = _run("check", "--deploy", "--fail-level", "WARNING", env=_make_run_defaults(tmp_path, HOST="0.0.0.0"))
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


SHOW = "from django.conf import settings as s; print(s.DEBUG, s.HTTPS, s.SESSION_COOKIE_SECURE, s.SECRET_KEY)"


def test_without_a_secret_key_one_is_generated_once_into_the_data_dir_and_debug_is_off(tmp_path):
    first = _run("shell", "-c", SHOW, env=_make_run_defaults(tmp_path))
    assert first.returncode == 0, first.stderr
    debug, https, secure_cookie, key = first.stdout.splitlines()[-1].split()
    # On the loopback address (make run's default HOST) a browser of this machine talks plain HTTP.
    assert (debug, https, secure_cookie) == ("False", "False", "False")
    key_file = tmp_path / "secret_key"
    assert key == key_file.read_text().strip() and len(key) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600
    again = _run("shell", "-c", SHOW, env=_make_run_defaults(tmp_path, HOST="0.0.0.0"))
    assert again.stdout.splitlines()[-1].split() == ["False", "True", "True", key]
    assert sorted(p.name for p in tmp_path.iterdir() if "secret" in p.name) == ["secret_key"]


def test_debug_is_an_explicit_opt_in(tmp_path):
    result = _run("shell", "-c", SHOW, env=_make_run_defaults(tmp_path, DEBUG="true", HOST="0.0.0.0"))
    assert result.stdout.splitlines()[-1].split()[:3] == ["True", "False", "False"]


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("change-me", "it has 9 characters; use at least 50"),
        ("django-insecure-" + "k" * 60, "Django's placeholder"),
        ("ab" * 40, "fewer than 5 different characters"),
    ],
)
def test_production_refuses_to_start_with_a_weak_secret_key(key, reason):
    result = _manage("check", DEBUG="false", SECRET_KEY=key)
    assert result.returncode != 0
    assert "SECRET_KEY is too weak for production" in result.stderr and reason in result.stderr


def test_development_accepts_a_short_secret_key():
    result = _manage("check", DEBUG="true", SECRET_KEY="change-me")
    assert result.returncode == 0, result.stderr
