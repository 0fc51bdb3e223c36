"""Zip archives: members streamed from the archive, the safety checks, and the memory they cost."""

import bz2
import gzip
import hashlib
import io
import json
import lzma
import stat
import struct
import subprocess
import sys
import tarfile
import zipfile

import pytest

from ingest import ParseError, Source, detect, parse_archive, parse_paths
from ingest.archive import ZipLimits, ZipMember, _MemberReader, zip_members
from ingest.formats import fio
from tests.samples import REPO, sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
IOMETER = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")
CENTRAL_HEADER = b"PK\x01\x02"


def zipped(members, *, compression=zipfile.ZIP_DEFLATED):
    """An in-memory zip archive as a Source; ``members`` maps names to bytes or ZipInfo pairs."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def source_of(data, name="results.zip"):
    return Source(name=name, data=data)


def patched(data, offset, fmt, value):
    """The archive with one field of its (only) central directory entry changed."""
    at = data.index(CENTRAL_HEADER) + offset
    return data[:at] + struct.pack(fmt, value) + data[at + struct.calcsize(fmt) :]


def refusal(data):
    with pytest.raises(ParseError) as caught:
        zip_members(source_of(data))
    return str(caught.value)


class TestMembersAreStreamed:
    def test_a_member_reads_hashes_and_detects_as_the_file_itself(self):
        content = IOMETER.read_bytes()
        [member] = zip_members(source_of(zipped({"run1/results.csv": content})))
        assert isinstance(member, ZipMember)
        assert member.name == "results.zip/run1/results.csv"
        assert member.head(64) == content[:64]
        assert member.sha256 == hashlib.sha256(content).hexdigest()
        with member.open_binary() as stream:
            assert stream.read() == content
        assert detect(member).FORMAT == "iometer"

    def test_an_archive_parses_as_its_files_do(self, tmp_path):
        archive = tmp_path / "results.zip"
        archive.write_bytes(zipped({"a/results.csv": IOMETER.read_bytes(), "b/fio.json": FIO.read_bytes()}))
        zipped_results = parse_paths([archive])
        plain_results = parse_paths([IOMETER, FIO])
        assert [r["runs"] for r in zipped_results] == [r["runs"] for r in plain_results]
        assert [r["source"]["sha256"] for r in zipped_results] == [r["source"]["sha256"] for r in plain_results]

    def test_a_fio_sweep_member_keeps_its_folder_as_group(self):
        [member] = zip_members(source_of(zipped({"sweep/randread-1-1.json": FIO.read_bytes()})))
        assert member.path is None
        assert fio.group_key(member) == "results.zip/sweep"

    def test_members_seek_like_files(self):
        content = FIO.read_bytes()
        [member] = zip_members(source_of(zipped({"fio.json": content})))
        with member.open_binary() as stream:
            stream.seek(1000)
            assert stream.read(10) == content[1000:1010]
            stream.seek(5)
            assert stream.read(10) == content[5:15]


class TestNestedArchivesAndLinks:
    @pytest.mark.parametrize(
        ("name", "content", "kind"),
        [
            ("inner.zip", zipped({"results.csv": b"x"}), "zip"),
            ("results.csv", gzip.compress(b"Iometer results" * 100, mtime=0), "gzip"),
            ("results.bz2", bz2.compress(b"Iometer results" * 100), "bzip2"),
            ("results.xz", lzma.compress(b"Iometer results" * 100), "xz"),
            ("results.7z", b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(100), "7z"),
            ("results.rar", b"Rar!\x1a\x07\x01\x00" + bytes(100), "rar"),
        ],
    )
    def test_an_archive_inside_refuses_the_archive_naming_it(self, name, content, kind):
        data = zipped({"results.csv": FIO.read_bytes(), name: content})
        assert refusal(data) == (
            f"results.zip: archive member {name!r} is itself an archive ({kind}); unpack it and upload its files"
        )

    def test_a_tar_inside_is_recognised_by_its_header(self):
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            tar.addfile(tarfile.TarInfo("results.csv"), io.BytesIO(b""))
        message = refusal(zipped({"logs/backup": buffer.getvalue()}))
        assert message.endswith(
            "archive member 'logs/backup' is itself an archive (tar); unpack it and upload its files"
        )

    def test_an_office_document_beside_the_results_is_passed_over(self):
        data = zipped({"fio.json": FIO.read_bytes(), "summary.xlsx": zipped({"[Content_Types].xml": b"<Types/>"})})
        [result] = parse_archive(source_of(data))
        assert result["format"] == "fio"
        [warning] = [w for w in result["warnings"] if "summary.xlsx" in w]
        assert warning.startswith("results.zip/summary.xlsx: passed over (not a recognised result file")

    def test_a_symbolic_link_refuses_the_archive_naming_it(self):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("fio.json", FIO.read_bytes())
            link = zipfile.ZipInfo("run1/results.csv")
            link.create_system = 3
            link.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(link, "/etc/passwd")
        assert refusal(buffer.getvalue()) == (
            "results.zip: archive member 'run1/results.csv' is a symbolic link; refusing the archive"
        )


class TestDamagedOrHostileMembers:
    def test_a_member_larger_than_its_header_says_is_refused_when_read(self):
        content = IOMETER.read_bytes()
        # The central directory declares half the size; the stored bytes and CRC are the whole file's.
        data = patched(zipped({"results.csv": content}, compression=zipfile.ZIP_STORED), 24, "<I", len(content) // 2)
        with pytest.raises(ParseError) as caught:
            parse_archive(source_of(data))
        assert str(caught.value).startswith("results.zip: archive member 'results.csv' does not match its header (")
        assert str(caught.value).endswith("): it is damaged, or larger than its header says")

    def test_the_reader_never_returns_more_than_the_header_declared(self):
        info = zipfile.ZipInfo("results.csv")
        info.file_size = 10
        reader = io.BufferedReader(_MemberReader(io.BytesIO(b"x" * 20), io.BytesIO(), info, "results.zip"))
        with pytest.raises(ParseError, match="^results.zip: archive member 'results.csv' is larger than its header"):
            reader.read()

    def test_damaged_compressed_bytes_are_a_parse_error_naming_the_member(self):
        data = bytearray(zipped({"fio.json": FIO.read_bytes()}))
        start = data.index(b"fio.json") + len("fio.json") + 200
        data[start : start + 50] = bytes(50)
        with pytest.raises(ParseError, match="^results.zip: archive member 'fio.json' does not match its header"):
            parse_archive(source_of(bytes(data)))

    def test_bzip2_members_are_refused_as_they_cannot_be_read_in_bounded_steps(self):
        data = zipped({"fio.json": FIO.read_bytes()}, compression=zipfile.ZIP_BZIP2)
        assert refusal(data) == (
            "results.zip: archive member 'fio.json' is compressed with bzip2; ArrayBench reads stored and deflated "
            "members (the usual zip compression): make the archive again with it"
        )

    def test_encrypted_members_are_refused(self):
        data = patched(zipped({"fio.json": FIO.read_bytes()}), 8, "<H", 0x1)
        assert refusal(data) == (
            "results.zip: archive member 'fio.json' is encrypted; upload an archive without a password"
        )

    @pytest.mark.parametrize(
        ("members", "limits", "message"),
        [
            (
                {"a.csv": b"1", "b.csv": b"2", "c.csv": b"3"},
                ZipLimits(max_members=2),
                "archive holds 3 files; at most 2",
            ),
            ({"a.csv": b"12345" * 100}, ZipLimits(max_total_bytes=100), "archive expands to 500 bytes; at most 100"),
            ({"a.csv": b"0" * 100_000}, ZipLimits(), "archive member 'a.csv' expands "),
            ({"/etc/results.csv": b"1"}, ZipLimits(), "archive member '/etc/results.csv' has an absolute path"),
            ({"C:/results.csv": b"1"}, ZipLimits(), "archive member 'C:/results.csv' has an absolute path"),
            ({"a/../../results.csv": b"1"}, ZipLimits(), "archive member 'a/../../results.csv' points outside"),
        ],
    )
    def test_the_limits_and_path_checks_refuse_the_archive(self, members, limits, message):
        with pytest.raises(ParseError) as caught:
            zip_members(source_of(zipped(members)), limits)
        assert message in str(caught.value)

    def test_hidden_files_and_macos_forks_are_passed_over_unread(self):
        data = zipped(
            {
                "fio.json": FIO.read_bytes(),
                "__MACOSX/._fio.json": zipped({"x": b"AppleDouble"}),
                "run/.DS_Store": gzip.compress(b"x"),
            }
        )
        assert [member.name for member in zip_members(source_of(data))] == ["results.zip/fio.json"]


# Reads every member as the portal does (detect, hash, read through as a parser), then prints the peak memory:
# VmHWM, the peak resident size of this program alone (ru_maxrss also counts the forking pytest's).
MEASURE = r"""
import json, re, sys
from pathlib import Path
from ingest import Source, detect
from ingest.archive import zip_members
members = zip_members(Source(sys.argv[1]))
formats, hashes = [], []
for member in members:
    formats.append(detect(member).FORMAT)
    hashes.append(member.sha256)
    with member.open_binary() as stream:
        while stream.read(1 << 20):
            pass
peak_kb = int(re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text()).group(1))
print(json.dumps({"formats": formats, "hashes": hashes, "peak_mb": peak_kb / 1024}))
"""


def test_a_large_archive_is_read_in_bounded_memory(tmp_path):
    """300 MB of Iometer results in a 58 MB archive (within the limits): whole members in memory
    would peak above 300 MB; streamed, the reading process stays under 100 MB."""
    chunk = IOMETER.read_bytes()
    archive, digest = tmp_path / "results.zip", hashlib.sha256()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        out.writestr("fio/randread-1-1.json", FIO.read_bytes())
        with out.open("iometer/results.csv", "w") as member:
            for _ in range(300 * 1024**2 // len(chunk)):
                member.write(chunk)
                digest.update(chunk)
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(archive)], cwd=REPO, capture_output=True, text=True, check=True
    )
    measured = json.loads(run.stdout)
    assert measured["formats"] == ["fio", "iometer"]
    assert measured["hashes"] == [hashlib.sha256(FIO.read_bytes()).hexdigest(), digest.hexdigest()]
    assert measured["peak_mb"] < 100
