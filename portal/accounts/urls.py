"""Accounts, mounted at ``/accounts/`` beside Django's sign-in, password change and reset views."""

from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/<token>/", views.signup_complete, name="signup_complete"),
    path("invitations/<token>/", views.invitation, name="invitation"),
]
