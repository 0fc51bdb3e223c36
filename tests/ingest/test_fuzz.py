"""Damaged files: whatever bytes a parser is given, it returns contract-valid results or raises ParseError.

Each example takes real files of one format (read together when the format reads groups), damages
one of them (flipped, inserted or deleted bytes, a cut, a number replaced by a huge, NaN, infinite
or negative value, a re-encoding, a stray Latin-1 or NUL byte) and parses the result. Anything
but a ``ParseError`` naming the file is a parser bug. Two classes of damaged numbers get examples
of their own: numbers written with mixed separators (``9.80,0``, ``9,80.5``) and whole numbers
beyond a float's range (``1`` and 400 zeros), in every numeric field a file holds. Copies cut at a line
end and inside a number are compared with the intact file: refused, warned of the cut, or the same figures
point by point.

Every sample file is also cut at each line end of its last quarter and at 25/50/75/90 % of its length, and
what a cut copy would store compared with the intact file (``test_a_sample_cut_short_...``).

``make test`` runs a small, fixed set of examples per format (and 12 cuts of each kind per file);
``make fuzz`` (the ``fuzz`` settings profile, chosen with ``HYPOTHESIS_PROFILE``) runs thousands with
fresh random choices, and cuts every file at every line end and inside every number (at most
``FUZZ_CUTS`` of each kind per file, evenly spread: 2,000 unless set; 0 for every one).
"""

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest import ParseError, Source, parse_sources
from ingest.registry import FORMATS, plan, sources_under
from ingest.result import json_schema
from tests.samples import DATA_DIR, SAMPLES_DIR, data, sample

settings.register_profile(
    "default",
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "3000")),
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _files(*paths):
    return [[path] for path in paths]


def _orion_test(folder, prefix, suffixes):
    return [folder / f"{prefix}_{suffix}" for suffix in suffixes]


SCHEMA = jsonschema.Draft202012Validator(json_schema())
ORION_SAMPLES = sample("orion")
ORION_DATA = data("orion")
MATRICES = ("iops.csv", "mbps.csv", "lat.csv")

