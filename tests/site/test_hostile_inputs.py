"""Inputs that used to hurt the site: each is refused with a 400 whose JSON body names the field
(or a page form's 400), or accepted and shown correctly; never a 500."""

import json
import subprocess
import sys

import pytest

from puzzlehub.algorithms.markdown import render

pytestmark = pytest.mark.django_db


def huge_order_definition(n=2000):
    """A transposition and an n-cycle: the symmetric group, whose order n! has 5,736 digits."""
    return (f"format: puzzlehub/1\nname: huge-order\nmoves:\n  - {{name: A, cycles: [[0, 1]]}}\n"
            f"  - {{name: B, cycles: [{list(range(n))}]}}\ngoal: {'W' * (n - 1) + 'R'}\n")


def test_a_group_order_longer_than_str_allows_is_stored_and_shown(alice, client_for, client, settings):
    settings.PUZZLEHUB_ANALYSIS_BUDGET = 120  # about the digits, not the budget: a busy machine may be slow
    response = client_for(alice).post("/api/repos/", {"name": "huge", "definition": huge_order_definition()},
                                      format="json")
    assert response.status_code == 201, response.content[:300]
    revision = client_for(alice).get("/api/repos/alice/huge/revisions/1/").json()
    order = revision["group_order"]
    sys.set_int_max_str_digits(0)
    try:
        import math
        assert order == str(math.factorial(2000))
    finally:
        sys.set_int_max_str_digits(4300)
    page = client.get("/alice/huge/")
    assert page.status_code == 200 and order[:30] in page.content.decode().replace(",", "")


