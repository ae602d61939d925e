// headless_console.c — flockbox --console: reading console lines and :commands from standard input between a headless run's steps.
#define _POSIX_C_SOURCE 200809L
#include "headless_console.h"

#include <ctype.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void fbHeadlessConsole_Begin(fbHeadlessConsole *hc, FILE *in, FILE *out, bool break_on_error)
{
  memset(hc, 0, sizeof *hc);
  fbConsole_Init(&hc->console);
  hc->in = in;
  hc->out = out;
  hc->prompt = isatty(fileno(in));
  hc->reading = true;
  hc->break_on_error = break_on_error;
}

void fbHeadlessConsole_End(fbHeadlessConsole *hc) { fbConsole_Free(&hc->console); }

static const char help_text[] =
    "Lua lines run in the scenario's state between steps: an expression prints its values, a\n"
    "statement acts (fb.spawn, fb.set_param, a global). sel is the agent chosen with :select.\n"
    "  :step [N]     make N steps (default 1), then read again\n"
    "  :select [ID]  sel is agent ID from now on (no ID: nil)\n"
    "  :where        the traceback of the rule that failed (--break-on-error)\n"
    "  :locals       that rule's local variables when it failed\n"
    "  :quit         end the run now, with its outputs (CSV, metadata, summary)\n"
    "  :help         this text\n"
    "At the end of input the run goes on to its end as a plain headless run.\n";

// One line from the input without its line break; false at the end of input. A line longer than
// the console takes is read to its end and refused.
static bool read_line(fbHeadlessConsole *hc, char *line, size_t cap, bool *too_long)
{
  *too_long = false;
  if (hc->prompt) {
    fputs("> ", hc->out);
    fflush(hc->out);
  }
  if (fgets(line, (int)cap, hc->in) == NULL) {
    return false;
  }
  size_t len = strlen(line);
  if (len > 0 && line[len - 1] == '\n') {
    line[--len] = '\0';
  } else if (!feof(hc->in)) {
    *too_long = true;
    int c;
    while ((c = fgetc(hc->in)) != EOF && c != '\n') {
    }
  }
  if (len > 0 && line[len - 1] == '\r') {
    line[--len] = '\0';
  }
  return true;
}

// :step [N]: how many steps to allow; false with a message for anything but a whole number >= 1.
static bool parse_steps(const char *arg, long *steps, char *err, size_t errlen)
{
  long long n = 1;
  if (*arg != '\0' && !fbCli_ParseLong(":step", arg, 1, 2000000000LL, &n, err, errlen)) {
    return false;
  }
  *steps = (long)n;
  return true;
}

static void command_select(fbHeadlessConsole *hc, const char *arg)
{
  long long id = 0;
  char err[256];
  if (*arg != '\0' && !fbCli_ParseLong(":select", arg, 1, UINT32_MAX, &id, err, sizeof err)) {
    fprintf(hc->out, "%s\n", err);
    return;
  }
  hc->console.selected = (uint32_t)id;
  fprintf(hc->out, id ? "sel is agent %lld\n" : "sel is nil\n", id);
}

