// plot.h — live plots: the telemetry's time series per species and the scenario's metrics, drawn in a dock.
#ifndef FB_PLOT_H
#define FB_PLOT_H

#include "hud.h"
#include "widgets.h"
#include "telemetry.h"

#define FB_PLOT_CAPACITY 1024                        // samples kept; the oldest half is thinned when full
#define FB_PLOT_MAX_CHARTS (FB_MEASURES + FB_MAX_METRICS)  // a chart per measure (fbMeasureTable), per metric
#define FB_PLOT_MAX_SERIES (FB_MEASURES * FB_MAX_SPECIES + FB_MAX_METRICS)

// One chart: a measure with a line per species, or one scenario metric.
typedef struct fbPlotChart {
  char title[FB_NAME_LEN + 32];
  int first, count;          // its series
  bool fixed;                // the y axis spans 0..1 (a measure's unit_range: polarisation)
} fbPlotChart;

/*
 * Samples are taken every `interval` simulated seconds. When the buffer is full every other sample
 * is dropped and the interval doubles, so the whole run since the last restart stays on screen at
 * a resolution that halves as it grows, in bounded memory. No sample is taken while paused, so the
 * plots freeze with the world.
 */
typedef struct fbPlots {
  int series_count, chart_count;
  char series[FB_PLOT_MAX_SERIES][FB_NAME_LEN * 2 + 24];  // CSV column name: "herd.mean_speed"
  SDL_Color colour[FB_PLOT_MAX_SERIES];
  fbPlotChart charts[FB_PLOT_MAX_CHARTS];
  int count;                 // samples held
  double interval;           // simulated seconds between samples
  double last_time;          // time of the newest sample
  float time[FB_PLOT_CAPACITY];
  float value[FB_PLOT_CAPACITY][FB_PLOT_MAX_SERIES];  // NaN: nothing to measure then
  int scroll_row;            // the first row of charts shown, when they do not all fit
} fbPlots;

// Forgets every sample (a restart) and sets the series up for this sim.
void fbPlots_Clear(fbPlots *p, const fbSim *sim);

// After a rewind to time t (seconds): forgets the samples taken after it, so the charts show the
// run as it now is; sampling goes on from there.
void fbPlots_CutBack(fbPlots *p, double t);

// After a scenario reload: keeps the samples if the series are the same ones, else starts over.
void fbPlots_Adopt(fbPlots *p, const fbSim *sim);

// Takes a sample of the sim now if one is due (or if there is none yet). metrics are the
// scenario's metric values at the last telemetry row (fbSim_MetricCount(sim) of them), or NULL.
void fbPlots_Sample(fbPlots *p, fbSim *sim, const double *metrics);

// Draws the charts inside area: a grid of small charts, each with its range, time axis and legend,
// no smaller than a chart can be read at (CHART_MIN_W x CHART_MIN_H): when they do not all fit,
// rows of them scroll with the wheel over the area, and a line says which rows are shown. The y
// range of each chart spans the data it shows (adapting as it grows).
void fbPlots_Draw(fbPlots *p, fbUi *ui, SDL_Rect area);

// Where fbPlots_Draw puts the charts shown in area: chart k's index and its cell, at most max;
// returns how many, with the rows of charts there are and how many are shown at a time.
int fbPlots_Cells(const fbPlots *p, int line_h, SDL_Rect area, int *chart, SDL_Rect *cell, int max, int *rows,
                  int *shown);

#endif
