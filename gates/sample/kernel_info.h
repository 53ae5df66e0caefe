/* kernel_info.h: what a kernel executable says it has (`--list`), parsed
 * strictly from the line format of docs/protocol.md. */
#ifndef GATE_KERNEL_INFO_H
#define GATE_KERNEL_INFO_H

#include <stddef.h>

#include "core/digest.h"

struct kernel_paramset {
	char *name;
	unsigned tiers;        /* GATE_TIER_* bits of perf/allocgate/probe.h */
	char *values;
};

struct kernel_expect {
	char *file;
	int line;
	char *conditions;      /* NULL for all (core/conditions.h) */
	char *params;          /* NULL for all */
	char *expr;
	char *left_out;        /* a variant it names that --variant left out
				* (run/variant_filter.h); NULL: none */
};

struct kernel_info {
	char *path;            /* executable */
	char digest[DIGEST_TEXT_SIZE]; /* of the executable (digest.h), "" unknown */
	char *name, *summary;
	char *file;            /* source file of the kernel ("source" line), may be NULL */
	int line;
	char **variants;
	char **variant_files;  /* per variant, NULL when not declared with GATE_VARIANT */
	int *variant_lines;
	size_t variant_count;
	struct kernel_paramset *paramsets;
	size_t paramset_count;
	struct kernel_expect *expects;
	size_t expect_count;
	char *source_root;     /* where its project's file names start: the source
				* root of its executable (path_os_source_root), else
				* the current directory; NULL: names kept as given */
};

/* The parameter set's best_of value (repetitions of a timed sample in one
 * process, docs/protocol.md); 1 when it has none. */
long kernel_info_best_of(const struct kernel_paramset *p);

/* The value of KEY in the parameter set's values ("threads=4 ops=1000"),
 * OTHERWISE when it has none. */
long kernel_info_param(const struct kernel_paramset *p, const char *key, long otherwise);

/* Parses the `--list` output TEXT of the kernel at PATH into OUT. Returns 0,
 * or -EINVAL with ERR naming the output line and what is wrong. */
int kernel_info_parse(const char *path, const char *text, struct kernel_info *out,
		      char *err, size_t err_size);

/* File and line where variant V (an index) is declared: the variant's own
 * line when known, else the kernel's GATE_KERNEL line; NULL when neither. */
const char *kernel_info_variant_source(const struct kernel_info *k, size_t v, int *line);

/* FILE as K's project names it: relative to K's source root when it lies
 * below it (a debugger's absolute name, a build directory's), else as it is
 * (a library's, the system's). A relative name that is no file of the root
 * is named by its first tail that is ("build/src/x.c" of a build under
 * -ffile-prefix-map, Meson's "../src/x.c": "src/x.c"), "./" dropped, so
 * that a site names a file of the repository whatever the build system.
 * Points into FILE. */
const char *kernel_info_source_file(const struct kernel_info *k, const char *file);

/* Sets K's source root to ROOT and names K's own files (kernel, variants,
 * expectations) relative to it. Returns 0 or -ENOMEM. */
int kernel_info_set_source_root(struct kernel_info *k, const char *root);

/* Path of the counted build of K (docs/counters.md), into OUT: the
 * kernel's directory with "-counted" appended, e.g.
 * build/kernels-counted/NAME. Returns 0 when that file exists, else a
 * negative errno (OUT may still hold the path). */
int kernel_info_counted_path(const struct kernel_info *k, char *out, size_t size);

/* Frees what OUT owns. */
void kernel_info_free(struct kernel_info *info);

/* Whether NAME is in the comma list LIST (NULL means every name). */
int kernel_info_list_has(const char *list, const char *name);

/* Tier bit of a tier name ("quick", "default", "full"); 0 when unknown. */
unsigned kernel_info_tier_bit(const char *name);

#endif
