"""Uploads: the list and upload form, live status, originals, re-ingest, relabel, delete, profile pre-fill."""

from django.urls import path

from . import views

app_name = "uploads"
urlpatterns = [
    path("", views.upload_list, name="list"),
    path("files", views.upload_files, name="files"),
    path("status.json", views.upload_status, name="status"),
    path("<int:upload_id>/", views.upload_detail, name="detail"),
    path("<int:upload_id>/original", views.upload_original, name="original"),
    path("<int:upload_id>/reingest", views.upload_reingest, name="reingest"),
    path("<int:upload_id>/relabel", views.upload_relabel, name="relabel"),
    path("<int:upload_id>/delete", views.upload_delete, name="delete"),
    path("systems/<int:system_id>/profile.json", views.system_profile, name="system_profile"),
]