def test_puzzle_info_prints_a_group_order_of_any_length(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text(huge_order_definition())
    text = subprocess.run([sys.executable, "-m", "solver.cli", "info", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert text.returncode == 0, text.stderr[-500:]
    line = next(x for x in text.stdout.splitlines() if x.startswith("group order:"))
    assert len(line.split(":")[1].strip().replace(",", "")) == 5736
    as_json = subprocess.run([sys.executable, "-m", "solver.cli", "info", "--json", str(path)], capture_output=True,
                             text=True, timeout=300)
    assert as_json.returncode == 0, as_json.stderr[-500:]
    sys.set_int_max_str_digits(0)
    try:
        assert len(str(json.loads(as_json.stdout)["group_order"])) == 5736
    finally:
        sys.set_int_max_str_digits(4300)


@pytest.mark.parametrize("field, value", [("scramble", 5), ("scramble", {"R": 1}), ("state", 5),
                                          ("state", "[" * 10_000 + "]" * 10_000)])
def test_a_solve_with_a_value_of_the_wrong_kind_is_refused_naming_it(alice, make_repo, client_for, field, value):
    make_repo(alice, "rings")
    response = client_for(alice).post("/api/repos/alice/rings/solves/", {field: value}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()


@pytest.mark.parametrize("path", ["/api/repos/", "/api/repos/alice/rings/solves/", "/api/repos/alice/rings/pdbs/",
                                  "/api/repos/alice/rings/algorithms/", "/api/users/", "/api/token/"])
def test_json_nested_ten_thousand_deep_is_refused_on_every_endpoint(alice, make_repo, client_for, path):
    make_repo(alice, "rings")
    body = '{"name": ' + "[" * 10_000 + "]" * 10_000 + "}"
    response = client_for(alice).post(path, body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert "nested" in response.json()["detail"]


def test_an_oversize_body_is_answered_in_json_on_the_api(alice, client_for, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client_for(alice).post("/api/repos/", {"name": "big", "definition": "x" * 5000}, format="json")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json" and "exceeded" in response.json()["detail"]


def test_markdown_code_spans_are_escaped_once():
    html = render("`a < b` and `x & y`\n\n```\nif a < b:\n```")
    assert "<code>a &lt; b</code>" in html and "<code>x &amp; y</code>" in html
    assert "&amp;lt;" not in html and "&amp;amp;" not in html
    assert "<script" not in render("<script>alert(1)</script> `<script>`")


def test_a_comment_shows_its_code_span_as_written(alice, make_repo, client_for, client):
    make_repo(alice, "rings")
    algorithm = client_for(alice).post("/api/repos/alice/rings/algorithms/", {"moves": "A B"}, format="json").json()
    client_for(alice).post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": "`a < b`"}, format="json")
    page = client.get(f"/algorithms/{algorithm['id']}/").content.decode()
    assert "<code>a &lt; b</code>" in page and "&amp;lt;" not in page


def long_cycle_definition(n=10_000):
    """Within the documented limits (10,000 stickers, one 10,000-cycle move, ~69 KB): counting its
    states exhaustively takes minutes."""
    return f"format: puzzlehub/1\nname: long-cycle\nmoves:\n  - {{name: B, cycles: [{list(range(n))}]}}\ngoal: {'W' * (n - 1) + 'R'}\n"


def test_an_analysis_over_budget_is_left_to_a_worker_and_shown_when_ready(alice, client_for, client):
    from puzzlehub.repos.models import Revision
    from workers.tasks import analyse_revisions

    response = client_for(alice).post("/api/repos/", {"name": "long", "definition": long_cycle_definition()},
                                      format="json")
    assert response.status_code == 201, response.content[:300]
    head = response.json()["head"]
    assert head["analysis_pending"] is True and head["state_count"] == "" and head["stickers"] == 10_000
    assert "being analysed" in client.get("/alice/long/").content.decode()
    # what the worker does once the revision is stored, shown here on a puzzle it finishes quickly
    revision = Revision.objects.get(repository__name="long")
    small = long_cycle_definition(60)
    Revision.objects.filter(id=revision.id).update(definition=small)
    assert analyse_revisions(revision.content_hash) == 1
    head = client_for(alice).get("/api/repos/alice/long/").json()["head"]
    assert head["analysis_pending"] is False and head["state_count"] == "60"  # the 60 rotations of the red
    assert "being analysed" not in client.get("/alice/long/").content.decode()


def test_an_analysis_within_budget_is_stored_with_the_revision(alice, client_for, two_rings):
    response = client_for(alice).post("/api/repos/", {"name": "rings", "definition": two_rings}, format="json")
    head = response.json()["head"]
    assert head["analysis_pending"] is False and head["state_count"] == "15"


API_MISSES = ["/api/repos/alice/rings/revisions/-1/", "/api/jobs/abc/", "/api/algorithms/-1/", "/api/comments/x/",
              "/api/nonexistent/"]


@pytest.mark.parametrize("debug", [False, True])
def test_an_unmatched_api_route_is_a_json_404(alice, make_repo, debug, settings):
    """In production (the 404 handler) and under `make run` (DEBUG, whose 404 page is HTML) alike;
    a POST too, though an API client sends no CSRF token."""
    from rest_framework.test import APIClient

    make_repo(alice, "rings")
    settings.DEBUG = debug
    client = APIClient(enforce_csrf_checks=True)
    for path in API_MISSES:
        for response in (client.get(path), client.post(path, {"x": 1}, format="json")):
            assert response.status_code == 404, (path, response.status_code)
            assert response["Content-Type"] == "application/json" and "detail" in response.json(), path
    assert client.get("/api/repos").status_code == 301  # a missing slash is still redirected


def test_the_404_handler_answers_json_on_the_api_and_a_page_elsewhere(client):
    from django.test import RequestFactory

    from puzzlehub.web.views import not_found

    api = not_found(RequestFactory().get("/api/repos/alice/rings/"))
    assert api.status_code == 404 and json.loads(api.content)["detail"]
    page = client.get("/no/such/page/here/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("endpoint, body", [("solves", {"scramble": "A"}), ("pdbs", {}), ("sets", {}),
                                            ("discoveries", {}), ("algorithms/find", {"scramble": "A"})])
def test_a_job_for_a_revision_the_repository_lacks_is_a_400_naming_it(alice, bob, make_repo, client_for, endpoint,
                                                                      body):
    """A field of the body, like play's `rev`: the route exists, the value is wrong; nothing is queued."""
    from puzzlehub.jobs.models import Job

    make_repo(alice, "rings")
    response = client_for(bob).post(f"/api/repos/alice/rings/{endpoint}/", {**body, "revision": 99}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert "has no revision 99" in str(response.json()["revision"])
    assert not Job.objects.exists()


def test_play_names_a_missing_rev_the_same_way(alice, make_repo, client):
    make_repo(alice, "rings")
    response = client.get("/api/repos/alice/rings/play/?rev=99")
    assert response.status_code == 400 and "has no revision 99" in str(response.json()["rev"])


@pytest.fixture
def distinct_rings(two_rings_rewritten):
    """The two rings with every sticker told apart: pieces that projections may pick one by one."""
    return two_rings_rewritten.replace("goal: WWWWRR", "goal: ABCDEF")


@pytest.mark.parametrize("projection, words", [
    ([[0, [0, 0], 0, 0, []]], "piece 0 is listed twice"),
    ([[0, [0], 0, 0, []], [0, [1, 0], 0, 0, []]], "piece 0 of orbit 0 is also in part 0"),
    ([[0, [0], "x", 0, []]], "twist must be 0 or 1"),
    ([[0, [0], 0, 2, []]], "merged must be 0 or 1"),
    ([[0, [0], 0.5, 0, []]], "twist must be 0 or 1"),
    ([["0", [0], 0, 0, []]], "orbit must be a whole number"),
    ([[0, [1.5], 0, 0, []]], "pieces must be a list of whole numbers"),
    ([[0, [True], 0, 0, []]], "pieces must be a list of whole numbers"),
    ([[0, [0, 1], 0, 0, [2]]], "free piece 2 is not among the part's pieces"),
    ([[0, [0], 0, 0, [], "extra"]], "not a valid projection part"),
    ([], "a list of parts"),
])
def test_a_malformed_projection_is_refused_naming_the_problem(alice, make_repo, client_for, distinct_rings,
                                                             projection, words):
    """Read strictly, never loosely: a repeated piece or a flag that is not 0/1 is a mistake to
    report, not a table to build; nothing is queued."""
    from puzzlehub.jobs.models import Job

    make_repo(alice, "rings", definition=distinct_rings)
    response = client_for(alice).post("/api/repos/alice/rings/pdbs/", {"projection": projection}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert words in str(response.json()["projection"]), response.json()
    assert not Job.objects.exists()


def test_a_well_formed_projection_is_accepted_with_flags_as_numbers_or_booleans(alice, make_repo, client_for,
                                                                               distinct_rings):
    make_repo(alice, "rings", definition=distinct_rings)
    response = client_for(alice).post("/api/repos/alice/rings/pdbs/", {"projection": [[0, [0, 1], True, False, []]]},
                                      format="json")
    assert response.status_code == 202, response.content[:300]


@pytest.mark.parametrize("max_length, accepted", [(10**30, False), (2**63, False), (50_001, False), (50_000, True)])
def test_a_solves_target_length_is_bounded_by_the_longest_sequence_the_solver_reads(alice, make_repo, client_for,
                                                                                    max_length, accepted):
    """A target past the int64 the compiled searches hold failed the job in the worker; past the
    solver's longest sequence (solver.alg.MAX_MOVES) it means nothing."""
    make_repo(alice, "rings")
    response = client_for(alice).post("/api/repos/alice/rings/solves/", {"scramble": "A", "max_length": max_length},
                                      format="json")
    if accepted:
        assert response.status_code == 202, response.content[:300]
    else:
        assert response.status_code == 400, response.content[:300]
        assert "at most 50,000" in str(response.json()["max_length"])
