from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/tokens/", include("portal.api.token_urls")),
    path("accounts/", include("portal.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/", include("portal.api.urls")),
    path("uploads/", include("portal.uploads.urls")),
    path("", include("portal.history.urls")),
    path("teams/", include("portal.accounts.team_urls")),
    path("export/", include("portal.publishing.export_urls")),
    path("reports/", include("portal.publishing.report_urls")),
    path("docs/", include("portal.docs.urls")),
    path("", include("portal.curation.urls")),
    path("", include("portal.pages.urls")),
]
