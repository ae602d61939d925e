// console.h — a console line run in the scenario's own Lua state between steps, its values shown, every line kept for the run's record.
#ifndef FB_CONSOLE_H
#define FB_CONSOLE_H

#include "rule_frame.h"
#include "show_value.h"
#include "sim.h"

// The longest console line, and the most lines a run's record keeps (the rest are counted).
#define FB_CONSOLE_LINE_MAX 2048
#define FB_CONSOLE_RECORD_MAX 1000

// A line that ran, as the run's metadata records it: "console: step N: <line>".
typedef struct fbConsoleRecord {
  uint64_t step;     // the world's step when it ran (between that step and the next)
  bool ok;           // false: it raised an error (what it changed before that stays)
  char *line;
} fbConsoleRecord;

/*
 * A console into a running sim (headless --console, the window's dock). A line runs in the
 * scenario's state, as a hook does: through the one protected door, under the watchdog, its spawns
 * and removals applied when it returns. Every line that ran is recorded, expressions included:
 * `fb.spawn(...)` is an expression too, so the console cannot tell a question from a change, and
 * a run is honest about how it was made only if it lists them all. A line that does not compile
 * ran nothing and is not recorded.
 */
typedef struct fbConsole {
  uint32_t selected;          // the agent `sel` names (0: sel is nil)
  fbRuleFrame *frame;         // a failing rule's frame the console stopped at (NULL: none): lines see its locals
  fbConsoleRecord *records;
  int record_count, record_capacity;
  long records_left_out;      // lines past FB_CONSOLE_RECORD_MAX
} fbConsole;

void fbConsole_Init(fbConsole *c);
void fbConsole_Free(fbConsole *c);

// After a step: holds the frame of the rule that failed in it (fbSim_FailedFrame, a copy) and
// selects its agent; false, holding nothing, when no rule failed. Dropped when the run goes on.
bool fbConsole_TakeFrame(fbConsole *c, const fbSim *sim);
void fbConsole_DropFrame(fbConsole *c);

// How a line went.
typedef enum fbConsoleResult {
  FB_CONSOLE_OK,           // it ran; its values (if any) are in out, tab-separated, one line
  FB_CONSOLE_ERROR,        // it ran and raised: the message and its traceback are in out
  FB_CONSOLE_SYNTAX,       // it did not compile: Lua's message is in out; nothing ran
} fbConsoleResult;

/*
 * Runs one line as Lua 5.4's own interpreter does: `return <line>` first, so an expression shows
 * its values; else the line as a statement. Its globals are the scenario's (an assignment sets
 * one), with `sel` the selected agent's record (fb.find) and `print` writing into out; while a
 * frame is held, its locals (copies) come before the globals: `a`, `p`, the rule's own. The
 * values are shown by fbLua_Show (tables to a depth, keys sorted). out is zero-terminated.
 */
fbConsoleResult fbConsole_Run(fbConsole *c, fbSim *sim, const char *line, char *out, size_t outlen);

// Completion candidates: whole words, sorted, no two alike.
#define FB_COMPLETE_MAX 64
#define FB_COMPLETE_LEN 96
typedef struct fbCompletion {
  int count;                                 // candidates kept (at most FB_COMPLETE_MAX)
  long found;                                // candidates found (the rest were left out)
  char word[FB_COMPLETE_MAX][FB_COMPLETE_LEN];
} fbCompletion;

/*
 * The words that complete word (names and dots, "fb.sp", "sel.", "p.vic", "off") in the scope a
 * line would run in: a dotted word's last part among the keys of the table the rest names (its
 * own keys and those of the tables its metatables' __index give), a plain word among the line's
 * names (sel, a held frame's locals, the scenario's globals, Lua's). in_string: the word is inside
 * a quoted string, as fb.set_param("boid", "cohesion", "div... : the species, rule and parameter
 * names instead. Nothing runs but reads (a scope is made as for a line; fb.find gives sel), and
 * nothing is recorded.
 */
void fbConsole_Complete(fbConsole *c, fbSim *sim, const char *word, bool in_string, fbCompletion *out);

#endif
