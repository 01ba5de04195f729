UNITS = (("h", 3600), ("m", 60), ("s", 1))


def format_duration(seconds: int) -> str:
    """Formats a number of seconds as ``1h 30m 5s``, leaving out zero units."""
    if seconds < 0:
        raise ValueError(f"negative duration: {seconds}")
    parts = []
    for unit, size in UNITS:
        value, seconds = divmod(seconds, size)
        if value:
            parts.append(f"{value}{unit}")
    return " ".join(parts) or "0s"
