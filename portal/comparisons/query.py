"""A comparison as asked for: which systems, at which threshold and latency figure, B adjusted by how much,
what narrows each side's runs, which workloads and which page of them. Built once, from the compare
page's query string (the page, its exports, the API, a report) or from a command's options, and passed
to :func:`~portal.comparisons.selectors.comparison`; it goes into a job as JSON and into a link as query
parameters, and comes back the same.

:data:`PARAMETERS` is the one list of the comparison's query parameters and what each means: the compare
form (:class:`~portal.comparisons.forms.CompareForm`) validates them, every endpoint that takes a
comparison takes them (and refuses any other), and the API's schema and docs describe them in these words.
"""

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.forms import IntegerField
from django.http import QueryDict

from portal.errors import ApplicationError, form_error
from portal.forms import DEFAULT_THRESHOLD_MS

from .filters import SideFilters
from .forms import CompareForm

THRESHOLD_TEXT = "The response-time threshold, ms (20), as on the run and compare pages."
LATENCY_TEXT = (
    "What the threshold applies to: the average response time (avg, the papers' rule), "
    "a percentile (p50 ... p99.9) or the maximum (max)."
)
_SIDE_WORDS = (("raid_level", "RAID level"), ("drive_count", "drive count"), ("cache", "cache setting"))

# The comparison's query parameters, in the compare form's order, and what each means.
PARAMETERS: dict[str, str] = {
    "a": "System A (name or id); repeat it to compare up to five systems, each against B.",
    "b": "System B (name or id): the baseline every A is compared with.",
    "threshold_ms": THRESHOLD_TEXT,
    "adjust_b": "Factor for B's figures before the improvement is computed (1; 1.05 boosts B 5 %).",
    "raid_level": 'Only this RAID level, e.g. "RAID-5" or "RAID 5".',
    "cache": 'Only this cache setting, e.g. "Write Cache Enabled".',
    "drive_count": "Only configurations of this many drives.",
    "workload": "Only this workload (any of its names).",
    "pair": "A's workload | B's workload, compared by hand, e.g. rd1 | Random Reads 8K.",
    "best": "1 (or true, on): each side's best over transfer sizes.",
    "latency": LATENCY_TEXT,
    **{
        f"{side}_{name}": f"Only {side.upper()}'s runs of this {words} (in place of {name} for that side)."
        for name, words in _SIDE_WORDS
        for side in "ab"
    },
    "a_config": "A's configuration (its id, from a system's configurations): compared with b_config.",
    "b_config": "B's configuration (its id): compared with a_config, whatever their RAID levels.",
    "a_firmware": "Only A's runs measured under this firmware version (A and B may be one system).",
    "b_firmware": "Only B's runs measured under this firmware version.",
}
# The page of compared workloads (10 a page): the compare page and ``/api/v1/compare/`` take it, downloads do not.
PAGE = "wpage"
PAGE_TEXT = "The page of compared workloads (10 a page), from 1."

# Each side's filters as :class:`SideFilters` names them, and the query parameter's name after the side's letter.
_SIDE_PARAMETERS = (
    ("raid_level", "raid_level"),
    ("drive_count", "drive_count"),
    ("cache", "cache"),
    ("config_id", "config"),
    ("firmware", "firmware"),
)
_PAGE_FIELD = IntegerField(min_value=1, error_messages={"invalid": "a page number (1, 2, ...) is required."})


