"""In Chromium, at desktop width and at 390 px: home cards with thumbnails, the new-puzzle preview as
a definition is typed (drawing and facts, then an error under the field, a warning for overlapping
cells, a file opened from disk), the compare page's pickers, and an algorithm shown as written."""

import pytest
from chromium import browser, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)
from test_site_browser import sign_up

from puzzlehub.repos.services import publish_catalog

WIDTHS = {"desktop": 1280, "390": 390}


def narrow(page, name):
    shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    shot(page, f"{name}-390")
    assert page_width(page) <= PHONE["width"], name
    page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.django_db(transaction=True)
def test_home_thumbnails_preview_compare_and_written_algorithms(live_server, new_page, two_rings, tmp_path, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    publish_catalog(names=["cube3", "megaminx", "sliding-4x4", "ball-ring"])
    base = live_server.url
    page = new_page()
    page.goto(base + "/")
    assert page.locator(".card .card-thumb svg.thumbnail").count() == 4
    narrow(page, "home-thumbnails")

    sign_up(page, base, "alice")
    page.goto(base + "/new/")
    page.fill("#id_name", "rings")
    page.fill("#id_definition", two_rings)
    page.wait_for_selector(".preview .preview-drawing svg")
    assert page.locator(".preview .preview-drawing circle").count() == 6
    assert "two-rings" in page.inner_text(".preview-facts")
    narrow(page, "new-preview")

    # an error shows under the definition field, and goes when the text is fixed
    page.fill("#id_definition", two_rings.replace("[[2, 3, 4, 5]]", "[[2, 3, 4, 40]]"))
    page.wait_for_selector(".field.has-error .preview-error:not(:empty)")
    assert "40" in page.inner_text(".preview-error")
    shot(page, "new-preview-error")
    page.fill("#id_definition", two_rings.replace("[0, 1], [2, 1]", "[0, 1], [1, 1]"))
    page.wait_for_selector(".preview .warning")
    assert "both drawn at (1, 1)" in page.inner_text(".preview .warning")
    assert page.inner_text(".preview-error") == ""

    # a file opened from disk fills the field and is previewed
    path = tmp_path / "rings.yaml"
    path.write_text(two_rings.replace("name: two-rings", "name: from-a-file"))
    page.set_input_files("input.preview-file", str(path))
    page.wait_for_function("() => document.querySelector('.preview-facts') && document.querySelector('.preview-facts').innerText.includes('from-a-file')")
    page.click("button:has-text('Create repository')")
    page.wait_for_url(f"{base}/alice/rings/")

    # a second revision, then compare them through the pickers
    page.goto(base + "/alice/rings/edit/")
    page.wait_for_selector(".preview .preview-drawing svg")  # the edit page previews the current text
    page.fill("#id_definition", two_rings.replace("WWWWRR", "WWWRRW"))
    page.fill("#id_message", "move a red sticker")
    page.click("button:has-text('Save revision 2')")
    page.wait_for_url(f"{base}/alice/rings/")
    page.goto(base + "/alice/rings/compare/alice/rings/")
    page.select_option("select[name=base]", "1")
    page.select_option("select[name=head]", "2")
    page.click(".compare-pickers button")
    page.wait_for_url("**?base=1&head=2")
    assert "Different puzzles" in page.inner_text("main")
    narrow(page, "compare-pickers")

    # an algorithm submitted in notation is shown as written, with its expanded moves
    page.goto(base + "/alice/rings/")
    page.fill("#alg-moves", "[A, B]")
    page.click("form.inline-form button:has-text('Submit')")
    page.wait_for_url(f"{base}/algorithms/*/")
    assert page.inner_text("h1.moves") == "[A, B]"
    assert "A B A' B'" in page.inner_text(".moves.expanded")
    narrow(page, "algorithm-written")
    assert page.dialogs == []
