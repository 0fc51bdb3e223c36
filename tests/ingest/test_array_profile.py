"""Storage Manager profiles: five real E-Series profiles (firmware 06.10 to 07.84) and an IBM DS5020 one.

``data/array_profile/ibm_ds5020_excerpt.txt`` is the IBM "PROFILE FOR STORAGE SUBSYSTEM" excerpt
printed in the appendix of seed 001 (lines 253-442): every label and value as printed, laid out
again in Storage Manager's padded columns (the paper collapsed the spacing and turned the
section dashes into em dashes). It holds one controller's block, the logical drive table, one
logical drive's details and the mappings; no ARRAYS or DRIVES section.
"""

import pytest

from ingest import ParseError, Source, parse_paths
from ingest.formats import array_profile
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

P0 = sample("profile", "supportbundle_storageArrayProfile.txt")
P1 = sample("profile", "supportbundle_storageArrayProfile1.txt")
P3 = sample("profile", "supportbundle_storageArrayProfile3.txt")
P6 = sample("profile", "supportbundle_storageArrayProfile6.txt")
P9 = sample("profile", "supportbundle_storageArrayProfile9.txt")
IBM = data("array_profile", "ibm_ds5020_excerpt.txt")


class TestArrayProfileContract(FormatContract):
    format_id = "array_profile"
    inputs = [[P0], [P1], [P3], [P6], [P9], [IBM]]


def _parsed(path):
    [result] = parse_paths([path])
    assert result["runs"] == []
    return result


def _not_cut_warnings(result):
    """The warnings but the one an excerpt of a profile gets: it has not every section a profile holds."""
    return [warning for warning in result["warnings"] if "the profile ends without its" not in warning]


def _volume(system, name):
    [volume] = [v for v in system["volumes"] if v["name"] == name]
    return volume


def test_firmware_07_75_padded_columns():
    result = _parsed(P0)
    system = result["system"]
    assert system["name"] == "DAMC001-1-7"  # line 1
    assert system["controllers"] == 2  # line 7
    assert system["firmware"] == "07.75.36.30"  # line 57
    assert system["details"]["nvsram"] == "N26X0-775833-011"  # line 58
    assert system["cache_mb_per_controller"] == 1744  # line 117: Data Cache, Total present
    assert system["details"]["cache_block_kb"] == 16  # line 72
    assert system["details"]["cache_flush_start_pct"] == 80  # line 70
    assert system["details"]["cache_flush_stop_pct"] == 60  # line 71
    assert (system["vendor"], system["model"]) == ("LSI", "2600")  # lines 112 and 104
    assert system["details"]["board_id"] == "2660"  # line 105
    assert system["drive_count"] == 36  # line 32
    assert (len(system["arrays"]), len(system["volumes"])) == (18, 18)  # lines 11 and 17
    assert system["arrays"][0] == {"name": "1", "raid_level": "RAID 1", "drive_count": 2}  # lines 323-353
    volume = _volume(system, "0")  # lines 1038-1072
    assert volume["capacity_gb"] == pytest.approx(1862.514)
    assert (volume["raid_level"], volume["segment_kb"], volume["array"]) == ("RAID 1", 1936, "1")
    assert (volume["read_cache"], volume["write_cache"], volume["write_cache_mirroring"]) == (True, False, False)
    assert (volume["prefetch"], volume["preferred_owner"]) == (False, "A")
    assert _volume(system, "1")["preferred_owner"] == "B"
    assert result["warnings"] == []


def _drive(system, location):
    [drive] = [d for d in system["drives"] if d["location"] == location]
    return drive


def test_drive_types_capacities_and_speeds_come_from_the_drive_details():
    system = _parsed(P0)["system"]
    # DRIVES section: 32 x ST32000445SS and 4 x HUS723020ALS641 (lines 1844-1879), 7,200 RPM (line 1959).
    assert system["details"]["drive_models"] == [
        {
            "product_id": "ST32000445SS",
            "type": "HDD",
            "interface": "SAS",
            "capacity_gb": 1863.016,
            "speed_rpm": 7200,
            "firmware": ["MS02"],
            "count": 32,
        },
        {
            "product_id": "HUS723020ALS641",
            "type": "HDD",
            "interface": "SAS",
            "capacity_gb": 1863.016,
            "speed_rpm": 7200,
            "firmware": ["MS01", "MS04"],  # line 1870 (tray 2, slot 3) and line 1844
            "count": 4,
        },
    ]
    assert system["details"]["drive_interface_types"] == "Serial Attached SCSI (SAS) (36)"  # line 35


