"""Solving: a deal (castle or Spider, from its number or its board text), the solver's answer
and its moves, and the verdicts the package ships (:func:`castle.known_verdict`). The data flows
one way: deal -> the core's search -> solution. Its public names are re-exported by ``castle``."""
