"""The local web server (FastAPI) and its static front end: see :mod:`amber_patience.web.server`."""
