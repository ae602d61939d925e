// catalogue.h — every rule module in a folder with its summary, parameters and fields: flockbox --rules.
#ifndef FB_CATALOGUE_H
#define FB_CATALOGUE_H

#include <stdio.h>

#include "fb.h"

typedef enum fbCatalogueFormat { FB_CATALOGUE_TEXT, FB_CATALOGUE_MARKDOWN } fbCatalogueFormat;

/*
 * Loads each *.lua of `folder` as a rule, the way a scenario would (sandbox, steering library,
 * declared parameters), and writes its one-line summary (the module's header), its parameters
 * (default, range, description) and its per-agent fields, in name order: plain text for a
 * terminal, or the Markdown of docs/rules.md. A module that does not load is listed with its error.
 * Returns the number of modules that failed to load, or -1 (message in err) if the folder cannot
 * be read.
 */
int fbCatalogue_Write(const char *folder, fbCatalogueFormat format, FILE *out, char *err, size_t errlen);

#endif
