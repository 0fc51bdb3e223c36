"""A maintainer's changes to a run, mounted at ``/runs/<id>/``: POST only."""

from django.urls import path

from . import views

app_name = "curation"
urlpatterns = [
    path("runs/<int:run_id>/exclude", views.run_exclude, name="exclude"),
    path("runs/<int:run_id>/include", views.run_include, name="include"),
    path("runs/<int:run_id>/alias", views.alias_set, name="alias"),
    path("runs/<int:run_id>/alias/remove", views.alias_remove, name="alias_remove"),
    path("runs/<int:run_id>/statement", views.statement_set, name="statement"),
    path("runs/<int:run_id>/statement/remove", views.statement_remove, name="statement_remove"),
]
