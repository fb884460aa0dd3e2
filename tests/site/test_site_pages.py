"""Server-rendered pages through Django's test client: who may see and change what, forms that
report the solver's errors, and the SVG drawing."""

import re

import pytest
from django.core.management import call_command

from puzzlehub.repos.models import Repository
from puzzlehub.web.drawing import colour_map, puzzle_svg
from solver import api

pytestmark = pytest.mark.django_db


def test_public_pages_render_for_anonymous_readers(client, alice, make_repo):
    make_repo(alice, "rings", description="two rings", topics=["ring"])
    for path in ["/", "/?q=ring", "/alice/", "/alice/rings/", "/alice/rings/revisions/", "/alice/rings/revisions/1/",
                 "/alice/rings/compare/alice/rings/", "/signup/", "/login/", "/api/docs/"]:
        assert client.get(path).status_code == 200, path
    page = client.get("/alice/rings/").content.decode()
    assert "two rings" in page and "<svg" in page
    assert client.get("/?q=ring").content.decode().count("alice") >= 1


def test_private_repository_pages_are_404_for_others(client, logged_in, alice, bob, make_repo):
    make_repo(alice, "secret", visibility="private")
    for path in ["/alice/secret/", "/alice/secret/revisions/1/", "/alice/secret/edit/"]:
        assert client.get(path).status_code in (302, 404), path  # anonymous: log in first, or not found
    browser = logged_in(bob)
    for path in ["/alice/secret/", "/alice/secret/revisions/", "/alice/secret/revisions/1/", "/alice/secret/edit/"]:
        assert browser.get(path).status_code == 404, path
    assert "secret" not in browser.get("/alice/").content.decode()
    assert logged_in(alice).get("/alice/secret/").status_code == 200


def test_only_the_owner_edits_and_deletion_needs_confirmation(logged_in, alice, bob, make_repo, two_rings):
    make_repo(alice, "rings")
    assert logged_in(bob).get("/alice/rings/edit/").status_code == 403
    assert logged_in(bob).post("/alice/rings/delete/", {"confirm": "rings"}).status_code == 403

    owner = logged_in(alice)
    assert owner.get("/alice/rings/edit/").status_code == 200
    owner.post("/alice/rings/delete/", {"confirm": "wrong"})
    assert Repository.objects.filter(name="rings").exists()
    owner.post("/alice/rings/delete/", {"confirm": "rings"})
    assert not Repository.objects.filter(name="rings").exists()


def test_new_revision_form_shows_the_solvers_error(logged_in, alice, make_repo, two_rings):
    make_repo(alice, "rings")
    owner = logged_in(alice)
    bad = owner.post("/alice/rings/edit/", {"save_revision": "1", "definition": two_rings.replace("WWWWRR", "WWWWR")})
    assert bad.status_code == 400  # refused, like the API
    assert "goal" in bad.context["revision_form"].errors["definition"][0]
    good = owner.post("/alice/rings/edit/", {"save_revision": "1", "message": "recolour",
                                              "definition": two_rings.replace("WWWWRR", "WWWRRR")})
    assert good.status_code == 302
    assert Repository.objects.get(name="rings").head.number == 2


def test_settings_shows_and_regenerates_the_api_token(logged_in, alice):
    page = logged_in(alice)
    first = re.search(r"Token ([0-9a-f]{40})", page.get("/settings/").content.decode()).group(1)
    page.post("/settings/", {"regenerate_token": "1"})
    second = re.search(r"Token ([0-9a-f]{40})", page.get("/settings/").content.decode()).group(1)
    assert first != second


def test_sign_up_form_reports_a_taken_username(client, alice):
    response = client.post("/signup/", {"username": "Alice", "password": "a long enough passphrase"})
    assert response.status_code == 400
    assert "taken" in response.context["form"].errors["username"][0]


def test_drawing_has_one_shape_per_drawn_sticker_in_the_state_colours(two_rings):
    defn = api.load_text(two_rings)
    svg = str(puzzle_svg(defn))
    assert svg.count("<circle") == 6  # the layout's shape
    fills = re.findall(r'<circle [^>]*fill="(#[0-9a-f]+)"', svg)
    assert fills == ["#f4f4f4"] * 4 + ["#d01010"] * 2  # the definition's own hex colours, goal order
    after = str(puzzle_svg(defn, api.apply_moves(defn, ["B"])))
    moved = re.findall(r'<circle [^>]*fill="(#[0-9a-f]+)"', after)
    state = api.apply_moves(defn, ["B"])
    assert moved == [colour_map(defn)[c] for c in state]


def test_drawing_without_layout_is_a_grid_and_escapes_colour_names(ball_ring):
    defn = api.load_text(ball_ring)
    svg = str(puzzle_svg(defn))
    assert svg.count("<rect") == 32
    odd = api.load_text("format: puzzlehub/1\nname: odd\nmoves:\n  - {name: S, cycles: [[0, 1]]}\n"
                        "goal: ['<b>', '&x']\n")
    text = str(puzzle_svg(odd))
    assert "<b>" not in text and "&lt;b&gt;" in text


def test_publish_catalog_is_idempotent(client):
    call_command("publish_catalog", "floppy", "ball-ring")
    floppy = Repository.objects.get(owner__username="puzzlehub", name="floppy")
    assert floppy.is_public and floppy.head.number == 1
    assert floppy.head.content_hash == api.content_hash(api.load("floppy"))
    call_command("publish_catalog", "floppy", "ball-ring")
    assert Repository.objects.filter(owner__username="puzzlehub").count() == 2
    assert Repository.objects.get(owner__username="puzzlehub", name="floppy").head.number == 1
    assert client.get("/puzzlehub/floppy/").status_code == 200


def test_discover_button_queues_a_discovery_job(logged_in, client, alice, bob, make_repo):
    from puzzlehub.jobs.models import Job

    make_repo(alice, "rings")
    assert client.post("/alice/rings/discover/").status_code == 302  # anonymous: to the log-in page
    assert not Job.objects.exists()
    response = logged_in(bob).post("/alice/rings/discover/")
    job = Job.objects.get()
    assert job.kind == Job.DISCOVER and job.repository.full_name == "alice/rings"
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.id}/"
    page = logged_in(bob).get("/alice/rings/").content.decode()
    assert "Solve a state" in page and "Discover algorithms" in page


def test_tile_puzzles_show_each_tile_symbol_and_sticker_puzzles_do_not():
    from solver import catalog

    sliding = api.load_data(catalog.build("sliding-3x3"))
    scrambled = api.apply_moves(sliding, ["L", "U"])
    svg = str(puzzle_svg(sliding, scrambled))
    assert svg.count("<text") == 8  # the blank is an empty cell, without a label
    assert svg.count('fill="none"') == 1
    # The labels follow the state, not the goal: tile order as drawn is the scrambled order.
    drawn = [chunk.split(">", 1)[1].split("<", 1)[0] for chunk in svg.split("<text")[1:]]
    tiles = [t for t in scrambled if t != "0"]
    assert drawn == tiles and drawn != [t for t in sliding.goal if t != "0"]
    assert "<text" not in str(puzzle_svg(api.load_data(catalog.build("cube2"))))
