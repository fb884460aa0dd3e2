"""Safe YAML reading for definitions that come from anyone on the internet.

Plain `yaml.safe_load` still expands aliases (a few hundred bytes can become gigabytes), and its
composer and constructor spend some 20 us of Python per value: a 2 MB document of small values took
over 10 s to read, and to refuse. So a definition is read in one pass over the parser's events
(libyaml's when present): anchors, aliases, explicit tags, merge keys, several documents, keys that
are not plain values and nesting deeper than MAX_DEPTH are refused as they are met; plain scalars
are typed by PyYAML's own resolver and constructors, once per distinct text. Before that, libyaml
counts the events without building them (a tenth of the time): a document of more than MAX_ITEMS
is refused at once, as is one that is not YAML at all.
"""

from __future__ import annotations

import yaml

from solver.errors import DefinitionError

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 20
MAX_ITEMS = 500_000  # parser events: values, and lists and mappings with their ends; cube20 makes 325,000

_PARSER = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader  # libyaml is some 10x faster
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_NO_KEY = object()  # a mapping's frame waiting for its next key


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 30 else f"{text[:20]!r}... ({len(text):,} characters)"


def _scalar(event):
    """The value of a plain scalar as YAML 1.1 types it: int, float, bool, null, date or text."""
    tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, (True, False))
    if tag == _MERGE:
        raise DefinitionError(f"line {event.start_mark.line + 1}: YAML merge keys (<<) are not allowed")
    construct = _CONSTRUCTOR.yaml_constructors.get(tag)
    if construct is None:  # "=" (YAML 1.1's value key, which SafeLoader reads as text only as a key): text
        tag, construct = _STR, _CONSTRUCTOR.yaml_constructors[_STR]
    try:
        return construct(_CONSTRUCTOR, yaml.ScalarNode(tag, event.value))
    except ValueError:  # an integer past Python's 4,300 digits, a date that does not exist
        raise DefinitionError(f"line {event.start_mark.line + 1}: {_shown(event.value)} is not a readable "
                              f"{tag.rsplit(':', 1)[1]}") from None


def _refuse(event):
    line = event.start_mark.line + 1
    if isinstance(event, yaml.DocumentStartEvent):
        raise DefinitionError(f"line {line}: more than one YAML document")
    if isinstance(event, yaml.AliasEvent) or event.anchor:
        raise DefinitionError(f"line {line}: YAML anchors and aliases are not allowed")
    if event.tag is not None:  # untagged nodes carry no tag at all
        raise DefinitionError(f"line {line}: YAML tags are not allowed")
    raise DefinitionError(f"line {line}: nested deeper than {MAX_DEPTH} levels")


def _build(events):
    """The data of the stream's single document, built from its events (the loop is the hot path of
    reading a big definition: the checks cost a comparison each)."""
    scalar, sequence, mapping = yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent
    ends = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    frames = [[[], _NO_KEY]]  # the containers being filled, innermost last: [container, pending key]
    typed: dict = {}  # plain scalar text -> its value (immutable): each distinct text is typed once
    documents = 0
    for event in events:
        kind = event.__class__
        if kind is scalar:
            if event.anchor is not None or event.tag is not None or len(frames) > MAX_DEPTH:
                _refuse(event)
            if event.implicit[0]:
                value = typed.get(event.value, _NO_KEY)
                if value is _NO_KEY:
                    value = typed[event.value] = _scalar(event)
            else:  # quoted or block: text
                value = event.value
        elif kind is sequence or kind is mapping:
            if event.anchor is not None or event.tag is not None or len(frames) > MAX_DEPTH:
                _refuse(event)
            frames.append([[] if kind is sequence else {}, _NO_KEY])
            continue
        elif kind in ends:
            value = frames.pop()[0]
        elif kind is yaml.AliasEvent:
            _refuse(event)
        else:  # stream start and end, document start and end
            if kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    _refuse(event)
            continue
        frame = frames[-1]
        container = frame[0]
        if container.__class__ is list:
            container.append(value)
        elif frame[1] is _NO_KEY:
            if value.__class__ is list or value.__class__ is dict:
                raise DefinitionError(f"line {event.start_mark.line + 1}: a mapping's keys must be plain values, "
                                      "not lists or mappings")
            frame[1] = value
        else:
            container[frame[1]] = value
            frame[1] = _NO_KEY
    return frames[0][0][0] if frames[0][0] else None


def decode(text: str | bytes) -> str:
    """The text of a definition within the size limit, or DefinitionError."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise DefinitionError(f"definition is {len(text):,} bytes, the limit is {MAX_BYTES:,}")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DefinitionError(f"definition is not UTF-8 text (byte {exc.start})") from None
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:  # a lone surrogate, as JSON's "\ud800" gives
        raise DefinitionError(f"definition is not Unicode text (character {exc.start + 1} is half a pair)") from None
    if size > MAX_BYTES:
        raise DefinitionError(f"definition is larger than the limit of {MAX_BYTES:,} bytes")
    return text


def _events(text: str):
    """The parser's events, once they are known to be at most MAX_ITEMS."""
    if yaml.__with_libyaml__:
        count = yaml.CSafeLoader(text).raw_parse()
    else:  # the pure-Python parser, twice: it is the slow fallback anyway
        count = sum(1 for _ in yaml.parse(text, Loader=yaml.SafeLoader))
    if count > MAX_ITEMS:
        raise DefinitionError(f"definition has {count:,} YAML items (values, lists, mappings and their ends), "
                              f"the limit is {MAX_ITEMS:,}")
    return yaml.parse(text, Loader=_PARSER)


def parse(text: str | bytes):
    """The plain data of a YAML (or JSON) document, or DefinitionError naming the problem."""
    text = decode(text)
    try:
        return _build(_events(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DefinitionError(f"{where}invalid YAML: {problem}") from None
