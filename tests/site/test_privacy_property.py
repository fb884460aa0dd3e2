"""The privacy invariant as a property: for any two users and any sequence of create, fork, rename,
make-private, make-public, delete and submit-an-algorithm operations, no API list or page shows one
user (or an anonymous reader) the other's private content: names, descriptions or algorithms."""

import itertools

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlehub.algorithms.models import Algorithm
from puzzlehub.repos.models import Repository

pytestmark = pytest.mark.django_db

SEQUENCES = ["A B", "B A", "A B'", "A' B", "A A B", "B B A", "A B A", "B A B"]

operation = st.tuples(
    st.sampled_from(["alice", "bob"]),
    st.sampled_from(["create", "create-private", "fork", "rename", "private", "public", "delete", "algorithm"]),
    st.integers(0, 20),
)


class World:
    """The operations done through the API, and what the model says each reader may not see."""

    def __init__(self, users, client_for, two_rings):
        self.users, self.client_for, self.definition = users, client_for, two_rings
        self.repos = []  # {"owner", "name", "private", "alive", "marker", "algorithms"}
        self.numbers = itertools.count(1)

    def api(self, actor):
        return self.client_for(self.users[actor])

    def url(self, repo):
        return f"/api/repos/{repo['owner']}/{repo['name']}/"

    def visible_to(self, actor, repo):
        return repo["alive"] and (not repo["private"] or repo["owner"] == actor)

    def _new(self, actor, private, response):
        assert response.status_code == 201, response.content
        repo = {"owner": actor, "name": response.json()["name"], "private": private, "alive": True,
                "marker": f"marker{next(self.numbers)}x", "algorithms": []}
        self.api(actor).patch(self.url(repo), {"description": repo["marker"]}, format="json")
        self.repos.append(repo)

    def do(self, actor, kind, index):
        client = self.api(actor)
        own = [r for r in self.repos if r["alive"] and r["owner"] == actor]
        seen = [r for r in self.repos if self.visible_to(actor, r)]
        if kind.startswith("create"):
            private = kind == "create-private"
            body = {"name": f"r{next(self.numbers)}z", "definition": self.definition,
                    "visibility": "private" if private else "public"}
            self._new(actor, private, client.post("/api/repos/", body, format="json"))
        elif kind == "fork" and seen:
            parent = seen[index % len(seen)]
            response = client.post(self.url(parent) + "fork/", {"name": f"r{next(self.numbers)}z"}, format="json")
            self._new(actor, parent["private"], response)
        elif kind == "algorithm" and seen:
            repo = seen[index % len(seen)]
            response = client.post(self.url(repo) + "algorithms/", {"moves": SEQUENCES[index % len(SEQUENCES)]},
                                   format="json")
            assert response.status_code in (201, 400), response.content
            if response.status_code == 201:
                repo["algorithms"].append(response.json()["id"])
        elif own and kind in ("rename", "private", "public", "delete"):
            repo = own[index % len(own)]
            if kind == "delete":
                assert client.delete(self.url(repo)).status_code == 204
                repo["alive"] = False
                return
            change = ({"name": f"r{next(self.numbers)}z"} if kind == "rename"
                      else {"visibility": kind})
            assert client.patch(self.url(repo), change, format="json").status_code == 200
            repo["name"] = change.get("name", repo["name"])
            repo["private"] = change.get("visibility", "private" if repo["private"] else "public") == "private"

    def secrets_for(self, reader):
        """Private content of others: repositories private now, or private when deleted."""
        hidden = [r for r in self.repos if r["owner"] != reader and r["private"]]
        words = {f"{r['owner']}/{r['name']}" for r in hidden} | {r["marker"] for r in hidden}
        return words, {a for r in hidden for a in r["algorithms"]}


def _texts_and_algorithms(world, reader, user):
    api = world.client_for(user)
    browser = Client()
    if user is not None:
        browser.force_login(user)
    texts, algorithms = [], set()
    for path in ("/api/repos/?page_size=100", "/api/repos/?q=r&page_size=100", "/api/repos/?owner=alice",
                 "/api/repos/?owner=bob"):
        texts.append(api.get(path).content.decode())
    for path in ("/", "/?q=r", "/alice/", "/bob/"):
        texts.append(browser.get(path).content.decode())
    for repo in world.repos:
        if not world.visible_to(reader, repo):
            continue
        base = world.url(repo)
        for path in (base, base + "forks/", base + "pdbs/"):
            texts.append(api.get(path).content.decode())
        listed = api.get(base + "algorithms/?page_size=100").json()["results"]
        algorithms |= {a["id"] for a in listed}
        texts.append(browser.get(f"/{repo['owner']}/{repo['name']}/").content.decode())
        texts.append(browser.get(f"/{repo['owner']}/{repo['name']}/revisions/").content.decode())
    return "\n".join(texts), algorithms


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(operations=st.lists(operation, min_size=1, max_size=8))
def test_no_list_or_page_shows_another_users_private_content(operations, alice, bob, client_for, two_rings,
                                                              settings):
    settings.PUZZLEHUB_WRITE_RATE = "100000/min"
    world = World({"alice": alice, "bob": bob}, client_for, two_rings)
    try:
        for actor, kind, index in operations:
            world.do(actor, kind, index)
        for reader, user in (("alice", alice), ("bob", bob), (None, None)):
            words, secret_algorithms = world.secrets_for(reader)
            text, algorithms = _texts_and_algorithms(world, reader, user)
            leaked = sorted(w for w in words if w in text)
            assert not leaked, f"{reader} sees {leaked} after {operations}"
            assert not algorithms & secret_algorithms, f"{reader} sees algorithms of private repositories"
            for algorithm_id in secret_algorithms:
                assert world.client_for(user).get(f"/api/algorithms/{algorithm_id}/").status_code == 404
    finally:  # each example starts from nothing
        Algorithm.objects.all().delete()
        Repository.objects.all().delete()
