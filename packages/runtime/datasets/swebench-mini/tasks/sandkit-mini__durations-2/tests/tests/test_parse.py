import pytest

from durations import parse_duration


@pytest.mark.parametrize(
    "text,expected",
    [("1h 30m", 5400), ("45s", 45), ("2h 0m 5s", 7205), ("2H 5M", 7500)],
)
def test_parse(text, expected):
    assert parse_duration(text) == expected


def test_parse_empty_is_zero():
    assert parse_duration("  ") == 0


@pytest.mark.parametrize("text", ["10", "1x", "h"])
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        parse_duration(text)
