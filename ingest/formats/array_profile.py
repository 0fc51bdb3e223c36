"""Storage Manager profiles: IBM DS3000/DS4000/DS5000 and LSI/Engenio/NetApp E-Series family.

The text starts ``PROFILE FOR STORAGE SUBSYSTEM: name (date)`` (IBM wording: arrays, logical
drives, enclosures) or ``PROFILE FOR STORAGE ARRAY: name (date)`` (volume groups, volumes,
trays). Sections are headed ``NAME------``, come in different orders (firmware 07.84 starts with
STORAGE ARRAY instead of SUMMARY), may be missing or indented, and their lines are either padded
columns or compact ``key: value``. Lines are read by their labels, never by position; a label's
meaning can depend on the sub-heading above it (``Current configuration`` vs ``Pending
configuration``, ``Data Cache`` vs ``Processor cache``).

The result holds a ``system`` and no runs. Capacities are in GB as Storage Manager prints them
(binary: 1 GB = 2^30 bytes, TB converted x 1024); segment sizes in KB; the preferred owner is the
controller slot letter. Arrays that only the logical drives name (the array / volume group section
is missing or cut short) are listed from the logical drives' table, with a warning; their drive
counts then come from the DRIVES section's details, where each drive names its array.

Drive lists are read in every wording Storage Manager used: ``Tray  Slot`` columns, ``Drive at
Tray 1, Slot 3`` and ``Enclosure 1, Slot 3`` (with ``Drawer n,`` on drawer trays). Dynamic disk
pools are arrays whose RAID level is ``DDP``.
"""

import re
from collections import Counter
from typing import Any

from ..errors import ParseError
from ..numbers import Printed, as_printed, read_number
from ..result import Array, Drive, ResultSet, System, Volume
from ..source import Source
from ..units import GIB, size_in

FORMAT = "array_profile"
TOOL = "Storage Manager profile"
READS = (
    "IBM DS3000/4000/5000 and LSI/NetApp E-Series storage profiles (PROFILE FOR STORAGE SUBSYSTEM / ARRAY): "
    "controllers, firmware, cache, vendor, every drive (location, type, capacity, speed, firmware), arrays and disk "
    "pools with their drive counts, logical drives with segment size and cache settings into the system; no runs"
)

_SNIFF = re.compile(rb"^\s*PROFILE FOR STORAGE (ARRAY|SUBSYSTEM)\b")
_HEADER = re.compile(r"^PROFILE FOR STORAGE (ARRAY|SUBSYSTEM):\s*(.*?)\s*(?:\((.*)\))?\s*$")
_HEADING = re.compile(r"^(\S.*?)\s*[-\u2013\u2014]{5,}\s*$")
_KEY_VALUE = re.compile(r"^([^:]+?):(?:\s+(.*?))?\s*$")
_CONTROLLER = re.compile(r"^Controller in (.*\bSlot \w+)$", re.IGNORECASE)
_LOCATION = r"(?:Tray|Enclosure) (\d+),\s*(?:Drawer (\d+),\s*)?Slot (\d+)"
_DRIVE = re.compile(rf"^Drive at ({_LOCATION})$", re.IGNORECASE)
# A member of an array's drive list: "0   1", "0, 1", "0  2  1" (tray, drawer, slot) or a location in words.
_DRIVE_REFERENCE = re.compile(rf"^(\d+\s*,?\s+(\d+\s*,?\s+)?\d+\b|(Drive at )?{_LOCATION})", re.IGNORECASE)
_POOL_RAID_LEVELS = ("ddp", "dynamic disk pool", "disk pool")
_ARRAY_TITLE = re.compile(r"^(?:VOLUME GROUP|ARRAY)\s+(\S.*?)\s+\(RAID (\w+)\)$", re.IGNORECASE)
_SIZE = re.compile(r"^([\d,]+(?:\.\d+)?)\s*(KB|MB|GB|TB)\b", re.IGNORECASE)
_SLOT = re.compile(r"\bslot\s+(\w+)", re.IGNORECASE)
_COLUMN = re.compile(r"\S+(?: \S+)*")
_TABLE_CELL_GAP = re.compile(r"\S\s{2,}\S")

