"""Renderers for the tables endpoint: JSON, and every export format of the white-paper tables, chosen
by the Accept header or ``?format=`` (csv, text, markdown, latex, html, xlsx, docx)."""

from collections.abc import Mapping
from typing import Any

from rest_framework import renderers
from rest_framework.response import Response

from portal.analysis.tables import Table
from portal.publishing.formats import FORMATS, Format, export


class TablesResponse(Response):
    """An answer carrying the tables themselves, for the export renderers to print."""

    def __init__(self, data: Any, *, tables: list[Table], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.tables = tables


class TablesRenderer(renderers.BaseRenderer):
    """Prints the tables the view attached to its response (``response.tables``) in one export format."""

    export_format = ""
    extension = ""

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> str | bytes:
        if renderer_context is None:
            raise ValueError("the tables are printed from the view's response, given in the renderer context")
        return export(renderer_context["response"].tables, self.export_format)


def _renderer(exporter: Format) -> type[TablesRenderer]:
    media_type, _, charset = exporter.content_type.partition("; charset=")
    attributes = {
        "media_type": media_type,
        "format": exporter.name,
        "export_format": exporter.name,
        "extension": exporter.extension,
        "charset": charset or None,
        "render_style": "binary" if exporter.binary else "text",
    }
    return type(f"{exporter.name.title()}TablesRenderer", (TablesRenderer,), attributes)


EXPORT_RENDERERS = [_renderer(exporter) for exporter in FORMATS.values()]
