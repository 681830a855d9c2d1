/*
 * ponder.h - the library's one initialisation.
 *
 * The rules library and the engine compute a few tables from geometry instead of typing them
 * (bitboard steps and jumps, Zobrist numbers, the evaluation's reach and distance tables, the
 * search's reduction table, the databases' binomials). Nothing runs when the library is loaded:
 * no constructor, no environment, no file. The tables are filled on first use instead, each by
 * its module under pthread_once, from the entry points that need them (board_compute_key and so
 * every board set-up, engine_new, search_worker_new, egdb_slice_init, the tuner). ponder_init()
 * fills all of those that have no entry point of their own to do it, so a program (main.c, a
 * test, a host that loads the engine) can call it once at start and never think of it again.
 */
#pragma once

/* Fills the rules library's and the evaluation's tables (board_init, eval_init). Idempotent and
 * thread-safe: any thread may call it any number of times, and each call returns once the tables
 * are full. It does no I/O and cannot fail. */
void ponder_init(void);
