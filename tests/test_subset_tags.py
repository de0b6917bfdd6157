"""Font subsets are tagged from their content in every PDF cardpress writes: home kits as well as press files."""

from __future__ import annotations

import io
import re
from collections import Counter

import pikepdf
import pytest
from conftest import copy_project

from generator.export import pnp
from generator.export.options import ExportOptions
from generator.project.scaffold import new_game


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, bytes]:
    root = copy_project(tmp_path_factory.mktemp("tags") / "project", games=())
    new_game(root, "tiny", size="poker")
    options = ExportOptions(papers=("a4",))
    made = pnp.files(pnp.pipeline(root, "tiny", options), options)
    again = pnp.files(pnp.pipeline(root, "tiny", options), options)
    assert made == again  # the tags are the same every build
    return made


def subset_names(data: bytes) -> list[str]:
    with pikepdf.open(io.BytesIO(data)) as doc:
        return [
            str(o.BaseFont)[1:]
            for o in doc.objects
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font" and "/FontDescriptor" in o
        ]


def test_no_two_subsets_of_a_kit_share_a_tag_and_none_is_reportlabs(kits):
    for name, data in kits.items():
        names = subset_names(data)
        assert len({n.split("+", 1)[1] for n in names}) >= 2, name  # several fonts: ReportLab tagged each AAAAAA+
        assert all(re.fullmatch(r"[A-Z]{6}\+[A-Za-z0-9-]+", n) for n in names), names
        tags = Counter(n.split("+")[0] for n in names)
        assert tags.most_common(1)[0][1] == 1, tags
        assert not {"AAAAAA", "AAAAAB"} & set(tags)
