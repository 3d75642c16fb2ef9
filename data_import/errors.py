"""The import's exceptions: one root, each with a sentence that says what was expected."""


class ImportDataError(Exception):
    """Root of every error raised by the import."""


class SourceError(ImportDataError):
    """The MovieLens release cannot be found, downloaded or unpacked."""


class HeaderError(ImportDataError):
    """A CSV file does not have the expected header."""
