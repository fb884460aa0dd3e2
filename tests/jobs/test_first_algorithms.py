"""A puzzle's first algorithms: a new public puzzle and every catalog puzzle get a discovery run
whose results are stored with the job as their source, one effect class at a time (issue 15)."""

import pytest
from django.core.management import call_command

from puzzlehub.algorithms.models import Algorithm
from puzzlehub.jobs import services
from puzzlehub.jobs.models import Job
from puzzlehub.repos.models import Repository
from puzzlehub.repos.services import CATALOG_OWNER
from solver import api as solver_api

from jobwaits import finished, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def floppy_text():
    return solver_api.export_yaml(solver_api.load("floppy"))


def _discoveries(content_hash):
    return Job.objects.filter(kind=Job.DISCOVER, content_hash=content_hash)


def test_a_new_public_puzzle_gets_algorithms_stored_by_effect_class(worker, settings, alice, make_repo, floppy_text):
    settings.DISCOVER_NEW_PUZZLES = True
    repo = make_repo(alice, "flop", definition=floppy_text)
    job = finished(wait_for(lambda: _discoveries(repo.head.content_hash).first()).id, timeout=180)
    assert job.status == Job.SUCCEEDED, job.error
    assert job.user == alice  # it ran within the owner's quota, as the owner's job
    stored = list(Algorithm.objects.filter(content_hash=repo.head.content_hash))
    assert len(stored) >= 20 and {a.job_id for a in stored} == {job.id}
    defn = solver_api.load("floppy")
    for algorithm in stored:  # every stored algorithm replays to its recorded effect
        assert solver_api.effect(defn, algorithm.moves)["effect_key"] == algorithm.effect_key
        assert solver_api.apply_moves(defn, algorithm.moves.split()) != defn.goal
    best = {}
    for algorithm in stored:
        best[algorithm.effect_key] = min(best.get(algorithm.effect_key, 99), algorithm.length)

    # a second run adds only classes that are new or sequences shorter than a class's best
    again = finished(services.submit_discovery(user=alice, repository=repo, time_limit=20).id, timeout=180)
    assert again.status == Job.SUCCEEDED, again.error
    for algorithm in Algorithm.objects.filter(job=again):
        assert algorithm.effect_key not in best or algorithm.length < best[algorithm.effect_key]
    assert again.result["already_known"] > 0

    # the same puzzle published again has algorithms already: no second run for it
    make_repo(alice, "flop2", definition=floppy_text)
    assert _discoveries(repo.head.content_hash).count() == 2


def test_private_puzzles_and_full_quotas_get_no_discovery(settings, alice, make_repo, floppy_text):
    settings.DISCOVER_NEW_PUZZLES = True
    private = make_repo(alice, "secret", definition=floppy_text, visibility=Repository.PRIVATE)
    assert not _discoveries(private.head.content_hash).exists()
    settings.JOB_QUOTA = 0
    public = make_repo(alice, "open", definition=floppy_text)
    assert not _discoveries(public.head.content_hash).exists()


# in a transaction never committed: the jobs stay rows, and no message reaches a worker that
# earlier tests of the session left running (it would run them while the tables are flushed)
@pytest.mark.django_db
def test_publish_catalog_queues_one_discovery_per_catalog_puzzle_outside_quotas(settings):
    settings.JOB_QUOTA = 1
    call_command("publish_catalog", "floppy", "pyraminx", "skewb")
    queued = Job.objects.filter(kind=Job.DISCOVER, user__username=CATALOG_OWNER)
    runs = queued.exclude(options__has_key="sets")
    assert sorted(j.repository.name for j in runs) == ["floppy", "pyraminx", "skewb"]
    assert all(j.time_limit == settings.CATALOG_DISCOVERY_SECONDS for j in runs)
    builds = queued.filter(options__has_key="sets")  # and one set build each, after its discovery
    assert sorted(j.repository.name for j in builds) == ["floppy", "pyraminx", "skewb"]
    assert all(j.time_limit == settings.CATALOG_SETS_SECONDS for j in builds)
    call_command("publish_catalog", "floppy", "pyraminx", "skewb")  # idempotent
    assert queued.count() == 6