// A :command; returns true when it lets the run go on (a :step, :quit).
static bool command(fbHeadlessConsole *hc, fbRun *run, char *line, bool at_end)
{
  char *arg = line + strcspn(line, " \t");
  if (*arg != '\0') {
    *arg++ = '\0';
    arg += strspn(arg, " \t");
    char *end = arg + strlen(arg);
    while (end > arg && isspace((unsigned char)end[-1])) {
      *--end = '\0';
    }
  }
  char err[256];
  if (strcmp(line, ":step") == 0) {
    long steps;
    if (!parse_steps(arg, &steps, err, sizeof err)) {
      fprintf(hc->out, "%s\n", err);
    } else if (at_end) {
      fprintf(hc->out, "the run has ended (step %llu); :quit or end the input\n",
              (unsigned long long)fbSim_World(run->sim)->step);
    } else {
      hc->steps_left = steps;
      hc->report_step = true;
      fbConsole_DropFrame(&hc->console);
      return true;
    }
  } else if (strcmp(line, ":quit") == 0) {
    hc->quit = true;
    hc->reading = false;
    return true;
  } else if (strcmp(line, ":help") == 0) {
    fputs(help_text, hc->out);
  } else if (strcmp(line, ":select") == 0) {
    command_select(hc, arg);
  } else if (strcmp(line, ":where") == 0 || strcmp(line, ":locals") == 0) {
    const fbRuleFrame *f = hc->console.frame;
    if (f == NULL) {
      fprintf(hc->out, "no failing rule to show: %s\n",
              hc->break_on_error ? "the console stops at one after the step it failed in"
                                 : "run with --break-on-error to stop at one");
    } else if (line[1] == 'w') {
      fprintf(hc->out, "%s\n", f->traceback);
    } else {
      fputs(f->locals[0] != '\0' ? f->locals : "(no locals)\n", hc->out);
    }
  } else {
    fprintf(hc->out, "unknown command '%s' (:help lists them)\n", line);
  }
  return false;
}

static void run_lua(fbHeadlessConsole *hc, fbRun *run, const char *line)
{
  static char out[65536];
  fbConsoleResult r = fbConsole_Run(&hc->console, run->sim, line, out, sizeof out);
  (void)r;
  if (out[0] != '\0') {
    fprintf(hc->out, "%s\n", out);
  }
}

// Reads and runs lines until one lets the run go on, or the input ends.
static void turn(fbHeadlessConsole *hc, fbRun *run, bool at_end)
{
  if (hc->report_step) {
    fprintf(hc->out, "step %llu\n", (unsigned long long)fbSim_World(run->sim)->step);
    hc->report_step = false;
  }
  static char line[FB_CONSOLE_LINE_MAX + 2];
  bool too_long;
  while (hc->reading) {
    if (!read_line(hc, line, sizeof line, &too_long)) {
      hc->reading = false;
      break;
    }
    const char *start = line + strspn(line, " \t");
    if (too_long) {
      fprintf(hc->out, "a console line holds at most %d bytes; this one was not run\n", FB_CONSOLE_LINE_MAX);
    } else if (*start == ':') {
      if (command(hc, run, (char *)start, at_end)) {
        break;
      }
    } else if (*start != '\0') {
      run_lua(hc, run, start);
    }
    fflush(hc->out);
  }
  fflush(hc->out);
}

bool fbHeadlessConsole_BeforeStep(fbHeadlessConsole *hc, fbRun *run)
{
  if (hc->steps_left > 0) {
    hc->steps_left--;
    return true;
  }
  turn(hc, run, false);
  if (hc->quit) {
    return false;
  }
  if (hc->steps_left > 0) {
    hc->steps_left--;
  }
  return true;
}

// With --break-on-error, a step where a rule failed ends the :step there, with its frame held and
// its agent selected.
void fbHeadlessConsole_AfterStep(fbHeadlessConsole *hc, fbRun *run)
{
  if (!hc->break_on_error || !hc->reading || !fbConsole_TakeFrame(&hc->console, run->sim)) {
    return;
  }
  const fbRuleFrame *f = hc->console.frame;
  uint64_t step = fbSim_World(run->sim)->step;
  fprintf(hc->out, "stopped at step %llu: rule '%s' of species '%s' failed in step %llu for agent %u at %s\n"
          "(:where the traceback, :locals its variables; lines see them, sel is the agent; :step goes on)\n",
          (unsigned long long)step, fbSim_RuleName(run->sim, f->species, f->rule),
          fbSim_World(run->sim)->species[f->species].name, (unsigned long long)(step - 1), (unsigned)f->agent, f->where);
  hc->steps_left = 0;
  hc->report_step = false;
}

void fbHeadlessConsole_AtEnd(fbHeadlessConsole *hc, fbRun *run)
{
  if (hc->reading) {
    turn(hc, run, true);
  }
}
