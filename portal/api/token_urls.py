"""``/accounts/tokens/``: the signed-in user's API tokens."""

from django.urls import path

from . import tokens

app_name = "tokens"
urlpatterns = [
    path("", tokens.token_list, name="list"),
    path("<int:token_id>/revoke", tokens.token_revoke_view, name="revoke"),
]
