"""The functions and triggers PostgreSQL keeps for the portal, one ``.sql`` file each in this folder.

:data:`FILES` names every file and what it installs; a migration installs a file's current text with
:func:`install` (``CREATE OR REPLACE``, so running it again replaces what an earlier migration installed).
Changing a function or trigger: edit its file and add a migration whose operations include ``install(name)``.
"""

from pathlib import Path

from django.db import migrations

FOLDER = Path(__file__).resolve().parent

FILES = {
    "figure_at.sql": "arraybench_figure_at: a run's figure at a threshold read from its stored curve, by the "
    "rules of portal.analysis.curves.throughput_at",
    "sweep_cells.sql": "portal_sweep_cells_recompute and the triggers on portal_point and portal_run that keep "
    "each configuration's transfer-size sweep cells (SweepCell) summed up",
}


def text(name: str) -> str:
    """The SQL of ``name``, one of :data:`FILES`."""
    if name not in FILES:
        raise ValueError(f"{name!r} is not one of the portal's SQL files: {', '.join(FILES)}")
    return (FOLDER / name).read_text(encoding="utf-8")


def install(name: str) -> migrations.RunSQL:
    """A migration operation installing the current text of ``name`` (nothing to undo: it replaces in place)."""
    return migrations.RunSQL(text(name), migrations.RunSQL.noop)
