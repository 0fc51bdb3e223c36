"""A lab's real files, uploaded in a real Chromium for a new system and compared with another lab system:
measured runs are never read as published figures, workloads match by what they do, preparation steps
are not compared, a maintainer's name and exclusion change the comparison, A's configuration is chosen
on its own side, and the API gives the page's numbers.

Files (``../shared/samples``, MANIFEST there):
- fio-grids/fioplot_HPDL380G8-RAID-NEW-P420i_3xSSD_MD0_RW/randrw-1-1.json: ``rw=randrw``, ``bs=4k``, no
  ``rwmixread`` (fio's default is 50 % reads);
- fio-sweeps/fioplot_intel-d3-s4610_randread/*.json: a fio-plot iodepth sweep, 4k random reads;
- diskspd/basilkisel_diskspd-text_goodsql2016...txt: one run, 403.66 IOPS at 158.382 ms ("Total IO");
- vdbench/jiaoben_fsd_summary.html: ``format_for_rd1`` (vdbench's format step) then ``rd1``.
The other system holds fio-grids/fioplot_SERVER-HIGHPOINT-RAID5_RW/randrw-1-1.json (randrw, bs=4k).

Then the lab's grid of three Crucial MX200 SSDs (fio-grids/fioplot_HPDL380G8-H420i-Crucial-MX200x3_RAID0, 98
files), whose randread and randwrite jobs fio-plot names both "random-read": its system page and white-paper table
show random read and random write apart, each with its own figure at 20 ms, never their mean.
"""

import csv
import io
import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from portal.models import Role, Run, System
from tests.conftest import team_member
from tests.exports.test_workload_groups import READ, THREE_DRIVES, THREE_READ, THREE_WRITE, WRITE
from tests.factories import SystemFactory
from tests.ingesting import store_file
from tests.pages.test_page_text import hits, visible_text
from tests.samples import SAMPLES_DIR, sample

RANDRW = sample("fio-grids", "fioplot_HPDL380G8-RAID-NEW-P420i_3xSSD_MD0_RW", "randrw-1-1.json")
SWEEP = sorted((SAMPLES_DIR / "fio-sweeps" / "fioplot_intel-d3-s4610_randread").glob("*.json"))
DISKSPD = sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
VDBENCH = sample("vdbench", "jiaoben_fsd_summary.html")
OTHER = sample("fio-grids", "fioplot_SERVER-HIGHPOINT-RAID5_RW", "randrw-1-1.json")
GRID = sorted((SAMPLES_DIR / "fio-grids" / THREE_DRIVES).glob("*.json"))
NEW_SYSTEM = "md RAID-0 of 3 SSDs"
GRID_SYSTEM = "HP DL380G8 Crucial MX200 x3"
MIXED_4K = "4 KiB random, 50 % read"


@pytest.fixture
def maintainer(transactional_db, data_dir):
    """Made before the browser starts: a maintainer of the lab and the lab's other array, holding a randrw job."""
    user = get_user_model().objects.create_user("maria", password="disk-arrays-42")
    team = team_member(user, role=Role.MAINTAINER)
    other = SystemFactory(name="HighPoint RAID-5", team=team, published=False)
    store_file(OTHER, name="highpoint_raid5_rw.json", system=other, uploader=user, labels={"raid_level": "RAID-5"})
    return user


def sign_in(page, live_server):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("User name").fill("maria")
    page.get_by_label("Password").fill("disk-arrays-42")
    page.get_by_role("button", name="Sign in").click()


def compare_url(live_server, **query):
    return f"{live_server.url}/compare/?{urlencode({'a': NEW_SYSTEM, 'b': 'HighPoint RAID-5', **query})}"


