"""A system's table that is almost all "no figure", said in a sentence instead of printed.

A table of 96 cells with 4 figures tells the reader little and fills a landscape page; the sentence names
the figures it has (each with its configuration) and what has none: the configurations, and the
workloads, without a figure at the threshold.
"""

from .document import Paragraph, TableBlock

# A table with figures in fewer than this share of its figure cells is replaced by its sentence.
SPARSE_SHARE = 0.25
# Figures named one by one in the sentence; beyond this many only their number.
NAMED_FIGURES = 6


def sparse_table_sentence(block: TableBlock, *, workloads: list[str], threshold: str) -> Paragraph | None:
    """The sentence that stands for ``block`` when fewer than :data:`SPARSE_SHARE` of its figure cells
    hold a figure, None when it has enough to be printed. ``workloads`` names each column's workload
    (its group heading), ``threshold`` the threshold the figures are read at ("20 ms")."""
    figure_columns = [j for j in range(len(block.header)) if block.is_numeric(j)]
    cells = len(block.rows) * len(figure_columns)
    found = [(i, j) for i, row in enumerate(block.rows) for j in figure_columns if row[j].number is not None]
    if not cells or len(found) >= SPARSE_SHARE * cells:
        return None
    if not found:
        return Paragraph(f"{block.caption}: none of the table's {cells} cells has a figure at {threshold}.")
    configurations = _configurations(block)
    named = "; ".join(
        f"{workloads[j]}: {block.rows[i][j].text} {block.header[j].removeprefix(workloads[j]).strip()} with "
        f"{configurations[i]}"
        for i, j in found[:NAMED_FIGURES]
    )
    sentences = [
        f"{block.caption}: only {len(found)} of the table's {cells} cells have a figure at {threshold}, so the "
        f"table is left out. {'The figures' if len(found) <= NAMED_FIGURES else 'The first'}: {named}."
    ]
    empty_rows = len(block.rows) - len({i for i, _ in found})
    if empty_rows:
        sentences.append(
            f"The other {empty_rows} of its {len(block.rows)} configurations have no figure at {threshold}"
            " in any workload."
        )
    measured = {workloads[j] for _, j in found}
    missing = [name for name in dict.fromkeys(workloads[j] for j in figure_columns) if name not in measured]
    if missing:
        sentences.append(f"No configuration has a figure at {threshold} for {_listed(missing)}.")
    return Paragraph(" ".join(sentences))


def _configurations(block: TableBlock) -> list[str]:
    """Each row's configuration in words: its row headers, a blank one (repeated, printed once) carried
    down from the row above."""
    headers = [j for j in range(len(block.header)) if not block.is_numeric(j)]
    carried = [""] * len(headers)
    words = []
    for row in block.rows:
        carried = [row[j].text or carried[k] for k, j in enumerate(headers)]
        # Commas within a configuration: semicolons part the figures of the sentence.
        words.append(", ".join(text.replace("; ", ", ") for text in carried if text))
    return words


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
