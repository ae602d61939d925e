// new_rule.c — flockbox --new-rule: writing a commented starting rule module that runs as it is, and its test.
#include "new_rule.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb.h"

// The module, with %1$s the file's path, %2$s the rule's name and %3$s its test's path. It is the README's first rule:
// a sideways push about the flock-mates' centre, so that given to any flock it visibly does
// something, and every line a rule needs (params with a range and help, steer, its units) is there.
static const char template_text[] =
    "-- %1$s — (one line: what %2$s does, and where it comes from).\n"
    "-- Started by flockbox --new-rule. Give it to a species in a scenario, beside other rules:\n"
    "--   rules = { \"separation\", \"alignment\", { \"%2$s\", weight = 1 } },\n"
    "-- and name this folder in the scenario's behaviours = { ... } unless it is behaviours/ itself.\n"
    "-- Run the scenario in the window (or headless with --watch) and save this file: the next step\n"
    "-- uses it; a broken save shows file:line and the last good version keeps running.\n"
    "--\n"
    "-- steer(a, p, s) runs once per agent per step and returns an acceleration, world units/s², as\n"
    "-- two numbers. a is the agent and what it perceives: a.x, a.y, a.vx, a.vy, a.n flock-mates in\n"
    "-- view, a.cx, a.cy their centre, a.avx, a.avy their mean velocity, a:neighbour(k), ... p holds\n"
    "-- the parameters below (the scenario and --set may change them), s the species (s.max_speed,\n"
    "-- s.max_accel, ...). docs/writing-rules.md has the whole list; `steering` (behaviours/lib/\n"
    "-- steering.lua) has seek, flee, arrive, pursue and vector helpers. %2$s_test.lua beside it\n"
    "-- tests it: flockbox test %3$s\n"
    "---@type fbRule\n"
    "return {\n"
    "  params = {\n"
    "    -- default, range and one line of help: the panel's slider spans the range, and a value\n"
    "    -- outside it is refused with the file and the field named\n"
    "    gain = { 0.5, min = 0, max = 10, help = \"how hard to turn about the flock-mates' centre, 1/s²\" },\n"
    "  },\n"
    "\n"
    "  steer = function(a, p, s)\n"
    "    if a.n == 0 then\n"
    "      return 0, 0 -- nobody in view: leave it to the other rules\n"
    "    end\n"
    "    local dx, dy = a.cx - a.x, a.cy - a.y -- the offset to their centre, world units\n"
    "    return -dy * p.gain, dx * p.gain -- a push at right angles to it: the agent circles round\n"
    "  end,\n"
    "}\n";

// Its test, with %1$s the test's path and %2$s the rule's name: what the template promises, checked
// through flockbox test's harness in a real world, passing out of the box.
static const char test_template_text[] =
    "-- %1$s — what %2$s promises, checked in tiny real worlds: flockbox test %1$s\n"
    "-- t.steer(rule, description, params) runs the rule once for an agent and returns its steering;\n"
    "-- t.world(description) makes a world to step. docs/writing-rules.md, \"Testing your rules\".\n"
    "local t = require(\"flockbox.test\")\n"
    "\n"
    "t.test(\"nobody in view: no push\", function()\n"
    "  local ax, ay = t.steer(\"%2$s\", { agent = { 100, 100, 1, 0 } })\n"
    "  t.zero(ax, ay)\n"
    "end)\n"
    "\n"
    "t.test(\"a push at right angles to the flock-mates' centre\", function()\n"
    "  -- two mates ahead, their centre 4 units along +x: the push is along +y, gain x 4\n"
    "  local ax, ay = t.steer(\"%2$s\", { agent = { 100, 100, 1, 0 }, mates = { { 4, -1 }, { 4, 1 } } }, { gain = 1 })\n"
    "  t.near2(ax, ay, 0, 4, 1e-9)\n"
    "end)\n"
    "\n"
    "t.test(\"a flock given the rule turns about its centre\", function()\n"
    "  local w = t.world({ rules = { \"%2$s\" }, mates = { { 4, 0 }, { 0, 4 }, { -4, 0 } },\n"
    "    species = { vision = { radius = 20, fov = 360 } } })\n"
    "  w:step(20)\n"
    "  local me = w:agent()\n"
    "  t.greater(t.length(me.vx, me.vy), 0.1, \"it moves\")\n"
    "end)\n";

// The name as a message can echo it: its first 40 bytes, control characters and bytes past ASCII
// written as \n, \t or \xNN (a newline would end the message line, a cut could fall inside a
// UTF-8 sequence), then "…" if there was more.
static void printable(const char *name, char *out, size_t len)
{
  size_t used = 0, k = 0;
  out[0] = '\0';
  for (; name[k] != '\0' && k < 40 && used + 8 < len; ++k) {
    unsigned char c = (unsigned char)name[k];
    int n = c == '\n' ? snprintf(out + used, len - used, "\\n")
            : c == '\t' ? snprintf(out + used, len - used, "\\t")
            : c < 0x20 || c >= 0x7f ? snprintf(out + used, len - used, "\\x%02x", c)
            : snprintf(out + used, len - used, "%c", c);
    used += (size_t)n;
  }
  if (name[k] != '\0') {
    snprintf(out + used, len - used, "…");
  }
}

