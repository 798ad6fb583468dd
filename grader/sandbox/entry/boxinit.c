/* The first process of a bwrap sandbox (PID 1 of the run's own PID namespace), in one exec.
 *
 *   boxinit [-j FD]... [-r RESOURCE:SOFT:HARD]... [-u UID] -- PROGRAM [ARG]...
 *
 * It does what a `sh` (the namespace's init), the runner's move of the sandbox into its slot and
 * `setpriv` (the uid drop) did in three steps, so a run costs one program start instead of three and
 * no move of another process by pid (which waits for an RCU grace period on cgroup v1):
 *
 *  1. joins the run's slot: writes "0" (itself) into each FD, a slot cgroup's `tasks` (v1) or
 *     `cgroup.procs` (v2) that the runner opened outside the sandbox, and closes it;
 *  2. forks the program: in the child, the rlimits, then (with -u) every capability dropped from the
 *     bounding set, no supplementary groups, real/effective/saved gid and uid UID, no capability left
 *     at all, no_new_privs, every fd above 2 closed, the environment without the run's secret; exec;
 *  3. waits: reaps every process that ends in the namespace until the program itself ends, then exits
 *     with its status (128 + N for a program killed by signal N, as a shell reports it). Its end ends
 *     the namespace: the kernel kills whatever the program left behind.
 *
 * A step that fails before the program starts exits 125 with "grader sandbox: [TOKEN] " and what
 * failed on stderr; TOKEN is the run's secret, read from NPUZZLE_SHIM_TOKEN and wiped from this
 * process's memory (a program running as the same uid could read /proc/1/environ otherwise). A
 * program can print anything and exit 125 too: only a message with the token is the grader's.
 * A program that cannot be executed gets exit 127 (not found) or 126, as a shell reports it.
 *
 * Resident (``boxinit -S SOCKFD [-s FILTERFD] [-t TMPBYTES]``, grader.sandbox.entry.resident): PID 1 of a
 * sandbox bwrap builds once per box, serving one run at a time over the SOCK_SEQPACKET socket SOCKFD. A
 * request is one message: NUL-separated strings (the run's token; the arguments above without -j,
 * through "--"; how many words the program's argv has; that argv; the environment) and the fds stdin,
 * stdout, stderr, then the slot's join fds. For each, it clones a child in new PID, mount, network, IPC
 * and UTS namespaces; the child (the run's PID 1) mounts a fresh /proc (what bwrap covers read-only,
 * covered so) and /tmp (bwrap's /dev/shm is root's, so no run writes there), brings its loopback up as
 * bwrap does, takes the fds, starts a session, joins, and runs the program as in steps 1-3 (the filter
 * FILTERFD, read once, loaded in the program's process after no_new_privs). The reply is "S" with a pidfd
 * of the run's PID 1, or "F" and why not; when that PID 1 ends, "E STATUS UTIME_US STIME_US MAXRSS_KB".
 * When the grader's end of the socket closes (it ended, even killed), it kills the run and exits, and the
 * kernel ends everything in the box.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHIM_EXIT 125
#define TOKEN_ENV "NPUZZLE_SHIM_TOKEN"
#define MAX_LIMITS 16
#define MAX_FDS 16
#define REQUEST_BYTES (512 * 1024)
#define MAX_WORDS 8192
#define BOX "/run/box"

static char token[80];

/* What one run is to be: its rlimits, uid and program (parsed from arguments or a request). */
struct job {
  struct rlimit limits[MAX_LIMITS];
  int resources[MAX_LIMITS], count;
  long uid;
  char **program;
};

static struct sock_fprog filter; /* resident: the seccomp filter (len 0: none) */

static void fault(const char *what) {
  int saved = errno;
  dprintf(2, "grader sandbox: [%s] %s: %s\n", token, what, saved ? strerror(saved) : "bad arguments");
  _exit(SHIM_EXIT);
}

