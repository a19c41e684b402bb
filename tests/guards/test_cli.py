"""The CLI's share of the guards: ``preview`` shows the refusal, ``import`` stops at a near miss."""

from __future__ import annotations

import json
from pathlib import Path

import nowline
from tests.cli.conftest import invoke, invoke_json
from tests.conftest import snapshot


def test_preview_says_correct_would_refuse_a_generic_string(
    memory: nowline.Collection, store_path: str
) -> None:
    """``nowline preview -d the`` lists what it reaches and says correct() refuses it."""
    memory.remember("the wiki is wiki.northwind.dev", id="w")
    data = invoke_json("preview", store_path, "-d", "the")
    assert data["reach"] == 1 and data["refusal"] is not None
    assert "common word" in data["refusal"] and data["near_misses"] == []
    table = invoke("preview", store_path, "-d", "the")
    assert table.exit_code == 0 and "nowline correct would refuse it" in table.stdout


def test_preview_with_the_text_shows_the_swapped_value(
    memory: nowline.Collection, store_path: str
) -> None:
    """``--text`` lets preview name the old value given in the text."""
    memory.remember("Deploy alerts go to #ops-deploys.", id="d")
    data = invoke_json(
        "preview", store_path, "-d", "#deploys", "--text", "#ops-deploys was renamed to #deploys."
    )
    assert data["near_misses"] == [{"string": "#ops-deploys", "records": 1}]


def test_import_stops_at_a_near_miss_unless_allowed(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A correction line with a typo stops the import; --allow-unreached writes it."""
    memory.remember("The wiki is wiki.northwind.dev.", id="w")
    before = snapshot(memory)
    line = {"text": "The wiki moved from wiki.nortwind.dev.", "deprecates": ["wiki.nortwind.dev"]}
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(line) + "\n", encoding="utf-8")
    refused = invoke("import", store_path, str(source))
    assert refused.exit_code == 1
    said = " ".join(refused.stderr.split())
    assert "'wiki.northwind.dev'" in said and "--allow-unreached" in said
    assert snapshot(memory) == before
    allowed = invoke("import", store_path, str(source), "--allow-unreached")
    assert allowed.exit_code == 0, allowed.output


BACKUP = "tamberlane nightly backup runs at 01:15 UTC now instead of 03:45 UTC"


def _backups(memory: nowline.Collection) -> None:
    memory.remember("The Tamberlane nightly backup starts at 03:45 UTC.", id="a")
    memory.remember("Don't deploy Tamberlane around 03:45 UTC, the backup locks it.", id="b")
    memory.remember("The weekly usage report email goes out at 03:45 UTC.", id="c")


def test_preview_proposes_a_number_with_the_word_that_narrows_it(
    memory: nowline.Collection, store_path: str
) -> None:
    """A time the text states as old is proposed with its subject, in flags and in JSON.

    Before, a generic old value was never proposed ("the text states no old value"), so a
    model that recalled the change got no way to store it.
    """
    _backups(memory)
    data = invoke_json("preview", store_path, "--text", BACKUP)
    assert (data["deprecates"], data["about"]) == (["03:45"], ["tamberlane"])
    assert sorted(r["id"] for r in data["records"]) == ["a", "b"] and data["refusal"] is None
    shown = invoke("preview", store_path, "--text", BACKUP)
    assert "-d '03:45' -a 'tamberlane'" in shown.stdout
    stored = invoke("correct", store_path, BACKUP, "-d", "03:45", "-a", "tamberlane")
    assert stored.exit_code == 0, stored.output
    assert {h.id: h.role for h in memory.hits(["a", "b", "c"])} == {
        "a": "historical",
        "b": "historical",
        "c": "current",
    }
