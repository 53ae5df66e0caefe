/* cpu_identity.c: the CPU's identity from /proc/cpuinfo text, sysfs cache
 * entries and CPUID (cpu_identity.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_identity.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define CPU_IDENTITY_CPUID 1
#endif

#define MAX_CORES 4096   /* distinct (package, core) pairs counted */

/* One /proc/cpuinfo line split at its first ':' into KEY (trailing blanks
 * dropped) and VALUE (leading blanks dropped, up to the line's end). */
struct cpuinfo_line {
	char key[64], value[8192];   /* a flags line runs to 1,500 bytes */
};

/* Splits the line at TEXT into L; returns the start of the next line, or
 * NULL at the end of TEXT. A line without ':' has an empty key. */
static const char *line_split(const char *text, struct cpuinfo_line *l)
{
	const char *end = strchr(text, '\n'), *colon = strchr(text, ':');
	size_t len = end ? (size_t)(end - text) : strlen(text), k;

	l->key[0] = l->value[0] = '\0';
	if (colon && (size_t)(colon - text) < len) {
		k = (size_t)(colon - text);
		while (k && (text[k - 1] == ' ' || text[k - 1] == '\t'))
			k--;
		snprintf(l->key, sizeof l->key, "%.*s", (int)k, text);
		const char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		snprintf(l->value, sizeof l->value, "%.*s", (int)(len - (size_t)(v - text)), v);
	}
	if (!end)
		return NULL;
	return end + 1;
}

/* *FIELD = a copy of VALUE when *FIELD is NULL and VALUE is not empty. */
static int keep(char **field, const char *value)
{
	if (*field || !*value)
		return 0;
	*field = strdup(value);
	return *field ? 0 : -ENOMEM;
}

/* *FIELD = "0x%02x" of the decimal VALUE, when still NULL. */
static int keep_hex(char **field, const char *value)
{
	char *end, hex[24];
	long n = strtol(value, &end, 10);

	if (*field || end == value || n < 0)
		return 0;
	snprintf(hex, sizeof hex, "0x%02lx", n);
	return keep(field, hex);
}

