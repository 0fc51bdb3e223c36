"""Sign-up (when open) with a confirmed address, and following a team's invitation."""

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.views.decorators.http import require_http_methods

from portal.errors import ApplicationError

from . import services
from .forms import InvitedSignUpForm, SignUpForm

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _site_url(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if not settings.SIGNUP_OPEN:
        return render(request, "accounts/signup_closed.html", status=404)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.signup_create(form=form, site_url=_site_url(request))
        return render(request, "accounts/signup_sent.html", {"email": user.email})
    return render(request, "accounts/signup.html", {"form": form})


def verify(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The link of the confirmation email: the account works from now on, and is signed in."""
    try:
        user = get_user_model().objects.get(pk=int(force_str(urlsafe_base64_decode(uidb64))))
    except (ValueError, TypeError, OverflowError, get_user_model().DoesNotExist):
        user = None
    if user is None or not services.address_tokens.check_token(user, token):
        return render(request, "accounts/verify_failed.html", status=400)
    user.is_active = True
    user.save(update_fields=["is_active"])
    login(request, user, backend=MODEL_BACKEND)
    messages.success(request, f"Your address {user.email} is confirmed; you are signed in as {user.username}.")
    return redirect("pages:home")


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Join the invitation's team: signed in, with one click; otherwise by creating an account here."""
    invited = services.invitation_for(token)
    problem = services.invitation_problem(invited)
    if problem is not None or invited is None:
        return render(request, "accounts/invitation.html", {"problem": problem}, status=404)
    signed_in = request.user.is_authenticated
    form = None if signed_in else InvitedSignUpForm(request.POST or None)
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


def _invited_user(form: InvitedSignUpForm, email: str) -> User:
    user = form.save(commit=False)
    user.email = email
    user.save()
    return user
