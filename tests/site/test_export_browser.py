"""The catalog's named shapes on the site and the download links, in Chromium: publishing the catalog
publishes the well-known shapes (pyraminx crystal) with their counts and topics; the repository page
offers YAML, KPuzzle JSON and ksolve files that read back as the same puzzle, the revision page does
at 390 px, and a puzzle the other formats cannot hold (the 2x2x2: 24 solved states) says why.
Screenshots: /tmp/shots/shapes2-*.png."""

import pytest
from chromium import browser, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)

from puzzlehub.repos import analysis
from puzzlehub.repos.models import Repository
from puzzlehub.repos.services import CATALOG_OWNER, publish_catalog
from solver import api, catalog

CRYSTAL_STATES = "100,669,616,553,523,347,122,516,032,313,645,505,168,688,116,411,019,768,627,200,000,000,000"


@pytest.mark.django_db(transaction=True)
def test_catalog_shapes_are_published_and_downloaded_in_every_format(live_server, new_page):
    publish_catalog(names=["pyraminx-crystal", "cube2"])
    crystal = Repository.objects.get(owner__username=CATALOG_OWNER, name="pyraminx-crystal")
    assert {"shape", "dodecahedron"} <= {t.name for t in crystal.topics.all()}
    if crystal.head.facts.get("pending"):  # the publishing request ran out of its budget: the worker's part
        analysis.fill_pending(crystal.head.content_hash, api.load_text(crystal.head.definition))
    base = live_server.url
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base}/{CATALOG_OWNER}/pyraminx-crystal/")
    states = page.locator(".facts dt:has-text('States') + dd .number")  # shown short, exact in its title
    assert (states.inner_text(), states.get_attribute("title")) == ("1.01 × 1068", CRYSTAL_STATES)
    assert "Built from the shape" in page.inner_text(".lead")
    links = page.locator(".downloads a")
    assert links.all_inner_texts() == ["YAML", "KPuzzle JSON", "ksolve/twsearch .tws"]
    shot(page, "shapes2-repository-desktop")
    expected = api.content_hash(api.load_data(catalog.build("pyraminx-crystal")))
    for label, suffix in (("KPuzzle JSON", ".kpuzzle.json"), ("ksolve/twsearch .tws", ".tws"), ("YAML", ".yaml")):
        with page.expect_download() as download_info:
            page.click(f".downloads a:has-text('{label}')")
        download = download_info.value
        assert download.suggested_filename == f"pyraminx-crystal-1{suffix}"
        with open(download.path()) as file:
            assert api.content_hash(api.load_text(file.read())) == expected, label

    # the revision page at 390 px: the same links, nothing wider than the screen (the definition
    # scrolls in its box, the hash wraps)
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/{CATALOG_OWNER}/pyraminx-crystal/revisions/1/")
    assert page.locator(".downloads a").count() == 3
    assert page_width(page) <= PHONE["width"]
    shot(page, "shapes2-revision-390")

    # the 2x2x2 has every whole-cube rotation solved: only YAML, and the reason
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base}/{CATALOG_OWNER}/cube2/")
    assert page.locator(".downloads a").all_inner_texts() == ["YAML"]
    assert "several solved states" in page.inner_text(".downloads")
    shot(page, "shapes2-refused-desktop")
    response = page.goto(f"{base}/api/repos/{CATALOG_OWNER}/cube2/export/ksolve/")
    assert response.status == 400 and "one solved state" in page.content()