def test_every_drive_is_listed_with_its_location_and_details():
    system = _parsed(P0)["system"]
    assert len(system["drives"]) == 36  # 36 "Drive at" blocks from line 1931, as line 1836 reports
    # "Drive at Tray 2, Slot 3" (line 2867): the one HUS723020ALS641 on firmware MS01.
    assert _drive(system, "Tray 2, Slot 3") == {
        "location": "Tray 2, Slot 3",
        "tray": 2,
        "drawer": None,
        "slot": 3,
        "type": "HDD",  # line 2884: Media type: Hard Disk Drive
        "interface": "SAS",  # line 2885: Serial Attached SCSI (SAS)
        "capacity_gb": 1863.016,  # line 2873: Raw capacity
        "speed_rpm": 7200,  # line 2895: 7,200 RPM
        "firmware": "MS01",  # line 2898: Drive Firmware Version
        "product_id": "HUS723020ALS641",  # line 2897
        "manufacturer": "HITACHI",  # line 2900
        "mode": "Assigned",  # line 2872
        "array": "6",  # line 2876: Associated volume group
    }


def test_firmware_07_84_storage_array_section_first():
    system = _parsed(P1)["system"]
    assert system["controllers"] == 2  # line 43: Controllers
    assert system["firmware"] == "07.84.05.30"  # line 92: Current Package Version
    assert system["cache_mb_per_controller"] == 3648  # line 2342
    assert system["details"]["cache_block_kb"] == 16  # line 15: "Cache block size: 16 KB"
    assert system["drive_count"] == 48  # line 46
    assert (len(system["arrays"]), len(system["volumes"])) == (24, 24)  # lines 24 and 1045
    assert system["arrays"][0]["drive_count"] == 2  # lines 252-256: two tray/slot rows
    volume = _volume(system, "0")  # lines 1079-1116
    assert (volume["raid_level"], volume["segment_kb"]) == ("RAID 1", 1936)
    assert (volume["write_cache"], volume["write_cache_mirroring"], volume["prefetch"]) == (True, True, False)
    assert system["details"]["drive_models"][0]["speed_rpm"] == 10000  # line 2785
    assert system["vendor"] == "LSI"  # line 2337: the controller's Vendor
    drive = _drive(system, "Tray 1, Slot 24")  # line 4541
    assert (drive["capacity_gb"], drive["speed_rpm"], drive["firmware"]) == (838.363, 10000, "MS04")  # 4547-4574
    assert drive["array"] == "23"  # line 4550


def test_firmware_07_75_narrow_padding():
    system = _parsed(P3)["system"]
    assert (system["name"], system["controllers"], system["firmware"]) == ("DAMC001-1-18", 2, "07.75.36.30")
    assert system["cache_mb_per_controller"] == 1744  # line 117
    assert (len(system["arrays"]), len(system["volumes"])) == (12, 12)  # lines 11 and 17
    volume = _volume(system, "0")
    assert (volume["raid_level"], volume["segment_kb"]) == ("RAID 1", 1936)  # line 827
    assert volume["capacity_gb"] == pytest.approx(278.896)


