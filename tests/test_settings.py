"""Production settings: safe by default, refused without a strong secret key."""

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


def test_production_settings_pass_the_deploy_check():
    result = _manage(
        "check", "--deploy", "--fail-level", "WARNING", DEBUG="false", SECRET_KEY="x" * 60 + "-production-key-0123"
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO,
        env={**env, "DEBUG": "false"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


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
