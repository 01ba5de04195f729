from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Entry:
    day: date
    cents: int
    memo: str = ""


class Ledger:
    """Entries kept in insertion order; dates may arrive out of order."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    def add(self, day: date, cents: int, memo: str = "") -> Entry:
        entry = Entry(day, cents, memo)
        self.entries.append(entry)
        return entry

    def balance(self, until: date) -> int:
        """Sum of every entry dated on or before ``until``."""
        return sum(e.cents for e in self.entries if e.day < until)

    def between(self, start: date, end: date) -> list[Entry]:
        """Entries dated from ``start`` to ``end``, both included, oldest first."""
        chosen = [e for e in self.entries if start <= e.day < end]
        return sorted(chosen, key=lambda e: e.day)
