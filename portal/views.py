from django.http import JsonResponse

from .health import health_report


def healthz(request):
    report, healthy = health_report()
    return JsonResponse(report, status=200 if healthy else 503)
