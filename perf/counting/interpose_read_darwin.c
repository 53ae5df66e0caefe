/* interpose_read_darwin.c: the variable that inserts
 * liballocgate-interpose.dylib on macOS (interpose_read_posix.c reads
 * it; perf/interpose/interpose_darwin.c is the library). */
#include "counting/interpose_read.h"

const char *interpose_os_preload_var(void)
{
	return "DYLD_INSERT_LIBRARIES";
}
