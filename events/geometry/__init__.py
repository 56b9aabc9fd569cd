"""Board geometry as small integer functions: graphs, hexes (and, later, squares)."""
