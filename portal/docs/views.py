from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from portal.errors import NotFoundError, answers_errors

from .rendering import INDEX, doc_page, doc_titles


@answers_errors()
def page(request: HttpRequest, name: str = INDEX) -> HttpResponse:
    """A documentation page: README.md at ``/docs/``, ``docs/<name>.md`` at ``/docs/<name>/``."""
    found = doc_page(name)
    if found is None:
        raise NotFoundError(f"There is no documentation page “{name}”.")
    return render(request, "docs/page.html", {"page": found, "contents": doc_titles()})