// A Lua identifier (a module name require and the scenario's rules can name), short enough for a
// rule's name. False with the reason in why.
static bool is_rule_name(const char *name, char *why, size_t whylen)
{
  size_t n = strlen(name);
  if (n == 0) {
    snprintf(why, whylen, "it is empty");
    return false;
  }
  if (n >= FB_NAME_LEN) {
    snprintf(why, whylen, "too long (%zu bytes; at most %d)", n, FB_NAME_LEN - 1);
    return false;
  }
  for (size_t k = 0; k < n; ++k) {
    unsigned char c = (unsigned char)name[k];
    if (isdigit(c) && k == 0) {
      snprintf(why, whylen, "it starts with a digit");
      return false;
    }
    if (!(isalnum(c) || c == '_') || c >= 0x80) {
      char one[2] = {(char)c, '\0'}, shown[16];
      printable(one, shown, sizeof shown);
      snprintf(why, whylen, "the character at position %zu ('%s') is not a letter, a digit or _", k + 1, shown);
      return false;
    }
  }
  return true;
}

static const char *default_folder(void)
{
  struct stat st;
  return stat("behaviours", &st) == 0 && S_ISDIR(st.st_mode) ? "behaviours" : ".";
}

// mkdir -p: each missing folder along the path, so `--new-rule drift mine/rules` makes both.
static bool make_folders(const char *folder, char *err, size_t errlen)
{
  char path[1024];
  snprintf(path, sizeof path, "%s", folder);
  for (char *c = path + 1;; ++c) {
    if (*c == '/' || *c == '\0') {
      char keep = *c;
      *c = '\0';
      struct stat st;
      if (stat(path, &st) != 0 && mkdir(path, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "--new-rule: %s: cannot make the folder: %s", path, strerror(errno));
        return false;
      }
      if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--new-rule: %s: not a folder", path);
        return false;
      }
      *c = keep;
      if (keep == '\0') {
        return true;
      }
    }
  }
}

// The path as a comment may hold it: a folder named with a line break would end the comment and
// make the rest of its name code, so control characters are written as '?'.
static void comment_safe(const char *path, char *out, size_t len)
{
  snprintf(out, len, "%s", path);
  for (char *c = out; *c != '\0'; ++c) {
    *c = iscntrl((unsigned char)*c) ? '?' : *c;
  }
}

// Opens path for writing only if nothing is there: O_EXCL never overwrites someone's file, even
// one created between a check and the write. NULL with the message in err.
static FILE *open_new(const char *path, char *err, size_t errlen)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    snprintf(err, errlen, "--new-rule: %s: %s", path,
             errno == EEXIST ? "already exists (pick another name, or edit that file)" : strerror(errno));
    return NULL;
  }
  FILE *f = fdopen(fd, "w");
  if (f == NULL) {
    close(fd);
    snprintf(err, errlen, "--new-rule: %s: cannot write it", path);
  }
  return f;
}

static bool finish(FILE *f, bool ok, const char *path, char *err, size_t errlen)
{
  ok = fclose(f) == 0 && ok;
  if (!ok) {
    snprintf(err, errlen, "--new-rule: %s: cannot write it", path);
    unlink(path);
  }
  return ok;
}

void fbNewRule_TestPath(const char *rule, char *out, size_t len)
{
  size_t n = strlen(rule);
  snprintf(out, len, "%.*s_test.lua", (int)(n > 4 ? n - 4 : n), rule);
}

bool fbNewRule_Write(const char *name, const char *folder, char *written, size_t written_len, char *err, size_t errlen)
{
  char why[160], shown[256];
  if (!is_rule_name(name, why, sizeof why)) {
    printable(name, shown, sizeof shown);
    snprintf(err, errlen, "--new-rule: '%s' is not a rule name: %s (letters, digits and _, not starting with a digit, "
             "at most %d characters)", shown, why, FB_NAME_LEN - 1);
    return false;
  }
  folder = folder != NULL ? folder : default_folder();
  if (!make_folders(folder, err, errlen)) {
    return false;
  }
  if (strcmp(folder, ".") == 0) {
    snprintf(written, written_len, "%s.lua", name);
  } else {
    snprintf(written, written_len, "%s/%s.lua", folder, name);
  }
  char test[1100], rule_header[1024], test_header[1100];
  fbNewRule_TestPath(written, test, sizeof test);
  comment_safe(written, rule_header, sizeof rule_header);
  comment_safe(test, test_header, sizeof test_header);
  FILE *f = open_new(written, err, errlen);
  if (f == NULL) {
    return false;
  }
  if (!finish(f, fprintf(f, template_text, rule_header, name, test_header) > 0, written, err, errlen)) {
    return false;
  }
  // The test beside it; a test already there is the author's and is kept, and so is the new rule.
  f = open_new(test, err, errlen);
  if (f == NULL) {
    return errno == EEXIST;
  }
  return finish(f, fprintf(f, test_template_text, test_header, name) > 0, test, err, errlen) || (unlink(written), false);
}
