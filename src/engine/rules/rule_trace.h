// rule_trace.h — the trace of one agent's rules at one step (--trace): each rule's lines with the values they assigned, what it returned, and how the combiner weighed it.
#ifndef FB_RULE_TRACE_H
#define FB_RULE_TRACE_H

#include "rules.h"

// The traced agent is the runner's inspected one (r->inspect) while r->trace is set; rules.c calls
// these around that agent's rules. The lines go to r->trace, one call per line of text.
void fbRuleTrace_Agent(fbRuleRunner *r, int i);
void fbRuleTrace_RuleBegin(fbRuleRunner *r, int s, int k);
void fbRuleTrace_Skipped(fbRuleRunner *r, int s, int k, const char *why);
void fbRuleTrace_RuleEnd(fbRuleRunner *r, int s, int k, fbVec2 out);
// After the agent's last rule: the combiner's replay of what each rule put in, and the result.
void fbRuleTrace_Combined(fbRuleRunner *r, int s, fbVec2 steer, fbVec2 force, fbVec2 drag, bool held);
// A rule that raised: the error ends its trace (the loop runs the agent again without it).
void fbRuleTrace_Failed(fbRuleRunner *r, const char *message);

#endif
