/*
 * match_proc.c - child processes for the referee (match_proc.h).
 *
 * A command that is a plain list of words is split and executed directly; any other goes to
 * `/bin/sh -c'. The shell would otherwise stay between the referee and the program (dash does not
 * exec the last command), holding the program's pipes open after it closed them and turning a
 * crash into an exit status above 128.
 *
 * fork() rather than posix_spawn(), for PR_SET_PDEATHSIG. The referee is multi-threaded, so
 * between fork and exec the child only makes async-signal-safe calls, on an argv built before
 * the fork. Pipes are made with O_CLOEXEC (dup2 clears the flag on the child's 0, 1 and 2), so
 * a child started by one thread never inherits another game's pipe, which would keep that pipe
 * from reporting end-of-file.
 *
 * Whether a child has ended is asked with waitid(WNOWAIT): the status is seen without reaping,
 * the pid (and so the process group id) stays reserved until proc_end() has killed the group.
 */
#define _GNU_SOURCE
#include "match_proc.h"

#include "cli.h"
#include "types.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static void sleep_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Moves FD above the standard descriptors (a referee started with stdin closed gets pipe ends
 * numbered 0-2, which dup2 in the child would then fail to set up), keeping it close-on-exec. */
static int above_std(int fd)
{
    if (fd > 2)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return moved;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child_exec(int in_fd, int out_fd, int err_fd, pid_t parent, const char *path,
                       char *const argv[])
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the referee died before prctl */
        _exit(127);
#else
    (void)parent;
#endif
    /* Default dispositions (SIGPIPE is ignored in the referee; ignored signals survive exec)
     * and an empty mask (the forking thread may block signals). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            sigaction(s, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (err_fd < 0)
        err_fd = open("/dev/null", O_WRONLY);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || (err_fd >= 0 && dup2(err_fd, 2) < 0))
        _exit(127);
    execv(path, argv);
    _exit(127);
}

/* The words of COMMAND when it is a plain list of words that the shell would pass on unchanged
 * (letters, digits, blanks and _ . / : , + - = @ % ^, no `=' in the first word): a NULL-ended
 * array in one malloc'd block. NULL when it needs the shell (quotes, $, ;, &&, redirections,
 * globs, an environment assignment...) or is empty. */
static char **plain_words(const char *command)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_./:,+-=@%^ \t";
    size_t len = strlen(command), words = 0;
    if (len == 0 || strspn(command, plain) != len)
        return NULL;
    for (size_t i = 0; i < len; i++)
        if (command[i] != ' ' && command[i] != '\t' &&
            (i == 0 || command[i - 1] == ' ' || command[i - 1] == '\t'))
            words++;
    const char *first = command + strspn(command, " \t");
    if (words == 0 || memchr(first, '=', strcspn(first, " \t")))
        return NULL;
    char **argv = malloc((words + 1) * sizeof *argv + len + 1);
    if (!argv)
        return NULL;
    char *text = (char *)(argv + words + 1);
    memcpy(text, command, len + 1);
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
        argv[n++] = tok;
    argv[n] = NULL;
    return argv;
}

/* This program's own path (so that `ponder player' works from the build directory, where
 * `make' leaves ./ponder and nothing is on $PATH). A malloc'd string, or NULL. */
static char *self_path(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0 || (size_t)n >= sizeof buf - 1)
        return NULL;
    buf[n] = '\0';
    return strdup(buf);
}

/* PROGRAM's path: itself when it has a `/', else the first executable match on $PATH, else for
 * `ponder' this very program. A malloc'd string, or NULL when there is none. */
static char *find_program(const char *program)
{
    if (strchr(program, '/'))
        return access(program, X_OK) == 0 ? strdup(program) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        size_t n = strcspn(p, ":");
        char *full = malloc(n + strlen(program) + 2);
        if (!full)
            return NULL;
        if (n == 0)
            sprintf(full, "./%s", program);
        else
            sprintf(full, "%.*s/%s", (int)n, p, program);
        if (access(full, X_OK) == 0)
            return full;
        free(full);
        p += n;
        if (*p == '\0')
            return strcmp(program, "ponder") == 0 ? self_path() : NULL;
    }
}

void proc_init(Proc *p)
{
    memset(p, 0, sizeof *p);
    p->to_child = p->from_child = -1;
}

bool proc_start(Proc *p, const char *command, int stderr_fd, char *err)
{
    proc_init(p);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, ERR_LEN, "cannot create a pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, ERR_LEN, "cannot create a pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return false;
    }
    for (int i = 0; i < 2; i++) {
        in[i] = above_std(in[i]);
        out[i] = above_std(out[i]);
    }
    if (in[0] < 0 || in[1] < 0 || out[0] < 0 || out[1] < 0) {
        snprintf(err, ERR_LEN, "cannot set up the pipes: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            close_fd(&in[i]);
            close_fd(&out[i]);
        }
        return false;
    }
    /* A plain command is executed directly (one process fewer per program, and no shell
     * between the referee and the program to keep its pipes open or to hide how it died);
     * anything else goes through /bin/sh -c. Both prepared before the fork. */
    char *shell_argv[] = {"sh", "-c", (char *)command, NULL};
    char **words = plain_words(command);
    char *program = words ? find_program(words[0]) : NULL;
    p->via_shell = program == NULL;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_exec(in[0], out[1], stderr_fd, parent, program ? program : "/bin/sh",
                   program ? words : shell_argv);
    free(words);
    free(program);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        snprintf(err, ERR_LEN, "cannot start `%s': %s", command, strerror(errno));
        close(in[1]);
        close(out[0]);
        return false;
    }
    /* Also from this side, so the group exists before we could ever signal it. */
    setpgid(pid, pid);
    p->pid = pid;
    p->to_child = in[1];
    p->from_child = out[0];
    /* A child that stops reading must not block the referee. */
    fcntl(p->to_child, F_SETFL, fcntl(p->to_child, F_GETFL) | O_NONBLOCK);
    return true;
}

