"""The one error type every parser raises."""


class ParseError(Exception):
    """A file that cannot be read as results.

    Carries where the problem is (file, line, column or field) and a sentence the user can
    act on. ``str(error)`` is ``FILE:LINE: message`` (line omitted when unknown).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.field = field

    def located(self, file: str) -> "ParseError":
        """Return this error with ``file`` filled in when the parser did not know it."""
        if self.file is None:
            self.file = file
        return self

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        detail = self.message
        if self.column is not None:
            detail = f"column {self.column}: {detail}"
        elif self.field is not None:
            detail = f"field {self.field!r}: {detail}"
        return f"{where}: {detail}"
