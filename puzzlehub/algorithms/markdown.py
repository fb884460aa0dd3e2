"""Comment markdown to HTML that is safe to show: no scripts, no event handlers, no javascript: links.

Markdown passes raw HTML through, so the rendered text is sanitized by an allow-list (bleach):
unknown tags are escaped, attributes other than the listed ones dropped, and links keep only
http, https and mailto targets.
"""

from functools import partial

import bleach
import markdown as md
from bleach.linkifier import LinkifyFilter

ALLOWED_TAGS = frozenset({
    "p", "br", "hr", "strong", "em", "b", "i", "code", "pre", "blockquote", "ul", "ol", "li",
    "a", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "del",
})
ALLOWED_ATTRIBUTES = {"a": ["href", "title"], "th": ["align"], "td": ["align"]}
ALLOWED_PROTOCOLS = frozenset({"http", "https", "mailto"})


def _nofollow(attrs, new=False):
    href = attrs.get((None, "href"))
    if href is not None:
        attrs[(None, "rel")] = "nofollow noopener"
    return attrs


# One pass: cleaning and linking together. Linking the cleaned text afterwards escaped the text
# of code spans a second time (`a < b` was shown as `a &lt; b`).
_cleaner = bleach.Cleaner(
    tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, protocols=ALLOWED_PROTOCOLS, strip=False,
    filters=[partial(LinkifyFilter, callbacks=[_nofollow], skip_tags={"pre", "code"})],
)


def render(text: str) -> str:
    html = md.markdown(text, extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
    return _cleaner.clean(html)
