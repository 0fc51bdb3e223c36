"""A report's LaTeX compiled to PDF: one pdflatex run in a folder of its own with the chart files beside it;
what the log says went wrong (its "!" lines) when it fails."""

import shutil
import subprocess
import tempfile
from pathlib import Path

from .render import ReportUnavailable

LATEX_TIMEOUT_SECONDS = 60


def compile_pdf(latex: str, charts: dict[str, bytes]) -> bytes:
    """The PDF pdflatex makes of ``latex`` (one run: captions are numbered as they are met, nothing refers
    ahead), with the chart files beside it; :class:`ReportUnavailable` when pdflatex is not installed or fails."""
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        raise ReportUnavailable("pdflatex is not installed (make test-tools installs TeX Live), so no PDF is written")
    with tempfile.TemporaryDirectory(prefix="report-") as directory:
        folder = Path(directory)
        (folder / "report.tex").write_text(latex, encoding="utf-8")
        for name, content in charts.items():
            (folder / name).write_bytes(content)
        done = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "report.tex"],
            cwd=folder,
            capture_output=True,
            timeout=LATEX_TIMEOUT_SECONDS,
            check=False,
        )
        if done.returncode != 0:
            log = done.stdout.decode("utf-8", "replace")
            errors = [line for line in log.splitlines() if line.startswith("!")]
            raise ReportUnavailable(f"pdflatex could not compile the report: {'; '.join(errors[:3]) or 'see its log'}")
        return (folder / "report.pdf").read_bytes()
