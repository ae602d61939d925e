// sweep.h — flockbox sweep: a scenario over a grid of parameters × seeds, on this machine's cores or as jobs for many machines.
#ifndef FB_SWEEP_H
#define FB_SWEEP_H

#include <stdio.h>

// flockbox sweep ...: argv[0] is "sweep". Returns the exit status: 0 every run complete, 1 an
// output could not be written, 2 bad input, 3 some runs incomplete or failed, 4 some runs not made
// yet (--collect), 130 interrupted (the same command resumes).
int fbSweep_Main(int argc, char **argv);

void fbSweep_PrintHelp(FILE *out);

#endif
