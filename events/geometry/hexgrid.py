"""Hexes in axial coordinates (q, r), after Red Blob Games' hexagon guide.

The third cube coordinate is s = -q - r. The six directions are a constant table; neighbours of
(q, r) are (q+1, r), (q+1, r-1), (q, r-1), (q-1, r), (q-1, r+1), (q, r+1). Which way a hex is
drawn (flat or pointy top) is the client's business: these functions never see a pixel.
"""

from __future__ import annotations

HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_direction(direction: int) -> tuple:
    if not 0 <= direction < 6:
        raise ValueError(f"hex direction must be 0..5, got {direction}")
    return HEX_DIRECTIONS[direction]


def hex_add(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1])


def hex_neighbor(hex: tuple, direction: int) -> tuple:
    return hex_add(hex, hex_direction(direction))


def hex_neighbors(hex: tuple) -> tuple:
    return tuple(hex_add(hex, d) for d in HEX_DIRECTIONS)


def hex_length(hex: tuple) -> int:
    q, r = hex
    return (abs(q) + abs(r) + abs(-q - r)) // 2


def hex_distance(a: tuple, b: tuple) -> int:
    return hex_length((a[0] - b[0], a[1] - b[1]))


def hex_from_offset(col: int, row: int) -> tuple:
    """Axial coordinates of a cell in an "odd-r" offset grid (rows shoved right on odd rows)."""
    return (col - (row - (row & 1)) // 2, row)


def hex_to_offset(hex: tuple) -> tuple:
    q, r = hex
    return (q + (r - (r & 1)) // 2, r)


def hex_from_column_offset(col: int, row: int) -> tuple:
    """Axial coordinates of a cell in an "odd-q" offset grid (flat tops; odd columns shoved down half a hex).

    How a printed Gloomhaven map is laid out: columns of hexes, each even column half a hex higher.
    """
    return (col, row - (col - (col & 1)) // 2)


def hex_to_column_offset(hex: tuple) -> tuple:
    q, r = hex
    return (q, r + (q - (q & 1)) // 2)
