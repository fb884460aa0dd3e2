"""Pattern-database files through the storage API: stored once, fetched into the local cache with
their size and SHA-256 checked, a damaged copy refused. Every test runs against the file system and
against S3 through django-storages, served by a real S3-compatible server on 127.0.0.1 (moto's
server mode, from PyPI), as workers on other machines would fetch them."""

import hashlib
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlehub.jobs import artifacts
from puzzlehub.jobs.models import PatternDatabase

BUCKET = "puzzlehub-artifacts"


@pytest.fixture(scope="module")
def s3_server():
    """moto's S3-compatible HTTP server on a free port of 127.0.0.1; its endpoint."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, "moto_server did not start"
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait()


class Store:
    """Where the artifacts storage keeps its files, and a way to change one behind its back."""

    def __init__(self, kind, settings, tmp_path, request):
        if kind == "filesystem":
            self.folder = tmp_path / "store"
            config = {"BACKEND": "django.core.files.storage.FileSystemStorage",
                      "OPTIONS": {"location": str(self.folder)}}
        else:
            import boto3

            endpoint = request.getfixturevalue("s3_server")
            keys = {"aws_access_key_id": "test", "aws_secret_access_key": "test", "region_name": "us-east-1"}
            self.client = boto3.client("s3", endpoint_url=endpoint, **keys)
            self.bucket = f"{BUCKET}-{time.monotonic_ns()}"
            self.client.create_bucket(Bucket=self.bucket)
            config = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {
                "bucket_name": self.bucket, "endpoint_url": endpoint, "access_key": "test", "secret_key": "test",
                "region_name": "us-east-1"}}
        self.kind = kind
        settings.STORAGES = {**settings.STORAGES, "artifacts": config}

    def read(self, name: str) -> bytes:
        if self.kind == "filesystem":
            return (self.folder / name).read_bytes()
        return self.client.get_object(Bucket=self.bucket, Key=name)["Body"].read()

    def write(self, name: str, data: bytes) -> None:
        if self.kind == "filesystem":
            (self.folder / name).write_bytes(data)
        else:
            self.client.put_object(Bucket=self.bucket, Key=name, Body=data)


@pytest.fixture(params=["filesystem", "s3"])
def places(request, settings, tmp_path):
    store = Store(request.param, settings, tmp_path, request)
    settings.PUZZLEHUB_CACHE = tmp_path / "cache"
    built = tmp_path / "built" / "abc-key-proj-v1.pdb"
    built.parent.mkdir()
    built.write_bytes(bytes(range(256)) * 1000)
    return tmp_path, built, store


def record(built, stored, **overrides):
    return PatternDatabase.objects.create(content_hash="sha256:abc", projection="[]", **{**stored, **overrides})


@pytest.mark.django_db
def test_a_published_file_comes_back_intact_into_the_local_cache(places):
    tmp, built, store = places
    stored = artifacts.publish(built)
    assert store.read(stored["storage_name"]) == built.read_bytes()  # in the storage itself
    assert stored == {"storage_name": "pdb/abc-key-proj-v1.pdb", "bytes": 256_000,
                      "sha256": hashlib.sha256(built.read_bytes()).hexdigest()}
    assert artifacts.publish(built) == stored  # stored once
    local = artifacts.fetch(record(built, stored))
    assert local == tmp / "cache" / "pdb" / built.name and local.read_bytes() == built.read_bytes()
    assert artifacts.fetch_all("sha256:abc", force=True) == [local]


@pytest.mark.django_db
def test_a_damaged_stored_file_is_refused_and_never_reaches_the_cache(places):
    tmp, built, store = places
    stored = artifacts.publish(built)
    name = stored["storage_name"]
    store.write(name, store.read(name)[:-1] + b"\x00")  # same size, one byte changed
    with pytest.raises(artifacts.ArtifactError, match="SHA-256"):
        artifacts.fetch(record(built, stored))
    assert not (tmp / "cache" / "pdb" / built.name).exists()
    assert artifacts.fetch_all("sha256:abc", force=True) == []  # skipped: the solver builds what it needs


@pytest.mark.django_db
def test_a_local_copy_that_does_not_match_is_fetched_again(places):
    tmp, built, store = places
    artifact = record(built, artifacts.publish(built))
    local = artifacts.fetch(artifact)
    local.write_bytes(b"truncated")
    assert artifacts.fetch(artifact).read_bytes() == built.read_bytes()
