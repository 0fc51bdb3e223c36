"""The sizing and prediction endpoints: drives for a target (one system, or several side by side), and
untested combinations predicted from measured sweeps. They call the pages' selectors and formatters."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from portal.errors import form_error
from portal.models import Run
from portal.results.selectors import run_detail
from portal.sizing.forms import PredictForm, SideBySideForm, SizingForm
from portal.sizing.output import sizing_data
from portal.sizing.parameter_prediction import PARAMETERS, parameter_prediction, parameter_prediction_data
from portal.sizing.prediction import NoGrid, prediction_data, run_prediction
from portal.sizing.selectors import sizing_answer
from portal.sizing.side_by_side import side_by_side_answer, side_by_side_data

from . import numbers
from .parameters import form_parameters, parameters_known
from .views import ERRORS

SIZING_TEXTS = {
    "system": "The system (name or id).",
    "workload": 'The workload, as named on the system page, e.g. "OLTP 8K".',
    "raid_level": 'Only this RAID level, e.g. "RAID-5".',
    "cache": 'Only this cache setting, e.g. "All Caches Disabled".',
    "target": "The throughput wanted at the threshold: drives needed for it (IOPS, or MB/s for a MB/s sweep).",
    "drives": "Also the throughput modelled with this many drives.",
    "threshold_ms": "Average response time in ms (default 20).",
}


class SizingView(APIView):
    @extend_schema(
        summary="Drives needed for a target, from the system's measured drive-count sweeps, with their error",
        parameters=form_parameters(SizingForm, SIZING_TEXTS),
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request: Request) -> Response:
        parameters_known(request.query_params, allowed=SizingForm.base_fields)
        form = SizingForm(request.query_params)
        if not form.is_valid():
            raise form_error(form)
        system = numbers.system_named(user=request.user, name=form.value("system"))
        return Response(sizing_data(system, sizing_answer(form=form, system=system)))


SIDE_BY_SIDE_TEXTS = {
    **SIZING_TEXTS,
    "system": "Two or more systems (name or id), the parameter repeated: system=A&system=B.",
    "target": "The throughput wanted at the threshold (IOPS, or MB/s for a MB/s sweep).",
}


class SizingSideBySideView(APIView):
    @extend_schema(
        summary="Which of several systems needs fewer drives for a target: each one's drives and error",
        parameters=[
            OpenApiParameter(
                "system", str, required=True, many=True, explode=True, description=SIDE_BY_SIDE_TEXTS["system"]
            ),
            *(p for p in form_parameters(SideBySideForm, SIDE_BY_SIDE_TEXTS) if p.name != "system"),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request: Request) -> Response:
        parameters_known(request.query_params, allowed=SideBySideForm.base_fields, repeatable=("system",))
        form = SideBySideForm(request.query_params)
        if not form.is_valid():
            raise form_error(form)
        systems = [numbers.system_named(user=request.user, name=name) for name in form.cleaned_data["system"]]
        return Response(side_by_side_data(side_by_side_answer(form=form, systems=systems)))


class PredictAlongView(APIView):
    @extend_schema(
        summary="Untested combinations along read %, random % or transfer size and outstanding I/O, predicted",
        parameters=[
            OpenApiParameter("system", str, required=True, description="The system (name or id)."),
            OpenApiParameter("parameter", str, required=True, enum=list(PARAMETERS), description="The parameter."),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request: Request) -> Response:
        parameters_known(request.query_params, allowed=("system", "parameter"))
        missing = {name: ["required."] for name in ("system", "parameter") if not request.query_params.get(name)}
        if missing:
            raise ValidationError(missing)
        system = numbers.system_named(user=request.user, name=request.query_params["system"])
        try:
            found = parameter_prediction(system=system, parameter=request.query_params["parameter"])
        except NoGrid as error:
            raise ValidationError({"parameter": [f"{error}."]}) from None
        return Response(parameter_prediction_data(found))


PREDICT_TEXTS = {
    "run": "The run (its id) whose queue depth x jobs grid is predicted.",
    "focal_queue_depth": "Queue depth per job of the focal point (default: a quarter of the way up the measured ones).",
    "focal_jobs": "Jobs of the focal point (default: a quarter of the way up the measured ones).",
}


class PredictView(APIView):
    @extend_schema(
        summary="Untested queue depth x jobs cells of a run predicted from its two sweeps, with the error measured",
        parameters=form_parameters(PredictForm, PREDICT_TEXTS),
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request: Request) -> Response:
        parameters_known(request.query_params, allowed=PredictForm.base_fields)
        form = PredictForm(request.query_params)
        if not form.is_valid():
            raise form_error(form)
        try:
            run = run_detail(run_id=form.value("run"), viewer=request.user)
            found = run_prediction(
                run=run, focal_queue_depth=form.value("focal_queue_depth"), focal_jobs=form.value("focal_jobs")
            )
        except Run.DoesNotExist:
            raise NotFound(f"no run #{form.value('run')}") from None
        except NoGrid as error:
            raise ValidationError({"run": [str(error)]}) from None
        return Response(prediction_data(found))
