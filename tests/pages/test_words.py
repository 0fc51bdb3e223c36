"""Words a reader checks: counts in the right number, RAID levels as words, quotes in Markdown, systems
asked for by the id a page's address shows, and a private system's command answer saying how to read it."""

from urllib.parse import urlencode

import pytest
from django.core.management import CommandError, call_command

from portal import formatting
from portal.analysis.pairing import config_key_label
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import Team
from portal.publishing.formats_text import markdown_escape
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory


def test_one_drive_is_a_drive_and_none_is_no_raid():
    assert config_key_label(("", 1, "")) == "RAID level not stated, 1 drive"
    assert config_key_label(("none", 1, "")) == "no RAID, 1 drive"
    assert config_key_label(("RAID-5", 140, "All Caches Disabled")) == "RAID-5, 140 drives, All Caches Disabled"
    assert formatting.config_words("none", 1, drive_type="SSD") == "no RAID, 1 SSD"


def test_a_workload_is_qualified_by_its_raid_level_as_a_sentence_names_it():
    assert formatting.raid_subject("RAID-5", "Random Reads 4K") == "RAID-5 Random Reads 4K"
    assert formatting.raid_subject("none", "Random Reads 4K") == "Random Reads 4K without RAID"
    assert formatting.raid_subject("", "Random Reads 4K") == "Random Reads 4K"


def test_markdown_keeps_quotes_as_quotes_and_escapes_markup():
    assert markdown_escape("Little's law <b>") == "Little's law &lt;b&gt;"
    assert markdown_escape("a | b") == "a \\| b"


def _single_drives(raid_level):
    """Two SSDs each measured alone (fio-plot's grids of one drive), 8 and 16 outstanding I/Os."""
    systems = []
    for model, iops in (("MX200", 40000.0), ("S4610", 30000.0)):
        system = SystemFactory(vendor="Lab", model=model)
        run = RunFactory(config=ConfigFactory(system=system, raid_level=raid_level, drive_count=1), name="rr4k")
        PointFactory(run=run, seq=0, outstanding_io=8, iops=iops, avg_response_ms=0.4)
        PointFactory(run=run, seq=1, outstanding_io=16, iops=iops * 1.2, avg_response_ms=30.0)
        systems.append(system)
    return systems


@pytest.mark.parametrize(
    ("raid_level", "subject"),
    [("none", "OLTP 8K without RAID"), ("", "OLTP 8K")],
)
def test_a_comparison_of_single_drives_names_them_in_words(db, raid_level, subject):
    a, b = _single_drives(raid_level)
    [workload] = comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=20)).workloads
    assert [row.label for row in workload.rows] == [formatting.config_words(raid_level, 1)]
    assert "1 drives" not in workload.rows[0].label
    assert any(f"for {subject}" in sentence for sentence in workload.summaries), workload.summaries
    assert not any("for none " in sentence or "not stated OLTP" in sentence for sentence in workload.summaries)


def test_the_compare_page_takes_the_system_ids_its_addresses_show(db, client):
    a, b = _single_drives("RAID-0")
    page = client.get("/compare/?" + urlencode({"a": a.id, "b": b.id}))
    assert page.status_code == 200
    text = page.content.decode()
    assert f"A: {a.name}" in text and f"B: {b.name}" in text


def test_an_unknown_system_is_not_answered_with_every_systems_name(db, client):
    systems = [SystemFactory(vendor="Lab", model=f"Array {n}") for n in range(3)]
    private = SystemFactory(vendor="Acme", model="Secret", published=False)
    missing = client.get("/compare/?" + urlencode({"a": "Zeta 9000", "b": systems[0].name}))
    assert missing.status_code == 404
    text = missing.content.decode()
    error = text.split('id="compare-error">')[1].split("</p>")[0]
    # The answer names what was asked for, not the systems there are (the picker offers those as one types).
    assert error == "No system named &#x27;Zeta 9000&#x27;."
    # An id the reader may not read is no system to them.
    hidden = client.get("/compare/?" + urlencode({"a": private.id, "b": systems[0].name}))
    assert hidden.status_code == 404 and "Acme Secret" not in hidden.content.decode()


def test_the_compare_command_says_a_private_system_needs_as_user(db):
    team = Team.objects.create(name="Acme storage lab", slug="acme")
    SystemFactory(vendor="Acme", model="X9", team=team, published=False)
    SystemFactory(vendor="IBM", model="DS4400")
    with pytest.raises(CommandError) as refused:
        call_command("compare", "Acme X9", "IBM DS4400")
    assert str(refused.value) == (
        "no system named 'Acme X9': system 'Acme X9' is private to team 'Acme storage lab': "
        "give --as USER, a member of that team, to read it"
    )


def test_a_p99_comparison_says_p99_in_its_table_caption(db, client):
    a, b = _single_drives("RAID-0")
    for point in PointFactory._meta.model.objects.all():
        point.latency_percentiles_ms = {"99": point.avg_response_ms * 2}
        point.save()
    page = client.get("/compare/?" + urlencode({"a": a.name, "b": b.name, "latency": "p99", "threshold_ms": "20"}))
    caption = page.content.decode().split("<caption>")[1].split("</caption>")[0]
    assert caption.startswith("OLTP 8K at 20 ms 99th percentile response time (IOPS")


def test_a_white_paper_table_of_one_drive_says_1_hdd():
    from portal.analysis.tables import ResultRecord, whitepaper_table

    record = ResultRecord(drive_count=1, cache_setting="", workload="OLTP 8K", metric="IOPS", value=120.0)
    table = whitepaper_table([record], title="One drive")
    assert [row.headers[0] for row in table.rows] == ["1 HDD"]
