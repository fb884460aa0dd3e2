from django import template

from puzzlehub.repos.selectors import parent_of
from solver import numbers

register = template.Library()


@register.filter
def grouped(digits) -> str:
    """'43252003274489856000' -> '43,252,003,274,489,856,000' (counts are stored as decimal text,
    which can be longer than int() reads)."""
    return numbers.grouped(digits)


@register.simple_tag(takes_context=True)
def fork_parent(context, repository):
    """`{% fork_parent repo as parent %}`: what the reader may know of a fork's parent."""
    return parent_of(repository=repository, user=context["request"].user)
