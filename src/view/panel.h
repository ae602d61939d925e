// panel.h — the parameter panel: every species' fields, rule weights and parameters as sliders, check boxes and text fields that can be typed into and reset, kept as --set values across restarts.
#ifndef FB_PANEL_H
#define FB_PANEL_H

#include "widgets.h"

#define FB_PANEL_MAX_ROWS 512
#define FB_PANEL_MAX_SETS FB_MAX_SETS
#define FB_PANEL_KEY 160          // "species.rule.parameter", and room for "=value"

typedef enum fbPanelRowKind {
  FB_PANEL_SPECIES,               // a species field that changes live (max_speed, vision.fov, accumulator)
  FB_PANEL_RESTART,               // a species field that takes effect on restart (count)
  FB_PANEL_WEIGHT,                // a rule's weight
  FB_PANEL_PARAM,                 // one of a rule's numeric parameters: a slider
  FB_PANEL_SWITCH,                // a boolean parameter: a check box
  FB_PANEL_TEXT,                  // a string parameter: a text field
} fbPanelRowKind;

// One line of the panel. Built when the panel first shows a sim (ranges fixed then, so that a
// slider does not move under the mouse while it is dragged), laid out again every frame.
typedef struct fbPanelRow {
  fbPanelRowKind kind;
  int species, rule;              // rule -1 for a species field
  int param;                      // a species field: its entry in the live table; a parameter: its place
                                  // in the rule's sorted list when built (rows find it by name); -1: weight
  char field[FB_NAME_LEN];        // the species field ("vision.fov") or the parameter's name
  char label[FB_NAME_LEN];
  char key[FB_PANEL_KEY];         // the --set name: "boid.vision.fov", "boid.cohesion.divisor"
  double lo, hi, step;            // the slider; step 1 for integers, 0 continuous
  bool integer;                   // written and applied as a whole number
  bool choice;                    // a choice field (the combiner): a button stepping through its names
  double base;                    // the scenario's value (as written, -1 where derived): what reset restores
  char base_text[FB_PARAM_TEXT];  // that of a switch ("true", "false") or a text
  char error[512];                // why the last value tried was refused ("" if it was not): shown in red
                                  // under the row, "refused 0: ...", until a good value is set
  double tried;                   // that refused value
  double shown;                   // what the row shows: always the value that runs (a switch's 0 or 1)
  char text[FB_PARAM_TEXT];       // what a text row shows: the string that runs
  SDL_Rect rect, field_rect, reset_rect;  // as laid out last frame (w = 0: not shown)
} fbPanelRow;

// A change the user made, as --set writes it. Kept (with the value it replaced) when reset, so that
// a sim built before the reset can be put back.
typedef struct fbPanelSet {
  char key[FB_PANEL_KEY];
  char text[FB_PANEL_KEY + 64];   // "key=value"
  fbPanelRowKind kind;
  bool integer;
  double base;
  char base_text[FB_PARAM_TEXT];  // a switch's or a text's
  bool used;                      // false once reset: no longer handed out
} fbPanelSet;

typedef struct fbParamPanel {
  int scroll;                     // pixels the content is moved up
  int content_h;
  bool ranged;                    // rows built for the current sim
  bool folded[FB_MAX_SPECIES];    // species whose rows are hidden under their header
  fbPanelRow rows[FB_PANEL_MAX_ROWS];
  int row_count;
  fbPanelSet sets[FB_PANEL_MAX_SETS];
  int set_count;
  SDL_Rect scrollbar;             // its track last frame (w = 0: everything fits)
  long revision;                  // bumped by every change and reset the user makes
  long saved_revision;            // the revision last saved as an overlay (overlay.h)
} fbParamPanel;

// A new sim (start, restart, scenario reload): the kept changes are applied to it at once (a value
// it refuses is reported on stderr), and ranges and values are read again when the panel next
// shows it.
void fbPanel_Reset(fbParamPanel *p, fbSim *sim);

// Drops every kept change: another scenario was opened.
void fbPanel_Forget(fbParamPanel *p);

// Lays out and draws the panel exactly inside `area` and applies what the user changed: species
// fields and weights through fbLive_Set, rule parameters (numbers, booleans, strings) through
// fbLive_SetParam; refused values are not applied, and their message stays under the row.
void fbPanel_Draw(fbParamPanel *p, fbUi *ui, fbSim *sim, SDL_Rect area);

// Every change the user made, in the order first made, as --set NAME=VALUE strings; returns how
// many (at most max). The strings belong to the panel and change with it: copy them to keep them.
int fbPanel_Sets(const fbParamPanel *p, const char **sets, int max);

// Whether the panel holds changes made since they were last saved (fbPanel_MarkSaved): Esc asks
// before quitting then.
bool fbPanel_Unsaved(const fbParamPanel *p);
void fbPanel_MarkSaved(fbParamPanel *p);

// The row with this --set name ("boid.cohesion.divisor"), NULL if none (tests find sliders here).
const fbPanelRow *fbPanel_Find(const fbParamPanel *p, const char *key);

// Writes every species' fields (speeds, acceleration, vision, combiner) and rules with their current
// weights and parameters as Lua, ready to paste into the scenario.
void fbPanel_PrintLua(const fbSim *sim, FILE *out);

#endif
