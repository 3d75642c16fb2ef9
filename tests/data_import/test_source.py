"""Finding a release: a directory, a zip, or a URL downloaded once into the cache."""

from __future__ import annotations

import threading
import zipfile
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from data_import.errors import SourceError
from data_import.source import resolve_release

MOVIES = "movieId,title,genres\n1,Toy Story (1995),Adventure|Animation\n"
RATINGS = "userId,movieId,rating,timestamp\n1,1,4.0,964982703\n"


def _release_zip(folder: Path) -> Path:
    archive = folder / "ml-tiny.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("ml-tiny/movies.csv", MOVIES)
        zf.writestr("ml-tiny/ratings.csv", RATINGS)
    return archive


class _CountingHandler(SimpleHTTPRequestHandler):
    hits: list[str] = []  # noqa: RUF012 - shared by the test server's handler instances

    def do_GET(self) -> None:
        type(self).hits.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    served = tmp_path / "served"
    served.mkdir()
    _release_zip(served)
    _CountingHandler.hits = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_CountingHandler, directory=str(served)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    host, port = httpd.server_address[:2]
    yield f"http://{host!s}:{port}", _CountingHandler.hits
    httpd.shutdown()
    httpd.server_close()


def test_a_directory_or_its_parent_is_accepted(tmp_path: Path) -> None:
    release = tmp_path / "outer" / "ml-tiny"
    release.mkdir(parents=True)
    (release / "movies.csv").write_text(MOVIES, encoding="utf-8")
    assert resolve_release(str(release), tmp_path / "cache") == release
    assert resolve_release(str(release.parent), tmp_path / "cache") == release


def test_a_zip_is_unpacked_once_into_the_cache(tmp_path: Path) -> None:
    archive = _release_zip(tmp_path)
    first = resolve_release(str(archive), tmp_path / "cache")
    assert (first / "movies.csv").read_text(encoding="utf-8") == MOVIES
    (first / "marker").write_text("kept", encoding="utf-8")
    assert resolve_release(str(archive), tmp_path / "cache") == first
    assert (first / "marker").is_file()  # not unpacked again


def test_a_url_is_downloaded_once_and_cached(tmp_path: Path, server: tuple[str, list[str]]) -> None:
    url, hits = server
    first = resolve_release(f"{url}/ml-tiny.zip", tmp_path / "cache")
    assert (first / "ratings.csv").read_text(encoding="utf-8") == RATINGS
    again = resolve_release(f"{url}/ml-tiny.zip", tmp_path / "cache")
    assert again == first
    assert hits == ["/ml-tiny.zip"]


def test_a_failed_download_says_what_to_do_and_leaves_no_partial_file(
    tmp_path: Path, server: tuple[str, list[str]]
) -> None:
    url, _ = server
    with pytest.raises(SourceError, match="download the zip yourself"):
        resolve_release(f"{url}/missing.zip", tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*.part"))
    assert not list((tmp_path / "cache").rglob("*missing.zip"))


def test_something_else_is_refused_with_a_sentence(tmp_path: Path) -> None:
    not_a_zip = tmp_path / "notes.txt"
    not_a_zip.write_text("hello", encoding="utf-8")
    with pytest.raises(SourceError, match="neither a MovieLens directory"):
        resolve_release(str(not_a_zip), tmp_path / "cache")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match=r"No movies\.csv"):
        resolve_release(str(empty), tmp_path / "cache")
