"""The preview of a definition being written on the new-puzzle and edit pages: what the server reads
in the text (facts, a drawing, warnings), or the errors by field, before anything is saved. A shape
(solver.geometry: `c f 0.333333333333333`, `megaminx`) is previewed as the definition built from it,
whose text comes back with the preview for the page to put in the definition field.

The page (static/web/preview.js) asks while the user types, so a preview stays cheap: texts longer
than PREVIEW_MAX_CHARS are left to the save, and the counts are analysed within PREVIEW_BUDGET
seconds in a child process (puzzlehub.repos.analysis), else left for the save as well. A shape is
a few words typed once, not a text edited key by key: its counts get SHAPE_BUDGET, which covers
the named shapes up to a few hundred stickers (the megaminx in 0.2 s, docs/shapes.md); beyond it
the answer says that a worker counts them once the puzzle is published.
"""

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from puzzlehub.repos import analysis
from puzzlehub.repos.services import load_definition
from puzzlehub.rest import TextField, WriteThrottle, validated
from puzzlehub.web.drawing import overlapping_cells, puzzle_svg, thumbnail_svg
from solver import api as solver_api
from solver import numbers
from solver.errors import PuzzleError

PREVIEW_MAX_CHARS = 200_000  # YAML this long parses in about 0.3 s here
PREVIEW_BUDGET = 0.3         # seconds of analysis (group order, states) a preview may take
SHAPE_BUDGET = 1.0           # ... and a shape's: the request's budget
# what the page says when the counts did not fit the budget
COUNTED_ON_SAVE = "counted when you publish (by a worker if that takes more than a moment)"
COUNTED_BY_WORKER = "more than a preview may spend: a worker counts them once you publish"


def preview(text: str, budget: float = PREVIEW_BUDGET, later: str = COUNTED_ON_SAVE) -> dict:
    """Facts, drawing and warnings of a definition's text, its counts if they take at most `budget`
    seconds (else `state_count_note` is `later`: when they are counted); a ValidationError naming the field."""
    if len(text) > PREVIEW_MAX_CHARS:
        return {"too_long": True, "note": f"longer than {PREVIEW_MAX_CHARS:,} characters: it is checked when you save"}
    defn = load_definition(text)
    facts = analysis.direct_facts(defn)
    info = analysis.info_within(defn, budget)
    return {
        "name": defn.name, "stickers": defn.stickers, "moves": len(defn.moves),
        "move_names": defn.move_names[:60], "goals": len(defn.goals), "guarded": defn.guarded,
        "content_hash": facts["content_hash"],
        "state_count": None if info is None else numbers.grouped(numbers.decimal_text(info["state_count"])),
        "state_count_exact": None if info is None else bool(info["state_count_exact"]),
        "state_count_note": later if info is None else None,
        # the 3D view when there is geometry; otherwise the flat drawing the repository page shows
        "drawing": thumbnail_svg(defn) if defn.geometry is not None else str(puzzle_svg(defn)),
        "warnings": overlapping_cells(defn),
    }


def preview_shape(shape: str) -> dict:
    """The preview of the definition built from a shape, with its text (`definition`); a
    ValidationError on the `shape` field when the shape is refused."""
    try:
        text = solver_api.shape_yaml(shape)
    except PuzzleError as exc:
        raise ValidationError({"shape": str(exc)}) from None
    return {**preview(text, SHAPE_BUDGET, COUNTED_BY_WORKER), "definition": text}


class PreviewThrottle(WriteThrottle):
    """Previews come while the user types: counted apart from the writes they precede."""

    scope = "preview"


class PreviewRequestSerializer(serializers.Serializer):
    definition = TextField(trim_whitespace=False, required=False,
                           help_text="YAML, JSON, KPuzzle JSON or ksolve/twsearch, as it would be saved")
    shape = TextField(required=False, max_length=2_000,
                      help_text="instead of a definition: a solid and its cuts or a named shape "
                                "(docs/shapes.md); the answer carries the definition built from it")

    def validate(self, data):
        if ("definition" in data) == ("shape" in data):
            raise serializers.ValidationError({"definition": "give a definition or a shape (not both)"})
        return data


class Preview(APIView):
    """Check a definition without saving it: its facts, a drawing and warnings, or the errors by field."""

    throttle_classes = [PreviewThrottle]

    @extend_schema(request=PreviewRequestSerializer, responses=dict)
    def post(self, request):
        data = validated(PreviewRequestSerializer, request)
        try:
            return Response(preview_shape(data["shape"]) if "shape" in data else preview(data["definition"]))
        except ValidationError as exc:
            return Response(exc.message_dict, status=400)
