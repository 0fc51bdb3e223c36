"""Tables as LaTeX floats (booktabs rules, shrunk to the text width or turned sideways), and
:func:`latex_escape`, which reports use too: LaTeX's specials escaped, the portal's notation (powers, formulas,
sha256 digests) typeset."""

import re

from portal.analysis.tables import Table

LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    # Marks pdflatex's utf8 input does not know, as any LaTeX document can print them.
    "≥": r"\ensuremath{\geq}",
    "≤": r"\ensuremath{\leq}",
    "×": r"\ensuremath{\times}",
    "±": r"\ensuremath{\pm}",
    "µ": r"\textmu{}",
    "μ": r"\textmu{}",
    "–": "--",
    "—": "---",
    "·": r"\textperiodcentered{}",
}

# Notation the portal writes in its plain text, typeset as math or broken to fit: powers ("10^6",
# "2^20"), formulas of single letters and numbers ("(A - B x k) / (B x k) x 100") and sha256 digests
# (64 hex digits, set fixed-width with a break allowed every 16). The LaTeX is made of the matched
# digits, letters and operators only, so no text, whoever typed it, becomes a LaTeX command.
_OPERAND = r"\(*(?<![\w.])(?:[A-Za-z]|\d+(?:\.\d+)?)(?![\w.])\)*"
LATEX_NOTATION = re.compile(
    rf"(?P<power>(?<![\w.])(?P<base>\d+)\^(?P<exponent>\d+)(?![\w.]))"
    rf"|(?P<formula>{_OPERAND}(?: (?:[-+/x×]) {_OPERAND})+)"
    r"|(?P<digest>(?<![0-9A-Za-z])[0-9a-f]{64}(?![0-9A-Za-z]))"
)
DIGEST_BREAK_EVERY = 16


def latex_escape(text: str) -> str:
    """``text`` as LaTeX prints it: specials escaped, the portal's notation (:data:`LATEX_NOTATION`)
    typeset as math."""
    parts, start = [], 0
    for found in LATEX_NOTATION.finditer(text):
        notation = _latex_notation(found)
        if notation is not None:
            parts += [_latex_plain(text[start : found.start()]), notation]
            start = found.end()
    parts.append(_latex_plain(text[start:]))
    return "".join(parts)


def _latex_plain(text: str) -> str:
    return "".join(LATEX_SPECIALS.get(char, char) for char in text)


def _latex_notation(found: re.Match[str]) -> str | None:
    """The LaTeX of a notation; None for a formula that only looks like one (no multiplication, no
    letter, or unbalanced parentheses), which is printed as text."""
    if found["power"]:
        return f"${found['base']}^{{{found['exponent']}}}$"
    if found["digest"]:
        digest = found["digest"]
        chunks = [digest[i : i + DIGEST_BREAK_EVERY] for i in range(0, len(digest), DIGEST_BREAK_EVERY)]
        return r"\texttt{" + r"\allowbreak{}".join(chunks) + "}"
    formula = found["formula"]
    operators = re.findall(r" ([-+/x×]) ", formula)
    if not {"x", "×"} & set(operators) or not re.search("[A-Za-z]", formula.replace(" x ", " ")):
        return None
    if formula.count("(") != formula.count(")"):
        return None
    return "$" + formula.replace(" x ", r" \times ").replace(" × ", r" \times ") + "$"


def render_latex(tables: list[Table]) -> bytes:
    """``table`` floats with booktabs rules and ``\\cmidrule`` under each column group, each shrunk to the
    text width when it is wider by no more than a quarter, else turned sideways (never enlarged); needs
    ``\\usepackage{booktabs,graphicx}``."""
    return ("\n\n".join(_latex_table(table) for table in tables) + "\n").encode()


def _latex_table(table: Table) -> str:
    width = table.row_header_width
    header, labels, *body = [[latex_escape(cell) for cell in line] for line in table.text_grid()]
    groups = [
        rf"\multicolumn{{{count}}}{{c}}{{{latex_escape(label)}}}" for _, count, label in table.column_group_spans()
    ]
    rules = " ".join(
        rf"\cmidrule(lr){{{width + first + 1}-{width + first + count}}}"
        for first, count, _ in table.column_group_spans()
    )
    lines = [
        "% requires \\usepackage{booktabs,graphicx}",
        r"\begin{table}[htbp]",
        r"\centering",
        rf"\caption{{{latex_escape(table.title)}}}",
        r"\setbox0\hbox{%",
        rf"\begin{{tabular}}{{{'l' * width}{'r' * len(table.columns)}}}",
        r"\toprule",
        " & ".join(header[:width] + groups) + r" \\",
    ]
    lines.extend([rules] if rules else [])
    lines.append(" & ".join(labels) + r" \\")
    lines.append(r"\midrule")
    lines.extend(" & ".join(line) + r" \\" for line in body)
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}}%")
    # The tabular's own width when it fits; shrunk to the text width when it is wider by no more than a
    # quarter (8 pt of a 10 pt text); wider still, turned sideways and shrunk to the text height if need be.
    lines.append(r"\ifdim\wd0>1.25\linewidth")
    lines.append(r"\rotatebox{90}{\resizebox{\ifdim\width>\textheight\textheight\else\width\fi}{!}{\box0}}%")
    lines.append(r"\else\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{\box0}\fi")
    lines.extend(rf"\par\smallskip\footnotesize {latex_escape(footnote)}" for footnote in table.footnotes)
    lines.append(r"\end{table}")
    return "\n".join(lines)
