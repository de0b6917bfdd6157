"""Merge a fan edition's YAML file over its base's, keeping for every value the file and line it came from.

The rules, for any ruleset whose card files are YAML:
- mappings merge key by key; a key the edition sets to null (`~`) is removed;
- a list whose entries are mappings with an `id` (a deck) merges entry by entry: an entry names the card it
  changes by `id` and changes only the fields it gives; `remove: true` drops the card; `add: true` adds a new
  one (so a misspelt id is an error, not a silent new card). New cards follow the base's, in edition order;
- every other value (a number, a string, a list without ids) replaces the base's.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..diagnostics import Report, did_you_mean
from ..source.yamlsrc import KeyPath, Source, format_path

ADD, REMOVE = "add", "remove"  # markers on an entry of an id-list: a new card, a dropped card


def merge(base: Source, over: Source, base_name: str, report: Report, keep_out: Collection[str] = ()) -> Source:
    """Return `over` merged onto `base` as one Source whose positions point into the file each value came from.

    `base_name` names the base in messages; top-level keys in `keep_out` are not inherited from the base.
    """
    return _Merger(base, over, base_name, report).run(keep_out)


def is_deck(items: Any) -> bool:
    """Return True for a list merged entry by entry: every entry a mapping with a string `id`."""
    return (
        isinstance(items, list)
        and bool(items)
        and all(isinstance(x, dict) and isinstance(x.get("id"), str) for x in items)
    )


class _Merger:
    def __init__(self, base: Source, over: Source, base_name: str, report: Report):
        self.base, self.over, self.base_name, self.report = base, over, base_name, report
        self.out = Source(over.display, over.text)

    def run(self, keep_out: Collection[str]) -> Source:
        base = self.base.data
        if keep_out and isinstance(base, dict):
            base = {k: v for k, v in base.items() if k not in keep_out}
        self.out.data = self._merge(base, self.over.data, (), (), ())
        return self.out

    # -- positions ----------------------------------------------------------------------------------------------

    def _take(self, src: Source, spath: KeyPath, mpath: KeyPath) -> None:
        """Record that the merged value at `mpath` is the one at `spath` in `src` (a file, or a merged Source)."""
        origin = src.origin.get(spath, src)
        if spath in src.values:
            self.out.values[mpath] = src.values[spath]
        if spath in src.keys:
            self.out.keys[mpath] = src.keys[spath]
        self.out.origin[mpath] = origin

    def _copy(self, src: Source, data: Any, spath: KeyPath, mpath: KeyPath, skip: Collection[str] = ()) -> Any:
        """Return `data` (from `src` at `spath`) as it appears at `mpath`, recording every position under it."""
        self._take(src, spath, mpath)
        if isinstance(data, dict):
            return {k: self._copy(src, v, spath + (k,), mpath + (k,)) for k, v in data.items() if k not in skip}
        if isinstance(data, list):
            return [self._copy(src, v, spath + (i,), mpath + (i,)) for i, v in enumerate(data)]
        return data

    # -- merging ------------------------------------------------------------------------------------------------

    def _merge(self, b: Any, o: Any, bpath: KeyPath, opath: KeyPath, mpath: KeyPath, skip: Collection[str] = ()) -> Any:
        if isinstance(b, dict) and isinstance(o, dict):
            return self._mapping(b, o, bpath, opath, mpath, skip)
        if isinstance(b, list) and isinstance(o, list) and (is_deck(b) or (not b and is_deck(o))):
            return self._deck(b, o, bpath, opath, mpath)
        return self._copy(self.over, o, opath, mpath, skip)

    def _mapping(
        self,
        b: dict[str, Any],
        o: dict[str, Any],
        bpath: KeyPath,
        opath: KeyPath,
        mpath: KeyPath,
        skip: Collection[str],
    ) -> dict[str, Any]:
        self._take(self.over, opath, mpath)
        out: dict[str, Any] = {}
        for key, value in b.items():
            if key not in o:
                out[key] = self._copy(self.base, value, bpath + (key,), mpath + (key,))
            elif o[key] is not None:  # null removes the key
                out[key] = self._merge(value, o[key], bpath + (key,), opath + (key,), mpath + (key,))
        for key, value in o.items():
            if key in b or key in skip:
                continue
            if value is None:
                where = opath + (key,)
                self.report.error(
                    "E011",
                    f"'{key}' is set to nothing (null) to remove it, but {self.base_name} has no '{key}' here",
                    path=format_path(where),
                    loc=self.over.loc(where, key=True),
                    hint=did_you_mean(key, [k for k in b if isinstance(k, str)]) or "remove this line",
                )
                continue
            out[key] = self._copy(self.over, value, opath + (key,), mpath + (key,))
        return out

    def _deck(self, b: list[Any], o: list[Any], bpath: KeyPath, opath: KeyPath, mpath: KeyPath) -> list[Any]:
        """Merge a list of cards by id: change, remove or add, each card named by its id."""
        self._take(self.over, opath, mpath)
        where = format_path(opath) or "the file"
        ids = {item["id"]: i for i, item in enumerate(b)}
        changed: dict[str, int] = {}
        removed: set[str] = set()
        added: list[int] = []
        seen: dict[str, KeyPath] = {}
        for j, item in enumerate(o):
            at = opath + (j,)
            cid = item.get("id") if isinstance(item, dict) else None
            if not isinstance(cid, str):
                self.report.error(
                    "E006",
                    f"each entry of {where} names the card it changes by its id",
                    path=format_path(at),
                    loc=self.over.loc(at),
                    hint="write `id: <card id>` (and `add: true` for a new card, `remove: true` to drop one)",
                )
                continue
            idloc = self.over.loc(at + ("id",))
            if cid in seen:
                self.report.error(
                    "E010",
                    f"card '{cid}' is changed twice (first at {format_path(seen[cid])})",
                    path=format_path(at + ("id",)),
                    loc=idloc,
                    hint="merge the two entries into one",
                )
                continue
            seen[cid] = at
            add, remove = item.get(ADD, False), item.get(REMOVE, False)
            for marker, value in ((ADD, add), (REMOVE, remove)):
                if value is not False and value is not True:
                    self.report.error(
                        "E007",
                        f"`{marker}:` is true or left out, not {value!r}",
                        path=format_path(at + (marker,)),
                        loc=self.over.loc(at + (marker,)),
                    )
            if add is True and remove is True:
                self.report.error(
                    "E007",
                    f"card '{cid}' is both added and removed",
                    path=format_path(at),
                    loc=self.over.loc(at + (REMOVE,), key=True),
                    hint="keep one of `add: true` and `remove: true`",
                )
            elif remove is True:
                if cid not in ids:
                    self._unknown(cid, ids, at, "remove", "remove")
                elif set(item) - {"id", REMOVE}:
                    extra = sorted(set(item) - {"id", REMOVE}, key=str)[0]
                    self.report.error(
                        "E007",
                        f"card '{cid}' is removed, so '{extra}' changes nothing",
                        path=format_path(at + (extra,)),
                        loc=self.over.loc(at + (extra,), key=True),
                        hint="a removed card needs only `id:` and `remove: true`",
                    )
                else:
                    removed.add(cid)
            elif add is True:
                if cid in ids:
                    self.report.error(
                        "E004",
                        f"card '{cid}' is already in {self.base_name}, so it cannot be added",
                        path=format_path(at + ("id",)),
                        loc=idloc,
                        hint="to change it, leave out `add: true`; to add another card, give it a new id",
                    )
                else:
                    added.append(j)
            elif cid not in ids:
                self._unknown(cid, ids, at, "change", "add")
            else:
                changed[cid] = j
        out: list[Any] = []
        for i, item in enumerate(b):
            cid = item["id"]
            if cid in removed:
                continue
            at = mpath + (len(out),)
            if cid in changed:
                j = changed[cid]
                out.append(self._merge(item, o[j], bpath + (i,), opath + (j,), at, skip=(ADD, REMOVE)))
            else:
                out.append(self._copy(self.base, item, bpath + (i,), at))
        for j in added:
            out.append(self._copy(self.over, o[j], opath + (j,), mpath + (len(out),), skip=(ADD,)))
        return out

    def _unknown(self, cid: str, ids: dict[str, int], at: KeyPath, verb: str, other: str) -> None:
        near = did_you_mean(cid, ids)
        if verb == "change":
            tail = "to add a new card, give it `add: true`"
        else:
            tail = f"cards in {self.base_name}: {', '.join(list(ids)[:12])}" + (", …" if len(ids) > 12 else "")
        self.report.error(
            "E003",
            f"no card '{cid}' in {self.base_name} to {verb}",
            path=format_path(at + ("id",)),
            loc=self.over.loc(at + ("id",)),
            hint=f"{near} ({tail})" if near else tail,
        )
