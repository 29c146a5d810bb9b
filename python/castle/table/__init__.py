"""The table: a game in play for a front end. A front end hands :class:`castle.Table` an
action (:mod:`castle.actions`) and draws the :class:`castle.View` it gets back."""
