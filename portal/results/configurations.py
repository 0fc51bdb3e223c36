"""Configurations in words beside one another: what tells apart those a table row or a chart line would
otherwise hold together."""

from collections import defaultdict
from collections.abc import Callable, Hashable

from portal import formatting
from portal.models import Config, Run


def config_differences(
    runs: list[Run], *, position: Callable[[Run], Hashable], ignored: tuple[str, ...] = ()
) -> dict[int, str]:
    """What tells each run's configuration apart from the others that share its row or line (``position``),
    in words ("RAID level RAID-1", "gateway cache off"), by run id; "" where it holds one configuration.
    ``ignored``: properties the row or line varies along (a drive-count sweep's drive count). A row's cell is
    then a mean of replicates of one configuration, never of two (RAID-1 and RAID-5 runs of one drive count
    are two rows, not their mean)."""
    at: defaultdict[Hashable, dict[int, Config]] = defaultdict(dict)
    for run in runs:
        at[position(run)][run.config_id] = run.config
    words: dict[int, str] = {}
    for configs in at.values():
        if len(configs) < 2:
            continue
        stated = {config_id: _stated(config) for config_id, config in configs.items()}
        names = sorted({name for properties in stated.values() for name in properties})
        differing = [
            name for name in names if name not in ignored and len({repr(p.get(name)) for p in stated.values()}) > 1
        ]
        for config_id, properties in stated.items():
            words[config_id] = formatting.labels({name: properties.get(name, "not stated") for name in differing})
    return {run.id: words.get(run.config_id, "") for run in runs}


def _stated(config: Config) -> dict[str, object]:
    """A configuration's stated properties, its free-form ones (``extra``) among them."""
    properties = {name: value for name, value in config.properties().items() if name != "extra"}
    properties |= config.extra or {}
    return {name: value for name, value in properties.items() if value not in (None, "", [], {})}
