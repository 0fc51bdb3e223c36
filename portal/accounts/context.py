from django.conf import settings
from django.http import HttpRequest


def accounts(request: HttpRequest) -> dict:
    """Whether anyone may create an account (the sign-in page links to sign-up then)."""
    return {"signup_open": settings.SIGNUP_OPEN}