# Real files of each format, as groups parsed together (one member of a group is damaged).
INPUTS = {
    "iometer": _files(
        sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv"),
        sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv"),
        sample("iometer", "tpqemu_iometer_multi_4disks_2006.07.27.icf"),
        data("iometer", "results_1.1.0_per_second.csv"),
        data("iometer", "results_1.1.0_qd_sweep_crlf.csv"),
        data("iometer", "results_2006.07.27_fileserver_webserver.csv"),
    ),
    "orion": [
        _orion_test(ORION_SAMPLES, "cnblogs-hftian_mytest_20190329_1057", MATRICES),
        _orion_test(ORION_DATA, "db11_20240305_1412", ("summary.txt", *MATRICES)),
        [ORION_DATA / "vmware_summary.txt"],
    ],
    "jetstress": _files(
        data("jetstress", "jetstress2007_seed001.html"),
        data("jetstress", "jetstress2013_utf16.html"),
        data("jetstress", "jetstress_script_in_description.html"),
        sample("jetstress", "jacobklitzke_JetstressConfig_15.0.995.0.xml"),
    ),
    "ffsb": _files(
        sample("ffsb", "caisong-hugo-blog_ffsb-6.0-RC2_stdout_log.txt"),
        sample("ffsb", "jrsantos_ffsb-6.0_examples_profile_everything"),
        data("ffsb", "sweep_and_two_groups.txt"),
    ),
    "bonnie": _files(
        sample("bonnie++", "bonnie-1.96-pkb-csv.txt"),
        data("bonnie", "header_two_lines.csv"),
    ),
    "cosbench": _files(
        sample("cosbench", "cosbench-workload-summary-w55.csv"),
        sample("cosbench", "cosbench-stage-timeseries-s2.csv"),
    ),
    "fsmark": _files(
        sample("fsmark", "fsmark-3.3-lkp.txt"),
        data("fsmark", "two_invocations.txt"),
    ),
    "specsfs": _files(
        sample("specsfs", "specsfs2014-pkb-summary.xml"),
        data("specsfs", "two_loads_one_invalid.xml"),
    ),
    "array_profile": _files(
        sample("profile", "supportbundle_storageArrayProfile1.txt"),
        sample("profile", "supportbundle_storageArrayProfile6.txt"),
        sample("profile", "supportbundle_storageArrayProfile9.txt"),
        data("array_profile", "ibm_ds5020_excerpt.txt"),
    ),
    "fio": _files(
        sample("fio", "fioplot_fio-2.18_example_data01_randread-01.json"),
        sample("fio", "pkb_fio-2.17_multijob_group_reporting.json"),
        sample("fio", "fioplot_fio-3.33_write-64-1_error-prefix.json"),
        sample("fio", "fioplot_fio-3.6_multijob-no-group-reporting_randwrite-1-8.json"),
        data("fio", "oltp_randrw_jsonplus.json"),
        sample("fio", "fio-3.7-client-server-pbench.txt"),
        sample("fio", "fio-3.26-19-ge7e53-git-version.json"),
        sample("fio", "fio-3.42-cbt-librbdfio-output.1.json"),
        sample("fio", "fio-3.15-lkp-mmap.json"),
    )
    + [sorted(data("fio", "sweep").iterdir())],
    "diskspd": _files(
        sample("diskspd", "pkb_diskspd-2.0.21a_result.xml"),
        sample("diskspd", "basilkisel_diskspd-text_goodwinserverdc.westeurope.cloudapp.azure.com.txt"),
        data("diskspd", "cp1251_nbsp_ru.txt"),
        data("diskspd", "randrw_latency.xml"),
        sample("diskspd", "diskspd-2.2.0-multinuma-multigroup.txt"),
        sample("diskspd", "diskspd-2.2.0-multisocket-singlegroup.txt"),
        sample("diskspd", "diskspd-2.2.0-writeonly-160threads.txt"),
    ),
    "vdbench": _files(
        sample("vdbench", "jiaoben_fsd_totals.html"),
        sample("vdbench", "jiaoben_fsd_summary.html"),
        sample("vdbench", "jiaoben_fsd_flatfile.html"),
        sample("vdbench", "vdbenchexplorer_flatfile_kstat.html"),
        data("vdbench", "sd_summary_localised_forloops.html"),
        data("vdbench", "sd_totals_old_single_space.html"),
    )
    + [[sample("vdbench", f"jiaoben_fsd_{report}.html") for report in ("summary", "totals", "flatfile")]],
    "elbencho": _files(
        sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.csv"),
        sample("elbencho", "glennklockwood_cgpu_bw-direct.01threads.2798687.live.csv"),
        sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.out"),
        data("elbencho", "randread_sweep_rwmix.csv"),
        data("elbencho", "rwmix_lat.res.txt"),
        sample("elbencho", "elbencho-2021-mtelbencho-sweep-large.txt"),
        sample("elbencho", "elbencho-2021-mtelbencho-sweep-losf.txt"),
    ),
    "ior": _files(
        sample("ior", "ior-3.2.0-lustre-gcp-easy-write.txt"),
        sample("ior", "ior-3.4.0dev-daos-easy-write.txt"),
        sample("ior", "ior-3.4.0dev-daos-easy-write-per-rank.csv"),
    ),
    "mdtest": _files(
        sample("mdtest", "mdtest-1.9.3-lustre-gcp-easy-write.txt"),
        sample("mdtest", "mdtest-3.4.0dev-daos-easy-write.txt"),
        sample("mdtest", "mdtest-3.4.0dev-daos-easy-write-per-rank.csv"),
    ),
    "io500": _files(
        sample("io500", "2018-gcp-ddn-lustre-result_summary.txt"),
        sample("io500", "2018-gcp-ddn-io-500-summary.txt"),
        sample("io500", "sc23-aurora-daos-result_summary.txt"),
        sample("io500", "sc25-core42-daos-result_summary.txt"),
        sample("io500", "sc23-aurora-daos-result.txt"),
    )
    + [[sample("io500", f"sc23-aurora-daos-{name}") for name in ("config.ini", "result.txt", "result_summary.txt")]],
    "mlperf_storage": _files(
        sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-report.json"),
        sample("mlperf-storage", "v1.0-huawei-unet3d-h100-report.json"),
        sample("mlperf-storage", "v1.0-ddn-system.json"),
        sample("mlperf-storage", "v1.0-simplyblock-reportgen-output.txt"),
    )
    + [
        [
            sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-run1-summary.json"),
            sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-run1-per_epoch_stats.json"),
        ]
    ],
}

