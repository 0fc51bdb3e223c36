"""Teams, mounted at ``/teams/``; publishing a system at ``/teams/systems/<id>/publish``."""

from django.urls import path

from . import team_views

app_name = "teams"
urlpatterns = [
    path("", team_views.team_list, name="list"),
    path("create", team_views.team_create, name="create"),
    path("systems/<int:system_id>/publish", team_views.system_publish, name="publish"),
    path("systems/<int:system_id>/rename", team_views.system_rename, name="rename"),
    path("<slug:slug>/", team_views.team_detail, name="detail"),
    path("<slug:slug>/members", team_views.member_set, name="member_set"),
    path("<slug:slug>/invitations", team_views.member_invite, name="invite"),
    path("<slug:slug>/members/<int:membership_id>/remove", team_views.member_remove, name="member_remove"),
]
