from django.urls import path

from . import views

app_name = "docs"

urlpatterns = [
    path("", views.page, name="index"),
    path("<slug:name>/", views.page, name="page"),
]
