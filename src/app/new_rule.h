// new_rule.h — flockbox --new-rule NAME [FOLDER]: a commented starting rule module that runs as it is, and its test.
#ifndef FB_NEW_RULE_H
#define FB_NEW_RULE_H

#include <stdbool.h>
#include <stddef.h>

// Writes FOLDER/NAME.lua (FOLDER: behaviours/ when the working directory has one, else the
// working directory itself; made with its parents when missing): a rule with one declared
// parameter, a steer function and comments saying what a, p and s are; and its test beside it,
// FOLDER/NAME_test.lua, which passes under flockbox test as written (a test already there is
// kept). Refuses (false, message in err) a name that is not a Lua identifier, a folder that cannot
// be made and a rule that is already there.
bool fbNewRule_Write(const char *name, const char *folder, char *written, size_t written_len, char *err, size_t errlen);

// The test of the rule at path: x/NAME.lua -> x/NAME_test.lua.
void fbNewRule_TestPath(const char *rule, char *out, size_t len);

#endif
