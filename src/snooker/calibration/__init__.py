"""Table geometry in mm and the mapping between image pixels and table millimetres."""
