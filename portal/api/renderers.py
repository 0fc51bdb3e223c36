"""Renderers for the tables endpoint: JSON, and every export format of the white-paper tables, chosen
by the Accept header or ``?format=`` (csv, text, markdown, latex, html, xlsx, docx)."""

from rest_framework import renderers

from portal.exports.formats import FORMATS, export


class TablesRenderer(renderers.BaseRenderer):
    """Prints the tables the view attached to its response (``response.tables``) in one export format."""

    export_format = ""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return export(renderer_context["response"].tables, self.export_format)


def _renderer(exporter) -> type[TablesRenderer]:
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
