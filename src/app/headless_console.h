// headless_console.h — flockbox --console: console lines (console.h) and :commands read from standard input between a headless run's steps.
#ifndef FB_HEADLESS_CONSOLE_H
#define FB_HEADLESS_CONSOLE_H

#include <stdio.h>

#include "console.h"
#include "run.h"

/*
 * The run asks before each step; the console reads lines until one lets the step be made (:step N
 * lets N), :quit, or the end of input, after which the run goes on as a plain headless run. After
 * the last step it gets one more turn, to look at the end. Lua lines and every message go to
 * `out` in the order they happen, so a scripted session reads as a transcript; a prompt is shown
 * only when the input is a terminal.
 */
typedef struct fbHeadlessConsole {
  fbConsole console;
  FILE *in, *out;
  bool prompt;          // the input is a terminal
  bool reading;         // input has not ended and no :quit yet
  bool quit;            // :quit: the run ends now, with its normal outputs
  long steps_left;      // steps the last :step allows before the next turn
  bool report_step;     // a :step was given: the next turn says which step the run reached
  bool break_on_error;  // --break-on-error: a step where a rule raised ends the :step early
} fbHeadlessConsole;

void fbHeadlessConsole_Begin(fbHeadlessConsole *hc, FILE *in, FILE *out, bool break_on_error);
void fbHeadlessConsole_End(fbHeadlessConsole *hc);

// Before a step: true if it may be made, false after :quit.
bool fbHeadlessConsole_BeforeStep(fbHeadlessConsole *hc, fbRun *run);

// After a step: with --break-on-error, a rule that failed in it stops the :step there, its frame
// held by the console (console.h) until the next :step.
void fbHeadlessConsole_AfterStep(fbHeadlessConsole *hc, fbRun *run);

// After the run's last step (not after :quit or a failure): a last turn at the final state.
void fbHeadlessConsole_AtEnd(fbHeadlessConsole *hc, fbRun *run);

#endif
