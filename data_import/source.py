"""Find a MovieLens release: a directory, a `.zip`, or a URL (downloaded once and cached)."""

from __future__ import annotations

import hashlib
import shutil
import urllib.request
import zipfile
import zlib
from pathlib import Path
from urllib.error import URLError

from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

from data_import.defaults import DEFAULT_URL as DEFAULT_URL  # its home before `defaults`
from data_import.errors import SourceError


def resolve_release(source: str, cache_dir: Path) -> Path:
    """Return the directory that holds `movies.csv` for a directory, zip file or URL."""
    if source.startswith(("http://", "https://")):
        archive = _download(source, cache_dir)
        try:
            return _unpacked(archive, cache_dir)
        except SourceError:
            archive.unlink(missing_ok=True)  # the next run downloads it again
            raise
    path = Path(source).expanduser()
    if path.is_dir():
        return _release_dir(path)
    if path.is_file() and zipfile.is_zipfile(path):
        return _unpacked(path, cache_dir)
    if path.is_file() and (path.suffix.lower() == ".zip" or _starts_like_a_zip(path)):
        raise SourceError(
            f"{path} is a damaged zip file (truncated, or not completely downloaded): "
            "download it again."
        )
    raise SourceError(
        f"{source} is neither a MovieLens directory, a .zip file nor an http(s) URL: "
        "pass the folder that holds movies.csv and ratings.csv, its zip, or a URL."
    )


def _starts_like_a_zip(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"PK\x03\x04"


def _release_dir(path: Path) -> Path:
    if (path / "movies.csv").is_file():
        return path
    inner = [p.parent for p in path.glob("*/movies.csv")]
    if len(inner) == 1:
        return inner[0]
    raise SourceError(
        f"No movies.csv in {path}: expected a MovieLens release such as ml-latest-small."
    )


def _download(url: str, cache_dir: Path) -> Path:
    name = url.rstrip("/").rsplit("/", 1)[-1] or "release.zip"
    key = hashlib.sha256(url.encode()).hexdigest()[:12]
    target = cache_dir / "downloads" / f"{key}-{name}"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    try:
        with urllib.request.urlopen(url, timeout=60) as response, partial.open("wb") as out:
            total = int(response.headers.get("Content-Length") or 0) or None
            columns = (*Progress.get_default_columns()[:1], BarColumn(), DownloadColumn(),
                       TransferSpeedColumn())  # fmt: skip
            with Progress(*columns, transient=True) as progress:
                task = progress.add_task(f"download {name}", total=total)
                while chunk := response.read(1 << 16):
                    out.write(chunk)
                    progress.advance(task, len(chunk))
    except (URLError, OSError, TimeoutError) as e:
        partial.unlink(missing_ok=True)
        raise SourceError(
            f"Could not download {url} ({e}). Check the network, or download the zip yourself "
            "and pass it: movieagent import --source path/to/ml-latest-small.zip"
        ) from e
    partial.rename(target)
    return target


def _unpacked(archive: Path, cache_dir: Path) -> Path:
    stat = archive.stat()
    key = hashlib.sha256(f"{archive.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    target = cache_dir / "releases" / key.hexdigest()[:12]
    if not target.is_dir():
        staging = target.with_name(target.name + ".tmp")
        shutil.rmtree(staging, ignore_errors=True)
        try:
            with zipfile.ZipFile(archive) as zf:
                zf.extractall(staging)
        except (zipfile.BadZipFile, zlib.error, EOFError) as e:
            shutil.rmtree(staging, ignore_errors=True)
            raise SourceError(
                f"{archive} is not a readable zip file ({e}): download it again."
            ) from e
        staging.rename(target)
    return _release_dir(target)
