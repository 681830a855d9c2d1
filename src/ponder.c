/*
 * ponder.c - the library's initialisation (see ponder.h): each module guards its own tables with
 * pthread_once, so this only has to name the modules.
 */
#include "ponder.h"

#include "board.h"
#include "eval.h"

void ponder_init(void)
{
    board_init();
    eval_init();
}