@pytest.mark.django_db  # the jobs stay rows, as above
def test_publish_catalog_queues_the_featured_puzzles_first(settings):
    # loopover-2x2 is smaller than both, yet waits: floppy and pyraminx are what people come for
    call_command("publish_catalog", "loopover-2x2", "floppy", "pyraminx")
    queued = Job.objects.filter(kind=Job.DISCOVER, user__username=CATALOG_OWNER).order_by("id")
    order = [(j.repository.name, "sets" in j.options) for j in queued]
    assert order == [("floppy", False), ("pyraminx", False), ("floppy", True), ("pyraminx", True),
                     ("loopover-2x2", False), ("loopover-2x2", True)]


def test_a_set_build_records_every_case_with_algorithms_that_replay(worker, alice, make_repo, client_for):
    from puzzlehub.algorithms.models import AlgorithmSet
    defn = solver_api.load("cube2")
    repo = make_repo(alice, "pocket", definition=solver_api.export_yaml(defn))
    job = finished(services.submit_sets(user=alice, repository=repo, moves=["U"], time_limit=300).id, timeout=600)
    assert job.status == Job.SUCCEEDED, job.error
    sets = {s.kind: s for s in AlgorithmSet.objects.filter(content_hash=repo.head.content_hash)}
    assert sets["orient"].cases.count() == 7 and sets["full"].cases.count() == 42
    for algorithm_set in sets.values():
        assert algorithm_set.job_id == job.id
        goals = {solver_api.apply_moves(defn, ["U"] * k, g) for k in range(4) for g in defn.goals}
        for case in algorithm_set.cases.all():
            assert case.algorithms.exists(), f"{algorithm_set.name} case {case.number} has no algorithm"
            for algorithm in case.algorithms.all():  # it solves the case (after some turn of the layer)
                assert solver_api.effect(defn, algorithm.moves)["effect_key"] == algorithm.effect_key
                ends = [solver_api.apply_moves(defn, algorithm.moves.split(), solver_api.apply_moves(defn, ["U"] * k, case.state))
                        for k in range(4)]
                assert any(all(c in ("?", g[x]) for x, c in enumerate(end)) for end in ends for g in goals)
    summary = {s["name"]: s for s in job.result["sets"]}
    assert summary["U layer: orient"]["solved"] == 7


def test_the_catalogs_runs_wait_on_the_backfill_queue_while_a_users_puzzle_gets_its_run(
        worker, broker, settings, alice, make_repo):
    """On a fresh install publish_catalog queues hours of discovery runs and set builds: they go to
    the backfill queue (its own worker, below the others), and a user's new puzzle is served at once
    by the workers of the users' queues, which never see them, the janitor included."""
    settings.DISCOVER_NEW_PUZZLES = True
    before = broker.queued(settings.PUZZLEHUB_BACKFILL_QUEUE)
    call_command("publish_catalog", "floppy", "pyraminx")
    catalog_jobs = Job.objects.filter(user__username=CATALOG_OWNER)
    assert catalog_jobs.count() == 4 and all(j.background for j in catalog_jobs)
    wait_for(lambda: broker.queued(settings.PUZZLEHUB_BACKFILL_QUEUE) == before + 4)
    repo = make_repo(alice, "skewb", definition=solver_api.export_yaml(solver_api.load("skewb")))
    job = finished(wait_for(lambda: _discoveries(repo.head.content_hash).first()).id, timeout=180)
    assert job.status == Job.SUCCEEDED and not job.background, job.error
    # several janitor rounds later (every second here) the catalog's are still waiting where they were
    assert set(catalog_jobs.values_list("status", flat=True)) == {Job.QUEUED}
    assert broker.queued(settings.PUZZLEHUB_BACKFILL_QUEUE) == before + 4
