SIZES = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """Parses ``1h 30m``, ``45s`` or ``2H`` into seconds."""
    total = 0
    number = ""
    for char in text.strip().lower():
        if char.isdigit():
            number += char
        elif char in SIZES and number:
            total += int(number) * SIZES[char]
            number = ""
        elif char.isspace() and not number:
            continue
        else:
            raise ValueError(f"cannot parse duration {text!r}")
    if number:
        raise ValueError(f"missing unit after {number!r} in {text!r}")
    return total
