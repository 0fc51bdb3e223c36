"""Reading a source once for the parser and its sha256; the cycle collector around a parse."""

import gc
import hashlib

from ingest import Source
from ingest.cycles import cycle_collection_paused
from ingest.source import decode_head

TEXT = "'Test Type,Test Description\n0,512B Random Read\n" * 2000


def test_reading_a_file_to_its_end_gives_its_sha256(tmp_path):
    path = tmp_path / "results.csv"
    path.write_bytes(b"\xef\xbb\xbf" + TEXT.encode())
    source = Source(path)
    with source.open_text() as stream:
        assert stream.read() == TEXT
    assert source._sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert source.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_file_read_in_part_is_hashed_whole():
    data = TEXT.encode()
    source = Source(name="results.csv", data=data)
    with source.open_text() as stream:
        stream.readline()
    assert source.sha256 == hashlib.sha256(data).hexdigest()


def test_a_stream_seeked_does_not_set_the_sha256():
    data = TEXT.encode()
    source = Source(name="results.csv", data=data)
    with source.open_binary() as stream:
        stream.seek(10)
        stream.read()
    assert source._sha256 is None
    assert source.sha256 == hashlib.sha256(data).hexdigest()


def test_the_collector_is_paused_and_restored():
    assert gc.isenabled()
    with cycle_collection_paused():
        assert not gc.isenabled()
        with cycle_collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_objects_the_process_froze_stay_frozen():
    # Frozen objects are in no generation the collector examines: gc.get_objects() leaves them out.
    mine = [["frozen by the process"]]
    gc.freeze()
    try:
        assert not any(found is mine for found in gc.get_objects())
        with cycle_collection_paused():
            kept = [[n] for n in range(100)]
        assert not any(found is mine for found in gc.get_objects())
        assert gc.isenabled() and len(kept) == 100
    finally:
        gc.unfreeze()
    assert any(found is mine for found in gc.get_objects())


def test_the_first_bytes_are_read_as_text_in_the_encoding_their_mark_names():
    assert decode_head(b"\xef\xbb\xbfCommand Line: diskspd") == "Command Line: diskspd"
    assert decode_head("\ufeffORION VERSION 11.2".encode("utf-16-le")) == "ORION VERSION 11.2"
    # Detection never fails on damage: a byte that is not UTF-8 becomes U+FFFD.
    assert decode_head(b"Jetstress \xff report") == "Jetstress \ufffd report"
    # A source's head_text reads its first bytes alike.
    assert Source(data="\ufeffORION VERSION 11.2".encode("utf-16-le"), name="x").head_text() == "ORION VERSION 11.2"
