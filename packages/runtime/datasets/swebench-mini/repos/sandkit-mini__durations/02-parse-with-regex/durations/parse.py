import re

SIZES = {"h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"\s*(\d+)([hms])")


def parse_duration(text: str) -> int:
    """Parses ``1h 30m``, ``45s`` or ``2H`` into seconds."""
    text = text.strip()
    total = 0
    position = 0
    for match in _PART.finditer(text):
        if match.start() != position:
            break
        total += int(match.group(1)) * SIZES[match.group(2)]
        position = match.end()
    if position != len(text):
        raise ValueError(f"cannot parse duration {text!r}")
    return total
