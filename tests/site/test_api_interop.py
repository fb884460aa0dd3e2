"""The API takes KPuzzle JSON and ksolve/twsearch files wherever it takes YAML: create, new revision,
preview; a bad file is a 400 naming the definition field, the line or JSON path and the problem."""

import json

import pytest

from solver import api as solver_api
from solver.definition.canonical import content_hash

pytestmark = pytest.mark.django_db


def test_create_revise_and_preview_in_the_other_formats(alice, client_for):
    client = client_for(alice)
    ksolve = solver_api.export_yaml(solver_api.load("pyraminx"), "ksolve")
    response = client.post("/api/repos/", {"name": "pyra", "definition": ksolve}, format="json")
    assert response.status_code == 201, response.content
    head = response.json()["head"]
    assert head["hash"] == content_hash(solver_api.load("pyraminx")) and head["stickers"] == 24
    assert client.get("/api/repos/alice/pyra/revisions/1/").json()["definition"] == ksolve  # as submitted

    kpuzzle = solver_api.export_yaml(solver_api.load("skewb"), "kpuzzle")
    response = client.post("/api/repos/alice/pyra/revisions/", {"definition": kpuzzle, "message": "now a skewb"},
                           format="json")
    assert response.status_code == 201, response.content
    assert response.json()["hash"] == content_hash(solver_api.load("skewb"))

    preview = client.post("/api/preview/", {"definition": ksolve}, format="json")
    assert preview.status_code == 200 and preview.json()["state_count"] == "933,120"


@pytest.mark.parametrize("text, fragment", [
    ("Name x\nSet A 3 2\nSolved\nA\n1 2\nEnd\n", "line 5"),
    (json.dumps({"orbits": [{"orbitName": "A", "numPieces": 2, "numOrientations": 1}],
                 "defaultPattern": {"A": {"pieces": [0, 1]}}, "moves": {"X": {"A": {"permutation": [1, 1]}}}}),
     "moves.X.A.permutation"),
])
def test_bad_files_are_refused_naming_the_place(alice, client_for, text, fragment):
    client = client_for(alice)
    response = client.post("/api/repos/", {"name": "bad", "definition": text}, format="json")
    assert response.status_code == 400
    assert fragment in response.json()["definition"][0]
    preview = client.post("/api/preview/", {"definition": text}, format="json")
    assert preview.status_code == 400 and fragment in json.dumps(preview.json())
    assert client.get("/api/repos/alice/bad/").status_code == 404
