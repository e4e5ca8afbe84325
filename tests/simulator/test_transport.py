"""The worker plumbing of roc_site/celery.py, without a worker: the filesystem transport's in-flight messages and
the pool lock that a killed process releases. (End to end with real workers: test_broker.py.)"""
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from kombu import Connection, Exchange, Producer, Queue

from roc_site.celery import DeathReleasedLock, FilesystemTransport


@pytest.fixture
def folders(tmp_path):
    out = {name: tmp_path / name for name in ("queue", "inflight", "control")}
    for path in out.values():
        path.mkdir()
    return out


@pytest.fixture(autouse=True)
def fresh_queue(monkeypatch):
    """A queue of its own per test: kombu keeps declared exchanges in process-wide state."""
    name = f"jobs-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(sys.modules[__name__], "QUEUE", Queue(name, Exchange(name, type="direct"), routing_key=name))


def _connection(folders) -> Connection:
    return Connection("filesystem://", transport=FilesystemTransport, transport_options={
        "data_folder_in": str(folders["queue"]), "data_folder_out": str(folders["queue"]),
        "inflight_folder": str(folders["inflight"]), "control_folder": str(folders["control"])})


QUEUE = Queue("jobs", Exchange("jobs", type="direct"), routing_key="jobs")


def _publish(conn, body) -> None:
    Producer(conn.channel()).publish(body, exchange=QUEUE.exchange, routing_key=QUEUE.routing_key, declare=[QUEUE],
                                     serializer="json")


def _held(folders) -> list[str]:
    return sorted(name for owner in os.listdir(folders["inflight"])
                  for name in os.listdir(folders["inflight"] / owner))


def test_a_taken_message_stays_in_flight_until_acknowledged(folders):
    with _connection(folders) as conn:
        _publish(conn, {"n": 1})
        assert len(os.listdir(folders["queue"])) == 1
        message = QUEUE(conn.channel()).get()
        assert message.payload == {"n": 1}
        assert os.listdir(folders["queue"]) == []
        assert len(_held(folders)) == 1
        message.ack()
        assert _held(folders) == []


def test_a_rejected_message_goes_back_to_the_queue(folders):
    with _connection(folders) as conn:
        _publish(conn, {"n": 2})
        message = QUEUE(conn.channel()).get()
        message.reject(requeue=True)
        assert _held(folders) == []
        again = QUEUE(conn.channel()).get()
        assert again.payload == {"n": 2}


def test_no_message_is_visible_half_written(folders):
    with _connection(folders) as conn:
        _publish(conn, {"n": 3, "pad": "x" * 100_000})
    names = os.listdir(folders["queue"])
    assert len(names) == 1 and not names[0].startswith(".")
    # What a consumer sees in the folder is only ever the whole message: it is written aside and renamed.
    with _connection(folders) as conn:
        assert QUEUE(conn.channel()).get().payload["n"] == 3


@pytest.mark.processes
def test_the_messages_of_a_dead_consumer_go_back_to_the_queue(folders):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    owner = folders["inflight"] / f"{gone.pid}.12345.deadbeef"
    owner.mkdir()
    with _connection(folders) as conn:
        _publish(conn, {"n": 4})
        (name,) = os.listdir(folders["queue"])
        os.rename(folders["queue"] / name, owner / name)  # as if that process had taken it and died
        live = folders["inflight"] / f"{os.getpid()}.0.cafe"  # a live pid, but another start time: also dead
        live.mkdir()
        message = QUEUE(conn.channel()).get()
        assert message.payload == {"n": 4}
        assert not owner.exists() and not live.exists()
        message.ack()


def test_a_live_consumers_messages_are_left_alone(folders):
    with _connection(folders) as conn:
        _publish(conn, {"n": 5})
        first = conn.channel()
        message = QUEUE(first).get()
        other = _connection(folders)
        try:
            assert QUEUE(other.channel()).get() is None  # recovery ran and found its owner alive
        finally:
            other.release()
        assert len(_held(folders)) == 1
        message.ack()


def test_the_pool_lock_is_released_when_its_holder_is_killed():
    lock = DeathReleasedLock()
    pid = os.fork()
    if pid == 0:  # the child takes the lock and waits to be killed
        lock.acquire()
        time.sleep(60)
        os._exit(0)
    try:
        deadline = time.monotonic() + 10
        while lock.acquire(block=False):  # until the child holds it
            lock.release()
            assert time.monotonic() < deadline, "the child never took the lock"
            time.sleep(0.01)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert lock.acquire(block=False), "the lock stayed held after its holder died"
        lock.release()
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
