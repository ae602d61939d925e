// log.h — the engine's one way to say something: through the program's log function (flockbox.h), never to a stream.
#ifndef FB_LOG_H
#define FB_LOG_H

#include <flockbox/flockbox.h>

/*
 * A library that writes to stderr takes a decision that belongs to the program embedding it (a
 * game has a console, a test a buffer). As Box2D's b2SetLogFcn, the program sets one function with
 * fbSetLogFunction; until it does, messages go to stderr as "flockbox: <message>", which is what
 * the flockbox program has always printed. One message is one call, without the program's name
 * and without a final newline.
 */
void fbLog(fbLogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