@pytest.mark.browser
@pytest.mark.worker
def test_a_labs_real_files_give_answers_an_engineer_accepts(worker, live_server, maintainer, browser_page, client):
    page = browser_page.page
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/uploads/")
    page.get_by_label("Name", exact=True).fill(NEW_SYSTEM)
    page.get_by_label("RAID level").fill("RAID 0")
    files = [RANDRW, *SWEEP, DISKSPD, VDBENCH]
    page.get_by_label("Choose result files").set_input_files([str(path) for path in files])
    page.get_by_role("button", name="Upload", exact=True).click()
    for path in (RANDRW, DISKSPD, VDBENCH):
        row = page.locator("#upload-table tbody tr", has_text=path.name)
        expect(row.locator("td.status")).to_contain_text(f"done {NEW_SYSTEM}", timeout=90_000)
    sweep_row = page.locator("#upload-table tbody tr", has_text=SWEEP[0].name)
    expect(sweep_row.locator("td.status")).to_contain_text("done", timeout=90_000)

    system = System.objects.get(name=NEW_SYSTEM)
    runs = Run.objects.filter(config__system=system)
    # No measured run is called published, on the system page or any run page.
    pages = {"system page": page_text(page, f"{live_server.url}/systems/{system.id}/")}
    for run in runs:
        pages[f"run {run.name}"] = page_text(page, f"{live_server.url}/runs/{run.id}/")
    for where, text in pages.items():
        assert "published figure" not in text and "published by the paper" not in text, where
    # The page text scan finds none of the words the code calls things.
    assert hits(pages) == []

    # DiskSpd's one run was measured at 158 ms: there is no value at 20 ms, and its page says why.
    diskspd = runs.get(upload__original_name=DISKSPD.name)
    assert (
        "No value at 20 ms: its only point is at 158 ms at 64 outstanding I/Os, over 20 ms."
        in pages[f"run {diskspd.name}"]
    )
    # vdbench's format step is stored and shown as a preparation step.
    formatting = runs.get(phase=Run.Phase.PREPARATION)
    assert formatting.name.startswith("format_for_rd1")
    assert "This run is a preparation step of the test" in pages[f"run {formatting.name}"]

    # The randrw job (fio's default 50 % reads) is the same workload as the other array's 4K randrw job; their
    # configurations (RAID-0 and RAID-5) do not pair by themselves, and the page says what to do.
    page.goto(compare_url(live_server))
    section = page.locator("section.workload", has=page.get_by_role("heading", name=MIXED_4K))
    expect(section).to_contain_text(
        "No configuration of A (md RAID-0 of 3 SSDs) pairs with one of B (HighPoint RAID-5): choose a configuration"
    )
    assert "format_for_rd1" not in visible_text(page.content())  # a preparation step is never offered

    # A's and B's configurations are chosen each on its own side, from those each side has.
    a_choice = page.locator("#side-a").get_by_label("or one configuration")
    assert any(option.startswith("RAID-0") for option in a_choice.locator("option").all_inner_texts())
    a_choice.select_option(index=1)
    page.locator("#side-b").get_by_label("or one configuration").select_option(index=1)
    page.get_by_role("button", name="Compare").click()
    assert "a_config=" in page.url and "b_config=" in page.url
    chosen = page.url
    section = page.locator("section.workload", has=page.get_by_role("heading", name=MIXED_4K))
    cells = section.locator("tbody tr").first.locator("td").all_inner_texts()
    # Each job's IOPS as its file states them (read + write), measured far under 20 ms: lower bounds, marked "≥".
    assert cells[:2] == ["≥ " + written(job_iops(RANDRW)), "≥ " + written(job_iops(OTHER))]

    # A maintainer names the job for the team and excludes the randrw run: the comparison follows.
    randrw = runs.get(name="iotest")  # the randrw file's one job (line 8)
    page.goto(f"{live_server.url}/runs/{randrw.id}/")
    page.get_by_label(f"Your team's name for {randrw.workload_name}").fill("Mixed 4K (lab)")
    page.get_by_role("button", name="Name it").click()
    expect(page.locator("dl.meta")).to_contain_text("Mixed 4K (lab)")
    page.goto(chosen)
    expect(page.get_by_role("heading", name=f"Mixed 4K (lab) ({MIXED_4K})")).to_have_count(1)
    page.goto(f"{live_server.url}/runs/{randrw.id}/")
    page.get_by_label("Exclude from comparisons, because").fill("a preconditioning pass")
    page.get_by_role("button", name="Exclude").click()
    expect(page.locator("#excluded")).to_contain_text("excluded from comparisons: a preconditioning pass")
    page.goto(chosen)
    # DiskSpd's run does the same (line 7: -w50 -b4K -r, its alignment 4 KiB the block size): A still has
    # the workload, from that run alone, and no figure at 20 ms (its only point is at 158 ms).
    expect(page.get_by_role("heading", name=re.compile("Mixed 4K"))).to_have_count(0)
    section = page.locator("section.workload", has=page.get_by_role("heading", name=MIXED_4K))
    expect(section).to_contain_text(
        "No figure of A (md RAID-0 of 3 SSDs) at the threshold: over the threshold already at the lowest load."
    )
    page.goto(f"{live_server.url}/runs/{randrw.id}/")
    page.get_by_role("button", name="Compare this run again").click()
    expect(page.locator("#excluded")).to_have_count(0)
    assert browser_page.problems == []

    # The API gives the page's numbers at the 99th percentile (fio states clat percentiles), for the same query:
    # at p99 <= 1 s both jobs' only points are under it (lower bounds); at 1 ms B's is over (no figure).
    client.force_login(maintainer)
    query = dict(parse_qsl(urlsplit(chosen).query)) | {"latency": "p99", "threshold_ms": "1000"}
    page_cells = cells_of(client.get("/compare/", query).content.decode(), "Mixed 4K (lab)")
    answer = client.get("/api/v1/compare/", query)
    assert answer.status_code == 200, answer.content
    (compared,) = [w for w in answer.json()["comparisons"][0]["workloads"] if w["team_name"] == "Mixed 4K (lab)"]
    row = compared["rows"][0]
    # The page writes the API's figures, each marked "≥" where the API says it is a lower bound.
    marks = ["≥ " if row[side]["status"] == "not_reached" else "" for side in ("a", "b")]
    assert page_cells == [marks[0] + written(row["a"]["value"]), marks[1] + written(row["b"]["value"])]
    assert marks == ["≥ ", "≥ "]
    assert client.get("/api/v1/compare/", {**query, "latency": "bogus"}).status_code == 400

    grid_shows_read_and_write_apart(page, live_server)
    assert browser_page.problems == []


