from __future__ import annotations

from typing import Any, List, Mapping, Tuple
from urllib.parse import quote


def encode_query(params: Mapping[str, Any]) -> str:
    """Encodes query parameters the way the service parses them.

    Scalars as ``name=value``, mappings as ``name[key]=value`` (OpenAPI deepObject), lists as
    ``name[]=value``, booleans as ``true``/``false``. None values are left out.
    """
    pairs: List[Tuple[str, str]] = []

    def add(name: str, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, Mapping):
            for key, inner in value.items():
                add(f"{name}[{key}]", inner)
        elif isinstance(value, (list, tuple)):
            for item in value:
                add(f"{name}[]", item)
        elif isinstance(value, bool):
            pairs.append((name, "true" if value else "false"))
        else:
            pairs.append((name, str(value)))

    for name, value in params.items():
        add(name, value)
    return "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in pairs) if pairs else ""
