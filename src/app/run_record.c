// run_record.c — a sweep's run after it ended: the status file, the run's metadata side file and its final CSV row.
#define _POSIX_C_SOURCE 200809L
#include "run_record.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv_text.h"
#include "paths.h"
#include "sha256.h"

// The files a run may leave beside its log, as suffixes of OUT/runs/<run>.
static const char *const OUTPUTS[] = {".csv", ".csv.json"};
#define OUTPUT_COUNT (sizeof OUTPUTS / sizeof OUTPUTS[0])

const char *fbRunState_Name(fbRunState state)
{
  static const char *const names[] = {"pending", "complete", "incomplete", "failed"};
  return names[state];
}

fbRunState fbRunState_OfExit(int exit_status)
{
  switch (exit_status) {
  case 0: return FB_RUN_COMPLETE;
  case 3: return FB_RUN_INCOMPLETE;
  case 130:                // the run's own answer to SIGINT or SIGTERM, and the shell's for SIGINT
  case 128 + SIGTERM:
  case 128 + SIGHUP: return FB_RUN_PENDING;
  default: return FB_RUN_FAILED;
  }
}

int fbRunRecord_Claim(const fbPlan *p, long run, char *err, size_t errlen)
{
  char path[4200];
  fbPlan_RunFile(p, run, ".claim", path, sizeof path);
  char why[256];
  if (!fbFilePath_CheckOutput(path, why, sizeof why)) {  // a FIFO there would block the open
    snprintf(err, errlen, "%s: cannot be made: %s", path, why);
    return -1;
  }
  int fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);  // not inherited by the run's process
  if (fd < 0) {
    snprintf(err, errlen, "%s: cannot be made: %s", path, strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    err[0] = '\0';  // another process is making this run
    close(fd);
    return -1;
  }
  return fd;
}

void fbRunRecord_Release(int claim)
{
  if (claim >= 0) {
    close(claim);  // closing the descriptor lets go of the lock
  }
}

void fbRunRecord_Clear(const fbPlan *p, long run)
{
  char path[4200];
  fbPlan_RunFile(p, run, ".status", path, sizeof path);
  unlink(path);  // first: a run without its status file is pending, whatever else is left
  for (size_t k = 0; k < OUTPUT_COUNT; ++k) {
    fbPlan_RunFile(p, run, OUTPUTS[k], path, sizeof path);
    unlink(path);
  }
}

/*
 * The status file is the mark of a finished run: it is written after the run's process has exited,
 * through a temporary file and a rename, so it exists only whole and only once every output the run
 * wrote is in place. It lists those outputs, and a run whose listed output has since gone counts as
 * not made.
 */
bool fbRunRecord_Finish(const fbPlan *p, long run, int exit_status)
{
  if (fbRunState_OfExit(exit_status) == FB_RUN_PENDING) {
    return true;
  }
  char path[4200], tmp[4300], output[4200];
  fbPlan_RunFile(p, run, ".status", path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  char why[256];
  FILE *f = fbFilePath_CheckOutput(path, why, sizeof why) ? fbFilePath_OpenOutput(tmp, "w", why, sizeof why) : NULL;
  if (f == NULL) {
    return false;
  }
  fprintf(f, "exit_status %d\nstate %s\noutputs", exit_status, fbRunState_Name(fbRunState_OfExit(exit_status)));
  for (size_t k = 0; k < OUTPUT_COUNT; ++k) {
    fbPlan_RunFile(p, run, OUTPUTS[k], output, sizeof output);
    if (access(output, F_OK) == 0) {
      fprintf(f, " %ld%s", run, OUTPUTS[k]);
    }
  }
  fputc('\n', f);
  bool ok = !ferror(f);
  ok = fclose(f) == 0 && ok;
  ok = ok && fbFilePath_CheckOutput(path, why, sizeof why) && rename(tmp, path) == 0;
  if (!ok) {
    unlink(tmp);
  }
  return ok;
}

fbRunState fbRunRecord_State(const fbPlan *p, long run, int *exit_status)
{
  char path[4200], line[1024], output[4200];
  *exit_status = -1;
  fbPlan_RunFile(p, run, ".status", path, sizeof path);
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_TABLE_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return FB_RUN_PENDING;
  }
  int status = -1;
  bool outputs_there = true;
  while (fgets(line, sizeof line, f) != NULL) {
    if (sscanf(line, "exit_status %d", &status) == 1) {
      continue;
    }
    if (strncmp(line, "outputs", 7) == 0) {
      for (char *name = strtok(line + 7, " \n"); name != NULL; name = strtok(NULL, " \n")) {
        snprintf(output, sizeof output, "%s/runs/%s", p->e->out, name);
        outputs_there = outputs_there && access(output, F_OK) == 0;
      }
    }
  }
  fclose(f);
  if (status < 0 || !outputs_there) {
    return FB_RUN_PENDING;
  }
  *exit_status = status;
  return fbRunState_OfExit(status);
}

// ---- the metadata side file ---------------------------------------------------------------------

// Appends code point u to out as UTF-8 (a \uXXXX escape).
static size_t put_utf8(char *out, unsigned u)
{
  if (u < 0x80) {
    out[0] = (char)u;
    return 1;
  }
  if (u < 0x800) {
    out[0] = (char)(0xc0 | u >> 6);
    out[1] = (char)(0x80 | (u & 0x3f));
    return 2;
  }
  out[0] = (char)(0xe0 | u >> 12);
  out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
  out[2] = (char)(0x80 | (u & 0x3f));
  return 3;
}

