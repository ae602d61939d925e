// headless.h — running a scenario with no display (--headless).
#ifndef FB_HEADLESS_H
#define FB_HEADLESS_H

#include "cli.h"

// Runs the scenario with no display: steps, CSV rows, --png through the view library, the summary
// line; returns the process exit status.
int fbHeadless_Run(const fbCli *cli);

#endif
