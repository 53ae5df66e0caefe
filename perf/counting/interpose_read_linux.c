/* interpose_read_linux.c: the variable that preloads
 * liballocgate-interpose.so on Linux (interpose_read_posix.c reads it). */
#include "counting/interpose_read.h"

const char *interpose_os_preload_var(void)
{
	return "LD_PRELOAD";
}
