"""The system description JSON of an MLPerf Storage submission (``systems/<system>.json``): the storage
system, the nodes (clients and storage servers) with their CPUs, memory, network ports and drives (each
drive's rated bandwidth and IOPS), the networks, and the hosts the benchmark ran on.

It becomes the result set's system, without runs: the storage system's vendor, solution name, version
(as firmware), controller and drive counts; everything else in ``details``, the figures under the names
the description gives them (``bitrate``, ``peak_bandwidth``, ``peak_iops``, ``capacity_MiB``...): the
description states no unit beyond those names.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...numbers import as_printed
from ...result import System
from .document import JsonFile, JSONObject

_STORAGE = "storage_system"
# The parts of a drive's stated performance, each with the figures it gives.
_PERFORMANCE = {
    "read_bandwidth": ("xfer_size_kilobytes", "peak_bandwidth"),
    "write_bandwidth": ("xfer_size_kilobytes", "peak_bandwidth"),
    "read_iops": ("xfer_size_kilobytes", "peak_iops"),
    "write_iops": ("xfer_size_kilobytes", "peak_iops"),
}


def description_system(document: JsonFile) -> System:
    data = document.data
    storage = document.section(data, _STORAGE) if _STORAGE in data else {}
    components = _list(document, storage, "hardware_components")
    vendor = _text(storage, "vendor_name")
    solution = _text(storage, "solution_name")
    return System(
        name=_name(vendor, solution, _text(storage, "model_name")) or _fallback_name(document.name),
        vendor=vendor,
        model=solution or _text(storage, "model_name"),
        firmware=_text(storage, "version"),
        controllers=_component_count(document, components, "controller"),
        drive_count=_component_count(document, components, "drive"),
        details={
            "storage": _storage(document, storage, components),
            "networks": [_network(document, network) for network in _list(document, data, "networks")],
            "nodes": [_node(document, node) for node in _list(document, data, "nodes")],
            "benchmark_hosts": _benchmark_hosts(document),
        },
    )


def _name(*parts: str | None) -> str:
    """The vendor, solution and model names joined, each left out when the name so far holds it or taken
    alone when it holds the name so far: ``DDN`` + ``AI400X2 Turbo`` + ``DDN AI400X2 Turbo`` is "DDN AI400X2
    Turbo"; ``Hammerspace Hyperscale NAS`` + ``Hammerspace`` + ``Server``, "Hammerspace Hyperscale NAS Server"."""
    name = ""
    for part in filter(None, parts):
        if part.lower() in name.lower():
            continue
        name = part if name.lower() in part.lower() else f"{name} {part}"
    return name


def _fallback_name(file: str) -> str:
    """The file's name without its folder and ``.json``: submissions name a system's file after it."""
    stem = file.replace("\\", "/").rsplit("/", 1)[-1]
    return stem[: -len(".json")] if stem.lower().endswith(".json") else stem


def _text(parent: JSONObject, key: str) -> str | None:
    value = parent.get(key)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _part(parent: JSONObject, key: str) -> JSONObject:
    """``parent[key]`` when it is an object; ``{}`` when it is anything else (a part not described)."""
    value = parent.get(key)
    return value if isinstance(value, dict) else {}


def _list(document: JsonFile, parent: JSONObject, key: str) -> list[JSONObject]:
    """``parent[key]``, a list of objects; ``[]`` when absent."""
    value = parent.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise document.error("expected a list of objects", key)
    return value


def _figures(document: JsonFile, parent: JSONObject, keys: tuple[str, ...], within: str) -> dict[str, Any]:
    """The figures of ``keys`` that ``parent`` states, read as figures."""
    return {key: as_printed(document.number(parent, key, within)) for key in keys if parent.get(key) is not None}


def _texts(parent: JSONObject, keys: tuple[str, ...]) -> dict[str, Any]:
    """The texts (and lists of texts) of ``keys`` that ``parent`` states."""
    stated: dict[str, Any] = {}
    for key in keys:
        value = parent.get(key)
        if isinstance(value, str) and value.strip():
            stated[key] = value.strip()
        elif isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            stated[key] = [item.strip() for item in value]
    return stated


def _component_count(document: JsonFile, components: list[JSONObject], word: str) -> int | None:
    """The count of the hardware components whose name holds ``word`` (``controller``, ``drive``)."""
    counts = [
        document.whole(component, "count", "component_name") or 0
        for component in components
        if word in str(component.get("component_name", "")).lower() and component.get("count") is not None
    ]
    return sum(counts) if counts else None


def _storage(document: JsonFile, storage: JSONObject, components: list[JSONObject]) -> dict[str, Any]:
    words = ("solution_type", "software_defined", "hyperconverged", "appliance_size", "model_name")
    figures = ("number_of_appliances", "usable_capacity_GiB", "raw_capacity_GiB", "max_power_consumption_in_watts")
    return {
        **_texts(storage, words),
        **_figures(document, storage, figures, _STORAGE),
        "hardware_components": [_component(document, component) for component in components],
    }


def _component(document: JsonFile, component: JSONObject) -> dict[str, Any]:
    words = ("component_name", "vendor", "type", "model", "protocol", "cpu_model", "redundancy")
    figures = ("count", "disk_capacity_gigabytes", "cpu_core_count_per_socket", "cpu_socket_count")
    return {**_texts(component, words), **_figures(document, component, figures, "hardware_components")}


def _network(document: JsonFile, network: JSONObject) -> dict[str, Any]:
    return {
        **_texts(network, ("network_name", "network_type", "protocols")),
        **_figures(document, network, ("bitrate",), "networks"),
    }


def _node(document: JsonFile, node: JSONObject) -> dict[str, Any]:
    cpu, dram = _part(node, "CPU"), _part(node, "DRAM")
    cpu_figures = ("socket_count", "cores_per_socket", "threads_per_socket", "base_frequency", "boost_frequency")
    return {
        **_texts(node, ("node_type_name", "node_vendor_name", "node_model_name")),
        "CPU": {**_texts(cpu, ("vendor_and_model_name",)), **_figures(document, cpu, cpu_figures, "CPU")},
        "DRAM": {**_texts(dram, ("class",)), **_figures(document, dram, ("capacity_MiB", "frequency"), "DRAM")},
        "nic_ports": [
            {
                **_texts(port, ("network_name", "protocols")),
                **_figures(document, port, ("bitrate", "count_of_this_type"), "nic_ports"),
            }
            for port in _list(document, node, "nic_ports")
        ],
        "drives": [_drive(document, drive) for drive in _list(document, node, "drives")],
        "accelerators": [
            {
                **_texts(accelerator, ("vendor_and_model",)),
                **_figures(document, accelerator, ("count_of_this_type",), "accelerators"),
            }
            for accelerator in _list(document, node, "accelerators")
        ],
    }


def _drive(document: JsonFile, drive: JSONObject) -> dict[str, Any]:
    described = {
        **_texts(drive, ("purpose", "drive_type", "interface")),
        **_figures(document, drive, ("capacity_GiB", "count_of_this_type"), "drives"),
    }
    performance = _part(drive, "performance")
    rated = {
        part: _figures(document, performance[part], keys, part)
        for part, keys in _PERFORMANCE.items()
        if isinstance(performance.get(part), dict)
    }
    if rated:
        described["performance"] = rated
    return described


def _benchmark_hosts(document: JsonFile) -> dict[str, int]:
    """How many hosts of each node type the benchmark ran on."""
    hosts = _list(document, document.data, "benchmark_hosts")
    return dict(Counter(str(host.get("node_type_name") or "unnamed") for host in hosts))
