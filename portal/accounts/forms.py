from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from portal.teams.models import Role


class SignUpForm(UserCreationForm):
    """A user name, an email address (confirmed by a link before the account works) and a password
    that passes Django's validators."""

    email = forms.EmailField(help_text="A link to confirm it is sent here; it is also where a password reset goes.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account uses this address already: sign in, or reset its password.")
        return email


class InvitedSignUpForm(UserCreationForm):
    """An account for an invited address: the invitation link has shown the address is theirs."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class InviteForm(forms.Form):
    email = forms.EmailField(label="Email address")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)
