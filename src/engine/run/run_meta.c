// run_meta.c — writing a run's metadata side file: version, inputs and their hashes, options, status, outcome.
#define _POSIX_C_SOURCE 200809L
#include "run_meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "sha256.h"

// A JSON string: quotes, backslashes and control characters escaped (RFC 8259, section 7).
static void write_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    if (*p == '"' || *p == '\\') {
      fprintf(f, "\\%c", *p);
    } else if (*p < 0x20) {
      fprintf(f, "\\u%04x", *p);
    } else {
      fputc(*p, f);
    }
  }
  fputc('"', f);
}

// The shortest decimal that reads back as the same double (0.05, not 0.050000000000000003).
static void write_number(FILE *f, const char *key, double v)
{
  char text[40];
  for (int digits = 15; digits <= 17; ++digits) {
    snprintf(text, sizeof text, "%.*g", digits, v);
    if (strtod(text, NULL) == v) {
      break;
    }
  }
  fprintf(f, "  \"%s\": %s,\n", key, text);
}

static void write_key(FILE *f, const char *key, const char *value, bool last)
{
  fprintf(f, "  \"%s\": ", key);
  write_string(f, value);
  fputs(last ? "\n" : ",\n", f);
}

// One input file and its SHA-256, once each: {"path": "...", "sha256": "..."}.
static void write_input(FILE *f, const char *path, int *written, const char *seen[], int max)
{
  for (int k = 0; k < *written; ++k) {
    if (strcmp(seen[k], path) == 0) {
      return;
    }
  }
  char hex[65];
  fbSha256_File(path, hex);
  fputs(*written > 0 ? ", {\"path\": " : "{\"path\": ", f);
  write_string(f, path);
  fputs(", \"sha256\": ", f);
  write_string(f, hex);
  fputc('}', f);
  if (*written < max) {
    seen[(*written)++] = path;
  }
}

// Every file the run read besides the scenario: rule modules, the steering library, the terrain.
static void write_inputs(FILE *f, const fbSim *sim)
{
  const char *seen[FB_MAX_SPECIES * FB_MAX_RULES + 2];
  int written = 0, max = (int)(sizeof seen / sizeof seen[0]);
  const fbWorld *w = fbSim_World(sim);
  fputs("  \"inputs\": [", f);
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      const char *module = fbSim_RulePath(sim, s, k);
      if (module[0] != '\0') {
        write_input(f, module, &written, seen, max);
      }
    }
  }
  if (fbSim_LibraryPath(sim)[0] != '\0') {
    write_input(f, fbSim_LibraryPath(sim), &written, seen, max);
  }
  if (w->terrain.source[0] != '\0') {
    write_input(f, w->terrain.source, &written, seen, max);
  }
  fputs("],\n", f);
}

static void write_sets(FILE *f, const fbRunOptions *o)
{
  fputs("  \"sets\": [", f);
  for (int k = 0; k < o->set_count; ++k) {
    fputs(k > 0 ? ", " : "", f);
    write_string(f, o->sets[k]);
  }
  fputs("],\n", f);
}

// "reloads": every save --watch saw, so a CSV made by several versions of a rule says which, when.
static void write_reloads(FILE *f, const fbHotReload *h)
{
  fputs("  \"reloads\": [", f);
  for (int k = 0; h != NULL && k < h->record_count; ++k) {
    const fbReloadRecord *r = &h->records[k];
    fprintf(f, "%s{\"step\": %ld, \"file\": ", k ? ",\n    " : "\n    ", r->step);
    write_string(f, r->path);
    fputs(", \"sha256\": ", f);
    write_string(f, r->sha256);
    fprintf(f, ", \"loaded\": %s}", r->loaded ? "true" : "false");
  }
  fputs(h != NULL && h->record_count > 0 ? "\n  ],\n" : "],\n", f);
  fprintf(f, "  \"reloads_left_out\": %ld,\n", h != NULL ? h->records_left_out : 0L);
}

// "console": with --console, every line that ran and the step it ran after, so a run changed from
// a console says how ("console": [] when none ran; absent without --console).
static void write_console(FILE *f, const fbConsole *c)
{
  if (c == NULL) {
    return;
  }
  fputs("  \"console\": [", f);
  for (int k = 0; k < c->record_count; ++k) {
    const fbConsoleRecord *r = &c->records[k];
    fprintf(f, "%s{\"step\": %llu, \"line\": ", k ? ",\n    " : "\n    ", (unsigned long long)r->step);
    write_string(f, r->line);
    fprintf(f, ", \"ok\": %s}", r->ok ? "true" : "false");
  }
  fputs(c->record_count > 0 ? "\n  ],\n" : "],\n", f);
  fprintf(f, "  \"console_left_out\": %ld,\n", c->records_left_out);
}

