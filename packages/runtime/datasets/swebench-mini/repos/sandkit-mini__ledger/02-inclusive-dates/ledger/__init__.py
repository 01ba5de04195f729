"""A tiny household ledger: entries in cents, balances by date."""
from ledger.book import Entry, Ledger
from ledger.money import format_amount, parse_amount

__all__ = ["Entry", "Ledger", "format_amount", "parse_amount"]
