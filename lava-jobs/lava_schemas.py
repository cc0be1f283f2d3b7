"""LAVA's two job validators, for gen-job.py and the tests.

A job goes through two schemas on its way to a board:
  - lava-server's submission check (lava_scheduler_app.schema.validate_submission),
    run by `lavacli jobs submit`: it refuses, e.g., 'params' in an inline
    test definition;
  - lava-dispatcher's job schema (lava_common.schemas.validate, strict): it
    refuses, e.g., 'parameters' on an inline test definition.
lava_common comes with lava-dispatcher (tools/deps.sh lava). lava-server
need not be installed: its .deb is fetched once with `apt-get download`
into build/lava/lava-server/ and its schema module imported from there (it
needs Django: python3-django, which the 'lava' group installs).
LAVA_SERVER_SCHEMA=skip leaves the submission check out (a host without
Django); the tests never set it.
"""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(os.path.dirname(HERE), "build", "lava", "lava-server")
SITE = "usr/lib/python3/dist-packages"


class Unavailable(Exception):
    pass


def _server_schema():
    try:
        from django.conf import settings
    except ImportError as exc:
        raise Unavailable("lava-server's schema needs Django (apt-get install python3-django)") from exc
    if not settings.configured:
        # The only setting the schema reads.
        settings.configure(EXTRA_CONTEXT_VARIABLES=[])
    try:
        import lava_scheduler_app.schema as schema  # lava-server installed
    except ImportError:
        root = os.path.join(CACHE, "root")
        if not glob.glob(os.path.join(root, SITE, "lava_scheduler_app", "schema.py")):
            os.makedirs(CACHE, exist_ok=True)
            for old in glob.glob(os.path.join(CACHE, "*.deb")):
                os.unlink(old)
            r = subprocess.run(["apt-get", "download", "-q", "lava-server"], cwd=CACHE,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            debs = glob.glob(os.path.join(CACHE, "lava-server_*.deb"))
            if not debs:
                raise Unavailable("cannot fetch lava-server's .deb: %s" % r.stdout.strip()[-300:])
            subprocess.run(["dpkg-deb", "-x", debs[0], root], check=True)
        sys.path.append(os.path.join(root, SITE))
        import lava_scheduler_app.schema as schema
    return schema


def validate_job(data):
    """Raise ValueError naming the first validator that refuses the job."""
    from lava_common.schemas import validate as dispatcher_validate
    try:
        dispatcher_validate(data, strict=True)
    except Exception as exc:  # voluptuous.Invalid
        raise ValueError("lava-dispatcher's job schema: %s" % exc) from exc
    if os.environ.get("LAVA_SERVER_SCHEMA") == "skip":
        return
    try:
        schema = _server_schema()
    except Unavailable as exc:
        raise ValueError("%s (or LAVA_SERVER_SCHEMA=skip)" % exc) from exc
    try:
        schema.validate_submission(data)
    except Exception as exc:  # SubmissionException
        raise ValueError("lava-server's submission schema: %s" % exc) from exc
