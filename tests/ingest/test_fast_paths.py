"""The fio and Iometer parsers read plain figures on a fast path and everything else with careful
readers that name what is wrong. On generated inputs, both give the same result: the same runs,
points and metrics, or the same error (message, line, field).

fio: a document of a few jobs whose figures are random (plain, missing, null, negative, NaN, huge,
text, true), parsed as it is and with the single-entry reading (``_entry_point``) and the
percentile-table reading (``_percentile_layout``) turned off, so every figure goes through
``_Where.number`` and ``_point``.

Iometer: results rows with random cells under the real headers of the shared samples (columns in
their own order or shuffled), parsed as it is and with the one-pass cell readers (``_plain_figures``,
``_plain_counts``, the member figures read inline) and the PROCESSOR cell read in place turned off, so
every cell goes through ``_number``.
"""

import json
import random
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest import ParseError, Source
from ingest.formats import fio, iometer
from tests.samples import data, sample

EXAMPLES = settings(
    max_examples=250,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def outcome(parse, source):
    """What a parse gives, as text that tells -0.0 from 0.0 and 1 from 1.0: the result set in dict
    form, or the error's message, line and field."""
    try:
        result = parse(source)
    except ParseError as error:
        return ("error", error.message, error.line, error.field)
    return ("result", repr(result.to_dict()))


# fio ------------------------------------------------------------------------------------------

ODD_FIGURES = st.sampled_from(
    [None, 0, 0.0, -0.0, -1, -2.5, float("nan"), float("inf"), 2**63, 2**70, 10**400, True, "12", [], {}]
)
PLAIN_FIGURES = st.one_of(
    st.integers(min_value=0, max_value=10**12),
    st.floats(min_value=0, max_value=1e12, allow_nan=False),
)
MISSING = object()


def figure(draw, odd):
    """A plain figure, or, in a document with odd figures, one of them about once in eight."""
    if odd and draw(st.integers(min_value=0, max_value=7)) == 0:
        return draw(ODD_FIGURES)
    return draw(PLAIN_FIGURES)


def fields(draw, names, odd):
    """An object holding most of ``names``, each a figure."""
    return {name: figure(draw, odd) for name in names if draw(st.integers(min_value=0, max_value=5))}


def percentile_table(draw, odd):
    names = ["1.000000", "50.000000", "99.000000", "99.990000", "0.00"]
    keys = draw(st.lists(st.sampled_from([*names, "abc", "-5"] if odd else names), max_size=4, unique=True))
    return {key: figure(draw, odd) for key in keys}


def direction(draw, odd):
    stats = fields(draw, ["iops", "total_ios", draw(st.sampled_from(["bw_bytes", "bw"]))], odd)
    latency = draw(st.sampled_from(["lat_ns", "lat"]))
    stats[latency] = fields(draw, ["mean", "max"], odd) if figure(draw, odd) is not None else None
    if draw(st.booleans()):
        clat = "clat_ns" if latency == "lat_ns" else "clat"
        stats[clat] = {"percentile": percentile_table(draw, odd)}
    return stats


@st.composite
def fio_documents(draw):
    """One to three jobs (a name given twice: clones summed); each direction with figures, absent,
    or, in a document with odd figures, something else."""
    odd = draw(st.booleans())
    jobs = []
    for index in range(draw(st.integers(min_value=1, max_value=3))):
        job = {"jobname": f"job{draw(st.integers(min_value=0, max_value=index))}", "groupid": 0}
        for name in ("read", "write", "trim"):
            kind = draw(st.sampled_from(["stats", "stats", "missing", "odd" if odd else "stats"]))
            if kind == "stats":
                job[name] = direction(draw, odd)
            elif kind == "odd":
                job[name] = draw(ODD_FIGURES)
        job.update(fields(draw, ["usr_cpu", "sys_cpu"], odd))
        if draw(st.booleans()):
            job["job options"] = {"rw": draw(st.sampled_from(["randread", "randrw", "write"])), "bs": "4k"}
        jobs.append(job)
    return {"fio version": "fio-3.34", "timestamp": 1700000000, "jobs": jobs}


@contextmanager
def replaced(package, **functions):
    """Each function named replaced in every module of ``package`` that calls it."""
    prefix = f"{package.__name__}."
    modules = [module for name, module in sys.modules.items() if name.startswith(prefix)]
    saved = [(module, name, getattr(module, name)) for module in modules for name in functions if hasattr(module, name)]
    assert {name for _module, name, _function in saved} == set(functions)
    for module, name, _function in saved:
        setattr(module, name, functions[name])
    try:
        yield
    finally:
        for module, name, function in saved:
            setattr(module, name, function)


def fio_careful(source):
    """fio's parse with every figure read by ``_Where.number`` and summed by ``_point``."""
    with replaced(fio, _entry_point=lambda entry, where: None, _percentile_layout=lambda keys, where: None):
        return fio.parse(source)


@EXAMPLES
@given(document=fio_documents())
def test_fio_single_entry_reading_agrees_with_the_careful_one(document):
    text = json.dumps(document, indent=2, allow_nan=True).encode()
    source = Source(name="generated.json", data=text)
    fast = outcome(fio.parse, source)
    assert fast == outcome(fio_careful, Source(name="generated.json", data=text))


def test_fio_careful_reading_is_what_the_property_compares():
    """The comparison is not empty: on a real file the fast path reads the jobs (``_entry_point``
    gives their points) and the careful reading gives the same figures."""
    path = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
    calls = []
    original = fio.figures._entry_point

    def counted(entry, where):
        point = original(entry, where)
        calls.append(point)
        return point

    with replaced(fio, _entry_point=counted):
        fast = outcome(fio.parse, Source(path))
    assert len(calls) == 1 and calls[0] is not None
    assert fast == outcome(fio_careful, Source(path))
    # fioplot_fio-3.34_randread-1-1.json, jobs[0].read.iops
    assert "'iops': 10102.601156" in fast[1]


# Iometer --------------------------------------------------------------------------------------

IOMETER_FILES = [
    sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv"),
    sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv"),
    data("iometer", "results_2006.07.27_fileserver_webserver.csv"),
    data("iometer", "results_1.1.0_per_second.csv"),
]


def real_headers():
    """Each distinct results header line of the Iometer files above, as its cells."""
    headers = {}
    for path in IOMETER_FILES:
        for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
            if "Target Type" in line and "Target Name" in line:
                headers.setdefault(line.strip(), None)
    return [line.split(",") for line in headers]


HEADERS = real_headers()
PLAIN_CELLS = ("0", "0.000000", "1.0", "2.5e3", " 7 ", "12", "4096", "0.132133", "30171.173034", "999999.5")


def plain_cell(generator):
    """A figure as Iometer prints it (or near it): whole, six decimals, an exponent, padded."""
    if generator.random() < 0.5:
        return generator.choice(PLAIN_CELLS)
    return f"{generator.uniform(0, 1e6):.6f}" if generator.random() < 0.5 else str(generator.randrange(10**6))


# Cells the careful readers take apart: empty, Iometer's sentinels, damage.
ODD_CELLS = st.sampled_from(["", " ", "-1", "18446744073709551615", "nan", "inf", "-3", "1e400", "abc", "1,5"])
ROW_KINDS = ["ALL", "MANAGER", "PROCESSOR", "WORKER", "DISK", "NETWORK", " disk", "Worker"]


@st.composite
def layouts(draw):
    """A real header, in its own column order or shuffled (Target Name stays after Target Type)."""
    columns = list(draw(st.sampled_from(HEADERS)))
    if draw(st.booleans()):
        start = next(i for i, cell in enumerate(columns) if cell.lstrip("'") == "Target Type")
        pair = columns[start : start + 2]
        rest = columns[:start] + columns[start + 2 :]
        random.Random(draw(st.integers(min_value=0, max_value=2**16))).shuffle(rest)
        at = draw(st.integers(min_value=0, max_value=len(rest)))
        columns = rest[:at] + [pair[0].lstrip("'"), pair[1]] + rest[at:]
        columns[0] = "'" + columns[0].lstrip("'")
    return columns


@st.composite
def iometer_files(draw):
    header = draw(layouts())
    names = [cell.strip().lstrip("'").strip() for cell in header]
    type_index = names.index("Target Type")
    bins = [i for i, name in enumerate(names) if iometer.table._histogram_bin(name, 1)]
    processor_width = bins[0] if bins else len(names)
    rows = []
    # Plain cells from a seeded generator (thousands per file); what makes a file odd is drawn below.
    generator = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    kinds = ["ALL", *draw(st.lists(st.sampled_from(ROW_KINDS), min_size=1, max_size=8))]
    for number, kind in enumerate(kinds):
        cells = [plain_cell(generator) for _ in names]
        if kind == "ALL":  # a section that did I/O, unless a cell below is made odd
            cells[names.index("IOps")] = cells[names.index("# Workers")] = str(generator.randrange(1, 10**6))
        cells[type_index], cells[type_index + 1] = kind, f"{kind.strip().lower()} {number}"
        if "Access Specification Name" in names:
            cells[names.index("Access Specification Name")] = draw(st.sampled_from(["", "4K read", " spec "]))
        if kind == "PROCESSOR" and "% CPU Utilization" in names and draw(st.booleans()):
            # As Iometer writes them: nothing between the name and the CPU cell.
            for column in range(type_index + 2, names.index("% CPU Utilization")):
                cells[column] = ""
        rows.append(cells)
    # A few odd cells in some files, anywhere but the Target Type and Name.
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        cells = draw(st.sampled_from(rows))
        column = draw(st.integers(min_value=0, max_value=len(cells) - 1))
        if column not in (type_index, type_index + 1):
            cells[column] = draw(ODD_CELLS)
    for cells in rows:
        if cells[type_index] == "PROCESSOR" and draw(st.booleans()):
            del cells[max(processor_width, type_index + 2) :]  # a PROCESSOR row stops before the bins
    lines = [
        "'Test Type,Test Description",
        "0,generated",
        "'Version",
        "1.1.0",
        "'Time Stamp",
        "2023-03-25 03:05:43:661",
        "'Access specifications",
        "'Access specification name,default assignment",
        "4K read,0",
        "'size,% of size,% reads,% random,delay,burst,align,reply",
        ",".join([draw(st.sampled_from(["4096", "512"])), *(plain_cell(generator) for _ in range(7))]),
        "'End access specifications",
        "'Results",
        ",".join(header),
        *(",".join(cells) for cells in rows),
        "'Time Stamp",
        "2023-03-25 03:06:43:661",
        "'End Test",
    ]
    return "\n".join(lines) + "\n"


def iometer_careful(source):
    """Iometer's parse with every cell read by ``_number`` (through ``_fill``, ``_Table.member`` and
    ``_optional``)."""
    # Class properties the table's own settings cannot replace: every PROCESSOR row's CPU through
    # ``_optional`` (nor read in place), every member row's figures through ``_Table.member``.
    Table = iometer.table._Table
    Table.processor_cpu_index = property(lambda table: None, lambda table, value: None)
    Table.member_get = property(lambda table: None, lambda table, value: None)
    try:
        with replaced(iometer, _plain_figures=lambda cells, getter: None, _plain_counts=lambda cells, getter: None):
            return iometer.parse(source)
    finally:
        del Table.processor_cpu_index, Table.member_get


@EXAMPLES
@given(text=iometer_files())
def test_iometer_row_loop_agrees_with_the_careful_readers(text):
    fast = outcome(iometer.parse, Source(name="generated.csv", data=text.encode()))
    assert fast == outcome(iometer_careful, Source(name="generated.csv", data=text.encode()))


@pytest.mark.parametrize("path", IOMETER_FILES[:2], ids=lambda path: path.name)
def test_iometer_careful_reading_of_the_samples_is_the_same(path):
    fast = outcome(iometer.parse, Source(path))
    assert fast[0] == "result"
    assert fast == outcome(iometer_careful, Source(path))
