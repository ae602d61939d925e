// window_options.c — the window's options on the command line: parsed and explained here, offered to the engine's parser through fbCliMore.
#include "window_options.h"

#include <string.h>

static const char HELP[] =
    "  --frames N          window: quit after N frames\n"
    "  --record FILE.mp4   window: record the frames with ffmpeg\n"
    "  --inspect ID        window: select agent ID at the start (its circles, arrows, fields)\n"
    "  --shot FILE.png     window: save the whole window (panels too) after the last frame\n"
    "  --size WxH          window: its size at the start (default 1280x800)\n"
    "  --show LIST         window: open at the start, comma-separated: plots, params, help,\n"
    "                      trails, list (the scenario list); -info closes the info panel\n";

// --show plots,params: names of what opens at the start.
static int parse_show(fbWindowOptions *w, const char *list, char *err, size_t errlen)
{
  static const struct {
    const char *name;
    unsigned bit;
  } names[] = {{"plots", FB_SHOW_PLOTS}, {"params", FB_SHOW_PARAMS}, {"help", FB_SHOW_HELP},
               {"trails", FB_SHOW_TRAILS}, {"list", FB_SHOW_LIST}, {"-info", FB_HIDE_INFO}};
  const char *p = list;
  while (*p != '\0') {
    size_t n = strcspn(p, ",");
    bool known = false;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
      if (strlen(names[k].name) == n && strncmp(p, names[k].name, n) == 0) {
        w->show |= names[k].bit;
        known = true;
      }
    }
    if (!known) {
      snprintf(err, errlen, "--show: unknown '%.*s' (plots, params, help, trails, list, -info)", (int)n, p);
      return 2;
    }
    p += n + (p[n] == ',');
  }
  return 0;
}

static int parse_size(fbWindowOptions *w, const char *value, char *err, size_t errlen)
{
  char tail;
  if (sscanf(value, "%dx%d%c", &w->width, &w->height, &tail) != 2 || w->width < 320 || w->height < 240 ||
      w->width > 16384 || w->height > 16384) {
    snprintf(err, errlen, "--size: expected WIDTHxHEIGHT from 320x240 to 16384x16384, got '%s'", value);
    return 2;
  }
  return 0;
}

// fbCliMore's parse: one OPTION VALUE, 0 taken, 2 refused, -1 not a window option.
static int parse_option(void *ctx, const char *opt, const char *value, char *err, size_t errlen)
{
  fbWindowOptions *w = ctx;
  if (strcmp(opt, "--frames") == 0) {
    return fbCli_ParseLong(opt, value, 0, 2000000000L, &w->frames, err, errlen) ? 0 : 2;
  }
  if (strcmp(opt, "--inspect") == 0) {
    return fbCli_ParseLong(opt, value, 1, 0xffffffffL, &w->inspect, err, errlen) ? 0 : 2;
  }
  if (strcmp(opt, "--record") == 0) {
    w->record = value;
  } else if (strcmp(opt, "--shot") == 0) {
    w->shot = value;
  } else if (strcmp(opt, "--size") == 0) {
    return parse_size(w, value, err, errlen);
  } else if (strcmp(opt, "--show") == 0) {
    return parse_show(w, value, err, errlen);
  } else {
    return -1;
  }
  return 0;
}

const char *fbWindowOptions_Help(void) { return HELP; }

fbCliResult fbWindowOptions_Parse(fbCli *cli, fbWindowOptions *window, int argc, char **argv, char *err,
                                  size_t errlen)
{
  memset(window, 0, sizeof *window);
  fbCliMore more = {HELP, parse_option, window};
  return fbCli_Parse(cli, argc, argv, &more, err, errlen);
}
