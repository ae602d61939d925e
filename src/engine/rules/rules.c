// rules.c — one Lua state's rules: opening it, and the protected loop that runs them over a range of agents.
#include "rules.h"

#include "debugger.h"

#include <math.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "fb_api.h"
#include "memory.h"

// math.random keeps one sequence per state, so its numbers would depend on which thread ran which
// agent: rules get a:random(stream), the same on any thread count.
const char *const fbRules_RefusedMath[] = {"random", "randomseed", NULL};

static int l_no_random(lua_State *L)
{
  return luaL_error(L, "%s is not available to rules: use a:random(stream), which gives the same numbers on any "
                       "thread count",
                    lua_tostring(L, lua_upvalueindex(1)));
}

bool fbRules_Open(fbRuleRunner *r, size_t memory_limit, int timeout_ms, const fbWorld *w, const char *search)
{
  memset(r, 0, sizeof *r);
  r->inspect = -1;
  r->alloc_calls = 0;
  r->alloc_bytes = -1.0;
  r->ctx.seen_agent = -1;
  if (!fbLuaHost_Create(&r->host, memory_limit, timeout_ms)) {
    return false;
  }
  r->host.context = &r->ctx;
  snprintf(r->host.require_path, sizeof r->host.require_path, "%s", search);
  lua_State *L = r->host.L;
  lua_getglobal(L, "math");
  for (int k = 0; fbRules_RefusedMath[k] != NULL; ++k) {
    lua_pushfstring(L, "math.%s", fbRules_RefusedMath[k]);
    lua_pushcclosure(L, l_no_random, 1);
    lua_setfield(L, -2, fbRules_RefusedMath[k]);
  }
  lua_pop(L, 1);
  fbFbApi_OpenRules(L, w);
  fbAgentViews_Init(&r->views, L);
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      r->state[s][k] = (fbRuleState){FB_NO_RULE_VERSION, FB_NO_RULE_VERSION, LUA_NOREF};
    }
  }
  return true;
}

void fbRules_Close(fbRuleRunner *r)
{
  fbRules_CaptureFrames(r, false);
  fbLuaHost_Destroy(&r->host);
  fbNeighbourList_Free(&r->ctx.seen);
}

// ---- running ------------------------------------------------------------------------------------

/*
 * A range runs with everything its rules are called with on the Lua stack, so that a call costs
 * no registry lookup: per species, from slot[s], its fill function (agent_view.h) and then for
 * each rule its steer function, view, params and species table.
 */
#define SLOTS_PER_RULE 4

typedef struct RangeJob {
  fbRuleRunner *r;
  int next, end;
  int command_mark;  // queue length when the current agent started: a retried agent drops its commands
  int slot[FB_MAX_SPECIES];
  bool takes_species[FB_MAX_SPECIES][FB_MAX_RULES];  // steer(a, p, s) rather than steer(a, p)
  fbViewPlan plan[FB_MAX_SPECIES];
} RangeJob;

// Room above the slots for the largest fill call (the filler and one value per key): Lua only
// promises LUA_MINSTACK free slots, and a view can have more keys than that.
static void reserve_fill(lua_State *L, const RangeJob *job)
{
  int most = 0;
  for (int s = 0; s < job->r->ctx.world->species_count; ++s) {
    most = job->plan[s].count > most ? job->plan[s].count : most;
  }
  luaL_checkstack(L, most + 2, "agent view");
}

// Whether the steering function on top of the stack declares a third argument (or takes any
// number): `function(a, p)` is called without the species table, one copy less per agent. A
// native rule's slot holds nil, never called from here.
static bool takes_species(lua_State *L)
{
  if (!lua_isfunction(L, -1)) {
    return true;
  }
  lua_Debug ar;
  lua_pushvalue(L, -1);
  return !lua_getinfo(L, ">u", &ar) || ar.isvararg || ar.nparams >= 3;
}

