"""The one rule for a name a caller may have got wrong (a pack, a kind, a relation, an entity id, a workspace):
an exact name is taken; else the one known name its loose spelling matches; else ``invalid_argument`` with the
nearest known names, closest first (never alphabetically), at most ``NEAREST_SHOWN`` of them. A filter that
names nothing known is never answered with a silent empty list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from graphrag.errors import InvalidArgument, echo, name_list
from graphrag.names import NEAREST_SHOWN, fold, nearest_names


def nearest(wanted: str, known: Iterable[str], limit: int = NEAREST_SHOWN) -> list[str]:
    """The ``limit`` known names closest to ``wanted``, however far: the one ranking of
    ``graphrag.names.NearestNames``, over a short closed list."""
    return nearest_names(wanted, [(name, name) for name in sorted(set(known))], limit, always=True)


def hint(wanted: str, known: Iterable[str], plural: str, listed_by: str = "") -> str:
    """``nearest known packs: a, b (12 known; pack_catalog lists them all)``, or that none is known."""
    names = sorted(set(known))
    if not names:
        return f"no {plural} are known"
    more = f"{len(names)} known; {listed_by} lists them all" if listed_by and len(names) > NEAREST_SHOWN else ""
    return f"nearest known {plural}: {name_list(nearest(wanted, names))}" + (f" ({more})" if more else "")


def resolve(
    wanted: str,
    known: Iterable[str],
    what: tuple[str, str],
    loose: Callable[[str], str] = fold,
    listed_by: str = "pack_catalog",
) -> list[str]:
    """The known names ``wanted`` stands for: itself when known, else the single known name whose ``loose``
    spelling is the same. ``what``: the noun, singular and plural (``("kind", "kinds")``). Several loose
    matches, or none, are ``invalid_argument`` naming the candidates or the nearest names."""
    names = set(known)
    if wanted in names:
        return [wanted]
    key = loose(wanted)
    matches = sorted(name for name in names if loose(name) == key)
    if len(matches) == 1:
        return matches
    if matches:
        raise InvalidArgument(f"{what[0]} {echo(wanted)!r} is ambiguous: it may be {name_list(matches)}; give one")
    raise InvalidArgument(f"unknown {what[0]} {echo(wanted)!r}; {hint(wanted, names, what[1], listed_by)}")


def resolve_all(
    wanted: Iterable[str] | None,
    known: Iterable[str],
    what: tuple[str, str],
    loose: Callable[[str], str] = fold,
) -> list[str] | None:
    """``resolve`` of each name of a filter (None stays None: no filter), in order, without repeats."""
    if wanted is None:
        return None
    if not wanted:
        raise InvalidArgument(f"{what[1]} is empty: leave it out to keep every {what[0]}")
    names = set(known)
    return list(dict.fromkeys(name for each in wanted for name in resolve(each, names, what, loose)))
