"""The pages in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright): sign up,
publish a puzzle from YAML, fork it, star it, submit an algorithm and comment on it. Screenshots of
the key pages go to /tmp/shots/."""

import pytest
from playwright.sync_api import expect
from chromium import browser, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)


def sign_up(page, base, username):
    page.goto(f"{base}/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password", "a long enough passphrase")
    page.click("button:has-text('Sign up')")
    page.wait_for_url(f"{base}/")
    assert page.locator(f"nav a:has-text('{username}')").count() == 1


@pytest.mark.django_db(transaction=True)
def test_sign_up_publish_fork_star_and_comment(live_server, new_page, two_rings, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    base = live_server.url

    # alice signs up and publishes a puzzle from YAML
    alice = new_page()
    sign_up(alice, base, "alice")
    alice.click("a:has-text('New puzzle')")
    alice.fill("#id_name", "rings")
    alice.fill("#id_description", "Two rings of four sharing two stickers.")
    alice.fill("#id_topics", "ring small")
    alice.fill("#id_definition", two_rings)
    shot(alice, "new-puzzle")
    alice.click("button:has-text('Create repository')")
    alice.wait_for_url(f"{base}/alice/rings/")
    assert alice.locator("svg.puzzle circle").count() == 6  # drawn from the layout, one per sticker
    assert alice.locator(".facts").inner_text().count("6") >= 1
    shot(alice, "repository")

    # a broken definition is refused with the solver's message on the field
    alice.goto(f"{base}/new/")
    alice.fill("#id_name", "broken")
    alice.fill("#id_definition", two_rings.replace("[[2, 3, 4, 5]]", "[[2, 3, 4, 40]]"))
    alice.click("button:has-text('Create repository')")
    alice.wait_for_url(f"{base}/new/")
    # the server's message, or the live preview's that replaces it once the page has loaded
    expect(alice.locator(".field.has-error .error", has_text="40").first).to_be_visible()
    assert alice.goto(f"{base}/alice/broken/").status == 404  # nothing was stored

    # bob signs up, stars and forks it
    bob = new_page()
    sign_up(bob, base, "bob")
    bob.goto(f"{base}/alice/rings/")
    bob.click("button:has-text('Star')")
    assert bob.locator("button[aria-pressed=true]:has-text('Starred')").count() == 1
    bob.click("summary:has-text('Fork')")
    bob.fill("#fork-name", "my-rings")
    bob.click("button:has-text('Create fork')")
    bob.wait_for_url(f"{base}/bob/my-rings/")
    assert "forked from" in bob.locator(".repo-header").inner_text()
    assert bob.locator("svg.puzzle circle").count() == 6

    # bob submits an algorithm on alice's puzzle and comments on it, with hostile markup too
    bob.goto(f"{base}/alice/rings/")
    bob.fill("#alg-moves", "A B A' B'")
    bob.fill("input[name=title]", "ring commutator")
    bob.click("form.inline-form button:has-text('Submit')")
    bob.wait_for_url(f"{base}/algorithms/*/")
    assert bob.locator("h1.moves").inner_text() == "A B A' B'"
    assert bob.locator(".before-after svg.puzzle").count() == 2
    bob.fill("#id_body", "Works **well**. <script>alert('xss')</script> <img src=x onerror=alert(1)>")
    bob.click("button:has-text('Comment')")
    body = bob.locator(".comment-body").first
    assert body.locator("strong").inner_text() == "well"
    assert body.locator("script, img").count() == 0
    bob.click("button:has-text('Up')")
    assert bob.locator("#score").inner_text() == "1"
    shot(bob, "algorithm")

    # alice sees the star, the fork, and replies to the comment
    alice.goto(f"{base}/alice/rings/")
    assert "1" in alice.locator("button:has-text('Star')").inner_text()
    assert alice.locator("a:has-text('bob/my-rings')").count() == 1
    alice.click("a.moves")
    alice.click("details.reply summary")
    alice.fill("details.reply textarea", "Thanks, bob!")
    alice.click("details.reply button:has-text('Reply')")
    assert alice.locator(".replies .comment-body").inner_text().strip() == "Thanks, bob!"

    # the compare page between the fork and its parent
    bob.goto(f"{base}/bob/my-rings/")
    bob.click("a:has-text('Compare with the parent')")
    assert "The same puzzle" in bob.locator("main").inner_text()
    shot(bob, "compare")

    assert alice.dialogs == [] and bob.dialogs == []


@pytest.mark.django_db(transaction=True)
def test_pages_read_without_javascript(live_server, browser, make_user, make_repo):
    make_repo(make_user("carol"), "rings", description="readable without scripts")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    for path in ["/", "/carol/", "/carol/rings/", "/carol/rings/revisions/1/", "/?q=rings"]:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
    page.goto(live_server.url + "/carol/rings/")
    assert page.locator("svg.puzzle").count() == 1
    page.goto(live_server.url + "/")
    shot(page, "home")
    assert page.locator("a:has-text('rings')").count() >= 1
    assert page.locator("input[type=search]").count() == 1  # the home page has one search box
    page.goto(live_server.url + "/carol/rings/")
    page.set_viewport_size(PHONE)
    assert page.locator("header input[type=search]").is_visible()  # on a phone too, on its own row
    assert page_width(page) <= PHONE["width"]
    shot(page, "repository-390")
    page.goto(live_server.url + "/")
    shot(page, "home-390")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_fork_of_a_hidden_parent_and_pending_counts_in_chromium(live_server, browser, make_user, make_repo,
                                                                   client_for, settings):
    """What a reader sees of a fork whose parent became private, and of a revision whose counts a
    worker has yet to compute, at desktop width and at 390 px."""
    settings.PUZZLEHUB_ANALYSIS_BUDGET = 0  # the counts are left to a worker...
    settings.PUZZLEHUB_ANALYSIS_QUEUE = "unserved"  # ...that never comes (the job tests' may still run)
    alice, bob = make_user("alice"), make_user("bob")
    make_repo(alice, "rings")
    client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    client_for(alice).patch("/api/repos/alice/rings/", {"visibility": "private", "name": "renamed"}, format="json")
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(live_server.url + "/bob/rings/")
        header = page.locator(".repo-header").inner_text()
        assert "forked from a repository you cannot see" in " ".join(header.split())
        assert "renamed" not in page.content() and "alice/rings" not in page.content()
        assert page.locator("text=Compare with the parent").count() == 0
        shot(page, f"fork-hidden-parent-{width}")
        context.close()
    make_repo(bob, "pending")
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/bob/pending/")
    assert page.locator("text=being analysed").count() == 1
    shot(page, "analysis-pending-390")
    context.close()
