"""A batch of distinct small and medium result files of six formats, made from the shared samples.

Each copy differs from the sample in when it started or in a host, command or note it carries, so every
file has its own sha256 and is read, not taken for a duplicate, with the sample's figures and run
names (a lab's batch repeats its workloads under the same names).
"""

import json
from collections.abc import Callable
from pathlib import Path

from tests.samples import sample

FIO_COPIES = 10  # jobs of the fio sample repeated: a 20-job output of about 100 KB


def _iometer(copy: int) -> tuple[str, bytes]:
    text = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv").read_bytes()
    started = f"2023-03-25 {3 + copy // 60:02}:{copy % 60:02}:43:661"
    return f"iometer-{copy:03}.csv", text.replace(b"2023-03-25 03:05:43:661", started.encode(), 1)


def _fio(copy: int) -> tuple[str, bytes]:
    """The sample's jobs ``FIO_COPIES`` times, named apart; each copy started a minute after the one before."""
    document = json.loads(sample("fio", "pkb_fio-2.17_multijob_group_reporting.json").read_text())
    template = document["jobs"]
    document["jobs"] = [
        {**job, "jobname": f"{job['jobname']}-{index}"} for index in range(FIO_COPIES) for job in template
    ]
    document["timestamp"] += 60 * copy
    document["timestamp_ms"] += 60_000 * copy
    return f"fio-{copy:03}.json", json.dumps(document, indent=2).encode()


def _replaced(folder: str, name: str, old: str, suffix: str) -> Callable[[int], tuple[str, bytes]]:
    """Copies of a sample with ``old`` (a name in the file) made ``old-<copy>``."""

    def copy_of(copy: int) -> tuple[str, bytes]:
        text = sample(folder, name).read_bytes()
        if old.encode() not in text:
            raise ValueError(f"{name} no longer holds {old!r}")
        return f"{folder}-{copy:03}{suffix}", text.replace(old.encode(), f"{old}-{copy}".encode())

    return copy_of


DISKSPD_TEXT = "basilkisel_diskspd-text_goodwinserverdc.westeurope.cloudapp.azure.com.txt"
ELBENCHO_CSV = "glennklockwood_cgpu_bw-direct.04threads.2798687.csv"
# (how many copies, how each is made): 200 files, 25 MB, 3,780 runs.
MIX = (
    (40, _iometer),  # 463 KB, 59 runs
    (40, _fio),  # 98 KB, 20 runs
    (20, _replaced("diskspd", "pkb_diskspd-2.0.21a_result.xml", "pkb-044ffc87-0", ".xml")),  # 6 KB, 1 run
    (20, _replaced("diskspd", DISKSPD_TEXT, "HDD storage", ".txt")),  # 8 KB, 2 runs
    (40, _replaced("vdbench", "vdbenchexplorer_flatfile_kstat.html", "Vdbench", "_flatfile.html")),  # 36 KB, 8 runs
    (20, _replaced("elbencho", ELBENCHO_CSV, "glock", ".csv")),  # 3 KB, 2 runs
    (20, _replaced("ffsb", "caisong-hugo-blog_ffsb-6.0-RC2_stdout_log.txt", "started", ".txt")),  # 51 KB, 10 runs
)


def batch_files(directory: Path) -> list[Path]:
    """Write the batch into ``directory``; return the paths, formats interleaved as a lab's folder would mix them."""
    directory.mkdir(parents=True, exist_ok=True)
    made = [[make(copy) for copy in range(count)] for count, make in MIX]
    paths = []
    for index in range(max(len(files) for files in made)):
        for files in made:
            if index < len(files):
                name, content = files[index]
                path = directory / name
                path.write_bytes(content)
                paths.append(path)
    return paths
