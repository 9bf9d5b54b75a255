"""What differs between the Python versions unosim supports: the TOML reader (the standard
library's from Python 3.11, the ``tomli`` backport on 3.10)."""

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - pyproject allows 3.10 with tomli
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["tomllib"]