NUMBER = re.compile(rb"-?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")
BAD_NUMBERS = (b"9" * 400, b"NaN", b"nan", b"inf", b"-inf", b"Infinity", b"-1", b"-0.5", b"1e400", b"1e308", b"")
LATIN1_BYTES = (b"\xe9", b"\xb5", b"\xa0", b"\xfc\xdf", b"\x80", b"\x96")
# A number as damage or a wrong locale writes it: a decimal comma followed by more digits, mixed separators.
MIXED_SEPARATORS = (
    lambda number: number + b",0",
    lambda number: number.replace(b".", b",") + b".5",
    lambda number: number + b".5,3",
    lambda number: number[:-1] + b"," + number[-1:],
    lambda number: number + b",000.25",
)
# Whole numbers no float holds (10^400, 2^1100), and one beyond Python's 4,300-digit conversion limit.
HUGE_INTEGERS = (b"1" + b"0" * 400, str(2**1100).encode(), b"9" * 309, b"1" + b"0" * 5000)
# Examples per format and class of damaged number: ``make test`` stays fast; ``make fuzz`` runs more.
NUMBER_EXAMPLES = 25 if os.environ.get("HYPOTHESIS_PROFILE", "default") == "default" else None
ENCODINGS = (
    ("utf-16-le", b""),
    ("utf-16-be", b""),
    ("utf-16-le", b"\xff\xfe"),
    ("utf-16-be", b"\xfe\xff"),
    ("cp1252", b""),
    ("latin-1", b""),
)


@dataclass
class Damaged:
    """The files of one example: (name, bytes) for each, and what was done (for the report)."""

    members: list
    steps: list

    def __repr__(self):
        return f"Damaged({'; '.join(self.steps)})"

    def sources(self):
        return [Source(name=name, data=content) for name, content in self.members]


def _name(path):
    """Files are named as in a folder, so that groups (an ORION test, a fio sweep) are read together."""
    return f"{path.parent.name}/{path.name}"


@st.composite
def _position(draw, content):
    return draw(st.integers(min_value=0, max_value=len(content)))


@st.composite
def _mutation(draw, content):
    kind = draw(
        st.sampled_from(
            ("flip", "insert", "delete", "truncate", "number", "encode", "latin1", "nul", "line_drop", "line_dup")
        )
    )
    at = draw(_position(content))
    if kind == "flip" and content:
        at = min(at, len(content) - 1)
        byte = draw(st.integers(0, 255))
        return content[:at] + bytes([byte]) + content[at + 1 :], f"byte {at} set to {byte:#04x}"
    if kind == "insert":
        extra = draw(st.binary(min_size=1, max_size=8))
        return content[:at] + extra + content[at:], f"{extra!r} inserted at {at}"
    if kind == "delete":
        size = draw(st.integers(1, 200))
        return content[:at] + content[at + size :], f"{size} bytes deleted at {at}"
    if kind == "truncate":
        return content[:at], f"cut at byte {at}"
    if kind == "number":
        numbers = list(NUMBER.finditer(content))
        if numbers:
            match = numbers[draw(st.integers(0, len(numbers) - 1))]
            value = draw(st.sampled_from(BAD_NUMBERS))
            return content[: match.start()] + value + content[match.end() :], f"number at {match.start()} -> {value!r}"
    if kind == "encode":
        encoding, bom = draw(st.sampled_from(ENCODINGS))
        text = content.decode("utf-8", errors="replace")
        return bom + text.encode(encoding, errors="replace"), f"re-encoded as {encoding} bom={bom!r}"
    if kind == "latin1":
        byte = draw(st.sampled_from(LATIN1_BYTES))
        return content[:at] + byte + content[at:], f"Latin-1 {byte!r} inserted at {at}"
    if kind == "nul":
        count = draw(st.integers(1, 4))
        return content[:at] + b"\x00" * count + content[at:], f"{count} NUL bytes at {at}"
    lines = content.splitlines(keepends=True)
    if lines:
        index = draw(st.integers(0, len(lines) - 1))
        keep = lines[: index + 1] if kind == "line_dup" else lines[:index]
        return b"".join(keep + lines[index + 1 :] if kind == "line_drop" else keep + lines[index:]), (
            f"line {index + 1} {'dropped' if kind == 'line_drop' else 'repeated'}"
        )
    return content, "unchanged"


