"""What several tools' views and tables read alike: rows stored as arrays, a run's label in a table."""

from typing import Any

from portal import formatting
from portal.models import Run


def named_rows(table: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The rows of a table a point stores as ``{"columns": [...], "rows": [[...], ...]}`` arrays (its
    workers, targets, benchmark runs or epochs), each as a dict of its columns."""
    if not table:
        return []
    columns = table["columns"]
    return [dict(zip(columns, row, strict=True)) for row in table["rows"]]


def run_label(run: Run) -> str:
    config, params = run.config, run.params or {}
    parts = [formatting.config_words(config.raid_level, config.drive_count), params.get("machine")]
    if params.get("tiles"):
        parts.append(f"{params['tiles']} tiles")
    if run.origin == Run.Origin.PUBLISHED:
        parts.append(run.citation_table)
    elif run.upload_id:
        parts.append(f"upload #{run.upload_id}")
    return ", ".join(str(p) for p in parts if p)
