"""Finding an existing Dask scheduler by address or scheduler file: fast, one-line failures.

No Slurm needed: the scheduler here is an in-process LocalCluster or nothing at all.
"""

import json
import socket
import threading
import time

import pytest
from dask.distributed import LocalCluster

from knight.runtime.cluster import SCHEDULER_TIMEOUT, check_scheduler, dask_client

# The in-process scheduler opens an HTTP port even without a dashboard; another cluster may hold 8787.
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use:UserWarning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def scheduler():
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def one_line_error(exc_info, *names):
    msg = str(exc_info.value)
    assert "\n" not in msg
    for name in names:
        assert str(name) in msg, msg
    return msg


def test_scheduler_file_is_followed(scheduler, tmp_path):
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps({"type": "Scheduler", "address": scheduler}))
    assert check_scheduler(scheduler_file=path) == scheduler
    assert check_scheduler(address=scheduler) == scheduler
    with dask_client(scheduler_file=str(path)) as client:
        assert client.scheduler.address == scheduler
        assert client.submit(sum, [1, 2, 3]).result() == 6


def test_nothing_listening_fails_at_once():
    address = f"tcp://127.0.0.1:{free_port()}"
    t0 = time.monotonic()
    with pytest.raises(ConnectionError) as exc:
        with dask_client(4, scheduler=address):
            pass
    assert time.monotonic() - t0 < 2
    one_line_error(exc, address)


def serve(reply: bytes | None):
    """A TCP server that is not a Dask scheduler: it sends ``reply`` and hangs up, or (None)
    accepts and stays silent. Returns its address and the socket to close."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []

    def loop():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if reply is None:
                held.append(conn)
            else:
                with conn:
                    conn.sendall(reply)

    threading.Thread(target=loop, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}", server


def test_silent_server_fails_within_30_s():
    """The default timeout bounds a scheduler that accepts but never answers."""
    assert SCHEDULER_TIMEOUT <= 25
    address, server = serve(None)
    t0 = time.monotonic()
    with pytest.raises(ConnectionError) as exc:
        with dask_client(scheduler=address):
            pass
    server.close()
    assert time.monotonic() - t0 < 30
    assert "no answer within" in one_line_error(exc, address)


def test_missing_scheduler_file(tmp_path):
    path = tmp_path / "nowhere.json"
    t0 = time.monotonic()
    with pytest.raises(ValueError) as exc:
        check_scheduler(scheduler_file=path, timeout=2)
    assert time.monotonic() - t0 < 4
    assert "not found" in one_line_error(exc, path)


def test_stale_scheduler_file_names_file_and_address(tmp_path):
    """A file left by a cluster that is gone: the address in it answers nothing."""
    address = f"tcp://127.0.0.1:{free_port()}"
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps({"address": address}))
    with pytest.raises(ConnectionError) as exc:
        check_scheduler(scheduler_file=path, timeout=2)
    one_line_error(exc, path, address)


def test_file_without_address(tmp_path):
    path = tmp_path / "scheduler.json"
    path.write_text("{}")
    with pytest.raises(ValueError) as exc:
        check_scheduler(scheduler_file=path, timeout=1)
    one_line_error(exc, path)


def test_something_else_on_the_port():
    address, server = serve(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 8)
    t0 = time.monotonic()
    with pytest.raises(ConnectionError) as exc:
        check_scheduler(address, timeout=3)
    server.close()
    assert time.monotonic() - t0 < 6
    one_line_error(exc, address)


def test_bad_address_and_bad_arguments():
    with pytest.raises(ValueError) as exc:
        check_scheduler("nonsense://somewhere:1", timeout=1)
    one_line_error(exc, "nonsense://somewhere:1")
    with pytest.raises(ValueError) as exc:
        check_scheduler("tcp://127.0.0.1:99999", timeout=1)
    one_line_error(exc, "tcp://127.0.0.1:99999")
    with pytest.raises(ValueError):
        check_scheduler()
    with pytest.raises(ValueError):
        check_scheduler("tcp://a:1", scheduler_file="f.json")
    with pytest.raises(ValueError, match="not both"):
        with dask_client(scheduler="tcp://a:1", scheduler_file="f.json"):
            pass
