"""The portal's URLs and one view that fails, to see the page a server error answers with."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from portal.urls import urlpatterns as portal_urlpatterns


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a fault in a view: SECRET_KEY and settings must not show")


urlpatterns = [path("fails", fails), *portal_urlpatterns]
