// flockbox.h — the engine's public API: describe a world in C, load Lua steering rules, step it, read the agents.
#ifndef FLOCKBOX_H
#define FLOCKBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---- messages ---------------------------------------------------------------------------------

typedef enum fbLogLevel {
  FB_LOG_INFO,     // something happened as asked (a file reloaded)
  FB_LOG_WARNING,  // something failed and the engine carries on without it (a rule switched off)
  FB_LOG_ERROR,    // a failure the program will also hear of through a false return
} fbLogLevel;

// Receives every message of the engine: one line or a few, with no program name and no final
// newline. Called on the thread that steps the sim.
typedef void fbLogFcn(fbLogLevel level, const char *message, void *context);

// Sets where the engine's messages go; NULL: back to the default, stderr as "flockbox: <message>".
// Set it before creating a sim. The engine never writes to stdout or stderr by itself otherwise,
// and never exits the process.
void fbSetLogFunction(fbLogFcn *fcn, void *context);

#ifdef __cplusplus
}
#endif

#endif
