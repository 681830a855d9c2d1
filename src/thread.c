/*
 * thread.c - long-lived search threads (see thread.h).
 *
 * Each thread waits on its condition variable for a function; thread_run hands one over,
 * thread_wait waits until the thread has cleared it again. The mutex guards the function, its
 * argument and the quit flag.
 */
#include "thread.h"

#include "types.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct SearchThread {
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* signalled when work arrives, when it is done, and on quit */
    void (*fn)(void *);  /* the function to run, NULL when idle */
    void *arg;
    bool quit; /* set by thread_free */
};

static void *idle_loop(void *p)
{
    SearchThread *t = p;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (!t->fn && !t->quit)
            pthread_cond_wait(&t->cond, &t->lock);
        if (!t->fn) /* quit, and nothing left to run */
            break;
        void (*fn)(void *) = t->fn;
        void *arg = t->arg;
        pthread_mutex_unlock(&t->lock);
        fn(arg);
        pthread_mutex_lock(&t->lock);
        t->fn = NULL;
        pthread_cond_broadcast(&t->cond);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

SearchThread *thread_new(char *err)
{
    SearchThread *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, ERR_LEN, "out of memory for a search thread");
        return NULL;
    }
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        snprintf(err, ERR_LEN, "cannot create a lock for a search thread");
        free(t);
        return NULL;
    }
    if (pthread_cond_init(&t->cond, NULL) != 0) {
        snprintf(err, ERR_LEN, "cannot create a condition variable for a search thread");
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    int rc = pthread_create(&t->tid, NULL, idle_loop, t);
    if (rc != 0) {
        snprintf(err, ERR_LEN, "cannot start a search thread: %s", strerror(rc));
        pthread_cond_destroy(&t->cond);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    return t;
}

void thread_free(SearchThread *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->quit = true;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->tid, NULL);
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

void thread_run(SearchThread *t, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&t->lock);
    while (t->fn) /* not idle: a caller's mistake; wait rather than lose either function */
        pthread_cond_wait(&t->cond, &t->lock);
    t->fn = fn;
    t->arg = arg;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

void thread_wait(SearchThread *t)
{
    pthread_mutex_lock(&t->lock);
    while (t->fn)
        pthread_cond_wait(&t->cond, &t->lock);
    pthread_mutex_unlock(&t->lock);
}
