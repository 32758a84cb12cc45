"""The gunicorn worker class ``manage.py serve`` runs when no access log is asked for (``WEB_ACCESS_LOG`` unset).

uvicorn logs every request through Python's logging even when gunicorn sends its access log nowhere: a log
record per request, ~4% of a small request's CPU here. At a club table every phone refreshes after every move,
so such a log holds thousands of lines an evening that nobody reads; the reverse proxy of a larger setup keeps
its own. With ``WEB_ACCESS_LOG`` set, ``serve`` runs uvicorn's own worker with gunicorn's access log."""
from uvicorn_worker import UvicornWorker


class QuietUvicornWorker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "access_log": False}
