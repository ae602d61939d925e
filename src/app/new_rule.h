// new_rule.h — flockbox --new-rule NAME [FOLDER]: a commented starting rule module that runs as it is.
#ifndef FB_NEW_RULE_H
#define FB_NEW_RULE_H

#include <stdbool.h>
#include <stddef.h>

// Writes FOLDER/NAME.lua (FOLDER: behaviours/ when the working directory has one, else the
// working directory itself): a rule with one declared parameter, a steer function and comments
// saying what a, p and s are, and prints how to use it. Refuses (false, message in err) a name
// that is not a Lua identifier, a folder that does not exist and a file that is already there.
bool fbNewRule_Write(const char *name, const char *folder, char *written, size_t written_len, char *err, size_t errlen);

#endif
