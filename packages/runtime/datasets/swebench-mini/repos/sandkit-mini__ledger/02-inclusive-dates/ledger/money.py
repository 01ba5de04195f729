def parse_amount(text: str) -> int:
    """Parses ``12.34``, ``-0.50`` or ``7`` into cents."""
    text = text.strip()
    whole, _, fraction = text.partition(".")
    if len(fraction) > 2 or not (whole.lstrip("-") + fraction).isdigit():
        raise ValueError(f"not an amount: {text!r}")
    return int(whole) * 100 + int(fraction.ljust(2, "0"))


def format_amount(cents: int) -> str:
    """Formats cents as ``-12.34``."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}.{rest:02d}"
