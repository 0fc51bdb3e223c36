"""The transfer-size sweeps of a system's runs, summed up per cell: what was measured at each transfer size and
thread count of each configuration, however many runs repeat it (kept by PostgreSQL in
:class:`~portal.models.SweepCell` as runs and points are written)."""

from portal.models import SweepCell, System


def transfer_size_sweep_cells(*, system: System) -> list[SweepCell]:
    """The sweep cells of ``system``'s configurations with their configuration, in one query of as many rows
    as the sweeps have cells, however many runs repeat them."""
    return list(SweepCell.objects.filter(config__system=system).select_related("config").order_by())
