/* loaded_objects.h: the shared objects a program loads, as the dynamic
 * loader resolves them for it. One file per OS: os/loaded_objects_linux.c
 * asks glibc's loader (LD_TRACE_LOADED_OBJECTS=1: ld.so prints the objects
 * it mapped and exits before the program's main, ld.so(8));
 * os/loaded_objects_darwin.c and os/loaded_objects_windows.c have no such
 * list and say so. */
#ifndef GATE_LOADED_OBJECTS_H
#define GATE_LOADED_OBJECTS_H

/* Calls FN(PATH, ARG) for every shared object the program at PROGRAM loads,
 * by its full path, in the loader's order, until FN returns non-zero.
 * Returns 0, FN's non-zero value, -ENOTSUP where the OS gives no such list
 * (FN never called), or another negative errno (the program could not be
 * asked). */
int loaded_objects_each(const char *program, int (*fn)(const char *path, void *arg),
			void *arg);

#endif
