from django import template

register = template.Library()


@register.filter
def grouped(digits) -> str:
    """'43252003274489856000' -> '43,252,003,274,489,856,000' (counts are stored as decimal text)."""
    text = str(digits)
    if not text.isdigit():
        return text
    return f"{int(text):,}"
