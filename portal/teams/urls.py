"""Teams, mounted at ``/teams/``; publishing a system at ``/teams/systems/<id>/publish``."""

from django.urls import path

from . import views

app_name = "teams"
urlpatterns = [
    path("", views.team_list, name="list"),
    path("create", views.team_create, name="create"),
    path("systems/<int:system_id>/publish", views.system_publish, name="publish"),
    path("systems/<int:system_id>/rename", views.system_rename, name="rename"),
    path("<slug:slug>/", views.team_detail, name="detail"),
    path("<slug:slug>/members", views.member_set, name="member_set"),
    path("<slug:slug>/invitations", views.member_invite, name="invite"),
    path("<slug:slug>/members/<int:membership_id>/remove", views.member_remove, name="member_remove"),
]
