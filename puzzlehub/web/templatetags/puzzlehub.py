from django import template

from puzzlehub.repos.selectors import parent_of

register = template.Library()


@register.filter
def grouped(digits) -> str:
    """'43252003274489856000' -> '43,252,003,274,489,856,000' (counts are stored as decimal text)."""
    text = str(digits)
    if not text.isdigit():
        return text
    return f"{int(text):,}"


@register.simple_tag(takes_context=True)
def fork_parent(context, repository):
    """`{% fork_parent repo as parent %}`: what the reader may know of a fork's parent."""
    return parent_of(repository=repository, user=context["request"].user)
