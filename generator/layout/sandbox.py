"""The budgeted Jinja sandbox: every loop counted, every value measured, every character written counted.

Jinja's own sandbox keeps templates away from Python internals; it does not stop a template from
spending memory or time. Here templates are compiled with every `for` loop counted, every list,
mapping and `~` concatenation measured, and every piece of output counted; operators, calls,
filters and str.format are checked before they allocate; a render has a budget of CPU time (the
work it does, not the wall clock, so a busy machine never fails a valid template), read now and then
as loops, calls and output count up. Passing a limit raises BudgetExceeded (a SecurityError), which
callers report like any unsafe operation.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator
from contextvars import ContextVar
from functools import wraps
from typing import Any, NamedTuple, cast

from jinja2 import nodes, pass_context
from jinja2.compiler import CodeGenerator
from jinja2.exceptions import SecurityError
from jinja2.runtime import Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter
from jinja2.utils import Namespace, generate_lorem_ipsum
from jinja2.visitor import NodeTransformer

from . import cpu, slots
from .slots import Slot

MAX_WRITTEN = 16_000_000  # characters all template code may write for one face, macro bodies and captures included
MAX_STEPS = 200_000  # loop iterations one face may run, every loop counted, nested ones included
MAX_SEQUENCE = 1_000_000  # size of any one value: characters of a string, items of a list (nested ones counted)
MAX_MADE = 20_000_000  # total size of the values one face may make (so many variables cannot add up)
MAX_INT_BITS = 1024  # whole numbers past ~300 digits are not layout arithmetic
MAX_SECONDS = 5.0  # CPU seconds one face's render may use
SANDBOX_VERSION = 4  # part of compiled-template cache names: code compiled without these budgets is never reused
_TICKS = 64  # counted operations between two looks at the clock


class BudgetExceeded(SecurityError):
    """A template used more time, loop steps or memory than one face may."""


class TimedOut(BudgetExceeded):
    """A render used up its CPU time: how far it got depends on the machine's speed, so it is never cached."""


def exceeded(message: str) -> BudgetExceeded:
    """Return the error for a passed limit."""
    return BudgetExceeded(message)


class Budget:
    """Counts the work one render does, so that a hostile template cannot run forever or fill memory."""

    def __init__(self, deadline: float | None = None, late: str | None = None) -> None:
        self.deadline = deadline if deadline is not None else cpu.clock() + MAX_SECONDS  # on the CPU clock
        self.late = late or f"template used more than {MAX_SECONDS:g} s of CPU time"  # what passing it means
        self.steps = 0
        self.written = 0
        self.made = 0
        self.memo: dict[int, tuple[Any, int]] = {}  # big containers measured already (see weight)
        self.ticks = _TICKS
        self.extra = 0  # in a probe render: the most characters a slot's marker may stand for beyond its own

    def tick(self) -> None:
        """Count one operation; look at the clock every TICKS of them (it is the hot path of every render)."""
        self.ticks -= 1
        if self.ticks <= 0:
            self.clock()

    def clock(self) -> None:
        """Refuse to go on past the CPU-time deadline."""
        self.ticks = _TICKS
        if cpu.clock() > self.deadline:
            raise TimedOut(self.late)

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise exceeded(f"template iterated more than {MAX_STEPS} times")
        self.tick()

    def write(self, size: int) -> None:
        self.written += size
        if self.written > MAX_WRITTEN:
            raise exceeded(f"template wrote more than {MAX_WRITTEN} characters (macro and block output included)")
        self.tick()

    def make(self, value: Any, what: str, made: bool = True) -> Any:
        """Check the size of a value a template made; count it towards everything the face made."""
        kind = type(value)
        if kind is str:  # most values: no walk needed
            size = len(value)
            if self.extra:
                size += slots.beyond(value, self.extra)
        elif kind in _SCALARS:
            size = 1 if kind is not int else 1 + value.bit_length() // 32
        else:
            size = weight(value, MAX_SEQUENCE, self.memo)
        if size > MAX_SEQUENCE:
            raise exceeded(f"{what} too large: more than {MAX_SEQUENCE} characters or items")
        if size >= _MEMO_FROM and kind in (list, tuple, dict) and not _holds_namespace(value):
            self.memo[id(value)] = (value, size)
        if made:
            self.made += size
            if self.made > MAX_MADE:
                raise exceeded(f"template made more than {MAX_MADE} characters or items in all")
        if size > _TICKS * 1000:  # measuring it took a while: look at the clock now
            self.clock()
        else:
            self.tick()
        return value


