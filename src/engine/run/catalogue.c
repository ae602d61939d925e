// catalogue.c — every rule module in a folder with its summary, parameters and fields: flockbox --rules.
#define _POSIX_C_SOURCE 200809L
#include "catalogue.h"
#include "paths.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define MAX_MODULES 256

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// The *.lua names (without .lua) in folder but its tests (*_test.lua), sorted; -1 if it cannot be read.
static int list_modules(const char *folder, char *names[MAX_MODULES])
{
  DIR *dir = opendir(folder);
  if (dir == NULL) {
    return -1;
  }
  int n = 0;
  for (struct dirent *e; (e = readdir(dir)) != NULL && n < MAX_MODULES;) {
    size_t len = strlen(e->d_name);
    // NAME_test.lua beside a rule is its test (flockbox test), not a rule.
    bool test = len > 9 && strcmp(e->d_name + len - 9, "_test.lua") == 0;
    if (len > 4 && len - 4 < FB_NAME_LEN && strcmp(e->d_name + len - 4, ".lua") == 0 && !test) {
      names[n] = strndup(e->d_name, len - 4);
      n++;
    }
  }
  closedir(dir);
  qsort(names, (size_t)n, sizeof names[0], by_name);
  return n;
}

// The summary in a module's header line "-- behaviours/x.lua — summary": the text after the dash.
static void read_summary(const char *path, char *out, size_t len)
{
  out[0] = '\0';
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_SCRIPT_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return;
  }
  char line[1024];
  if (fgets(line, sizeof line, f) != NULL && strncmp(line, "--", 2) == 0) {
    const char *dash = strstr(line, "\xe2\x80\x94");  // an em dash
    const char *text = dash ? dash + 3 : line + 2;
    text += strspn(text, " ");
    snprintf(out, len, "%.*s", (int)strcspn(text, "\r\n"), text);
  }
  fclose(f);
}

// A world of one species with this one rule and no agents: what loading it as a scenario does.
static fbSim *load_rule(const char *folder, const char *name, char *err, size_t errlen)
{
  fbScenarioDef *d = fbScenarioDef_New();
  snprintf(d->rule_dirs[0], sizeof d->rule_dirs[0], "%s", folder);
  d->rule_dir_count = 1;
  fbSpeciesDef *s = fbScenarioDef_AddSpecies(d, "catalogue");
  s->count = 0;
  fbSpeciesDef_AddRule(s, name);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  o.headless = true;
  fbSim *sim = fbSim_New(d, &o, err, errlen);
  fbScenarioDef_Delete(d);
  return sim;
}

// A parameter's default as written: a number, true/false, or "text".
static void format_default(const fbParamSpec *p, char *out, size_t len)
{
  switch (p->kind) {
  case FB_VALUE_STRING: snprintf(out, len, "\"%s\"", p->text); break;
  case FB_VALUE_BOOL: snprintf(out, len, "%s", p->number != 0 ? "true" : "false"); break;
  default: snprintf(out, len, "%g", p->number); break;
  }
}

// "1 .. 100", "at least 0", "at most 1", or "" when the parameter declares no range.
static void format_range(const fbParamSpec *p, char *out, size_t len)
{
  bool lo = isfinite(p->min), hi = isfinite(p->max);
  if (lo && hi) {
    snprintf(out, len, "%g .. %g", p->min, p->max);
  } else if (lo) {
    snprintf(out, len, "at least %g", p->min);
  } else if (hi) {
    snprintf(out, len, "at most %g", p->max);
  } else {
    out[0] = '\0';
  }
}

static void write_fields(const fbWorld *w, fbCatalogueFormat format, FILE *out)
{
  if (w->field_count == 0) {
    return;
  }
  fputs(format == FB_CATALOGUE_MARKDOWN ? "\nPer-agent fields: " : "  fields: ", out);
  for (int f = 0; f < w->field_count; ++f) {
    fprintf(out, format == FB_CATALOGUE_MARKDOWN ? "%s`%s` (starts at %g)" : "%s%s = %g", f ? ", " : "",
            w->field_names[f], w->field_defaults[f]);
  }
  fputs(format == FB_CATALOGUE_MARKDOWN ? ".\n" : "\n", out);
}

