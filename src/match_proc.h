/*
 * match_proc.h - the referee's child processes: start a program given as a shell command line
 * with its stdin and stdout on pipes, talk to it one line at a time under a deadline, find out
 * how it ended, and make sure that nothing it started outlives it.
 *
 * Each child runs COMMAND (directly when it is a plain list of words, else with `/bin/sh -c') as
 * the leader of a new process group, so killing the
 * group (SIGKILL to -pid) also takes down whatever the command started (a wrapper script's
 * engine, a `sleep'). The group is killed while the leader is still unreaped, so its id cannot
 * have been reused. On Linux the child also gets PR_SET_PDEATHSIG, so it dies with the referee
 * even if the referee is killed with SIGKILL and cannot clean up.
 *
 * The caller must ignore SIGPIPE (writing to a child that has gone returns an error instead);
 * children get the default signal dispositions and an empty signal mask back before exec. Every
 * descriptor the module creates is close-on-exec, so a child never holds another child's pipe.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum {
    PROC_LINE_MAX = 1024, /* longest line a child may print; a longer one is an error */
};

typedef struct {
    pid_t pid;               /* the child, leader of its own process group; 0 when none */
    int to_child;            /* our end of its stdin, -1 once closed */
    int from_child;          /* our end of its stdout, -1 once closed */
    char buf[PROC_LINE_MAX]; /* bytes read from it and not yet consumed */
    size_t len;              /* bytes in buf */
    bool eof;                /* its stdout has closed */
    bool via_shell;          /* it runs under /bin/sh -c (not executed directly) */
    bool exited;             /* it has ended (status below is valid) */
    bool signaled;           /* it was killed by a signal (exit_code is the signal) */
    int exit_code;           /* its exit status or the signal that killed it */
} Proc;

typedef enum {
    PROC_OK = 0,   /* a line was read */
    PROC_TIMEOUT,  /* nothing complete before the deadline */
    PROC_CLOSED,   /* its stdout closed (it exited, crashed or closed it) */
    PROC_TOO_LONG, /* more than PROC_LINE_MAX bytes without a newline */
    PROC_STOPPED,  /* the stop descriptor became readable (the referee is shutting down) */
    PROC_FAILED,   /* a system call failed */
} ProcStatus;

/* Makes P an empty Proc (no process, no descriptors), safe to pass to proc_end(). */
void proc_init(Proc *p);

/* Starts COMMAND with `/bin/sh -c'. Its stderr goes to STDERR_FD (-1: /dev/null). Returns false
 * with the reason in ERR (ERR_LEN bytes) when the pipes or the process cannot be created; a
 * command that does not exist starts (the shell reports it and exits 127). */
bool proc_start(Proc *p, const char *command, int stderr_fd, char *err);

/* Sends LINE and a newline. Returns false if the child no longer reads its input (it exited or
 * closed stdin) or its input pipe is full. */
bool proc_send(Proc *p, const char *line);

/* Reads the next line (without its newline or a final CR) into LINE (PROC_LINE_MAX bytes),
 * waiting until the monotonic time DEADLINE (util_now() seconds). STOP_FD (-1: none) is watched
 * too: once it is readable the call returns PROC_STOPPED. */
ProcStatus proc_read_line(Proc *p, double deadline, int stop_fd, char *line);

/* Whether the child has printed anything that has not been read yet (output out of turn). */
bool proc_pending_output(Proc *p);

/* Waits up to WAIT seconds for the child to end, without reaping it. Returns whether it has
 * ended; if so, exited/signaled/exit_code are set. */
bool proc_wait_exit(Proc *p, double wait);

/* Ends the child: closes its stdin (a well-behaved program exits on end of input), gives it up
 * to GRACE seconds to exit, then kills its whole process group and reaps it. Safe to call on a
 * Proc that was never started or already ended. */
void proc_end(Proc *p, double grace);

/* Whether the ended child died of a signal; *SIGNAL_NUMBER (may be NULL) gets it. Under the
 * shell, an exit status 128+N is the shell's report of its command dying of signal N. */
bool proc_crashed(const Proc *p, int *signal_number);

/* `exit status N', `killed by signal N (NAME)' or `still running' into BUF. */
void proc_describe_end(const Proc *p, char *buf, size_t size);