_SECTIONS = {
    "SUMMARY": "summary",
    "STORAGE ARRAY": "summary",
    "STORAGE SUBSYSTEM": "summary",
    "CONTROLLERS": "controllers",
    "ARRAYS": "arrays",
    "VOLUME GROUPS": "arrays",
    "DISK POOLS": "arrays",
    "STANDARD LOGICAL DRIVES": "volumes",
    "STANDARD VOLUMES": "volumes",
    "DRIVES": "drives",
    "TRAYS": "trays",
}
# Sections Storage Manager writes in every profile, in one order or another (headings starting so, in
# either wording): a profile without one of them ends before it.
_ALWAYS_WRITTEN = (("DRIVES",), ("TRAYS", "ENCLOSURES"), ("MAPPINGS",))
# Summary labels (lower case) and the detail they fill; the first value found wins.
_SUMMARY_DETAILS = {
    "nvsram version": "nvsram",
    "current nvsram version": "nvsram",
    "cache block size (in kb)": "cache_block_kb",
    "cache block size": "cache_block_kb",
    "start cache flushing at (in percentage)": "cache_flush_start_pct",
    "start cache flushing at": "cache_flush_start_pct",
    "stop cache flushing at (in percentage)": "cache_flush_stop_pct",
    "stop cache flushing at": "cache_flush_stop_pct",
    "current media type(s)": "drive_media_types",
    "current drive media types": "drive_media_types",
    "current interface type(s)": "drive_interface_types",
    "current drive interface type(s)": "drive_interface_types",
    "supported drive types": "drive_interface_types",
    "total hot spare drives": "hot_spare_drives",
    "feature pack": "feature_pack",
    "amw version": "storage_manager_version",
    "management software version": "storage_manager_version",
    "number of volume groups": "arrays_reported",
    "number of arrays": "arrays_reported",
    "volume groups": "arrays_reported",
    "disk pools": "disk_pools_reported",
    "number of disk pools": "disk_pools_reported",
    "number of standard volumes": "volumes_reported",
    "number of standard logical drives": "volumes_reported",
}
_NUMERIC_DETAILS = {"cache_block_kb", "cache_flush_start_pct", "cache_flush_stop_pct", "hot_spare_drives"}
_COUNT_DETAILS = {"arrays_reported", "disk_pools_reported", "volumes_reported"}
_CONTROLLER_FIELDS = {
    "model name": "model_name",
    "board id": "board_id",
    "submodel id": "submodel_id",
    "product id": "product_id",
    "vendor": "vendor",
}
# Sub-devices of a controller whose Board ID / Vendor / Product ID are not the controller's.
_CONTROLLER_SUBDEVICES = ("host interface board", "cache backup device", "data cache module")
_VOLUME_ARRAY_KEYS = ("associated volume group", "associated array", "associated disk pool")
# Drive details: label (lower case) -> Drive field, for the text fields kept as printed.
_DRIVE_TEXT_FIELDS = {
    "product id": "product_id",
    "drive firmware version": "firmware",
    "firmware version": "firmware",
    "manufacturer": "manufacturer",
    "vendor": "manufacturer",
    "mode": "mode",
    **dict.fromkeys(_VOLUME_ARRAY_KEYS, "array"),
}
_INTERFACES = {"fibre channel": "FC", "fibre": "FC", "serial ata": "SATA", "sata": "SATA", "sas": "SAS", "nvme": "NVMe"}
# Storage Manager prints the same company several ways ("VN LSILOGIC" on tray parts).
_VENDOR_NAMES = {"LSILOGIC": "LSI", "LSI LOGIC": "LSI", "NETAPP": "NetApp", "DELL": "Dell", "ENGENIO": "Engenio"}
_UNKNOWN = ("not available", "unknown", "none", "")
# Figures are printed before their unit ("15,015 RPM", "4 KB"), with thousands separators.
_PRINTED = Printed(leading=True, refusal="expected a number, found {text!r}", one_refusal=True)
_PRINTED_OR_UNKNOWN = Printed(
    missing=frozenset(_UNKNOWN), leading=True, refusal="expected a number, found {text!r}", one_refusal=True
)


