"""White-paper reports, mounted at ``/reports/``.

``new/`` (``reports:compose``): the compose form, with the compare page's parameters (``a``, ``b``,
    ``threshold_ms``, ``adjust_b``, ``latency``, the filters) and the report's: ``title``, ``author`` (the
    signed-in user's name by default), ``workloads`` (repeated; every compared workload when absent),
    ``captions`` (one line per table or chart: "Random Reads 8K: the chart's caption", "Random Reads 8K
    table: the table's"), ``figures`` (repeated: "Random Reads 8K: MB/s", IOPS, MB/s or MiB/s),
    ``leave_out`` (repeated: charts, tables, environment), ``mbps_unit`` (MB/s or MiB/s).
``build/`` (``reports:build``): the same parameters; queues the build (or finds it built) and redirects
    to its progress page. e.g. ``/reports/build/?a=IBM+DS4500&b=IBM+DS4400&workloads=Random+Reads+8K``
``<key>/`` (``reports:progress``): the progress page, with the downloads when it is built;
    ``<key>/status.json`` its state; ``<key>/<extension>/`` (``reports:download``) one format: docx, pdf,
    html, md, tex.
"""

from django.urls import re_path

from . import report_views

app_name = "reports"
KEY = r"(?P<key>[0-9a-f]{64})"
urlpatterns = [
    re_path(r"^new/$", report_views.compose, name="compose"),
    re_path(r"^build/$", report_views.build, name="build"),
    re_path(rf"^{KEY}/$", report_views.progress, name="progress"),
    re_path(rf"^{KEY}/status\.json$", report_views.status, name="status"),
    re_path(rf"^{KEY}/(?P<extension>docx|pdf|html|md|tex)/$", report_views.download, name="download"),
]
