from django.http import HttpRequest, JsonResponse

from .health import health_report


def healthz(request: HttpRequest) -> JsonResponse:
    report, healthy = health_report()
    return JsonResponse(report, status=200 if healthy else 503)
