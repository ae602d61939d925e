// fit.h — flockbox fit: the parameters that make a model match a target, found by runs made as sweeps make them.
#ifndef FB_FIT_H
#define FB_FIT_H

#include <stdio.h>

// flockbox fit FILE [options]: argv[0] is "fit". Returns the exit status: 0 done, 1 an output could
// not be written, 2 bad input, 3 a run failed, 130 interrupted (the same command resumes).
int fbFit_Main(int argc, char **argv);

void fbFit_PrintHelp(FILE *out);

#endif