static void push_slots(lua_State *L, RangeJob *job)
{
  fbRuleRunner *r = job->r;
  const fbWorld *w = r->ctx.world;
  for (int s = 0; s < w->species_count; ++s) {
    int rules = w->species[s].rule_count;
    luaL_checkstack(L, 1 + SLOTS_PER_RULE * rules + 8, "rule slots");
    job->slot[s] = lua_gettop(L) + 1;
    if (w->species[s].all_native) {
      lua_pushnil(L);
      job->plan[s].count = 0;
    } else {
      fbAgentViews_Prepare(&r->views, L, &r->ctx, s, rules, &job->plan[s]);
    }
    for (int k = 0; k < rules; ++k) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[s][k].now.steer);
      job->takes_species[s][k] = takes_species(L);
      fbAgentViews_Push(&r->views, L, s, k);
      lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[s][k].now.params);
      lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[s][k].species);
    }
  }
  reserve_fill(L, job);
}

// A rule's steering function when it ran last (set by a return hook while a bad result is looked into).
static void return_hook(lua_State *L, lua_Debug *ar)
{
  fbRuleContext *c = fbRuleApi_Context(L);
  if (ar->event == LUA_HOOKRET && lua_getinfo(L, "Sl", ar) && ar->linedefined == c->return_defined &&
      strcmp(ar->source, c->return_source) == 0) {
    c->return_line = ar->currentline;
  }
}

/*
 * A rule returned something other than two finite numbers. To name the line of its `return` (not
 * of its `function`), it is called once more for this agent with a return hook and all its results
 * kept; whatever it did meanwhile is undone with the agent's other effects when the error unwinds.
 * Raises the error.
 */
static void bad_result(lua_State *L, fbRuleRunner *r, int slot, int s, int k)
{
  fbRuleContext *c = &r->ctx;
  lua_Debug ar;
  lua_pushvalue(L, slot);
  lua_getinfo(L, ">S", &ar);
  c->return_defined = ar.linedefined;
  snprintf(c->return_source, sizeof c->return_source, "%s", ar.source);
  c->return_line = -1;
  int top = lua_gettop(L);
  for (int q = 0; q < SLOTS_PER_RULE; ++q) {
    lua_pushvalue(L, slot + q);
  }
  lua_sethook(L, return_hook, LUA_MASKRET, 0);
  lua_call(L, 3, LUA_MULTRET);
  lua_sethook(L, NULL, 0, 0);
  int results = lua_gettop(L) - top;
  char got[256] = "";
  size_t used = 0;
  for (int q = 0; q < results && q < 4 && used < sizeof got; ++q) {
    used += (size_t)snprintf(got + used, sizeof got - used, "%s%s", q ? ", " : "", luaL_tolstring(L, top + 1 + q, NULL));
    lua_pop(L, 1);
  }
  char where[200];
  const char *colon = strrchr(r->state[s][k].now.where, ':');
  snprintf(where, sizeof where, "%.*s:%d", colon ? (int)(colon - r->state[s][k].now.where) : 0, r->state[s][k].now.where,
           c->return_line >= 0 ? c->return_line : ar.linedefined);
  lua_pushfstring(L, "%s: steer returned %d value%s (%s); expected two finite numbers within -1e9 .. 1e9, the acceleration", where, results,
                  results == 1 ? "" : "s", results ? got : "nothing");
  lua_error(L);
}

// Calls rule k of species s (its things from `slot` on) for the current agent, with the species
// table when it takes one; raises a Lua error (caught by fbRules_RunSkipping) unless the rule
// returns two finite numbers.
static fbVec2 call_rule(lua_State *L, fbRuleRunner *r, int slot, bool with_species, int s, int k)
{
  fbLuaHost_Progress(&r->host);
  r->ctx.rule = k;
  lua_pushvalue(L, slot);
  lua_pushvalue(L, slot + 1);
  lua_pushvalue(L, slot + 2);
  if (with_species) {
    lua_pushvalue(L, slot + 3);
  }
  lua_call(L, 2 + with_species, 2);
  fbVec2 out = {NAN, NAN};
  if (lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TNUMBER) {
    out = fbV(lua_tonumber(L, -2), lua_tonumber(L, -1));
  }
  lua_pop(L, 2);
  if (!(fabs(out.x) <= FB_MAX_MAGNITUDE && fabs(out.y) <= FB_MAX_MAGNITUDE)) {  // NaN fails too
    bad_result(L, r, slot, s, k);
  }
  return out;
}

