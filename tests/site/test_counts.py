"""Counts as the pages show them (the `count` template tag, solver.numbers.scientific): exact with
thousands separators up to 10^15, past that three figures and a power of ten read off the decimal
text, the exact value kept in the title and behind a tap."""

import pytest
from django.template import Context, Template

from solver import numbers


@pytest.mark.parametrize("digits, expected", [
    ("1", ("1.00", 0)), ("4873622086", ("4.87", 9)), ("1050", ("1.05", 3)), ("9994", ("9.99", 3)),
    ("9996", ("1.00", 4)),  # rounds up into the next power of ten
    (43252003274489856000, ("4.33", 19)), ("8" * 5000, ("8.89", 4999)),  # longer than int() reads
])
def test_scientific_rounds_from_the_decimal_text(digits, expected):
    assert numbers.scientific(digits) == expected


def render(digits, note=""):
    return Template("{% load puzzlehub %}{% count digits note %}").render(Context({"digits": digits, "note": note}))


def test_counts_up_to_ten_to_the_fifteen_are_exact():
    assert render("15").startswith('<span class="number">15</span>')
    html = render("1000000000000000", "(bound)")
    assert html.startswith('<span class="number">1,000,000,000,000,000</span> <span class="muted">(bound)</span>')
    assert "<details" not in html


def test_larger_counts_are_short_with_the_exact_value_at_hand():
    html = render("1000000000000001")
    assert html.startswith('<span class="number" title="1,000,000,000,000,001">1.00 × 10<sup>15</sup></span>')
    assert '<span class="digits">1,<wbr>000,<wbr>000,<wbr>000,<wbr>000,<wbr>001</span>' in html
    huge = render("8" * 5000, "(bound)")
    assert '8.89 × 10<sup>4999</sup></span> <span class="muted">(bound)</span>' in huge