@st.composite
def damaged(draw, format_id):
    group = draw(st.sampled_from(INPUTS[format_id]))
    members = [(_name(path), path.read_bytes()) for path in group]
    target = draw(st.integers(0, len(members) - 1))
    name, content = members[target]
    steps = [name]
    for _ in range(draw(st.integers(1, 3))):
        content, step = draw(_mutation(content))
        steps.append(step)
    members[target] = (name, content)
    return Damaged(members=members, steps=steps)


# Numbers as the files write them in their fields: not part of a word or a longer number.
FIELD_NUMBER = re.compile(rb"(?<![\w.,])\d+(?:\.\d+)?(?![\w.,])")


@st.composite
def damaged_number(draw, format_id, rewrite):
    """One number of one file of a group rewritten by ``rewrite(draw, number)``."""
    group = draw(st.sampled_from(INPUTS[format_id]))
    members = [(_name(path), path.read_bytes()) for path in group]
    target = draw(st.integers(0, len(members) - 1))
    name, content = members[target]
    numbers = list(FIELD_NUMBER.finditer(content))
    if not numbers:
        return Damaged(members=members, steps=[name, "no number"])
    match = numbers[draw(st.integers(0, len(numbers) - 1))]
    value = rewrite(draw, match.group())
    members[target] = (name, content[: match.start()] + value + content[match.end() :])
    line = content.count(b"\n", 0, match.start()) + 1
    return Damaged(members=members, steps=[name, f"line {line}: {match.group()!r} -> {value[:30]!r}"])


def _mixed_separators(draw, number):
    return draw(st.sampled_from(MIXED_SEPARATORS))(number)


def _huge_integer(draw, number):
    return draw(st.sampled_from(HUGE_INTEGERS))


def check_parse(example):
    """Parse a damaged example; return the results, or the ParseError raised. Anything else escapes."""
    names = [name for name, _ in example.members]
    try:
        results = parse_sources(example.sources())
    except ParseError as error:
        assert any(str(error).startswith(name) for name in names), f"the error names no file: {error}"
        assert error.message.strip(), "the error has no sentence"
        return error
    for result in results:
        # The registry checked the contract already; the published schema is a second, separate reading.
        assert list(SCHEMA.iter_errors(result)) == []
        assert all(run["points"] for run in result["runs"]), "a run without points was returned"
        # What is stored goes to PostgreSQL as JSON: no NaN, no infinity, no NUL character.
        text = json.dumps(result, allow_nan=False)
        assert "\\u0000" not in text, "a NUL character reached the result"
    return results


@pytest.mark.parametrize("format_id", sorted(FORMATS))
def test_every_format_has_fuzz_inputs(format_id):
    assert INPUTS.get(format_id), f"no real files of {format_id} to damage"
    assert all(Path(path).is_file() for group in INPUTS[format_id] for path in group)


@pytest.mark.parametrize("format_id", sorted(INPUTS))
def test_damaged_files_give_results_or_a_parse_error(format_id):
    @given(example=damaged(format_id))
    def property_holds(example):
        check_parse(example)

    property_holds()


@pytest.mark.parametrize("rewrite", [_mixed_separators, _huge_integer], ids=["mixed separators", "huge integer"])
@pytest.mark.parametrize("format_id", sorted(INPUTS))
def test_damaged_numbers_give_results_or_a_parse_error(format_id, rewrite):
    @settings(max_examples=NUMBER_EXAMPLES or settings.default.max_examples)
    @given(example=damaged_number(format_id, rewrite))
    def property_holds(example):
        check_parse(example)

    property_holds()


HUGE = "1" + "0" * 5000  # beyond a float, and beyond the 4,300 digits Python reads as a whole number


