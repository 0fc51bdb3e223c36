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
is missing or cut short) are listed from the drives' table without drive counts, with a warning.
"""

import re
from collections import Counter

from ..errors import ParseError
from ..result import Array, ResultSet, System, Volume

FORMAT = "array_profile"
TOOL = "Storage Manager profile"
READS = (
    "IBM DS3000/4000/5000 and LSI/NetApp E-Series storage profiles (PROFILE FOR STORAGE SUBSYSTEM / ARRAY): "
    "controllers, firmware, cache, drives, arrays and logical drives into the system; no runs"
)

_SNIFF = re.compile(rb"^\s*PROFILE FOR STORAGE (ARRAY|SUBSYSTEM)\b")
_HEADER = re.compile(r"^PROFILE FOR STORAGE (ARRAY|SUBSYSTEM):\s*(.*?)\s*(?:\((.*)\))?\s*$")
_HEADING = re.compile(r"^(\S.*?)\s*[-\u2013\u2014]{5,}\s*$")
_KEY_VALUE = re.compile(r"^([^:]+?):(?:\s+(.*?))?\s*$")
_CONTROLLER = re.compile(r"^Controller in (.*\bSlot \w+)$", re.IGNORECASE)
_DRIVE = re.compile(r"^Drive at ((?:Tray|Enclosure) \d+, (?:Drawer \d+, )?Slot \d+)$", re.IGNORECASE)
_DRIVE_REFERENCE = re.compile(r"^(\d+\s*,?\s+\d+\b|Drive at (Tray|Enclosure) )", re.IGNORECASE)
_ARRAY_TITLE = re.compile(r"^(?:VOLUME GROUP|ARRAY)\s+(\S.*?)\s+\(RAID (\w+)\)$", re.IGNORECASE)
_SIZE = re.compile(r"^([\d,]+(?:\.\d+)?)\s*(KB|MB|GB|TB)\b", re.IGNORECASE)
_NUMBER = re.compile(r"^([\d,]+(?:\.\d+)?)")
_SLOT = re.compile(r"\bslot\s+(\w+)", re.IGNORECASE)
_COLUMN = re.compile(r"\S+(?: \S+)*")
_TABLE_CELL_GAP = re.compile(r"\S\s{2,}\S")
_GB_PER_UNIT = {"KB": 1 / 1024**2, "MB": 1 / 1024, "GB": 1.0, "TB": 1024.0}

_SECTIONS = {
    "SUMMARY": "summary",
    "STORAGE ARRAY": "summary",
    "STORAGE SUBSYSTEM": "summary",
    "CONTROLLERS": "controllers",
    "ARRAYS": "arrays",
    "VOLUME GROUPS": "arrays",
    "STANDARD LOGICAL DRIVES": "volumes",
    "STANDARD VOLUMES": "volumes",
    "DRIVES": "drives",
}
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
    "number of standard volumes": "volumes_reported",
    "number of standard logical drives": "volumes_reported",
}
_NUMERIC_DETAILS = {"cache_block_kb", "cache_flush_start_pct", "cache_flush_stop_pct", "hot_spare_drives"}
_COUNT_DETAILS = {"arrays_reported", "volumes_reported"}
_CONTROLLER_FIELDS = {
    "model name": "model_name",
    "board id": "board_id",
    "submodel id": "submodel_id",
    "product id": "product_id",
    "vendor": "vendor",
}
# Sub-devices of a controller whose Board ID / Vendor / Product ID are not the controller's.
_CONTROLLER_SUBDEVICES = ("host interface board", "cache backup device", "data cache module")
_VOLUME_ARRAY_KEYS = ("associated volume group", "associated array")


def sniff(head, name):
    return bool(_SNIFF.search(head))


def parse(source):
    reader = _ProfileReader()
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


def _size_gb(text, number, field):
    """A capacity such as ``1,862.514 GB`` or ``1.089 TB`` in (binary) GB."""
    match = _SIZE.match(text)
    if not match:
        raise ParseError(f"expected a capacity such as '557.791 GB', found {text!r}", line=number, field=field)
    return float(match.group(1).replace(",", "")) * _GB_PER_UNIT[match.group(2).upper()]


def _number(text, number, field):
    match = _NUMBER.match(text)
    if not match:
        raise ParseError(f"expected a number, found {text!r}", line=number, field=field)
    value = float(match.group(1).replace(",", ""))
    return int(value) if value.is_integer() else value


def _enabled(text):
    return {"enabled": True, "disabled": False}.get(text.strip().lower())


def _raid_level(text):
    text = text.strip()
    return text if text.upper().startswith("RAID") or not text else f"RAID {text}"


def _slot_letter(text):
    match = _SLOT.search(text)
    return match.group(1) if match else text


class _ProfileReader:
    """Reads a profile line by line; ``finish`` returns the system and the warnings."""

    def __init__(self):
        self.header_seen = False
        self.system = System()
        self.details = {}
        self.section = None
        self.sections_seen = []
        self.context = ""
        self.controllers = []
        self.controllers_reported = None
        self.arrays = []
        self.in_drive_list = False
        self.volumes = {}
        self.volume = None
        self.columns = None
        self.drives = []
        self.drive_count = None

    def feed(self, line, number):
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

    def _read_header(self, stripped, number):
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

    def _enter_section(self, name):
        section = _SECTIONS.get(name, "other")
        # Later SUMMARY headings belong to sub-sections (drive channels), not to the array summary.
        if section == "summary" and self.sections_seen:
            section = "other"
        self.section = section
        self.sections_seen.append(section)
        self.context = ""
        self.columns = None

    def _read_summary(self, stripped, label, value, number):
        if not value:
            return
        # Firmware and NVSRAM lines repeat under "Pending configuration" (staged, usually "None").
        pending = self.context.startswith("pending") and label.endswith("version")
        if label in ("number of controllers", "controllers") and self.controllers_reported is None:
            self.controllers_reported = int(_number(value, number, label))
        elif label in ("number of drives", "drives") and self.drive_count is None:
            self.drive_count = int(_number(value, number, label))
        elif label in ("firmware version", "current package version") and not pending:
            self.system.firmware = self.system.firmware or value
        elif label in _SUMMARY_DETAILS and not pending:
            self._set_detail(_SUMMARY_DETAILS[label], value, number, label)

    def _set_detail(self, name, value, number, label):
        if name in self.details:
            return
        if name in _NUMERIC_DETAILS:
            self.details[name] = _number(value, number, label)
        elif name in _COUNT_DETAILS:
            self.details[name] = int(_number(value, number, label))
        else:
            self.details[name] = value

    def _read_controllers(self, stripped, label, value, number):
        title = _CONTROLLER.match(stripped)
        if title:
            self.controllers.append({"location": title.group(1)})
            return
        if label == "number of controllers" and value and self.controllers_reported is None:
            self.controllers_reported = int(_number(value, number, label))
        if not self.controllers or not value:
            return
        controller = self.controllers[-1]
        if label in ("firmware version", "nvsram version") and self.context == "current configuration":
            controller.setdefault(label.split()[0], value)
        elif label in _CONTROLLER_FIELDS and not self.context.startswith(_CONTROLLER_SUBDEVICES):
            controller.setdefault(_CONTROLLER_FIELDS[label], value)
        else:
            self._read_controller_cache(controller, label, value, number)

    def _read_controller_cache(self, controller, label, value, number):
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

    def _read_arrays(self, stripped, label, value, number):
        title = _ARRAY_TITLE.match(stripped)
        if title:
            self._new_array(title.group(1), _raid_level(title.group(2)))
        elif label == "name" and value:
            self._new_array(value, None)
        elif not self.arrays:
            return
        elif label.startswith("associated drives"):
            self.in_drive_list = True
        elif label.startswith("associated volumes"):
            self.in_drive_list = False
        elif self.in_drive_list and _DRIVE_REFERENCE.match(stripped):
            self.arrays[-1].drive_count = (self.arrays[-1].drive_count or 0) + 1
        elif label == "raid level" and value:
            self.arrays[-1].raid_level = _raid_level(value)

    def _new_array(self, name, raid_level):
        self.arrays.append(Array(name=name, raid_level=raid_level))
        self.in_drive_list = False

    def _read_volumes(self, stripped, label, value, number):
        if self.columns is not None and _TABLE_CELL_GAP.search(stripped):
            self._read_volume_row(stripped, number)
            return
        self.columns = None
        if label.startswith("name ") and "status" in label and ":" not in stripped:
            self.columns = [(m.start(), m.group(0).lower()) for m in _COLUMN.finditer(stripped)]
        elif label in ("volume name", "logical drive name") and value:
            self.volume = self._volume(value)
        elif self.volume is not None and value:
            self._read_volume_detail(self.volume, label, value, number)

    def _volume(self, name):
        if name not in self.volumes:
            self.volumes[name] = Volume(name=name)
        return self.volumes[name]

    def _read_volume_row(self, stripped, number):
        """A row of the padded volume table; its columns start where the header's titles start."""
        starts = [start for start, _ in self.columns] + [None]
        cells = {title: stripped[starts[i] : starts[i + 1]].strip() for i, (_, title) in enumerate(self.columns)}
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

    def _read_volume_detail(self, volume, label, value, number):
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
            volume.prefetch = _number(value, number, "Cache read ahead multiplier") > 0
        elif label == "preferred owner":
            volume.preferred_owner = _slot_letter(value)

    def _read_drives(self, stripped, label, value, number):
        title = _DRIVE.match(stripped)
        if title:
            self.drives.append({"location": title.group(1)})
        elif label == "number of drives" and value and self.drive_count is None:
            self.drive_count = int(_number(value, number, label))
        elif self.drives and value:
            self._read_drive_detail(self.drives[-1], label, value, number)

    def _read_drive_detail(self, drive, label, value, number):
        if label == "raw capacity":
            drive["capacity_gb"] = _size_gb(value, number, "Raw capacity")
        elif label == "speed":
            drive["speed_rpm"] = _number(value, number, "Speed")
        elif label == "product id":
            drive["product_id"] = value
        elif label in ("media type", "drive type", "interface type"):
            drive[label.replace(" ", "_")] = value

    def finish(self):
        if not self.header_seen:
            raise ParseError("empty file: expected a 'PROFILE FOR STORAGE ...' line", line=1)
        known = [s for s in self.sections_seen if s != "other"]
        if not known:
            raise ParseError(
                "no SUMMARY, CONTROLLERS, ARRAYS / VOLUME GROUPS or LOGICAL DRIVES / VOLUMES section found; "
                "export the full profile (Storage Manager: Save Profile, all sections)",
                line=1,
            )
        warnings = []
        self._finish_controllers()
        self._finish_arrays(warnings)
        self._finish_drives()
        self._check_counts(warnings)
        self.system.details = self.details
        return self.system, warnings

    def _finish_controllers(self):
        system = self.system
        system.controllers = self.controllers_reported or len(self.controllers) or None
        if not self.controllers:
            return
        first = self.controllers[0]
        system.vendor = first.get("vendor")
        system.model = first.get("model_name") or first.get("board_id")
        system.firmware = system.firmware or first.get("firmware")
        system.cache_mb_per_controller = first.get("cache_mb")
        self.details.setdefault("nvsram", first.get("nvsram"))
        for name in ("board_id", "product_id", "submodel_id"):
            self.details[name] = first.get(name)
        self.details["controllers"] = self.controllers

    def _finish_arrays(self, warnings):
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
            shown = ", ".join(array.name for array in inferred[:5]) + (", ..." if len(inferred) > 5 else "")
            warnings.append(
                f"{len(inferred)} array(s) / volume group(s) appear only in the logical drives' table ({shown}): "
                "listed with their RAID level but without drive counts"
            )

    def _finish_drives(self):
        self.system.drive_count = self.drive_count or len(self.drives) or None
        models = Counter(
            (d.get("product_id"), d.get("capacity_gb"), d.get("speed_rpm"), d.get("media_type") or d.get("drive_type"))
            for d in self.drives
        )
        if models:
            self.details["drive_models"] = [
                {"product_id": product, "capacity_gb": capacity, "speed_rpm": rpm, "type": kind, "count": count}
                for (product, capacity, rpm, kind), count in models.most_common()
            ]

    def _check_counts(self, warnings):
        for name, found, what in (
            ("arrays_reported", len(self.system.arrays), "arrays / volume groups"),
            ("volumes_reported", len(self.system.volumes), "standard logical drives / volumes"),
        ):
            reported = self.details.get(name)
            if reported is not None and reported != found:
                warnings.append(f"the profile reports {reported} {what} but {found} were read")
