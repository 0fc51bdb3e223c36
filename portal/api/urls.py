"""``/api/v1/``: the OpenAPI document (``schema/``, JSON with ``?format=json``), its docs page
(``docs/``, Swagger UI served from static files) and the endpoints it documents."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from . import sizing, views
from .alerts import AlertViewSet
from .reports import ReportsView

app_name = "api"

router = SimpleRouter()
router.register("systems", views.SystemViewSet, basename="system")
router.register("configs", views.ConfigViewSet, basename="config")
router.register("runs", views.RunViewSet, basename="run")
router.register("points", views.PointViewSet, basename="point")
router.register("uploads", views.UploadViewSet, basename="upload")
router.register("alerts", AlertViewSet, basename="alert")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("compare/", views.CompareView.as_view(), name="compare"),
    path("reports/", ReportsView.as_view(), name="reports"),
    path("tables/<str:preset>/", views.TablesView.as_view(), name="tables"),
    path("sizing/", sizing.SizingView.as_view(), name="sizing"),
    path("sizing/side-by-side/", sizing.SizingSideBySideView.as_view(), name="sizing_side_by_side"),
    path("predict/", sizing.PredictView.as_view(), name="predict"),
    path("predict/along/", sizing.PredictAlongView.as_view(), name="predict_along"),
    *router.urls,
]