// Undoes what agent i did this step so far: its queued commands and its step-t+1 fields.
static void undo_agent(fbRuleRunner *r, int command_mark, int i)
{
  fbWorld *w = r->ctx.world;
  r->ctx.commands->count = command_mark;
  for (int f = 0; f < w->field_count; ++f) {
    w->agents.field_next[f][i] = w->agents.field[f][i];
  }
}

// One rule's output into the accumulator (or the forces or the drag), and the inspector when it is watched.
static void take_output(fbRuleRunner *r, const fbRuleSlot *slot, int k, int i, fbVec2 out, fbAccumulator *acc,
                        fbVec2 *force, fbVec2 *drag)
{
  if (i == r->inspect) {
    r->inspect_out[k] = out;
    r->inspect_ran[k] = true;
  }
  if (slot->drag) {
    *drag = fbV_Add(*drag, fbV_Scale(out, slot->weight));
  } else if (slot->force) {
    *force = fbV_Add(*force, fbV_Scale(out, slot->weight));
  } else if (slot->preempt) {
    fbAccum_AddPreemptive(acc, out, slot->weight);
  } else {
    fbAccum_Add(acc, out, slot->weight);
  }
}

static void run_agent(lua_State *L, RangeJob *job, int i)
{
  fbRuleRunner *r = job->r;
  fbWorld *w = r->ctx.world;
  fbAgents *a = &w->agents;
  int s = a->species[i];
  const fbSpecies *sp = &w->species[s];
  r->ctx.agent = i;
  r->ctx.species = s;
  double started = r->profile != NULL ? fbProfile_Now() : 0.0;
  bool steer_turn = sp->update_every <= 1 || (w->step + a->id[i]) % (uint64_t)sp->update_every == 0;
  if (!sp->all_native) {
    if (fbAgentViews_Grew(&r->views, s, sp->rule_count)) {  // a rule read a new field last agent
      fbAgentViews_Prepare(&r->views, L, &r->ctx, s, sp->rule_count, &job->plan[s]);
      lua_replace(L, job->slot[s]);
      reserve_fill(L, job);
    }
    fbAgentViews_Fill(L, job->slot[s], &job->plan[s], &r->ctx, i);
  }
  fbProfileCounters *profile = r->profile;
  double clock = 0.0;
  if (profile != NULL) {
    clock = fbProfile_Now();
    profile->view_ns[s] += clock - started - r->clock_ns;
    profile->agent_steps[s] += 1.0;
    profile->reads += 2;
  }
  fbAccumulator acc;
  fbAccum_Begin(&acc, sp->accumulator, sp->limits.max_accel);
  fbVec2 force = {0, 0}, drag = {0, 0};
  r->ctx.held = false;
  r->ctx.removals = 0;
  bool tracing = i == r->inspect && r->trace.out != NULL;  // --trace: this agent's rules line by line
  if (tracing) {
    fbRuleTrace_Agent(&r->trace, w, i);
  }
  for (int k = 0; k < sp->rule_count && !r->ctx.held; ++k) {
    const fbRuleSlot *slot = &sp->rules[k];
    bool physical = slot->force || slot->drag;  // forces and drags act every step, whatever the steering does
    if (slot->disabled || r->skip[s][k] || (!physical && (acc.done || !steer_turn))) {
      if (tracing) {
        fbRuleTrace_Skipped(&r->trace, k, slot->disabled || r->skip[s][k] ? "switched off after an error"
                                     : acc.done                     ? "the combiner is done (later rules cannot count)"
                                                                    : "not this agent's steering turn (update_every)");
      }
      continue;
    }
    if (tracing) {
      fbRuleTrace_RuleBegin(&r->trace, sp, k, r->state[s][k].now.where);
      if (!slot->native) {
        fbDebugger_TraceBegin(L, r->trace.out, r->trace.ud);
      }
    }
    fbVec2 out = slot->native ? slot->native(&r->ctx, i) : call_rule(L, r, job->slot[s] + 1 + SLOTS_PER_RULE * k, job->takes_species[s][k], s, k);
    if (tracing) {
      fbDebugger_TraceEnd(L);
      fbRuleTrace_RuleEnd(&r->trace, out);
    }
    if (profile != NULL) {  // a rule that raised an error is not timed: its time is lost with the agent's step
      double now = fbProfile_Now();
      profile->rule_ns[s][k] += now - clock - r->clock_ns;
      profile->reads += 1;
      clock = now;
    }
    take_output(r, slot, k, i, out, &acc, &force, &drag);
  }
  // A held agent (a:hold()) sits still: nothing steers or pushes it. Between its steering turns
  // (update_every) it stays as its last turn left it.
  if (steer_turn) {
    a->held[i] = r->ctx.held;
  }
  bool held = a->held[i];
  if (steer_turn) {
    fbVec2 steer = held ? fbV(0, 0) : fbAccum_Result(&acc);
    a->ax[i] = steer.x;
    a->ay[i] = steer.y;
  }
  a->fx[i] = held ? 0.0 : force.x;
  a->fy[i] = held ? 0.0 : force.y;
  // Gompert's form: his Update adds each frame's drag to an acceleration that only a behaviour
  // update resets, so between steering turns the drags add up (integrate.c, add_drag).
  if (sp->limits.drag_form == FB_DRAG_GOMPERT && !steer_turn) {
    drag = fbV_Add(fbV(a->carried_dx[i], a->carried_dy[i]), drag);
  }
  a->dx[i] = held ? 0.0 : drag.x;
  a->dy[i] = held ? 0.0 : drag.y;
  if (tracing) {
    fbRuleTrace_Combined(&r->trace, sp, r->inspect_out, r->inspect_ran, fbV(a->ax[i], a->ay[i]), fbV(a->fx[i], a->fy[i]), fbV(a->dx[i], a->dy[i]), held);
  }
}

