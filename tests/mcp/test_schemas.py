"""Prompt guidance and tool schemas: valid, flat, shared by every surface, extras stay optional."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

import nowline.surfaces.prompts
from nowline.surfaces.prompts import SYSTEM_PROMPT, anthropic_tools, openai_tools
from nowline.surfaces.tools import TOOLS, input_schema

NAMES = ["remember", "correct", "recall", "preview", "check", "retract"]

EXAMPLES: list[tuple[str, dict[str, Any], bool]] = [
    ("remember", {"body": "UFO core lives at metalcraftai/ufo."}, True),
    ("remember", {}, False),
    ("remember", {"body": ""}, False),
    ("remember", {"body": "x", "tags": ["a"]}, False),
    ("correct", {"body": "Moved from a/b to c/d.", "deprecates": ["a/b"]}, True),
    ("correct", {"body": "Moved.", "deprecates": []}, False),
    ("correct", {"body": "Moved."}, False),
    ("correct", {"body": "Moved from a/b.", "deprecates": "a/b"}, False),
    ("correct", {"body": "Moved from a/b.", "deprecates": ["x" * 501]}, False),
    ("recall", {"query": "where is ufo"}, True),
    ("recall", {"query": "where is ufo", "k": 3, "as_of": "2025-03-01"}, True),
    ("recall", {"query": "where is ufo", "as_of": None}, True),
    ("recall", {"query": "where is ufo", "k": 0}, False),
    ("recall", {"query": "where is ufo", "k": 51}, False),
    ("recall", {"k": 3}, False),
    ("preview", {"deprecates": ["metalcraftai/ufo", "#ufo-dev"]}, True),
    ("preview", {"deprecates": []}, True),  # proposed from body (the runner asks for it)
    ("preview", {"deprecates": [""]}, False),
    ("retract", {"id": "c1"}, True),
    ("retract", {"id": ""}, False),
    ("retract", {"correction_id": "c1"}, False),
]


def test_openai_tools_are_valid_flat_schemas() -> None:
    """Every OpenAI tool has a valid, flat object schema without titles or references."""
    tools = openai_tools()
    assert [t["function"]["name"] for t in tools] == NAMES
    for tool in tools:
        assert tool["type"] == "function" and tool["function"]["description"]
        schema = tool["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft7Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert "$defs" not in schema and "$ref" not in str(schema) and "title" not in schema
        for prop in schema["properties"].values():
            assert prop["description"] and "title" not in prop


def test_anthropic_tools_match_openai_tools() -> None:
    """The Anthropic tools carry the same names, descriptions and schemas as the OpenAI ones."""
    openai = [t["function"] for t in openai_tools()]
    anthropic = anthropic_tools()
    assert [set(t) for t in anthropic] == [{"name", "description", "input_schema"}] * len(NAMES)
    assert [(t["name"], t["description"], t["input_schema"]) for t in anthropic] == [
        (t["name"], t["description"], t["parameters"]) for t in openai
    ]
    for tool in anthropic:
        jsonschema.Draft202012Validator.check_schema(tool["input_schema"])


def test_tool_lists_are_fresh_copies() -> None:
    """Changing a returned tool list does not change the next one."""
    first = openai_tools()
    first[0]["function"]["parameters"]["properties"].clear()
    assert openai_tools()[0]["function"]["parameters"]["properties"]


@pytest.mark.parametrize(("name", "arguments", "valid"), EXAMPLES)
def test_schema_and_model_agree(name: str, arguments: dict[str, Any], valid: bool) -> None:
    """An example call passes the JSON schema exactly when it passes the pydantic model."""
    spec = next(t for t in TOOLS if t.name == name)
    schema_ok = jsonschema.Draft202012Validator(input_schema(spec.input_model)).is_valid(arguments)
    try:
        spec.input_model.model_validate(arguments)
        model_ok = True
    except ValidationError:
        model_ok = False
    assert (schema_ok, model_ok) == (valid, valid)


def test_correct_description_explains_deprecates() -> None:
    """The correct tool says what a deprecates string does; the field asks for the old values."""
    tool = next(t for t in anthropic_tools() if t["name"] == "correct")
    props = tool["input_schema"]["properties"]
    assert "every memory that contains a deprecates string" in tool["description"]
    assert "nothing was stored" in tool["description"]
    field = props["deprecates"]["description"]
    assert "The old values, copied exactly" in field and "Never the new value" in field
    for kind in ("repository", "URL", "channel", "email address"):
        assert kind in field
    assert props["replaced_by"]["description"].startswith("The new values")
    assert props["about"]["description"].startswith("Usually empty.")
    # the new value's field comes before the anchors, so a model that fills fields in order
    # has a place for the new value before it reaches about
    assert list(props) == ["body", "deprecates", "replaced_by", "about"]
    assert tool["input_schema"]["required"] == ["body", "deprecates"]


def test_system_prompt_teaches_corrections() -> None:
    """The system prompt names every tool and each field of correct, and copies no example."""
    for name in NAMES:
        assert name in SYSTEM_PROMPT
    for field in ("body:", "deprecates:", "replaced_by:", "about:"):
        assert f"  - {field} " in SYSTEM_PROMPT
    assert '"now:"' in SYSTEM_PROMPT and "Never the new value" in SYSTEM_PROMPT
    # measured on the writer benchmark: a small model copied the examples into unrelated
    # corrections, and a person's full name is no longer enough on its own
    for gone in ("#ops-deploys", "Acme", "Maria Garcia", "specific enough"):
        assert gone not in SYSTEM_PROMPT


def test_prompts_docstring_states_the_finding() -> None:
    """The module docstring records where guidance works: 27/30, 19/30, 5/18."""
    doc = nowline.surfaces.prompts.__doc__ or ""
    for figure in ("27 of 30", "19 of 30", "5 of 18"):
        assert figure in doc


def test_importing_nowline_pulls_in_no_cli_or_mcp() -> None:
    """Importing nowline and its tools and prompts imports no typer, rich or mcp."""
    code = (
        "import sys, chromadb; base = set(sys.modules); "
        "import nowline, nowline.surfaces.tools, nowline.surfaces.prompts; "
        "new = set(sys.modules) - base; "
        "print(sorted(m for m in new if m.split('.')[0] in ('typer', 'rich', 'mcp', 'mcp_types')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("nowline.surfaces.cli", "typer", "cli"),
        ("nowline.surfaces.cli", "rich", "cli"),
        ("nowline.surfaces.mcp_server", "mcp", "mcp"),
        ("nowline.surfaces.serve", "starlette", "serve"),
    ],
)
def test_missing_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, module: str, missing: str, extra: str
) -> None:
    """Without its extra, importing a surface says what to pip install, from a wheel or not.

    One error (``MissingExtra``, an ``ImportError``) with one message: the receiver's said
    ``pip install 'nowline[serve]'``, which cannot work (nowline is not on PyPI), and the
    others spoke of a checkout only, not of the wheel a user installed.
    """
    for name in list(sys.modules):
        if name == missing or name.startswith(missing + "."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, missing, None)
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(
        ImportError, match=rf"pip install -c constraints.txt -e '\.\[{extra}\]'"
    ) as e:
        importlib.import_module(module)
    assert isinstance(e.value, nowline.MissingExtra) and e.value.extra == extra
    assert f"nowline-VERSION-py3-none-any.whl[{extra}]'" in str(e.value)
