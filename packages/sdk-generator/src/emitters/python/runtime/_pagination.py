from __future__ import annotations

from typing import Any, Callable, Dict, Generic, Iterator, List, TypeVar

T = TypeVar("T")


class ListObject(Generic[T]):
    """One page of a list endpoint: ``data``, ``has_more`` and ``url``.

    Iterating the page yields its items; ``auto_paging_iter()`` walks every item across pages
    (``starting_after`` the last id, or ``ending_before`` the first when the call paged backwards).
    """

    def __init__(self, page: Dict[str, Any], fetch: Callable[[Dict[str, Any]], Dict[str, Any]], params: Dict[str, Any]) -> None:
        self.object: str = page.get("object", "list")
        self.data: List[T] = list(page.get("data", []))
        self.has_more: bool = bool(page.get("has_more", False))
        self.url: str = page.get("url", "")
        self._fetch = fetch
        self._params = params

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"ListObject(url={self.url!r}, items={len(self.data)}, has_more={self.has_more})"

    def auto_paging_iter(self) -> Iterator[T]:
        """Every item of this list, fetching the next pages as the iteration reaches them."""
        backwards = self._params.get("ending_before") is not None
        rest = {k: v for k, v in self._params.items() if k not in ("starting_after", "ending_before")}
        page: ListObject[T] = self
        while True:
            yield from (reversed(page.data) if backwards else page.data)
            if not page.has_more or not page.data:
                return
            cursor = (
                {"ending_before": page.data[0]["id"]}  # type: ignore[index]
                if backwards
                else {"starting_after": page.data[-1]["id"]}  # type: ignore[index]
            )
            params = {**rest, **cursor}
            page = ListObject(self._fetch(params), self._fetch, params)
