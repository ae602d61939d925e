// plot.c — live plots: sampling the telemetry into a thinning buffer, and drawing a grid of small charts.
#include "plot.h"

#include <string.h>


#define SAMPLE_SECONDS 0.1     // simulated seconds between samples at the start
#define PAD 6

static const SDL_Color METRIC_COLOUR = {255, 214, 64, 255};

// The series the sim has: each measure for each species, then each metric; a chart per measure and per metric.
static void configure(fbPlots *p, const fbSim *sim)
{
  const fbWorld *w = fbSim_World(sim);
  p->series_count = p->chart_count = 0;
  for (int m = 0; m < FB_MEASURES; ++m) {
    fbPlotChart *c = &p->charts[p->chart_count++];
    snprintf(c->title, sizeof c->title, "%s", fbMeasureTable[m].title);
    c->fixed = fbMeasureTable[m].unit_range;
    c->first = p->series_count;
    c->count = w->species_count;
    for (int s = 0; s < w->species_count; ++s) {
      snprintf(p->series[p->series_count], sizeof p->series[0], "%s.%s", w->species[s].name, fbMeasureTable[m].column);
      p->colour[p->series_count++] = fbHud_SpeciesColour(&w->species[s]);
    }
  }
  for (int k = 0; k < fbSim_MetricCount(sim); ++k) {
    fbPlotChart *c = &p->charts[p->chart_count++];
    snprintf(c->title, sizeof c->title, "%s", fbSim_MetricName(sim, k));
    c->fixed = false;
    c->first = p->series_count;
    c->count = 1;
    snprintf(p->series[p->series_count], sizeof p->series[0], "%s", fbSim_MetricName(sim, k));
    p->colour[p->series_count++] = METRIC_COLOUR;
  }
}

void fbPlots_Clear(fbPlots *p, const fbSim *sim)
{
  configure(p, sim);
  p->count = 0;
  p->interval = SAMPLE_SECONDS;
  p->last_time = 0;
}

void fbPlots_Adopt(fbPlots *p, const fbSim *sim)
{
  fbPlots fresh;
  configure(&fresh, sim);
  bool same = fresh.series_count == p->series_count;
  for (int k = 0; same && k < p->series_count; ++k) {
    same = strcmp(fresh.series[k], p->series[k]) == 0;
  }
  if (!same) {
    fbPlots_Clear(p, sim);
  } else {
    configure(p, sim);  // colours and titles may have changed
  }
}

// Keeps every other sample, and samples half as often from now on.
static void thin(fbPlots *p)
{
  int kept = 0;
  for (int k = 0; k < p->count; k += 2, ++kept) {
    p->time[kept] = p->time[k];
    memcpy(p->value[kept], p->value[k], sizeof p->value[0]);
  }
  p->count = kept;
  p->interval *= 2;
}

void fbPlots_CutBack(fbPlots *p, double t)
{
  while (p->count > 0 && p->time[p->count - 1] > (float)t) {
    p->count--;
  }
  p->last_time = p->count > 0 ? p->time[p->count - 1] : 0;
}

void fbPlots_Sample(fbPlots *p, fbSim *sim, const double *metrics)
{
  double t = (double)fbSim_World(sim)->step * fbSim_World(sim)->dt;
  if (p->count > 0 && t < p->last_time) {
    fbPlots_Clear(p, sim);  // time went back: a new run under the same plots
  }
  if (p->count > 0 && t - p->last_time < p->interval * (1 - 1e-9)) {
    return;
  }
  if (p->count == FB_PLOT_CAPACITY) {
    thin(p);
  }
  fbMeasures m[FB_MAX_SPECIES];
  fbTelemetry_MeasureSpecies(sim, m);
  float *row = p->value[p->count];
  int n = fbSim_World(sim)->species_count;
  for (int k = 0; k < FB_MEASURES; ++k) {
    for (int s = 0; s < n; ++s) {
      row[k * n + s] = (float)fbMeasures_Value(&m[s], k);
    }
  }
  for (int k = 0; k < p->series_count - FB_MEASURES * n; ++k) {
    row[FB_MEASURES * n + k] = metrics != NULL ? (float)metrics[k] : NAN;
  }
  p->time[p->count++] = (float)t;
  p->last_time = t;
}

// ---- drawing ------------------------------------------------------------------------------------