/*
 * "steer allocates nothing", measured: agent i's rules run alloc_calls times more after its own run
 * (which warmed the view and the stack), the collector stopped, and the bytes the state grew by
 * kept in alloc_bytes. Each repeat reads the same inputs and writes the same step-t+1 values; the
 * commands a repeat queues are dropped, so a catch is asked for once.
 */
static void measure_allocation(lua_State *L, RangeJob *job, int i)
{
  fbRuleRunner *r = job->r;
  int mark = r->ctx.commands->count;
  lua_gc(L, LUA_GCCOLLECT);
  lua_gc(L, LUA_GCSTOP);
  double before = lua_gc(L, LUA_GCCOUNT) * 1024.0 + lua_gc(L, LUA_GCCOUNTB);
  for (int n = 0; n < r->alloc_calls; ++n) {
    run_agent(L, job, i);
    r->ctx.commands->count = mark;
  }
  r->alloc_bytes = lua_gc(L, LUA_GCCOUNT) * 1024.0 + lua_gc(L, LUA_GCCOUNTB) - before;
  lua_gc(L, LUA_GCRESTART);
}

static int run_range(lua_State *L)
{
  RangeJob *job = lua_touserdata(L, 1);
  fbRuleRunner *r = job->r;
  push_slots(L, job);
  const fbAgents *a = &r->ctx.world->agents;
  for (; job->next < job->end; ++job->next) {
    int i = job->next;
    if (!a->active[i]) {
      continue;
    }
    job->command_mark = r->ctx.commands->count;
    if (i == r->inspect) {
      memset(r->inspect_ran, 0, sizeof r->inspect_ran);
    }
    run_agent(L, job, i);
    if (i == r->inspect && r->alloc_calls > 0) {
      measure_allocation(L, job, i);
    }
  }
  return 0;
}

