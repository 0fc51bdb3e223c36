"""The account page listing the user's API tokens: create one (shown once), revoke one."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from portal.teams.selectors import SignedInRequest

from .auth import token_create, token_revoke


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, help_text='What the token is for, e.g. "lab 3 push script".')


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: SignedInRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    secret = None
    if request.method == "POST" and form.is_valid():
        _, secret = token_create(user=request.user, name=form.cleaned_data["name"])
        form = TokenForm()
    context = {"form": form, "secret": secret, "tokens": request.user.api_tokens.order_by("-created_at")}
    return render(request, "api/tokens.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def token_revoke_view(request: SignedInRequest, token_id: int) -> HttpResponse:
    if not token_revoke(user=request.user, token_id=token_id):
        raise Http404("You have no such token.")
    messages.success(request, "The token is revoked: requests sending it are refused from now on.")
    return redirect("tokens:list")
