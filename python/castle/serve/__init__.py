"""``castle serve``: the game in a web browser. ``app`` (the Starlette app: the JSON endpoints
of docs/serve.md, the guide, the page's files), ``guard`` (token, origin, host, body size, the
player of each request), ``players`` (each player's store, table and lock), ``page/`` (the
page: HTML, CSS and JavaScript modules, no build step)."""