CURRENT: ContextVar[Budget | None] = ContextVar("cardpress_template_budget", default=None)  # the render in progress


def _budget() -> Budget:
    """Return the budget of the render in progress (a fresh one outside any render)."""
    return CURRENT.get() or Budget()


_SCALARS = (int, float, bool, type(None))


class _Leave(NamedTuple):
    """A marker on weight()'s stack: the walk has finished the namespace with this id."""

    key: int


_MEMO_FROM = 256  # containers this big or bigger remember their weight, so a shared one is walked once


def weight(value: Any, limit: int = MAX_SEQUENCE, memo: dict[int, tuple[Any, int]] | None = None) -> int:
    """Return how big a value is when written out or copied: characters, plus items at every depth.

    Shared sub-lists count each time they appear (that is what a repetition bomb exploits); the walk
    stops as soon as the total passes `limit`, so it costs at most `limit` steps. `memo` holds the
    weights of containers measured before (by id, with the container, so an id is never reused).
    """
    total, stack, inside = 0, [value], set()
    budget = CURRENT.get()
    extra = budget.extra if budget is not None else 0  # a probe's markers weigh what they may stand for
    while stack:
        item = stack.pop()
        kind = type(item)  # type(), not isinstance(): a Namespace answers __class__ slowly
        if kind is str or kind is bytes:
            total += len(item)
            if extra and kind is str:
                total += slots.beyond(item, extra)
        elif kind is Slot:
            total += slots.MARKER_SIZE + slots.EXTRA
        elif kind is int:
            total += 1 + item.bit_length() // 32
        elif kind in _SCALARS:
            total += 1
        elif kind is list or kind is tuple or kind is dict:
            known = memo.get(id(item)) if memo else None
            if known is not None and known[0] is item:
                total += known[1]
            else:
                total += len(item)
                if total <= limit:
                    stack.extend(item.values() if kind is dict else item)
                    if kind is dict:
                        stack.extend(item.keys())
        elif kind is Namespace:
            if id(item) in inside:  # a namespace holding itself: written out, it never ends
                return limit + 1
            inside.add(id(item))
            total += 1
            stack.append(_Leave(id(item)))
            stack.append(object.__getattribute__(item, "_Namespace__attrs"))
        elif kind is _Leave:
            inside.discard(item.key)
        elif issubclass(kind, (str, bytes, bytearray)):
            total += len(item)
        elif issubclass(kind, (list, tuple, set, frozenset)):
            total += len(item)
            if total <= limit:
                stack.extend(item)
        elif issubclass(kind, dict):
            total += len(item)
            if total <= limit:
                stack.extend(item.keys())
                stack.extend(item.values())
        else:
            total += 1
        if total > limit:
            return total
    return total


def _holds_namespace(value: Any) -> bool:
    """Return True when a namespace (whose attributes may change later) sits in `value` at its top level."""
    items = value.values() if type(value) is dict else value
    return any(type(item) is Namespace for item in items)


def _depth(value: Any, limit: int = 200, visits: int = 100_000) -> int:
    """Return how deeply lists and mappings nest in `value`: `limit` when deeper, or too big to walk."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        visits -= 1
        if visits < 0 or deepest >= limit:
            return limit
        if type(item) in (list, tuple, dict):
            stack.extend((child, depth + 1) for child in (item.values() if type(item) is dict else item))
    return deepest


def _need(size: int, what: str) -> None:
    """Refuse an operation before it runs when its result would pass the size limit."""
    if size > MAX_SEQUENCE:
        raise exceeded(f"{what} too large: {size} characters or items; the limit is {MAX_SEQUENCE}")


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) else default


def _replaced(text: Any, old: Any, new: Any, count: Any = -1) -> None:
    if not isinstance(text, (str, bytes)) or not isinstance(old, type(text)) or not isinstance(new, type(text)):
        return
    found = text.count(cast(Any, old)) if old else len(text) + 1  # old has text's type, checked above
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    _need(len(text) + max(0, len(new) - len(old)) * found, "replace result")


_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?")
_SPEC = re.compile(r"^(?:.?[<>=^])?[-+ ]?z?#?0?(\d*)[,_]?(?:\.(\d+))?")


def _percent(template: Any, what: str = "%-formatting result") -> None:
    """Refuse printf-style formatting whose widths or precisions would build a huge string."""
    if not isinstance(template, (str, bytes)):
        return
    text = template if isinstance(template, str) else template.decode("latin-1")
    total = len(text)
    for match in _PERCENT.finditer(text):
        for part in match.groups():
            if part == "*":
                raise SecurityError("computed widths ('*') are not allowed in layout templates")
            total += int(part or 0)
    _need(total, what)


class _Formatter(SandboxedFormatter):
    """str.format with every field's width and precision counted before it is padded."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.total = 0

    def format_field(self, value: Any, format_spec: str) -> Any:
        match = _SPEC.match(format_spec)
        if match:
            self.total += int(match.group(1) or 0) + int(match.group(2) or 0)
            _need(self.total, "format result")
        return super().format_field(value, format_spec)