def grid_shows_read_and_write_apart(page, live_server):
    """The MX200 grid uploaded as a new system of three SSDs: its page lists each workload stored as "random-read"
    under its own heading, and its white-paper table (the page's link) has a column of each with its own figures."""
    page.goto(f"{live_server.url}/uploads/")
    page.get_by_label("Name", exact=True).fill(GRID_SYSTEM)
    page.get_by_label("Drives", exact=True).fill("3")
    page.get_by_label("Drive type").select_option(label="SSD")
    page.get_by_label("Choose result files").set_input_files([str(path) for path in GRID])
    page.get_by_role("button", name="Upload", exact=True).click()
    # The grid is read as one sweep: the upload holding its runs names the system.
    stored = page.locator("#upload-table tbody td.status", has_text=f"done {GRID_SYSTEM}")
    expect(stored).to_have_count(1, timeout=120_000)

    page.goto(f"{live_server.url}/systems/{System.objects.get(name=GRID_SYSTEM).id}/")
    # Each workload stored as "random-read" under its own heading, its one run (3 SSDs) with its own figure.
    for title, figure in (("4 KiB random read", THREE_READ), ("4 KiB random write", THREE_WRITE)):
        heading = page.locator("h3", has_text=f"{title} (stored as “random-read”, 1 run)")
        expect(heading).to_have_count(1)
        (row,) = heading.locator("xpath=following-sibling::table[1]").locator("tbody tr").all()
        # Run, Configuration, Tool, Source, At threshold.
        assert row.locator("td").all_inner_texts()[4] == f"{written(figure)} IOPS"

    with page.expect_download() as started:
        page.get_by_role("link", name="White-paper table (CSV)").click()
    table = list(csv.reader(io.StringIO(Path(started.value.path()).read_text(encoding="utf-8-sig"))))
    assert table[1] == ["Workload", "", READ, "", WRITE, ""]
    (three,) = [row for row in table if row[:1] == ["3 SSDs"]]
    assert [three[2], three[4]] == [str(round(THREE_READ)), str(round(THREE_WRITE))]
    assert not any("Mean of" in cell for row in table for cell in row)


def job_iops(path):
    """A fio job's IOPS as its file states them: its read and write IOPS together."""
    (job,) = json.loads(path.read_text())["jobs"]
    return job["read"]["iops"] + job["write"]["iops"]


def page_text(page, url):
    page.goto(url)
    return visible_text(page.content())


def cells_of(html, heading):
    """The first row's figure cells of the compare page's section headed ``heading``."""
    section = html[html.index(heading) :]
    row = section[section.index("<tbody>") :]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r'<td class="num">(.*?)</td>', row)][:2]


def written(iops):
    return f"{round(iops):,}"