// The smallest chart that still shows its title, range labels, a line and its legend.
#define CHART_MIN_W 150
#define CHART_MIN_H 72

/*
 * Rows and columns for n charts in area, each at least CHART_MIN_W x CHART_MIN_H. Of the grids
 * that show every chart at once, the one whose cells are largest for a chart's shape (about 2.5
 * times as wide as high: the size min(w / 2.5, h) is largest); when none does, as many columns as
 * fit and *shown rows of them at a time (the rest scroll).
 */
static void grid_of(int n, SDL_Rect area, int *rows, int *cols, int *shown)
{
  int most_cols = area.w / CHART_MIN_W > 1 ? area.w / CHART_MIN_W : 1;
  int most_rows = area.h / CHART_MIN_H > 1 ? area.h / CHART_MIN_H : 1;
  *cols = most_cols < n ? most_cols : n;
  double best = 0.0;
  for (int c = 1; c <= most_cols && c <= n; ++c) {
    int r = (n + c - 1) / c;
    double size = fmin(area.w / (double)c / 2.5, area.h / (double)r);
    if (r <= most_rows && size > best) {
      best = size;
      *cols = c;
    }
  }
  *rows = (n + *cols - 1) / *cols;
  *shown = *rows < most_rows ? *rows : most_rows;
}

// The range of a chart's finite values; a flat series gets a little room above and below.
static bool value_range(const fbPlots *p, const fbPlotChart *c, double *lo, double *hi)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int k = 0; k < p->count; ++k) {
    for (int s = c->first; s < c->first + c->count; ++s) {
      double v = p->value[k][s];
      if (isfinite(v)) {
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
      }
    }
  }
  if (!(*lo <= *hi)) {
    return false;
  }
  double room = *hi - *lo > 0 ? 0.05 * (*hi - *lo) : fmax(0.5, 0.05 * fabs(*hi));
  bool positive = *lo >= 0;  // counts, speeds, distances: the axis does not dip below 0
  *lo -= room;
  *hi += room;
  *lo = positive && *lo < 0 ? 0 : *lo;
  if (c->fixed) {  // polarisation: always its whole range 0..1, so charts read alike
    *lo = 0;
    *hi = 1;
  }
  return true;
}

// A series as a polyline, at most one point per pixel column; gaps (NaN) break the line.
static void draw_series(SDL_Renderer *sdl, const fbPlots *p, int s, SDL_Rect r, double lo, double hi)
{
  SDL_FPoint points[FB_PLOT_CAPACITY];
  int n = 0;
  double t0 = p->time[0], t1 = p->time[p->count - 1];
  double span = t1 > t0 ? t1 - t0 : 1;
  int step = p->count > r.w ? (p->count + r.w - 1) / r.w : 1;
  for (int k = 0; k < p->count; k += step) {
    double v = p->value[k][s];
    if (!isfinite(v)) {
      continue;
    }
    points[n++] = (SDL_FPoint){(float)(r.x + (p->time[k] - t0) / span * (r.w - 1)),
                               (float)(r.y + r.h - 1 - (v - lo) / (hi - lo) * (r.h - 1))};
  }
  if (n == 1) {
    points[n++] = (SDL_FPoint){points[0].x + 1, points[0].y};
  }
  if (n > 1) {
    SDL_RenderDrawLinesF(sdl, points, n);
  }
}

