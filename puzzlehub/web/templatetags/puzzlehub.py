from django import template
from django.utils.safestring import mark_safe

from puzzlehub.repos.selectors import parent_of
from solver import numbers

register = template.Library()

EXACT_UP_TO = 10 ** 15  # a count larger than this is shown short: 4.87 × 10^1620


@register.inclusion_tag("web/_count.html")
def count(digits, note=""):
    """`{% count revision.state_count note %}`: a count exact with thousands separators up to
    EXACT_UP_TO, past that three figures and a power of ten with the exact value in the title (for
    hover) and behind a tap (for touch). A note such as "(bound)" goes after the number."""
    exact = numbers.grouped(digits)
    text = str(digits)  # int() only of short texts: a count can be longer than int() reads
    if not text.isdigit() or (len(text) <= len(str(EXACT_UP_TO)) and int(text) <= EXACT_UP_TO):
        return {"exact": exact, "note": note}
    # the exact value may break between its groups of three, nowhere else
    breakable = mark_safe(",<wbr>".join(exact.split(",")))  # digits and commas only
    return {"exact": exact, "short": numbers.scientific(text), "breakable": breakable, "note": note}


@register.simple_tag(takes_context=True)
def fork_parent(context, repository):
    """`{% fork_parent repo as parent %}`: what the reader may know of a fork's parent."""
    return parent_of(repository=repository, user=context["request"].user)
