// window_options.c — the window's options on the command line: parsed and explained here, offered to the engine's parser through fbCliMore.
#include "window_options.h"

#include <stdarg.h>
#include <string.h>

#include "rewind.h"

#define FB_REWIND_MAX_MB (1L << 20)  // a terabyte: a budget, not an allocation, but a typo's 10^12 is refused

// Appends to text (size bytes, *n used); a text that does not fit is cut, never overrun.
static void append(char *text, size_t size, size_t *n, const char *format, ...)
{
  va_list ap;
  va_start(ap, format);
  int written = vsnprintf(text + *n, size - *n, format, ap);
  va_end(ap);
  *n = written < 0 || *n + (size_t)written >= size ? size - 1 : *n + (size_t)written;
}

// The options' help; the --show line names the docks from their table, so it is written once, here.
static const char *help_text(void)
{
  static char text[2048];
  if (text[0] != '\0') {
    return text;
  }
  size_t n = 0;
  append(text, sizeof text, &n, "%s",
      "  --frames N          window: quit after N frames\n"
      "  --record FILE.mp4   window: record the frames with ffmpeg\n"
      "  --inspect ID        window: select agent ID at the start (its circles, arrows, fields)\n"
      "  --shot FILE.png     window: save the whole window (panels too) after the last frame\n"
      "  --size WxH          window: its size at the start (default 1280x800)\n"
      "  --rewind-mb N       window: memory for rewind's snapshots, in MB (default 256; 0: no rewind)\n"
      "  --show LIST         window: open at the start, comma-separated: ");
  for (int k = 0; k < fbDockCount; ++k) {
    if (!fbDockTable[k].open) {
      append(text, sizeof text, &n, "%s, ", fbDockTable[k].name);
    }
  }
  append(text, sizeof text, &n, "help,\n%22strails, list (the scenario list), about (the info dock's About tab)", "");
  for (int k = 0; k < fbDockCount; ++k) {
    if (fbDockTable[k].open) {
      append(text, sizeof text, &n, "; -%s closes %s", fbDockTable[k].name, fbDockTable[k].title);
    }
  }
  append(text, sizeof text, &n, "\n");
  return text;
}

static const struct {
  const char *name;
  unsigned bit;
} SHOWN[] = {{"help", FB_SHOW_HELP}, {"trails", FB_SHOW_TRAILS}, {"list", FB_SHOW_LIST}, {"about", FB_SHOW_ABOUT}};

// One name of --show's list: a dock (NAME opens it, -NAME closes it) or one of SHOWN. False if unknown.
static bool show_one(fbWindowOptions *w, const char *name)
{
  for (size_t k = 0; k < sizeof SHOWN / sizeof SHOWN[0]; ++k) {
    if (strcmp(name, SHOWN[k].name) == 0) {
      w->show |= SHOWN[k].bit;
      return true;
    }
  }
  bool close = name[0] == '-';
  int dock = fbDock_Find(name + close);
  if (dock >= 0) {
    w->docks.open[dock] = !close;
  }
  return dock >= 0;
}

// The names --show knows, for its message: "params, plots, help, trails, list, -info".
static void show_names(char *out, size_t size)
{
  size_t n = 0;
  out[0] = '\0';
  for (int k = 0; k < fbDockCount; ++k) {
    if (!fbDockTable[k].open) {
      append(out, size, &n, "%s, ", fbDockTable[k].name);
    }
  }
  for (size_t k = 0; k < sizeof SHOWN / sizeof SHOWN[0]; ++k) {
    append(out, size, &n, "%s, ", SHOWN[k].name);
  }
  for (int k = 0; k < fbDockCount; ++k) {
    if (fbDockTable[k].open) {
      append(out, size, &n, "-%s, ", fbDockTable[k].name);
    }
  }
  if (n >= 2 && strcmp(out + n - 2, ", ") == 0) {
    out[n - 2] = '\0';
  }
}

// --show plots,params: names of what opens (or, for a dock open by default, closes) at the start.
static int parse_show(fbWindowOptions *w, const char *list, char *err, size_t errlen)
{
  const char *p = list;
  while (*p != '\0') {
    size_t n = strcspn(p, ",");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    if (n >= sizeof name || !show_one(w, name)) {
      char names[512];
      show_names(names, sizeof names);
      snprintf(err, errlen, "--show: unknown '%.*s' (%s)", (int)n, p, names);
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
  long long v;  // each range below fits a 32-bit long but --inspect's, kept in a long long
  if (strcmp(opt, "--frames") == 0) {
    if (!fbCli_ParseLong(opt, value, 0, 2000000000L, &v, err, errlen)) {
      return 2;
    }
    w->frames = (long)v;
    return 0;
  }
  if (strcmp(opt, "--rewind-mb") == 0) {
    if (!fbCli_ParseLong(opt, value, 0, FB_REWIND_MAX_MB, &v, err, errlen)) {
      return 2;
    }
    w->rewind_mb = (long)v;
    return 0;
  }
  if (strcmp(opt, "--inspect") == 0) {
    if (!fbCli_ParseLong(opt, value, 1, 0xffffffffLL, &v, err, errlen)) {
      return 2;
    }
    w->inspect = v;
    return 0;
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

const char *fbWindowOptions_Help(void) { return help_text(); }

fbCliResult fbWindowOptions_Parse(fbCli *cli, fbWindowOptions *window, int argc, char **argv, char *err,
                                  size_t errlen)
{
  memset(window, 0, sizeof *window);
  window->program = argc > 0 ? argv[0] : NULL;
  window->docks = fbDocks_Default();
  window->rewind_mb = FB_REWIND_BUDGET_MB;
  fbCliMore more = {help_text(), parse_option, window};
  return fbCli_Parse(cli, argc, argv, &more, err, errlen);
}
