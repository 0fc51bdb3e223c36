"""Sign-up (when open) by a confirmed address, and following a team's invitation (by its address only)."""

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from portal.errors import ApplicationError

from . import services
from .forms import NewAccountForm, SignUpForm

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _site_url(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """The same answer for every valid address, taken or free: what differs goes by email only."""
    if not settings.SIGNUP_OPEN:
        return render(request, "accounts/signup_closed.html", status=404)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.signup_request(email=form.cleaned_data["email"], site_url=_site_url(request))
        return render(request, "accounts/signup_sent.html", {"email": form.cleaned_data["email"].strip()})
    return render(request, "accounts/signup.html", {"form": form})


@require_http_methods(["GET", "POST"])
def signup_complete(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed sign-up link: the address is confirmed; the user name and password are chosen here."""
    if not settings.SIGNUP_OPEN:
        return render(request, "accounts/signup_closed.html", status=404)
    email = services.signup_address(token)
    if email is None:
        return render(request, "accounts/signup_failed.html", status=400)
    if services.address_has_account(email=email):
        return render(request, "accounts/signup_failed.html", {"taken": email}, status=409)
    form = NewAccountForm(request.POST or None, email=email)
    if request.method == "POST" and form.is_valid():
        user = services.signup_create(form=form, email=email)
        if user is None:
            return render(request, "accounts/signup_failed.html", {"taken": email}, status=409)
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, f"Your address {email} is confirmed; you are signed in as {user.username}.")
        return redirect("pages:home")
    return render(request, "accounts/signup_complete.html", {"form": form, "email": email})


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Join the invitation's team: the account of the invited address with one click (signed in), a newcomer
    by creating that address's account here; an account of another address is refused, in the audit log."""
    invited = services.invitation_for(token)
    problem = services.invitation_problem(invited)
    if problem is not None or invited is None:
        return render(request, "accounts/invitation.html", {"problem": problem}, status=404)
    signed_in = request.user.is_authenticated
    if signed_in and not services.invitation_addressed_to(invitation=invited, user=cast(User, request.user)):
        services.invitation_refuse(invitation=invited, user=cast(User, request.user))
        return render(request, "accounts/invitation.html", {"problem": services.INVITATION_REFUSED}, status=403)
    if not signed_in and services.address_has_account(email=invited.email):
        return render(request, "accounts/invitation.html", {"invitation": invited, "sign_in": True})
    form = None if signed_in else NewAccountForm(request.POST or None, email=invited.email)
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            with transaction.atomic():
                # No form: the reader is signed in.
                user = cast(User, request.user) if form is None else _invited_user(form, invited.email)
                membership = services.invitation_accept(invitation=invited, user=user)
        except ApplicationError as error:
            return render(request, "accounts/invitation.html", {"problem": error.message}, status=409)
        if not signed_in:
            login(request, user, backend=MODEL_BACKEND)
        messages.success(request, f"You are {membership.role} of {invited.team.name}.")
        return redirect("teams:detail", slug=invited.team.slug)
    return render(request, "accounts/invitation.html", {"invitation": invited, "form": form})


def _invited_user(form: NewAccountForm, email: str) -> User:
    user = form.save(commit=False)
    user.email = email
    user.save()
    return user
