// rule_trace.h — the trace of one agent's rules at one step (--trace): each rule's lines with the values they assigned, what it returned, and how the combiner weighed it.
#ifndef FB_RULE_TRACE_H
#define FB_RULE_TRACE_H

#include "world.h"

// Where a trace goes: one line of text per call (out NULL: no trace).
typedef struct fbRuleTrace {
  void (*out)(const char *text, void *ud);
  void *ud;
} fbRuleTrace;

// rules.c calls these around the traced agent's rules (the runner's inspected agent); the lines of
// a Lua rule come from the debugger's line hook (fbDebugger_TraceBegin) between RuleBegin and RuleEnd.
void fbRuleTrace_Agent(const fbRuleTrace *t, const fbWorld *w, int i);
void fbRuleTrace_RuleBegin(const fbRuleTrace *t, const fbSpecies *sp, int k, const char *where);
void fbRuleTrace_Skipped(const fbRuleTrace *t, int k, const char *why);
void fbRuleTrace_RuleEnd(const fbRuleTrace *t, fbVec2 out);
// After the agent's last rule: the combiner's replay of what each rule put in (outputs[k], ran[k]:
// the inspector's record), and the result.
void fbRuleTrace_Combined(const fbRuleTrace *t, const fbSpecies *sp, const fbVec2 *outputs, const bool *ran,
                          fbVec2 steer, fbVec2 force, fbVec2 drag, bool held);
// A rule that raised: the error ends its trace (the loop runs the agent again without it).
void fbRuleTrace_Failed(const fbRuleTrace *t, const char *message);

#endif
