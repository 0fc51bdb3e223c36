"""What leaves the portal as a file: the white-paper tables (``presets``, ``*_tables``, written in every
format by ``formats``), the charts (``charts``), the bundle of a comparison (``bundle``, built by a worker:
``bundle_jobs``, ``tasks``) and the white-paper report (``content`` into a ``document``, written by
``render`` and ``latex``, built as the bundle is: ``build``, ``jobs``, ``services``). Pages at ``/export/``
(``export_urls``, ``export_views``) and ``/reports/`` (``report_urls``, ``report_views``)."""