def test_firmware_06_23_cut_short_volume_groups_are_completed_from_the_volume_table():
    result = _parsed(P6)
    system = result["system"]
    assert (system["controllers"], system["firmware"]) == (2, "06.23.28.30")  # lines 6 and 24
    assert system["cache_mb_per_controller"] == 1024  # line 80: Total data cache
    assert system["details"]["cache_block_kb"] == 4  # line 37
    assert system["details"]["hot_spare_drives"] == 4  # line 16
    volume = _volume(system, "0")  # lines 812-835
    assert volume["capacity_gb"] == pytest.approx(133.391)  # "133.391 GB (143,227,076,608 Bytes)"
    assert (volume["raid_level"], volume["segment_kb"], volume["prefetch"]) == ("RAID 1", 1936, True)
    assert volume["write_cache"] is None  # this firmware prints no "Write cache:" line
    # The VOLUME GROUPS section stops inside group 22 (line 768); groups 23-30 come from the volume table.
    assert len(system["volumes"]) == 30 and len(system["arrays"]) == 30
    # Their drives name them: group 22 is Tray 1, Slot 12 and Tray 3, Slot 12 (lines 2093-2101 and
    # 2893-2901); the hot spare in use for it (Tray 4, Slot 15, lines 3368-3376) is not one more member.
    assert system["arrays"][21] == {"name": "22", "raid_level": "RAID 1", "drive_count": 2}
    assert system["arrays"][29] == {"name": "30", "raid_level": "RAID 1", "drive_count": 2}
    assert result["warnings"] == [
        "8 array(s) / volume group(s) appear only in the logical drives' table (23, 24, 25, 26, 27, ...): "
        "listed with the RAID level printed there"
    ]
    spare = _drive(system, "Tray 4, Slot 15")
    assert (spare["mode"], spare["array"]) == ("Hot spare in-use", "22")  # lines 3372 and 3376
    # Line 3383 "Drive type: Fibre Channel" (no media type: a drive that spins is a hard disk), line 3385
    # "15015 RPM" as printed, line 3388 "Firmware version: MS58".
    assert (spare["type"], spare["interface"], spare["speed_rpm"], spare["firmware"]) == ("HDD", "FC", 15015, "MS58")
    assert len(system["drives"]) == 64 and system["drive_count"] == 64  # line 14: Number of drives


def test_firmware_06_10_compact_key_value():
    system = _parsed(P9)["system"]
    assert (system["controllers"], system["firmware"]) == (2, "06.10.36.30")  # lines 4 and 17
    assert system["cache_mb_per_controller"] == 1024  # line 54: Cache/processor size (MB): 1024/128
    assert system["details"]["controllers"][0]["processor_cache_mb"] == 128
    assert system["model"] == "5885"  # line 49: Board ID (no Model name line)
    assert (len(system["arrays"]), len(system["volumes"])) == (28, 28)  # lines 5 and 7
    assert system["arrays"][0] == {"name": "1", "raid_level": "RAID 1", "drive_count": 2}  # lines 211-220
    volume = _volume(system, "0")  # lines 529-546
    assert (volume["raid_level"], volume["segment_kb"], volume["capacity_gb"]) == ("RAID 1", 1936, 67.865)
    assert volume["prefetch"] is True  # line 546: Cache read ahead multiplier: 1
    # No controller Vendor line: the first tray's own, line 2659 "Vendor: VN LSILOGIC".
    assert system["vendor"] == "LSI"
    drive = _drive(system, "Tray 4, Slot 14")  # line 2300
    assert (drive["product_id"], drive["firmware"], drive["capacity_gb"]) == ("ST373454FC", "MS09", 68.366)  # 2305-9
    assert (drive["speed_rpm"], drive["interface"], drive["array"]) == (15015, "FC", "28")  # lines 2314-2317
    assert len(system["drives"]) == 56  # line 9: Number of drives


