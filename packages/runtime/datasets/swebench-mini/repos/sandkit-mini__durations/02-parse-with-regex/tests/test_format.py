import pytest

from durations import format_duration


@pytest.mark.parametrize(
    "seconds,expected",
    [(5400, "1h 30m"), (45, "45s"), (3661, "1h 1m 1s")],
)
def test_format(seconds, expected):
    assert format_duration(seconds) == expected


def test_format_rejects_negative():
    with pytest.raises(ValueError):
        format_duration(-1)


def test_format_zero():
    assert format_duration(0) == "0s"
