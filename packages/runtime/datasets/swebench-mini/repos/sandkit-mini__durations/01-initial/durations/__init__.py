"""Parse and format human durations such as ``1h 30m``."""
from durations.format import format_duration
from durations.parse import parse_duration

__all__ = ["format_duration", "parse_duration"]