// "profile": with --profile, the per-rule table (profile.h); null without.
static void write_profile(FILE *f, const fbSim *sim)
{
  fbProfileRow rows[FB_PROFILE_MAX_ROWS];
  long steps;
  int n = fbSim_ProfileTable(sim, rows, FB_PROFILE_MAX_ROWS, &steps);
  if (n == 0) {
    fputs("  \"profile\": null,\n", f);
    return;
  }
  fprintf(f, "  \"profile\": {\"steps\": %ld, \"rows\": [", steps);
  for (int k = 0; k < n; ++k) {
    fputs(k ? ",\n    {\"species\": " : "\n    {\"species\": ", f);
    write_string(f, rows[k].species);
    fputs(", \"part\": ", f);
    write_string(f, rows[k].part);
    fprintf(f, ", \"us_per_agent_step\": %.4f, \"ms_per_step\": %.4f, \"share\": %.4f}", rows[k].us_per_agent_step,
            rows[k].ms_per_step, rows[k].share);
  }
  fputs("\n  ]},\n", f);
}

static void write_body(FILE *f, const fbSim *sim, const fbRunMeta *m)
{
  char hex[65], lost[512];
  fbSha256_File(m->scenario, hex);
  fbSim_Lost(sim, lost, sizeof lost);
  double dt = fbSim_World(sim)->dt;
  double outcome_time = (double)m->steps * dt;
  const char *outcome = fbSim_Outcome(sim, &outcome_time);
  if (outcome == NULL) {
    outcome = m->steps >= m->steps_requested ? "step_limit" : "none";
  }
  fputs("{\n", f);
  write_key(f, "flockbox", FB_VERSION, false);
  write_key(f, "scenario", m->scenario, false);
  write_key(f, "scenario_sha256", hex, false);
  write_key(f, "name", fbSim_Name(sim), false);
  write_inputs(f, sim);
  fprintf(f, "  \"seed\": %llu,\n", (unsigned long long)fbSim_Options(sim)->seed);
  write_sets(f, fbSim_Options(sim));
  write_reloads(f, m->reload);
  write_console(f, m->console);
  if (m->loaded_state != NULL) {  // the run went on from a saved state, maybe with rules changed since
    fputs("  \"loaded_state\": {\"path\": ", f);
    write_string(f, m->loaded_state);
    fprintf(f, ", \"step\": %llu, \"rules_differ\": %s},\n", (unsigned long long)m->loaded_step,
            m->loaded_rules_differ ? "true" : "false");
  }
  write_number(f, "dt", dt);
  fprintf(f, "  \"threads\": %d,\n", fbSim_Threads(sim));
  fprintf(f, "  \"steps_requested\": %ld,\n", m->steps_requested);
  fprintf(f, "  \"steps\": %ld,\n", m->steps);
  write_number(f, "time", (double)m->steps * dt);
  fprintf(f, "  \"csv_every\": %ld,\n", m->every);
  write_key(f, "status", m->status, false);
  fprintf(f, "  \"exit_status\": %d,\n", m->exit_status);
  write_key(f, "incomplete", lost, false);
  write_key(f, "error", m->error, false);
  write_key(f, "outcome", outcome, false);
  write_number(f, "outcome_time", outcome_time);
  write_profile(f, sim);
  fprintf(f, "  \"hash\": \"%016llx\"\n}\n", (unsigned long long)fbSim_Hash(sim));
}

bool fbRunMeta_Write(const char *path, const fbSim *sim, const fbRunMeta *m, char *err, size_t errlen)
{
  char temp[1100];
  snprintf(temp, sizeof temp, "%s.tmp", path);
  char why[256] = "";
  if (!fbFilePath_CheckOutput(path, why, sizeof why)) {
    snprintf(err, errlen, "%s: cannot write the run's metadata: %s", path, why);
    return false;
  }
  FILE *f = fbFilePath_OpenOutput(temp, "w", why, sizeof why);
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot write the run's metadata: %s", temp, why);
    return false;
  }
  write_body(f, sim, m);
  bool ok = !ferror(f);
  ok = (fclose(f) == 0) && ok;
  if (!ok || !fbFilePath_CheckOutput(path, why, sizeof why) || rename(temp, path) != 0) {
    remove(temp);
    snprintf(err, errlen, "%s: cannot write the run's metadata%s%s", path, why[0] ? ": " : "", why);
    return false;
  }
  return true;
}
