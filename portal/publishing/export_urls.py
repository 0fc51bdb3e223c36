"""Exports of white-paper tables, charts and bundles, mounted at ``/export/``. Every view answers GET
with an attachment, or 400 and a plain-text sentence naming the parameter to correct (404 for a system
the reader may not see or that does not exist); a parameter a view does not take is refused so, naming
it (the lists are in ``parameters.py``).

``table/`` (name ``exports:table``): one system's table.
    ``system`` (required, as shown in the portal, "IBM DS4500"); ``preset``: ``whitepaper``
    (default; seed 000 Table 1: drive count x cache setting by workload x (I/Os, MBps), MBps =
    2^20 bytes/s), ``pivot`` (``rows``: two of drive_count, cache_setting, raid_level, stroke_pct,
    drive_type, drive_rpm, drive_capacity_gb, drives_per_array, segment_kb, host_server, host_os),
    ``stroke`` (Tables 2 and 6), ``jetstress``, ``orion``; ``raid_level``; ``workloads``
    (comma-separated, in column order); ``source_table`` (a paper's table, "Table 5"; without
    raid_level/workloads/source_table the whitepaper preset shows the first table the system's
    published runs cite); ``threshold_ms`` (20) and ``latency`` (avg, p50, p90, p95, p99, p99.9,
    max; whitepaper, pivot and stroke); ``format``: csv (default), text, markdown, latex, html,
    xlsx, docx.
    e.g. ``/export/table/?system=IBM+DS4500&preset=whitepaper&raid_level=RAID-5&format=xlsx``

``comparison/`` (``exports:comparison``): system ``a`` against system ``b``.
    ``a``, ``b`` (required); ``threshold_ms`` (20); ``adjust_b`` (1.0: B's factor, 1.05 boosts B by
    5 %); ``workload`` (one workload only); ``table``: all (default), comparison, summary,
    side_by_side; ``format`` as above.

``chart/`` (``exports:chart``): the comparison of one workload as a bar chart.
    ``a``, ``b``, ``threshold_ms``, ``adjust_b``, ``workload`` (required); ``format``: svg
    (default) or png. 503 with the reason when charts cannot be rendered on the server.

``bundle/`` (``exports:bundle``): the white-paper bundle (zip) of a comparison: every table in
    every format, the charts, ``provenance.json``. The compare page's parameters (``a``, ``b``,
    ``threshold_ms``, ``adjust_b``, ``raid_level``, ``cache``, ``drive_count``, ``workload``, ``pair``,
    ``best``, ``latency``). A bundle built already for the same selection and the same results is
    answered at once as the attachment; otherwise a worker builds it and the answer is a redirect to
    its progress page.
    e.g. ``/export/bundle/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20&adjust_b=1.05``

``bundles/<key>/`` (``exports:bundle_progress``): the progress page of one bundle's build, with the
    download when it is done; ``bundles/<key>/status.json`` (``exports:bundle_status``) its state
    (``status``: queued, building, done or failed; ``progress`` 0 to 1; ``step``; ``error``; ``note``;
    ``download_url`` when done); ``bundles/<key>/download/`` (``exports:bundle_download``) the zip.
"""

from django.urls import path, re_path

from . import export_views

app_name = "exports"
urlpatterns = [
    path("table/", export_views.table, name="table"),
    path("comparison/", export_views.comparison_tables, name="comparison"),
    path("chart/", export_views.chart, name="chart"),
    path("bundle/", export_views.bundle, name="bundle"),
    re_path(r"^bundles/(?P<key>[0-9a-f]{64})/$", export_views.bundle_progress, name="bundle_progress"),
    re_path(r"^bundles/(?P<key>[0-9a-f]{64})/status\.json$", export_views.bundle_status, name="bundle_status"),
    re_path(r"^bundles/(?P<key>[0-9a-f]{64})/download/$", export_views.bundle_download, name="bundle_download"),
]
