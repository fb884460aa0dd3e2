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


# -- export -------------------------------------------------------------------------------------


def test_a_revision_is_exported_in_every_format_and_reads_back_as_the_same_puzzle(alice, bob, client_for, make_repo):
    cube3 = solver_api.export_yaml(solver_api.load("cube3"))
    make_repo(alice, "three", definition=cube3)
    client = client_for(alice)
    client.post("/api/repos/alice/three/revisions/", {"definition": solver_api.export_yaml(solver_api.load("skewb"))},
                format="json")
    anonymous = client_for()
    for fmt, suffix, kind in (("kpuzzle", ".kpuzzle.json", "application/json"), ("ksolve", ".tws", "text/plain"),
                              ("native", ".yaml", "application/yaml")):
        first = anonymous.get(f"/api/repos/alice/three/revisions/1/export/{fmt}/")
        assert first.status_code == 200, first.content
        assert first["Content-Type"].startswith(kind)
        assert first["Content-Disposition"] == f'attachment; filename="three-1{suffix}"'
        assert content_hash(solver_api.load_text(first.content.decode())) == content_hash(solver_api.load("cube3"))
        head = anonymous.get(f"/api/repos/alice/three/export/{fmt}/")  # the head: revision 2
        assert head["Content-Disposition"] == f'attachment; filename="three-2{suffix}"'
        assert content_hash(solver_api.load_text(head.content.decode())) == content_hash(solver_api.load("skewb"))
    # a file downloaded from one repository is a definition another takes as it is
    ksolve = anonymous.get("/api/repos/alice/three/export/ksolve/").content.decode()
    assert client_for(bob).post("/api/repos/", {"name": "from-alice", "definition": ksolve},
                                format="json").status_code == 201


def test_what_a_format_cannot_hold_is_a_400_naming_format(alice, client_for, make_repo):
    make_repo(alice, "pocket", definition=solver_api.export_yaml(solver_api.load("cube2")))  # 24 solved states
    make_repo(alice, "eight", definition=solver_api.export_yaml(solver_api.load("sliding-3x3")))  # guarded moves
    client = client_for(alice)
    for name, reason in (("pocket", "one solved state; this puzzle has 24"), ("eight", "no guarded moves")):
        for fmt in ("kpuzzle", "ksolve"):
            response = client.get(f"/api/repos/alice/{name}/export/{fmt}/")
            assert response.status_code == 400 and reason in response.json()["format"][0], response.content
        assert client.get(f"/api/repos/alice/{name}/export/native/").status_code == 200
    unknown = client.get("/api/repos/alice/pocket/export/stl/")
    assert unknown.status_code == 400 and "formats: native, kpuzzle, ksolve" in unknown.json()["format"][0]
    assert client.get("/api/repos/alice/pocket/revisions/9/export/native/").status_code == 404


def test_a_private_repository_is_exported_to_its_owner_only(alice, bob, client_for, make_repo):
    make_repo(alice, "secret", definition=solver_api.export_yaml(solver_api.load("pyraminx")), visibility="private")
    assert client_for(alice).get("/api/repos/alice/secret/export/kpuzzle/").status_code == 200
    for outsider in (client_for(bob), client_for()):
        for url in ("/api/repos/alice/secret/export/kpuzzle/", "/api/repos/alice/secret/revisions/1/export/native/"):
            assert outsider.get(url).status_code == 404


def test_the_pages_offer_the_formats_the_puzzle_fits(alice, client, make_repo):
    make_repo(alice, "three", definition=solver_api.export_yaml(solver_api.load("cube3")))
    make_repo(alice, "pocket", definition=solver_api.export_yaml(solver_api.load("cube2")))
    for page in ("/alice/three/", "/alice/three/revisions/1/"):
        html = client.get(page).content.decode()
        for fmt in ("native", "kpuzzle", "ksolve"):
            assert f'href="/api/repos/alice/three/revisions/1/export/{fmt}/"' in html, page
    html = client.get("/alice/pocket/").content.decode()
    assert 'export/native/"' in html and 'export/kpuzzle/"' not in html
    assert "several solved states" in html


def test_the_page_forms_take_the_other_formats(alice, logged_in):
    client = logged_in(alice)
    kpuzzle = solver_api.export_yaml(solver_api.load("skewb"), "kpuzzle")
    response = client.post("/new/", {"name": "sk", "visibility": "public", "definition": kpuzzle})
    assert response.status_code == 302, response.content.decode()[-2000:]
    ksolve = solver_api.export_yaml(solver_api.load("pyraminx"), "ksolve")
    response = client.post("/alice/sk/edit/", {"save_revision": "1", "definition": ksolve, "message": "a pyraminx"})
    assert response.status_code == 302
    revisions = client.get("/api/repos/alice/sk/revisions/").json()["results"]
    assert [r["hash"] for r in revisions] == [content_hash(solver_api.load(n)) for n in ("pyraminx", "skewb")]
    bad = client.post("/alice/sk/edit/", {"save_revision": "1", "definition": "Name x\nSet A 3 2\nSolved\nA\n1 2\nEnd\n"})
    assert bad.status_code == 400 and "line 5: Solved, set A has 2 numbers, expected 3" in bad.content.decode()
