"""The Celery app. Configured from Django settings (CELERY_* names only).

Also the worker's process pool (settings.CELERY_WORKER_POOL = "roc_site.celery:TaskPool"): Celery's prefork pool
with one fix for transports that are not asynchronous, such as the embedded filesystem broker.

Why: with such a transport the worker runs billiard's blocking pool, whose children all read their tasks from one
shared pipe guarded by a semaphore. An idle child waits *inside* the read with the semaphore held; if that child
dies (SIGKILL, the OOM killer), the semaphore is never released, so no child — not the others, not the
replacement — ever reads another task: the next message is stranded in the worker until it is killed, and even
a warm shutdown hangs (it takes the same semaphore). The same holds for the results pipe, whose writers are the
children. Here both locks are POSIX record locks (fcntl) on an unlinked file, which the kernel releases when the
holding process dies, plus a thread lock within each process. Redis and RabbitMQ run the asynchronous pool,
with one pipe per child, and never use these locks. (tests/simulator/test_broker.py kills pool children.)

And the embedded broker's transport (settings.CELERY_BROKER_TRANSPORT = "roc_site.celery:FilesystemTransport"):
kombu's filesystem transport with two fixes.
- A message file is written under a name the consumers ignore and then renamed into place. kombu writes it in
  place, so a worker polling the folder could take the file before its content was written, fail to decode the
  empty file and stop consuming altogether ("Unrecoverable error: JSONDecodeError"); polling 20 times a second
  made that common.
- A message a worker has taken but not acknowledged is kept as a file in an in-flight folder of its own (kombu
  deletes it on delivery and keeps it only in the worker's memory), and is removed on ack. When that worker
  dies without giving its messages back (SIGKILL, the OOM killer), any other consumer of the same
  folders puts them back in the queue within a couple of seconds: the same promise as acks_late on Redis or
  RabbitMQ, without a visibility timeout, since a dead process is recognised by its process id and start time.
"""
from __future__ import annotations

import fcntl
import logging
import os
import tempfile
import threading
import time
import uuid
from pathlib import Path
from queue import Empty

from billiard.pool import Pool as _BilliardPool
from celery import Celery, bootsteps
from celery.concurrency import prefork
from kombu.transport import filesystem as _filesystem
from kombu.transport import virtual as _virtual
from kombu.utils.json import dumps as _dumps
from kombu.utils.json import loads as _loads

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.dev")

