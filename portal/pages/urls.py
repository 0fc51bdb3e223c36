from django.urls import path

from portal.charts.answers import ChartFormat  # noqa: F401 (registers the fmt converter)

from . import compare, runs, side_by_side, views

app_name = "pages"
urlpatterns = [
    path("", views.home, name="home"),
    path("systems/<int:system_id>/", views.system_detail, name="system"),
    path("systems/<int:system_id>/sweep.<fmt:fmt>", views.system_sweep, name="system_sweep"),
    path("systems/<int:system_id>/family.<fmt:fmt>", views.system_family, name="system_family"),
    path("systems/<int:system_id>/stroke/", views.stroke, name="stroke"),
    path("systems/<int:system_id>/sizing/", views.sizing, name="sizing"),
    path("systems/<int:system_id>/predict/", views.predict, name="predict"),
    path("runs/<int:run_id>/", runs.run_detail, name="run"),
    path("runs/<int:run_id>/charts/<slug:chart>.<fmt:fmt>", runs.run_chart, name="run_chart"),
    path("compare/", compare.compare, name="compare"),
    path("compare/defaults/", compare.compare_defaults, name="compare_defaults"),
    path("compare/sizing/", side_by_side.sizing_side_by_side, name="sizing_side_by_side"),
    path("systems/search.json", compare.system_search, name="system_search"),
    path("compare/chart.<fmt:fmt>", compare.compare_chart, name="compare_chart"),
]
