// web_page.c — what the web page's buttons ask of the program (emscripten only): a new rule from flockbox --new-rule's template.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <stdio.h>

#include "new_rule.h"

/*
 * The page's "New rule" button: behaviours/NAME.lua from the same template and with the same checks
 * as `flockbox --new-rule NAME` (a Lua identifier, not already there). Returns "+PATH" when written,
 * "-MESSAGE" when refused; the text lives until the next call.
 */
EMSCRIPTEN_KEEPALIVE const char *fbPage_NewRule(const char *name)
{
  static char answer[1024];
  char written[512], err[512];
  if (fbNewRule_Write(name, "behaviours", written, sizeof written, err, sizeof err)) {
    snprintf(answer, sizeof answer, "+%s", written);
  } else {
    snprintf(answer, sizeof answer, "-%s", err);
  }
  return answer;
}
#endif
