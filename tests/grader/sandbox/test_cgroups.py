"""Finding the cgroup hierarchy from /proc's own words, and a slot's accounting, on fake cgroup folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.sandbox import cgroups


def mountinfo(*mounts: tuple[str, Path, str, str]) -> str:
    """mountinfo lines: (fs type, mount point, root inside the hierarchy, super options)."""
    return "\n".join(f"{30 + n} 23 0:{n} {root} {point} rw,relatime - {kind} {kind} rw,{options}"
                     for n, (kind, point, root, options) in enumerate(mounts))


def v1_machine(tmp_path: Path, own: str = "/", mount_root: str = "/") -> tuple[str, str]:
    mounts, lines = [], []
    for number, name in enumerate(["memory", "pids", "cpuacct", "cpu"]):
        point = tmp_path / name
        inside = own[len(mount_root):] if mount_root != "/" else own
        (point / inside.lstrip("/")).mkdir(parents=True, exist_ok=True)
        mounts.append(("cgroup", point, mount_root, name))
        lines.append(f"{number + 1}:{name}:{own}")
    lines.append("0::/")
    return "\n".join(lines), mountinfo(*mounts)


def test_cgroup_v1_as_on_this_machine(tmp_path):
    found = cgroups.detect(*v1_machine(tmp_path))
    assert isinstance(found, cgroups.Hierarchy) and found.version == 1
    assert found.parents == {name: tmp_path / name for name in ["memory", "pids", "cpuacct", "cpu"]}


def test_a_containers_cgroup_is_found_inside_its_mount(tmp_path):
    # The mount shows the hierarchy from /docker/abc on; the grader sits in /docker/abc/grader.
    found = cgroups.detect(*v1_machine(tmp_path, own="/docker/abc/grader", mount_root="/docker/abc"))
    assert isinstance(found, cgroups.Hierarchy)
    assert found.parents["memory"] == tmp_path / "memory" / "grader"


@pytest.mark.parametrize(("mount_root", "own", "where"), [
    ("/", "/grader", "grader"),
    ("/docker/abc", "/docker/abc/grader", "grader"),
    ("/docker/abc/", "/docker/abc/grader", "grader"),
    ("/docker/abc", "/docker/abc", ""),
    # A sibling whose name starts with the mount's root is not under it: its path stays whole.
    ("/docker/abc", "/docker/abcd/grader", "docker/abcd/grader"),
])
def test_a_cgroup_path_as_a_mount_shows_it(mount_root, own, where):
    # The same reading serves the slot groups and the container's limits (grader.integrations.container).
    assert cgroups.inside(Path("/cg"), mount_root, own) == Path("/cg") / where


def v2_root(tmp_path: Path, controllers: str) -> Path:
    root = tmp_path / "unified"
    root.mkdir()
    (root / "cgroup.controllers").write_text(controllers + "\n")
    (root / "cgroup.subtree_control").write_text("")
    return root


def test_cgroup_v2_enables_its_controllers_for_the_slots(tmp_path):
    root = v2_root(tmp_path, "cpuset cpu io memory pids")
    found = cgroups.detect("0::/\n", mountinfo(("cgroup2", root, "/", "nsdelegate")))
    assert isinstance(found, cgroups.Hierarchy) and found.version == 2
    assert set(found.parents.values()) == {root}
    assert (root / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"


def test_a_v2_without_memory_falls_back_to_v1_and_says_why_when_nothing_fits(tmp_path):
    root = v2_root(tmp_path, "hugetlb")  # as this machine's /sys/fs/cgroup/unified
    proc, info = v1_machine(tmp_path)
    found = cgroups.detect(proc, info + "\n" + mountinfo(("cgroup2", root, "/", "rw")))
    assert isinstance(found, cgroups.Hierarchy) and found.version == 1
    why = cgroups.detect("0::/\n", mountinfo(("cgroup2", root, "/", "rw")))
    assert isinstance(why, str) and "lacks the memory, pids, cpu controller(s)" in why
    assert cgroups.detect("", "") == "no cgroup file system is mounted"


def fake_v2_slot(tmp_path: Path) -> cgroups.SlotGroup:
    root = v2_root(tmp_path, "cpu memory pids")
    group = cgroups.SlotGroup(cgroups.Hierarchy(2, {c: root for c in cgroups.V2_CONTROLLERS}), "npuzzle-grader-x")
    group.create()
    folder = root / "npuzzle-grader-x"
    (folder / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\n")
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    (folder / "pids.events").write_text("max 0\n")
    (folder / "memory.peak").write_text("1000\n")
    (folder / "cgroup.procs").write_text("")
    return group


def test_a_slot_counts_one_run_from_its_start(tmp_path):
    group = fake_v2_slot(tmp_path)
    group.configure(300 * 2**20, 1024)
    folder = group.dirs["memory"]
    assert (folder / "memory.max").read_text() == str(300 * 2**20) and (folder / "pids.max").read_text() == "1024"
    start = group.start()
    (folder / "cpu.stat").write_text("usage_usec 4000000\n")   # the run's processes, all together
    (folder / "memory.events").write_text("max 9\noom 2\noom_kill 2\n")
    (folder / "pids.events").write_text("max 5\n")
    (folder / "memory.peak").write_text(str(301 * 2**20))
    used = group.usage(start)
    # run_peak_bytes reads memory.peak through the fd start() reset (the kernel then keeps a peak per fd)
    assert used == cgroups.Usage(cpu_seconds=2.5, oom_killed=True, memory_peak_bytes=301 * 2**20,
                                 pids_limit_hit=True, run_peak_bytes=301 * 2**20)
    (folder / "memory.peak").write_text(str(301 * 2**20))
    again = group.start()  # the next run of the slot starts from the counters as they are
    (folder / "memory.peak").write_text(str(301 * 2**20))  # a fake file keeps what start() wrote through its fd
    assert group.usage(again) == cgroups.Usage(0.0, False, 301 * 2**20, False, run_peak_bytes=301 * 2**20)


@pytest.mark.parametrize("name", ["a'b", "x;rm -rf /"])
def test_join_argv_quotes_nothing_a_run_controls(tmp_path, name):
    group = cgroups.SlotGroup(cgroups.Hierarchy(1, {"memory": tmp_path}), "npuzzle-grader-1")
    group.dirs = {"memory": tmp_path / "npuzzle-grader-1"}
    argv = cgroups.join_argv(group)
    assert argv[:2] == ["/bin/sh", "-c"] and argv[3] == "sh" and 'exec "$@"' in argv[2]
    assert f"echo 0 > '{tmp_path / 'npuzzle-grader-1' / 'tasks'}'" in argv[2]


def test_a_v1_run_joins_through_tasks_a_v2_run_through_cgroup_procs(tmp_path):
    """v1: "0" into tasks moves the writing thread alone, without the kernel's machine-wide lock that
    moving another process (or a pid into cgroup.procs) takes; v2 has no such file for a domain cgroup."""
    v1 = cgroups.SlotGroup(cgroups.Hierarchy(1, {}), "npuzzle-grader-1")
    v1.dirs = {"cpu": tmp_path / "cpu", "cpuacct": tmp_path / "cpu", "memory": tmp_path / "memory"}
    script = cgroups.join_argv(v1)[2]
    assert v1.joins_itself and "$$" not in script and "cgroup.procs" not in script
    assert script.count("echo 0 > ") == 2  # one per distinct folder (cpu and cpuacct mounted together)
    v2 = cgroups.SlotGroup(cgroups.Hierarchy(2, {}), "npuzzle-grader-1")
    v2.dirs = {"cpu": tmp_path, "memory": tmp_path}
    assert not v2.joins_itself
    assert cgroups.join_argv(v2)[2].count(f"echo 0 > '{tmp_path / 'cgroup.procs'}'") == 1
    assert v2.self_joins == [tmp_path / "cgroup.procs"]
    assert v1.self_joins == [tmp_path / "cpu" / "tasks", tmp_path / "memory" / "tasks"]
