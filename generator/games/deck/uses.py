"""Which card fields a layout template reads: `card.<field>` and `rich.<field>`, found in its syntax tree.

Only what can be seen without running the template is found: a field read through a variable name
(`card[key]`) or passed whole to a macro is not. A field read as `card.x|default(…)` or tested with
`is defined` is optional.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jinja2 import TemplateSyntaxError, meta, nodes

from ...sdk import Templates

OWNERS = ("card", "rich")


@dataclass
class Uses:
    """The fields a template (with everything it extends, imports or includes) reads."""

    card: set[str] = field(default_factory=set)  # read as card.<field>, required
    rich: set[str] = field(default_factory=set)  # read as rich.<field>: markup, checked as such
    required: set[str] = field(default_factory=set)  # read at least once without a default


def template_uses(templates: Templates, name: str) -> Uses:
    """Return the fields template `name` reads; a missing or broken template reads none (the layout says why)."""
    uses = Uses()
    pending, seen = [name], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        found = templates.source_of(current)
        if found is None:
            continue
        try:
            tree = templates.env.parse(found[0])
            _collect(tree, uses)
            pending.extend(r for r in meta.find_referenced_templates(tree) if r)
        except (TemplateSyntaxError, RecursionError):  # Jinja's parser recurses per bracket: rendering says it
            continue
    return uses


def _collect(tree: nodes.Node, uses: Uses) -> None:
    optional: set[int] = set()
    for test in tree.find_all((nodes.Filter, nodes.Test)):
        if test.name in ("default", "d", "defined", "undefined") and test.node is not None:
            optional.add(id(test.node))
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        assert isinstance(node, (nodes.Getattr, nodes.Getitem))  # what find_all was asked for
        owner = node.node
        if not isinstance(owner, nodes.Name) or owner.name not in OWNERS:
            continue
        if isinstance(node, nodes.Getattr):
            name = node.attr
        elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            name = node.arg.value
        else:
            continue
        (uses.card if owner.name == "card" else uses.rich).add(name)
        if id(node) not in optional:
            uses.required.add(name)
