"""Services on loopback only: a local Dask cluster started through ``dask_client`` (every
job that computes on Dask without a scheduler of its own) listens on 127.0.0.1 / ::1
only, and its HTTP servers answer no route unless a dashboard is asked for."""

import json
import subprocess
import sys

import pytest

#: Run in a process of its own, so that only this cluster's sockets are counted: the
#: listening TCP sockets of the process (psutil) and what each answers on a few of Dask's
#: routes (the scheduler's identity, worker list and metrics; a worker's metrics).
PROBE = """
import json, sys, urllib.error, urllib.request
import psutil
from knight.runtime.cluster import dask_client

ROUTES = ("/json/identity.json", "/info/main/workers.html", "/metrics", "/health", "/status")
dashboard = sys.argv[1] if len(sys.argv) > 1 else None
with dask_client(2, dashboard=dashboard) as client:
    assert client.submit(sum, [1, 2]).result() == 3
    listening = [c.laddr for c in psutil.Process().net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]
    answers = {}
    for host, port in listening:
        for route in ROUTES:
            url = f"http://{'[' + host + ']' if ':' in host else host}:{port}{route}"
            try:
                answers[url] = urllib.request.urlopen(url, timeout=5).status
            except urllib.error.HTTPError as exc:
                answers[url] = exc.code
print(json.dumps({"listening": [[h, p] for h, p in listening], "answers": answers}))
"""


def probe(*args):
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_local_cluster_listens_on_loopback_only_and_answers_nothing():
    got = probe()
    hosts = {host for host, _ in got["listening"]}
    assert got["listening"] and hosts <= {"127.0.0.1", "::1"}, got["listening"]
    assert len(got["listening"]) == 3  # the scheduler's and the two workers' HTTP servers
    assert set(got["answers"].values()) == {404}, got["answers"]


def test_a_dashboard_is_served_only_where_asked_for():
    got = probe("127.0.0.1:0")
    assert {host for host, _ in got["listening"]} <= {"127.0.0.1", "::1"}, got["listening"]
    identity = [code for url, code in got["answers"].items() if url.endswith("/json/identity.json")]
    assert 200 in identity, got["answers"]


def test_a_bad_dashboard_address_is_refused_in_one_line():
    from knight.runtime.cluster import dask_client

    with pytest.raises(ValueError, match=r"^dask dashboard 'eighty': not an address like 127\.0\.0\.1:8787$"):
        with dask_client(1, dashboard="eighty"):
            pass