def test_ibm_ds5020_storage_subsystem_wording():
    result = _parsed(IBM)
    system = result["system"]
    assert system["name"] == "ESG_DS5020"
    assert system["details"]["wording"] == "storage subsystem"
    assert (system["controllers"], system["firmware"]) == (2, "07.60.08.00")  # lines 6 and 43
    assert system["details"]["nvsram"] == "N1814D20R1060V08"  # line 44
    assert system["cache_mb_per_controller"] == 1709  # line 82
    assert (system["vendor"], system["model"]) == ("IBM", "4988")  # lines 70 and 78, not the HIC's "VN LSI"
    assert system["details"]["product_id"] == "1814 FAStT"  # line 73, not the USB device's "eUSB"
    assert (system["details"]["cache_flush_start_pct"], system["details"]["cache_flush_stop_pct"]) == (80, 80)
    assert system["drive_count"] == 112  # line 27
    assert len(system["volumes"]) == 24  # lines 124-147
    bk01 = _volume(system, "BK_01")  # lines 151-180
    assert (bk01["raid_level"], bk01["segment_kb"], bk01["capacity_gb"]) == ("RAID 10", 512, 557.791)
    assert (bk01["read_cache"], bk01["write_cache"], bk01["write_cache_mirroring"], bk01["prefetch"]) == (
        True,
        True,
        True,
        True,
    )
    assert bk01["preferred_owner"] == "A"
    assert _volume(system, "JS_01")["capacity_gb"] == pytest.approx(1.089 * 1024)  # line 128: 1.089 TB
    assert _volume(system, "OS_01")["array"] == "0S_1"  # line 140, as printed (a zero)
    assert len(system["arrays"]) == 24 and {a["raid_level"] for a in system["arrays"]} == {"RAID 10", "RAID 5"}
    assert "24 array(s) / volume group(s) appear only" in result["warnings"][0]
    # The excerpt has no ARRAYS or DRIVES section: drive counts stay unknown, and say so.
    assert {a["drive_count"] for a in system["arrays"]} == {None} and system["drives"] == []
    assert "their drive counts are unknown" in result["warnings"][1]


def _write(tmp_path, text):
    path = tmp_path / "profile.txt"
    path.write_text(text)
    return path


def test_ibm_arrays_section_with_enclosure_rows(tmp_path):
    path = _write(
        tmp_path,
        "PROFILE FOR STORAGE SUBSYSTEM: lab (Fri Oct 02 05:53:29 PDT 2009)\n\n"
        "ARRAYS------------------------------\n\n"
        "   Number of arrays: 1\n\n"
        "   Name:  BK_01\n"
        "      RAID level:  10\n"
        "      Associated logical drives and free capacity\n"
        "         BK_01    557.791 GB\n"
        "      Associated drives - present (in piece order)\n"
        "         Enclosure     Slot\n"
        "         85            1\n"
        "         85            2\n"
        "         0             1\n"
        "         0             2\n",
    )
    result = _parsed(path)
    assert result["system"]["arrays"] == [{"name": "BK_01", "raid_level": "RAID 10", "drive_count": 4}]
    assert _not_cut_warnings(result) == []


def test_ibm_arrays_with_drive_lists_in_words(tmp_path):
    """Firmware 6.x 'Array n (RAID x)' titles; drive lists as 'Drive at Enclosure ...', 'Enclosure 1, Slot 3'
    and 'Tray 1, Drawer 2, Slot 3' (drawer trays)."""
    path = _write(
        tmp_path,
        "PROFILE FOR STORAGE SUBSYSTEM: lab (5/10/09 10:27:26 AM)\n"
        "ARRAYS------------------------------\n"
        "   Number of arrays: 3\n"
        "   Array 1 (RAID 5)\n"
        "      Associated logical drives and free capacities:\n"
        "         Data_1 (200 GB)\n"
        "      Associated drives (in piece order):\n"
        "         Drive at Enclosure 1, Slot 1\n"
        "         Drive at Enclosure 1, Slot 2\n"
        "         Drive at Enclosure 2, Slot 1\n"
        "   Array 2 (RAID 10)\n"
        "      Associated drives - present (in piece order)\n"
        "         Enclosure 1, Slot 3\n"
        "         Enclosure 1, Slot 4\n"
        "      Associated logical drives and free capacity\n"
        "         Logs_1    1,000 GB\n"
        "         Logs_2    1,000 GB\n"
        "   Array 3 (RAID 6)\n"
        "      Associated drives - present (in piece order)\n"
        "         Tray 1, Drawer 2, Slot 3\n"
        "         Tray 1, Drawer 2, Slot 4\n"
        "         Tray 1, Drawer 3, Slot 3\n"
        "         Tray 1, Drawer 3, Slot 4\n",
    )
    result = _parsed(path)
    assert result["system"]["arrays"] == [
        {"name": "1", "raid_level": "RAID 5", "drive_count": 3},
        {"name": "2", "raid_level": "RAID 10", "drive_count": 2},
        {"name": "3", "raid_level": "RAID 6", "drive_count": 4},
    ]
    assert _not_cut_warnings(result) == []


