/* version.c: the version of this build (version.h). */
#include "core/version.h"

/* generated in the build directory by configure.py's version edge, which
 * runs again after a commit, a checkout or a changed source file and
 * rewrites the header only when the version differs: GATE_VERSION */
#include "gate_version.h"

const char *gate_version(void)
{
	return GATE_VERSION;
}
