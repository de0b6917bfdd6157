"""Choices on the command line: papers in any case, and the player counts each game supports said when refused."""

from __future__ import annotations

from conftest import ROOT, run_cli


def test_paper_is_case_insensitive(tmp_path):
    result = run_cli("build", "hedgerow", "--paper", "Letter", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "hedgerow").iterdir()) == ["hedgerow-letter.pdf"]
    assert result.stdout.endswith("hedgerow: built (0 errors, 0 warnings)\n")


def test_export_reads_the_paper_in_any_case_as_build_does(tmp_path):
    result = run_cli("export", "hedgerow", "--to", "pnp", "--paper", "Letter", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "hedgerow" / "pnp").iterdir()) == [
        "README.md",
        "hedgerow-letter-5p-long-edge.pdf",
    ]
    refused = run_cli("export", "hedgerow", "--to", "pnp", "--paper", "Legal", "--out", str(tmp_path / "x"), cwd=ROOT)
    assert refused.returncode == 2
    assert "error[U010] --paper: 'Legal' is not one of a4, letter, both\n" in refused.stderr
    assert not (tmp_path / "x").exists()


def test_an_unknown_paper_lists_the_papers(tmp_path):
    result = run_cli("build", "hedgerow", "--paper", "Legal", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 2
    assert "error[U010] --paper: 'Legal' is not one of a4, letter, both\n" in result.stderr
    assert not (tmp_path / "hedgerow").exists()


def test_players_out_of_range_lists_each_games_counts(tmp_path):
    result = run_cli("build", "--players", "9", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 1
    assert result.stderr == (
        "error[B001] hedgerow supports 2, 3, 4, 5 players, not 9\n"
        "  = hint: use --players with one of 2, 3, 4, 5\n\n"
        "error[B001] micro-engine supports 2, 3, 4 players, not 9\n"
        "  = hint: use --players with one of 2, 3, 4\n\n"
        "error[B001] micro-engine-even-race supports 2, 3, 4 players, not 9\n"
        "  = hint: use --players with one of 2, 3, 4\n\n"
        "error[B001] pocket-foundry supports 2, 3, 4, 6 players, not 9\n"
        "  = hint: use --players with one of 2, 3, 4, 6\n\n"
        "error[B001] pocket-foundry-fr supports 2, 3, 4, 6 players, not 9\n"
        "  = hint: use --players with one of 2, 3, 4, 6\n\n"
        "error[B001] pocket-foundry-unjammed supports 2, 3, 4, 6 players, not 9\n"
        "  = hint: use --players with one of 2, 3, 4, 6\n\n"
        "hedgerow: not built (1 error, 0 warnings)\n"
        "micro-engine: not built (1 error, 0 warnings)\n"
        "micro-engine-even-race: not built (1 error, 0 warnings)\n"
        "pocket-foundry: not built (1 error, 0 warnings)\n"
        "pocket-foundry-fr: not built (1 error, 0 warnings)\n"
        "pocket-foundry-unjammed: not built (1 error, 0 warnings)\n"
        "6 games: 6 errors, 0 warnings\n"
    )
    assert result.stdout == "" and not tmp_path.joinpath("hedgerow").exists()


def test_proof_and_art_refuse_a_count_the_same_way(tmp_path):
    for command in ("proof", "art"):
        result = run_cli(
            command,
            "micro-engine",
            "--players",
            "9",
            *(["--out", str(tmp_path)] if command == "proof" else []),
            cwd=ROOT,
        )
        assert result.returncode == 1
        assert result.stderr == (
            "error[B001] micro-engine supports 2, 3, 4 players, not 9\n"
            "  = hint: use --players with one of 2, 3, 4\n\n1 error, 0 warnings\n"
        )
