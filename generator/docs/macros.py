"""The template-macro page, read from the shared macros template (`layouts/common/macros.j2`) with Jinja's parser."""

from __future__ import annotations

import re

from jinja2 import Environment, nodes

from ..resources import shipped
from .markdown import banner, table

MACROS = shipped() / "layouts" / "common" / "macros.j2"
_COMMENT = re.compile(r"\{#-?\s*(.*?)\s*-?#\}", re.S)
_ELEMENT = re.compile(r"^\s*(?:-\s*\{\{\s*(\w+)\(|\{(\w+):)", re.M)  # what a macro's body makes first
_SETS = re.compile(r"(\w+): \"?\{\{ \(?(\w+)\b")  # `stroke_width: {{ width }}`: the key an argument sets


def page() -> str:
    """Return docs/reference/macros.md."""
    source = MACROS.read_text(encoding="utf-8")
    tree = Environment().parse(source)
    rows = []
    for macro in tree.find_all(nodes.Macro):
        body = _body(source, macro.name)
        made = _ELEMENT.search(body)
        kind = (made.group(2) or f"{made.group(1)} elements") if made else ""
        element = kind.split()[0]
        link = f"[`{element}`](layout-elements.md#{element})" + (" elements" if " " in kind else "")
        renamed = [f"`{arg}` sets `{key}`" for key, arg in dict.fromkeys(_SETS.findall(body)) if key != arg]
        about = " ".join(x for x in (_about(source, macro.name), "; ".join(renamed) + "." if renamed else "") if x)
        rows.append([f"`{_signature(macro)}`", link if kind else "", about])
    opening = _COMMENT.match(source.lstrip())
    intro = " ".join(opening.group(1).split()) if opening else ""
    return "\n".join(
        [
            banner("the shared macros template, `layouts/common/macros.j2`"),
            "# Template macros\n",
            f"{intro}\n" if intro else "",
            'Import them in a template with `{% import "macros.j2" as m %}`. Lengths are millimetres (or strings '
            'with a unit, "9pt"), from the trim\'s top-left corner; what each element takes is in '
            "[Layout elements](layout-elements.md).\n",
            table(["Macro", "Makes", "About"], rows),
        ]
    )


def _signature(macro: nodes.Macro) -> str:
    """Return `name(a, b, c=1, …)` as the macro declares it."""
    args = [a.name for a in macro.args]
    defaults = [_value(d) for d in macro.defaults]
    first = len(args) - len(defaults)
    shown = args[:first] + [f"{a}={d}" for a, d in zip(args[first:], defaults)]
    return f"{macro.name}({', '.join(shown)})"


def _value(node: nodes.Expr) -> str:
    """Return a default as the template writes it."""
    if isinstance(node, nodes.Const):
        value = node.value
        if value is None:
            return "none"
        if isinstance(value, bool):
            return str(value).lower()
        return f'"{value}"' if isinstance(value, str) else str(value)
    return "…"


def _body(source: str, name: str) -> str:
    """Return the text between a macro's opening tag and its end."""
    start = re.search(r"\{%-?\s*macro\s+" + re.escape(name) + r"\(.*?%\}", source, re.S)
    if start is None:
        return ""
    end = source.find("endmacro", start.end())
    return source[start.end() : end]


def _about(source: str, name: str) -> str:
    """Return the comment just before a macro's opening tag (nothing when a blank line or code comes between)."""
    head = re.search(
        r"\{#-?\s*(?P<text>(?:(?!#\}).)*?)\s*-?#\}\s*\{%-?\s*macro\s+" + re.escape(name) + r"\(", source, re.S
    )
    if head is None or source.lstrip().startswith(head.group(0)):
        return ""
    return " ".join(head.group("text").split())
