"""Each tool's portal side: what the portal shows of a tool beyond the common run page (its response-time
curve, throughput against load and points), one package per tool, as ``ingest/formats/`` keeps its parsers.

A tool's package (``jetstress/``, ``orion/``, ``ffsb/``, ``iometer/``, ``mlperf_storage/``) provides what
:class:`~portal.tools.base.ToolPortal` states: the run page's view of the tool and its template, the charts
it adds to a run, the table presets its papers print; the figures the tool's users size with sit beside
them (Jetstress mailboxes, ORION maxima). :mod:`portal.tools.registry` names them all; the pages and the
exports read the tools through it. The templates stay with the others, under ``templates/pages/tools/``.
docs/contributing.md, "A tool's portal side", lists the steps.
"""
