"""A workload is what it does: read %, random %, transfer sizes; names are labels."""

from portal.analysis.workloads import describe, describe_family, signature


def test_iometer_oltp_8k_and_a_fio_randrw_67_8k_job_are_one_workload():
    # 000_f52f16ce4c762121.txt, Measurement Tool and Workloads: OLTP is 100 % random, 67 % reads, here at 8K.
    iometer = signature(read_pct=67, random_pct=100, transfer_sizes=[{"bytes": 8192, "pct": 100}])
    # fio: rw=randrw, rwmixread=67, bs=8k.
    fio = signature(read_pct=67.0, random_pct=100.0, transfer_sizes=[{"bytes": 8192, "pct": 100.0}])
    assert iometer == fio and iometer.identity == fio.identity
    assert describe(iometer) == "8 KiB random, 67 % read"


def test_the_same_means_the_same_whole_percent_and_the_same_sizes():
    base = signature(read_pct=67, random_pct=100, transfer_sizes=[{"bytes": 8192, "pct": 100}])
    assert signature(read_pct=66.6, random_pct=100, transfer_sizes=[{"bytes": 8192, "pct": 100}]) == base
    assert signature(read_pct=66.4, random_pct=100, transfer_sizes=[{"bytes": 8192, "pct": 100}]) != base
    assert signature(read_pct=67, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}]) != base
    aligned = signature(read_pct=67, random_pct=100, transfer_sizes=[{"bytes": 8192, "pct": 100}], alignment_bytes=512)
    assert aligned != base and describe(aligned) == "8 KiB random, 67 % read, aligned to 512 B"


def test_unknown_parts_leave_the_workload_unknown():
    assert signature(read_pct=None, random_pct=100, transfer_sizes=[{"bytes": 8192, "pct": 100}]) is None
    assert signature(read_pct=67, random_pct=100, transfer_sizes=[]) is None
    # A figure over all sizes of a family ("maximum transfer rate for streaming writes", seed 000 line 213).
    best = signature(read_pct=0, random_pct=0, transfer_sizes=[], sizes_required=False)
    assert best.family == (0, 0) and describe_family(best.family) == "Sequential write, best over transfer sizes"


def test_a_mix_of_sizes_is_described_with_its_shares():
    mix = signature(
        read_pct=80, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 60}, {"bytes": 65536, "pct": 40}]
    )
    assert describe(mix) == "4 KiB 60 % / 64 KiB 40 %, random, 80 % read"


def test_single_direction_workloads_read_as_engineers_name_them():
    # 000_f52f16ce4c762121.txt, Measurement Tool and Workloads: Random Reads and Streaming Writes.
    reads = signature(read_pct=100, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}])
    writes = signature(read_pct=0, random_pct=0, transfer_sizes=[{"bytes": 65536, "pct": 100}])
    half = signature(read_pct=50, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}])
    assert (describe(reads), describe(writes), describe(half)) == (
        "4 KiB random read",
        "64 KiB sequential write",
        "4 KiB random, 50 % read",
    )


def test_an_alignment_equal_to_the_block_size_is_the_default_and_no_other_workload():
    # DiskSpd goodsql2016 text lines 24-25: "block size: 4096", "using random I/O (alignment: 4096)";
    # an fio randrw bs=4k job states none: both align random offsets to 4 KiB.
    stated = signature(read_pct=50, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}], alignment_bytes=4096)
    unstated = signature(read_pct=50, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}])
    assert stated == unstated and stated.identity == unstated.identity
    assert describe(stated) == "4 KiB random, 50 % read"
    coarser = signature(read_pct=50, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}], alignment_bytes=8192)
    assert coarser != unstated and describe(coarser).endswith("aligned to 8 KiB")
