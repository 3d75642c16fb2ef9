from pathlib import Path

from data_import.readers import count_lines


def test_line_count_follows_the_file_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("userId,movieId,rating,timestamp\n1,1,4.0,1\n", encoding="utf-8")
    assert count_lines(path) == 1
    assert count_lines(path) == 1  # counted once, answered from the cache
    path.write_text("userId,movieId,rating,timestamp\n1,1,4.0,1\n1,2,3.0,2\n2,1,5.0,3\n")
    assert count_lines(path) == 3
