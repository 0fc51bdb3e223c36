from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from portal.models.teams import Role


class SignUpForm(forms.Form):
    """Sign-up asks for an address only: the user name and password are chosen after the emailed link
    has shown the address is theirs, so the answer here says nothing about which accounts exist."""

    email = forms.EmailField(
        label="Email address", help_text="A link is sent here; it is also where a password reset goes."
    )


class NewAccountForm(UserCreationForm):
    """The account of an address its mailbox has confirmed (the sign-up or the invitation link)."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)

    def __init__(self, *args, email: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Before validation: the password may not resemble the address either.
        self.instance.email = email


class InviteForm(forms.Form):
    email = forms.EmailField(label="Email address")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)


class TeamCreateForm(forms.Form):
    name = forms.CharField(max_length=100, help_text='Your lab or company, e.g. "Example storage lab".')


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)
