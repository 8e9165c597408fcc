"""The figures' settings (the workflow's ``figures`` section): resolution, drawn tours,
the symmetric images of one order. The JSON schema gives the types; what it cannot say
(boards parse, starts lie on their boards, orders are permutations) is checked here,
once; :class:`~knight.core.checks.SettingError` names the key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from knight.core.board import Board
from knight.core.checks import Problems, SettingError, board_setting, order_setting, squares_setting


@dataclass(frozen=True)
class Drawn:
    """A drawn tour or order: ``board``, 1-based ``start`` (None for an order's images), ``order``."""

    board: Board
    start: tuple[int, int] | None
    order: str

    @property
    def stem(self) -> str:
        """File stem: ``RxC_R-C_ORDER`` for a tour, ``RxC_ORDER`` for an order's images."""
        if self.start is None:
            return f"{self.board.name}_{self.order}"
        return f"{self.board.name}_{self.start[0]}-{self.start[1]}_{self.order}"


@dataclass(frozen=True)
class FigureSettings:
    """``dpi``, ``annotate_max``, the drawn ``tours``, ``images`` of one order (or None)
    and whether the report shows the ``queens`` plot.

    >>> FigureSettings.from_config({"tours": [{"board": 8, "start": [9, 1], "order": "12345678"}]})
    Traceback (most recent call last):
    knight.core.checks.SettingError: tours[0].start: [9, 1]: off the 8x8 board (rows 1..8, columns 1..8)
    """

    dpi: int = 150
    annotate_max: int = 12
    tours: tuple[Drawn, ...] = ()
    images: Drawn | None = None
    queens: bool = True

    @classmethod
    def from_config(cls, section: Mapping) -> FigureSettings:
        found = Problems()
        tours = []
        for i, item in enumerate(section.get("tours", [])):
            drawn = _drawn(found, f"tours[{i}]", item)
            if drawn is not None:
                tours.append(drawn)
        images = section.get("images_of_order")
        images = _drawn(found, "images_of_order", images) if images is not None else None
        found.raise_any()
        return cls(
            int(section.get("dpi", 150)),
            int(section.get("annotate_max", 12)),
            tuple(dict.fromkeys(tours)),
            images,
            bool(section.get("queens", True)),
        )


def _drawn(found: Problems, key: str, item: Mapping) -> Drawn | None:
    before = len(found.found)
    with found.under(f"{key}.order"):
        order = order_setting(item["order"])
    board = None
    with found.under(f"{key}.board"):
        board = board_setting(item["board"])
    start = None
    if board is not None and "start" in item:
        with found.under(f"{key}.start"):
            try:
                start = squares_setting([item["start"]], [board])[0]
            except SettingError as exc:
                raise SettingError("", exc.message) from None
    return None if len(found.found) > before else Drawn(board, start, order)
