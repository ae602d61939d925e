// rule_module.h — a rule module in a runner's Lua state: loading and reloading it, its species table and its parameters.
#ifndef FB_RULE_MODULE_H
#define FB_RULE_MODULE_H

#include "rules.h"

/*
 * A rule module is a Lua file that returns a table: its steer function, its params (declared with
 * their ranges, params.h), the per-agent fields it keeps, an optional validate(params, species).
 * Loading runs it in the runner's sandbox, reads and checks that table and keeps registry refs to
 * what running needs (rules.h, fbRuleVersion); nothing here runs on the per-agent path. After a
 * load the same refs are read and changed here: the species table a rule gets, its parameters set
 * one at a time, listed, written, or put to validate.
 */

// The species table's fields (ended by a NULL name): for the editor's types.
extern const fbApiField fbRuleModule_SpeciesFields[];

// Loads the steering library (the global `steering` every module gets a copy of) from `path`.
bool fbRuleModule_LoadLibrary(fbRuleRunner *r, const char *path, char *err, size_t errlen);

// A rule module's text as read from its file once: every thread's state loads the same text,
// and messages name the file and line.
typedef struct fbRuleSource {
  const char *path;
  const char *text;
  size_t len;
} fbRuleSource;

// Loads the module src for rule `rule` of species `species`: its params are the module's
// defaults (declared with their ranges, params.h) overridden by def's parameters; unknown names,
// wrong types and values out of range are refused, then the module's validate() has its say.
// Declares the module's per-agent fields in the world. Writes the parameter declarations into
// specs (may be NULL). err gets one line naming `what` ("scripts/x.lua: species 'boid' rule
// 'cohesion'").
bool fbRuleModule_Load(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
                       const fbRuleDef *def, const char *what, fbParamSpecs *specs, char *err, size_t errlen);

// As fbRuleModule_Load, for a reload: the version it replaces is kept as the fallback.
bool fbRuleModule_Reload(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
                         const fbRuleDef *def, const char *what, char *err, size_t errlen);

// Goes back to the version a reload replaced; false if there is none.
bool fbRuleModule_Fallback(fbRuleRunner *r, int species, int rule);

// Forgets the replaced version: the reloaded one has proved itself.
void fbRuleModule_Settle(fbRuleRunner *r, int species, int rule);

// (Re)builds the species table each rule of species s gets as its third argument (each its own).
bool fbRuleModule_SetSpecies(fbRuleRunner *r, const fbWorld *w, int species, char *err, size_t errlen);

// Sets one parameter of a loaded rule to p (the caller has checked it against the declaration): a
// Lua integer for FB_VALUE_INTEGER, a float for FB_VALUE_NUMBER, a boolean or a string. False if
// the rule has no parameter of that name and type.
bool fbRuleModule_SetParam(fbRuleRunner *r, int species, int rule, const fbParamDef *p);

// What validate answered: yes (or there is none); no, naming a parameter ("name: message"); or
// nothing, because it failed (its error, "validate failed: ...", or the check's own).
typedef enum fbValidateVerdict { FB_VALIDATE_ACCEPTS, FB_VALIDATE_REFUSES, FB_VALIDATE_FAILED } fbValidateVerdict;

// Asks the module's validate(params, species) whether the rule may run with parameter p->name set
// to p's value (p NULL: its parameters as they are) and with species sp (NULL: its species as it is),
// changing nothing. Accepts if it has no validate or validate returns nil; else the verdict, and
// its message in msg: the caller words it by the verdict, never by the message's text.
fbValidateVerdict fbRuleModule_Check(fbRuleRunner *r, const fbWorld *w, int species, int rule, const fbSpecies *sp,
                        const fbParamDef *p, char *msg, size_t len);

// Every parameter of a loaded rule that is a number, a boolean or a string (shorter than
// FB_PARAM_TEXT), sorted by name; returns how many (at most max).
int fbRuleModule_ListValues(const fbRuleRunner *r, int species, int rule, fbParamDef *values, int max);

// The numeric parameters of a loaded rule, sorted by name; returns how many (at most max).
int fbRuleModule_ListParams(const fbRuleRunner *r, int species, int rule, char names[][FB_NAME_LEN], double *values, int max);

// Writes a rule's parameter table as Lua text.
void fbRuleModule_WriteParams(const fbRuleRunner *r, int species, int rule, FILE *out);

#endif
