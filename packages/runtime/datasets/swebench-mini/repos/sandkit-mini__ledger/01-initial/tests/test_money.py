import unittest

from ledger import format_amount, parse_amount


class ParseAmountTest(unittest.TestCase):
    def test_whole_and_cents(self):
        self.assertEqual(parse_amount("12.34"), 1234)

    def test_one_decimal_digit(self):
        self.assertEqual(parse_amount("0.5"), 50)

    def test_rejects_three_decimals(self):
        with self.assertRaises(ValueError):
            parse_amount("1.234")


class FormatAmountTest(unittest.TestCase):
    def test_negative(self):
        self.assertEqual(format_amount(-1205), "-12.05")


if __name__ == "__main__":
    unittest.main()
