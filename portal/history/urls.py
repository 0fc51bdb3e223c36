"""A system's history at ``/systems/<id>/history/``; a team's alerts at ``/teams/<slug>/alerts/``."""

from django.urls import path

from portal.charts.answers import ChartFormat  # noqa: F401 (registers the fmt converter)

from . import views

app_name = "history"
urlpatterns = [
    path("systems/<int:system_id>/history/", views.system_history, name="system"),
    path("systems/<int:system_id>/history/chart.<fmt:fmt>", views.system_history_chart, name="chart"),
    path("teams/<slug:slug>/alerts/", views.team_alerts, name="alerts"),
    path("teams/<slug:slug>/webhook", views.webhook_set, name="webhook"),
    path("alerts/<int:alert_id>/triage", views.alert_triage, name="triage"),
]
