// params.h — a rule's parameters as its module declares them: defaults, ranges and one-line descriptions.
#ifndef FB_PARAMS_H
#define FB_PARAMS_H

#include <lua.h>

#include "defs.h"

/*
 * A module's params table gives each parameter either a plain default, or a declaration:
 *   params = {
 *     divisor = { 100, min = 1, max = 10000, help = "perceived centre divisor (Parker: 100)" },
 *     goal = { "goal", help = "the goal it heads for" },
 *     gain = 1,
 *     looks = { 3, min = 1, integer = true, help = "..." },
 *   }
 * The default's type (number, boolean, string) is the parameter's type. min and max bound a
 * number; the engine refuses values outside them wherever they come from (the scenario, --set,
 * a hook, the panel), and the panel's sliders span them.
 */
#define FB_MAX_PARAM_SPECS 32
#define FB_PARAM_HELP 160

typedef struct fbParamSpec {
  char name[FB_NAME_LEN];
  fbValueKind kind;            // of the default (INTEGER when a whole number was written)
  double number;               // the default: a number, or 0/1 for a boolean
  char text[FB_PARAM_TEXT];    // the default string
  double min, max;             // -INFINITY and INFINITY when not declared
  bool declared;               // given as a table, not a bare default
  bool circle;                 // circle = true: a distance, drawn round the selected agent in the window
  bool integer;                // integer = true: a count, so a fraction is refused wherever it comes from
  char help[FB_PARAM_HELP];
} fbParamSpec;

typedef struct fbParamSpecs {
  fbParamSpec item[FB_MAX_PARAM_SPECS];
  int count;                   // sorted by name
} fbParamSpecs;

// Reads the params table of the module at index `module` into specs and pushes a table of the
// defaults (what the rule gets as p before overrides). On failure pushes nothing and writes a
// message naming `what` and the parameter.
bool fbParams_Read(lua_State *L, int module, fbParamSpecs *specs, const char *what, char *err, size_t errlen);

const fbParamSpec *fbParams_Find(const fbParamSpecs *specs, const char *name);

// The parameter names, comma-separated, for messages ("valid parameters: divisor, gain").
void fbParams_Names(const fbParamSpecs *specs, char *out, size_t len);

// Checks a number against the spec's range, and that it is whole where the spec says integer = true;
// false with "must be between 1 and 100 (got 0)" or "must be a whole number (got 2.5)".
bool fbParams_CheckNumber(const fbParamSpec *spec, double value, char *msg, size_t len);

// Reads text (a --set value, what the panel's field holds) as the spec's kind into p: a number in
// its range, true or false for a boolean,
// and for a string the text itself, any text shorter than FB_PARAM_TEXT. False with "expected true
// or false (got 'yes')" and p untouched otherwise.
bool fbParams_Parse(const fbParamSpec *spec, const char *text, fbParamDef *p, char *msg, size_t len);

// "number", "boolean" or "string", for messages.
const char *fbParams_KindName(fbValueKind kind);

#endif