bool proc_send(Proc *p, const char *line)
{
    if (p->to_child < 0)
        return false;
    char buf[PROC_LINE_MAX + 2];
    int n = snprintf(buf, sizeof buf, "%s\n", line);
    if (n < 0 || (size_t)n >= sizeof buf)
        return false;
    size_t done = 0;
    while (done < (size_t)n) {
        ssize_t w = write(p->to_child, buf + done, (size_t)n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close_fd(&p->to_child);
            return false;
        }
        done += (size_t)w;
    }
    return true;
}

/* Takes a complete line from the buffer, if there is one. */
static bool take_line(Proc *p, char *line)
{
    char *nl = memchr(p->buf, '\n', p->len);
    if (!nl)
        return false;
    size_t n = (size_t)(nl - p->buf);
    memcpy(line, p->buf, n);
    line[n] = '\0';
    if (n > 0 && line[n - 1] == '\r')
        line[n - 1] = '\0';
    p->len -= n + 1;
    memmove(p->buf, nl + 1, p->len);
    return true;
}

ProcStatus proc_read_line(Proc *p, double deadline, int stop_fd, char *line)
{
    for (;;) {
        if (take_line(p, line))
            return PROC_OK;
        if (p->len >= sizeof p->buf)
            return PROC_TOO_LONG;
        if (p->eof || p->from_child < 0)
            return PROC_CLOSED;
        double left = deadline - util_now();
        if (left <= 0)
            return PROC_TIMEOUT;
        struct pollfd fds[2] = {{p->from_child, POLLIN, 0}, {stop_fd, POLLIN, 0}};
        int ms = (int)(left * 1000.0) + 1;
        int r = poll(fds, stop_fd >= 0 ? 2 : 1, ms);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return PROC_FAILED;
        }
        if (stop_fd >= 0 && (fds[1].revents & POLLIN))
            return PROC_STOPPED;
        if (r == 0 || !(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        ssize_t got = read(p->from_child, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return PROC_FAILED;
        }
        if (got == 0) {
            p->eof = true;
            close_fd(&p->from_child);
        } else
            p->len += (size_t)got;
    }
}

bool proc_pending_output(Proc *p)
{
    if (p->len > 0)
        return true;
    if (p->from_child < 0)
        return false;
    struct pollfd fd = {p->from_child, POLLIN, 0};
    if (poll(&fd, 1, 0) <= 0 || !(fd.revents & POLLIN))
        return false;
    /* Readable: either data or end-of-file (a child that has just exited is not out of turn). */
    ssize_t got = read(p->from_child, p->buf, sizeof p->buf);
    if (got > 0) {
        p->len = (size_t)got;
        return true;
    }
    if (got == 0) {
        p->eof = true;
        close_fd(&p->from_child);
    }
    return false;
}

/* Has the child ended? (waitid without reaping.) */
static bool check_exit(Proc *p)
{
    if (p->exited)
        return true;
    if (p->pid <= 0)
        return false;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
        return false;
    p->exited = true;
    p->signaled = info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED;
    p->exit_code = info.si_status;
    return true;
}

bool proc_wait_exit(Proc *p, double wait)
{
    double end = util_now() + wait, step = 0.0005;
    while (!check_exit(p)) {
        double left = end - util_now();
        if (left <= 0)
            return false;
        sleep_seconds(step < left ? step : left);
        if (step < 0.01)
            step *= 2;
    }
    return true;
}

void proc_end(Proc *p, double grace)
{
    close_fd(&p->to_child);
    if (p->pid > 0) {
        if (grace > 0)
            proc_wait_exit(p, grace);
        check_exit(p);
        /* The leader is unreaped (a zombie at worst), so -pid still names its group. */
        kill(-p->pid, SIGKILL);
        int status;
        while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (!p->exited) {
            p->exited = true;
            p->signaled = WIFSIGNALED(status);
            p->exit_code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
        }
        p->pid = 0;
    }
    close_fd(&p->from_child);
}

bool proc_crashed(const Proc *p, int *signal_number)
{
    if (!p->exited)
        return false;
    int sig = p->signaled                                                       ? p->exit_code
              : p->via_shell && p->exit_code > 128 && p->exit_code < 128 + NSIG ? p->exit_code - 128
                                                                                : 0;
    if (signal_number)
        *signal_number = sig;
    return sig != 0;
}

void proc_describe_end(const Proc *p, char *buf, size_t size)
{
    int sig;
    if (!p->exited)
        snprintf(buf, size, "still running");
    else if (proc_crashed(p, &sig))
        snprintf(buf, size, "killed by signal %d (%s)%s", sig, strsignal(sig),
                 p->signaled ? "" : ", as its shell reported");
    else if (p->exit_code == 127)
        snprintf(buf, size, "exit status 127: command not found?");
    else
        snprintf(buf, size, "exit status %d", p->exit_code);
}