/* The token, copied; its bytes in the environment block (what /proc/PID/environ shows) zeroed. */
static void take_token(void) {
  char *value = getenv(TOKEN_ENV);
  if (value == NULL) return;
  snprintf(token, sizeof token, "%s", value);
  memset(value, 0, strlen(value));
  unsetenv(TOKEN_ENV);
}

static long number(const char *text, char **end) {
  errno = 0;
  long long value = strtoll(text, end, 10);
  if (errno || *end == text) {
    errno = 0;
    fault("cannot read a number in the arguments");
  }
  return (long)value;
}

static void close_above_stderr(void) {
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
  long top = sysconf(_SC_OPEN_MAX);
  for (long fd = 3; fd < (top > 0 ? top : 65536); fd++) close((int)fd);
}

static void drop_to(uid_t uid) {
  for (int cap = 0; cap <= 63; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) fault("cannot drop a capability");
  }
  if (setgroups(0, NULL) != 0) fault("cannot clear the groups");
  if (setresgid(uid, uid, uid) != 0 || setresuid(uid, uid, uid) != 0) fault("cannot drop the uid");
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct none[2];
  memset(none, 0, sizeof none);
  if (syscall(SYS_capset, &header, none) != 0) fault("cannot clear the capabilities");
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) fault("cannot clear ambient capabilities");
  uid_t r, e, s;
  if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid) fault("the uid did not change");
}

/* The arguments from argv[i] through "--" into job (joins: -jFD written at once, when allowed); the
 * index of the program's first argument. */
static int parse(int argc, char **argv, int i, struct job *job, int joins) {
  char *end;
  job->count = 0;
  job->uid = -1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *arg = argv[i];
    if (joins && strncmp(arg, "-j", 2) == 0) {
      int fd = (int)number(arg + 2, &end);
      if (write(fd, "0", 1) != 1) fault("cannot join the run cgroup");
      close(fd);
    } else if (strncmp(arg, "-r", 2) == 0 && job->count < MAX_LIMITS) {
      int k = job->count;
      job->resources[k] = (int)number(arg + 2, &end);
      if (*end != ':') fault("cannot read an rlimit in the arguments");
      job->limits[k].rlim_cur = strtoull(end + 1, &end, 10);
      if (*end != ':') fault("cannot read an rlimit in the arguments");
      job->limits[k].rlim_max = strtoull(end + 1, &end, 10);
      job->count++;
    } else if (strncmp(arg, "-u", 2) == 0) {
      job->uid = number(arg + 2, &end);
    } else {
      errno = 0;
      fault("unknown argument");
    }
  }
  if (i + 1 >= argc) {
    errno = 0;
    fault("no program to run");
  }
  job->program = argv + i + 1;
  return i + 1;
}

/* Steps 2 and 3: the program started, limited and dropped; this process exits with its status. */
static void run_job(const struct job *job) {
  pid_t child = fork();
  if (child < 0) fault("cannot fork the program");
  if (child == 0) {
    for (int k = 0; k < job->count; k++) {
      if (setrlimit(job->resources[k], &job->limits[k]) != 0) fault("cannot set an rlimit");
    }
    if (job->uid >= 0) drop_to((uid_t)job->uid);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fault("cannot set no_new_privs");
    if (filter.len && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) fault("cannot load the seccomp filter");
    close_above_stderr();
    execvp(job->program[0], job->program);
    int failed = errno;
    dprintf(2, "%s: %s\n", job->program[0], strerror(failed));
    _exit(failed == ENOENT ? 127 : 126);
  }
  for (;;) {
    int status;
    pid_t ended = wait(&status);
    if (ended == child) _exit(WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status));
    if (ended < 0 && errno != EINTR) fault("lost the program");
  }
}

/* ---- resident mode ---- */

static char request[REQUEST_BYTES + 1];

