"""Exact decimal text of counts too long for str(int).

Python refuses str() of an integer over 4,300 digits (a guard against slow conversions of huge
untrusted numbers); a puzzle's state count or group order can be longer (10,000 stickers give
counts of over 35,000 digits). Decimal converts any integer exactly, in time close to linear.
"""

import decimal
import json

_context = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def decimal_text(n: int) -> str:
    """'43252003274489856000' for 43252003274489856000, at any length."""
    return format(decimal.Decimal(n, context=_context), "f")


def grouped(digits) -> str:
    """'43,252,003,274,489,856,000' from an integer or its decimal text; other text unchanged."""
    text = decimal_text(digits) if isinstance(digits, int) and not isinstance(digits, bool) else str(digits)
    sign, body = ("-", text[1:]) if text.startswith("-") else ("", text)
    if not body.isdigit():
        return text
    head = len(body) % 3 or 3
    return sign + ",".join([body[:head]] + [body[i:i + 3] for i in range(head, len(body), 3)])


def scientific(digits) -> tuple[str, int]:
    """('4.87', 1620) for a count of 1,621 digits that starts 48736: three significant figures and
    the power of ten, read off the decimal text (no float holds such counts)."""
    body = decimal_text(digits) if isinstance(digits, int) else str(digits)
    lead = int(body[:3].ljust(3, "0")) + (body[3:4] >= "5")
    exponent = len(body) - 1
    if lead == 1000:  # 9.996 rounds up to 10.0: one more power of ten
        lead, exponent = 100, exponent + 1
    return f"{lead // 100}.{lead % 100:02d}", exponent


def json_text(data) -> str:
    """json.dumps(data), with integers of any length written exactly as JSON numbers."""
    long_numbers = []

    def mark(value):
        if isinstance(value, dict):
            return {k: mark(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [mark(v) for v in value]
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1000:
            long_numbers.append(decimal_text(value))
            return f"\x00{len(long_numbers) - 1}\x00"
        return value

    text = json.dumps(mark(data))
    for i, digits in enumerate(long_numbers):
        text = text.replace(f'"\\u0000{i}\\u0000"', digits, 1)
    return text
