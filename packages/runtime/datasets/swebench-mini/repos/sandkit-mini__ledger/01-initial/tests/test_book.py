import unittest
from datetime import date

from ledger import Ledger


def sample() -> Ledger:
    book = Ledger()
    book.add(date(2024, 1, 10), 10000, "salary")
    book.add(date(2024, 1, 3), -2500, "rent")
    book.add(date(2024, 1, 20), -1200, "groceries")
    return book


class BalanceTest(unittest.TestCase):
    def test_balance_after_every_entry(self):
        self.assertEqual(sample().balance(date(2024, 2, 1)), 6300)

    def test_balance_before_any_entry(self):
        self.assertEqual(sample().balance(date(2023, 12, 31)), 0)


class BetweenTest(unittest.TestCase):
    def test_between_sorts_by_date(self):
        days = [e.day.day for e in sample().between(date(2024, 1, 1), date(2024, 1, 31))]
        self.assertEqual(days, [3, 10, 20])


if __name__ == "__main__":
    unittest.main()
