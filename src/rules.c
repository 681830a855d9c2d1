/*
 * rules.c - the built-in rule sets and their lookup by name.
 */
#include "rules.h"

#include <stdio.h>
#include <string.h>

const Rules RULES_ENGLISH = {"english", true, true, false};
const Rules RULES_HACKERRANK = {"hackerrank", true, true, true};
const Rules RULES_TOWER = {"tower", false, false, false};

static const Rules *const all_rules[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};

const Rules *rules_find(const char *name)
{
    for (size_t i = 0; i < sizeof all_rules / sizeof all_rules[0]; i++)
        if (name && strcmp(name, all_rules[i]->name) == 0)
            return all_rules[i];
    return NULL;
}

const char *rules_names(char *buf, size_t size)
{
    size_t at = 0;
    if (size > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < sizeof all_rules / sizeof all_rules[0] && at < size; i++) {
        int n = snprintf(buf + at, size - at, "%s%s", i ? ", " : "", all_rules[i]->name);
        at += n > 0 ? (size_t)n : 0;
    }
    return buf;
}
