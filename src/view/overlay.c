// overlay.c — the parameter panel's changes written as a scenario overlay (see overlay.h).
#include "overlay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "paths.h"

// The scenario's file name without its folder and ".lua": the name `require` finds it by.
static bool stem_of(const char *scenario, char *stem, size_t len, char *err, size_t errlen)
{
  const char *slash = strrchr(scenario, '/');
  const char *file = slash ? slash + 1 : scenario;
  size_t n = strlen(file);
  if (n > 4 && strcmp(file + n - 4, ".lua") == 0) {
    n -= 4;
  }
  if (n == 0 || n >= len) {
    snprintf(err, errlen, "cannot save an overlay of '%s': not a scenario file name", scenario);
    return false;
  }
  memcpy(stem, file, n);
  stem[n] = '\0';
  if (!fbName_IsModule(stem)) {  // require("a.b") would look for a/b.lua
    snprintf(err, errlen, "cannot save an overlay of '%s': require needs a name of letters, digits and _", scenario);
    return false;
  }
  return true;
}

bool fbOverlay_Path(const char *scenario, char *path, size_t len, char *err, size_t errlen)
{
  char stem[256];
  if (!stem_of(scenario, stem, sizeof stem, err, errlen)) {
    return false;
  }
  const char *slash = strrchr(scenario, '/');
  int dir_len = slash ? (int)(slash - scenario + 1) : 0;
  if ((size_t)snprintf(path, len, "%.*s%s_panel.lua", dir_len, scenario, stem) >= len) {
    snprintf(err, errlen, "cannot save an overlay of '%s': the path is too long", scenario);
    return false;
  }
  return true;
}

// A Lua string literal: quotes, backslashes and control characters escaped.
static void write_string(FILE *f, const char *s, size_t n)
{
  fputc('"', f);
  for (size_t k = 0; k < n; ++k) {
    unsigned char c = (unsigned char)s[k];
    if (c == '"' || c == '\\') {
      fprintf(f, "\\%c", c);
    } else if (c < 32 || c == 127) {
      fprintf(f, "\\%03u", c);
    } else {
      fputc(c, f);
    }
  }
  fputc('"', f);
}

// The value of a --set as Lua: a switch's true or false, a text quoted, a number as written, and
// any other word (a combiner's name) quoted.
static void write_value(FILE *f, const fbPanelSet *e, const char *value)
{
  char *end;
  errno = 0;
  (void)strtod(value, &end);
  bool number = end != value && *end == '\0';
  if (e->kind == FB_PANEL_SWITCH || (e->kind != FB_PANEL_TEXT && number)) {
    fputs(value, f);
  } else {
    write_string(f, value, strlen(value));
  }
}

// Finds a species and its rules by the names --set uses; a table about to change is first copied,
// so that a table the scenario shares (one rules list for two species) changes in one place only.
static const char *const HELPERS =
    "local function copy(t)\n"
    "  local c = {}\n"
    "  for k, v in pairs(t or {}) do c[k] = v end\n"
    "  return c\n"
    "end\n"
    "\n"
    "local function species(name)\n"
    "  for _, sp in ipairs(scenario.species) do\n"
    "    if sp.name == name then return sp end\n"
    "  end\n"
    "  error(\"the scenario has no species named '\" .. name .. \"'\", 2)\n"
    "end\n"
    "\n"
    "local function rule(sp, name)\n"
    "  sp.rules = copy(sp.rules)\n"
    "  for k, r in ipairs(sp.rules) do\n"
    "    local t = type(r) == \"string\" and { r } or copy(r)\n"
    "    if (t.name or t[1] or t.rule) == name then\n"
    "      sp.rules[k] = t\n"
    "      return t\n"
    "    end\n"
    "  end\n"
    "  error(\"species '\" .. sp.name .. \"' has no rule named '\" .. name .. \"'\", 2)\n"
    "end\n"
    "\n"
    "-- set(t, \"vision.fov\", 200): t.vision.fov = 200, with t.vision copied first.\n"
    "local function set(t, path, value)\n"
    "  local head, rest = path:match(\"^([^.]+)%.(.+)$\")\n"
    "  if head == nil then\n"
    "    t[path] = value\n"
    "  else\n"
    "    t[head] = copy(t[head])\n"
    "    set(t[head], rest, value)\n"
    "  end\n"
    "end\n"
    "\n";

/*
 * One --set as a line of the overlay. Its name is "species.rest": a species field's rest is the
 * field's path ("vision.fov"); a weight's is "rule.weight"; a parameter's "rule.param". Names of
 * species and rules hold no dot (a --set path would be ambiguous otherwise).
 */
static void write_set(FILE *f, const fbPanelSet *e)
{
  const char *eq = strchr(e->text, '=');
  const char *dot = strchr(e->key, '.');
  if (eq == NULL || dot == NULL) {
    return;
  }
  fputs("set(", f);
  if (e->kind == FB_PANEL_SPECIES || e->kind == FB_PANEL_RESTART) {
    fputs("species(", f);
    write_string(f, e->key, (size_t)(dot - e->key));
    fputs("), ", f);
    write_string(f, dot + 1, strlen(dot + 1));
  } else {
    const char *rule = dot + 1, *inner = strchr(rule, '.');
    if (inner == NULL) {
      return;
    }
    fputs("rule(species(", f);
    write_string(f, e->key, (size_t)(dot - e->key));
    fputs("), ", f);
    write_string(f, rule, (size_t)(inner - rule));
    fputs("), ", f);
    if (e->kind == FB_PANEL_WEIGHT) {
      fputs("\"weight\"", f);
    } else {
      fputs("\"params.", f);
      fputs(inner + 1, f);  // a parameter's name: an identifier
      fputc('"', f);
    }
  }
  fputs(", ", f);
  write_value(f, e, eq + 1);
  fputs(")\n", f);
}

bool fbOverlay_Write(const fbParamPanel *p, const char *scenario, uint64_t step, const char *path, char *err,
                     size_t errlen)
{
  char stem[256];
  if (!stem_of(scenario, stem, sizeof stem, err, errlen)) {
    return false;
  }
  char why[256] = "";
  FILE *f = fbFilePath_OpenOutput(path, "w", why, sizeof why);  // never a FIFO or a device there
  if (f == NULL) {
    snprintf(err, errlen, "cannot write %s: %s", path, why);
    return false;
  }
  const char *slash_out = strrchr(path, '/');
  fprintf(f, "-- %s — %s with the parameter panel's changes at step %llu, saved by flockbox.\n",
          slash_out ? slash_out + 1 : path, scenario, (unsigned long long)step);
  fputs("-- Run it as the scenario itself; it is the scenario run with these --set values:\n", f);
  for (int k = 0; k < p->set_count; ++k) {
    if (p->sets[k].used) {
      fprintf(f, "--   --set %s\n", p->sets[k].text);
    }
  }
  fprintf(f, "local scenario = require(\"%s\")\n\n", stem);
  fputs(HELPERS, f);
  for (int k = 0; k < p->set_count; ++k) {
    if (p->sets[k].used) {
      write_set(f, &p->sets[k]);
    }
  }
  fputs("return scenario\n", f);
  bool ok = !ferror(f);
  ok = fclose(f) == 0 && ok;
  if (!ok) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  }
  return ok;
}
