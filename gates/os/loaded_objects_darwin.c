/* loaded_objects_darwin.c: loaded_objects.h where no loader lists what it maps
 * for a program that has not run: every kernel is measured. */
#include <errno.h>

#include "sample/loaded_objects.h"

int loaded_objects_each(const char *program, int (*fn)(const char *path, void *arg),
			void *arg)
{
	(void)program, (void)fn, (void)arg;
	return -ENOTSUP;
}
