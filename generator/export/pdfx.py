"""What ReportLab cannot write into a press PDF (added with pikepdf): the PDF/X-1a:2003 output intent and keys.

The output intent names a registered printing condition, CGATS TR 001 (SWOP) in the ICC's
characterization data registry, which PDF/X-1a lets a file name without embedding a profile: the file
is the same bytes on every machine. With a profile given (`--cmyk-profile`) the intent embeds it
instead, as a custom condition. The version key is written only when the file holds no transparency.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pikepdf

PDFX = "PDF/X-1a:2003"
CONDITION = "CGATS TR 001"  # SWOP coated, ICC characterization data registry
CONDITION_NAME = "CGATS TR 001 (SWOP, U.S. web offset, coated)"
REGISTRY = "http://www.color.org"


def finish(pdf: bytes, profile: Path | None = None, description: str = "") -> bytes:
    """Return the PDF with its output intent, PDF/X version key (when it holds) and Trapped key."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        doc.Root.OutputIntents = pikepdf.Array([intent(doc, profile, description)])
        overprint_states(doc)
        if not transparent(doc):
            doc.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(PDFX)
        doc.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        out = io.BytesIO()
        doc.save(out, deterministic_id=True, compress_streams=True, force_version="1.4")
    return out.getvalue()


def overprint_name(fill: bool, stroke: bool) -> str:
    """Return the resource name of the graphics state with this fill and stroke overprint (OPM 1)."""
    return f"CPop{int(fill)}{int(stroke)}"


def overprint_states(doc: pikepdf.Pdf) -> None:
    """Add the four overprint graphics states to the resources of every page and form that names one."""
    import pikepdf

    states = {
        overprint_name(fill, stroke): doc.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, op=fill, OP=stroke, OPM=1)
        )
        for fill in (False, True)
        for stroke in (False, True)
    }
    holders = [page.obj for page in doc.pages] + [
        o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"
    ]
    for holder in holders:
        names = b"/CPop" in holder.read_bytes() if isinstance(holder, pikepdf.Stream) else _names_state(holder)
        if not names:
            continue
        if "/Resources" not in holder:
            holder.Resources = pikepdf.Dictionary()
        resources = holder.Resources
        if "/ExtGState" not in resources:
            resources.ExtGState = pikepdf.Dictionary()
        for name, state in states.items():
            resources.ExtGState[f"/{name}"] = state


def _names_state(page: pikepdf.Object) -> bool:
    """Return True when a page's own content names an overprint state."""
    import pikepdf

    contents = page.get("/Contents")
    streams = contents if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
    return any(b"/CPop" in s.read_bytes() for s in streams)


def intent(doc: pikepdf.Pdf, profile: Path | None, description: str) -> pikepdf.Dictionary:
    """Return the GTS_PDFX output intent: the registered condition, or the given profile embedded."""
    import pikepdf

    if profile is None:
        return pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputCondition=pikepdf.String(CONDITION_NAME),
            OutputConditionIdentifier=pikepdf.String(CONDITION),
            RegistryName=pikepdf.String(REGISTRY),
            Info=pikepdf.String(CONDITION_NAME),
        )
    icc = doc.make_stream(profile.read_bytes())
    icc.N = 4
    return pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String("Custom"),
        Info=pikepdf.String(description or profile.name),
        DestOutputProfile=icc,
    )


def transparent(doc: pikepdf.Pdf) -> bool:
    """Return True when any object uses a soft mask or a constant alpha below 1 (PDF/X-1a allows neither)."""
    import pikepdf

    for obj in doc.objects:
        if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
            d = obj if isinstance(obj, pikepdf.Dictionary) else obj.stream_dict
            if "/SMask" in d and d.SMask != pikepdf.Name("/None"):
                return True
            for key in ("/ca", "/CA"):
                if key in d and float(d[key]) < 1:
                    return True
    return False