static void write_params(const fbParamSpecs *specs, fbCatalogueFormat format, FILE *out)
{
  if (specs->count > 0 && format == FB_CATALOGUE_MARKDOWN) {
    fputs("\n| parameter | default | range | meaning |\n| --- | --- | --- | --- |\n", out);
  }
  for (int k = 0; k < specs->count; ++k) {
    const fbParamSpec *p = &specs->item[k];
    char value[FB_PARAM_TEXT + 2], range[64];
    format_default(p, value, sizeof value);
    format_range(p, range, sizeof range);
    if (format == FB_CATALOGUE_MARKDOWN) {
      fprintf(out, "| `%s` | %s | %s | %s |\n", p->name, value, range, p->help);
    } else {
      fprintf(out, "  %-14s %-12s %-16s %s\n", p->name, value, range, p->help);
    }
  }
}

static bool write_module(const char *folder, const char *name, fbCatalogueFormat format, FILE *out)
{
  char path[1024], summary[512], err[2048];
  snprintf(path, sizeof path, "%s/%s.lua", folder, name);
  read_summary(path, summary, sizeof summary);
  if (format == FB_CATALOGUE_MARKDOWN) {
    fprintf(out, "\n## %s\n\n%s\n", name, summary);
  } else {
    fprintf(out, "%s \xe2\x80\x94 %s\n", name, summary);
  }
  fbSim *sim = load_rule(folder, name, err, sizeof err);
  if (sim == NULL) {
    fprintf(out, format == FB_CATALOGUE_MARKDOWN ? "\n**Does not load:** %s\n" : "  does not load: %s\n", err);
    return false;
  }
  write_params(fbSim_ParamSpecs(sim, 0, 0), format, out);
  write_fields(fbSim_World(sim), format, out);
  if (format == FB_CATALOGUE_TEXT) {
    fputc('\n', out);
  }
  fbSim_Delete(sim);
  return true;
}

// How a species' rules combine (its accumulator), from the combiners' table in accumulate.c.
static void write_combiners(fbCatalogueFormat format, FILE *out)
{
  fputs(format == FB_CATALOGUE_MARKDOWN
            ? "\n## Combiners\n\nHow a species adds up its rules' outputs (`accumulator = ...`).\n\n"
              "| combiner | what it does |\n| --- | --- |\n"
            : "\ncombiners (a species' accumulator = ...):\n",
        out);
  for (int k = 0; k < FB_ACCUM_KINDS; ++k) {
    const fbCombiner *c = fbAccum_Combiner((fbAccumKind)k);
    bool md = format == FB_CATALOGUE_MARKDOWN;
    char alias[64] = "", name[96];
    if (c->alias != NULL) {
      snprintf(alias, sizeof alias, md ? " (or `%s`)" : " (or %s)", c->alias);
    }
    snprintf(name, sizeof name, md ? "`%s`%s" : "%s%s", c->name, alias);
    fprintf(out, md ? "| %s | %s |\n" : "  %-28s %s\n", name, c->help);
  }
}

int fbCatalogue_Write(const char *folder, fbCatalogueFormat format, FILE *out, char *err, size_t errlen)
{
  char *names[MAX_MODULES];
  int n = list_modules(folder, names);
  if (n < 0) {
    snprintf(err, errlen, "%s: cannot read the folder", folder);
    return -1;
  }
  if (format == FB_CATALOGUE_MARKDOWN) {
    fprintf(out, "# Rules\n\nEvery rule in `behaviours/`, written by `flockbox --rules-md` (do not edit by hand: "
                 "a test checks this file against it).\n");
  }
  int failed = 0;
  for (int k = 0; k < n; ++k) {
    failed += !write_module(folder, names[k], format, out);
    free(names[k]);
  }
  write_combiners(format, out);
  return failed;
}
