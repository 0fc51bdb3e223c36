"""``GET /api/v1/reports/``: a comparison's report asked for with the compare page's parameters and the
compose form's; answered with the build's state (202 while a worker builds it) and, once built, the
address of each format."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status as http_status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from portal.errors import form_error
from portal.publishing.forms import REPORT_PARAMETERS, ReportForm
from portal.publishing.services import report_request, status_data

from .parameters import REPEATABLE, form_parameters, parameters_known

REPORT_TEXTS = {
    "a": "System A (name).",
    "b": "System B (name): the baseline A is compared with.",
    "threshold_ms": "The response-time threshold, ms (20), as on the compare page.",
    "latency": "The response time the threshold applies to: avg (the papers'), p50 ... p99.9, max.",
    "adjust_b": "Factor for B's figures before the improvement is computed (1).",
    "title": "The report's title (A compared with B).",
    "author": "The author line.",
    "workloads": "A workload to report (repeat it); every compared workload when absent.",
    "captions": "One a line: a chart (its workload) or table ('Random Reads 8K table'), a colon, its caption.",
    "figures": "A workload's figure (repeat it): the workload, a colon, IOPS, MB/s or MiB/s; the page's when absent.",
    "leave_out": "A part to leave out (repeat it): charts, tables, environment.",
    "mbps_unit": "MB/s (10^6 bytes/s, default) or MiB/s (2^20 bytes/s) for MB/s figures.",
    "pct_decimals": "Decimals of the improvements in the results tables: 0, 1 (default, as the page) or 2.",
}
REPEATED = (*REPEATABLE, "workloads", "leave_out", "figures")


def _texts() -> dict[str, str]:
    return {name: REPORT_TEXTS.get(name, "As on the compare page.") for name in REPORT_PARAMETERS}


class ReportsView(APIView):
    @extend_schema(
        summary="The white-paper report of a comparison: its build's state and, once built, each format's address",
        parameters=[
            OpenApiParameter(p.name, p.type, required=p.required, enum=p.enum, description=p.description, many=True)
            if p.name in REPEATED
            else p
            for p in form_parameters(ReportForm, _texts())
        ],
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="Built: status, downloads (an address a format)"),
            202: OpenApiResponse(OpenApiTypes.OBJECT, description="Queued or building: status, progress, step"),
            400: OpenApiResponse(description='{"error": {"status", "message", "fields"}}'),
            404: OpenApiResponse(description='{"error": {"status", "message", "fields"}}'),
        },
    )
    def get(self, request: Request) -> Response:
        parameters_known(request.query_params, allowed=REPORT_PARAMETERS, repeatable=REPEATED)
        form = ReportForm(request.query_params)
        if not form.is_valid():
            raise form_error(form)
        asked = report_request(form=form, params=request.query_params, viewer=request.user)
        answer = status_data(asked.key, asked.state)
        done = asked.state["status"] == "done"
        return Response(answer, status=http_status.HTTP_200_OK if done else http_status.HTTP_202_ACCEPTED)
