"""The layout in a real Chromium at 1280 and 390 px wide, measured rather than looked at: text that can
be read against its field, menus and pages that stay inside the viewport, diffs and numbers that
keep one line each. Screenshots go to /tmp/shots/ for the eye."""

import re

import pytest
from chromium import SHOTS, browser, page_width, shot  # noqa: F401  (fixtures)
from django.conf import settings
from django.test import Client

from puzzlehub.repos.models import Repository
from puzzlehub.repos.services import publish_catalog
from solver import numbers

WIDTHS = (1280, 390)


def open_page(browser, width, base, user=None):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(30_000)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                              "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": base}])
    return page


def contrast(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of two computed colours ('rgb(r, g, b)')."""
    def luminance(colour):
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted([luminance(foreground), luminance(background)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.django_db(transaction=True)
def test_the_header_search_shows_the_typed_text(live_server, browser, make_user, make_repo):
    make_repo(make_user("carol"), "rings")
    for width in WIDTHS:
        page = open_page(browser, width, live_server.url)
        page.goto(live_server.url + "/carol/rings/")
        field = page.locator("header input[type=search]")
        field.fill("sliding")
        colour, background = field.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert contrast(colour, background) >= 4.5, (width, colour, background)
        shot(page, f"layout-search-{width}")
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_fork_menu_stays_on_the_screen(live_server, browser, make_user, make_repo):
    make_repo(make_user("carol"), "rings")
    dave = make_user("dave")
    for width in WIDTHS:
        page = open_page(browser, width, live_server.url, dave)
        page.goto(live_server.url + "/carol/rings/")
        page.click("summary:has-text('Fork')")
        for part in [".dropdown-body", "#fork-name", "button:has-text('Create fork')"]:
            box = page.locator(part).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, part, box)
        assert page_width(page) <= width
        shot(page, f"layout-fork-menu-{width}")
        page.context.close()


def number_height(page, label: str) -> float:
    """How tall the Facts box's number after `label` is drawn, in lines of its text."""
    return page.evaluate("""label => {
        const dt = [...document.querySelectorAll('.facts dt')].find(e => e.textContent.trim() === label);
        const number = dt.nextElementSibling.firstChild;  // the number, before any "(bound)"
        const range = document.createRange();
        range.selectNode(number);
        return range.getBoundingClientRect().height / parseFloat(getComputedStyle(dt.nextElementSibling).lineHeight);
    }""", label)


@pytest.mark.django_db(transaction=True)
def test_a_count_keeps_to_one_line(live_server, browser):
    publish_catalog(names=["cube3"])
    for width in WIDTHS:
        page = open_page(browser, width, live_server.url)
        page.goto(live_server.url + "/puzzlehub/cube3/")
        for label in ["States", "Group order"]:
            assert number_height(page, label) < 1.5, (width, label)
        shot(page, f"layout-cube3-{width}")
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_puzzle_with_a_hundred_moves_and_a_huge_count_fits_the_screen(live_server, browser, settings):
    settings.PUZZLEHUB_ANALYSIS_BUDGET = 600  # globe-33x25's counts take a minute: wait for them here
    publish_catalog(names=["globe-33x25"])
    for width in WIDTHS:
        page = open_page(browser, width, live_server.url)
        page.goto(live_server.url + "/puzzlehub/globe-33x25/")
        page.wait_for_selector(".player-buttons .move")
        assert page.locator(".player-buttons .move").count() == 116
        assert page_width(page) <= width
        box = page.locator(".box.drawing").bounding_box()
        last = page.locator(".player-buttons .move").last.bounding_box()
        assert last["x"] + last["width"] <= box["x"] + box["width"]  # the buttons wrap inside the box
        for label in ["States", "Group order"]:
            assert number_height(page, label) < 1.5, (width, label)
        shot(page, f"layout-globe-33x25-{width}")
        page.context.close()

    # the States shown short, the exact value in its title and behind a tap where there is no hover
    page = open_page(browser, 390, live_server.url)
    page.goto(live_server.url + "/puzzlehub/globe-33x25/")
    states = page.locator(".facts dt:has-text('States') + dd")
    shown = states.locator(".number").inner_text()
    assert re.fullmatch(r"\d\.\d\d × 10\d+", shown), shown
    exact = Repository.objects.get(name="globe-33x25").head.state_count
    assert len(exact) > 1000 and shown.startswith(f"{exact[0]}.") and shown.endswith(f"10{len(exact) - 1}")
    assert states.locator(".number").get_attribute("title") == numbers.grouped(exact)
    states.locator("summary").click()
    assert states.locator("details").inner_text().split()[-1] == numbers.grouped(exact)
    assert page_width(page) <= 390  # the exact digits wrap between their groups
    shot(page, "layout-globe-33x25-exact-390")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_compare_page_diff_is_single_spaced(live_server, browser, make_user, make_repo, client_for, two_rings):
    carol, dave = make_user("carol"), make_user("dave")
    make_repo(carol, "rings")
    client_for(dave).post("/api/repos/carol/rings/fork/", {}, format="json")
    grown = two_rings.replace("moves:\n", "moves:\n  - name: C\n    cycles: [[0, 5]]\n")
    response = client_for(dave).post("/api/repos/dave/rings/revisions/", {"definition": grown, "message": "C"},
                                     format="json")
    assert response.status_code == 201, response.content
    for width in WIDTHS:
        page = open_page(browser, width, live_server.url)
        page.goto(live_server.url + "/carol/rings/compare/dave/rings/")
        diff = page.locator("pre.diff")
        lines = diff.locator("span")
        assert lines.count() > 5
        assert diff.inner_text().strip("\n").count("\n") + 1 == lines.count()  # none blank, also when copied
        tops = lines.evaluate_all("spans => spans.map(s => s.getBoundingClientRect().top)")
        line_height = float(diff.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
        assert all(abs(b - a - line_height) < 1 for a, b in zip(tops, tops[1:])), (line_height, tops)
        shot(page, f"layout-compare-{width}")
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_algorithm_form_gives_the_moves_room(live_server, browser, make_user, make_repo):
    carol = make_user("carol")
    make_repo(carol, "rings")
    for width in WIDTHS:
        page = open_page(browser, width, live_server.url, carol)
        page.goto(live_server.url + "/carol/rings/")
        form = page.locator("form.inline-form").bounding_box()
        moves = page.locator("#alg-moves").bounding_box()
        assert moves["width"] >= form["width"] / 2, (width, moves, form)
        assert page_width(page) <= width
        page.locator("form.inline-form").screenshot(path=SHOTS / f"layout-algorithm-form-{width}.png")
        page.context.close()
