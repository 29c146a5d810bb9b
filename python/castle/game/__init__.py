"""The game: :class:`castle.Game` and :class:`castle.SpiderGame` on what both share (undo,
redo, the clock, scores, saving after each action), the levels, the hints' plans, the fair
Spider player and the players' guide. It decides every rule; front ends reach it through
:class:`castle.Table`. Its public names are re-exported by ``castle``."""
