"""The pages around the player: the preview of a definition being written (/api/preview/), the
thumbnails on repository cards, and the compare page's revision pickers."""

import importlib
import math
import random
import re

import pytest
from django.apps import apps as django_apps

from puzzlehub.repos.models import Revision
from puzzlehub.repos.services import publish_catalog
from puzzlehub.web.drawing import _closest, thumbnail_svg
from solver import api

pytestmark = pytest.mark.django_db

OVERLAPPING = "cells: [[0, 0], [1, 0], [1, 1], [0, 1], [2, 1], [2, 0]]"


def preview(client, text):
    return client.post("/api/preview/", {"definition": text}, format="json")


def test_preview_reads_the_definition_without_saving_it(client_for, alice, two_rings):
    response = preview(client_for(alice), two_rings)
    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["name"], data["stickers"], data["moves"], data["goals"]) == ("two-rings", 6, 4, 1)
    assert data["content_hash"] == api.content_hash(api.load_text(two_rings))
    assert data["drawing"].count("<circle") == 6 and data["warnings"] == []
    assert not Revision.objects.exists()


def test_preview_errors_name_the_field_and_the_place(client_for, alice, two_rings):
    response = preview(client_for(alice), two_rings.replace("[[2, 3, 4, 5]]", "[[2, 3, 4, 40]]"))
    assert response.status_code == 400
    assert "40" in " ".join(response.json()["definition"])
    assert preview(client_for(alice), "").status_code == 400  # the field is required
    assert preview(client_for(), two_rings).status_code in (401, 403)  # for the logged-in writer only


def test_preview_reports_overlapping_layout_cells(client_for, alice, two_rings):
    text = two_rings.replace(OVERLAPPING, "cells: [[0, 0], [1, 0], [1, 1], [0, 1], [1, 1], [2, 0]]")
    warnings = preview(client_for(alice), text).json()["warnings"]
    assert warnings == ["layout.cells[2] and layout.cells[4] are both drawn at (1, 1)"]


def test_preview_leaves_very_long_texts_to_the_save(client_for, alice, two_rings):
    data = preview(client_for(alice), two_rings + "#" * 250_000).json()
    assert data["too_long"] and "when you save" in data["note"]


def test_cards_show_the_thumbnail_drawn_when_the_revision_was_made(client, alice, bob, make_repo, client_for):
    make_repo(alice, "rings")
    revision = Revision.objects.get()
    assert revision.thumbnail.startswith("<svg") and revision.thumbnail.count("<path") == 2  # white, red
    for path in ["/", "/?q=rings", "/alice/"]:
        assert 'class="card-thumb"' in client.get(path).content.decode(), path
    client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    assert Revision.objects.get(repository__owner=bob).thumbnail == revision.thumbnail


def test_a_3d_thumbnail_draws_the_faces_turned_to_the_viewer():
    svg = thumbnail_svg(api.load("cube3"))
    # three faces of nine stickers each, in three colours: one path per colour
    assert svg.count("<path") == 3 and sum(d.count("Z") for d in re.findall(r' d="([^"]+)"', svg)) == 27


def _closest_by_every_pair(points):
    distances = [math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1:]]
    return min((d for d in distances if d > 0), default=1.0)


@pytest.mark.parametrize("seed", range(40))
def test_a_thumbnail_cell_is_as_wide_as_the_closest_two_stickers_allow(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 80)
    points = [  # scattered, on a grid with repeats, on a ring, in two far clusters
        [(rng.uniform(-5, 5), rng.uniform(-5, 5)) for _ in range(n)],
        [(rng.randint(0, 6), rng.randint(0, 6)) for _ in range(n)],
        [(round(3 * math.cos(2 * math.pi * i / n), 9), round(3 * math.sin(2 * math.pi * i / n), 9)) for i in range(n)],
        [(rng.choice([0, 1e4]), round(rng.uniform(0, 1e-3), 9)) for _ in range(n)],
    ][seed % 4]
    assert _closest(points) == pytest.approx(_closest_by_every_pair(points), abs=1e-8)  # to 9 decimals


def test_the_migration_draws_the_thumbnails_heads_made_before_them_lack(alice, logged_in, make_repo, two_rings):
    backfill = importlib.import_module("puzzlehub.repos.migrations.0005_backfill_thumbnails")
    publish_catalog(names=["cube2"])
    make_repo(alice, "rings")
    logged_in(alice).post("/alice/rings/edit/", {"save_revision": "1", "message": "swap",
                                                 "definition": two_rings.replace("WWWWRR", "WWWRRW")})
    drawn = {r.id: r.thumbnail for r in Revision.objects.all()}
    Revision.objects.update(thumbnail="")
    backfill.draw_missing_thumbnails(django_apps, None)
    old_rings = Revision.objects.get(repository__name="rings", number=1)
    assert old_rings.thumbnail == ""  # only heads are shown on cards
    for revision in Revision.objects.exclude(id=old_rings.id):
        assert revision.thumbnail.startswith("<svg") and revision.thumbnail == drawn[revision.id]


def test_compare_has_revision_pickers(client, logged_in, alice, make_repo, two_rings):
    make_repo(alice, "rings")
    logged_in(alice).post("/alice/rings/edit/", {"save_revision": "1", "message": "swap",
                                                 "definition": two_rings.replace("WWWWRR", "WWWRRW")})
    page = client.get("/alice/rings/compare/alice/rings/?base=1&head=2").content.decode()
    base = re.search(r'<select name="base">(.*?)</select>', page, re.S).group(1)
    head = re.search(r'<select name="head">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'value="(\d+)"', base) == ["2", "1"] and '<option value="1" selected>' in base
    assert '<option value="2" selected>#2 swap</option>' in head
