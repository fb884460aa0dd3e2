"""A revision written in the file formats of the puzzle world: the native YAML, KPuzzle JSON
(cubing.js) and a ksolve/twsearch definition (docs/interop.md). The site's download links and the
API's export endpoints both answer with `exported`; what a format cannot hold (several solved
states, guarded moves) is a ValidationError on the `format` field with the solver's reason.
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.http import HttpResponse

from puzzlehub.repos.services import load_definition
from solver import api as solver_api
from solver.errors import PuzzleError


@dataclass(frozen=True)
class Format:
    suffix: str
    content_type: str
    label: str


FORMATS = {
    "native": Format(".yaml", "application/yaml; charset=utf-8", "YAML"),
    "kpuzzle": Format(".kpuzzle.json", "application/json; charset=utf-8", "KPuzzle JSON"),
    "ksolve": Format(".tws", "text/plain; charset=utf-8", "ksolve/twsearch .tws"),
}


def offered(revision) -> dict:
    """What a page offers to download: {"formats": [(format, label)], "refusal": why KPuzzle and
    ksolve are not offered, or None}. Read from the revision's stored facts (no parsing); the
    export itself is what decides."""
    facts = revision.facts or {}
    refusal = ("it has guarded moves (moves that depend on the state)" if facts.get("guarded")
               else "it has several solved states" if facts.get("goals", 1) > 1 else None)
    return {"formats": [(fmt, kind.label) for fmt, kind in FORMATS.items() if fmt == "native" or refusal is None],
            "refusal": refusal}


def exported(revision, fmt: str) -> HttpResponse:
    """The revision as a file in format `fmt`, to download; a ValidationError on `format` when
    the format is unknown or cannot hold the puzzle."""
    kind = FORMATS.get(fmt)
    if kind is None:
        raise ValidationError({"format": f"unknown format {fmt[:40]!r}; formats: {', '.join(FORMATS)}"})
    try:
        text = solver_api.export_yaml(load_definition(revision.definition), fmt)
    except PuzzleError as exc:
        raise ValidationError({"format": str(exc)}) from None
    response = HttpResponse(text, content_type=kind.content_type)
    filename = f"{revision.repository.name}-{revision.number}{kind.suffix}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