@dataclass(frozen=True)
class ComparisonQuery:
    """Systems A (``a_names``, each compared with B) against the baseline ``b_name``, as asked (name or id),
    at ``threshold_ms`` of ``latency`` (avg, a percentile or max) with B's figures multiplied by ``adjust_b``.

    ``both_sides`` narrows both sides' runs (RAID level, drive count, cache setting as asked, in any
    spelling); ``a_side`` and ``b_side`` narrow one side each, in place of ``both_sides`` for that side, and
    may also choose one configuration or firmware version. ``workload`` keeps one workload; ``pairs``
    compares named workloads by hand (A's, B's); ``best_of_sizes`` compares each family of workloads at its
    best over transfer sizes. ``page`` is the page of compared workloads, where a comparison is paged."""

    a_names: tuple[str, ...] = ()
    b_name: str = ""
    threshold_ms: float = DEFAULT_THRESHOLD_MS
    latency: str = "avg"
    adjust_b: float = 1.0
    both_sides: SideFilters = field(default_factory=SideFilters)
    a_side: SideFilters = field(default_factory=SideFilters)
    b_side: SideFilters = field(default_factory=SideFilters)
    workload: str | None = None
    pairs: tuple[tuple[str, str], ...] = ()
    best_of_sizes: bool = False
    page: int = 1

    @classmethod
    def from_params(cls, params: QueryDict | Mapping[str, Any]) -> "ComparisonQuery":
        """The comparison a query string asks for, read by the compare form: :class:`ApplicationError` naming
        each refused value as the page and the API name it. ``a`` may be repeated (blank ones left out):
        every A is kept, the first is validated as the form validates one."""
        if isinstance(params, QueryDict):
            names, data = params.getlist("a"), params.copy()
        else:
            names, data = [str(params.get("a", ""))], QueryDict(mutable=True)
            for name, value in params.items():
                data[name] = str(value)
        asked = [name.strip() for name in names if name.strip()]
        data.setlist("a", asked[:1])
        form = CompareForm(data)
        if not form.is_valid():
            raise form_error(form)
        return cls.from_form(form, a_names=asked, page=params.get(PAGE))

    @classmethod
    def from_form(
        cls, form: CompareForm, *, a_names: Sequence[str] = (), page: str | int | None = None
    ) -> "ComparisonQuery":
        """The comparison of a valid compare form (or a form made of it, as the report's); ``a_names``: every
        system A asked for, when there are several."""
        pair = form.cleaned_data.get("pair")
        return cls(
            a_names=tuple(a_names or [form.value("a")]),
            b_name=form.value("b"),
            threshold_ms=form.value("threshold_ms"),
            latency=form.value("latency"),
            adjust_b=form.value("adjust_b"),
            both_sides=SideFilters(
                raid_level=form.value("raid_level") or None,
                drive_count=form.value("drive_count"),
                cache=form.value("cache") or None,
            ),
            a_side=_side_of(form, "a"),
            b_side=_side_of(form, "b"),
            workload=form.value("workload") or None,
            pairs=(pair,) if pair else (),
            best_of_sizes=bool(form.cleaned_data.get("best")),
            page=page_number(page),
        )

    def to_params(self) -> list[tuple[str, str]]:
        """The query string that asks for this comparison again (``a`` once per system A), in the compare
        form's order: what differs from the papers' basis, and the page when it is not the first.
        :meth:`from_params` reads it back. (A link from a request carries what its address states:
        :func:`stated_params`.)"""
        if len(self.pairs) > 1:
            raise ValueError("a query string pairs one workload of A with one of B; this query pairs several")
        values: dict[str, object] = {
            "b": self.b_name,
            "threshold_ms": self.threshold_ms,
            "adjust_b": self.adjust_b,
            "raid_level": self.both_sides.raid_level,
            "cache": self.both_sides.cache,
            "drive_count": self.both_sides.drive_count,
            "workload": self.workload,
            "pair": " | ".join(self.pairs[0]) if self.pairs else None,
            "best": "1" if self.best_of_sizes else None,
            "latency": self.latency,
        }
        for letter, side in (("a", self.a_side), ("b", self.b_side)):
            values |= {f"{letter}_{name}": getattr(side, attribute) for attribute, name in _SIDE_PARAMETERS}
        found = [("a", name) for name in self.a_names]
        for name in PARAMETERS:
            value = values.get(name)
            if name != "a" and value not in (None, "") and value != _DEFAULTS.get(name):
                found.append((name, _text(value)))
        return found + ([(PAGE, str(self.page))] if self.page != 1 else [])

    def to_json(self) -> dict[str, Any]:
        """The query as JSON data (each side's filters an object, the names and pairs arrays), as a job's state
        keeps it: :meth:`from_json` reads it back."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ComparisonQuery":
        """The query :meth:`to_json` wrote (read back from a JSON document: its arrays are lists)."""
        return cls(
            a_names=tuple(data["a_names"]),
            b_name=data["b_name"],
            threshold_ms=data["threshold_ms"],
            latency=data["latency"],
            adjust_b=data["adjust_b"],
            both_sides=SideFilters(**data["both_sides"]),
            a_side=SideFilters(**data["a_side"]),
            b_side=SideFilters(**data["b_side"]),
            workload=data["workload"],
            pairs=tuple((a_name, b_name) for a_name, b_name in data["pairs"]),
            best_of_sizes=data["best_of_sizes"],
            page=data["page"],
        )


# The papers' basis with nothing narrowed: what a comparison asked for with no parameter compares.
DEFAULT_QUERY = ComparisonQuery()
_DEFAULTS = {
    "threshold_ms": DEFAULT_QUERY.threshold_ms,
    "adjust_b": DEFAULT_QUERY.adjust_b,
    "latency": DEFAULT_QUERY.latency,
}


def _side_of(form: CompareForm, letter: str) -> SideFilters:
    return SideFilters(**{attribute: form.value(f"{letter}_{name}") or None for attribute, name in _SIDE_PARAMETERS})


def _text(value: object) -> str:
    """A value as a query string states it: whole numbers without ".0" (20, not 20.0), others exactly."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def stated_params(params: QueryDict) -> list[tuple[str, str]]:
    """The comparison's parameters an address states, as it states them, in :data:`PARAMETERS`' order (``a``
    once per system A): what a link to another view of the same comparison carries, so the link reads at
    the basis the address states (the compare page fills in the reader's default where it states none)."""
    found = []
    for name in PARAMETERS:
        values = params.getlist(name) if name == "a" else [params.get(name, "")]
        found += [(name, value) for value in values if value]
    return found


def page_number(value: str | int | None) -> int:
    """The page of compared workloads asked for (1 when none): :class:`ApplicationError` naming ``wpage``
    for anything but a whole number from 1."""
    try:
        return _PAGE_FIELD.clean(value or 1)
    except ValidationError as error:
        raise ApplicationError(f"{PAGE}: {' '.join(error.messages)}", fields={PAGE: error.messages}) from None