def sniff(head: bytes, name: str) -> bool:
    return bool(_SNIFF.search(head))


def parse(source: Source) -> ResultSet:
    reader = _ProfileReader(source.name)
    with source.open_text(errors="replace") as stream:
        for number, raw in enumerate(stream, 1):
            reader.feed(raw.rstrip("\n"), number)
    system, warnings = reader.finish()
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": system.firmware},
        source=source.describe(),
        system=system,
        warnings=warnings,
    )


def _size_gb(text: str, number: int, field: str) -> float | None:
    """A capacity such as ``1,862.514 GB`` or ``1.089 TB`` in (binary) GB."""
    match = _SIZE.match(text)
    if not match:
        raise ParseError(f"expected a capacity such as '557.791 GB', found {text!r}", line=number, field=field)
    size = _number(match.group(1), number, field)  # digits, matched above
    return None if size is None else size_in(size, match.group(2), per=GIB)


def _number(text: str, number: int, field: str) -> int | float | None:
    return as_printed(read_number(text, file=None, line=number, field=field, printed=_PRINTED))


def _count(text: str, number: int, field: str) -> int:
    """A count the line states (drives, controllers, arrays reported)."""
    value = _number(text, number, field)
    if value is None:  # read_number reads a number from any text here, or refuses it
        raise ParseError(f"expected a number, found {text!r}", line=number, field=field)
    return int(value)


def _enabled(text: str) -> bool | None:
    return {"enabled": True, "disabled": False}.get(text.strip().lower())


def _raid_level(text: str) -> str:
    text = text.strip()
    if text.lower() in _POOL_RAID_LEVELS:
        return "DDP"
    return text if text.upper().startswith("RAID") or not text else f"RAID {text}"


def _optional_number(text: str, number: int, field: str) -> int | float | None:
    """A figure that SSDs and absent parts print as 'Not Available' (a drive's speed)."""
    return as_printed(read_number(text, file=None, line=number, field=field, printed=_PRINTED_OR_UNKNOWN))


def _vendor(text: str) -> str | None:
    """A company as printed, without the ``VN`` (vendor name) prefix tray parts carry."""
    name = re.sub(r"^VN\s+", "", text.strip())
    if name.lower() in _UNKNOWN:
        return None
    return _VENDOR_NAMES.get(name.upper(), name)


def _interface(text: str) -> str | None:
    """``SAS``, ``FC``, ``SATA`` from 'Serial Attached SCSI (SAS)', 'Fibre Channel', 'Serial ATA (SATA)'."""
    abbreviation = re.search(r"\(([A-Za-z]+)\)", text)
    if abbreviation:
        return abbreviation.group(1)
    return _INTERFACES.get(text.strip().lower(), text.strip() or None)


def _media(text: str) -> str | None:
    lowered = text.lower()
    if "solid state" in lowered or lowered.strip() == "ssd":
        return "SSD"
    return "HDD" if "hard disk" in lowered else None


def _slot_letter(text: str) -> str:
    match = _SLOT.search(text)
    return match.group(1) if match else text


