"""The layout-element page, made from the layout document's schema (`generator/source/schemas/layout.yaml`)."""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml

from .markdown import banner, table

SHARED = ("length", "colour", "point", "points", "dash", "opacity", "id")  # value types many keys take


def schema() -> dict[str, Any]:
    """Return the layout document's schema as shipped."""
    text = resources.files("generator.source").joinpath("schemas", "layout.yaml").read_text(encoding="utf-8")
    loaded: dict[str, Any] = yaml.safe_load(text)
    return loaded


def page() -> str:
    """Return docs/reference/layout-elements.md."""
    found = schema()
    defs: dict[str, Any] = found["$defs"]
    elements = list(defs["element"]["properties"])
    parts = [
        banner("the layout document's schema, `generator/source/schemas/layout.yaml`"),
        "# Layout elements\n",
        f"{found['description']}\n",
        "A template renders one face into a document of these keys "
        "(see [Templates and layouts](layouts.md) for how templates are written):\n",
        _keys(found, {}),
        "## Values\n",
        table(["Value", "What it is"], [[f"`{name}`", defs[name]["description"]] for name in SHARED]),
        "## Elements\n",
        "Each item of `elements` is a mapping of one key, the element's kind, to its settings: "
        '`- rect: {x: 0, y: 0, w: 10, h: 5, fill: "#224466"}`. Every element takes `id` and `bleed`.\n',
        table(["Element", "What it draws"], [[f"[`{name}`](#{name})", defs[name]["description"]] for name in elements]),
    ]
    for name in elements:
        parts.append(f"### {name}\n")
        parts.append(f"{defs[name]['description']}\n")
        parts.append(_keys(defs[name], found.get("x-keys", {})))
    return "\n".join(parts)


def _keys(node: dict[str, Any], shared: dict[str, str]) -> str:
    """Return the table of an object's keys: what each takes, whether it is required, and what it means."""
    required = set(node.get("required", []))
    rows = []
    for key, value in node["properties"].items():
        about = value.get("description", shared.get(key, ""))
        rows.append([f"`{key}`", _takes(value), "yes" if key in required else "", about])
    text = table(["Key", "Takes", "Required", "About"], rows)
    choices = [key for choice in node.get("oneOf", []) for key in choice["required"]]
    if choices:
        text += "\nGive exactly one of " + " and ".join(f"`{key}`" for key in choices) + ".\n"
    return text


def _takes(value: dict[str, Any]) -> str:
    """Return what a schema node accepts, in words (a shared value type by its name)."""
    ref = value.get("$ref", "")
    if ref:
        name = ref.rsplit("/", 1)[-1]
        return "list of elements" if name == "elements" else name
    if "enum" in value:
        return "one of " + ", ".join(f"`{v}`" for v in value["enum"])
    kind = value.get("type")
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        return f"text, at most {value['maxLength']:,} characters" if "maxLength" in value else "text"
    if kind in ("integer", "number"):
        word = "whole number" if kind == "integer" else "number"
        if "minimum" in value and "maximum" in value:
            return f"{word}, {value['minimum']}–{value['maximum']}"
        return word
    if kind == "array":
        items = _takes(value.get("items", {}))
        low, high = value.get("minItems"), value.get("maxItems")
        if low is not None and low == high:
            return f"list of {low} × {items}"
        return f"list of up to {high} × {items}" if high is not None else f"list of {items}"
    return str(kind)
