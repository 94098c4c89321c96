"""A standalone Spark cluster on this machine: one master and N workers, started with what the pyspark package ships.

    python deploy/spark_cluster.py start [--workers 2] [--cores 1] [--memory 2g] [--port 7077] [--dir DIR]
    python deploy/spark_cluster.py status
    python deploy/spark_cluster.py env           # the two lines that point the engine at the cluster
    python deploy/spark_cluster.py kill-worker [N] # SIGKILL worker N (default 1) and its executor: a fault test
    python deploy/spark_cluster.py start-worker [N] # start it again
    python deploy/spark_cluster.py stop

The master and the workers are ``$SPARK_HOME/bin/spark-class org.apache.spark.deploy.master.Master`` and
``... org.apache.spark.deploy.worker.Worker spark://HOST:PORT`` (``SPARK_HOME``: the pyspark package's folder), each a
JVM in its own process group, bound to 127.0.0.1. Their process ids, logs and the workers' scratch folders are kept
in ``DIR`` (``$VADA_SPARK_CLUSTER_DIR``, default ``~/.cache/vadaorchestra/spark-cluster``), and so is the
checkpoint folder the engine's executors write to (``DIR/checkpoints``: on one machine every executor reaches it; on
several it must be a shared file system or HDFS). ``stop`` ends exactly the processes ``start`` recorded.

``start`` waits until every worker has registered with the master (its web UI's JSON, ``http://127.0.0.1:8080/json``)
and prints what to export::

    export VADA_SPARK_MASTER=spark://127.0.0.1:7077
    export VADA_SPARK_CHECKPOINT_DIR=/root/.cache/vadaorchestra/spark-cluster/checkpoints

An application on a standalone cluster takes every free core by default: a second application (another process
running the engine) waits until the first one ends.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HOST = "127.0.0.1"


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def state_dir(given: str | None = None) -> Path:
    return Path(given or os.environ.get("VADA_SPARK_CLUSTER_DIR")
                or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vadaorchestra" / "spark-cluster")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (our child, ended, not reaped) is not alive
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return True


def _pids(folder: Path) -> dict[str, int]:
    path = folder / "pids.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _save(folder: Path, pids: dict[str, int]) -> None:
    (folder / "pids.json").write_text(json.dumps(pids, indent=1))


def master_state(ui_port: int = 8080, timeout: float = 2.0) -> dict | None:
    """The master's state as its web UI's JSON gives it (workers, cores, applications), None when it does not answer."""
    try:
        with urllib.request.urlopen(f"http://{HOST}:{ui_port}/json", timeout=timeout) as r:
            return json.loads(r.read())
    except (OSError, ValueError):
        return None


def _launch(folder: Path, name: str, args: list[str], env: dict[str, str]) -> int:
    log = (folder / f"{name}.log").open("ab")
    proc = subprocess.Popen([str(spark_home() / "bin" / "spark-class"), *args], stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    log.close()
    return proc.pid


def start(workers: int = 2, cores: int = 1, memory: str = "2g", port: int = 7077, ui_port: int = 8080,
          folder: Path | None = None, wait: float = 90.0) -> dict:
    """Start the master and ``workers`` workers (``cores`` and ``memory`` each); the master URL, the checkpoint folder
    and the process ids. Fails, naming the log to read, when they do not come up within ``wait`` seconds."""
    folder = folder or state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    running = {k: p for k, p in _pids(folder).items() if _alive(p)}
    if running:
        raise SystemExit(f"a cluster started from {folder} is running ({', '.join(sorted(running))}): stop it first")
    checkpoints = folder / "checkpoints"
    checkpoints.mkdir(exist_ok=True)
    env = _env(folder)
    master = f"spark://{HOST}:{port}"
    (folder / "cluster.json").write_text(json.dumps({"master": master, "cores": cores, "memory": memory,
                                                     "ui_port": ui_port, "workers": workers}))
    pids = {"master": _launch(folder, "master", ["org.apache.spark.deploy.master.Master", "--host", HOST, "--port",
                                                 str(port), "--webui-port", str(ui_port)], env)}
    _save(folder, pids)
    for i in range(1, workers + 1):
        pids[f"worker{i}"] = _launch_worker(folder, i, master, cores, memory, ui_port, env)
        _save(folder, pids)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        state = master_state(ui_port)
        alive = [w for w in (state or {}).get("workers", []) if w.get("state") == "ALIVE"]
        if len(alive) >= workers:
            return {"master": master, "checkpoints": str(checkpoints), "pids": pids, "folder": str(folder)}
        dead = [k for k, p in pids.items() if not _alive(p)]
        if dead:
            break
        time.sleep(0.5)
    stop(folder)
    raise SystemExit(f"the cluster did not come up within {wait:.0f} s; see the logs in {folder} (master.log, "
                     "worker1.log, ...)")


def _env(folder: Path) -> dict[str, str]:
    return {**os.environ, "SPARK_HOME": str(spark_home()), "SPARK_LOCAL_IP": HOST, "SPARK_LOG_DIR": str(folder),
            "SPARK_NO_DAEMONIZE": "1", "PYSPARK_PYTHON": sys.executable}


def _launch_worker(folder: Path, i: int, master: str, cores: int, memory: str, ui_port: int, env) -> int:
    work = folder / f"worker{i}"
    work.mkdir(exist_ok=True)
    return _launch(folder, f"worker{i}", ["org.apache.spark.deploy.worker.Worker", master, "--host", HOST, "--cores",
                                          str(cores), "--memory", memory, "--work-dir", str(work), "--webui-port",
                                          str(ui_port + i)], env)


def start_worker(n: int = 1, folder: Path | None = None, wait: float = 90.0) -> int:
    """Start worker ``n`` again (after :func:`kill_worker`), as ``start`` made it; its pid once it is registered."""
    folder = folder or state_dir()
    config = json.loads((folder / "cluster.json").read_text())
    pids = _pids(folder)
    if pids.get(f"worker{n}") and _alive(pids[f"worker{n}"]):
        return pids[f"worker{n}"]
    pids[f"worker{n}"] = _launch_worker(folder, n, config["master"], config["cores"], config["memory"],
                                        config["ui_port"], _env(folder))
    _save(folder, pids)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        state = master_state(config["ui_port"]) or {}
        if sum(w.get("state") == "ALIVE" for w in state.get("workers", [])) >= config["workers"]:
            return pids[f"worker{n}"]
        time.sleep(0.5)
    raise SystemExit(f"worker{n} did not register again within {wait:.0f} s; see {folder / f'worker{n}.log'}")


def stop(folder: Path | None = None) -> list[str]:
    """End the processes ``start`` recorded (each JVM's process group: the worker's executors too); what was stopped."""
    folder = folder or state_dir()
    pids = _pids(folder)
    stopped = []
    for name, pid in sorted(pids.items(), key=lambda kv: kv[0] == "master"):  # workers first
        if _alive(pid):
            with _suppress():
                os.killpg(pid, signal.SIGTERM)
            stopped.append(name)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(p) for p in pids.values()):
        time.sleep(0.2)
    for pid in pids.values():
        if _alive(pid):
            with _suppress():
                os.killpg(pid, signal.SIGKILL)
    (folder / "pids.json").unlink(missing_ok=True)
    return stopped


def kill_worker(n: int = 1, folder: Path | None = None) -> int:
    """SIGKILL worker ``n`` and the executor it launched (its process group): a machine lost mid-run; the pid."""
    folder = folder or state_dir()
    pid = _pids(folder).get(f"worker{n}")
    if pid is None or not _alive(pid):
        raise SystemExit(f"worker{n} is not running")
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    os.killpg(pid, signal.SIGKILL)
    for child in children:  # an executor started in a group of its own
        with _suppress():
            os.kill(int(child), signal.SIGKILL)
    return pid


class _suppress:
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return kind is not None and issubclass(kind, ProcessLookupError | PermissionError)


def env_lines(folder: Path | None = None, port: int = 7077) -> str:
    folder = folder or state_dir()
    return (f"export VADA_SPARK_MASTER=spark://{HOST}:{port}\n"
            f"export VADA_SPARK_CHECKPOINT_DIR={folder / 'checkpoints'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=("start", "stop", "status", "env", "kill-worker", "start-worker"))
    ap.add_argument("n", nargs="?", type=int, default=1, help="kill-worker, start-worker: which one (default 1)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cores", type=int, default=1, help="cores per worker (default 1)")
    ap.add_argument("--memory", default="2g", help="memory per worker for its executors (default 2g)")
    ap.add_argument("--port", type=int, default=7077)
    ap.add_argument("--ui-port", type=int, default=8080)
    ap.add_argument("--dir", help="state folder (default $VADA_SPARK_CLUSTER_DIR or ~/.cache/vadaorchestra/"
                                  "spark-cluster)")
    args = ap.parse_args(argv)
    folder = state_dir(args.dir)
    if args.command == "start":
        info = start(args.workers, args.cores, args.memory, args.port, args.ui_port, folder)
        print(f"master {info['master']} with {args.workers} workers ({args.cores} core(s), {args.memory} each); "
              f"logs in {folder}", file=sys.stderr)
        print(env_lines(folder, args.port))
    elif args.command == "stop":
        stopped = stop(folder)
        print(f"stopped: {', '.join(stopped) or 'nothing was running'}", file=sys.stderr)
    elif args.command == "env":
        print(env_lines(folder, args.port))
    elif args.command == "start-worker":
        print(f"worker{args.n} started again (pid {start_worker(args.n, folder)})", file=sys.stderr)
    elif args.command == "kill-worker":
        print(f"killed worker{args.n} (pid {kill_worker(args.n, folder)})", file=sys.stderr)
    else:
        state = master_state(args.ui_port)
        pids = {k: (p, _alive(p)) for k, p in _pids(folder).items()}
        for name, (pid, up) in sorted(pids.items()):
            print(f"{name}: pid {pid} {'running' if up else 'gone'}")
        if state is None:
            print("master: not answering")
            return 1
        print(f"master {state.get('url')}: {state.get('status')}, workers alive "
              f"{sum(w.get('state') == 'ALIVE' for w in state.get('workers', []))}, cores {state.get('cores')} "
              f"(used {state.get('coresused')}), applications running {len(state.get('activeapps', []))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