// A JSON string starting at the quote *c; moves *c past the closing quote.
static void json_string(const char **c, char *out, size_t len)
{
  size_t n = 0;
  const char *s = *c + 1;
  for (; *s != '\0' && *s != '"'; ++s) {
    char buf[4] = {*s};
    size_t add = 1;
    if (*s == '\\' && s[1] != '\0') {
      ++s;
      switch (*s) {
      case 'n': buf[0] = '\n'; break;
      case 't': buf[0] = '\t'; break;
      case 'r': buf[0] = '\r'; break;
      case 'b': buf[0] = '\b'; break;
      case 'f': buf[0] = '\f'; break;
      case 'u': {
        unsigned u = 0;
        if (sscanf(s + 1, "%4x", &u) == 1 && strlen(s) >= 5) {
          add = put_utf8(buf, u);
          s += 4;
        }
        break;
      }
      default: buf[0] = *s; break;  // \" \\ \/
      }
    }
    for (size_t k = 0; k < add && n + 1 < len; ++k) {
      out[n++] = buf[k];
    }
  }
  out[n] = '\0';
  *c = *s == '"' ? s + 1 : s;
}

/*
 * The metadata a headless run writes beside its CSV (FILE.csv.json) is a flat JSON object with one
 * key per line ("seed": 7,). This reads that shape line by line, which is all the sweep needs: a
 * string value is unescaped, any other value (a number, a list) is kept as written.
 */
static bool json_line(const char *line, char *key, size_t klen, char *value, size_t vlen)
{
  const char *c = line + strspn(line, " \t");
  if (*c != '"') {
    return false;
  }
  json_string(&c, key, klen);
  c += strspn(c, " \t");
  if (*c != ':') {
    return false;
  }
  ++c;
  c += strspn(c, " \t");
  if (*c == '"') {
    json_string(&c, value, vlen);
    return true;
  }
  size_t n = strlen(c);
  while (n > 0 && (c[n - 1] == ',' || c[n - 1] == ' ' || c[n - 1] == '\t')) {
    --n;
  }
  snprintf(value, vlen, "%.*s", (int)n, c);
  return true;
}

static void read_metadata(fbRunRecord *r, const char *path)
{
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_TABLE_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return;
  }
  r->has_metadata = true;
  struct {
    const char *key;
    char *slot;
    size_t len;
  } wanted[] = {{"status", r->status, sizeof r->status},
                {"outcome", r->outcome, sizeof r->outcome},
                {"outcome_time", r->outcome_time, sizeof r->outcome_time},
                {"steps", r->steps, sizeof r->steps}};
  // What made the run: the build, and every file it read, each by its SHA-256.
  static const char *const provenance[] = {"flockbox", "scenario_sha256", "inputs"};
  fbSha256 made_from;
  fbSha256_Init(&made_from);
  char *line = NULL, key[64], value[1024];
  size_t cap = 0;
  while (fbCsv_ReadLine(f, &line, &cap)) {
    if (!json_line(line, key, sizeof key, value, sizeof value)) {
      continue;
    }
    for (size_t k = 0; k < sizeof wanted / sizeof wanted[0]; ++k) {
      if (strcmp(key, wanted[k].key) == 0) {
        snprintf(wanted[k].slot, wanted[k].len, "%s", value);
      }
    }
    for (size_t k = 0; k < sizeof provenance / sizeof provenance[0]; ++k) {
      if (strcmp(key, provenance[k]) == 0) {
        fbSha256_Update(&made_from, line, strlen(line));  // the whole line: a list of inputs is long
      }
    }
  }
  fbSha256_Hex(&made_from, r->made_from);
  free(line);
  fclose(f);
}

// ---- the CSV ------------------------------------------------------------------------------------

// The header and the last row of the run's CSV (the final state: a headless run always writes it).
static void read_final_row(fbRunRecord *r, const char *path)
{
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_TABLE_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return;
  }
  char *line = NULL, *last = NULL;
  size_t cap = 0;
  if (fbCsv_ReadLine(f, &line, &cap)) {
    fbCsv_Split(line, &r->columns);
  }
  while (fbCsv_ReadLine(f, &line, &cap)) {
    if (line[0] != '\0') {
      free(last);
      last = strdup(line);
    }
  }
  if (last != NULL) {
    fbCsv_Split(last, &r->values);
  }
  free(last);
  free(line);
  fclose(f);
}

void fbRunRecord_Load(fbRunRecord *r, const fbPlan *p, long run)
{
  memset(r, 0, sizeof *r);
  r->state = fbRunRecord_State(p, run, &r->exit_status);
  if (r->state == FB_RUN_PENDING) {
    return;
  }
  char path[4200];
  fbPlan_RunFile(p, run, ".csv.json", path, sizeof path);
  read_metadata(r, path);
  fbPlan_RunFile(p, run, ".csv", path, sizeof path);
  read_final_row(r, path);
  // The metadata may know what the exit status does not say (a --keep-going run, say).
  if (r->state == FB_RUN_COMPLETE && strcmp(r->status, "incomplete") == 0) {
    r->state = FB_RUN_INCOMPLETE;
  }
  if (r->steps[0] == '\0' && r->columns.count > 0 && r->values.count > 0 &&
      strcmp(r->columns.items[0], "step") == 0) {
    snprintf(r->steps, sizeof r->steps, "%s", r->values.items[0]);
  }
}

void fbRunRecord_Free(fbRunRecord *r)
{
  fbTextList_Free(&r->columns);
  fbTextList_Free(&r->values);
}
