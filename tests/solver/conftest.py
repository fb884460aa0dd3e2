import re
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "SEEDS.md"


def _seed_ball_ring() -> str:
    """The ball ring file exactly as SEEDS.md prints it (the shared folder sits beside the repo)."""
    text = SEEDS.read_text()
    return re.search(r"```yaml\n(.*?)```", text, re.S).group(1)


@pytest.fixture(scope="session")
def ball_ring_text() -> str:
    return _seed_ball_ring()


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory):
    """A fresh table cache (PUZZLEHUB_CACHE) for one test module: its tables are built once there
    and neither read from nor left in the user's cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("PUZZLEHUB_CACHE", str(tmp_path_factory.mktemp("cache")))
    yield
    mp.undo()
