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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHIM_EXIT 125
#define TOKEN_ENV "NPUZZLE_SHIM_TOKEN"
#define MAX_LIMITS 16

static char token[80];

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

int main(int argc, char **argv) {
  take_token();
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* nothing of this root process is readable from the run */
  struct rlimit limits[MAX_LIMITS];
  int resources[MAX_LIMITS], count = 0, i = 1;
  long uid = -1;
  char *end;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *arg = argv[i];
    if (strncmp(arg, "-j", 2) == 0) {
      int fd = (int)number(arg + 2, &end);
      if (write(fd, "0", 1) != 1) fault("cannot join the run cgroup");
      close(fd);
    } else if (strncmp(arg, "-r", 2) == 0 && count < MAX_LIMITS) {
      resources[count] = (int)number(arg + 2, &end);
      if (*end != ':') fault("cannot read an rlimit in the arguments");
      limits[count].rlim_cur = strtoull(end + 1, &end, 10);
      if (*end != ':') fault("cannot read an rlimit in the arguments");
      limits[count].rlim_max = strtoull(end + 1, &end, 10);
      count++;
    } else if (strncmp(arg, "-u", 2) == 0) {
      uid = number(arg + 2, &end);
    } else {
      errno = 0;
      fault("unknown argument");
    }
  }
  if (i + 1 >= argc) {
    errno = 0;
    fault("no program to run");
  }
  char **program = argv + i + 1;
  pid_t child = fork();
  if (child < 0) fault("cannot fork the program");
  if (child == 0) {
    for (int k = 0; k < count; k++) {
      if (setrlimit(resources[k], &limits[k]) != 0) fault("cannot set an rlimit");
    }
    if (uid >= 0) drop_to((uid_t)uid);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fault("cannot set no_new_privs");
    close_above_stderr();
    execvp(program[0], program);
    int failed = errno;
    dprintf(2, "%s: %s\n", program[0], strerror(failed));
    _exit(failed == ENOENT ? 127 : 126);
  }
  for (;;) {
    int status;
    pid_t ended = wait(&status);
    if (ended == child) _exit(WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status));
    if (ended < 0 && errno != EINTR) fault("lost the program");
  }
}
