// dap_server.h — the Debug Adapter Protocol on 127.0.0.1: one editor's requests, answered before the first step, between steps, and while a rule is stopped.
#ifndef FB_DAP_SERVER_H
#define FB_DAP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// How long a run with --dap waits for its client to connect before it gives up (exit 2).
#define FB_DAP_WAIT_SECONDS 60

/*
 * Listens on 127.0.0.1:port (0: any free port; the port is named on standard error either way),
 * waits up to wait_seconds for one client, and answers it until its configurationDone (or
 * until it leaves, or Ctrl-C): then the run may step. False with a message if any of that fails.
 */
bool fbDap_Start(int port, int wait_seconds, char *err, size_t errlen);

// Between steps: answers whatever the client sent (breakpoints, pause, disconnect ...). step is the
// world's step, which conditions see as `step`.
void fbDap_Poll(uint64_t step);

// At the end of the run: the events terminated and exited (with the exit status), and the
// connection closed.
void fbDap_End(int exit_code);

#endif
