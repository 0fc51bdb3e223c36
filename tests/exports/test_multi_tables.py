"""The several-systems compare page links its table as Word and LaTeX (and the other formats): the
documents hold the page's numbers. Seed 000 line 295: the DS4400 (baseline) 26,640 and the DS4500
30,020 8K IOPS with 140 RAID-5 drives, +12.7 %; the lab array made here has 29,304 (+10.0 %)."""

import html
import io
import re
import subprocess

from docx import Document

from portal.models import System
from tests.exports.test_bundle_background import seed_000_line_295
from tests.factories import ConfigFactory, PointFactory, RunFactory

QUERY = "a=IBM+DS4500&a=Lab+array&b=IBM+DS4400&raid_level=RAID-5&workload=Random+Reads+8K"


def test_the_word_and_latex_links_of_the_several_systems_page_hold_its_numbers(demo, client, tmp_path):
    lab = System.objects.create(name="Lab array", published=True)
    config = ConfigFactory(system=lab, raid_level="RAID-5", drive_count=140, read_cache=False, write_cache=False)
    run = RunFactory(config=config, workload_name="Random Reads 8K", read_pct=100, random_pct=100,
                     transfer_sizes=[{"bytes": 8192, "pct": 100}])  # fmt: skip
    PointFactory(run=run, seq=0, iops=29304.0, avg_response_ms=20.0)
    page = client.get(f"/compare/?{QUERY}").content.decode()
    links = {
        re.search(r"format=(\w+)", link)[1]: html.unescape(link)
        for link in re.findall(r'href="(/export/comparison/\?[^"]+)"', page)
    }
    assert set(links) == {"csv", "xlsx", "docx", "markdown", "latex", "html"}
    ds4500, ds4400 = seed_000_line_295()

    document = Document(io.BytesIO(client.get(links["docx"]).content))
    rows = [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]
    assert rows[1] == ["Workload", "Configuration", "IBM DS4400 (baseline)", "IBM DS4500", "Lab array",
                       "IBM DS4500", "Lab array"]  # fmt: skip
    assert ["Random Reads 8K (IOPS)", "RAID-5, 140 drives", ds4400, ds4500, "29,304",
            "12.7", "10.0"] in rows  # fmt: skip

    latex = client.get(links["latex"]).content.decode()
    assert ds4500 in latex and "29,304" in latex
    source = tmp_path / "several.tex"
    source.write_text(
        "\\documentclass{article}\\usepackage{booktabs,graphicx}\\begin{document}\n" + latex + "\\end{document}\n"
    )
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", source.name], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
