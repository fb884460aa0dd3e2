from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def ago(moment) -> str:
    """How long ago, to the second under two minutes: a heartbeat's age is what an operator reads."""
    if moment is None:
        return "-"
    seconds = max(0, int((timezone.now() - moment).total_seconds()))
    if seconds < 120:
        return f"{seconds} s ago"
    if seconds < 7200:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h ago"