def test_disk_pools_are_arrays_with_the_ddp_layout(tmp_path):
    path = _write(
        tmp_path,
        "PROFILE FOR STORAGE ARRAY: lab (Wed May 08 15:30:53 CDT 2013)\n\n"
        "STORAGE ARRAY------------------------------\n"
        "   Disk pools:                               1         \n"
        "   Volume groups:                            0         \n\n"
        "DISK POOLS------------------------------\n\n"
        "   Name:              Disk_Pool_1\n"
        "      RAID level:     6\n"
        "      Associated drives - present (in piece order)\n"
        "      Total drives present: 11\n\n"
        "         Tray     Drawer     Slot\n"
        + "".join(f"         0        1          {slot}\n" for slot in range(1, 12))
        + "\nSTANDARD VOLUMES------------------------------\n\n"
        "   Volume name:           vol_1\n"
        "      Capacity:           2.000 TB\n"
        "      Associated disk pool:  Disk_Pool_1\n"
        "      Segment size:       128 KB\n"
        "      Read cache:         Enabled\n\n"
        "DRIVES------------------------------\n\n"
        "   Drive at Tray 0, Drawer 1, Slot 1\n"
        "      Raw capacity:       372.611 GB\n"
        "      Associated disk pool:  Disk_Pool_1\n"
        "      Media type:         Solid State Disk\n"
        "      Interface type:     Serial Attached SCSI (SAS)\n"
        "      Speed:              Not Available\n"
        "      Product ID:         PX02SMF040\n",
    )
    result = _parsed(path)
    system = result["system"]
    assert system["arrays"] == [{"name": "Disk_Pool_1", "raid_level": "DDP", "drive_count": 11}]
    assert (_volume(system, "vol_1")["array"], _volume(system, "vol_1")["segment_kb"]) == ("Disk_Pool_1", 128)
    drive = system["drives"][0]
    assert (drive["location"], drive["drawer"], drive["type"], drive["speed_rpm"]) == (
        "Tray 0, Drawer 1, Slot 1",
        1,
        "SSD",
        None,
    )
    assert _not_cut_warnings(result) == []


def _ibm_with(tmp_path, old, new):
    return _write(tmp_path, IBM.read_text().replace(old, new, 1))


def test_unreadable_capacity_names_line_and_field(tmp_path):
    path = _ibm_with(tmp_path, "Capacity:                             557.791 GB", "Capacity:  lots")
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert (caught.value.line, caught.value.field) == (155, "Capacity")
    assert "expected a capacity such as '557.791 GB', found 'lots'" in caught.value.message


def test_unreadable_segment_size_names_line_and_field(tmp_path):
    path = _ibm_with(tmp_path, "Segment size:                         512 KB", "Segment size:  large")
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert (caught.value.line, caught.value.field) == (170, "Segment size")


def test_header_without_sections_is_an_error(tmp_path):
    path = _write(tmp_path, "PROFILE FOR STORAGE ARRAY: lab (5/10/13 10:27:26 AM)\n\nnothing else\n")
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert caught.value.line == 1 and "no SUMMARY, CONTROLLERS" in caught.value.message


def test_text_that_is_not_a_profile_is_refused_by_the_parser(tmp_path):
    path = _write(tmp_path, "\nSTORAGE REPORT\n")
    with pytest.raises(ParseError) as caught:
        array_profile.parse(Source(path))
    assert caught.value.line == 2 and "PROFILE FOR STORAGE SUBSYSTEM" in caught.value.message


def test_sniff_takes_both_wordings_only():
    assert array_profile.sniff(P0.read_bytes()[:4096], P0.name)
    assert array_profile.sniff(IBM.read_bytes()[:4096], IBM.name)
    assert not array_profile.sniff(b"FFSB version 6.0-RC2 started\n", "log.txt")
