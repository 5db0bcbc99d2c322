"""Ball identities through time in table mm, motion, strokes and stroke events."""
