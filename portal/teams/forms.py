from django import forms

from portal.models.teams import Role


class TeamCreateForm(forms.Form):
    name = forms.CharField(max_length=100, help_text='Your lab or company, e.g. "Example storage lab".')


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)
