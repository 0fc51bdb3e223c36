"""The tools' portal sides (``portal/tools/``): each registered once, under its format's tool name, with a
template that exists, and charts and table presets that do not take another's name."""

from ingest import registry as formats
from portal.publishing.parameters import PRESETS
from portal.tools.registry import BY_TOOL, RUN_CHARTS, TABLES, TOOL_PORTALS
from tests.samples import REPO


def test_each_tool_view_is_registered_under_its_formats_tool_name():
    tools = {module.TOOL for module in formats.FORMAT_MODULES}
    assert [tool.TOOL for tool in TOOL_PORTALS] == [
        "Microsoft Exchange Jetstress",
        "Oracle ORION",
        "FFSB",
        "Iometer",
        "MLPerf Storage",
    ]
    assert set(BY_TOOL) <= tools
    assert len(BY_TOOL) == len(TOOL_PORTALS)


def test_each_tool_template_exists():
    missing = [tool.TEMPLATE for tool in TOOL_PORTALS if not (REPO / "templates" / tool.TEMPLATE).is_file()]
    assert missing == []


def test_the_tools_charts_and_tables_take_names_no_other_has():
    # A run's own charts are "curve" and "load"; ORION adds a heat map of each of its three figures.
    assert list(RUN_CHARTS) == ["small-iops", "large-mbps", "small-latency"]
    assert list(TABLES) == ["jetstress", "orion"]
    assert PRESETS == ("whitepaper", "pivot", "stroke", "jetstress", "orion", "sizing")
