// dap_server.c — the Debug Adapter Protocol's base protocol (Content-Length framing, seq), its requests and events, over one loopback socket.
#define _POSIX_C_SOURCE 200809L
#include "dap_server.h"

#include "debugger.h"
#include "json.h"
#include "lua_host.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * The base protocol (microsoft.github.io/debug-adapter-protocol/overview, "Base protocol"): each
 * message is a header block of "Name: value\r\n" lines, the one required being Content-Length (the
 * body's length in bytes), an empty line, then a JSON body. A body is a request
 * {seq, type:"request", command, arguments}, a response {seq, type:"response", request_seq,
 * success, command, message?, body?} or an event {seq, type:"event", event, body?}. Every message
 * we send carries the next seq. A header without a valid Content-Length, or a body that is not
 * JSON, is dropped with an `output` event saying so (there is no request to answer), and reading
 * goes on with the next header.
 */
#define MAX_BODY (1 << 20)

typedef struct Session {
  int listener, fd;
  fbBytes in;           // bytes received, not yet read as messages
  int seq;              // of the last message sent
  bool configured;      // configurationDone came
  fbDebugStop *stop;    // while stopped
  int resume;           // how the client asked to go on, -1 while it has not
} Session;

static Session session = {-1, -1, {0}, 0, false, NULL, -1};

static void send_all(const void *data, size_t len)
{
  const char *p = data;
  while (len > 0 && session.fd >= 0) {
    ssize_t n = send(session.fd, p, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      close(session.fd);
      session.fd = -1;
      return;
    }
    p += n;
    len -= (size_t)n;
  }
}

static void send_message(fbBytes *body)
{
  char header[64];
  int n = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", body->len);
  send_all(header, (size_t)n);
  send_all(body->data, body->len);
  fbBytes_Free(body);
}

// An event; body is JSON text ("" for none).
static void send_event(const char *event, const char *body)
{
  fbBytes b = {0};
  fbJson_Printf(&b, "{\"seq\":%d,\"type\":\"event\",\"event\":", ++session.seq);
  fbJson_PutString(&b, event);
  if (body[0] != '\0') {
    fbJson_Printf(&b, ",\"body\":%s", body);
  }
  fbJson_Printf(&b, "}");
  send_message(&b);
}

static void send_output(const char *category, const char *text)
{
  fbBytes b = {0};
  fbJson_Printf(&b, "{\"category\":");
  fbJson_PutString(&b, category);
  fbJson_Printf(&b, ",\"output\":");
  fbJson_PutString(&b, text);
  fbJson_Printf(&b, "}");
  fbBytes_Put(&b, "", 1);
  send_event("output", (const char *)b.data);
  fbBytes_Free(&b);
}

// ---- requests -----------------------------------------------------------------------------------------

// What a handler answers: success or a message, and the body's JSON (empty for none).
typedef struct Reply {
  bool ok;
  char message[1100];
  fbBytes body;
} Reply;

static void refuse(Reply *r, const char *message)
{
  r->ok = false;
  snprintf(r->message, sizeof r->message, "%s", message);
}

static bool need_stop(Reply *r)
{
  if (session.stop == NULL) {
    refuse(r, "not stopped: this request needs a stopped rule or hook");
    return false;
  }
  return true;
}

static void r_initialize(const fbJson *args, Reply *r)
{
  (void)args;
  fbJson_Printf(&r->body, "{\"supportsConfigurationDoneRequest\":true,\"supportsConditionalBreakpoints\":true,"
                          "\"supportsHitConditionalBreakpoints\":true,\"supportsEvaluateForHovers\":true,"
                          "\"exceptionBreakpointFilters\":[{\"filter\":\"error\",\"label\":\"Stop on error\","
                          "\"description\":\"stop where a rule or a hook raises an error\",\"default\":true}]}");
}

static void r_launch(const fbJson *args, Reply *r) { (void)args, (void)r; }

static void r_set_breakpoints(const fbJson *args, Reply *r)
{
  const char *path = fbJson_GetString(fbJson_Get(args, "source"), "path", NULL);
  if (path == NULL) {
    refuse(r, "setBreakpoints: arguments.source.path is missing");
    return;
  }
  fbBreakpoint bps[FB_DEBUG_MAX_BREAKPOINTS];
  int n = 0;
  const fbJson *list = fbJson_Get(args, "breakpoints");
  for (const fbJson *b = list != NULL ? list->child : NULL; b != NULL && n < FB_DEBUG_MAX_BREAKPOINTS; b = b->next) {
    fbBreakpoint *bp = &bps[n++];
    memset(bp, 0, sizeof *bp);
    bp->line = (int)fbJson_GetNumber(b, "line", 0);
    snprintf(bp->condition, sizeof bp->condition, "%s", fbJson_GetString(b, "condition", ""));
    snprintf(bp->hit_condition, sizeof bp->hit_condition, "%s", fbJson_GetString(b, "hitCondition", ""));
  }
  fbDebugger_SetBreakpoints(path, bps, n);
  fbJson_Printf(&r->body, "{\"breakpoints\":[");
  for (int k = 0; k < n; ++k) {
    fbJson_Printf(&r->body, "%s{\"id\":%d,\"verified\":%s,\"line\":%d,\"source\":{\"path\":", k ? "," : "", bps[k].id,
                  bps[k].verified ? "true" : "false", bps[k].line);
    fbJson_PutString(&r->body, path);
    fbJson_Printf(&r->body, "}");
    if (!bps[k].verified) {
      fbJson_Printf(&r->body, ",\"message\":");
      fbJson_PutString(&r->body, bps[k].message);
    }
    fbJson_Printf(&r->body, "}");
  }
  fbJson_Printf(&r->body, "]}");
}

static void r_set_exception_breakpoints(const fbJson *args, Reply *r)
{
  bool on = false;
  const fbJson *filters = fbJson_Get(args, "filters");
  for (const fbJson *f = filters != NULL ? filters->child : NULL; f != NULL; f = f->next) {
    on = on || (f->type == FB_JSON_STRING && strcmp(f->string, "error") == 0);
  }
  fbDebugger_StopOnError(on);
  fbJson_Printf(&r->body, "{\"breakpoints\":[%s]}", on ? "{\"verified\":true}" : "");
}

static void r_configuration_done(const fbJson *args, Reply *r)
{
  (void)args, (void)r;
  session.configured = true;
}

static void r_threads(const fbJson *args, Reply *r)
{
  (void)args;
  fbJson_Printf(&r->body, "{\"threads\":[{\"id\":1,\"name\":\"rules and hooks\"}]}");
}

static void r_stack_trace(const fbJson *args, Reply *r)
{
  if (!need_stop(r)) {
    return;
  }
  static fbDebugFrame frames[64];
  int n = fbDebugger_Frames(session.stop, frames, 64);
  int start = (int)fbJson_GetNumber(args, "startFrame", 0), levels = (int)fbJson_GetNumber(args, "levels", 0);
  int end = levels > 0 && start + levels < n ? start + levels : n;
  fbJson_Printf(&r->body, "{\"stackFrames\":[");
  for (int k = start < 0 ? 0 : start; k < end; ++k) {
    fbJson_Printf(&r->body, "%s{\"id\":%d,\"name\":", k > start ? "," : "", frames[k].id);
    fbJson_PutString(&r->body, frames[k].name);
    fbJson_Printf(&r->body, ",\"line\":%d,\"column\":1", frames[k].line > 0 ? frames[k].line : 0);
    if (frames[k].path[0] != '\0') {
      const char *slash = strrchr(frames[k].path, '/');
      fbJson_Printf(&r->body, ",\"source\":{\"name\":");
      fbJson_PutString(&r->body, slash ? slash + 1 : frames[k].path);
      fbJson_Printf(&r->body, ",\"path\":");
      fbJson_PutString(&r->body, frames[k].path);
      fbJson_Printf(&r->body, "}");
    } else {
      fbJson_Printf(&r->body, ",\"presentationHint\":\"label\"");
    }
    fbJson_Printf(&r->body, "}");
  }
  fbJson_Printf(&r->body, "],\"totalFrames\":%d}", n);
}

static void r_scopes(const fbJson *args, Reply *r)
{
  if (!need_stop(r)) {
    return;
  }
  fbDebugScope scopes[8];
  int n = fbDebugger_Scopes(session.stop, (int)fbJson_GetNumber(args, "frameId", 1), scopes, 8);
  fbJson_Printf(&r->body, "{\"scopes\":[");
  for (int k = 0; k < n; ++k) {
    fbJson_Printf(&r->body, "%s{\"name\":", k ? "," : "");
    fbJson_PutString(&r->body, scopes[k].name);
    fbJson_Printf(&r->body, ",\"variablesReference\":%d,\"expensive\":false%s}", scopes[k].reference,
                  k == 0 ? ",\"presentationHint\":\"locals\"" : "");
  }
  fbJson_Printf(&r->body, "]}");
}

typedef struct VariableList {
  fbBytes *out;
  int count;
} VariableList;

static void add_variable(const char *name, const char *value, const char *type, int reference, void *ud)
{
  VariableList *list = ud;
  fbJson_Printf(list->out, "%s{\"name\":", list->count++ ? "," : "");
  fbJson_PutString(list->out, name);
  fbJson_Printf(list->out, ",\"value\":");
  fbJson_PutString(list->out, value);
  fbJson_Printf(list->out, ",\"type\":");
  fbJson_PutString(list->out, type);
  fbJson_Printf(list->out, ",\"variablesReference\":%d}", reference);
}

static void r_variables(const fbJson *args, Reply *r)
{
  if (!need_stop(r)) {
    return;
  }
  fbJson_Printf(&r->body, "{\"variables\":[");
  VariableList list = {&r->body, 0};
  if (!fbDebugger_Variables(session.stop, (int)fbJson_GetNumber(args, "variablesReference", 0), add_variable, &list)) {
    fbBytes_Free(&r->body);
    refuse(r, "no such variablesReference (they last while stopped)");
    return;
  }
  fbJson_Printf(&r->body, "]}");
}

static void r_evaluate(const fbJson *args, Reply *r)
{
  if (!need_stop(r)) {
    return;
  }
  char value[1024], type[32];
  int reference;
  const char *expression = fbJson_GetString(args, "expression", "");
  if (!fbDebugger_Evaluate(session.stop, (int)fbJson_GetNumber(args, "frameId", 1), expression, value, sizeof value,
                           type, sizeof type, &reference)) {
    refuse(r, value);
    return;
  }
  fbJson_Printf(&r->body, "{\"result\":");
  fbJson_PutString(&r->body, value);
  fbJson_Printf(&r->body, ",\"type\":");
  fbJson_PutString(&r->body, type);
  fbJson_Printf(&r->body, ",\"variablesReference\":%d}", reference);
}

// continue, next, stepIn, stepOut: how the stopped rule goes on (outside a stop they do nothing).
static void resume_with(Reply *r, fbDebugResume how, bool continued)
{
  if (session.stop != NULL) {
    session.resume = (int)how;
  }
  if (continued) {
    fbJson_Printf(&r->body, "{\"allThreadsContinued\":true}");
  }
}
static void r_continue(const fbJson *args, Reply *r) { (void)args, resume_with(r, FB_DEBUG_CONTINUE, true); }
static void r_next(const fbJson *args, Reply *r) { (void)args, resume_with(r, FB_DEBUG_NEXT, false); }
static void r_step_in(const fbJson *args, Reply *r) { (void)args, resume_with(r, FB_DEBUG_STEP_IN, false); }
static void r_step_out(const fbJson *args, Reply *r) { (void)args, resume_with(r, FB_DEBUG_STEP_OUT, false); }

static void r_pause(const fbJson *args, Reply *r)
{
  (void)args, (void)r;
  if (session.stop == NULL) {
    fbDebugger_Pause();  // the stopped event comes at the next line a rule or hook runs
  }
}

static void r_disconnect(const fbJson *args, Reply *r)
{
  (void)args, (void)r;
  session.resume = (int)FB_DEBUG_CONTINUE;
}

// The requests of the specification's list that flockbox answers (docs/writing-rules.md).
static const struct {
  const char *command;
  void (*handle)(const fbJson *args, Reply *r);
} requests[] = {
  {"initialize", r_initialize},
  {"launch", r_launch},
  {"attach", r_launch},
  {"setBreakpoints", r_set_breakpoints},
  {"setExceptionBreakpoints", r_set_exception_breakpoints},
  {"configurationDone", r_configuration_done},
  {"threads", r_threads},
  {"stackTrace", r_stack_trace},
  {"scopes", r_scopes},
  {"variables", r_variables},
  {"evaluate", r_evaluate},
  {"continue", r_continue},
  {"next", r_next},
  {"stepIn", r_step_in},
  {"stepOut", r_step_out},
  {"pause", r_pause},
  {"disconnect", r_disconnect},
  {"terminate", r_disconnect},
};

static void close_client(void)
{
  if (session.fd >= 0) {
    close(session.fd);
  }
  session.fd = -1;
  fbDebugger_Detach();
}

static void handle(const fbJson *msg)
{
  const char *type = fbJson_GetString(msg, "type", ""), *command = fbJson_GetString(msg, "command", "");
  if (strcmp(type, "request") != 0) {
    return;  // a response to a reverse request or an event: nothing we asked for
  }
  Reply r = {.ok = true};
  bool known = false;
  for (size_t k = 0; k < sizeof requests / sizeof requests[0] && !known; ++k) {
    if (strcmp(requests[k].command, command) == 0) {
      requests[k].handle(fbJson_Get(msg, "arguments"), &r);
      known = true;
    }
  }
  if (!known) {
    snprintf(r.message, sizeof r.message, "flockbox does not support the request '%.200s'", command);
    r.ok = false;
  }
  fbBytes b = {0};
  fbJson_Printf(&b, "{\"seq\":%d,\"type\":\"response\",\"request_seq\":%.0f,\"success\":%s,\"command\":", ++session.seq,
                fbJson_GetNumber(msg, "seq", 0), r.ok ? "true" : "false");
  fbJson_PutString(&b, command);
  if (!r.ok) {
    fbJson_Printf(&b, ",\"message\":");
    fbJson_PutString(&b, r.message);
  } else if (r.body.len > 0) {
    fbJson_Printf(&b, ",\"body\":");
    fbBytes_Put(&b, r.body.data, r.body.len);
  }
  fbJson_Printf(&b, "}");
  fbBytes_Free(&r.body);
  send_message(&b);
  if (strcmp(command, "initialize") == 0) {
    send_event("initialized", "");  // the client may now send its breakpoints
  }
  if (strcmp(command, "disconnect") == 0 || strcmp(command, "terminate") == 0) {
    if (strcmp(command, "terminate") == 0) {
      send_event("terminated", "");
    }
    close_client();
  }
}

// ---- reading messages ----------------------------------------------------------------------------------

static void consume(size_t n)
{
  memmove(session.in.data, session.in.data + n, session.in.len - n);
  session.in.len -= n;
}

static const char *find_header_end(void)
{
  for (size_t k = 0; k + 4 <= session.in.len; ++k) {
    if (memcmp(session.in.data + k, "\r\n\r\n", 4) == 0) {
      return (const char *)session.in.data + k;
    }
  }
  return NULL;
}

// The body's length from a header block, or -1.
static long content_length(const char *header, size_t len)
{
  static const char name[] = "Content-Length:";
  for (size_t k = 0; k + sizeof name - 1 <= len; ++k) {
    if ((k == 0 || header[k - 1] == '\n') && strncasecmp(header + k, name, sizeof name - 1) == 0) {
      char digits[24] = "";
      size_t at = k + sizeof name - 1, n = 0;
      while (at < len && header[at] == ' ') {
        ++at;
      }
      while (at < len && header[at] >= '0' && header[at] <= '9' && n + 1 < sizeof digits) {
        digits[n++] = header[at++];
      }
      bool ends = at >= len || header[at] == '\r';
      long v = n > 0 && ends ? strtol(digits, NULL, 10) : -1;
      return v <= MAX_BODY ? v : -1;
    }
  }
  return -1;
}

// Handles every whole message in the buffer; stops early once the client asked to resume.
static void handle_buffered(void)
{
  while (session.fd >= 0 && session.resume < 0) {
    const char *end = find_header_end();
    if (end == NULL) {
      if (session.in.len > MAX_BODY) {
        send_output("stderr", "flockbox: dropped bytes that held no message header\n");
        session.in.len = 0;
      }
      return;
    }
    size_t header_len = (size_t)(end - (const char *)session.in.data);
    long body = content_length((const char *)session.in.data, header_len);
    if (body < 0) {
      send_output("stderr", "flockbox: dropped a message whose header has no valid Content-Length\n");
      consume(header_len + 4);
      continue;
    }
    if (session.in.len < header_len + 4 + (size_t)body) {
      return;  // the rest is still on its way
    }
    char err[200];
    fbJson *msg = fbJson_Parse((const char *)session.in.data + header_len + 4, (size_t)body, err, sizeof err);
    consume(header_len + 4 + (size_t)body);
    if (msg == NULL || msg->type != FB_JSON_OBJECT) {
      char text[300];
      snprintf(text, sizeof text, "flockbox: dropped a message: %s\n", msg == NULL ? err : "not a JSON object");
      send_output("stderr", text);
    } else {
      handle(msg);
    }
    fbJson_Free(msg);
  }
}

// Waits up to timeout_ms for bytes (0: only what has come), reads them and handles the messages.
static void receive(int timeout_ms)
{
  handle_buffered();
  if (session.fd < 0 || session.resume >= 0) {
    return;
  }
  struct pollfd p = {session.fd, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) {
    return;
  }
  char chunk[65536];
  ssize_t n = recv(session.fd, chunk, sizeof chunk, 0);
  if (n <= 0) {
    if (n < 0 && errno == EINTR) {
      return;
    }
    close_client();  // the client went away: the run goes on without it
    return;
  }
  fbBytes_Put(&session.in, chunk, (size_t)n);
  handle_buffered();
}

// ---- the debugger's stops, and the run's ----------------------------------------------------------------

static fbDebugResume on_stop(fbDebugStop *stop, void *ud)
{
  (void)ud;
  fbBytes b = {0};
  fbJson_Printf(&b, "{\"reason\":\"%s\",\"threadId\":1,\"allThreadsStopped\":true", stop->reason);
  if (stop->text[0] != '\0') {
    fbJson_Printf(&b, ",\"text\":");
    fbJson_PutString(&b, stop->text);
  }
  if (strcmp(stop->reason, "breakpoint") == 0) {
    fbJson_Printf(&b, ",\"hitBreakpointIds\":[%d]", stop->breakpoint_id);
  }
  fbJson_Printf(&b, "}");
  fbBytes_Put(&b, "", 1);
  send_event("stopped", (const char *)b.data);
  fbBytes_Free(&b);
  session.stop = stop;
  session.resume = -1;
  while (session.fd >= 0 && session.resume < 0 && !fbLuaHost_StopRequested()) {
    receive(200);
  }
  session.stop = NULL;
  fbDebugResume how = session.resume >= 0 ? (fbDebugResume)session.resume : FB_DEBUG_CONTINUE;
  session.resume = -1;
  return how;
}

static void on_output(const char *text, void *ud)
{
  (void)ud;
  send_output("console", text);
}

static bool listen_on(int port, char *err, size_t errlen)
{
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only: the protocol has no authentication
  session.listener = socket(AF_INET, SOCK_STREAM, 0);
  int yes = 1;
  setsockopt(session.listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (session.listener < 0 || bind(session.listener, (struct sockaddr *)&addr, sizeof addr) != 0 ||
      listen(session.listener, 1) != 0) {
    snprintf(err, errlen, "--dap %d: cannot listen on 127.0.0.1:%d: %s", port, port, strerror(errno));
    return false;
  }
  socklen_t len = sizeof addr;
  getsockname(session.listener, (struct sockaddr *)&addr, &len);
  fprintf(stderr, "flockbox: waiting for a DAP client on 127.0.0.1:%d (at most %d s)\n", ntohs(addr.sin_port),
          FB_DAP_WAIT_SECONDS);
  return true;
}

bool fbDap_Start(int port, int wait_seconds, char *err, size_t errlen)
{
  if (!listen_on(port, err, errlen)) {
    return false;
  }
  struct pollfd p = {session.listener, POLLIN, 0};
  int waited_ms = 0;
  while (waited_ms < wait_seconds * 1000 && !fbLuaHost_StopRequested() && poll(&p, 1, 200) == 0) {
    waited_ms += 200;
  }
  if (!(p.revents & POLLIN) || (session.fd = accept(session.listener, NULL, NULL)) < 0) {
    snprintf(err, errlen, "--dap: no client connected within %d s", wait_seconds);
    return false;
  }
  close(session.listener);
  session.listener = -1;
  session.resume = -1;
  fbDebugger_Attach(on_stop, on_output, NULL);
  while (session.fd >= 0 && !session.configured && !fbLuaHost_StopRequested()) {
    receive(200);
  }
  if (!session.configured) {
    snprintf(err, errlen, "--dap: the client left before configurationDone");
    return false;
  }
  return true;
}

void fbDap_Poll(uint64_t step)
{
  fbDebugger_SetStep(step);
  if (session.fd >= 0) {
    receive(0);
    session.resume = -1;  // a continue outside a stop does nothing
  }
}

void fbDap_End(int exit_code)
{
  if (session.fd >= 0) {
    char body[64];
    send_event("terminated", "");
    snprintf(body, sizeof body, "{\"exitCode\":%d}", exit_code);
    send_event("exited", body);
    close_client();
  }
  fbBytes_Free(&session.in);
}