@pytest.mark.parametrize(
    ("path", "written", "damaged"),
    [
        (sample("fio", "pkb_fio-2.17_multijob_group_reporting.json"), '"total_ios" : 80891', f'"total_ios" : {HUGE}'),
        (sample("orion", "cnblogs-hftian_mytest_20190329_1057_iops.csv"), ",      5\n", f",      {HUGE}\n"),
        (data("ffsb", "sweep_and_two_groups.txt"), "num_threads      = 1\n", f"num_threads      = {HUGE}\n"),
        (sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv"), "0 to 50 uS", f"0 to {HUGE} uS"),
    ],
    ids=["fio", "orion", "ffsb", "iometer"],
)
def test_a_number_of_thousands_of_digits_is_refused_with_its_line(path, written, damaged):
    text = path.read_text()
    line = text[: text.index(written)].count("\n") + 1  # the first place the number is written
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name=path.name, data=text.replace(written, damaged, 1).encode())])
    assert str(caught.value).startswith(f"{path.name}:{line}: ")


# A warning that says the copy was cut, and what was lost with it; a live series names its last sample.
CUT_WARNINGS = ("cut short", "cut there", "up to the last sample (line")
# Cut positions per file and kind, evenly spread: ``make test`` takes 12; ``make fuzz`` takes every one up to
# ``FUZZ_CUTS`` (2,000; 0 for all: the 50 MB-shaped Iometer multitest sample alone has 42,869, about an hour).
_FUZZ_CUTS = int(os.environ.get("FUZZ_CUTS", "2000")) or None
CUTS_PER_FILE = 12 if os.environ.get("HYPOTHESIS_PROFILE", "default") == "default" else _FUZZ_CUTS


def _spread(positions, count):
    """``count`` positions evenly spread over ``positions`` (all of them when ``count`` is None)."""
    if count is None or len(positions) <= count:
        return positions
    return [positions[round(i * (len(positions) - 1) / (count - 1))] for i in range(count)]


