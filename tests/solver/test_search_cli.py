"""The `puzzle pdb build`, `puzzle pdb list` and `puzzle gods` commands on catalog puzzles."""

import json

from solver.cli import main


def test_gods_prints_the_distribution(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    assert main(["gods", "floppy", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["states"] == 192 and facts["gods_number"] == 8  # SEEDS.md, section 5
    assert sum(facts["distribution"].values()) == 192


def test_pdb_build_then_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    assert main(["pdb", "build", "pyraminx", "--json"]) == 0
    (built,) = json.loads(capsys.readouterr().out)
    assert built["full"] and built["reached"] == 933_120  # pyraminx without tips
    assert main(["pdb", "list", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["projection"] == built["projection"] and listed["name"] == "pyraminx"


def test_budget_refusal_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    assert main(["gods", "cube2", "--budget", "1M"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "88,179,840 entries" in err
