"""The compose form of a report: the compare page's selection plus the author's choices, all in the
report's address so the same report can be asked for again (page, API)."""

from django import forms

from portal.comparisons.forms import CompareForm

from .options import FIGURE_UNITS, ReportOptions

PARTS = (("charts", "Charts"), ("tables", "Tables"), ("environment", "Measurement environment"))
PCT_DECIMALS = (("0", "0 (13 %)"), ("1", "1 (12.7 %, as the compare page)"), ("2", "2 (12.69 %)"))
MBPS_UNITS = (("MB/s", "MB/s (10^6 bytes per second)"), ("MiB/s", "MiB/s (2^20 bytes per second)"))


class WorkloadNamesField(forms.MultipleChoiceField):
    """Workload names as the compare page shows them; the comparison decides which exist."""

    def valid_value(self, value: str) -> bool:
        return 0 < len(value) <= 200


class ReportForm(CompareForm):
    title = forms.CharField(required=False, max_length=200, label="Title")
    author = forms.CharField(required=False, max_length=200, label="Author")
    workloads = WorkloadNamesField(required=False, label="Workloads", widget=forms.CheckboxSelectMultiple)
    captions = forms.CharField(
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 8}),
        label="Captions",
        help_text="One a line, the table or chart then a colon: Random Reads 8K: 8K random reads at 20 ms",
    )
    figures = WorkloadNamesField(required=False, label="Figure of each workload")
    leave_out = forms.MultipleChoiceField(
        required=False, choices=PARTS, widget=forms.CheckboxSelectMultiple, label="Leave out"
    )
    mbps_unit = forms.ChoiceField(required=False, choices=MBPS_UNITS, initial="MB/s", label="Unit of MB/s figures")
    pct_decimals = forms.TypedChoiceField(
        required=False,
        choices=PCT_DECIMALS,
        coerce=int,
        empty_value=None,
        initial=1,
        label="Decimals of the improvements",
    )

    def clean_captions(self) -> dict[str, str]:
        captions = {}
        for number, line in enumerate((self.cleaned_data.get("captions") or "").splitlines(), start=1):
            if not line.strip():
                continue
            workload, colon, caption = line.partition(":")
            if not colon or not workload.strip() or not caption.strip():
                raise forms.ValidationError(
                    f"line {number}: write the table or chart, a colon and the caption,"
                    " e.g. Random Reads 8K table: my caption."
                )
            captions[workload.strip()] = caption.strip()
        return captions

    def clean_figures(self) -> dict[str, str]:
        """``Random Reads 8K: MiB/s`` a value: the figure a workload's table shows."""
        figures = {}
        for value in self.cleaned_data.get("figures") or ():
            workload, _, unit = value.rpartition(": ")
            if not workload.strip() or unit not in FIGURE_UNITS:
                raise forms.ValidationError(
                    f"write the workload, a colon and one of {', '.join(FIGURE_UNITS)}, e.g. Random Reads 8K: IOPS;"
                    f" got {value!r}."
                )
            figures[workload.strip()] = unit
        return figures

    def options(self) -> ReportOptions:
        left_out = set(self.cleaned_data.get("leave_out") or ())
        return ReportOptions(
            title=self.cleaned_data.get("title") or "",
            author=self.cleaned_data.get("author") or "",
            workloads=tuple(self.cleaned_data.get("workloads") or ()),
            captions=self.cleaned_data.get("captions") or {},
            charts="charts" not in left_out,
            tables="tables" not in left_out,
            environment="environment" not in left_out,
            mbps_unit=self.value("mbps_unit"),
            pct_decimals=self.value("pct_decimals"),
            figures=self.cleaned_data.get("figures") or {},
        )


REPORT_PARAMETERS = tuple(ReportForm.base_fields)