static void record_failure(fbRuleRunner *r, int agent, const char *message)
{
  int s = r->ctx.species, k = r->ctx.rule;
  r->skip[s][k] = true;
  if (r->failure_count < FB_MAX_FAILURES) {
    fbRuleFailure *f = &r->failures[r->failure_count++];
    f->species = s;
    f->rule = k;
    f->agent = agent;
    snprintf(f->message, sizeof f->message, "%s", message);
  }
}

/*
 * All agents of the range run inside one protected call, so a rule call costs a plain lua_call.
 * When a rule fails, the error unwinds to here: the failing rule is marked skipped, the agent's
 * queued commands and step-t+1 fields are rolled back, and the loop resumes at that same agent.
 */
void fbRules_Run(fbRuleRunner *r, int begin, int end) { fbRules_RunSkipping(r, begin, end, NULL); }

void fbRules_CaptureFrames(fbRuleRunner *r, bool on)
{
  if (on && r->frame == NULL) {
    r->frame = fbMemory_Grow(NULL, sizeof *r->frame, 1);
    memset(r->frame, 0, sizeof *r->frame);
  } else if (on) {
    r->frame->captured = false;  // a runner with no range this step keeps no frame of an earlier one
  } else {
    free(r->frame);
    r->frame = NULL;
  }
}

void fbRules_RunSkipping(fbRuleRunner *r, int begin, int end, const bool (*skip)[FB_MAX_RULES])
{
  lua_State *L = r->host.L;
  static _Thread_local RangeJob job;  // large (the species' plans): one per thread, off the stack
  job = (RangeJob){.r = r, .next = begin, .end = end, .command_mark = r->ctx.commands->count};
  if (skip != NULL) {
    memcpy(r->skip, skip, sizeof r->skip);
  } else {
    memset(r->skip, 0, sizeof r->skip);
  }
  r->ctx.seen_agent = -1;  // perception has run again since anything was seen on demand
  r->failure_count = 0;
  r->host.out_of_memory_at[0] = '\0';
  if (r->frame != NULL) {
    r->frame->captured = false;
  }
  fbLuaHost_Enter(&r->host);
  while (job.next < job.end) {
    if (r->frame != NULL) {
      fbRuleFrame_PushHandler(L, r->frame, &r->ctx);
    } else {
      fbLuaHost_PushTraceback(L);
    }
    lua_pushcfunction(L, run_range);
    lua_pushlightuserdata(L, &job);
    int status = lua_pcall(L, 1, 0, -3);
    fbDebugger_TraceEnd(L);      // a traced rule that raised: the trace's hook comes off first
    fbLuaHost_Disarm(&r->host);  // the watchdog's hook, or the return hook a bad result left
    if (status == LUA_OK) {
      lua_pop(L, 1);
      break;
    }
    const char *msg = lua_tostring(L, -1);
    char where[320], oom[512];
    fbLuaHost_TakeOutOfMemoryAt(&r->host, where, sizeof where);
    if (status == LUA_ERRMEM && where[0] != '\0') {
      snprintf(oom, sizeof oom, "%s not enough memory (the Lua state's budget is %zu MB)", where,
               r->host.memory_limit >> 20);
      msg = oom;
    }
    if (job.next == r->inspect && r->trace.out != NULL) {
      fbRuleTrace_Failed(&r->trace, msg != NULL ? msg : "(error object is not a string)");
    }
    record_failure(r, job.next, msg != NULL ? msg : "(error object is not a string)");
    lua_pop(L, 2);
    undo_agent(r, job.command_mark, job.next);
  }
  fbLuaHost_Leave(&r->host);
}
