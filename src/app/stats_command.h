// stats_command.h — flockbox stats FILE.csv: the statistics of a trajectory file (observed or a run's), and their distance to another's.
#ifndef FB_STATS_COMMAND_H
#define FB_STATS_COMMAND_H

// flockbox stats FILE [--group NAME] [--link D] [--frames OUT.csv] [--compare OTHER]: argv[0] is
// "stats". Returns 0, or 2 on bad input (one message naming the file, line and column).
int fbStatsCommand_Main(int argc, char **argv);

#endif
