"""The castle search with the switches the tests and the lab set, which the product's
``castle._core`` leaves out: the complete pass alone (:func:`complete_pass`, the second
method's search), its layers from a given table size and its tries at a given one
(``layers_after``, ``orbits_after``), one beam alone (:func:`beam`). Built from ``lab/`` for
the tests only (docs/guide/development.md); each function takes a ``castle._core.Deal`` and
gives moves as ``castle._core`` does."""

from castle_lab._native import beam, complete_pass, solve

__all__ = ["beam", "complete_pass", "solve"]