def cut_positions(content, count=None):
    """Where a copy is cut: after a line end (but the last) and in the middle of every number of two
    digits or more (``count`` of each kind, evenly spread, or all)."""
    ends = [match.end() for match in re.finditer(rb"\n", content) if match.end() < len(content)]
    inside = [match.start() + len(match.group()) // 2 for match in re.finditer(rb"\d{2,}", content)]
    return sorted(set(_spread(ends, count) + _spread(inside, count)))


def _figures(results):
    """Every run's points as stored, by run name (a name repeated keeps each of its runs)."""
    runs: dict = {}
    for result in results:
        for run in result["runs"]:
            runs.setdefault(run["name"], []).append([sorted(point.items()) for point in run["points"]])
    return runs


def _cut_members():
    """(format, the group's files, which of them is cut) for every file of every format's groups."""
    for format_id in sorted(INPUTS):
        for group in INPUTS[format_id]:
            for target in range(len(group)):
                yield pytest.param(format_id, group, target, id=f"{format_id}-{_name(group[target])}")


def _says_it_was_cut(results):
    return any(marker in warning for result in results for warning in result["warnings"] for marker in CUT_WARNINGS)


@pytest.mark.parametrize(("format_id", "group", "target"), list(_cut_members()))
def test_a_file_cut_at_a_line_end_or_inside_a_number_is_refused_or_warned_or_keeps_the_intact_files_figures(
    format_id, group, target
):
    """Each cut copy: a ParseError naming the file, a warning naming the cut and what was lost, or points
    that are the intact file's, figure for figure (a run may lose points, never change one)."""
    members = [(_name(path), path.read_bytes()) for path in group]
    try:
        intact = _figures(parse_sources([Source(name=name, data=content) for name, content in members]))
    except ParseError:
        intact = None  # a file refused whole (an Iometer .icf): each cut copy must be refused too
    name, content = members[target]
    for at in cut_positions(content, CUTS_PER_FILE):
        members[target] = (name, content[:at])
        line = content.count(b"\n", 0, at) + (0 if content[at - 1 : at] == b"\n" else 1)
        example = Damaged(members=list(members), steps=[name, f"cut at byte {at}, line {line}"])
        outcome = check_parse(example)
        if isinstance(outcome, ParseError) or _says_it_was_cut(outcome):
            continue
        assert intact is not None, f"{example}: a cut copy of a refused file was read"
        for run_name, runs in _figures(outcome).items():
            for points in runs:
                for point in points:
                    assert any(point in intact_points for intact_points in intact.get(run_name, [])), (
                        f"{example}: run {run_name!r} holds a point the intact file does not: {dict(point)}"
                    )


# Every sample file of each format ArrayBench reads (and the tests' own files), cut at every line end of
# its last quarter and at 25, 50, 75 and 90 % of its length (there, and at the line end before it). What
# a cut copy would store (everything but the warnings and the file's checksum) must be the intact file's,
# or the copy refused, or stored with a warning that names the cut file and says it was cut. ``make
# test`` takes every cut of a small file and an evenly spread 40 of a large one's last quarter, and one
# fio grid of each folder of ``fio-grids``; ``make fuzz`` takes every cut of every file.
SAMPLE_FOLDERS = ("iometer", "orion", "jetstress", "ffsb", "profile", "fio", "fio-sweeps", "fio-grids", "diskspd")
SAMPLE_FOLDERS += ("vdbench", "elbencho", "ior", "mdtest", "io500", "specsfs", "bonnie++", "fsmark", "cosbench")
SAMPLE_FOLDERS += ("mlperf-storage",)
CUT_FRACTIONS = (0.25, 0.5, 0.75, 0.9)
FULL_CUTS = os.environ.get("HYPOTHESIS_PROFILE", "default") != "default"
LAST_QUARTER_CUTS = None if FULL_CUTS else 40
# A group read together larger than this (a fio sweep's folder) has each file cut and read alone.
GROUP_LIMIT = 4


def _sample_groups():
    """The groups of files as an upload of each folder reads them (an ORION test's files together)."""
    folders = [SAMPLES_DIR / name for name in SAMPLE_FOLDERS] + sorted(p for p in DATA_DIR.iterdir() if p.is_dir())
    for folder in folders:
        sources = [source for source in sources_under([folder]) if source.path.suffix not in (".md", ".tsv")]
        for group in plan(sources):
            if group.error is not None:
                continue  # not a result file (a configuration file): refused whole, nothing to cut
            paths = [source.path for source in group.sources]
            if len(paths) > GROUP_LIMIT:
                if not FULL_CUTS and folder.name == "fio-grids":
                    paths = paths[:1]
                yield from ([path] for path in paths)
            else:
                yield paths


def sample_cuts(content, last_quarter=None):
    """Where a copy of ``content`` is cut: every line end of its last quarter (``last_quarter`` of them,
    evenly spread, when set), and at each of ``CUT_FRACTIONS`` of its length and the line end before."""
    ends = [match.end() for match in re.finditer(rb"\n", content) if match.end() < len(content)]
    cuts = set(_spread([end for end in ends if end >= len(content) * 3 // 4], last_quarter))
    for fraction in CUT_FRACTIONS:
        at = int(len(content) * fraction)
        cuts.add(at)
        before = [end for end in ends if end <= at]
        if before:
            cuts.add(before[-1])
    return sorted(at for at in cuts if 0 < at < len(content))


# How a whole file of each tool may end, holding fewer tests than the intact one and still whole: Iometer
# appends each test, closed by its 'End Test; elbencho writes each run's rows (or '---' closed blocks) and
# its parser warns when a command line asks for a phase the file does not hold, so any line end after the
# last phase asked for is a whole file; vdbench closes each RD with its avg_ line; an FFSB run with its
# CPU Utilization line; a DiskSpd text run ends with its %-ile table's max row (-L) or its Write IO table;
# IOR's parser warns when a test holds fewer results rows than its command line and repetitions ask for, or a
# summary ends before its 'Finished' line, so any line end after the last row is a whole file (as IO500's runs
# of IOR 3.4 end, with no summary);
# runs saved one after another (with the user's own lines between them) state no count. A copy cut there
# cannot tell: it may store fewer runs and points (each the intact file's, figure for figure) without a warning.
def _diskspd_whole(text):
    last_run = text[text.rfind(b"Command Line:") :]
    if b" -L" in last_run.split(b"\n", 1)[0]:
        return re.search(rb"(?m)^\s*max\s*\|", last_run) is not None
    return last_run.count(b"total:") >= 3


WHOLE_ENDINGS = {
    "iometer": re.compile(rb"'End Test\s*$").search,
    "elbencho": re.compile(rb"\n$").search,
    # One CSV line per test run: a copy cut at a line end holds the whole lines before it.
    "bonnie": re.compile(rb"\n$").search,
    # A row per stage and operation (a summary) or per sample (a time series), no count of them stated.
    "cosbench": re.compile(rb"\n$").search,
    # Each RD's rows end with its avg_ (std_, max_) line; the summary's RD list is checked by its parser.
    "vdbench": re.compile(rb"\s(?:avg|std|max|min)_\d+-\d+\s[^\n]*\n(?:\s*</pre>\s*)?$").search,
    "diskspd": _diskspd_whole,
    "ffsb": re.compile(rb"CPU Utilization\s*$").search,
    "ior": re.compile(rb"\n$").search,
}


def stored_form(results):
    """What a parse stores but its warnings and the file's checksum: the system, the tool, the runs."""
    return json.dumps(
        [{key: value for key, value in result.items() if key not in ("warnings", "source")} for result in results],
        sort_keys=True,
        default=str,
    )


def cut_outcome(members, target, at, intact, intact_warnings):
    """``refused``, ``equal``, ``warned`` (a new warning names the cut file and the cut), ``whole`` (a copy
    that ends as a whole file of its tool does, holding some of the intact file's runs) or ``silent``."""
    name, content = members[target]
    cut = list(members)
    cut[target] = (name, content[:at])
    try:
        results = parse_sources([Source(name=member, data=data) for member, data in cut])
    except ParseError as error:
        assert error.file in {member for member, _ in members}, f"{name} cut at {at}: the error names no file"
        return "refused"
    if stored_form(results) == intact:
        return "equal"
    base = name.rsplit("/", 1)[-1]
    new = [w for r in results for w in r["warnings"] if w not in intact_warnings and base in w and "cut" in w]
    if new:
        return "warned"
    ending = WHOLE_ENDINGS.get(results[0]["format"])
    if ending and ending(content[:at]) and _runs_within(results, json.loads(intact)):
        return "whole"
    return "silent"


def _runs_within(results, intact_results):
    """Whether every run stored is one of the intact file's, with some of its points, figure for figure (a
    run's lists of what its points came from, such as FFSB's source lines, are shorter with fewer points)."""
    intact = {}
    for run in (run for result in intact_results for run in result["runs"]):
        intact.setdefault(_run_identity(run), []).extend(map(_plain_json, run["points"]))
    return all(
        set(map(_plain_json, run["points"])) <= set(intact.get(_run_identity(run), ()))
        for result in results
        for run in result["runs"]
    )


def _run_identity(run):
    params = {key: value for key, value in (run.get("params") or {}).items() if not isinstance(value, list)}
    return _plain_json({**run, "points": None, "params": params})


def _plain_json(value):
    return json.dumps(value, sort_keys=True, default=str)


def _sample_cut_groups():
    for group in _sample_groups():
        yield pytest.param(group, id="+".join(_name(path) for path in group))


@pytest.mark.parametrize("group", list(_sample_cut_groups()))
def test_a_sample_cut_short_is_refused_or_stored_as_the_intact_file_or_warned_of_the_cut(group):
    members = [(_name(path), path.read_bytes()) for path in group]
    try:
        intact_results = parse_sources([Source(name=name, data=content) for name, content in members])
    except ParseError:
        return  # refused whole: the cut copies are held to be refused by the damage tests above
    intact = stored_form(intact_results)
    intact_warnings = {warning for result in intact_results for warning in result["warnings"]}
    silent = []
    for target, (name, content) in enumerate(members):
        for at in sample_cuts(content, LAST_QUARTER_CUTS):
            if cut_outcome(members, target, at, intact, intact_warnings) == "silent":
                line = content.count(b"\n", 0, at) + (0 if content[at - 1 : at] == b"\n" else 1)
                silent.append(f"{name} cut at byte {at} ({at * 100 // len(content)} %, line {line})")
    assert not silent, f"stored different from the intact file without a warning naming the cut: {silent}"