def _guard_call(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """Refuse a method call that would allocate too much before it runs; return the arguments to use."""
    owner, name = getattr(obj, "__self__", None), getattr(obj, "__name__", "")
    if isinstance(owner, (str, bytes)):
        if name in ("ljust", "rjust", "center", "zfill") and args:
            _need(len(owner) + _int(args[0]), f"{name} result")
        elif name == "expandtabs":
            size = _int(args[0] if args else kwargs.get("tabsize", 8), 8)
            _need(
                len(owner) + (owner.count("\t") if isinstance(owner, str) else owner.count(b"\t")) * max(size, 0),
                "expandtabs result",
            )
        elif name == "replace" and len(args) >= 2:
            _replaced(owner, *args[:3])
        elif name == "join" and args:
            items = list(args[0])
            _need(len(owner) * len(items) + sum(weight(i) for i in items), "join result")
            return (items, *args[1:])
    elif isinstance(owner, int) and name == "to_bytes":
        _need(_int(args[0] if args else kwargs.get("length", 1), 1), "to_bytes result")
    return args


def _filter_checks() -> dict[str, Any]:
    """Checks run before a built-in filter: those whose arguments say how much to allocate."""

    def center(value: Any, width: Any = 80, *_: Any) -> None:
        _need(len(str(value)) + _int(width), "center result")

    def indent(value: Any, width: Any = 4, *_: Any, **kw: Any) -> None:
        width = kw.get("width", width)
        pad = len(width) if isinstance(width, str) else _int(width)
        text = str(value)
        _need(len(text) + pad * (text.count("\n") + 1), "indent result")

    def wordwrap(
        value: Any, width: Any = 79, break_long_words: Any = True, wrapstring: Any = None, *_: Any, **kw: Any
    ) -> None:
        text, wrap = str(value), kw.get("wrapstring", wrapstring) or "\n"
        lines = len(text) // max(_int(kw.get("width", width), 79), 1) + text.count(" ") + 1
        _need(len(text) + len(str(wrap)) * lines, "wordwrap result")

    def batch(value: Any, linecount: Any = 1, *_: Any, **kw: Any) -> None:
        _need(_int(kw.get("linecount", linecount)), "batch size")

    def slice_(value: Any, slices: Any = 1, *_: Any, **kw: Any) -> None:
        _need(_int(kw.get("slices", slices)), "slice count")

    def replace(value: Any, old: Any = "", new: Any = "", count: Any = None, *_: Any, **kw: Any) -> None:
        _replaced(str(value), str(old), str(new), -1 if count is None else count)

    def format_(value: Any, *args: Any, **kwargs: Any) -> None:
        _percent(str(value), "format result")

    def tojson(value: Any, indent: Any = None, *_: Any, **kw: Any) -> None:
        indent = kw.get("indent", indent)
        pad = len(indent) if isinstance(indent, str) else _int(indent)
        if pad:
            _need(weight(value) * (1 + pad * _depth(value)), "tojson result")

    def pprint(value: Any, *_: Any, **kw: Any) -> None:
        _need(weight(value) * (1 + _depth(value)), "pprint result")

    def sum_(value: Any, attribute: Any = None, start: Any = 0, *_: Any, **kw: Any) -> None:
        if not isinstance(kw.get("start", start), (int, float)):
            raise SecurityError("sum adds numbers only in layout templates")

    return {
        "center": center,
        "indent": indent,
        "wordwrap": wordwrap,
        "batch": batch,
        "slice": slice_,
        "replace": replace,
        "format": format_,
        "tojson": tojson,
        "pprint": pprint,
        "sum": sum_,
    }


_CHECKS = _filter_checks()


def _guard_filter(name: str, func: Any) -> Any:
    """Wrap a filter so that it is timed, checked before it allocates, and its result measured."""
    from jinja2.utils import _PassArg

    skip = 1 if _PassArg.from_obj(func) else 0  # context or environment comes first
    check = _CHECKS.get(name)
    step = name in slots.STEPS

    @wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        budget = _budget()
        budget.tick()
        if budget.extra:  # a probe: a pure step keeps its slot, anything else reads the value
            if step and len(args) == skip + 1 and not kwargs and type(args[skip]) is Slot:
                return slots.derive(args[skip], name)
            args, kwargs = slots.reals(args, kwargs)
        if check is not None and len(args) > skip:
            check(*args[skip:], **kwargs)
        return budget.make(func(*args, **kwargs), f"|{name} result")

    return guarded


def resolving(func: Any) -> Any:
    """Wrap a test or filter so that, in a probe, it reads the values its slots stand for."""

    @wraps(func)
    def resolved(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = slots.reals(args, kwargs)
        return func(*args, **kwargs)

    return resolved


def _beyond(pieces: Any) -> int:
    """Return the most characters a probe's markers in `pieces` may stand for beyond their own."""
    budget = CURRENT.get()
    if budget is None or not budget.extra:
        return 0
    return sum(slots.beyond(p, budget.extra) for p in pieces)


def _join(func: Any) -> Any:
    """Check |join like str.join: the separator once per item, plus the items, before joining."""

    @wraps(func)
    def guarded(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> Any:
        items = list(value)
        _need(len(str(d)) * len(items) + sum(weight(i) for i in items), "join result")
        return func(eval_ctx, items, d, attribute)

    return guarded


@pass_context
def _loop(context: Any, iterable: Any) -> Iterator[Any]:
    """Count every iteration of every `for` loop against the face's budget."""
    budget = _budget()
    for item in iterable:
        budget.step()
        yield item


@pass_context
def _made(context: Any, value: Any) -> Any:
    """Measure a list, tuple, mapping or `~` concatenation a template builds."""
    return _budget().make(value, "value")


def _range(*args: int) -> range:
    """range(), refused when it is longer than every loop of a face may run (its items are counted as used)."""
    numbers = range(*args)
    if len(numbers) > MAX_STEPS:
        raise exceeded(f"template iterated more than {MAX_STEPS} times (range of {len(numbers)})")
    return numbers


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Placeholder text, bounded: at most 100 paragraphs of at most 1000 words."""
    if _int(n) > 100 or _int(max) > 1000 or _int(min) > 1000:
        raise exceeded("lipsum too large: at most 100 paragraphs of 1000 words")
    return generate_lorem_ipsum(n, html, min, max)


class _Instrument(NodeTransformer):
    """Rewrite a parsed template so that its loops are counted and the values it builds are measured."""

    def visit_For(self, node: nodes.For) -> nodes.For:
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, "cp_loop", [], [], None, None, lineno=node.lineno)
        return node

    def _measured(self, node: nodes.Expr) -> nodes.Expr:
        self.generic_visit(node)
        return nodes.Filter(node, "cp_made", [], [], None, None, lineno=node.lineno)

    visit_List = visit_Dict = visit_Concat = _measured

    def visit_Tuple(self, node: nodes.Tuple) -> nodes.Expr:
        if node.ctx != "load":  # `for a, b in …` and `set a, b = …` assign to tuples
            self.generic_visit(node)
            return node
        return self._measured(node)


# What makes a shared macro's output depend on more than its arguments: the caller's block, randomness,
# objects with state, other templates.
_IMPURE_NAMES = frozenset({"caller", "lipsum", "cycler", "joiner", "namespace", "self", "varargs", "kwargs"})
_IMPURE_NODES = (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends, nodes.Block, nodes.NSRef)


def pure_macros(template: nodes.Template) -> list[str]:
    """Return the names of the template's top-level macros whose output is a function of their arguments alone.

    Nothing in such a template changes state after it is made (no namespace is assigned to anywhere in it);
    the macro's body reads no caller, randomness or object with state and includes nothing. A name defined
    twice is left out.
    """
    if any(True for _ in template.find_all(nodes.NSRef)):
        return []
    defined = [m.name for m in template.find_all(nodes.Macro)]
    found = []
    for macro in template.body:
        if not isinstance(macro, nodes.Macro) or defined.count(macro.name) != 1:
            continue
        if any(True for _ in macro.find_all(_IMPURE_NODES)):
            continue
        if any(n.name in _IMPURE_NAMES for n in macro.find_all(nodes.Name)):
            continue
        if any(f.name == "random" for f in macro.find_all(nodes.Filter)):
            continue
        found.append(macro.name)
    return sorted(found)


class _Compiler(CodeGenerator):
    """Compile templates with every loop counted and every character they write counted."""

    def visit_Template(self, node: nodes.Template, frame: Any = None) -> None:
        _Instrument().visit(node)
        pure = pure_macros(node)
        super().visit_Template(node, frame)
        self.writeline(f"cp_pure = frozenset({pure!r})")  # read by SandboxEnv.call, to reuse their results

    def visit_Concat(self, node: nodes.Concat, frame: Any) -> None:
        # As Jinja compiles `~`, but the join it picks is handed to cp_concat with the parts, which keeps a
        # probe's slots joined (the join itself would print them).
        if frame.eval_ctx.volatile:
            join = "(markup_join if context.eval_ctx.volatile else str_join)"
        elif frame.eval_ctx.autoescape:
            join = "markup_join"
        else:
            join = "str_join"
        self.write(f"environment.cp_concat({join}, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def _output_const_repr(self, group: Any) -> str:
        return f"environment.cp_written({super()._output_const_repr(group)})"

    def _output_child_pre(self, node: nodes.Expr, frame: Any, finalize: Any) -> None:
        self.write("environment.cp_written(")
        super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node: nodes.Expr, frame: Any, finalize: Any) -> None:
        super()._output_child_post(node, frame, finalize)
        self.write(")")


MEMO_SIZE = 4096  # macro results kept; past this the memo starts again
_KEYS = (str, int, float, bool, type(None))  # argument types a macro result is reused for


def _macro_key(macro: Macro, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...] | None:
    """Return the key a macro call's result is kept under, or None when it must run.

    Only a pure macro (see pure_macros) of a template imported without context, whose module is made once
    and kept, is reused, and only for arguments of plain types: its text then depends on nothing else.
    Floats are keyed by their text, so that 0.0 and -0.0 (equal, but written differently) stay apart.
    """
    names = macro._func.__globals__
    if macro.name not in names.get("cp_pure", ()):
        return None
    template = names.get("__jinja_template__")
    module = template._module if template is not None else None
    if module is None or getattr(module, macro.name, None) is not macro:
        return None
    key: list[Any] = [macro]
    for value in (*args, *kwargs.values()):
        kind = type(value)
        if kind not in _KEYS:
            return None
        key.append((kind, repr(value) if kind is float else value))
    key.extend(kwargs)
    return tuple(key)


class SandboxEnv(ImmutableSandboxedEnvironment):
    """The sandbox, with budgets: time, loop steps, the size of every value and of everything written."""

    code_generator_class = _Compiler
    intercepted_binops = frozenset(["*", "**", "+", "%"])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, finalize=self._finalize, **kwargs)
        self.globals["range"] = _range
        self.globals["lipsum"] = _lipsum
        for name, func in list(self.filters.items()):
            self.filters[name] = _guard_filter(name, _join(func) if name == "join" else func)
        for name, func in list(self.tests.items()):
            if name not in slots.BLIND_TESTS:
                self.tests[name] = resolving(func)
        self.filters["cp_loop"] = _loop
        self.filters["cp_made"] = _made
        self.memo: dict[tuple[Any, ...], str] = {}  # results of pure shared macros (see _macro_key)
        self.slot_aware: list[Any] = []  # functions a probe may pass slots to (they join them as text)

    @staticmethod
    def _finalize(value: Any) -> Any:
        if type(value) is str and len(value) <= MAX_SEQUENCE:  # most output: nothing to measure
            return value
        return _budget().make(value, "output value", made=False)  # written out, not made: `written` counts it

    def cp_written(self, text: str) -> str:
        """Count a piece of output (wherever it goes: the page, a macro's result, a captured block)."""
        budget = CURRENT.get()  # Budget.write, inlined: this runs for every piece of every face
        if budget is not None:
            budget.written += len(text)
            if budget.extra:
                budget.written += slots.beyond(text, budget.extra)
            if budget.written > MAX_WRITTEN:
                budget.write(0)
            budget.ticks -= 1
            if budget.ticks <= 0:
                budget.clock()
        return text

    def cp_concat(self, join: Any, parts: tuple[Any, ...]) -> Any:
        """Join the parts of a `~` as Jinja would; in a probe, text joined from slots stays a slot."""
        budget = CURRENT.get()
        if budget is not None and budget.extra and any(type(p) is Slot for p in parts):
            found = slots.joined(parts)
            if found is not None:
                return found
            parts = tuple(slots.real(p) for p in parts)
        return join(parts)

    def concat(self, pieces: Any) -> str:
        """Join captured output (macro bodies, `set` blocks, blocks), refusing it past the value limit."""
        if type(pieces) is list:  # a macro's or block's buffer: measure it in one go
            if sum(map(len, pieces)) + _beyond(pieces) > MAX_SEQUENCE:
                raise exceeded(f"captured output too large: more than {MAX_SEQUENCE} characters")
            return "".join(pieces)
        parts, size = [], 0
        for piece in pieces:
            size += len(piece) + _beyond((piece,))
            if size > MAX_SEQUENCE:
                raise exceeded(f"captured output too large: more than {MAX_SEQUENCE} characters")
            parts.append(piece)
        return "".join(parts)

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        budget = _budget()
        budget.tick()
        left, right = slots.real(left), slots.real(right)
        if operator_name == "**":
            big = isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1
            if big and left.bit_length() * right > MAX_INT_BITS:
                raise SecurityError("exponent too large")
            return budget.make(operator.pow(left, right), "power")
        if operator_name == "*":
            if isinstance(left, int) and isinstance(right, int):
                if left.bit_length() + right.bit_length() > MAX_INT_BITS + 64:
                    raise SecurityError("whole number too large")
            elif isinstance(left, (str, bytes, list, tuple)) or isinstance(right, (str, bytes, list, tuple)):
                seq, times = (left, right) if isinstance(left, (str, bytes, list, tuple)) else (right, left)
                if isinstance(times, int) and weight(seq) * times > MAX_SEQUENCE:
                    raise SecurityError(f"sequence repetition too large: more than {MAX_SEQUENCE} characters or items")
            return budget.make(operator.mul(left, right), "product")
        if operator_name == "%" and isinstance(left, (str, bytes)):
            _percent(left)
            return budget.make(operator.mod(left, right), "%-formatting result")
        if operator_name == "%":
            return operator.mod(left, right)
        what = "concatenation" if isinstance(left, (str, bytes, list, tuple)) else "sum"
        return budget.make(operator.add(left, right), what)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        budget = _budget()
        budget.tick()
        if budget.extra and type(__obj) is not Macro and not any(__obj is f for f in __self.slot_aware):
            # a probe: a macro passes slots on (and functions marked so), any other function reads them
            __obj = slots.real(__obj)
            args, kwargs = slots.reals(args, kwargs)
        key = _macro_key(__obj, args, kwargs) if type(__obj) is Macro else None
        if key is not None:
            known = __self.memo.get(key)
            if known is not None:  # the same shared macro with the same arguments: the same text
                return budget.make(known, "call result")
        args = _guard_call(__obj, args, kwargs)
        result = budget.make(super().call(__context, __obj, *args, **kwargs), "call result")
        if key is not None and type(result) is str:
            if len(__self.memo) >= MEMO_SIZE:
                __self.memo.clear()
            __self.memo[key] = result
        return result

    def getattr(self, obj: Any, attribute: str) -> Any:
        obj = slots.real(obj)
        if isinstance(obj, dict) and attribute in obj:  # card.values is the card's field, not dict.values
            return obj[attribute]
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        # An attribute or an item costs O(1), and how many a template reads is bounded by its size times its
        # counted loops and calls; only a slice copies, so only a slice counts.
        if type(argument) is slice:
            _budget().tick()
        return super().getitem(slots.real(obj), slots.real(argument))

    def wrap_str_format(self, value: Any) -> Any:
        """str.format and format_map, with padding and precision counted before they allocate."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None or type(value.__self__) is not str:
            return wrapped
        text, is_map = value.__self__, value.__name__ == "format_map"

        def checked(*args: Any, **kwargs: Any) -> str:
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                kwargs = args[0]
                args = ()
            result: str = _budget().make(_Formatter(self).vformat(text, args, kwargs), "format result")
            return result

        return checked
