"""Which of the compared systems needs fewer drives for a target: the sizing page of several systems."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from portal.errors import NotFoundError, answers_errors, valid
from portal.sizing.forms import SideBySideForm
from portal.sizing.side_by_side import side_by_side_answer
from portal.systems.selectors import SystemNotFound, system_by_name


@answers_errors()
def sizing_side_by_side(request: HttpRequest) -> HttpResponse:
    form = SideBySideForm(request.GET)
    asked = bool(request.GET.get("target"))
    found = None
    if asked:
        valid(form)
        try:
            systems = [system_by_name(name=name, viewer=request.user) for name in form.cleaned_data["system"]]
        except SystemNotFound as error:
            message = error.message[0].upper() + error.message[1:]
            raise NotFoundError(message if message.endswith("?") else f"{message}.") from None
        found = side_by_side_answer(form=form, systems=systems)
    names = request.GET.getlist("system") or ["", ""]
    return render(request, "pages/sizing_side_by_side.html", {"form": form, "names": names, "found": found})
