// panel.h — the parameter panel: every species' rules with their weight and numeric parameters as sliders.
#ifndef FB_PANEL_H
#define FB_PANEL_H

#include "widgets.h"

#define FB_PANEL_MAX_PARAMS 16
#define FB_PANEL_MAX_SLOTS 512

// One slider as laid out in the last frame (tests and the window find sliders here).
typedef struct fbPanelSlot {
  SDL_Rect rect;
  int species, rule;
  int param;                 // index in the rule's sorted parameter list, -1 for the weight
} fbPanelSlot;

typedef struct fbParamPanel {
  bool open;
  int scroll;                // pixels the content is moved up
  int content_h;
  // Slider ranges, fixed when the panel first shows a sim (from the values then: 0..2x), so that a
  // slider does not move under the mouse while it is dragged.
  bool ranged;
  double weight_lo[FB_MAX_SPECIES][FB_MAX_RULES], weight_hi[FB_MAX_SPECIES][FB_MAX_RULES];
  double lo[FB_MAX_SPECIES][FB_MAX_RULES][FB_PANEL_MAX_PARAMS];
  double hi[FB_MAX_SPECIES][FB_MAX_RULES][FB_PANEL_MAX_PARAMS];
  fbPanelSlot slots[FB_PANEL_MAX_SLOTS];
  int slot_count;
} fbParamPanel;

// A new sim: ranges are taken again from its values.
void fbPanel_Reset(fbParamPanel *p);

// Lays out and draws the panel along the right edge and applies what the sliders changed: weights
// to world.species[s].rules[k].weight, parameters with fbRules_SetParam on every runner.
void fbPanel_Draw(fbParamPanel *p, fbUi *ui, fbSim *sim, SDL_Rect area);

// Writes every species' rules with their current weights and parameters as Lua, ready to paste
// into the scenario.
void fbPanel_PrintLua(const fbSim *sim, FILE *out);

#endif