app = Celery("roc_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class DeathReleasedLock:
    """A lock shared by a process and its forked children that is released when its holder dies."""

    def __init__(self) -> None:
        fd, path = tempfile.mkstemp(prefix="roc-pool-lock-")
        os.unlink(path)  # the open descriptor is all that is needed; nothing is left on disk
        self._fd = fd  # inherited by forked children: record locks are per process, so they still exclude
        self._pid = os.getpid()
        self._threads = threading.Lock()

    def _thread_lock(self) -> threading.Lock:
        if self._pid != os.getpid():  # a forked child: never inherit a thread lock held at fork time
            self._pid = os.getpid()
            self._threads = threading.Lock()
        return self._threads

    def acquire(self, block: bool = True, timeout: float | None = None) -> bool:
        threads = self._thread_lock()
        if not threads.acquire(block, -1 if timeout is None or not block else timeout):
            return False
        try:
            if block:
                fcntl.lockf(self._fd, fcntl.LOCK_EX)
            else:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            threads.release()
            return False
        except BaseException:
            threads.release()
            raise
        return True

    def release(self) -> None:
        fcntl.lockf(self._fd, fcntl.LOCK_UN)
        self._thread_lock().release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


class BlockingPool(_BilliardPool):
    """billiard's pool with its children's shared-pipe locks replaced by DeathReleasedLock (see above)."""

    def _setup_queues(self):
        super()._setup_queues()
        self._inqueue._rlock = DeathReleasedLock()   # children take tasks
        self._outqueue._wlock = DeathReleasedLock()  # children post results


class TaskPool(prefork.TaskPool):
    """Celery's prefork pool (`-P prefork` options all apply) using the BlockingPool above."""

    BlockingPool = BlockingPool


# ---- the embedded broker's transport ---------------------------------------------------------------------
log = logging.getLogger(__name__)


def _process_start(pid: int) -> str | None:
    """The process's start time (clock ticks since boot, from /proc), or None if no such process runs."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        if Path("/proc/self/stat").exists():
            return None
        try:  # no /proc: whether the pid exists at all
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return "?"


class _InFlightQoS(_virtual.QoS):
    """kombu's in-memory QoS, plus: an acknowledged or rejected message's in-flight file is removed."""

    def ack(self, delivery_tag):
        super().ack(delivery_tag)
        self.channel._forget(delivery_tag)

    def reject(self, delivery_tag, requeue=False):
        super().reject(delivery_tag, requeue=requeue)  # requeue: written back to the queue first
        self.channel._forget(delivery_tag)

    def restore_unacked(self):  # a warm shutdown gives its messages back: their in-flight files go
        held = dict(self._delivered)
        errors = super().restore_unacked()
        failed = {id(message) for _, message in errors}
        for tag, message in held.items():
            if id(message) not in failed:
                self.channel._forget(tag)
        return errors


class FilesystemChannel(_filesystem.Channel):
    QoS = _InFlightQoS
    recover_interval = 2.0  # seconds between looks for a dead consumer's messages

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._inflight: dict[str, str] = {}
        self._no_ack_queues: set[str] = set()
        self._owner_dir: str | None = None
        self._next_recover = 0.0

    # ---- folders
    @property
    def inflight_folder(self) -> str:
        folder = self.transport_options.get("inflight_folder")
        return folder or os.path.join(os.path.dirname(os.path.abspath(self.data_folder_in)), "inflight")

    def _owner(self) -> str:
        if self._owner_dir is None or not self._owner_dir.split(os.sep)[-1].startswith(f"{os.getpid()}."):
            pid = os.getpid()
            self._owner_dir = os.path.join(self.inflight_folder, f"{pid}.{_process_start(pid)}.{uuid.uuid4().hex[:8]}")
            os.makedirs(self._owner_dir, exist_ok=True)
        return self._owner_dir

    # ---- writing: never visible half-written
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(time.monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".part-{name}")  # never matches '<queue>.msg' after a dot
        try:
            with open(partial, "wb") as f:
                f.write(_dumps(payload).encode())
            os.rename(partial, final)
        except OSError as exc:
            raise _filesystem.ChannelError(f"Cannot add file {final!r} to directory") from exc

    # ---- reading: kept in flight until acknowledged
    def basic_consume(self, queue, no_ack, callback, consumer_tag, **kwargs):
        if no_ack:  # e.g. the remote-control (pidbox) queue: nothing would ever acknowledge its messages
            self._no_ack_queues.add(queue)
        return super().basic_consume(queue, no_ack, callback, consumer_tag, **kwargs)

    def basic_get(self, queue, no_ack=False, **kwargs):
        message = super().basic_get(queue, no_ack=no_ack, **kwargs)
        if message is not None and no_ack:
            self._forget(message.delivery_tag)
        return message

    def _get(self, queue):
        now = time.monotonic()
        if now >= self._next_recover:
            self._next_recover = now + self.recover_interval
            self._recover_orphans()
        wanted = f"{queue}.msg"
        for filename in sorted(os.listdir(self.data_folder_in)):
            if filename.partition(".")[2] != wanted:
                continue
            source = os.path.join(self.data_folder_in, filename)
            keep = queue not in self._no_ack_queues
            target = os.path.join(self._owner() if keep else self.inflight_folder, filename)
            try:
                os.rename(source, target)
            except FileNotFoundError:
                continue  # another consumer took it first
            except OSError as exc:
                raise _filesystem.ChannelError(f"Cannot take {source!r} from the queue") from exc
            try:
                with open(target, "rb") as f:
                    payload = _loads(f.read().decode())
                tag = payload["properties"]["delivery_tag"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                bad = os.path.join(os.path.dirname(self.inflight_folder), "unreadable")
                os.makedirs(bad, exist_ok=True)
                os.replace(target, os.path.join(bad, filename))
                log.error("unreadable message %s moved to %s: %s", filename, bad, exc)
                continue
            if keep:
                self._inflight[tag] = target
            else:
                os.unlink(target)
            return payload
        raise Empty()

    def _forget(self, delivery_tag) -> None:
        path = self._inflight.pop(delivery_tag, None)
        if path:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    def _recover_orphans(self) -> None:
        """Put back in the queue every message held by a consumer process that no longer runs."""
        try:
            owners = os.listdir(self.inflight_folder)
        except FileNotFoundError:
            return
        for owner in owners:
            pid, _, rest = owner.partition(".")
            started = rest.rpartition(".")[0]
            if not pid.isdigit() or _process_start(int(pid)) in (started, "?"):
                continue
            folder = os.path.join(self.inflight_folder, owner)
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                continue
            for name in names:
                try:
                    os.rename(os.path.join(folder, name), os.path.join(self.data_folder_in, name))
                except FileNotFoundError:
                    continue  # another consumer is recovering the same folder
                log.warning("message %s of dead consumer %s put back in the queue", name, owner)
            try:
                os.rmdir(folder)
            except OSError:
                pass


class FilesystemTransport(_filesystem.Transport):
    """kombu's filesystem transport with atomic writes and durable in-flight messages (see the top)."""

    Channel = FilesystemChannel


# ---- Redis: keep a live worker's messages from being handed out again ----------------------------------------
class RedisUnackedHeartbeat(bootsteps.StartStopStep):
    """A consumer bootstep that re-stamps, every CELERY_UNACKED_HEARTBEAT_S seconds, the Redis messages this
    worker holds unacknowledged (running, reserved or waiting for their ETA).

    Why: on Redis a message taken by a worker is kept in a sorted set of unacknowledged messages, scored by
    when it was delivered; any consumer's periodic sweep puts back in the queue those older than the
    visibility timeout. That timeout is the only way a killed worker's chunks come back, so it bounds how long
    a run stands still — but it also had to exceed the longest chunk (58 s), or a chunk still being computed
    was handed to a second worker. With this heartbeat a live worker's messages never age, so the timeout only
    has to outlast a few missed heartbeats (settings: 20 s, heartbeat 5 s), and the chunks keep their time
    limits. A dead worker stops stamping, and its messages are back within the timeout plus one sweep
    (docs/reliability.md, "Faults"). `XX` stamps only messages still in the set: one acknowledged or restored
    meanwhile is not brought back. RabbitMQ needs none of this: it requeues when the connection drops.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}
    label = "RedisUnackedHeartbeat"

    def __init__(self, c, **kwargs):
        super().__init__(c, **kwargs)
        self.tref = None

    def start(self, c):
        from django.conf import settings

        interval = float(getattr(settings, "ROC_UNACKED_HEARTBEAT_S", 0) or 0)
        channel = getattr(c.task_consumer, "channel", None)
        if interval <= 0 or not hasattr(getattr(channel, "qos", None), "unacked_index_key"):
            return  # not the Redis transport
        self.tref = c.timer.call_repeatedly(interval, heartbeat, (channel,), priority=10)

    def stop(self, c):
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None

    shutdown = stop


def heartbeat(channel) -> int:
    """Stamp now on the unacknowledged messages `channel` holds (kombu's Redis QoS); returns how many."""
    qos = channel.qos
    held = [tag for tag in list(qos._delivered) if tag not in qos._dirty]  # _dirty: acknowledged, not flushed
    if not held:
        return 0
    now = time.time()
    try:
        with channel.conn_or_acquire() as client:
            client.zadd(qos.unacked_index_key, {tag: now for tag in held}, xx=True)
    except Exception:  # noqa: BLE001 - a broker hiccup: the next beat tries again; the consumer must not die
        log.warning("could not stamp %d unacknowledged message(s) on Redis", len(held), exc_info=True)
        return 0
    return len(held)


app.steps["consumer"].add(RedisUnackedHeartbeat)
