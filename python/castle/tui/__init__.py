"""The full-screen terminal player (``castle play``), built on Textual."""
