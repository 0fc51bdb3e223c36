"""Every HTML page of the URLconf carries the Content-Security-Policy and holds nothing it would block:
no inline <script>, no inline event handler, no javascript: link."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories import PointFactory, RunFactory

INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", re.I)
EVENT_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
JAVASCRIPT_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.I)
# Admin pages behind regex patterns: a row's change form.
ADMIN_PAGES = ["/admin/portal/upload/{upload_id}/change/", "/admin/auth/user/{user_id}/change/"]


def route_paths(patterns, prefix=""):
    """Every plain route (``systems/<int:system_id>/``) of the URLconf, resolvers followed."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from route_paths(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and not str(pattern.pattern).startswith("^"):
            yield prefix + str(pattern.pattern)


def filled(path: str, values: dict) -> str | None:
    """The path with its parameters filled in, or None when one has no sample value."""
    names = re.findall(r"<(?:\w+:)?(\w+)>", path)
    if any(name not in values for name in names):
        return None
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda match: str(values[match.group(1)]), path)


@pytest.fixture
def values(failed_upload, staff):
    run = RunFactory(workload_name="OLTP 8K")
    PointFactory(run=run, seq=0, outstanding_io=4, iops=5000.0, avg_response_ms=4.0)
    return {
        "system_id": run.config.system_id,
        "run_id": run.id,
        "upload_id": failed_upload.id,
        "user_id": staff.id,
        "fmt": "json",
        "chart": "curve",
        "preset": "whitepaper",
        "uidb64": "MQ",
        "token": "set-password",
        "name": "api",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_every_html_page_has_the_policy_and_no_inline_script(client, staff, values, signed_in):
    if signed_in:
        client.force_login(staff)
    paths = {filled(path, values) for path in route_paths(get_resolver().url_patterns)} - {None}
    paths |= {page.format(**values) for page in ADMIN_PAGES}
    if not signed_in:
        paths -= {"/accounts/logout/"}
    checked = []
    for path in sorted(paths):
        response = client.get(path)
        assert "Content-Security-Policy" in response, path
        if not response.get("Content-Type", "").startswith("text/html") or response.streaming:
            continue
        body = response.content.decode()
        assert not INLINE_SCRIPT.search(body), (path, INLINE_SCRIPT.search(body).group(0))
        assert not EVENT_HANDLER.search(body), (path, EVENT_HANDLER.search(body).group(0))
        assert not JAVASCRIPT_URL.search(body), path
        checked.append(path)
    # The walk reached the portal's own pages, not only error pages.
    portal = {"/", "/compare/", "/uploads/", f"/runs/{values['run_id']}/", "/accounts/login/", "/docs/", "/docs/api/"}
    assert portal <= set(checked)


def test_the_policy_allows_only_static_scripts(client, db):
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe-eval" not in policy and "unsafe-inline" not in directives["script-src"]
