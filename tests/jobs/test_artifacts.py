"""Pattern-database files through the storage API: stored once, fetched into the local cache with
their size and SHA-256 checked, a damaged copy refused."""

import hashlib

import pytest

from puzzlehub.jobs import artifacts
from puzzlehub.jobs.models import PatternDatabase


@pytest.fixture
def places(settings, tmp_path):
    settings.STORAGES = {**settings.STORAGES, "artifacts": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": str(tmp_path / "store")}}}
    settings.PUZZLEHUB_CACHE = tmp_path / "cache"
    built = tmp_path / "built" / "abc-key-proj-v1.pdb"
    built.parent.mkdir()
    built.write_bytes(bytes(range(256)) * 1000)
    return tmp_path, built


def record(built, stored, **overrides):
    return PatternDatabase.objects.create(content_hash="sha256:abc", projection="[]", **{**stored, **overrides})


@pytest.mark.django_db
def test_a_published_file_comes_back_intact_into_the_local_cache(places):
    tmp, built = places
    stored = artifacts.publish(built)
    assert stored == {"storage_name": "pdb/abc-key-proj-v1.pdb", "bytes": 256_000,
                      "sha256": hashlib.sha256(built.read_bytes()).hexdigest()}
    assert artifacts.publish(built) == stored  # stored once
    local = artifacts.fetch(record(built, stored))
    assert local == tmp / "cache" / "pdb" / built.name and local.read_bytes() == built.read_bytes()
    assert artifacts.fetch_all("sha256:abc", force=True) == [local]


@pytest.mark.django_db
def test_a_damaged_stored_file_is_refused_and_never_reaches_the_cache(places):
    tmp, built = places
    stored = artifacts.publish(built)
    damaged = tmp / "store" / stored["storage_name"]
    damaged.write_bytes(damaged.read_bytes()[:-1] + b"\x00")  # same size, one byte changed
    with pytest.raises(artifacts.ArtifactError, match="SHA-256"):
        artifacts.fetch(record(built, stored))
    assert not (tmp / "cache" / "pdb" / built.name).exists()
    assert artifacts.fetch_all("sha256:abc", force=True) == []  # skipped: the solver builds what it needs


@pytest.mark.django_db
def test_a_local_copy_that_does_not_match_is_fetched_again(places):
    tmp, built = places
    artifact = record(built, artifacts.publish(built))
    local = artifacts.fetch(artifact)
    local.write_bytes(b"truncated")
    assert artifacts.fetch(artifact).read_bytes() == built.read_bytes()