static void draw_chart(const fbPlots *p, const fbPlotChart *c, fbHud *hud, SDL_Rect cell)
{
  SDL_Renderer *sdl = hud->sdl;
  static const SDL_Color DIM = {170, 175, 185, 255};
  SDL_RenderSetClipRect(sdl, &cell);
  fbHud_TextFitted(hud, cell.x + PAD, cell.y + 2, DIM, cell.w - 2 * PAD, c->title, NULL);
  int label_w = 56;
  SDL_Rect r = {cell.x + PAD + label_w, cell.y + hud->line_h + 4, cell.w - 2 * PAD - label_w - 4,
                cell.h - 2 * hud->line_h - 8};
  if (r.w < 20 || r.h < 12) {
    return;
  }
  SDL_SetRenderDrawColor(sdl, 255, 255, 255, 18);
  SDL_RenderFillRect(sdl, &r);
  double lo, hi;
  if (p->count == 0 || !value_range(p, c, &lo, &hi)) {
    fbHud_Text(hud, r.x + 4, r.y + 2, DIM, 0, "no data yet", NULL, NULL);
    return;
  }
  char text[64];
  snprintf(text, sizeof text, "%.3g", hi);
  fbHud_Text(hud, cell.x + PAD, r.y - 2, DIM, 0, text, NULL, NULL);
  snprintf(text, sizeof text, "%.3g", lo);
  fbHud_Text(hud, cell.x + PAD, r.y + r.h - hud->line_h + 2, DIM, 0, text, NULL, NULL);
  SDL_RenderSetClipRect(sdl, &r);
  for (int s = c->first; s < c->first + c->count; ++s) {
    SDL_SetRenderDrawColor(sdl, p->colour[s].r, p->colour[s].g, p->colour[s].b, 255);
    draw_series(sdl, p, s, r, lo, hi);
  }
  SDL_RenderSetClipRect(sdl, &cell);
  // Latest values along the bottom, in the series' colours: the chart's legend.
  int x = r.x;
  for (int s = c->first; s < c->first + c->count && x < r.x + r.w; ++s) {
    float v = p->value[p->count - 1][s];
    snprintf(text, sizeof text, isfinite(v) ? "%.3g" : "—", v);
    int w;
    fbHud_Text(hud, x, r.y + r.h + 2, p->colour[s], 0, text, &w, NULL);
    x += w + 12;
  }
  snprintf(text, sizeof text, "%.0f–%.0f s", p->time[0], p->time[p->count - 1]);
  int tw, th;
  fbHud_Measure(hud, text, &tw, &th);
  if (x + tw < r.x + r.w) {
    fbHud_Text(hud, r.x + r.w - tw, r.y + r.h + 2, DIM, 0, text, NULL, NULL);
  }
}

int fbPlots_Cells(const fbPlots *p, int line_h, SDL_Rect area, int *chart, SDL_Rect *cell, int max, int *rows,
                  int *shown)
{
  int cols;
  grid_of(p->chart_count, area, rows, &cols, shown);
  SDL_Rect charts = area;
  if (*shown < *rows) {  // a line under the charts says which rows these are
    charts.h -= line_h + 2;
    grid_of(p->chart_count, charts, rows, &cols, shown);
  }
  int first = p->scroll_row < *rows - *shown ? p->scroll_row : *rows - *shown;
  int n = 0;
  for (int r = 0; r < *shown; ++r) {
    for (int c = 0; c < cols && n < max; ++c) {
      int k = (first + r) * cols + c;
      if (k < p->chart_count) {
        chart[n] = k;
        cell[n++] = (SDL_Rect){charts.x + c * charts.w / cols, charts.y + r * charts.h / *shown, charts.w / cols,
                               charts.h / *shown};
      }
    }
  }
  return n;
}

void fbPlots_Draw(fbPlots *p, fbUi *ui, SDL_Rect area)
{
  fbHud *hud = ui->hud;
  if (p->chart_count == 0 || area.w <= 0 || area.h <= 0) {
    return;
  }
  int rows, shown, chart[FB_PLOT_MAX_CHARTS];
  SDL_Rect cell[FB_PLOT_MAX_CHARTS];
  fbPlots_Cells(p, hud->line_h, area, chart, cell, FB_PLOT_MAX_CHARTS, &rows, &shown);
  p->scroll_row -= fbUi_Wheel(ui, area);
  p->scroll_row = p->scroll_row < 0 ? 0 : p->scroll_row > rows - shown ? rows - shown : p->scroll_row;
  int n = fbPlots_Cells(p, hud->line_h, area, chart, cell, FB_PLOT_MAX_CHARTS, &rows, &shown);
  for (int k = 0; k < n; ++k) {
    draw_chart(p, &p->charts[chart[k]], hud, cell[k]);
  }
  SDL_RenderSetClipRect(hud->sdl, &area);
  if (shown < rows) {
    char text[96];
    snprintf(text, sizeof text, "charts %d–%d of %d · the wheel scrolls", chart[0] + 1, chart[n - 1] + 1,
             p->chart_count);
    fbHud_Text(hud, area.x + PAD, area.y + area.h - hud->line_h - 1, (SDL_Color){170, 175, 185, 255}, 0, text, NULL,
               NULL);
  }
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