/* Whether the space-separated WORDS hold WORD. */
static int has_word(const char *words, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(words, word); p; p = strstr(p + 1, word))
		if ((p == words || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* The cores seen: distinct (physical id, core id) pairs, and packages. */
struct core_count {
	long pairs[MAX_CORES];
	size_t n_pairs;
	long packages[64];
	size_t n_packages;
	long per_package;   /* "cpu cores" of the first processor, -1 none */
};

static void add_unique(long *set, size_t *n, size_t max, long v)
{
	for (size_t i = 0; i < *n; i++)
		if (set[i] == v)
			return;
	if (*n < max)
		set[(*n)++] = v;
}

/* Counts the processor block that ended, with its PHYS and CORE ids (-1
 * when the block named none). */
static void core_block(struct core_count *cc, long phys, long core)
{
	if (phys >= 0)
		add_unique(cc->packages, &cc->n_packages, 64, phys);
	if (core >= 0)
		add_unique(cc->pairs, &cc->n_pairs, MAX_CORES, (phys < 0 ? 0 : phys) * 65536 + core);
}

static int cores_of(const struct core_count *cc)
{
	if (cc->n_pairs)
		return (int)cc->n_pairs;
	if (cc->per_package > 0)
		return (int)(cc->per_package * (long)(cc->n_packages ? cc->n_packages : 1));
	return 0;
}

/* Keeps the first processor's identity from line L into CTX. */
static int keep_identity(const struct cpuinfo_line *l, struct context *ctx)
{
	int rc = 0;
	if (!strcmp(l->key, "vendor_id"))
		rc = keep(&ctx->cpu_vendor, l->value);
	else if (!strcmp(l->key, "cpu family"))
		rc = keep_hex(&ctx->cpu_family, l->value);
	else if (!strcmp(l->key, "model"))
		rc = keep_hex(&ctx->cpu_model_number, l->value);
	else if (!strcmp(l->key, "stepping"))
		rc = keep(&ctx->cpu_stepping, l->value);
	else if (!strcmp(l->key, "microcode"))
		rc = keep(&ctx->cpu_microcode, l->value);
	else if (!strcmp(l->key, "CPU implementer")) {
		char vendor[80];
		snprintf(vendor, sizeof vendor, "implementer %s", l->value);
		rc = keep(&ctx->cpu_vendor, vendor);
	} else if (!strcmp(l->key, "CPU part"))
		rc = keep(&ctx->cpu_model_number, l->value);
	else if (!strcmp(l->key, "CPU revision"))
		rc = keep(&ctx->cpu_stepping, l->value);
	return rc;
}

int cpu_identity_parse_cpuinfo(const char *text, struct context *ctx, int *hypervisor_flag)
{
	struct core_count *cc = calloc(1, sizeof *cc);
	struct cpuinfo_line l;
	long phys = -1, core = -1;
	int threads = 0, in_block = 0, rc = 0;

	if (!cc)
		return -ENOMEM;
	cc->per_package = -1;
	*hypervisor_flag = -1;
	for (const char *p = text; p && *p && rc == 0;) {
		p = line_split(p, &l);
		if (!strcmp(l.key, "processor")) {
			if (in_block)
				core_block(cc, phys, core);
			phys = core = -1;
			in_block = 1;
			threads++;
		} else if (!strcmp(l.key, "physical id")) {
			phys = strtol(l.value, NULL, 10);
		} else if (!strcmp(l.key, "core id")) {
			core = strtol(l.value, NULL, 10);
		} else if (!strcmp(l.key, "cpu cores") && cc->per_package < 0) {
			cc->per_package = strtol(l.value, NULL, 10);
		} else if (!strcmp(l.key, "flags") && *hypervisor_flag < 0) {
			*hypervisor_flag = has_word(l.value, "hypervisor");
		} else {
			rc = keep_identity(&l, ctx);
		}
	}
	if (in_block)
		core_block(cc, phys, core);
	if (!ctx->cpu_threads)
		ctx->cpu_threads = threads;
	if (!ctx->cpu_cores)
		ctx->cpu_cores = cores_of(cc);
	free(cc);
	return rc;
}

void cpu_identity_hypervisor_name(const char sig[12], char *out, size_t size)
{
	static const struct { const char *sig, *name; } known[] = {
		{ "KVMKVMKVM", "KVM" },         { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },   { "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" }, { "bhyve bhyve ", "bhyve" },
		{ " lrpepyh  vr", "Parallels" }, { "ACRNACRNACRN", "ACRN" },
		{ "VBoxVBoxVBox", "VirtualBox" },
	};
	char text[13];
	size_t n = 0;

	for (size_t i = 0; i < 12; i++)
		text[i] = sig[i] >= 0x20 && sig[i] < 0x7f ? sig[i] : '\0';
	text[12] = '\0';
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strncmp(sig, known[i].sig, strlen(known[i].sig))) {
			snprintf(out, size, "%s", known[i].name);
			return;
		}
	/* the printable characters, blanks and NULs trimmed at both ends */
	size_t start = 0, end = 12;
	while (start < end && (text[start] == ' ' || !text[start]))
		start++;
	while (end > start && (text[end - 1] == ' ' || !text[end - 1]))
		end--;
	if (size)
		out[0] = '\0';
	for (size_t i = start; i < end && n + 1 < size; i++)
		if (text[i])
			out[n++] = text[i];
	if (size)
		out[n] = '\0';
}

int cpu_identity_add_cache(char **caches, int level, const char *type, const char *size)
{
	const char *kind = !strcmp(type, "Data") ? "d" : !strcmp(type, "Instruction") ? "i" : "";
	size_t old = *caches ? strlen(*caches) : 0, add = strlen(size) + 32;
	char *grown = realloc(*caches, old + add);

	if (!grown)
		return -ENOMEM;
	snprintf(grown + old, add, "%sL%d%s %s", old ? ", " : "", level, kind, size);
	*caches = grown;
	return 0;
}

#ifdef CPU_IDENTITY_CPUID
/* The vendor string of leaf 0 (EBX EDX ECX) into OUT (13 bytes). */
static void cpuid_vendor(char out[13])
{
	unsigned a, b, c, d;
	__cpuid(0, a, b, c, d);
	memcpy(out, &b, 4);
	memcpy(out + 4, &d, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
}

/* The hypervisor's name (leaf 0x40000000) when leaf 1's ECX bit 31 says
 * one is present, "none" otherwise, into OUT. */
static void cpuid_hypervisor(unsigned ecx1, char *out, size_t size)
{
	unsigned a, b, c, d;
	char sig[12];

	if (!(ecx1 & (1u << 31))) {
		snprintf(out, size, "none");
		return;
	}
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	cpu_identity_hypervisor_name(sig, out, size);
	if (!*out)
		snprintf(out, size, "unnamed");
}

int cpu_identity_cpuid(struct context *ctx)
{
	unsigned a, b, c, d;
	char text[32];
	int rc = 0;

	cpuid_vendor(text);
	rc |= keep(&ctx->cpu_vendor, text);
	__cpuid(1, a, b, c, d);
	/* displayed family = base + extended when base is 0xf; displayed
	 * model = base + extended << 4 when base is 6 or 0xf (Intel SDM vol. 2,
	 * CPUID leaf 1; AMD APM vol. 3, "CPUID Fn0000_0001_EAX") */
	unsigned family = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family == 0x6 || family >= 0xf)
		model += ((a >> 16) & 0xf) << 4;
	snprintf(text, sizeof text, "0x%02x", family);
	rc |= keep(&ctx->cpu_family, text);
	snprintf(text, sizeof text, "0x%02x", model);
	rc |= keep(&ctx->cpu_model_number, text);
	snprintf(text, sizeof text, "%u", a & 0xf);
	rc |= keep(&ctx->cpu_stepping, text);
	cpuid_hypervisor(c, text, sizeof text);
	rc |= keep(&ctx->cpu_hypervisor, text);
	return rc ? -ENOMEM : 0;
}
#else
int cpu_identity_cpuid(struct context *ctx)
{
	(void)ctx;
	return 0;
}
#endif

void cpu_identity_text(const struct context *ctx, char *out, size_t size)
{
	int n = snprintf(out, size, "%s", ctx->cpu_model ? ctx->cpu_model : "unknown CPU");
	if (n < 0 || (size_t)n >= size)
		return;
	if (ctx->cpu_family)
		n += snprintf(out + n, size - (size_t)n, " family %s", ctx->cpu_family);
	if ((size_t)n < size && ctx->cpu_model_number)
		n += snprintf(out + n, size - (size_t)n, " model %s", ctx->cpu_model_number);
	if ((size_t)n < size && ctx->cpu_stepping)
		snprintf(out + n, size - (size_t)n, " stepping %s", ctx->cpu_stepping);
}

int cpu_identity_known(const struct context *ctx)
{
	return ctx->cpu_vendor || ctx->cpu_family || ctx->cpu_model_number;
}
