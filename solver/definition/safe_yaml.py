"""Safe YAML reading for definitions that come from anyone on the internet.

Plain `yaml.safe_load` still expands aliases (a few hundred bytes can become gigabytes) and recurses
without bound, so definitions are parsed with a loader that refuses anchors, aliases, explicit tags
and deep nesting, after a size check on the raw text.
"""

from __future__ import annotations

import yaml

from solver.errors import DefinitionError

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 20


class _DefinitionLoader(yaml.SafeLoader):
    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise DefinitionError(f"line {event.start_mark.line + 1}: YAML anchors and aliases are not allowed")
        if getattr(event, "tag", None) is not None:  # untagged nodes carry no tag at all
            raise DefinitionError(f"line {event.start_mark.line + 1}: YAML tags are not allowed")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise DefinitionError(f"line {event.start_mark.line + 1}: nested deeper than {MAX_DEPTH} levels")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _check_events(text: str) -> None:
    """The loader's refusals (anchors, aliases, tags, depth) read from libyaml's event stream."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise DefinitionError(f"line {event.start_mark.line + 1}: YAML anchors and aliases are not allowed")
        if getattr(event, "tag", None) is not None:
            raise DefinitionError(f"line {event.start_mark.line + 1}: YAML tags are not allowed")
        if isinstance(event, (yaml.CollectionStartEvent, yaml.ScalarEvent)) and depth + 1 > MAX_DEPTH:
            raise DefinitionError(f"line {event.start_mark.line + 1}: nested deeper than {MAX_DEPTH} levels")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _load(text: str):
    # libyaml, when present, reads a 10,000-sticker definition some 20 times faster than the
    # pure-Python loader: the refusals are checked on its events, then it builds the data
    if yaml.__with_libyaml__:
        _check_events(text)
        return yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: S506 - a safe loader
    return yaml.load(text, Loader=_DefinitionLoader)  # noqa: S506 - the loader is a SafeLoader


def decode(text: str | bytes) -> str:
    """The text of a definition within the size limit, or DefinitionError."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise DefinitionError(f"definition is {len(text):,} bytes, the limit is {MAX_BYTES:,}")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DefinitionError(f"definition is not UTF-8 text (byte {exc.start})") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise DefinitionError(f"definition is larger than the limit of {MAX_BYTES:,} bytes")
    return text


def parse(text: str | bytes):
    """The plain data of a YAML (or JSON) document, or DefinitionError naming the problem."""
    text = decode(text)
    try:
        return _load(text)
    except DefinitionError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DefinitionError(f"{where}invalid YAML: {problem}") from None
    except RecursionError:
        raise DefinitionError(f"nested deeper than {MAX_DEPTH} levels") from None