class _ProfileReader:
    """Reads a profile line by line; ``finish`` returns the system and the warnings."""

    def __init__(self, name: str = "") -> None:
        self.name = name  # the file's, for warnings that say where it was cut
        self.last_line = 0
        self.header_seen = False
        self.system = System()
        self.details: dict[str, Any] = {}
        self.section: str | None = None
        self.heading: str | None = None
        self.sections_seen: list[str] = []
        self.headings_seen: list[str] = []
        self.context = ""
        self.controllers: list[dict[str, Any]] = []  # what each controller's block prints
        self.controllers_reported: int | None = None
        self.arrays: list[Array] = []
        self.in_drive_list = False
        self.volumes: dict[str, Volume] = {}
        self.volume: Volume | None = None
        self.columns: list[tuple[int, str]] | None = None  # (start, title) of the volume table's columns
        self.drives: list[Drive] = []
        self.drive_count: int | None = None
        self.tray_vendor: str | None = None

    def feed(self, line: str, number: int) -> None:
        self.last_line = number
        stripped = line.strip()
        if not self.header_seen:
            self._read_header(stripped, number)
            return
        if not stripped:
            self.columns = None
            return
        heading = _HEADING.match(stripped)
        if heading:
            self._enter_section(heading.group(1).strip().upper())
            return
        match = _KEY_VALUE.match(stripped)
        key, value = (match.group(1).strip(), match.group(2) or "") if match else (None, "")
        label = (key if key is not None else stripped).lower()
        handler = getattr(self, f"_read_{self.section}", None) if self.section else None
        if handler:
            handler(stripped, label, value, number)
        if not value:
            self.context = label

    def _read_header(self, stripped: str, number: int) -> None:
        if not stripped:
            return
        match = _HEADER.match(stripped)
        if not match:
            raise ParseError(
                "expected the first line 'PROFILE FOR STORAGE SUBSYSTEM: name (date)' or 'PROFILE FOR "
                f"STORAGE ARRAY: name (date)', found {stripped[:60]!r}",
                line=number,
            )
        self.header_seen = True
        self.system.name = match.group(2) or None
        self.details["wording"] = "storage subsystem" if match.group(1) == "SUBSYSTEM" else "storage array"
        if match.group(3):
            self.details["profile_date"] = match.group(3)

    def _enter_section(self, name: str) -> None:
        section = _SECTIONS.get(name, "other")
        # Later SUMMARY headings belong to sub-sections (drive channels), not to the array summary.
        if section == "summary" and self.sections_seen:
            section = "other"
        self.section = section
        self.heading = name
        self.headings_seen.append(name)
        self.sections_seen.append(section)
        self.context = ""
        self.columns = None
        self.in_drive_list = False

    def _read_summary(self, stripped: str, label: str, value: str, number: int) -> None:
        if not value:
            return
        # Firmware and NVSRAM lines repeat under "Pending configuration" (staged, usually "None").
        pending = self.context.startswith("pending") and label.endswith("version")
        if label in ("number of controllers", "controllers") and self.controllers_reported is None:
            self.controllers_reported = _count(value, number, label)
        elif label in ("number of drives", "drives") and self.drive_count is None:
            self.drive_count = _count(value, number, label)
        elif label in ("firmware version", "current package version") and not pending:
            self.system.firmware = self.system.firmware or value
        elif label in _SUMMARY_DETAILS and not pending:
            self._set_detail(_SUMMARY_DETAILS[label], value, number, label)

    def _set_detail(self, name: str, value: str, number: int, label: str) -> None:
        if name in self.details:
            return
        if name in _NUMERIC_DETAILS:
            self.details[name] = _number(value, number, label)
        elif name in _COUNT_DETAILS:
            self.details[name] = _count(value, number, label)
        else:
            self.details[name] = value

    def _read_controllers(self, stripped: str, label: str, value: str, number: int) -> None:
        title = _CONTROLLER.match(stripped)
        if title:
            self.controllers.append({"location": title.group(1)})
            return
        if label == "number of controllers" and value and self.controllers_reported is None:
            self.controllers_reported = _count(value, number, label)
        if not self.controllers or not value:
            return
        controller = self.controllers[-1]
        if label in ("firmware version", "nvsram version") and self.context == "current configuration":
            controller.setdefault(label.split()[0], value)
        elif label in _CONTROLLER_FIELDS and not self.context.startswith(_CONTROLLER_SUBDEVICES):
            controller.setdefault(_CONTROLLER_FIELDS[label], value)
        else:
            self._read_controller_cache(controller, label, value, number)

    def _read_controller_cache(self, controller: dict[str, Any], label: str, value: str, number: int) -> None:
        if label == "total present" and self.context == "data cache":
            controller["cache_mb"] = _number(value, number, "Data Cache Total present")
        elif label == "total present" and self.context == "processor cache":
            controller["processor_cache_mb"] = _number(value, number, "Processor cache Total present")
        elif label == "total data cache":
            controller["cache_mb"] = _number(value, number, "Total data cache")
        elif label == "processor cache":
            controller["processor_cache_mb"] = _number(value, number, "Processor cache")
        elif label == "cache/processor size (mb)":
            cache, _, processor = value.partition("/")
            controller["cache_mb"] = _number(cache, number, "Cache/processor size (MB)")
            controller["processor_cache_mb"] = _number(processor, number, "Cache/processor size (MB)")

    def _read_arrays(self, stripped: str, label: str, value: str, number: int) -> None:
        title = _ARRAY_TITLE.match(stripped)
        if title:
            self._new_array(title.group(1), _raid_level(title.group(2)))
        elif label == "name" and value:
            self._new_array(value, None)
        elif not self.arrays:
            return
        elif label.startswith("associated drives"):
            self.in_drive_list = True
        elif label.startswith("associated "):
            # The logical drives / volumes list, which may follow the drive list.
            self.in_drive_list = False
        elif self.in_drive_list and _DRIVE_REFERENCE.match(stripped):
            self.arrays[-1].drive_count = (self.arrays[-1].drive_count or 0) + 1
        elif label == "raid level" and value and self.arrays[-1].raid_level != "DDP":
            self.arrays[-1].raid_level = _raid_level(value)

    def _new_array(self, name: str, raid_level: str | None) -> None:
        # A disk pool spreads its volumes over all its drives: its layout is the pool, whatever RAID it uses inside.
        if self.heading == "DISK POOLS":
            raid_level = "DDP"
        self.arrays.append(Array(name=name, raid_level=raid_level))
        self.in_drive_list = False

    def _read_volumes(self, stripped: str, label: str, value: str, number: int) -> None:
        if self.columns is not None and _TABLE_CELL_GAP.search(stripped):
            self._read_volume_row(self.columns, stripped, number)
            return
        self.columns = None
        if label.startswith("name ") and "status" in label and ":" not in stripped:
            self.columns = [(m.start(), m.group(0).lower()) for m in _COLUMN.finditer(stripped)]
        elif label in ("volume name", "logical drive name") and value:
            self.volume = self._volume(value)
        elif self.volume is not None and value:
            self._read_volume_detail(self.volume, label, value, number)

    def _volume(self, name: str) -> Volume:
        if name not in self.volumes:
            self.volumes[name] = Volume(name=name)
        return self.volumes[name]

    def _read_volume_row(self, columns: list[tuple[int, str]], stripped: str, number: int) -> None:
        """A row of the padded volume table; its columns start where the header's titles start."""
        starts: list[int | None] = [start for start, _ in columns] + [None]
        cells = {title: stripped[starts[i] : starts[i + 1]].strip() for i, (_, title) in enumerate(columns)}
        if not cells.get("name"):
            return
        volume = self._volume(cells["name"])
        if cells.get("raid level"):
            volume.raid_level = volume.raid_level or _raid_level(cells["raid level"])
        array = cells.get("volume group") or cells.get("array") or cells.get("source") or ""
        array = re.sub(r"^(Volume Group|Array)\s+", "", array)
        volume.array = volume.array or array or None
        if cells.get("capacity"):
            volume.capacity_gb = volume.capacity_gb or _size_gb(cells["capacity"], number, "CAPACITY")

    def _read_volume_detail(self, volume: Volume, label: str, value: str, number: int) -> None:
        if label == "capacity":
            volume.capacity_gb = _size_gb(value, number, "Capacity")
        elif label in _VOLUME_ARRAY_KEYS:
            volume.array = value
        elif label == "raid level":
            volume.raid_level = _raid_level(value)
        elif label == "segment size":
            volume.segment_kb = _number(value, number, "Segment size")
        elif label in ("read cache", "write cache", "write cache with mirroring"):
            setattr(volume, label.replace(" with ", "_").replace(" ", "_"), _enabled(value))
        elif label == "dynamic cache read prefetch":
            volume.prefetch = _enabled(value)
        elif label == "cache read ahead multiplier":
            volume.prefetch = (_number(value, number, "Cache read ahead multiplier") or 0) > 0
        elif label == "preferred owner":
            volume.preferred_owner = _slot_letter(value)

    def _read_drives(self, stripped: str, label: str, value: str, number: int) -> None:
        title = _DRIVE.match(stripped)
        if title:
            location, tray, drawer, slot = title.groups()
            drawer_number = int(drawer) if drawer else None
            self.drives.append(Drive(location=location, tray=int(tray), drawer=drawer_number, slot=int(slot)))
        elif label == "number of drives" and value and self.drive_count is None:
            self.drive_count = _count(value, number, label)
        elif self.drives and value:
            self._read_drive_detail(self.drives[-1], label, value, number)

    def _read_drive_detail(self, drive: Drive, label: str, value: str, number: int) -> None:
        if label == "raw capacity":
            drive.capacity_gb = _size_gb(value, number, "Raw capacity")
        elif label == "speed":
            drive.speed_rpm = _optional_number(value, number, "Speed")
        elif label in _DRIVE_TEXT_FIELDS:
            setattr(drive, _DRIVE_TEXT_FIELDS[label], value if label != "vendor" else _vendor(value))
        elif label in ("media type", "drive media type"):
            drive.type = _media(value)
        elif label in ("interface type", "drive interface type"):
            drive.interface = _interface(value)
        elif label == "drive type":
            # Older firmware names only the interface here; a solid-state drive says so.
            drive.type = drive.type or _media(value)
            drive.interface = drive.interface or (None if _media(value) else _interface(value))

    def _read_trays(self, stripped: str, label: str, value: str, number: int) -> None:
        """The first tray's own vendor (not a part's): the array's maker when no controller names one."""
        if label == "vendor" and self.tray_vendor is None and self.context.endswith("overall component information"):
            self.tray_vendor = _vendor(value)

    def finish(self) -> tuple[System, list[str]]:
        if not self.header_seen:
            raise ParseError("empty file: expected a 'PROFILE FOR STORAGE ...' line", line=1)
        known = [s for s in self.sections_seen if s != "other"]
        if not known:
            raise ParseError(
                "no SUMMARY, CONTROLLERS, ARRAYS / VOLUME GROUPS or LOGICAL DRIVES / VOLUMES section found; "
                "export the full profile (Storage Manager: Save Profile, all sections)",
                line=1,
            )
        warnings: list[str] = []
        self._finish_controllers()
        self._finish_arrays(warnings)
        self._finish_drives()
        self._count_array_drives(warnings)
        self._check_counts(warnings)
        self._check_sections(warnings)
        self.system.details = self.details
        return self.system, warnings

    def _finish_controllers(self) -> None:
        system = self.system
        system.controllers = self.controllers_reported or len(self.controllers) or None
        system.vendor = self.tray_vendor
        if not self.controllers:
            return
        first = self.controllers[0]
        system.vendor = _vendor(first.get("vendor") or "") or self.tray_vendor
        system.model = first.get("model_name") or first.get("board_id")
        system.firmware = system.firmware or first.get("firmware")
        system.cache_mb_per_controller = first.get("cache_mb")
        self.details.setdefault("nvsram", first.get("nvsram"))
        for name in ("board_id", "product_id", "submodel_id"):
            self.details[name] = first.get(name)
        self.details["controllers"] = self.controllers

    def _finish_arrays(self, warnings: list[str]) -> None:
        """Arrays named only by a logical drive (section missing or cut short) are added from the drive."""
        self.system.volumes = list(self.volumes.values())
        names = {array.name for array in self.arrays}
        inferred = []
        for volume in self.system.volumes:
            if volume.array and volume.array not in names:
                names.add(volume.array)
                inferred.append(Array(name=volume.array, raid_level=volume.raid_level))
        self.system.arrays = self.arrays + inferred
        if inferred:
            warnings.append(
                f"{len(inferred)} array(s) / volume group(s) appear only in the logical drives' table "
                f"({_names(inferred)}): listed with the RAID level printed there"
            )

    def _finish_drives(self) -> None:
        self.system.drive_count = self.drive_count or len(self.drives) or None
        for drive in self.drives:
            # Profiles before SSD support name only the interface; a drive that spins is a hard disk.
            if drive.type is None and drive.speed_rpm:
                drive.type = "HDD"
        self.system.drives = self.drives
        if self.drives:
            self.details["drive_models"] = _drive_models(self.drives)

    def _count_array_drives(self, warnings: list[str]) -> None:
        """Arrays whose drive list is missing are counted from the drives that name them as their array.

        Only assigned drives count: a hot spare in use stands in for a failed member and is not one more.
        """
        members = Counter(
            drive.array for drive in self.drives if drive.array and (drive.mode or "Assigned").lower() == "assigned"
        )
        for array in self.system.arrays:
            if array.drive_count is None and members[array.name]:
                array.drive_count = members[array.name]
        uncounted = [array for array in self.system.arrays if array.drive_count is None]
        if uncounted:
            warnings.append(
                f"{len(uncounted)} array(s) / volume group(s) have no drive list and no drive names them "
                f"({_names(uncounted)}): their drive counts are unknown"
            )

    def _check_counts(self, warnings: list[str]) -> None:
        pools = self.details.get("disk_pools_reported")
        arrays = self.details.get("arrays_reported")
        # Disk pools are listed among the arrays; the summary counts them apart.
        arrays_reported = None if arrays is None else arrays + (pools or 0)
        for reported, found, what in (
            (arrays_reported, len(self.system.arrays), "arrays / volume groups / disk pools"),
            (self.details.get("volumes_reported"), len(self.system.volumes), "standard logical drives / volumes"),
        ):
            if reported is not None and reported < found:
                warnings.append(f"the profile reports {reported} {what} but {found} were read")
            elif reported is not None and reported > found:
                warnings.append(
                    f"{self.name}:{self.last_line}: the profile reports {reported} {what} but {found} were read: "
                    f"it looks cut short, and the {reported - found} not read are missing"
                )
        if self.drive_count is None or len(self.drives) >= self.drive_count:
            return
        if "drives" not in self.sections_seen:
            warnings.append(
                f"{self.name}:{self.last_line}: the profile reports {self.drive_count} drives but ends before its "
                "DRIVES section (Storage Manager writes one in every profile): it looks cut short, and no drive is "
                "listed (models, capacities, speeds)"
            )
        else:
            warnings.append(
                f"{self.name}:{self.last_line}: the profile reports {self.drive_count} drives but its drive list "
                f"holds {len(self.drives)}: it is cut short, and the {self.drive_count - len(self.drives)} drives "
                "not listed are missing from the drive details (models, capacities, speeds)"
            )

    def _check_sections(self, warnings: list[str]) -> None:
        missing = [
            " / ".join(names)
            for names in _ALWAYS_WRITTEN
            if not any(heading.startswith(names) for heading in self.headings_seen)
        ]
        if missing:
            warnings.append(
                f"{self.name}:{self.last_line}: the profile ends without its {', '.join(missing)} "
                f"section{'s' if len(missing) > 1 else ''} (Storage Manager writes them in every profile): it looks "
                "cut short, and what they hold is missing (drive details, the trays' vendor)"
            )


def _names(arrays: list[Array]) -> str:
    return ", ".join(array.name for array in arrays[:5]) + (", ..." if len(arrays) > 5 else "")


def _drive_models(drives: list[Drive]) -> list[dict[str, Any]]:
    """Drives grouped by model, type, capacity and speed, most common first, with their firmware versions."""
    groups: dict[tuple[str | None, str | None, str | None, float | None, float | None], list[Drive]] = {}
    for drive in drives:
        key = (drive.product_id, drive.type, drive.interface, drive.capacity_gb, drive.speed_rpm)
        groups.setdefault(key, []).append(drive)
    return [
        {
            "product_id": product,
            "type": kind,
            "interface": interface,
            "capacity_gb": capacity,
            "speed_rpm": rpm,
            "firmware": sorted({d.firmware for d in members if d.firmware}),
            "count": len(members),
        }
        for (product, kind, interface, capacity, rpm), members in sorted(groups.items(), key=lambda g: -len(g[1]))
    ]