static void reply(int sock, const char *text, int fd) {
  struct iovec part = {(void *)text, strlen(text)};
  union {
    char bytes[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
  if (fd >= 0) {
    memset(&control, 0, sizeof control);
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
  }
  if (sendmsg(sock, &message, MSG_NOSIGNAL) < 0) _exit(0); /* the grader is gone */
}

/* The next request: its strings split into words (argv-like, NULL-terminated), its fds; 0 at the end. */
static int receive(int sock, char **words, int max_words, int *fds, int *nfds) {
  union {
    char bytes[CMSG_SPACE(sizeof(int) * MAX_FDS)];
    struct cmsghdr align;
  } control;
  struct iovec part = {request, REQUEST_BYTES};
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes,
                           .msg_controllen = sizeof control.bytes};
  ssize_t got = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
  if (got <= 0) return 0;
  *nfds = 0;
  for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h != NULL; h = CMSG_NXTHDR(&message, h)) {
    if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) {
      int n = (int)((h->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      memcpy(fds + *nfds, CMSG_DATA(h), sizeof(int) * (size_t)n);
      *nfds += n;
    }
  }
  request[got] = '\0';
  int count = 0;
  char *at = request;
  for (; at < request + got && count < max_words - 1; at += strlen(at) + 1) words[count++] = at;
  words[count] = NULL;
  return (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || at < request + got ? -1 : count; /* all, or refused */
}

/* A new mount of `type` at `where` in place of the resident's own (detached, so the run's mount table reads as
 * a bwrap of its own would). */
static void mount_fresh(const char *where, const char *type, const char *options, unsigned long flags) {
  if (umount2(where, MNT_DETACH) != 0 || mount(type, where, type, flags, options) != 0) {
    char what[80];
    snprintf(what, sizeof what, "cannot mount the run's %s", where);
    fault(what);
  }
}

/* What bwrap covers read-only in its /proc (bwrap.c's cover_proc_dirs): bound onto themselves, read-only. */
static void cover_proc(void) {
  static const char *const covered[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"};
  for (size_t k = 0; k < sizeof covered / sizeof covered[0]; k++) {
    if (access(covered[k], W_OK) != 0) {
      if (errno == EACCES || errno == ENOENT || errno == EROFS) continue; /* as bwrap: nothing to cover */
      fault("cannot check the run's /proc");
    }
    if (mount(covered[k], covered[k], NULL, MS_BIND | MS_REC, NULL) != 0) fault("cannot cover the run's /proc");
    if (mount(NULL, covered[k], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
      fault("cannot make the run's /proc read-only");
  }
}

/* The run's loopback up, as bwrap brings up its network namespace's (the kernel gives it 127.0.0.1 and ::1). */
static void loopback_up(void) {
  struct ifreq request;
  memset(&request, 0, sizeof request);
  snprintf(request.ifr_name, sizeof request.ifr_name, "lo");
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &request) != 0) fault("cannot read the run's loopback");
  request.ifr_flags |= IFF_UP;
  if (ioctl(fd, SIOCSIFFLAGS, &request) != 0) fault("cannot bring up the run's loopback");
  close(fd);
}

/* The run's PID 1, in its new namespaces: its own /proc and /tmp, stdio, session and slot. */
static void enter(char **words, int count, int *fds, int nfds, const char *tmp_options) {
  snprintf(token, sizeof token, "%s", words[0]);
  if (nfds < 3 || dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0) _exit(SHIM_EXIT);
  mount_fresh("/proc", "proc", NULL, MS_NOSUID | MS_NODEV | MS_NOEXEC);
  cover_proc();
  mount_fresh("/tmp", "tmpfs", tmp_options, MS_NOSUID | MS_NODEV);
  loopback_up();
  if (setsid() < 0) fault("cannot start a session");
  for (int k = 3; k < nfds; k++) {
    if (write(fds[k], "0", 1) != 1) fault("cannot join the run cgroup");
  }
  if (chdir(BOX) != 0) fault("cannot enter " BOX);
  struct job job;
  int at = parse(count, words, 1, &job, 0); /* the word after "--": how many words the program's argv has */
  char *end;
  long words_in_argv = number(words[at], &end);
  if (*end != '\0' || words_in_argv < 1 || words_in_argv > count - at - 1) {
    errno = 0;
    fault("cannot read the program's arguments");
  }
  static char *program[MAX_WORDS];
  for (long k = 0; k < words_in_argv; k++) program[k] = words[at + 1 + k];
  program[words_in_argv] = NULL; /* any word may be empty: counted, not ended by a marker */
  job.program = program;
  environ = words + at + 1 + words_in_argv; /* the rest is the environment, up to the list's NULL */
  run_job(&job);
}

static void load_filter(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0 || info.st_size <= 0 || info.st_size % sizeof(struct sock_filter) != 0) fault("cannot read the filter");
  struct sock_filter *code = malloc((size_t)info.st_size);
  if (code == NULL || pread(fd, code, (size_t)info.st_size, 0) != info.st_size) fault("cannot read the filter");
  close(fd);
  filter.len = (unsigned short)(info.st_size / sizeof(struct sock_filter));
  filter.filter = code;
}

/* Wait for the run's PID 1, or the grader's end (then the run is killed and this process exits). */
static void await(int sock, pid_t run, int pidfd) {
  struct pollfd watch[2] = {{sock, POLLRDHUP, 0}, {pidfd, POLLIN, 0}};
  for (;;) {
    if (poll(watch, 2, -1) < 0 && errno != EINTR) _exit(0);
    if (watch[0].revents & (POLLHUP | POLLRDHUP | POLLERR)) {
      kill(run, SIGKILL);
      _exit(0);
    }
    if (watch[1].revents) break;
  }
  int status;
  struct rusage used;
  if (wait4(run, &status, 0, &used) != run) status = 255 << 8, memset(&used, 0, sizeof used);
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  char text[96];
  snprintf(text, sizeof text, "E %d %lld %lld %ld", status,
           (long long)used.ru_utime.tv_sec * 1000000 + used.ru_utime.tv_usec,
           (long long)used.ru_stime.tv_sec * 1000000 + used.ru_stime.tv_usec, used.ru_maxrss);
  reply(sock, text, -1);
}

static void serve(int sock, const char *tmp_options) {
  signal(SIGPIPE, SIG_IGN);
  /* Every mount private: what a run mounts stays in its own copy of the tree. */
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fault("cannot make the mounts private");
  static char *words[MAX_WORDS];
  int fds[MAX_FDS];
  for (;;) {
    int nfds = 0;
    int count = receive(sock, words, MAX_WORDS, fds, &nfds);
    if (count == 0) _exit(0);
    pid_t run = -1;
    if (count > 1) {
      run = (pid_t)syscall(SYS_clone, CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | SIGCHLD,
                           0, 0, 0, 0);
      if (run == 0) {
        close(sock);
        enter(words, count, fds, nfds, tmp_options);
      }
    }
    int failed = errno;
    for (int k = 0; k < nfds; k++) close(fds[k]);
    if (count < 0 || count == 1) {
      reply(sock, "F the request could not be read", -1);
      continue;
    }
    int pidfd = run > 0 ? (int)syscall(SYS_pidfd_open, run, 0) : -1;
    if (pidfd < 0) {
      char text[160];
      snprintf(text, sizeof text, "F cannot start the run: %s", strerror(run > 0 ? errno : failed));
      if (run > 0) kill(run, SIGKILL), waitpid(run, NULL, 0);
      reply(sock, text, -1);
      continue;
    }
    reply(sock, "S", pidfd);
    await(sock, run, pidfd);
    close(pidfd);
  }
}

int main(int argc, char **argv) {
  take_token();
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* nothing of this root process is readable from the run */
  if (argc > 2 && strcmp(argv[1], "-S") == 0) {
    char *end, tmp_options[64] = "mode=1777";
    int sock = (int)number(argv[2], &end);
    for (int i = 3; i + 1 < argc; i += 2) {
      if (strcmp(argv[i], "-s") == 0) load_filter((int)number(argv[i + 1], &end));
      else if (strcmp(argv[i], "-t") == 0) snprintf(tmp_options, sizeof tmp_options, "mode=1777,size=%lld", (long long)number(argv[i + 1], &end));
    }
    serve(sock, tmp_options);
  }
  struct job job;
  parse(argc, argv, 1, &job, 1);
  run_job(&job);
}
