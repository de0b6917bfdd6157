"""The same seeded batches on a Dask cluster (two worker processes) give byte-identical reports."""

from __future__ import annotations

import json
import logging

import pytest
from pf_common import ROOT

from generator import pipeline
from generator.sim import report as writer
from generator.sim.cluster import DaskCluster, check_address
from generator.sim.simulate import simulate

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as local:
        yield local


def _plugin(game: str):
    loaded = pipeline.load(ROOT, game)
    return loaded.ruleset.simulation(loaded)


@pytest.mark.parametrize(
    ("game", "bots", "games", "skill"),
    [("pocket-foundry", ["planner", "random", "planner", "random"], 60, 8), ("micro-engine", ["heuristic"] * 4, 24, 0)],
)
def test_a_dask_run_writes_the_same_report_as_a_local_run(cluster, game, bots, games, skill):
    plugin = _plugin(game)
    local = simulate(plugin, 4, bots, games, seed=7, jobs=1, skill_games=skill)
    executor = DaskCluster(cluster.scheduler_address)
    try:
        assert executor.workers == 2
        remote = simulate(plugin, 4, bots, games, seed=7, skill_games=skill, executor=executor)
        # Every chunk really ran on the cluster's two worker processes.
        assert len(executor.client().scheduler_info()["workers"]) == 2
    finally:
        executor.close()
    assert remote.main.records == local.main.records
    assert [r.records for r in remote.skill] == [r.records for r in local.skill]
    # report.json and report.md byte for byte (the charts and the page are drawn from them alone).
    a, b = (json.dumps(writer.to_json(run.document), indent=1) for run in (local, remote))
    assert a == b
    assert writer.to_markdown(local.document) == writer.to_markdown(remote.document)
    assert json.loads(b)["meta"]["games"] == games


def test_scheduler_addresses_are_checked():
    assert check_address("tcp://10.0.0.5:8786") is None
    assert check_address("scheduler.lan:8786") is None
    assert check_address("local") is None and check_address("local:4") is None
    assert check_address("local:0") == "local:N needs 1 to 256 workers"
    assert check_address("tcp://host:8786/x y") == "'tcp://host:8786/x y' is not a scheduler address"


def test_a_sweep_on_the_cluster_writes_the_same_report_as_a_local_one(cluster):
    from generator.sim import sweep as sweeping
    from generator.sim import vary

    loaded = pipeline.load(ROOT, "micro-engine")
    axes = vary.parse(["cards.row-organizer.vp=3,5"], loaded.dir.sources)
    measures = sweeping.measures_for(axes, loaded.ruleset.simulation(loaded), 4)

    def run(executor=None):
        load = sweeping.point_loader(ROOT, "micro-engine")
        bots = ["heuristic-random-core"] * 4
        return sweeping.sweep(
            load, lambda g: g.ruleset.simulation(g), axes, 4, bots, 8, 3, measures, "owner", executor=executor
        )

    local = run()
    executor = DaskCluster(cluster.scheduler_address)
    try:
        remote = run(executor)
    finally:
        executor.close()
    a, b = (json.dumps(writer.to_json(s.document), indent=1) for s in (local, remote))
    assert a == b and [p.values for p in remote.points] == [(3,), (5,)]
